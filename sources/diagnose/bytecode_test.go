package diagnose

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const seedProbe = `{"python":"3.14.0","cache_tag":"cpython-314","dont_write_bytecode":true,` +
	`"site_packages":{"py":5707,"pyc":0,"foreign_pyc":0},` +
	`"app":{"dir":"/app","py":412,"pyc":218,"foreign_pyc":218,"foreign_tags":["cpython-315"]}}`

func TestParseBytecodeProbe(t *testing.T) {
	for _, tc := range []struct {
		name      string
		stdout    string
		exit      int
		stderr    string
		notPython bool
		sitePy    int
		appTags   []string
		wantErr   string
	}{
		{"contract example", seedProbe + "\n", 0, "", false, 5707, []string{"cpython-315"}, ""},
		{"warnings before the JSON", "some warning\n" + seedProbe, 0, "DeprecationWarning: x", false, 5707, []string{"cpython-315"}, ""},
		{"no python3 (exit 127)", "", 127, "sh: 1: python3: not found", true, 0, nil, ""},
		{"no python3, other wording", "", 1, `exec: "python3": executable file not found in $PATH`, true, 0, nil, ""},
		{"python crashed", "", 1, "Traceback (most recent call last):\n  File x", false, 0, nil, "exited 1: Traceback"},
		{"empty output", "", 0, "", false, 0, nil, "no JSON"},
		{"truncated JSON", `{"python":"3.14.0","cache_tag":`, 0, "", false, 0, nil, "bad JSON"},
		{"JSON without python", `{"site_packages":{"py":1}}`, 0, "", false, 0, nil, "no python version"},
		{"impossible counts", `{"python":"3","site_packages":{"py":1,"pyc":1,"foreign_pyc":2}}`, 0, "", false, 0, nil, "impossible counts"},
		{"negative counts", `{"python":"3","app":{"py":-1}}`, 0, "", false, 0, nil, "impossible counts"},
	} {
		r, err := ParseBytecodeProbe(tc.stdout, tc.exit, tc.stderr)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err = %v, want containing %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: unexpected error %v", tc.name, err)
			continue
		}
		if r.NotPython != tc.notPython || r.SitePackages.Py != tc.sitePy || !slices.Equal(r.App.ForeignTags, tc.appTags) {
			t.Errorf("%s: got %+v", tc.name, r)
		}
	}
}

