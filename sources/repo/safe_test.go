package repo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/textfile"
)

// project writes files into a temporary directory; a value of "FIFO" makes
// a named pipe, "DIR" a directory.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch body {
		case "FIFO":
			err = syscall.Mkfifo(path, 0o644)
		case "DIR":
			err = os.Mkdir(path, 0o755)
		default:
			err = os.WriteFile(path, []byte(body), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const entrypointDockerfile = "FROM python:3.12-slim\nENTRYPOINT [\"/app/entrypoint.sh\"]\n"

// errorFor finds the textfile.FileError about file.
func errorFor(errs []error, file string) *textfile.FileError {
	for _, err := range errs {
		var fe *textfile.FileError
		if errors.As(err, &fe) && fe.File == file {
			return fe
		}
	}
	return nil
}

// Files that cannot be read are errors that say why, and a FIFO never
// blocks the load (a plain open waits for a writer for ever).
func TestLoadRefusesWhatItCannotRead(t *testing.T) {
	big := strings.Repeat("python manage.py migrate --noinput\n", 80_000) // 2.7 MB
	tests := []struct {
		name  string
		files map[string]string
		file  string
		want  string
	}{
		{"a FIFO fly.toml", map[string]string{"fly.toml": "FIFO"}, "fly.toml", "named pipe (FIFO)"},
		{"a FIFO entrypoint", map[string]string{"Dockerfile": entrypointDockerfile, "app/entrypoint.sh": "FIFO"}, "app/entrypoint.sh", "named pipe"},
		{"a 2.7 MB entrypoint", map[string]string{"Dockerfile": entrypointDockerfile, "app/entrypoint.sh": big}, "app/entrypoint.sh", "2.7 MB, over the 1.0 MB read limit"},
		{"an entrypoint that is a directory", map[string]string{"Dockerfile": entrypointDockerfile, "app/entrypoint.sh": "DIR"}, "app/entrypoint.sh", "is a directory"},
		{"a Dockerfile that is a directory", map[string]string{"Dockerfile": "DIR"}, "Dockerfile", "is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := project(t, tt.files)
			start := time.Now()
			p, errs := Load(dir)
			if took := time.Since(start); took > 2*time.Second {
				t.Fatalf("Load took %s", took)
			}
			fe := errorFor(errs, tt.file)
			if fe == nil || !strings.Contains(fe.Msg, tt.want) || fe.Warning {
				t.Fatalf("errors %v, want one for %s saying %q", errs, tt.file, tt.want)
			}
			if p == nil || !p.Has(tt.file) {
				t.Errorf("%s not marked present (it exists, it could not be read)", tt.file)
			}
		})
	}
}

func TestLoadMissingDirIsAnError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "no-such-dir")
	p, errs := Load(dir)
	if p != nil || len(errs) != 1 || !strings.Contains(errs[0].Error(), "project directory does not exist") {
		t.Fatalf("Load(missing) = %v, %v", p, errs)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if p, errs := Load(file); p != nil || len(errs) != 1 || !strings.Contains(errs[0].Error(), "not a directory") {
		t.Fatalf("Load(file) = %v, %v", p, errs)
	}
}

func TestLoadUnreadableFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every file")
	}
	dir := project(t, map[string]string{"fly.toml": "app = 'x'\n"})
	if err := os.Chmod(filepath.Join(dir, "fly.toml"), 0); err != nil {
		t.Fatal(err)
	}
	_, errs := Load(dir)
	if fe := errorFor(errs, "fly.toml"); fe == nil || !strings.Contains(fe.Msg, "permission denied") {
		t.Fatalf("errors %v", errs)
	}
}

// Project text is inert: an escape in a Dockerfile, a script or a TOML
// string (where "\u001b" decodes into ESC) never reaches the model raw.
func TestProjectTextIsSanitised(t *testing.T) {
	dir := project(t, map[string]string{
		"fly.toml":          "app = \"x\\u001b]0;pwned\\u0007\"\n[deploy]\nrelease_command = \"migrate \x1b[2J\"\n[\"checks\".\"\\u001b]52;c;x\\u0007\"]\ntype = \"tcp\"\nbogus = 1\n",
		"Dockerfile":        "FROM python:3.12\x1b]0;x\x07\nENTRYPOINT [\"/app/entrypoint.sh\"]\n",
		"app/entrypoint.sh": "#!/bin/sh\npython manage.py migrate \x1b]52;c;eA==\x07\nexec granian app\n",
	})
	p, errs := Load(dir)
	for _, err := range errs {
		if strings.ContainsAny(err.Error(), "\x1b\x07") {
			t.Errorf("error not inert: %q", err)
		}
	}
	f := p.FlyToml
	if f == nil {
		t.Fatalf("fly.toml not read: %v", errs)
	}
	for _, s := range []string{f.App, f.ReleaseCommand, f.Checks[0].Name} {
		if strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("fly.toml value not inert: %q", s)
		}
	}
	work := p.ReleaseWork()
	if len(work) == 0 {
		t.Fatal("the migration in the script was not found")
	}
	for _, w := range work {
		if strings.ContainsAny(w.Command, "\x1b\x07") || !strings.Contains(w.Command, "␛]52;") {
			t.Errorf("script command %q: want the sequence visible and inert", w.Command)
		}
	}
}

