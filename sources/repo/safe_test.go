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

// errorFor finds the FileError about file.
func errorFor(errs []error, file string) *FileError {
	for _, err := range errs {
		var fe *FileError
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

// A load that hangs (a stuck network mount) ends at LoadTimeout with an
// error saying so, instead of holding check or the dashboard.
func TestLoadGivesUpAtItsDeadline(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	defer func(f func(fs.FS) (*Project, []error), d time.Duration) { loadFS, LoadTimeout = f, d }(loadFS, LoadTimeout)
	loadFS = func(fs.FS) (*Project, []error) { <-release; return nil, nil }
	LoadTimeout = 50 * time.Millisecond
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
	defer func(f func(string) error, d time.Duration) { checkDir, LoadTimeout = f, d }(checkDir, LoadTimeout)
	checkDir = func(string) error { <-release; return nil }
	LoadTimeout = 50 * time.Millisecond
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
