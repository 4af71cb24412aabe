package checklist

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
)

func onDisk(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch target, link := strings.CutPrefix(body, "LINK:"); {
		case link:
			err = os.Symlink(target, path)
		case body == "FIFO":
			err = syscall.Mkfifo(path, 0o644)
		case body == "DIR":
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

func itemOf(items []Item, id string) Item {
	for _, it := range items {
		if it.ID == id {
			return it
		}
	}
	return Item{}
}

func evidenceText(it Item) string {
	var parts []string
	for _, f := range it.Evidence {
		parts = append(parts, f.Text)
	}
	return strings.Join(parts, " | ")
}

// An input the checklist could not read makes the item unknown with the
// reason, never a pass — even when what it did read, or the platform's
// logs, would pass it.
func TestNeverPassesWhatItCouldNotRead(t *testing.T) {
	dockerfile := "FROM python:3.12-slim\nENTRYPOINT [\"/app/entrypoint.sh\"]\n"
	quietLogs := Evidence{ReleaseWork: &ReleaseWorkLogs{Boots: 10, Releases: 1, Window: "24 h", Source: "logs"}}
	big := strings.Repeat("python manage.py migrate --noinput\n", 80_000)
	tests := []struct {
		name  string
		files map[string]string
		dir   string // overrides the project directory
		item  string
		e     Evidence
		want  string
	}{
		{"a 2.7 MB entrypoint full of migrate", map[string]string{"Dockerfile": dockerfile, "app/entrypoint.sh": big}, "", IDReleaseWork, quietLogs,
			"app/entrypoint.sh could not be read (2.7 MB, over the 1.0 MB read limit; not read): release work in it is unknown"},
		{"an entrypoint that is a directory", map[string]string{"Dockerfile": dockerfile, "app/entrypoint.sh": "DIR"}, "", IDReleaseWork, quietLogs,
			"app/entrypoint.sh could not be read (is a directory"},
		{"a FIFO entrypoint", map[string]string{"Dockerfile": dockerfile, "app/entrypoint.sh": "FIFO"}, "", IDReleaseWork, quietLogs,
			"named pipe"},
		{"a FIFO fly.toml", map[string]string{"fly.toml": "FIFO", "Dockerfile": dockerfile}, "", IDSleepWake, Evidence{Deployed: deployedLike(1, "suspend", 0, diagnose.Concurrency{})},
			"fly.toml could not be read: is a named pipe"},
		{"a missing --dir", nil, "/nonexistent/flywake-project", IDReleaseWork, quietLogs,
			"the project could not be read: project directory does not exist"},
		{"an entrypoint linked to the process's environment", map[string]string{"Dockerfile": dockerfile, "app/entrypoint.sh": "LINK:/proc/self/environ"}, "", IDReleaseWork, quietLogs,
			"app/entrypoint.sh could not be read (is a symbolic link to /proc/self/environ, outside the project directory; not read)"},
		{"an entrypoint linked out of the directory", map[string]string{"Dockerfile": dockerfile, "app/entrypoint.sh": "LINK:../../boot.sh"}, "", IDReleaseWork, quietLogs,
			"outside the project directory"},
		{"a dangling entrypoint", map[string]string{"Dockerfile": dockerfile, "app/entrypoint.sh": "LINK:gone.sh"}, "", IDReleaseWork, quietLogs,
			"app/entrypoint.sh could not be read (is a symbolic link to gone.sh, which does not exist)"},
		{"an entrypoint the directory lacks", map[string]string{"Dockerfile": dockerfile}, "", IDReleaseWork, quietLogs,
			"ENTRYPOINT runs a script the project directory lacks (looked for app/entrypoint.sh, entrypoint.sh, bin/entrypoint.sh, scripts/entrypoint.sh): release work in it is unknown"},
		{"a dangling fly.toml", map[string]string{"fly.toml": "LINK:fly.production.toml", "Dockerfile": dockerfile}, "", IDSleepWake, Evidence{Deployed: deployedLike(1, "suspend", 0, diagnose.Concurrency{})},
			"fly.toml could not be read: is a symbolic link to fly.production.toml, which does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir
			if dir == "" {
				dir = onDisk(t, tt.files)
			}
			p, errs := repo.Load(dir)
			e := tt.e
			e.Project, e.ProjectErrors = p, errs
			items := Evaluate(e, Options{})
			it := itemOf(items, tt.item)
			if it.Status != Unknown || !strings.Contains(evidenceText(it), tt.want) {
				t.Errorf("%s: %s, want unknown saying %q\nevidence: %s", tt.item, it.Status, tt.want, evidenceText(it))
			}
			if !it.CouldNotRead {
				t.Errorf("%s: could_not_read is false", tt.item)
			}
			if strings.Contains(evidenceText(it), "or the scripts they run") {
				t.Errorf("%s claims the scripts hold no release work: %s", tt.item, evidenceText(it))
			}
			if code := ExitCode(items); code != 3 && code != 2 {
				t.Errorf("exit code %d for a checklist that could not read its input, want 3 (or 2 on a failure)", code)
			}
		})
	}
}

// An item unknown only because no machine is running (no runtime evidence)
// has read everything it needed: it does not make the check "could not
// check".
func TestUnknownForWantOfAMachineIsNotUnread(t *testing.T) {
	p, errs := project(t, map[string]string{
		"fly.toml":   "app = 'a'\n[http_service]\ninternal_port = 8080\nauto_stop_machines = 'suspend'\n",
		"Dockerfile": "FROM python:3.12-slim\nCMD [\"granian\", \"app\"]\n",
	})
	items := Evaluate(Evidence{Project: p, ProjectErrors: errs}, Options{})
	unknown := 0
	for _, it := range items {
		if it.CouldNotRead {
			t.Errorf("%s: could_not_read with every file readable: %s", it.ID, evidenceText(it))
		}
		if it.Status == Unknown {
			unknown++
		}
	}
	if unknown == 0 {
		t.Fatal("no item is unknown without runtime evidence: the test proves nothing")
	}
	if code := ExitCode(items); code == 3 {
		t.Errorf("exit code 3 for items unknown only for want of a machine")
	}
}

// An unknown key is a finding of the report, listed once with its line and
// nearest key and counted as a warning; the items that read fly.toml still
// judge the rest of it and do not repeat the finding.
func TestUnknownKeyIsAFindingListedOnce(t *testing.T) {
	p, errs := project(t, map[string]string{"fly.toml": "[http_service]\nauto_stop_machine = 'suspend'\nauto_stop_machines = false\n"})
	r := Run("app", Evidence{Project: p, ProjectErrors: errs}, Options{})
	want := Finding{File: "fly.toml", Line: 2, Status: Warn, Key: "http_service.auto_stop_machine", Nearest: "http_service.auto_stop_machines",
		Text: `unknown key "auto_stop_machine" in [http_service], ignored — did you mean auto_stop_machines?`}
	if len(r.Findings) != 1 || r.Findings[0] != want {
		t.Fatalf("findings %+v, want [%+v]", r.Findings, want)
	}
	if r.Summary.Findings != 1 || r.ExitCode() != ExitWarnings {
		t.Errorf("summary %+v, exit %d: the finding is not counted", r.Summary, r.ExitCode())
	}
	if it := itemOf(r.Items, IDSleepWake); it.Status != Pass {
		t.Errorf("sleep_wake %s: %s", it.Status, evidenceText(it))
	}
	for _, it := range r.Items {
		if strings.Contains(evidenceText(it), "auto_stop_machine\"") {
			t.Errorf("%s repeats the finding: %s", it.ID, evidenceText(it))
		}
	}
	for _, out := range []string{r.Text(), r.Markdown()} {
		if n := strings.Count(out, `unknown key "auto_stop_machine"`); n != 1 {
			t.Errorf("the finding is listed %d times:\n%s", n, out)
		}
	}
}
