package coldstart

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/theme"
)

// A listing that arrives before the first logs page must not make the pane
// say "no boots in the last 24 h": no log has been read yet.
func TestNoClaimBeforeTheFirstLogs(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	a := snapshot.New("demo-org", "sleepy-api", nil)
	a.ApplyMachines([]*fly.Machine{{ID: "m1", State: "stopped"}}, now)
	p := newPane(theme.New(false))
	p.SetSize(100, 20)
	p.SetData(a, now)
	view := ansi.Strip(p.View(true, now))
	if strings.Contains(view, emptyText) || !strings.Contains(view, "waiting for logs") {
		t.Errorf("before the logs:\n%s", view)
	}
	a.ApplyLogs(nil) // the first page, empty: now there are known to be none
	p.SetData(a, now)
	if view := ansi.Strip(p.View(true, now)); !strings.Contains(view, emptyText) {
		t.Errorf("after an empty first page:\n%s", view)
	}
}
