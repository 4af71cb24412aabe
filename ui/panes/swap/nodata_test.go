package swap

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/theme"
)

// Before the first listing the pane says it has no data, not "no swap
// configured" (which it said for an app with 2 GB of swap on every machine).
func TestNoClaimBeforeTheFirstListing(t *testing.T) {
	p := newPane(theme.New(false))
	p.SetSize(100, 20)
	p.SetData(snapshot.New("demo-org", "sleepy-api", nil), t0) // logs arrived, no listing yet
	view := ansi.Strip(p.View(true, t0))
	if strings.Contains(view, "no swap configured") || !strings.Contains(view, "waiting for the machine list") {
		t.Errorf("before the listing:\n%s", view)
	}
	p.SetData(build([]spec{{id: "m1", state: "started", swapMB: 2048, memoryMB: 1024}}), t0)
	if view := ansi.Strip(p.View(true, t0)); !strings.Contains(view, "swap blocks suspend on 1/1") {
		t.Errorf("after the listing:\n%s", view)
	}
}
