package flysim

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/demoproject"
	"github.com/flywake/flywake/sources/flysim/guest"
	"github.com/flywake/flywake/sources/flysim/machines"
)

// TestContractGuestShell: through fly-go's exec, the guest runs pipes, lists
// and the commands an operator types first, each consistent with the
// machine's config (sleepy-api: 1 GB, 2 GB of swap, granian with 2 workers).
func TestContractGuestShell(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50)
	ctx := ctxT(t)
	s.SetRateLimits(false) // exec is 1/s per machine; TestContractRateLimit covers limits
	id := machineIn(t, s, DemoScaleToZero, "started")
	run := func(cmd string) *fly.MachineExecResponse {
		t.Helper()
		out, err := c.Exec(ctx, DemoScaleToZero, id, &fly.MachineExecRequest{Cmd: cmd, Timeout: 5})
		if err != nil {
			t.Fatalf("exec %q: %v", cmd, err)
		}
		return out
	}
	project, _ := demoproject.FS("scale-to-zero")
	entrypoint, _ := fs.ReadFile(project, "entrypoint.sh")
	tests := []struct {
		cmd      string
		code     int
		want     []string // each must appear in stdout
		wantNot  []string // none may appear in stdout or stderr
		lines    int      // > 0: stdout has exactly this many lines
		stderrRe string   // stderr must match
	}{
		{cmd: `sh -c 'cat /proc/meminfo | head -3'`, lines: 3,
			want: []string{"MemTotal:         985220 kB\nMemFree:", "MemAvailable:"}},
		{cmd: `cat /proc/meminfo | grep -i swap | head -n 2`, lines: 2, want: []string{"SwapCached:", "SwapTotal:       2097148 kB"}},
		{cmd: `ls /app`, want: []string{"entrypoint.sh\n", "manage.py\n", "config\n"}, wantNot: []string{".venv"}},
		{cmd: `ls -la /app | grep entrypoint`, want: []string{"-rwxr-xr-x 1 root root 395 "}},
		{cmd: `cat /app/entrypoint.sh`, want: []string{string(entrypoint)}},
		{cmd: `ps aux | grep -c granian`, want: []string{"3\n"}}, // the server and its 2 workers
		{cmd: `ps -ef | head -2`, lines: 2, want: []string{"UID          PID    PPID", "/.fly/init"}},
		{cmd: `df -h /`, want: []string{"/dev/vda", " /\n"}},
		{cmd: `free -m`, want: []string{"Mem:            962 ", "Swap:          2047           0        2047\n"}},
		{cmd: `printenv | grep -c FLY_`, want: []string{"9\n"}, wantNot: []string{"flysim-secret"}},
		{cmd: `env | grep -i secret`, code: 1, wantNot: []string{"flysim-secret", "SECRET_KEY"}},
		{cmd: `echo $FLY_APP_NAME "a  b" 'c $HOME' $(hostname)`, want: []string{"sleepy-api a  b c $HOME " + id + "\n"}},
		{cmd: `echo "x \"y\"" z`, want: []string{`x "y" z` + "\n"}},
		{cmd: `cd /proc && ls | head -1; pwd`, want: []string{"loadavg\n/proc\n"}},
		{cmd: `ls /app/*.py`, want: []string{"/app/manage.py\n"}},
		{cmd: `cat /nope || echo fallback`, want: []string{"fallback\n"}, stderrRe: `^cat: /nope: No such file or directory\n$`},
		{cmd: `false && echo no; ! false && echo yes`, want: []string{"yes\n"}, wantNot: []string{"no"}},
		{cmd: `cat /proc/meminfo > /tmp/x`, code: 2, stderrRe: `cannot create /tmp/x: this simulated guest writes no files`},
		{cmd: `cat /proc/meminfo 2>/dev/null | wc -l`, want: []string{"53\n"}},
		{cmd: `for i in 1 2; do echo $i; done`, code: 2, stderrRe: `for is not supported`},
		{cmd: `nosuch --help`, code: 127, stderrRe: `^sh: 1: nosuch: not found\n$`},
		{cmd: `echo 'unterminated`, code: 2, stderrRe: `^sh: 1: Syntax error`},
		{cmd: `uname -r && hostname`, want: []string{"6.12.34-fly\n" + id + "\n"}},
		{cmd: `sh -c 'exit 3'; echo $?`, want: []string{"3\n"}},
	}
	for _, tt := range tests {
		out := run(tt.cmd)
		if int(out.ExitCode) != tt.code {
			t.Errorf("%s: exit %d, want %d (stderr %q)", tt.cmd, out.ExitCode, tt.code, out.StdErr)
		}
		for _, w := range tt.want {
			if !strings.Contains(out.StdOut, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", tt.cmd, w, out.StdOut)
			}
		}
		for _, w := range tt.wantNot {
			if strings.Contains(out.StdOut+out.StdErr, w) {
				t.Errorf("%s: output holds %q:\n%s%s", tt.cmd, w, out.StdOut, out.StdErr)
			}
		}
		if tt.lines > 0 && strings.Count(out.StdOut, "\n") != tt.lines {
			t.Errorf("%s: %d lines, want %d:\n%s", tt.cmd, strings.Count(out.StdOut, "\n"), tt.lines, out.StdOut)
		}
		if tt.stderrRe != "" && !regexp.MustCompile(tt.stderrRe).MatchString(out.StdErr) {
			t.Errorf("%s: stderr %q does not match %s", tt.cmd, out.StdErr, tt.stderrRe)
		}
	}

	// The argv form runs without a shell: a "|" is a file name to cat.
	resp, body := rawDo(t, s, "POST", "/v1/apps/"+DemoScaleToZero+"/machines/"+id+"/exec",
		`{"command":["cat","/proc/meminfo","|","head"],"timeout":5}`, nil)
	var ex guest.Result
	if err := json.Unmarshal(body, &ex); err != nil || resp.StatusCode != 200 || ex.ExitCode != 1 ||
		!strings.Contains(ex.StdErr, "cat: |: No such file or directory") || !strings.Contains(ex.StdOut, "HugePages_Total") {
		t.Errorf("argv exec: %d %s", resp.StatusCode, body)
	}
	resp, body = rawDo(t, s, "POST", "/v1/apps/"+DemoScaleToZero+"/machines/"+id+"/exec",
		`{"command":["sh","-c","ls /app | wc -l"],"timeout":5}`, nil)
	if err := json.Unmarshal(body, &ex); err != nil || resp.StatusCode != 200 || ex.ExitCode != 0 || strings.TrimSpace(ex.StdOut) == "" {
		t.Errorf("argv sh -c: %d %s", resp.StatusCode, body)
	}
}

