// Package app is the dashboard's thin root model: it runs the data layer's
// scheduler (fetch.go: every job a tea.Cmd with a deadline), routes keys
// and addressed messages to the panes (routing.go), lays them out (layout.go)
// and draws the chrome around them (header, banner, notice, footer). The panes
// own their own state and never do I/O.
package app

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// Config is what the dashboard runs against.
type Config struct {
	Source   *watch.Source
	App      string
	Demo     bool
	ReadOnly bool
	Theme    *theme.Theme // nil: theme.New(false), the coloured theme on lipgloss's default renderer
	// Keys are the user's (keys.LoadUser); nil: keys.Default(). ReadOnly
	// turns their dangerous actions off whatever they are bound to.
	Keys *keys.KeyMap
	// Project loads the local project directory the checklist reads for
	// app (fly.toml, Dockerfile, …); nil means there is none. It runs in a
	// command with a deadline, never in Update.
	Project      func(app string) (*repo.Project, []error)
	CheckOptions checklist.Options
	// EdgeURL is an app's public base URL for the wake test (the demo's
	// edge); nil means https://<app>.fly.dev.
	EdgeURL func(app string) string
	// Speed is platform seconds per wall second (the demo's --speed); 0 = 1.
	Speed float64
	// Secrets are scrubbed from wake test results and errors (the token).
	Secrets []string
	// Clipboard puts text on the terminal's clipboard (OSC 52); nil: none.
	Clipboard func(text string)
	// Replay is the recording Source reads (flywake --replay): the header
	// says REPLAY and the time bar moves its clock (timebar.go). Nil: live.
	Replay *Replay
	// ReplaySpeed is how many recorded seconds space plays a second
	// (--speed; 0 or 1: DefaultReplaySpeed).
	ReplaySpeed float64
	// View is what opens first (--view, see Views): "" or machines, the
	// dashboard; logs, checklist or wake over it; overview, the org's apps.
	View string
}

// Model is the root bubbletea model.
type Model struct {
	cfg   Config
	theme *theme.Theme
	keys  *keys.KeyMap
	wall  func() time.Time // wall clock, for timers that run in real time (retries)
	// timer makes every timer (the clock, the scheduler's, the notice's);
	// nil is the runtime's (tea.Tick). Tests that run commands inline give
	// the model one that never waits.
	timer func(time.Duration, tea.Msg) tea.Cmd

	// ctx is cancelled on quit, genCtx on every app switch: in-flight
	// long-polls end at once instead of holding the program open.
	ctx       context.Context
	cancel    context.CancelFunc
	genCtx    context.Context
	genCancel context.CancelFunc

	width, height int
	panes         []pane.Pane // the tiles, in tab order
	overlays      []overlay   // the panes that open over the tiles
	open          pane.Overlay
	focus         int  // index into panes
	lastOther     int  // the last focused pane below the top one, for the split layout
	zoom          bool // the focused pane takes the whole body
	sizes         map[pane.ID][2]int
	tiles         []rect                // where each pane is drawn, from relayout
	crash         snapshot.CrashLoops   // the banner's facts, derived once per data change
	states        []snapshot.StateCount // the header's machines by state, likewise
	help          bool
	switcher      *switcher
	confirm       *confirm  // the y/N before a machine action
	acting        *acting   // the machine action call in flight
	notice        notice    // the line above the footer: what just happened
	pending       []tea.Cmd // made while resetting, run by Init or the app switch

	app      *snapshot.App
	org      *snapshot.Org    // the overview's model: outlives app switches
	sched    *watch.Scheduler // every call and when (fetch.go); shared by every copy of the model
	wake     *wakeTimer       // the scheduler's one timer
	gen      int              // the scheduler's app generation, bumped on every app switch
	seq      int              // ids of the root's own timers
	fatal    error            // bad token or unknown app: the body says so, with the ways out
	openedAt time.Time        // wall time the app was opened: older errors are not its own
	back     returnTo         // what was shown before the last switch: where a failed one returns
	bar      *timebar         // the replay's time bar; nil when live
}

// returnTo is where a failed switch goes back to: an app, or the org
// overview (app "").
type returnTo struct {
	set bool
	app string
}

func (r returnTo) String() string {
	if r.app == "" {
		return "all apps"
	}
	return r.app
}

// New builds the root model; nothing runs until the program calls Init.
func New(cfg Config) Model { return newModel(context.Background(), cfg) }

