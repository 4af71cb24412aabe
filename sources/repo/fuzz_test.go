package repo

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/flywake/flywake/sources/textfile"
)

// seedFiles adds every fixture file of one name as a fuzz seed.
func seedFiles(f *testing.F, name string) {
	f.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "demoproject", "projects", "*", name))
	more, _ := filepath.Glob(filepath.Join("testdata", "*", name))
	for _, p := range append(paths, more...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
}

func FuzzParseFlyToml(f *testing.F) {
	seedFiles(f, "fly.toml")
	f.Add([]byte("[http_service]\nauto_stop_machines = 3\n"))
	f.Add([]byte("[[services]]\n[[services.ports]]\nport = 1\n[[services]]\nconcurrency = { hard_limit = 1 }\n"))
	f.Add([]byte("[[vm]]\nmemory = '99999999gb'\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, problems := ParseFlyToml(data)
		failed := false
		for _, err := range problems {
			var fe *textfile.FileError
			if !errors.As(err, &fe) || fe.File != FlyTomlFile || fe.Line < 0 {
				t.Fatalf("problem %v (%T)", err, err)
			}
			failed = failed || !fe.Warning
		}
		if failed != (cfg == nil) {
			t.Fatalf("config %v with problems %v", cfg, problems)
		}
		if cfg == nil {
			return
		}
		for _, s := range cfg.Services {
			_ = s.Path()
		}
	})
}

func FuzzParseDockerfile(f *testing.F) {
	seedFiles(f, "Dockerfile")
	f.Add([]byte("# escape=`\nFROM x AS a\nRUN a `\n b\nFROM a\nENTRYPOINT [\"\nCMD <<EOF\n"))
	f.Add([]byte("ENV \"\nENV =x\nRUN <<-\"E\"\nE\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := ParseDockerfile(data)
		for _, c := range []*Command{d.Entrypoint, d.Cmd} {
			for _, cands := range ScriptCandidates(c) {
				if len(cands) == 0 {
					t.Fatal("empty candidate list")
				}
			}
			_ = AnalyzeCommand("Dockerfile", c)
		}
		_, _ = d.Compileall()
		_, _ = d.DontWriteBytecode()
	})
}

func FuzzParseDockerignore(f *testing.F) {
	seedFiles(f, ".dockerignore")
	f.Add([]byte("!\n/\n**/\n__pycache__/*\n*.py[\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := ParseDockerignore(data)
		for _, u := range d.Unanchored {
			if u.Suggest == "" || u.Line <= 0 {
				t.Fatalf("bad suggestion %+v", u)
			}
		}
	})
}

func FuzzAnalyzeScript(f *testing.F) {
	seedFiles(f, "entrypoint.sh")
	f.Add([]byte("f() {\n}\n}\nexec\n\\"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := AnalyzeScript("entrypoint.sh", data)
		for _, w := range s.Work {
			if w.Line <= 0 {
				t.Fatalf("work without a line: %+v", w)
			}
		}
	})
}
