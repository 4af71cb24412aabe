package checklist

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// riskyProject is the scale-to-zero demo's fly.toml without its hard limit
// and with two typos: what the deploy would change, beside the demo's
// deployed machines (hard_limit 25).
const riskyProject = `app = 'sleepy-api'
kill_timout = 5
[http_servic]
  internal_port = 8000
[http_service]
  internal_port = 8000
  auto_stop_machines = 'stop'
  auto_start_machines = true
  min_machines_running = 1
  [http_service.concurrency]
    type = 'requests'
    soft_limit = 12
`

// TestSubjectFindingsAndChanges: the pane says what it judges, lists each
// project warning once on top, counts them in the summary and its exit
// status, and shows under an item what the deploy changes — at every size.
func TestSubjectFindingsAndChanges(t *testing.T) {
	uitest.PinColorProfile(t)
	proj, errs := repo.LoadFS(fstest.MapFS{"fly.toml": {Data: []byte(riskyProject)}})
	km := keys.Default()
	p := New(pane.Context{Theme: theme.New(true), Keys: &km}, proj, errs, checklist.Options{})
	p.SetData(demoDay.app(), t0)

	view := flat(uitest.View(p, 120, 40, true, t0))
	for _, want := range []string{
		"judges this project as Fly will apply it, beside deployed release v7",
		`! fly.toml:2 unknown key "kill_timout" at the top level, ignored — did you mean kill_timeout?`,
		"! fly.toml:3 unknown table [http_servic], ignored — did you mean [http_service]?",
		"2 project warnings — `flywake check` would exit 2",
	} {
		if n := strings.Count(view, want); n != 1 {
			t.Errorf("%q shown %d times, want once:\n%s", want, n, view)
		}
	}
	if strings.Contains(view, "hard_limit: deployed 25") {
		t.Errorf("a change is shown before its item is opened:\n%s", view)
	}
	for p.Cursor() != checklist.IDConcurrency {
		press(p, "n")
	}
	press(p, "enter")
	view = flat(uitest.View(p, 120, 40, true, t0))
	for _, want := range []string{"this deploy changes · hard_limit: deployed 25 → this project none fly.toml:10", "no hard_limit (soft_limit 12, requests)"} {
		if !strings.Contains(view, want) {
			t.Errorf("the opened item lacks %q:\n%s", want, view)
		}
	}
	if got, want := p.Report().ExitCode(), checklist.ExitFailures; got != want {
		t.Errorf("exit %d, want %d", got, want)
	}
	for _, sz := range uitest.Sizes {
		uitest.AssertSize(t, uitest.View(p, sz[0], sz[1], true, t0), sz[0], sz[1])
	}

	// Without a project the header says every item judges the deployed release.
	none := New(pane.Context{Theme: theme.New(true), Keys: &km}, nil, nil, checklist.Options{})
	none.SetData(demoDay.app(), t0)
	if v := flat(uitest.View(none, 100, 20, true, t0)); !strings.Contains(v, "no project files read: every item judges deployed release v7") {
		t.Errorf("no subject line without a project:\n%s", v)
	}
}