// A load that hangs (a stuck network mount) ends at textfile.Timeout with an
// error saying so, instead of holding check or the dashboard.
func TestLoadGivesUpAtItsDeadline(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	defer func(f func(fs.FS) (*Project, []error), d time.Duration) { loadFS, textfile.Timeout = f, d }(loadFS, textfile.Timeout)
	loadFS = func(fs.FS) (*Project, []error) { <-release; return nil, nil }
	textfile.Timeout = 50 * time.Millisecond
	start := time.Now()
	p, errs := Load(t.TempDir())
	if took := time.Since(start); took > time.Second {
		t.Fatalf("Load took %s", took)
	}
	if p != nil || len(errs) != 1 || !strings.Contains(errs[0].Error(), "reading the project took longer than 50ms") {
		t.Fatalf("Load = %v, %v", p, errs)
	}
}

// The look at the directory itself (the first thing check does with --dir)
// has the same deadline: a mount that hangs on stat holds nothing.
func TestCheckDirGivesUpAtItsDeadline(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	defer func(f func(string) error, d time.Duration) { checkDir, textfile.Timeout = f, d }(checkDir, textfile.Timeout)
	checkDir = func(string) error { <-release; return nil }
	textfile.Timeout = 50 * time.Millisecond
	start := time.Now()
	err := CheckDir(t.TempDir())
	_, errs := Load(t.TempDir())
	if took := time.Since(start); took > time.Second {
		t.Fatalf("CheckDir and Load took %s", took)
	}
	for _, e := range append([]error{err}, errs...) {
		if e == nil || !strings.Contains(e.Error(), "reading the project took longer than 50ms") {
			t.Errorf("got %v, want the deadline named", e)
		}
	}
}