func TestBytecodeVerdict(t *testing.T) {
	seed, err := ParseBytecodeProbe(seedProbe, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	tree := func(py, pyc, foreign int, tags ...string) BytecodeTree {
		return BytecodeTree{Py: py, Pyc: pyc, ForeignPyc: foreign, ForeignTags: tags}
	}
	report := func(dont bool, sp, app BytecodeTree) BytecodeReport {
		return BytecodeReport{Python: "3.14.0", CacheTag: "cpython-314", DontWriteBytecode: dont, SitePackages: sp, App: app}
	}
	for _, tc := range []struct {
		name  string
		r     BytecodeReport
		level Level
		line  string
	}{
		{"seed image", seed, Fail, "0 of 5,707 .py files in site-packages have bytecode; PYTHONDONTWRITEBYTECODE=1 and no compileall: " +
			"every start compiles the dependency tree; also 218 .pyc built for cpython-315 in a cpython-314 image: ignored at run time"},
		{"not python", BytecodeReport{NotPython: true}, Unknown, "not a Python image: nothing to cache"},
		{"no sources", report(true, tree(0, 0, 0), tree(0, 0, 0)), Unknown, "no .py files found in site-packages or the app directory"},
		{"writes at run time only", report(false, tree(5707, 3, 0), tree(10, 0, 0)), Warn,
			"3 of 5,707 .py files in site-packages have bytecode: every cold start compiles the dependency tree again (no compileall in the image)"},
		{"compiled but laptop pyc in app", report(true, tree(5707, 5707, 0), tree(412, 218, 218, "cpython-315")), Warn,
			"218 .pyc built for cpython-315 in a cpython-314 image: ignored at run time"},
		{"half compiled", report(true, tree(1000, 500, 0), tree(0, 0, 0)), Warn,
			"500 of 1,000 .py files in site-packages have bytecode: the rest compile on every start"},
		{"app not compiled", report(true, tree(5707, 5707, 0), tree(412, 0, 0)), Warn,
			"site-packages compiled, but 0 of 412 app .py files have bytecode: add the app directories to compileall"},
		{"tuned image", report(true, tree(5707, 5707, 0), tree(412, 412, 0)), Pass,
			"bytecode cached: 5,707 of 5,707 site-packages files, 412 of 412 app files (cpython-314)"},
		{"stale pyc do not over-count", report(true, tree(100, 150, 0), tree(0, 0, 0)), Pass,
			"bytecode cached: 100 of 100 site-packages files (cpython-314)"},
		{"truncated walk", func() BytecodeReport {
			r := report(true, tree(5707, 5707, 0), tree(0, 0, 0))
			r.Truncated = true
			return r
		}(), Pass, "bytecode cached: 5,707 of 5,707 site-packages files (cpython-314) (walk stopped at 200,000 files)"},
	} {
		got := BytecodeVerdict(tc.r)
		if got.Level != tc.level || got.Line != tc.line {
			t.Errorf("%s:\n got %v %q\nwant %v %q", tc.name, got.Level, got.Line, tc.level, tc.line)
		}
	}
}

func TestBytecodeProbeCommandPrefix(t *testing.T) {
	cmd := BytecodeProbeCommand()
	const prefix = `python3 -c "import base64;exec(base64.b64decode('`
	if !strings.HasPrefix(cmd, prefix) || !strings.HasSuffix(cmd, `'))"`) {
		t.Fatalf("command shape changed: %.80s…", cmd)
	}
	if strings.ContainsAny(cmd[len(prefix):len(cmd)-4], `"' $`+"`\\") {
		t.Fatalf("payload contains shell-sensitive characters")
	}
}

// writeFiles creates each path (relative to root) with small contents.
func writeFiles(t *testing.T, root string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runProbe(t *testing.T, env ...string) BytecodeReport {
	t.Helper()
	cmd := exec.Command("sh", "-c", BytecodeProbeCommand())
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = t.TempDir()
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	exit := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		exit = ee.ExitCode()
	}
	r, err := ParseBytecodeProbe(stdout.String(), exit, stderr.String())
	if err != nil {
		t.Fatalf("probe: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	if r.NotPython {
		t.Skip("python3 not installed")
	}
	return r
}

// TestBytecodeProbeScriptRuns runs the real script with this machine's
// python3 against a fake app with a venv, and checks the counts it adds on
// top of the interpreter's own site-packages.
func TestBytecodeProbeScriptRuns(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	app := t.TempDir()
	writeFiles(t, app,
		"manage.py", "config/settings.py", "config/__init__.py",
		"config/__pycache__/settings.cpython-315.pyc", // laptop-built, foreign
		"config/__pycache__/__init__.cpython-315.pyc",
		".venv/lib/python3.14/site-packages/django/__init__.py",
		".venv/lib/python3.14/site-packages/django/db.py",
		".venv/lib/python3.14/site-packages/six.py",
		".venv/lib/python3.14/site-packages/django/__pycache__/__init__.cpython-314.pyc",
		".venv/lib/python3.14/site-packages/django/__pycache__/db.cpython-314.pyc",
		".venv/lib/python3.14/site-packages/django/__pycache__/db.cpython-314.opt-1.pyc", // optimised: not counted
		".venv/lib/python3.14/site-packages/__pycache__/six.cpython-313.pyc",             // foreign
	)
	// A symlinked directory must not be walked (it could point anywhere).
	outside := t.TempDir()
	writeFiles(t, outside, "a.py", "b.py", "c.py")
	if err := os.Symlink(outside, filepath.Join(app, "linked")); err != nil {
		t.Fatal(err)
	}

	empty := t.TempDir()
	base := runProbe(t, "APP_DIR="+empty, "VIRTUAL_ENV=", "PYTHONDONTWRITEBYTECODE=")
	got := runProbe(t, "APP_DIR="+app, "VIRTUAL_ENV=", "PYTHONDONTWRITEBYTECODE=1")

	checks := []struct {
		name      string
		got, want any
	}{
		{"dont_write_bytecode (base)", base.DontWriteBytecode, false},
		{"dont_write_bytecode", got.DontWriteBytecode, true},
		{"cache tag looks like cpython-3xx", strings.HasPrefix(got.CacheTag, "cpython-3"), true},
		{"site py added", got.SitePackages.Py - base.SitePackages.Py, 3},
		{"site pyc added", got.SitePackages.Pyc - base.SitePackages.Pyc, 3},
		{"site foreign added", got.SitePackages.ForeignPyc - base.SitePackages.ForeignPyc, 1},
		{"site foreign tag", slices.Contains(got.SitePackages.ForeignTags, "cpython-313"), true},
		{"app dir", got.App.Dir, mustRealpath(t, app)},
		{"app py (venv and symlink excluded)", got.App.Py, 3},
		{"app pyc", got.App.Pyc, 2},
		{"app foreign", got.App.ForeignPyc, 2},
		{"app foreign tags", strings.Join(got.App.ForeignTags, ","), "cpython-315"},
		{"base app empty", base.App.Py + base.App.Pyc, 0},
		{"not truncated", got.Truncated, false},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func mustRealpath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
