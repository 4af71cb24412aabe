// Package guest is a simulated Fly Machine's operating system: the image's
// filesystem, /proc, a POSIX shell and the commands an operator types, each
// answering what a Debian-based image on a Fly Machine would print. It is a
// pure function of a View copied out of the machine, so exec runs without
// holding the platform; nothing on the host is ever read or run.
//
// printenv shows the app's env and Fly's FLY_* variables but never its
// secrets. A real guest's printenv WOULD print secrets (they are plain env
// vars inside the VM): flywake must never run printenv for display.
package guest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net"
	"strings"
	"time"

	fly "github.com/superfly/fly-go"
)

// BytecodeProbePrefix is how the guest recognises the bytecode probe
// (diagnose.BytecodeProbeCommand()).
const BytecodeProbePrefix = `python3 -c "import base64;exec(base64.b64decode('`

// View is everything the guest needs, copied out of a machine.
type View struct {
	App, ID, Region, Image, PrivateIP, Group, Version string
	MemoryMB, SwapMB, CPUs, Port                      int
	Env                                               map[string]string // the config's env (never a secret)
	MemAvailPct, SwapUsedKB                           int
	Inflight, CloseWait                               int // the proxy's connections to it
	Serving                                           bool
	Bytecode                                          Bytecode
	BootedAt, Now                                     time.Time
	HealthPath                                        string
	Server                                            string // the command the entrypoint execs into
	Workers                                           int
	FS                                                *FS // the app's image, shared read-only
	Volumes                                           []Volume
}

// Exec runs a command line (cmd, as fly-go sends it) or an argv (command).
// Fly documents no splitting rule for cmd; flysim runs it through the guest
// shell, so `cat /proc/meminfo | head -3` and `sh -c '…'` both work. An argv
// runs as given, without a shell, as execve would.
func (g View) Exec(cmd string, argv []string) Result {
	sh := newShell(g)
	out, errOut := &limitedBuffer{}, &limitedBuffer{}
	io := stdio{out: out, err: errOut}
	var code int
	if len(argv) > 0 {
		code = sh.run(argv, io)
	} else {
		code = sh.runScript(cmd, io)
	}
	return Result{ExitCode: code, StdOut: out.String(), StdErr: errOut.String()}
}

