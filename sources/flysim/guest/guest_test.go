package guest

import (
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func testGuest() View {
	return View{
		App: "a", ID: "148ed123456789", Region: "ams", Image: "registry.fly.io/a:t", PrivateIP: "fdaa:0:18:a7b:65:1:2:2",
		Group: "app", Version: "01JABCDEFGHJKMNPQRSTVWXYZ0", MemoryMB: 1024, SwapMB: 2048, CPUs: 1, Port: 8000,
		Env: map[string]string{"PRIMARY_REGION": "ams"}, MemAvailPct: 50, SwapUsedKB: 1000, Serving: true,
		Bytecode: Bytecode{Python: "3.12.1", CacheTag: "cpython-312", AppDir: "/app"},
	}
}

// meminfoValue reads one "Key:   N kB" field.
func meminfoValue(t *testing.T, text, key string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(key) + `:\s+(\d+)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s in meminfo", key)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func TestGuestMeminfoFollowsConfig(t *testing.T) {
	tests := []struct {
		memMB, swapMB, availPct, swapUsed int
		total, swapTotal, swapFree        int
	}{
		{1024, 2048, 58, 0, 985220, 2097148, 2097148},
		{1024, 2048, 58, 51200, 985220, 2097148, 2045948},
		{512, 0, 64, 0, 492610, 0, 0},
		{2048, 512, 40, 4096, 1970440, 524284, 520188},
	}
	for _, tt := range tests {
		g := testGuest()
		g.MemoryMB, g.SwapMB, g.MemAvailPct, g.SwapUsedKB = tt.memMB, tt.swapMB, tt.availPct, tt.swapUsed
		text := g.meminfo()
		if got := meminfoValue(t, text, "MemTotal"); got != tt.total {
			t.Errorf("%d MB: MemTotal %d, want %d", tt.memMB, got, tt.total)
		}
		if got := meminfoValue(t, text, "SwapTotal"); got != tt.swapTotal {
			t.Errorf("%d MB swap: SwapTotal %d, want %d", tt.swapMB, got, tt.swapTotal)
		}
		if got := meminfoValue(t, text, "SwapFree"); got != tt.swapFree {
			t.Errorf("SwapFree %d, want %d", got, tt.swapFree)
		}
		if got, want := meminfoValue(t, text, "MemAvailable"), tt.total*tt.availPct/100; got != want {
			t.Errorf("MemAvailable %d, want %d", got, want)
		}
		if free := meminfoValue(t, text, "MemFree"); free > meminfoValue(t, text, "MemAvailable") {
			t.Errorf("MemFree %d above MemAvailable", free)
		}
	}
	if first := strings.SplitN(testGuest().meminfo(), "\n", 2)[0]; first != "MemTotal:         985220 kB" {
		t.Errorf("first line %q does not match the kernel's layout", first)
	}
}

func TestGuestNetTCP(t *testing.T) {
	tests := []struct {
		serving                bool
		inflight, closeWait    int
		listen, estab, closeWt int
	}{
		{true, 0, 0, 1, 1, 0},
		{true, 3, 2, 1, 4, 2},
		{false, 0, 5, 0, 0, 5},
	}
	for _, tt := range tests {
		g := testGuest()
		g.Serving, g.Inflight, g.CloseWait = tt.serving, tt.inflight, tt.closeWait
		rows := strings.Split(strings.TrimSuffix(g.netTCP(), "\n"), "\n")[1:]
		count := map[string]int{}
		for _, r := range rows {
			f := strings.Fields(r)
			count[f[3]]++
			if tt.serving && f[3] == "01" && !strings.HasSuffix(f[1], ":1F40") {
				t.Errorf("established row not on port 8000: %s", r)
			}
		}
		if count["0A"] != tt.listen || count["01"] != tt.estab || count["08"] != tt.closeWt {
			t.Errorf("%+v: states %v", tt, count)
		}
	}
	tcp6 := testGuest().netTCP6()
	if !strings.Contains(tcp6, ":0016 00000000000000000000000000000000:0000 0A") {
		t.Errorf("tcp6 lacks the ssh listener:\n%s", tcp6)
	}
}

func TestHexAddresses(t *testing.T) {
	tests := []struct{ ip, want string }{
		{"127.0.0.1", "0100007F"},
		{"0.0.0.0", "00000000"},
		{"172.19.3.2", "020313AC"},
	}
	for _, tt := range tests {
		if got := hexIPv4(net.ParseIP(tt.ip)); got != tt.want {
			t.Errorf("hexIPv4(%s) = %s, want %s", tt.ip, got, tt.want)
		}
	}
	if got := hexIPv6(net.ParseIP("::1")); got != "00000000000000000000000001000000" {
		t.Errorf("hexIPv6(::1) = %s", got)
	}
}

func TestGuestExecDispatch(t *testing.T) {
	notPython := testGuest()
	notPython.Bytecode.NotPython = true
	tests := []struct {
		name   string
		g      View
		cmd    string
		argv   []string
		exit   int
		stdout string // substring
		stderr string // exact when set
	}{
		{"python version", testGuest(), "python3 --version", nil, 0, "Python 3.12.1\n", ""},
		{"probe", testGuest(), BytecodeProbePrefix + "eA=='))\"", nil, 0, `"cache_tag":"cpython-312"`, ""},
		{"probe argv", testGuest(), "", []string{"python3", "-c", "import base64;exec(base64.b64decode('eA=='))"}, 0, `"foreign_tags":[]`, ""},
		{"probe in sh -c", testGuest(), `sh -c "python3 -c \"import base64;exec(base64.b64decode('eA=='))\""`, nil, 0, `"python":"3.12.1"`, ""},
		{"no python", notPython, BytecodeProbePrefix + "eA=='))\"", nil, 127, "", "sh: 1: python3: not found\n"},
		{"unknown", testGuest(), "curl -s localhost", nil, 127, "", "sh: 1: curl: not found\n"},
		{"cat missing", testGuest(), "cat /nope", nil, 1, "", "cat: /nope: No such file or directory\n"},
		{"cat both tcp", testGuest(), "cat /proc/net/tcp /proc/net/tcp6", nil, 0, "remote_address", ""},
		{"printenv one", testGuest(), "printenv FLY_REGION", nil, 0, "ams\n", ""},
		{"printenv missing", testGuest(), "printenv NOPE", nil, 1, "", ""},
		{"sh -c argv", testGuest(), "", []string{"sh", "-c", "uname -a"}, 0, "Linux 148ed123456789 ", ""},
		{"os-release", testGuest(), "cat /etc/os-release", nil, 0, "ID=debian", ""},
	}
	for _, tt := range tests {
		out := tt.g.Exec(tt.cmd, tt.argv)
		if out.ExitCode != tt.exit || !strings.Contains(out.StdOut, tt.stdout) || (tt.stderr != "" && out.StdErr != tt.stderr) {
			t.Errorf("%s: %+v", tt.name, out)
		}
	}
}

// FuzzGuestShell: any command line ends with an answer — no panic, output
// within its cap, an exit code a shell can give.
func FuzzGuestShell(f *testing.F) {
	for _, seed := range []string{`cat /proc/meminfo | head -3`, `ls -la /app && ps aux | grep -c x`, `echo $((1/0))`,
		`echo ${x:?unset}`, `a=1; echo $a; (b=2); echo $b`, `sh -c 'sh -c "sh -c ls"'`, `echo $(echo $(echo deep))`,
		`{ cat; } < /proc/uptime`, `grep -E '(a+)+$' /proc/meminfo`, `ls /app/*/*.py | wc -l`, "echo \x1b[31m", `cat << EOF`} {
		f.Add(seed)
	}
	g := testGuest()
	f.Fuzz(func(t *testing.T, line string) {
		out := g.Exec(line, nil)
		if out.ExitCode < 0 || out.ExitCode > 255 || len(out.StdOut) > shellMaxOutput || len(out.StdErr) > shellMaxOutput {
			t.Fatalf("%q: exit %d, %d/%d bytes", line, out.ExitCode, len(out.StdOut), len(out.StdErr))
		}
	})
}

func TestGuestMeminfo(t *testing.T) {
	tests := []struct {
		name                       string
		memMB, swapMB, pct, usedKB int
		want                       Memory
	}{
		{"1 GB guest with 2 GB swap", 1024, 2048, 58, 0,
			Memory{MemTotalKB: 985220, MemAvailableKB: 571427, SwapTotalKB: 2097148, SwapFreeKB: 2097148}},
		{"no swap", 1024, 0, 61, 0, Memory{MemTotalKB: 985220, MemAvailableKB: 600984}},
		{"swap in use", 512, 1024, 64, 1000,
			Memory{MemTotalKB: 492610, MemAvailableKB: 315270, SwapTotalKB: 1048572, SwapFreeKB: 1047572}},
		{"more swap used than exists", 2048, 1, 40, 5000,
			Memory{MemTotalKB: 1970440, MemAvailableKB: 788176, SwapTotalKB: 1020, SwapFreeKB: 0}},
		{"nonsense percentages clamp", 1024, 0, 250, 0, Memory{MemTotalKB: 985220, MemAvailableKB: 985220}},
	}
	for _, tt := range tests {
		if got := Meminfo(tt.memMB, tt.swapMB, tt.pct, tt.usedKB); got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