func newModel(parent context.Context, cfg Config) Model {
	if cfg.Theme == nil {
		cfg.Theme = theme.New(false)
	}
	km := keys.Default()
	if cfg.Keys != nil {
		km = *cfg.Keys
	}
	if cfg.ReadOnly {
		km.ReadOnly()
	}
	if !cfg.Demo {
		km.Deploy.SetEnabled(false) // a demo release exists on the demo's platform only
	}
	km.Replaying(cfg.Replay != nil)
	ctx, cancel := context.WithCancel(parent)
	m := Model{cfg: cfg, theme: cfg.Theme, keys: &km, wall: time.Now, ctx: ctx, cancel: cancel,
		sched: watch.NewScheduler(dashboardFeeds(), watch.OrgFeeds()), wake: &wakeTimer{}}
	org, markers := "", []diagnose.Marker(nil)
	if cfg.Source != nil {
		org, markers = cfg.Source.Org, cfg.Source.Markers
	}
	m.org = snapshot.NewOrg(org, markers)
	if cfg.Replay != nil {
		m.bar = newTimebar(cfg.Replay, cfg.ReplaySpeed)
	}
	m.resetApp(cfg.App)
	m.openView(cfg.View)
	return m
}

// resetApp points the model at app: a new generation, an empty snapshot,
// fresh panes, and no requests in flight (old replies will be dropped).
func (m *Model) resetApp(app string) {
	if m.genCancel != nil {
		m.genCancel()
	}
	m.gen = m.sched.Open(app)
	m.genCtx, m.genCancel = context.WithCancel(m.ctx)
	org, markers := "", []diagnose.Marker(nil)
	if m.cfg.Source != nil {
		org, markers = m.cfg.Source.Org, m.cfg.Source.Markers
	}
	m.cfg.App = app
	m.app = snapshot.New(org, app, markers)
	if app != "" {
		m.org.SetOpen(m.app)
	} else {
		m.org.SetOpen(nil) // no app yet: the overview chooses one
	}
	m.fatal = nil
	m.openedAt = m.wall()
	pctx := pane.Context{Theme: m.theme, Keys: m.keys, ReadOnly: m.cfg.ReadOnly}
	m.pending = nil
	m.panes = buildPanes(pctx)
	m.overlays = m.buildOverlays(pctx)
	m.open, m.focus, m.lastOther, m.zoom = nil, 0, 1, false
	if app == "" {
		m.open = m.overviewPane() // no app yet: the overview chooses one
	}
	m.sizes = map[pane.ID][2]int{}
	m.switcher = nil
	m.confirm, m.acting, m.notice = nil, nil, notice{}
	m.setData()
	m.relayout()
}

// now is the platform's time (virtual in demo mode).
func (m *Model) now() time.Time {
	if m.cfg.Source != nil && m.cfg.Source.Now != nil {
		return m.cfg.Source.Now()
	}
	return m.wall()
}

// setData hands the snapshot to every pane, tiles and overlays.
func (m *Model) setData() {
	now := m.now()
	// Every pane reads the app's Mark to tell whether its rows still
	// stand; nothing below changes the app.
	m.app.PinMark()
	defer m.app.UnpinMark()
	m.crash = m.app.CrashLoops() // the banner's: layout and View read it every frame
	m.states = m.app.StateCounts()
	for _, p := range m.allPanes() {
		p.SetData(m.app, now)
	}
	m.setOrgData(now) // the open app's row is the org model's too
}

// setOrgData hands the org model to the panes that read it.
func (m *Model) setOrgData(now time.Time) {
	for _, p := range m.allPanes() {
		if op, ok := p.(pane.OrgPane); ok {
			op.SetOrgData(m.org, now)
		}
	}
}

// allPanes are the tiles and the overlays: everything that receives data.
func (m *Model) allPanes() []pane.Pane {
	out := append([]pane.Pane{}, m.panes...)
	for _, o := range m.overlays {
		out = append(out, o.pane)
	}
	return out
}

// paneByID finds a tile or an overlay.
func (m *Model) paneByID(id pane.ID) pane.Pane {
	for _, p := range m.allPanes() {
		if p.ID() == id {
			return p
		}
	}
	return nil
}

// active is the pane keys go to: the open overlay, else the focused tile.
func (m *Model) active() pane.Pane {
	if m.open != nil {
		return m.open
	}
	return m.panes[m.focus]
}

func (m *Model) setStale(stale bool) {
	for _, p := range m.allPanes() {
		p.SetStale(stale)
	}
}

// Generation is the app generation (bumped on every app switch).
func (m Model) Generation() int { return m.gen }

// AppName is the app the dashboard shows.
func (m Model) AppName() string { return m.cfg.App }

// Err is the fatal error shown in place of the panes, if any.
func (m Model) Err() error { return m.fatal }