// Result is what an exec answers, as the Machines API encodes it.
type Result struct {
	ExitCode   int    `json:"exit_code"`
	ExitSignal int    `json:"exit_signal"`
	StdOut     string `json:"stdout"`
	StdErr     string `json:"stderr"`
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

func (g View) uname(args []string) string {
	if len(args) == 0 || (len(args) == 1 && args[0] == "-s") {
		return "Linux"
	}
	if len(args) == 1 && args[0] == "-r" {
		return "6.12.34-fly"
	}
	return fmt.Sprintf("Linux %s 6.12.34-fly #1 SMP PREEMPT_DYNAMIC Thu Jun 26 19:54:40 UTC 2025 x86_64 GNU/Linux", g.ID)
}

// environ is the guest's environment minus secrets, sorted.
func (g View) environ() map[string]string {
	env := map[string]string{
		"PATH":                "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME":                "/root",
		"HOSTNAME":            g.ID,
		"FLY_APP_NAME":        g.App,
		"FLY_MACHINE_ID":      g.ID,
		"FLY_ALLOC_ID":        g.ID,
		"FLY_REGION":          g.Region,
		"FLY_IMAGE_REF":       g.Image,
		"FLY_MACHINE_VERSION": g.Version,
		"FLY_PRIVATE_IP":      g.PrivateIP,
		"FLY_PROCESS_GROUP":   g.Group,
		"FLY_VM_MEMORY_MB":    fmt.Sprint(g.MemoryMB),
	}
	for k, v := range g.Env {
		env[k] = v
	}
	return env
}

// bytecodeReport is the probe's one JSON line (diagnose reads it).
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

// bytecodeProbe is the probe's JSON line, counted on the guest's filesystem
// the way the probe script counts (diagnose.BytecodeProbeScript).
func (g View) bytecodeProbe() string {
	b := g.Bytecode
	app := b.AppDir
	if app == "" {
		app = "/app"
	}
	site := sitePackagesDir(g.FS, &b, app)
	sc, siteTags := bytecodeCount(g.FS, site, b.CacheTag, nil)
	ac, appTags := bytecodeCount(g.FS, app, b.CacheTag, map[string]bool{site: true})
	_ = siteTags
	rep := bytecodeReport{Python: b.Python, CacheTag: b.CacheTag, DontWriteBytecode: b.DontWriteBytecode,
		SitePackages: sc, App: bytecodeAppPart{Dir: app, bytecodeCounts: ac, ForeignTags: append([]string{}, appTags...)}}
	out, _ := json.Marshal(rep)
	return string(out)
}

// meminfo renders /proc/meminfo consistent with the machine's config: the
// kernel keeps ~6% of guest memory (1024 MB → MemTotal 985220 kB), swap
// shows its size less one 4 kB page, and availability follows the profile.
func (g View) meminfo() string {
	var b strings.Builder
	for _, r := range g.meminfoRows() {
		fmt.Fprintf(&b, "%-16s%8d kB\n", r.k+":", r.v)
	}
	for _, k := range []string{"HugePages_Total", "HugePages_Free", "HugePages_Rsvd", "HugePages_Surp"} {
		fmt.Fprintf(&b, "%-16s%8d\n", k+":", 0)
	}
	fmt.Fprintf(&b, "%-16s%8d kB\n", "Hugepagesize:", 2048)
	fmt.Fprintf(&b, "%-16s%8d kB\n", "Hugetlb:", 0)
	fmt.Fprintf(&b, "%-16s%8d kB\n", "DirectMap4k:", 22528)
	fmt.Fprintf(&b, "%-16s%8d kB\n", "DirectMap2M:", g.MemoryMB*1024-22528+2048)
	return b.String()
}

type meminfoRow struct {
	k string
	v int
}

// meminfoValues are /proc/meminfo's kB figures by name (free and ps read
// them, so every view of memory agrees).
func (g View) meminfoValues() map[string]int64 {
	out := map[string]int64{}
	for _, r := range g.meminfoRows() {
		out[r.k] = int64(r.v)
	}
	return out
}

func (g View) memTotalKB() int { return g.MemoryMB * kernelVisibleKBPerGB / 1024 }

func (g View) meminfoRows() []meminfoRow {
	total := g.memTotalKB()
	avail := total * g.MemAvailPct / 100
	free := avail * 45 / 100
	buffers := total / 120
	cached := max(avail-free-buffers, 0) + total/50
	swapTotal := 0
	if g.SwapMB > 0 {
		swapTotal = g.SwapMB*1024 - 4
	}
	swapUsed := min(g.SwapUsedKB, swapTotal)
	swapFree := swapTotal - swapUsed
	anon := max(total-avail-total/20, 0)
	shmem := total / 400
	slab := total / 40
	return []meminfoRow{
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
		{"Percpu", 448 * max(g.CPUs, 1)}, {"HardwareCorrupted", 0},
		{"AnonHugePages", 0}, {"ShmemHugePages", 0}, {"ShmemPmdMapped", 0},
		{"FileHugePages", 0}, {"FilePmdMapped", 0},
	}
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
func (g View) seed() uint32 {
	h := fnv.New32a()
	h.Write([]byte(g.ID))
	return h.Sum32()
}

// vmIPv4 is the machine's internal IPv4, the address fly-proxy reaches it on.
func (g View) vmIPv4() net.IP {
	sd := g.seed()
	return net.IPv4(172, 19, byte(sd>>8)%250+1, byte(sd)%250+2)
}

// sockets4 are the app's IPv4 sockets: its listener once it serves, one
// connection per in-flight request plus an idle keep-alive from the proxy,
// and the sockets the app left in CLOSE_WAIT.
func (g View) sockets4() []sock {
	sd := int(g.seed())
	inode := 20000 + sd%10000
	var out []sock
	if g.Serving {
		out = append(out, sock{local: net.IPv4zero, lport: g.Port, remote: net.IPv4zero, st: tcpListen, inode: inode})
	}
	local := g.vmIPv4()
	proxy := net.IPv4(172, 16, byte(sd>>16)%250+1, byte(sd>>4)%250+2)
	established := 0
	if g.Serving {
		established = g.Inflight + 1
	}
	for i := 0; i < established; i++ {
		out = append(out, sock{local: local, lport: g.Port, remote: proxy, rport: 40000 + (sd+i*7919)%20000,
			st: tcpEstablished, inode: inode + 1 + i})
	}
	for i := 0; i < g.CloseWait; i++ {
		out = append(out, sock{local: local, lport: g.Port, remote: proxy, rport: 40000 + (sd+(i+established)*7919)%20000,
			st: tcpCloseWait, inode: 0, rxq: 1})
	}
	return out
}

const tcpHeader = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
const tcp6Header = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"

func (g View) netTCP() string {
	var b strings.Builder
	b.WriteString(tcpHeader)
	for i, s := range g.sockets4() {
		fmt.Fprintf(&b, "%4d: %s:%04X %s:%04X %02X %08X:%08X 00:00000000 00000000     0        0 %d 1 0000000000000000 20 4 30 10 -1\n",
			i, hexIPv4(s.local), s.lport, hexIPv4(s.remote), s.rport, s.st, s.txq, s.rxq, s.inode)
	}
	return b.String()
}

// netTCP6 holds the init's SSH listener (hallpass) on the 6PN address.
func (g View) netTCP6() string {
	var b strings.Builder
	b.WriteString(tcp6Header)
	ip := net.ParseIP(g.PrivateIP)
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

// proc is one process of the guest.
type proc struct {
	pid, ppid    int
	cmd, dir     string
	stat         string
	rssKB        int
	cpuSec       int
	startedAfter time.Duration // after the boot
	listen       []fly.ListenSocket
}

// execPID is the first pid of an exec's own processes.
const execPID = 712

// procs is the guest's process table: flyd's init and its SSH server, the
// app — the server its entrypoint execs into and that server's workers once
// it serves, the entrypoint itself while it boots — and, when self is set,
// the exec's own command. Resident memory adds up to what /proc/meminfo
// shows in use.
func (g View) procs(self string) []proc {
	up := g.uptime()
	used := int(g.meminfoValues()["AnonPages"])
	out := []proc{
		{pid: 1, cmd: "/.fly/init", dir: "/", stat: "Ss", rssKB: 4096, cpuSec: int(up.Seconds() / 900)},
		{pid: 314, ppid: 1, cmd: "/.fly/hallpass", dir: "/", stat: "Sl", rssKB: 12288, cpuSec: int(up.Seconds() / 3600),
			startedAfter: 40 * time.Millisecond,
			listen:       []fly.ListenSocket{{Proto: "tcp", Address: fmt.Sprintf("[%s]:22", g.PrivateIP)}}},
	}
	appRSS := max(used-4096-12288, 8192)
	switch {
	case g.Serving && g.Server != "":
		workers := max(g.Workers, 1)
		master := appRSS / (4 * workers)
		out = append(out, proc{pid: 637, ppid: 1, cmd: g.Server, dir: "/app", stat: "Ss", rssKB: master,
			cpuSec: 2, startedAfter: 250 * time.Millisecond,
			listen: []fly.ListenSocket{{Proto: "tcp", Address: fmt.Sprintf("0.0.0.0:%d", g.Port)}}})
		for i := 0; i < workers; i++ {
			out = append(out, proc{pid: 650 + i, ppid: 637, cmd: g.Server, dir: "/app", stat: "Sl",
				rssKB: (appRSS - master) / workers, cpuSec: 4 + int(up.Seconds()/600), startedAfter: 300 * time.Millisecond})
		}
	default:
		var listen []fly.ListenSocket
		if g.Serving {
			listen = []fly.ListenSocket{{Proto: "tcp", Address: fmt.Sprintf("0.0.0.0:%d", g.Port)}}
		}
		out = append(out, proc{pid: 637, ppid: 1, cmd: "/bin/sh /app/entrypoint.sh", dir: "/app", stat: "Ss",
			rssKB: appRSS, cpuSec: 1, startedAfter: 250 * time.Millisecond, listen: listen})
	}
	if self != "" {
		out = append(out, proc{pid: execPID, ppid: 1, cmd: self, dir: "/app", stat: "R", rssKB: 3200,
			startedAfter: up})
	}
	return out
}

// uptime is how long the guest has run.
func (g View) uptime() time.Duration { return max(g.Now.Sub(g.BootedAt), 0) }

func (g View) procUptime() string {
	up := g.uptime().Seconds()
	return fmt.Sprintf("%.2f %.2f\n", up, up*float64(max(g.CPUs, 1))*0.97)
}

// procLoadavg follows the requests in flight.
func (g View) procLoadavg() string {
	l := float64(g.Inflight) / float64(max(g.CPUs, 1))
	return fmt.Sprintf("%.2f %.2f %.2f 1/%d %d\n", l, l*0.8, l*0.6, 60+g.Workers*4, 700+int(g.seed()%50))
}

// Processes is GET /ps: the same table ps prints.
func (g View) Processes(now time.Time) fly.MachinePsResponse {
	g.Now = now
	var out fly.MachinePsResponse
	for _, p := range g.procs("") {
		listen := p.listen
		if listen == nil {
			listen = []fly.ListenSocket{}
		}
		out = append(out, fly.ProcessStat{Pid: int32(p.pid), Stime: uint64(p.startedAfter / time.Millisecond),
			Rtime: uint64(max(g.uptime()-p.startedAfter, 0) / time.Millisecond), Command: p.cmd, Directory: p.dir,
			Cpu: uint64(p.cpuSec) * 100, Rss: uint64(p.rssKB) << 10, ListenSockets: listen})
	}
	return out
}
