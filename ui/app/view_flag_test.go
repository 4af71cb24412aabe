package app

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
)

// --view opens straight on a view of the app; esc leaves it for the
// dashboard. A view that cannot open says why before anything starts.
func TestViewFlag(t *testing.T) {
	for view, want := range map[string]string{"": "", "machines": "", "logs": "logs", "checklist": "checklist", "wake": "wake", "overview": "overview"} {
		m := newInline(Config{Source: &watch.Source{Org: "org", Now: func() time.Time { return t0 }},
			App: "app-a", View: view, Theme: theme.New(true)})
		m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
		if got := string(openOverlay(m)); got != want {
			t.Errorf("--view %q opened %q, want %q", view, got, want)
		}
		if want != "" {
			if m = send(m, escKey()); openOverlay(m) != "" {
				t.Errorf("--view %s: esc left %q open, want the dashboard", view, openOverlay(m))
			}
		}
	}
	for _, c := range []struct {
		view, app string
		readOnly  bool
		want      string
	}{
		{"nope", "a", false, `--view "nope" is not a view: it takes machines, logs, checklist, wake, overview`},
		{"logs", "", false, "--view logs shows one app: name it with -a APP"},
		{"wake", "a", true, "the wake test is off under --readonly"},
		{"overview", "", false, ""},
		{"checklist", "a", true, ""},
	} {
		err := CheckView(c.view, c.app, c.readOnly)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("--view %s -a %q: %v", c.view, c.app, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("--view %s -a %q readonly=%v: %v, want %q", c.view, c.app, c.readOnly, err, c.want)
		}
	}
}