// The project directory is a jail: a link out of it (to the process's own
// environment, where the API token lives, or to a file beside the
// project), a link to nothing and a script the Dockerfile runs but the
// directory lacks are each named, with why, and nothing out of the
// directory is read.
func TestLoadReadsOnlyInsideTheProject(t *testing.T) {
	t.Setenv("FLYWAKE_JAIL_CANARY", "collectstatic-canary-0123456789")
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.sh")
	if err := os.WriteFile(secret, []byte("python manage.py collectstatic # outside-canary\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := func(target string) func(dir, name string) {
		return func(dir, name string) {
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name    string
		files   map[string]string
		links   map[string]func(dir, name string)
		file    string // the file the error is about
		want    string
		missing bool // the script is reported missing instead
	}{
		{"an entrypoint linked to /proc/self/environ", map[string]string{"Dockerfile": entrypointDockerfile},
			map[string]func(string, string){"entrypoint.sh": link("/proc/self/environ")},
			"entrypoint.sh", "is a symbolic link to /proc/self/environ, outside the project directory; not read", false},
		{"an entrypoint linked out by a relative path", map[string]string{"Dockerfile": entrypointDockerfile, "app/keep": ""},
			map[string]func(string, string){"app/entrypoint.sh": link(filepath.Join("..", "..", filepath.Base(outside), "secret.sh"))},
			"app/entrypoint.sh", "outside the project directory; not read", false},
		{"an entrypoint linked to an absolute path beside the project", map[string]string{"Dockerfile": entrypointDockerfile},
			map[string]func(string, string){"entrypoint.sh": link(secret)},
			"entrypoint.sh", "outside the project directory; not read", false},
		{"a directory on the way linked out", map[string]string{"Dockerfile": entrypointDockerfile},
			map[string]func(string, string){"app": link(outside)},
			"app/entrypoint.sh", "is under app, a symbolic link to " + outside + ", outside the project directory; not read", false},
		{"a dangling entrypoint", map[string]string{"Dockerfile": entrypointDockerfile},
			map[string]func(string, string){"entrypoint.sh": link("gone.sh")},
			"entrypoint.sh", "is a symbolic link to gone.sh, which does not exist", false},
		{"a dangling fly.toml", nil,
			map[string]func(string, string){"fly.toml": link("../elsewhere/fly.toml")},
			"fly.toml", "is a symbolic link to ../elsewhere/fly.toml, outside the project directory", false},
		{"a fly.toml linked to nothing inside", nil,
			map[string]func(string, string){"fly.toml": link("config/fly.toml")},
			"fly.toml", "is a symbolic link to config/fly.toml, which does not exist", false},
		{"an entrypoint the directory lacks", map[string]string{"Dockerfile": entrypointDockerfile}, nil, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := project(t, tt.files)
			for name, mk := range tt.links {
				mk(dir, name)
			}
			p, errs := Load(dir)
			if p == nil {
				t.Fatalf("Load: %v", errs)
			}
			for _, err := range errs {
				if strings.Contains(err.Error(), "canary") {
					t.Errorf("an error quotes what is outside the project: %v", err)
				}
			}
			for _, w := range p.ReleaseWork() {
				t.Errorf("release work read from outside the project: %+v", w)
			}
			if tt.missing {
				if len(p.Missing) != 1 || p.Missing[0].Looked[0] != "app/entrypoint.sh" || p.Missing[0].Source() != "Dockerfile:2" {
					t.Fatalf("Missing = %+v, want app/entrypoint.sh from Dockerfile:2", p.Missing)
				}
				return
			}
			if len(p.Missing) != 0 {
				t.Errorf("Missing = %+v: the file is there (unreadable), not missing", p.Missing)
			}
			fe := errorFor(errs, tt.file)
			if fe == nil || !strings.Contains(fe.Msg, tt.want) || fe.Warning {
				t.Fatalf("errors %v, want one for %s saying %q", errs, tt.file, tt.want)
			}
			if !p.Has(tt.file) {
				t.Errorf("%s not marked present: it would read as absent", tt.file)
			}
		})
	}
}

// A project directory that resolves into a kernel interface, or is the
// root that holds them, is refused before anything is read.
func TestLoadRefusesSystemDirectories(t *testing.T) {
	via := filepath.Join(t.TempDir(), "proj")
	if err := os.Symlink("/proc/self", via); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{
		"/proc/self": "under /proc", via: "under /proc", "/sys/kernel": "under /sys", "/dev": "under /dev", "/": "is the root directory",
	} {
		if _, err := os.Stat(dir); err != nil {
			continue // not on this system
		}
		p, errs := Load(dir)
		if p != nil || len(errs) != 1 || !strings.Contains(errs[0].Error(), want) {
			t.Errorf("Load(%s) = %v, %v; want it refused (%q)", dir, p, errs, want)
		}
		if err := CheckDir(dir); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckDir(%s) = %v", dir, err)
		}
	}
}

// The directory's own link is resolved (the jail is what it points at),
// and links inside it are followed.
func TestLoadFollowsLinksInside(t *testing.T) {
	dir := project(t, map[string]string{
		"Dockerfile":          entrypointDockerfile,
		"scripts/boot.sh":     "#!/bin/sh\npython manage.py migrate\nexec granian app\n",
		"config/fly.toml.txt": "app = 'linked'\n",
	})
	if err := os.Symlink("../scripts/boot.sh", filepath.Join(dir, "app-entrypoint.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../scripts/boot.sh", filepath.Join(dir, "app", "entrypoint.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("config/fly.toml.txt", filepath.Join(dir, "fly.toml")); err != nil {
		t.Fatal(err)
	}
	via := filepath.Join(t.TempDir(), "link-to-project")
	if err := os.Symlink(dir, via); err != nil {
		t.Fatal(err)
	}
	p, errs := Load(via)
	if len(errs) != 0 || p.FlyToml == nil || p.FlyToml.App != "linked" || len(p.ReleaseWork()) != 1 {
		t.Fatalf("Load through links: %+v, %v", p, errs)
	}
}

func TestReadFile(t *testing.T) {
	dir := project(t, map[string]string{"fly.toml": "app = 'x'\n", "pipe": "FIFO"})
	if err := os.Symlink("/proc/self/environ", filepath.Join(dir, "env")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	if b, err := textfile.ReadFile(dir, "fly.toml"); err != nil || string(b) != "app = 'x'\n" {
		t.Errorf("fly.toml: %q, %v", b, err)
	}
	if _, err := textfile.ReadFile(dir, "absent"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent: %v, want fs.ErrNotExist", err)
	}
	for name, want := range map[string]string{"env": "outside the project directory", "dangling": "which does not exist", "pipe": "named pipe"} {
		var fe *textfile.FileError
		if _, err := textfile.ReadFile(dir, name); !errors.As(err, &fe) || !strings.Contains(fe.Msg, want) {
			t.Errorf("%s: %v, want a textfile.FileError saying %q", name, err, want)
		}
	}
}