// TestGuestConsistentWithConfig: for every demo app, what the guest shows
// agrees with the machine's config and the rest of the platform: the
// bytecode probe, counted on the guest's filesystem, gives the profile's
// figures; free agrees with /proc/meminfo; ps shows the server the project's
// own entrypoint or CMD runs, with its workers, and the same table GET /ps
// answers; /app holds the project's files.
func TestGuestConsistentWithConfig(t *testing.T) {
	t.Parallel()
	s := New(Options{Seed: 3, History: -1, NoTraffic: true})
	for _, p := range DemoApps() {
		s.sched.Lock()
		var g guest.View
		for _, m := range s.store.App(p.Name).Machines() {
			if m.State() == "started" && m.Serving() {
				g = s.store.Guest(m)
				break
			}
		}
		s.sched.Unlock()
		if g.ID == "" {
			t.Fatalf("%s: no started machine", p.Name)
		}
		var rep probeReport
		if err := json.Unmarshal([]byte(g.Exec(BytecodeProbePrefix+"eA=='))\"", nil).StdOut), &rep); err != nil {
			t.Fatal(err)
		}
		b := p.Bytecode
		if rep.SitePackages != (probeCounts{Py: b.SitePy, Pyc: b.SitePyc, ForeignPyc: b.SiteForeignPyc}) ||
			rep.App.probeCounts != (probeCounts{Py: b.AppPy, Pyc: b.AppPyc, ForeignPyc: b.AppForeignPyc}) ||
			strings.Join(rep.App.ForeignTags, ",") != strings.Join(b.ForeignTags, ",") || rep.Python != b.Python {
			t.Errorf("%s: probe %+v, profile %+v", p.Name, rep, b)
		}
		// free -k against /proc/meminfo.
		mem := meminfoValues(g.Exec("cat /proc/meminfo", nil).StdOut)
		free := strings.Fields(strings.Split(g.Exec("free", nil).StdOut, "\n")[1])
		if free[1] != strconv.FormatInt(mem["MemTotal"], 10) || free[6] != strconv.FormatInt(mem["MemAvailable"], 10) {
			t.Errorf("%s: free %v, meminfo total %d available %d", p.Name, free, mem["MemTotal"], mem["MemAvailable"])
		}
		swap := strings.Fields(strings.Split(g.Exec("free", nil).StdOut, "\n")[2])
		if swap[1] != strconv.FormatInt(mem["SwapTotal"], 10) || (p.SwapMB == 0) != (swap[1] == "0") {
			t.Errorf("%s: free's swap %v, config swap %d MB", p.Name, swap, p.SwapMB)
		}
		// ps: the server the project runs, once per process, and GET /ps agrees.
		project, ok := demoproject.FS(p.Project)
		if !ok {
			t.Fatalf("%s: no demo project %q", p.Name, p.Project)
		}
		var projectText strings.Builder
		_ = fs.WalkDir(project, ".", func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := fs.ReadFile(project, path)
				projectText.Write(data)
			}
			return nil
		})
		if !strings.Contains(normalizeCommand(projectText.String()), p.Server) {
			t.Errorf("%s: server %q is not what the project runs", p.Name, p.Server)
		}
		ps := g.Exec("ps aux", nil).StdOut
		if n := strings.Count(ps, p.Server); n != 1+p.Workers {
			t.Errorf("%s: ps shows the server %d times, want %d:\n%s", p.Name, n, 1+p.Workers, ps)
		}
		api := g.Processes(g.Now)
		if len(api) != 3+p.Workers || api[2].Command != p.Server {
			t.Errorf("%s: GET /ps = %+v", p.Name, api)
		}
		ls := g.Exec("ls -a /app", nil).StdOut
		_ = fs.WalkDir(project, ".", func(path string, d fs.DirEntry, err error) error {
			if err == nil && path != "." && !strings.Contains(path, "/") && !strings.Contains(ls, d.Name()+"\n") {
				t.Errorf("%s: ls -a /app lacks the project's %s", p.Name, path)
			}
			return nil
		})
	}
}

