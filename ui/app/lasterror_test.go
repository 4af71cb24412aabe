package app

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/ui/theme"
)

// The last error is the app's that made it: on the screen for an app the
// platform does not have, the header names the failed call; once another
// app is open through `:`, that error is not in its header.
func TestLastErrorStaysWithItsApp(t *testing.T) {
	t.Parallel()
	m := newInline(Config{Source: demoSource(t), App: "nope", Demo: true, Theme: theme.New(true)})
	l := newLoop(t, m)
	l.deliver(tea.WindowSizeMsg{Width: 200, Height: 40})
	l.until("the error screen", 20*time.Second, func(m Model) bool { return m.Err() != nil })
	header := func() string { return strings.Split(plainView(l.m), "\n")[0] }
	if h := header(); !strings.Contains(h, "last error") || !strings.Contains(h, "/apps/nope/") {
		t.Fatalf("the error screen's header does not name the failed call: %q", h)
	}
	for _, k := range []tea.Msg{runes(":"), runes(flysim.DemoScaleToZero), tea.KeyMsg{Type: tea.KeyEnter}} {
		l.deliver(k)
	}
	l.until("the next app listed", 20*time.Second, func(m Model) bool {
		return m.AppName() == flysim.DemoScaleToZero && !m.app.ListedAt.IsZero()
	})
	if h := header(); strings.Contains(h, "last error") || strings.Contains(h, "nope") {
		t.Fatalf("nope's error stayed in %s's header: %q", flysim.DemoScaleToZero, h)
	}
}
