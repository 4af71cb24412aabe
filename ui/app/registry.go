package app

import (
	"time"

	"github.com/charmbracelet/bubbles/key"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/backlog"
	"github.com/flywake/flywake/ui/panes/bytecode"
	"github.com/flywake/flywake/ui/panes/coldstart"
	"github.com/flywake/flywake/ui/panes/logs"
	"github.com/flywake/flywake/ui/panes/machines"
	"github.com/flywake/flywake/ui/panes/overview"
	"github.com/flywake/flywake/ui/panes/swap"
	"github.com/flywake/flywake/ui/panes/traffic"
	"github.com/flywake/flywake/ui/panes/volumes"
	"github.com/flywake/flywake/ui/theme"
)

// buildPanes is the registry of the dashboard's tiles: adding a pane is
// one line here. The order is the tab order and the tiling's: the first
// pane spans the top, the others share the rows below (see layout.go).
func buildPanes(ctx pane.Context) []pane.Pane {
	return []pane.Pane{
		machines.New(ctx),
		coldstart.New(ctx),
		traffic.New(ctx),
		swap.New(ctx),
		bytecode.New(ctx),
		volumes.New(ctx),
		backlog.New(ctx),
	}
}

// tileFeeds are the feeds only a tile reads, registered beside it: the
// dashboard polls them with watch.Feeds, the ones every surface reads;
// status and check, which print no tile, never fetch them.
func tileFeeds() []watch.Feed {
	return []watch.Feed{
		watch.TrafficFeed(), // traffic
		watch.VolumesFeed(), // volumes
	}
}

// dashboardFeeds are every feed the dashboard polls, in the order the
// header names them when they fail.
func dashboardFeeds() []watch.Feed { return append(watch.Feeds(), tileFeeds()...) }

// TileTitles are the tiles' titles in tab order, as the registry builds
// them: the end-to-end tests name and count the panes by them.
func TileTitles() []string {
	var titles []string
	for _, p := range buildPanes(pane.Context{Theme: theme.New(true)}) {
		titles = append(titles, p.Title())
	}
	return titles
}

// overlay is a pane that opens over the tiles with its key.
type overlay struct {
	key  key.Binding
	pane pane.Overlay
	// headline overlays are what a new user came for: the footer names
	// them before the focused pane's keys.
	headline bool
	// place is where its keys are read (ui/keys/places.go): a key that
	// does nothing in it says where it acts instead.
	place string
}

// buildOverlays is the registry of the overlays and the keys that open them.
func (m *Model) buildOverlays(ctx pane.Context) []overlay {
	return []overlay{
		{m.keys.Checklist, m.buildChecklist(ctx), true, keys.Checklist},
		{m.keys.WakeTest, m.buildWake(ctx), true, keys.WakeTest}, // the key is off in read-only mode
		{m.keys.Logs, logs.New(ctx), false, keys.LogsView},
		// esc where the focused pane has nothing to back out of; also `:apps`.
		{pane.Relabel(m.keys.Back, "", "all apps"), overview.New(ctx, m.patience(), orgCadence), false, keys.Overview},
		{m.keys.Deploy, m.buildDeploy(ctx), false, keys.DemoDeploy}, // off in read-only mode and outside the demo
	}
}

// orgCadence is the org feeds' pace, for the overview's legend.
var orgCadence = overview.Cadence{List: watch.OrgListEvery, Boots: watch.OrgBootsEvery,
	Sockets: watch.OrgSocketsEvery, SocketSample: watch.OrgSocketSample}

// patience grades cold starts in the overview as the checklist does.
func (m *Model) patience() time.Duration {
	if p := m.cfg.CheckOptions.ProxyPatience; p > 0 {
		return p
	}
	return checklist.DefaultProxyPatience
}
