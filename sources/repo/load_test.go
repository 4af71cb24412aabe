package repo

import (
	"errors"
	"io/fs"
	"os"
	"testing"
	"testing/fstest"

	"github.com/flywake/flywake/sources/textfile"
)

func TestLoadFixtures(t *testing.T) {
	type want struct {
		errLine      int // 0 = no fly.toml error expected
		fly          bool
		app          string
		swap         int
		autoStop     AutoStop
		soft, hard   int
		checkPath    string
		dwb, compile bool
		unanchored   int
		work, gated  int
		server       string
		releaseCmd   string
	}
	cases := []struct {
		name string
		fsys func(t *testing.T) fs.FS
		want want
	}{
		{"scale-to-zero", demoFS("scale-to-zero"), want{fly: true, app: "sleepy-api", swap: 2048, autoStop: AutoStopStop, soft: 12, hard: 25,
			checkPath: "/api/health/", dwb: true, unanchored: 2, work: 2, server: "granian"}},
		{"tuned", demoFS("tuned"), want{fly: true, app: "snappy-api", autoStop: AutoStopSuspend, soft: 12, hard: 25,
			checkPath: "/api/health/", dwb: true, compile: true, work: 2, gated: 2, server: "granian"}},
		{"crash", demoFS("crash"), want{fly: true, app: "crashy-api", autoStop: AutoStopStop, soft: 20, hard: 25,
			checkPath: "/healthz", compile: true, releaseCmd: "alembic upgrade head"}},
		{"backlog", demoFS("backlog"), want{fly: true, app: "backlog-web", autoStop: AutoStopOff, soft: 25, checkPath: "/health", compile: true}},
		{"malformed", dirFS("testdata/malformed"), want{errLine: 7, dwb: true, unanchored: 2, work: 2, server: "granian"}},
		{"badtype", dirFS("testdata/badtype"), want{errLine: 7}},
		{"empty", dirFS("testdata/empty"), want{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, errs := LoadFS(tc.fsys(t))
			w := tc.want
			if w.errLine > 0 {
				var fe *textfile.FileError
				if len(errs) != 1 || !errors.As(errs[0], &fe) || fe.File != FlyTomlFile || fe.Line != w.errLine {
					t.Fatalf("errors %v, want one fly.toml error on line %d", errs, w.errLine)
				}
				if !p.Has(FlyTomlFile) {
					t.Errorf("malformed fly.toml not marked present")
				}
			} else if len(errs) > 0 {
				t.Fatalf("unexpected errors %v", errs)
			}
			if (p.FlyToml != nil) != w.fly {
				t.Fatalf("FlyToml present = %v, want %v", p.FlyToml != nil, w.fly)
			}
			if f := p.FlyToml; f != nil {
				if f.App != w.app || f.SwapSizeMB != w.swap || f.ReleaseCommand != w.releaseCmd {
					t.Errorf("app %q swap %d release %q", f.App, f.SwapSizeMB, f.ReleaseCommand)
				}
				s := f.Services[0]
				if s.AutoStop != w.autoStop {
					t.Errorf("autostop %q, want %q", s.AutoStop, w.autoStop)
				}
				if s.Concurrency == nil || s.Concurrency.SoftLimit != w.soft || s.Concurrency.HardLimit != w.hard {
					t.Errorf("concurrency %+v, want soft %d hard %d", s.Concurrency, w.soft, w.hard)
				}
				if len(s.Checks) != 1 || s.Checks[0].Path != w.checkPath || s.Checks[0].Line == 0 {
					t.Errorf("checks %+v, want one on %s", s.Checks, w.checkPath)
				}
			}
			if d := p.Dockerfile; d != nil {
				_, dwb := d.DontWriteBytecode()
				_, compile := d.Compileall()
				if dwb != w.dwb || compile != w.compile {
					t.Errorf("dontwritebytecode %v compileall %v, want %v %v", dwb, compile, w.dwb, w.compile)
				}
			}
			if p.Dockerignore != nil && len(p.Dockerignore.Unanchored) != w.unanchored {
				t.Errorf("unanchored %+v, want %d", p.Dockerignore.Unanchored, w.unanchored)
			}
			work, gated := p.ReleaseWork(), 0
			for _, rw := range work {
				if rw.Gated {
					gated++
				}
				if rw.Line == 0 || rw.File == "" {
					t.Errorf("work without a location: %+v", rw)
				}
			}
			if len(work) != w.work || gated != w.gated {
				t.Errorf("work %+v: %d (%d gated), want %d (%d gated)", work, len(work), gated, w.work, w.gated)
			}
			server := ""
			for _, s := range p.Scripts {
				if s.File != DockerfileFile {
					server = s.Server
				}
			}
			if server != w.server {
				t.Errorf("server %q, want %q", server, w.server)
			}
		})
	}
}

func TestDemoProjectHasDotfiles(t *testing.T) {
	for _, name := range DemoProjectNames {
		fsys, ok := DemoProject(name)
		if !ok {
			t.Fatalf("DemoProject(%q) missing", name)
		}
		for _, file := range []string{FlyTomlFile, DockerfileFile, DockerignoreFile} {
			if _, err := fs.Stat(fsys, file); err != nil {
				t.Errorf("%s/%s: %v", name, file, err)
			}
		}
	}
	if _, ok := DemoProject("nope"); ok {
		t.Error("unknown demo project found")
	}
}

func TestLoadUnreadableAndHuge(t *testing.T) {
	big := make([]byte, textfile.MaxSize+1)
	fsys := fstest.MapFS{
		"fly.toml":   &fstest.MapFile{Mode: fs.ModeDir},
		"Dockerfile": &fstest.MapFile{Data: big},
	}
	p, errs := LoadFS(fsys)
	if len(errs) != 2 {
		t.Fatalf("errors %v, want one per bad file", errs)
	}
	if p.FlyToml != nil || p.Dockerfile != nil || !p.Has(FlyTomlFile) || !p.Has(DockerfileFile) {
		t.Errorf("project %+v", p)
	}
}

func demoFS(name string) func(*testing.T) fs.FS {
	return func(t *testing.T) fs.FS {
		fsys, ok := DemoProject(name)
		if !ok {
			t.Fatalf("no demo project %s", name)
		}
		return fsys
	}
}

func dirFS(dir string) func(*testing.T) fs.FS {
	return func(*testing.T) fs.FS { return os.DirFS(dir) }
}
