package app

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	flyc "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
)

// The overview's age of each app's listing counts on with the clock, not
// only when data arrives (it sat at "9s" from 9 to 15 s).
func TestOverviewAgesTickBetweenData(t *testing.T) {
	now := t0
	m := newInline(Config{Source: &watch.Source{Org: "org", Now: func() time.Time { return now }}, Theme: theme.New(true)})
	m = send(m, tea.WindowSizeMsg{Width: 140, Height: 30})
	if openOverlay(m) != "overview" {
		t.Fatalf("no app named: %q open, want the overview", openOverlay(m))
	}
	m.org.ApplyApps([]string{"web"}, nil, t0)
	m.org.ApplyListing("web", snapshot.Convert(flyc.Listing{Machines: listing("m1")}), nil, t0)
	row := func() string {
		for _, l := range strings.Split(plainView(m), "\n") {
			if strings.Contains(l, "web") {
				return l
			}
		}
		return ""
	}
	for _, age := range []time.Duration{9 * time.Second, 15 * time.Second} {
		now = t0.Add(age)
		m = send(m, clockMsg{at: time.Now()})
		if r := row(); !strings.Contains(r, " "+age.String()) {
			t.Errorf("%v after the listing, with no data since, the row reads %q", age, r)
		}
	}
}
