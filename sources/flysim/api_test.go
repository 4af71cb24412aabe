package flysim

import (
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func testGuest() guestView {
	return guestView{
		app: "a", id: "148ed123456789", region: "ams", image: "registry.fly.io/a:t", privateIP: "fdaa:0:18:a7b:65:1:2:2",
		group: "app", version: "01JABCDEFGHJKMNPQRSTVWXYZ0", memoryMB: 1024, swapMB: 2048, cpus: 1, port: 8000,
		env: map[string]string{"PRIMARY_REGION": "ams"}, memAvailPct: 50, swapUsedKB: 1000, serving: true,
		bytecode: BytecodeImage{Python: "3.12.1", CacheTag: "cpython-312", AppDir: "/app"},
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
		g.memoryMB, g.swapMB, g.memAvailPct, g.swapUsedKB = tt.memMB, tt.swapMB, tt.availPct, tt.swapUsed
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
		g.serving, g.inflight, g.closeWait = tt.serving, tt.inflight, tt.closeWait
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
	notPython.bytecode.NotPython = true
	tests := []struct {
		name   string
		g      guestView
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
		out := tt.g.exec(tt.cmd, tt.argv)
		if out.ExitCode != tt.exit || !strings.Contains(out.StdOut, tt.stdout) || (tt.stderr != "" && out.StdErr != tt.stderr) {
			t.Errorf("%s: %+v", tt.name, out)
		}
	}
}

func TestPrintenvNeverShowsSecrets(t *testing.T) {
	s := New(Options{Seed: 3, NoTraffic: true, History: time.Hour})
	s.mu.Lock()
	m := s.apps[DemoScaleToZero].machines[0]
	g := s.guestOf(m)
	secrets := m.app.p.SecretEnv
	s.mu.Unlock()
	out := g.exec("printenv", nil).StdOut
	for k, v := range secrets {
		if strings.Contains(out, k+"=") || strings.Contains(out, v) {
			t.Errorf("printenv shows secret %s", k)
		}
	}
	for _, want := range []string{"FLY_APP_NAME=sleepy-api", "FLY_MACHINE_ID=" + m.id, "PRIMARY_REGION=ams", "PYTHONDONTWRITEBYTECODE=1"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("printenv lacks %s", want)
		}
	}
}

func TestWaitTimeoutAndStates(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{"", 60 * time.Second, false},
		{"1", time.Second, false},
		{"0", time.Second, false},
		{"600", 60 * time.Second, false},
		{"30s", 30 * time.Second, false},
		{"soon", 0, true},
	}
	for _, tt := range tests {
		got, err := waitTimeout(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("waitTimeout(%q) = %s, %v", tt.in, got, err)
		}
	}
	states := []struct {
		state string
		want  []string
		ok    bool
	}{
		{"started", []string{"started"}, true},
		{"stopping", []string{"stopped"}, false},
		{"suspended", []string{"stopped", "suspended"}, true},
		{"suspended", []string{"settled"}, true},
		{"starting", []string{"settled"}, false},
	}
	for _, tt := range states {
		if got := stateReached(tt.state, tt.want); got != tt.ok {
			t.Errorf("stateReached(%s, %v) = %v", tt.state, tt.want, got)
		}
	}
}

func TestDecodeStop(t *testing.T) {
	tests := []struct {
		body, signal, err string
	}{
		{"", "", ""},
		{`{"signal":"SIGTERM","timeout":"10s"}`, "SIGTERM", ""},
		{`{"id":"x","timeout":"0s"}`, "", ""},
		{"[]", "", "json: cannot unmarshal array into Go value of type main.stopRequest"},
		{`"stop"`, "", "json: cannot unmarshal string into Go value of type main.stopRequest"},
		{"{", "", "unexpected end of JSON input"},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest("POST", "/", strings.NewReader(tt.body))
		in, err := decodeStop(r)
		if (tt.err == "") != (err == nil) || (err != nil && err.Error() != tt.err) || in.Signal != tt.signal {
			t.Errorf("decodeStop(%q) = %+v, %v", tt.body, in, err)
		}
	}
}

func TestAuthorizedHeaderForms(t *testing.T) {
	s := &Sim{opts: Options{Token: "flysim_abc"}}
	tests := []struct {
		header string
		ok     bool
	}{
		{"Bearer flysim_abc", true},
		{"bearer flysim_abc", true},
		{"FlyV1 fm2_x,flysim_abc", true},
		{"FlyV1 fm2_x, flysim_abc ", true},
		{"Bearer flysim_ab", false},
		{"Bearer flysim_abcd", false},
		{"Bearer ", false},
		{"flysim_abc", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := s.authorized(tt.header); got != tt.ok {
			t.Errorf("authorized(%q) = %v", tt.header, got)
		}
	}
}

func TestRateLimitRefillsInWallTime(t *testing.T) {
	wall := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := &Sim{opts: Options{Wall: func() time.Time { return wall }, Seed: 1}}
	try := func() bool { s.countCall("start", "m1"); return s.allow("Machines_start", "start", "m1", defaultLimit) }
	var got []bool
	for i := 0; i < 4; i++ {
		got = append(got, try())
	}
	wall = wall.Add(999 * time.Millisecond)
	got = append(got, try())
	wall = wall.Add(2 * time.Millisecond)
	got = append(got, try(), try())
	want := []bool{true, true, true, false, false, true, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("admissions %v, want %v", got, want)
		}
	}
	if st := s.APIStats()["start:m1"]; st.Calls != 7 || st.Limited != 3 || st.MaxPerSecond != 5 {
		t.Errorf("stats = %+v", st)
	}
	s.ResetAPICalls()
	if len(s.APICalls()) != 0 {
		t.Errorf("ResetAPICalls left %v", s.APICalls())
	}
}
