package flysim

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net"
	"sort"
	"strings"
	"time"

	fly "github.com/superfly/fly-go"
)

// The simulated guest answers exec with what a Debian-based image on a Fly
// Machine would print (contracts.md "Exec"). It is a pure function of a
// guestView taken under s.mu, so commands run without holding the platform.
//
// printenv shows the app's env and Fly's FLY_* variables but never its
// secrets. A real guest's printenv WOULD print secrets (they are plain env
// vars inside the VM): flywake must never run printenv for display.

// BytecodeProbePrefix is how the guest recognises the bytecode probe
// (diagnose.BytecodeProbeCommand()).
const BytecodeProbePrefix = `python3 -c "import base64;exec(base64.b64decode('`

// guestView is everything the guest needs, copied out of a machine.
type guestView struct {
	app, id, region, image, privateIP, group, version string
	memoryMB, swapMB, cpus, port                      int
	env                                               map[string]string
	memAvailPct, swapUsedKB                           int
	inflight, closeWait                               int
	serving                                           bool
	bytecode                                          BytecodeImage
	bootedAt                                          time.Time
	healthPath                                        string
}

// guestOf copies what the guest shows of m. Callers hold s.mu.
func (s *Sim) guestOf(m *machine) guestView {
	p := &m.app.p
	g := guestView{
		app: p.Name, id: m.id, region: m.region, privateIP: m.privateIP, group: p.ProcessGroup,
		version: m.instanceID, image: fmt.Sprintf("registry.fly.io/%s:%s", p.Image, p.Tag),
		memoryMB: p.MemoryMB, cpus: p.CPUs, port: p.InternalPort, env: map[string]string{},
		memAvailPct: p.MemAvailPct, swapUsedKB: p.SwapUsedKB, inflight: m.inflight, closeWait: m.closeWait,
		serving: m.serving, bytecode: p.Bytecode, bootedAt: m.updatedAt, healthPath: p.HealthPath,
	}
	if c := m.cfg; c != nil {
		if c.Guest != nil {
			g.memoryMB, g.cpus = c.Guest.MemoryMB, c.Guest.CPUs
		}
		if c.Init.SwapSizeMB != nil {
			g.swapMB = *c.Init.SwapSizeMB
		}
		for k, v := range c.Env {
			g.env[k] = v
		}
	}
	return g
}

// exec runs a command line (cmd, as fly-go sends it) or an argv (command).
func (g guestView) exec(cmd string, argv []string) execJSON {
	line := cmd
	if len(argv) > 0 {
		if len(argv) == 3 && (argv[0] == "sh" || argv[0] == "/bin/sh" || argv[0] == "bash") && argv[1] == "-c" {
			line = argv[2]
		} else if len(argv) == 3 && isPython(argv[0]) && argv[1] == "-c" {
			line = argv[0] + ` -c "` + argv[2] + `"`
		} else {
			line = strings.Join(argv, " ")
		}
	}
	line = strings.TrimSpace(line)
	if inner, ok := unwrapShell(line); ok {
		line = inner
	}
	if strings.HasPrefix(line, BytecodeProbePrefix) {
		return g.python([]string{"python3", "-c", "<probe>"}, true)
	}
	words := splitWords(line)
	if len(words) == 0 {
		return execJSON{}
	}
	switch name := words[0]; {
	case name == "cat":
		return g.cat(words[1:])
	case name == "printenv" || name == "env":
		return g.printenv(words[1:])
	case isPython(name):
		return g.python(words, false)
	case name == "uname":
		return execJSON{StdOut: g.uname(words[1:]) + "\n"}
	case name == "hostname":
		return execJSON{StdOut: g.id + "\n"}
	case name == "echo":
		return execJSON{StdOut: strings.Join(words[1:], " ") + "\n"}
	case name == "true":
		return execJSON{}
	default:
		return notFound(name)
	}
}

func isPython(name string) bool {
	return name == "python3" || name == "python" || name == "/usr/local/bin/python3" || name == "/usr/bin/python3"
}

func notFound(name string) execJSON {
	return execJSON{ExitCode: 127, StdErr: fmt.Sprintf("sh: 1: %s: not found\n", name)}
}

// unwrapShell turns `sh -c '<inner>'` into <inner>.
func unwrapShell(line string) (string, bool) {
	for _, pfx := range []string{"sh -c ", "/bin/sh -c ", "bash -c "} {
		if rest, ok := strings.CutPrefix(line, pfx); ok {
			if w := splitWords(rest); len(w) == 1 {
				return w[0], true
			}
		}
	}
	return "", false
}