// normalizeCommand joins a shell script's continued lines and a Dockerfile's
// exec-form arrays into plain command lines.
// probeReport decodes the bytecode probe's line as diagnose reads it.
type probeReport struct {
	Python       string      `json:"python"`
	SitePackages probeCounts `json:"site_packages"`
	App          struct {
		probeCounts
		ForeignTags []string `json:"foreign_tags"`
	} `json:"app"`
}

type probeCounts struct {
	Py         int `json:"py"`
	Pyc        int `json:"pyc"`
	ForeignPyc int `json:"foreign_pyc"`
}

// meminfoValues reads /proc/meminfo's kB figures by name.
func meminfoValues(text string) map[string]int64 {
	out := map[string]int64{}
	for _, line := range strings.Split(text, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			if n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64); err == nil {
				out[k] = n
			}
		}
	}
	return out
}

func normalizeCommand(text string) string {
	text = strings.ReplaceAll(text, "\\\n", " ")
	text = regexp.MustCompile(`"\s*,\s*"`).ReplaceAllString(text, " ")
	return strings.Join(strings.Fields(text), " ")
}

// TestContractGuestVolume: through fly-go, what the guest shows of its
// mounts agrees with the machine's config and its volume's record:
// backlog-web mounts a 1 GB volume at /data, so df lists it with the
// volume's own block figures, df /data names it alone, /proc/mounts and
// mount list it, and ls / shows the directory; an app without a volume
// shows none of it.
func TestContractGuestVolume(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50)
	ctx := ctxT(t)
	s.SetRateLimits(false)
	exec := func(app, id, cmd string) *fly.MachineExecResponse {
		t.Helper()
		out, err := c.Exec(ctx, app, id, &fly.MachineExecRequest{Cmd: cmd, Timeout: 5})
		if err != nil {
			t.Fatalf("exec %q: %v", cmd, err)
		}
		if out.ExitCode != 0 {
			t.Errorf("%s: exit %d, stderr %q", cmd, out.ExitCode, out.StdErr)
		}
		return out
	}
	id := machineIn(t, s, DemoBacklog, "started")
	m, err := c.Get(ctx, DemoBacklog, id)
	if err != nil || len(m.Config.Mounts) != 1 {
		t.Fatalf("mounts %+v, %v", m, err)
	}
	mount := m.Config.Mounts[0]
	// The project's fly.toml says the same mount (fly deploy would drop it otherwise).
	project, _ := demoproject.FS("backlog")
	raw, _ := fs.ReadFile(project, "fly.toml")
	var flyToml struct {
		Mounts struct{ Source, Destination string } `toml:"mounts"`
	}
	if err := toml.Unmarshal(raw, &flyToml); err != nil || flyToml.Mounts.Source != mount.Name || flyToml.Mounts.Destination != mount.Path {
		t.Errorf("backlog's fly.toml mounts %+v (%v), the machine %+v", flyToml.Mounts, err, mount)
	}
	// fly-go's Volume has no block figures: read the API's own record.
	var vol machines.VolumeJSON
	if _, body := rawDo(t, s, "GET", "/v1/apps/"+DemoBacklog+"/volumes/"+mount.Volume, "", nil); json.Unmarshal(body, &vol) != nil || vol.Blocks == 0 {
		t.Fatalf("volume %s: %s", mount.Volume, body)
	}
	kb := func(blocks int) string { return strconv.Itoa(blocks * vol.BlockSize / 1024) }
	wantRow := regexp.MustCompile(`(?m)^/dev/vdb +` + kb(vol.Blocks) + ` +` + kb(vol.Blocks-vol.BlocksFree) +
		` +` + kb(vol.BlocksAvail) + ` +\d+% ` + mount.Path + `$`)

	if df := exec(DemoBacklog, id, "df").StdOut; !wantRow.MatchString(df) || !strings.Contains(df, " /\n") {
		t.Errorf("df lacks the volume (%s) or the root:\n%s", wantRow, df)
	}
	if df := exec(DemoBacklog, id, "df -k "+mount.Path+"/app.db").StdOut; !wantRow.MatchString(df) || strings.Count(df, "\n") != 2 {
		t.Errorf("df of a file on the volume: want its one row (%s):\n%s", wantRow, df)
	}
	if df := exec(DemoBacklog, id, "df -h /data").StdOut; !regexp.MustCompile(`(?m)^/dev/vdb +1\.0G .* /data$`).MatchString(df) {
		t.Errorf("df -h /data:\n%s", df)
	}
	if df := exec(DemoBacklog, id, "df /app").StdOut; !strings.Contains(df, "/dev/vda") || strings.Contains(df, "/data") {
		t.Errorf("df /app: want the root filesystem alone:\n%s", df)
	}
	if out := exec(DemoBacklog, id, "cat /proc/mounts").StdOut; !strings.Contains(out, "/dev/vdb /data ext4 rw,relatime 0 0\n") ||
		!strings.Contains(out, "/dev/vda / ext4 ") {
		t.Errorf("/proc/mounts:\n%s", out)
	}
	if out := exec(DemoBacklog, id, "mount | grep /data").StdOut; out != "/dev/vdb on /data type ext4 (rw,relatime)\n" {
		t.Errorf("mount | grep /data = %q", out)
	}
	if out := exec(DemoBacklog, id, "ls /").StdOut; !strings.Contains(out, "\ndata\n") {
		t.Errorf("ls / lacks data:\n%s", out)
	}
	// The app's SQLite database (app/main.py: DB = "/data/app.db") is there.
	if out := exec(DemoBacklog, id, "ls -a /data").StdOut; !strings.Contains(out, "app.db\n") || !strings.Contains(out, "lost+found\n") {
		t.Errorf("ls -a /data:\n%s", out)
	}

	// No volume, no /data.
	other := machineIn(t, s, DemoScaleToZero, "started")
	if df := exec(DemoScaleToZero, other, "df").StdOut; strings.Contains(df, "/data") || strings.Contains(df, "/dev/vdb") {
		t.Errorf("sleepy-api has no volume, df shows one:\n%s", df)
	}
	if out := exec(DemoScaleToZero, other, "ls /").StdOut; strings.Contains(out, "\ndata\n") {
		t.Errorf("sleepy-api has no volume, ls / shows data:\n%s", out)
	}
	out, err := c.Exec(ctx, DemoScaleToZero, other, &fly.MachineExecRequest{Cmd: "df /nope", Timeout: 5})
	if err != nil || out.ExitCode != 1 || !strings.Contains(out.StdErr, "df: /nope: No such file or directory") {
		t.Errorf("df /nope: %+v, %v", out, err)
	}
}
