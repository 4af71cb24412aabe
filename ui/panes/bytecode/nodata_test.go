package bytecode

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/theme"
)

// Before the first listing there are no images to speak of: the pane says
// it is waiting, not what the (unknown) images hold.
func TestNoClaimBeforeTheFirstListing(t *testing.T) {
	p := newPane(theme.New(false))
	p.SetSize(100, 20)
	p.SetData(snapshot.New("demo-org", "sleepy-api", nil), time.Now())
	if view := ansi.Strip(p.View(true, time.Now())); !strings.Contains(view, "waiting for the machine list") {
		t.Errorf("before the listing:\n%s", view)
	}
}