// splitWords splits a command line like a POSIX shell would for simple
// words and '…' / "…" quoting (no expansion, pipes or escapes beyond \").
func splitWords(line string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for i, rs := 0, []rune(line); i < len(rs); i++ {
		c := rs[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(rs) && (rs[i+1] == '"' || rs[i+1] == '\\') {
				i++
				cur.WriteRune(rs[i])
			} else {
				cur.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

func (g guestView) cat(files []string) execJSON {
	var out execJSON
	var stdout, stderr strings.Builder
	for _, f := range files {
		switch f {
		case "/proc/meminfo":
			stdout.WriteString(g.meminfo())
		case "/proc/net/tcp":
			stdout.WriteString(g.netTCP())
		case "/proc/net/tcp6":
			stdout.WriteString(g.netTCP6())
		case "/etc/os-release":
			stdout.WriteString(osRelease)
		case "/etc/hostname":
			stdout.WriteString(g.id + "\n")
		default:
			fmt.Fprintf(&stderr, "cat: %s: No such file or directory\n", f)
			out.ExitCode = 1
		}
	}
	out.StdOut, out.StdErr = stdout.String(), stderr.String()
	return out
}

const osRelease = `PRETTY_NAME="Debian GNU/Linux 13 (trixie)"
NAME="Debian GNU/Linux"
VERSION_ID="13"
VERSION="13 (trixie)"
VERSION_CODENAME=trixie
DEBIAN_VERSION_FULL=13.1
ID=debian
HOME_URL="https://www.debian.org/"
SUPPORT_URL="https://www.debian.org/support"
BUG_REPORT_URL="https://bugs.debian.org/"
`

func (g guestView) uname(args []string) string {
	if len(args) == 0 || (len(args) == 1 && args[0] == "-s") {
		return "Linux"
	}
	if len(args) == 1 && args[0] == "-r" {
		return "6.12.34-fly"
	}
	return fmt.Sprintf("Linux %s 6.12.34-fly #1 SMP PREEMPT_DYNAMIC Thu Jun 26 19:54:40 UTC 2025 x86_64 GNU/Linux", g.id)
}

// environ is the guest's environment minus secrets, sorted.
func (g guestView) environ() map[string]string {
	env := map[string]string{
		"PATH":                "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME":                "/root",
		"HOSTNAME":            g.id,
		"FLY_APP_NAME":        g.app,
		"FLY_MACHINE_ID":      g.id,
		"FLY_ALLOC_ID":        g.id,
		"FLY_REGION":          g.region,
		"FLY_IMAGE_REF":       g.image,
		"FLY_MACHINE_VERSION": g.version,
		"FLY_PRIVATE_IP":      g.privateIP,
		"FLY_PROCESS_GROUP":   g.group,
		"FLY_VM_MEMORY_MB":    fmt.Sprint(g.memoryMB),
	}
	for k, v := range g.env {
		env[k] = v
	}
	return env
}

func (g guestView) printenv(names []string) execJSON {
	env := g.environ()
	if len(names) > 0 {
		var b strings.Builder
		code := 0
		for _, n := range names {
			if v, ok := env[n]; ok {
				b.WriteString(v + "\n")
			} else {
				code = 1
			}
		}
		return execJSON{ExitCode: code, StdOut: b.String()}
	}
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + env[k] + "\n")
	}
	return execJSON{StdOut: b.String()}
}

// bytecodeReport is the probe's one JSON line (contracts.md).
type bytecodeReport struct {
	Python            string          `json:"python"`
	CacheTag          string          `json:"cache_tag"`
	DontWriteBytecode bool            `json:"dont_write_bytecode"`
	SitePackages      bytecodeCounts  `json:"site_packages"`
	App               bytecodeAppPart `json:"app"`
}

type bytecodeCounts struct {
	Py         int `json:"py"`
	Pyc        int `json:"pyc"`
	ForeignPyc int `json:"foreign_pyc"`
}

type bytecodeAppPart struct {
	Dir string `json:"dir"`
	bytecodeCounts
	ForeignTags []string `json:"foreign_tags"`
}

func (g guestView) python(words []string, probe bool) execJSON {
	b := g.bytecode
	if b.NotPython {
		return notFound(words[0])
	}
	if probe {
		rep := bytecodeReport{Python: b.Python, CacheTag: b.CacheTag, DontWriteBytecode: b.DontWriteBytecode,
			SitePackages: bytecodeCounts{Py: b.SitePy, Pyc: b.SitePyc, ForeignPyc: b.SiteForeignPyc},
			App: bytecodeAppPart{Dir: b.AppDir, bytecodeCounts: bytecodeCounts{Py: b.AppPy, Pyc: b.AppPyc, ForeignPyc: b.AppForeignPyc},
				ForeignTags: append([]string{}, b.ForeignTags...)}}
		out, _ := json.Marshal(rep)
		return execJSON{StdOut: string(out) + "\n"}
	}
	if len(words) == 2 && (words[1] == "--version" || words[1] == "-V") {
		return execJSON{StdOut: "Python " + b.Python + "\n"}
	}
	// Anything else would need a real interpreter.
	return execJSON{ExitCode: 1, StdErr: "flysim: this simulated python3 only answers --version and the bytecode probe\n"}
}

// meminfo renders /proc/meminfo consistent with the machine's config: the
// kernel keeps ~6% of guest memory (1024 MB → MemTotal 985220 kB), swap
// shows its size less one 4 kB page, and availability follows the profile.
func (g guestView) meminfo() string {
	total := g.memoryMB * 985220 / 1024
	avail := total * g.memAvailPct / 100
	free := avail * 45 / 100
	buffers := total / 120
	cached := max(avail-free-buffers, 0) + total/50
	swapTotal := 0
	if g.swapMB > 0 {
		swapTotal = g.swapMB*1024 - 4
	}
	swapUsed := min(g.swapUsedKB, swapTotal)
	swapFree := swapTotal - swapUsed
	anon := max(total-avail-total/20, 0)
	shmem := total / 400
	slab := total / 40
	rows := []struct {
		k string
		v int
	}{
		{"MemTotal", total}, {"MemFree", free}, {"MemAvailable", avail}, {"Buffers", buffers},
		{"Cached", cached}, {"SwapCached", swapUsed / 10},
		{"Active", anon/3 + cached/2}, {"Inactive", anon*2/3 + cached/2},
		{"Active(anon)", anon / 3}, {"Inactive(anon)", anon * 2 / 3},
		{"Active(file)", cached / 2}, {"Inactive(file)", cached - cached/2},
		{"Unevictable", 0}, {"Mlocked", 0},
		{"SwapTotal", swapTotal}, {"SwapFree", swapFree},
		{"Zswap", 0}, {"Zswapped", 0}, {"Dirty", 96}, {"Writeback", 0},
		{"AnonPages", anon}, {"Mapped", total / 30}, {"Shmem", shmem},
		{"KReclaimable", slab / 2}, {"Slab", slab}, {"SReclaimable", slab / 2}, {"SUnreclaim", slab - slab/2},
		{"KernelStack", 2304}, {"PageTables", total / 250}, {"SecPageTables", 0},
		{"NFS_Unstable", 0}, {"Bounce", 0}, {"WritebackTmp", 0},
		{"CommitLimit", total/2 + swapTotal}, {"Committed_AS", anon + total/10},
		{"VmallocTotal", 34359738367}, {"VmallocUsed", 9856}, {"VmallocChunk", 0},
		{"Percpu", 448 * max(g.cpus, 1)}, {"HardwareCorrupted", 0},
		{"AnonHugePages", 0}, {"ShmemHugePages", 0}, {"ShmemPmdMapped", 0},
		{"FileHugePages", 0}, {"FilePmdMapped", 0},
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-16s%8d kB\n", r.k+":", r.v)
	}
	for _, k := range []string{"HugePages_Total", "HugePages_Free", "HugePages_Rsvd", "HugePages_Surp"} {
		fmt.Fprintf(&b, "%-16s%8d\n", k+":", 0)
	}
	fmt.Fprintf(&b, "%-16s%8d kB\n", "Hugepagesize:", 2048)
	fmt.Fprintf(&b, "%-16s%8d kB\n", "Hugetlb:", 0)
	fmt.Fprintf(&b, "%-16s%8d kB\n", "DirectMap4k:", 22528)
	fmt.Fprintf(&b, "%-16s%8d kB\n", "DirectMap2M:", g.memoryMB*1024-22528+2048)
	return b.String()
}

// TCP states as /proc/net/tcp numbers them.
const (
	tcpEstablished = 0x01
	tcpListen      = 0x0A
	tcpCloseWait   = 0x08
)

type sock struct {
	local, remote    net.IP
	lport, rport, st int
	inode, txq, rxq  int
}

// seed is a stable per-machine number for ports and inodes.
func (g guestView) seed() uint32 {
	h := fnv.New32a()
	h.Write([]byte(g.id))
	return h.Sum32()
}

// vmIPv4 is the machine's internal IPv4, the address fly-proxy reaches it on.
func (g guestView) vmIPv4() net.IP {
	sd := g.seed()
	return net.IPv4(172, 19, byte(sd>>8)%250+1, byte(sd)%250+2)
}

// sockets4 are the app's IPv4 sockets: its listener once it serves, one
// connection per in-flight request plus an idle keep-alive from the proxy,
// and the sockets the app left in CLOSE_WAIT.
func (g guestView) sockets4() []sock {
	sd := int(g.seed())
	inode := 20000 + sd%10000
	var out []sock
	if g.serving {
		out = append(out, sock{local: net.IPv4zero, lport: g.port, remote: net.IPv4zero, st: tcpListen, inode: inode})
	}
	local := g.vmIPv4()
	proxy := net.IPv4(172, 16, byte(sd>>16)%250+1, byte(sd>>4)%250+2)
	established := 0
	if g.serving {
		established = g.inflight + 1
	}
	for i := 0; i < established; i++ {
		out = append(out, sock{local: local, lport: g.port, remote: proxy, rport: 40000 + (sd+i*7919)%20000,
			st: tcpEstablished, inode: inode + 1 + i})
	}
	for i := 0; i < g.closeWait; i++ {
		out = append(out, sock{local: local, lport: g.port, remote: proxy, rport: 40000 + (sd+(i+established)*7919)%20000,
			st: tcpCloseWait, inode: 0, rxq: 1})
	}
	return out
}

const tcpHeader = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
const tcp6Header = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"

func (g guestView) netTCP() string {
	var b strings.Builder
	b.WriteString(tcpHeader)
	for i, s := range g.sockets4() {
		fmt.Fprintf(&b, "%4d: %s:%04X %s:%04X %02X %08X:%08X 00:00000000 00000000     0        0 %d 1 0000000000000000 20 4 30 10 -1\n",
			i, hexIPv4(s.local), s.lport, hexIPv4(s.remote), s.rport, s.st, s.txq, s.rxq, s.inode)
	}
	return b.String()
}

// netTCP6 holds the init's SSH listener (hallpass) on the 6PN address.
func (g guestView) netTCP6() string {
	var b strings.Builder
	b.WriteString(tcp6Header)
	ip := net.ParseIP(g.privateIP)
	if ip == nil {
		return b.String()
	}
	fmt.Fprintf(&b, "%4d: %s:%04X %s:%04X %02X %08X:%08X 00:00000000 00000000     0        0 %d 1 0000000000000000 100 0 0 10 0\n",
		0, hexIPv6(ip), 22, hexIPv6(net.IPv6zero), 0, tcpListen, 0, 0, 10000+int(g.seed()%10000))
	return b.String()
}

// hexIPv4 prints an address as the kernel does: the 32-bit word in host
// (little-endian) order, so 127.0.0.1 is 0100007F.
func hexIPv4(ip net.IP) string {
	v4 := ip.To4()
	if v4 == nil {
		v4 = net.IPv4zero.To4()
	}
	return fmt.Sprintf("%02X%02X%02X%02X", v4[3], v4[2], v4[1], v4[0])
}

// hexIPv6 prints four little-endian 32-bit words.
func hexIPv6(ip net.IP) string {
	v6 := ip.To16()
	var b strings.Builder
	for w := 0; w < 4; w++ {
		q := v6[w*4 : w*4+4]
		fmt.Fprintf(&b, "%02X%02X%02X%02X", q[3], q[2], q[1], q[0])
	}
	return b.String()
}

// processes is GET /ps: init, the app's server, and hallpass.
func (g guestView) processes(now time.Time) fly.MachinePsResponse {
	started := uint64(max(now.Sub(g.bootedAt), 0) / time.Millisecond)
	var listen []fly.ListenSocket
	if g.serving {
		listen = []fly.ListenSocket{{Proto: "tcp", Address: fmt.Sprintf("0.0.0.0:%d", g.port)}}
	}
	return fly.MachinePsResponse{
		{Pid: 1, Stime: 0, Rtime: started, Command: "/.fly/init", Directory: "/", Cpu: 120, Rss: 4 << 20,
			ListenSockets: []fly.ListenSocket{}},
		{Pid: 314, Stime: 40, Rtime: started, Command: "/.fly/hallpass", Directory: "/", Cpu: 30, Rss: 12 << 20,
			ListenSockets: []fly.ListenSocket{{Proto: "tcp", Address: fmt.Sprintf("[%s]:22", g.privateIP)}}},
		{Pid: 637, Stime: 250, Rtime: started, Command: "/app/entrypoint.sh", Directory: "/app", Cpu: 4200,
			Rss: uint64(g.memoryMB) << 20 / 4, ListenSockets: listen},
	}
}
