// Package keys is flywake's one key map. Every pane matches keys through it
// (key.Matches(msg, km.Filter)), and the footer and ? overlay render it
// through bubbles/help, so hints never drift from behaviour. A user may
// rebind any action from a file (config.go); places.go says where each
// action acts, so two actions read in one place never share a key.
package keys

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// KeyMap holds every binding. Build it with Default, Rebind it from the
// user's file, then call ReadOnly for --readonly. Copying a KeyMap copies
// its bindings (they are values).
type KeyMap struct {
	// Interrupt (ctrl+c) quits from anywhere, even while a pane takes every
	// key. It is not an action: no file rebinds it, so a terminal can
	// always be given back.
	Interrupt key.Binding
	// Background (ctrl+z) suspends the dashboard as a shell's suspend
	// does (the terminal given back until `fg`): in raw mode the terminal
	// sends it as a key, not as SIGTSTP. Like Interrupt it is no action.
	Background key.Binding

	Quit key.Binding
	Help key.Binding

	NextPane key.Binding
	PrevPane key.Binding
	Zoom     key.Binding // the focused pane takes the whole body, and back

	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Home     key.Binding
	End      key.Binding

	Enter   key.Binding // drill in
	Back    key.Binding // back out, abort a prompt or filter
	Filter  key.Binding
	Command key.Binding // ":" app switch
	Refresh key.Binding

	// The machines table: sort, sideways scroll, describe, copy the id.
	SortNext    key.Binding // sort by the next column (after the last: as listed)
	SortReverse key.Binding
	Left        key.Binding // scroll the columns sideways
	Right       key.Binding
	Describe    key.Binding
	Copy        key.Binding

	// Yes answers a y/N prompt; any other key answers no. A prompt is a
	// place of its own (places.go), so it may share a key with a pane's
	// action (Copy).
	Yes key.Binding

	Checklist key.Binding
	NextItem  key.Binding
	PrevItem  key.Binding
	Compare   key.Binding

	// The logs view (l): follow/pause, its filters, and how lines are
	// drawn (wrapped, with their times). Left, Right and Copy act there too.
	Logs        key.Binding
	LogFollow   key.Binding
	LogMachine  key.Binding
	LogRegion   key.Binding
	LogProvider key.Binding
	LogLevel    key.Binding
	LogClear    key.Binding
	LogWrap     key.Binding
	LogTime     key.Binding

	// The replay's time bar (flywake --replay): step by event, by hour,
	// jump to a time, play. Disabled unless a recording is replayed.
	ReplayPrev     key.Binding
	ReplayNext     key.Binding
	ReplayHourBack key.Binding
	ReplayHourOn   key.Binding
	ReplayJump     key.Binding
	ReplayPlay     key.Binding
	ReplayFaster   key.Binding
	ReplaySlower   key.Binding

	// The demo deploy's choice of release.
	DeployHealthy  key.Binding
	DeployCrashing key.Binding

	// The wake test's setup: the mode and the number of requests.
	WakeModePrev    key.Binding
	WakeModeNext    key.Binding
	WakeModeStop    key.Binding
	WakeModeSuspend key.Binding
	WakeModeBoth    key.Binding
	WakeMore        key.Binding
	WakeFewer       key.Binding
	WakeDefault     key.Binding

	// Dangerous: they act on machines. ReadOnly disables all of them.
	WakeTest key.Binding
	Start    key.Binding
	Stop     key.Binding
	Suspend  key.Binding
	Deploy   key.Binding // a demo release, in the demo (--demo) only

	readOnly bool
}

// Default returns the standard bindings, everything enabled.
func Default() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	k := KeyMap{
		Interrupt: b("ctrl+c", "quit now", "ctrl+c"),

		Background: b("ctrl+z", "suspend", "ctrl+z"),

		Quit: b("q", "quit", "q", "ctrl+c"),
		Help: b("?", "help", "?"),

		NextPane: b("tab", "next pane", "tab"),
		PrevPane: b("shift+tab", "prev pane", "shift+tab"),
		Zoom:     b("f", "zoom pane", "f"),

		Up:       b("↑/k", "up", "up", "k"),
		Down:     b("↓/j", "down", "down", "j"),
		PageUp:   b("pgup", "page up", "pgup", "ctrl+u"),
		PageDown: b("pgdn", "page down", "pgdown", "ctrl+d"),
		Home:     b("home/g", "top", "home", "g"),
		End:      b("end/G", "bottom", "end", "G"),

		Enter:   b("enter", "open", "enter"),
		Back:    b("esc", "back", "esc"),
		Filter:  b("/", "filter", "/"),
		Command: b(":", "command", ":"),
		Refresh: b("r", "refresh", "r"),

		SortNext:    b("o", "sort by next column", "o"),
		SortReverse: b("O", "reverse sort", "O"),
		Left:        b("←", "columns left", "left"),
		Right:       b("→", "columns right", "right"),
		Describe:    b("d", "describe machine", "d"),
		Copy:        b("y", "copy id", "y"),

		Yes: b("y", "yes", "y", "Y"),

		Checklist: b("c", "checklist", "c"),
		NextItem:  b("n", "next", "n"),
		PrevItem:  b("p", "prev", "p"),
		Compare:   b("v", "compare", "v"),

		Logs:        b("l", "logs", "l"),
		LogFollow:   b("space", "follow/pause", " "),
		LogMachine:  b("M", "this machine", "M"),
		LogRegion:   b("R", "this region", "R"),
		LogProvider: b("P", "provider", "P"),
		LogLevel:    b("L", "level", "L"),
		LogClear:    b("x", "clear filters", "x"),
		LogWrap:     b("w", "wrap lines", "w"),
		LogTime:     b("t", "timestamps", "t"),

		ReplayPrev:     b("[", "previous event", "["),
		ReplayNext:     b("]", "next event", "]"),
		ReplayHourBack: b("{", "hour back", "{"),
		ReplayHourOn:   b("}", "hour on", "}"),
		ReplayJump:     b("t", "jump to a time", "t"),
		ReplayPlay:     b("space", "play/pause", " "),
		ReplayFaster:   b(">", "play faster", ">"),
		ReplaySlower:   b("<", "play slower", "<"),

		DeployHealthy:  b("h", "healthy release", "h"),
		DeployCrashing: b("c", "crashing release", "c"),

		WakeModePrev:    b("←/h", "previous mode", "left", "h"),
		WakeModeNext:    b("→/l", "next mode", "right", "l"),
		WakeModeStop:    b("1", "stop only", "1"),
		WakeModeSuspend: b("2", "suspend only", "2"),
		WakeModeBoth:    b("3", "stop, then suspend", "3"),
		WakeMore:        b("+", "more requests", "+", "="),
		WakeFewer:       b("-", "fewer requests", "-", "_"),
		WakeDefault:     b("0", "default requests", "0"),

		WakeTest: b("w", "wake test", "w"),
		Start:    b("s", "start machine", "s"),
		Stop:     b("S", "stop machine", "S"),
		Suspend:  b("Z", "suspend machine", "Z"),
		Deploy:   b("D", "demo deploy", "D"),
	}
	k.Replaying(false) // a live dashboard has no time bar
	return k
}

// Replay lists the time bar's bindings (Replaying turns them on).
func (k *KeyMap) replay() []*key.Binding {
	return []*key.Binding{&k.ReplayPrev, &k.ReplayNext, &k.ReplayHourBack, &k.ReplayHourOn, &k.ReplayJump, &k.ReplayPlay,
		&k.ReplayFaster, &k.ReplaySlower}
}

// Replaying turns the time bar's keys on or off: they act only while a
// recording is replayed (Default has them off; the key file may rebind
// them all the same).
func (k *KeyMap) Replaying(on bool) {
	for _, b := range k.replay() {
		b.SetEnabled(on)
	}
}

// dangerous is the one list of bindings that change machines. ReadOnly,
// Dangerous and IsDangerous all read it, so a new action is flagged in one place.
func (k *KeyMap) dangerous() []*key.Binding {
	return []*key.Binding{&k.WakeTest, &k.Start, &k.Stop, &k.Suspend, &k.Deploy}
}

// ReadOnly disables every dangerous binding: it no longer matches any key and
// no longer appears in help.
func (k *KeyMap) ReadOnly() {
	for _, b := range k.dangerous() {
		b.SetEnabled(false)
	}
	k.readOnly = true
}

// IsReadOnly reports whether ReadOnly was applied.
func (k KeyMap) IsReadOnly() bool { return k.readOnly }

// Dangerous returns copies of the dangerous bindings (enabled or not).
func (k KeyMap) Dangerous() []key.Binding {
	ptrs := k.dangerous()
	out := make([]key.Binding, len(ptrs))
	for i, b := range ptrs {
		out[i] = *b
	}
	return out
}

// IsDangerous reports whether b is one of the dangerous bindings, compared
// by its keys and help (two actions of different places may share keys),
// so a pane can ask before acting on any binding it holds.
func (k KeyMap) IsDangerous(b key.Binding) bool {
	for _, d := range k.dangerous() {
		if sameKeys(d.Keys(), b.Keys()) && d.Help() == b.Help() {
			return true
		}
	}
	return false
}

func sameKeys(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// All returns every action's binding by the name the key file calls it
// (README "Keys can be rebound"); places.go says where each acts.
func (k *KeyMap) All() map[string]*key.Binding {
	return map[string]*key.Binding{
		"quit": &k.Quit, "help": &k.Help,
		"next_pane": &k.NextPane, "prev_pane": &k.PrevPane, "zoom": &k.Zoom,
		"up": &k.Up, "down": &k.Down, "page_up": &k.PageUp, "page_down": &k.PageDown,
		"home": &k.Home, "end": &k.End,
		"enter": &k.Enter, "back": &k.Back, "filter": &k.Filter, "command": &k.Command,
		"refresh": &k.Refresh, "checklist": &k.Checklist,
		"sort_next": &k.SortNext, "sort_reverse": &k.SortReverse, "left": &k.Left, "right": &k.Right,
		"describe": &k.Describe, "copy": &k.Copy, "yes": &k.Yes,
		"next_item": &k.NextItem, "prev_item": &k.PrevItem, "compare": &k.Compare,
		"logs": &k.Logs, "log_follow": &k.LogFollow, "log_machine": &k.LogMachine, "log_region": &k.LogRegion,
		"log_provider": &k.LogProvider, "log_level": &k.LogLevel, "log_clear": &k.LogClear,
		"log_wrap": &k.LogWrap, "log_time": &k.LogTime,
		"deploy_healthy": &k.DeployHealthy, "deploy_crashing": &k.DeployCrashing,
		"replay_prev_event": &k.ReplayPrev, "replay_next_event": &k.ReplayNext,
		"replay_hour_back": &k.ReplayHourBack, "replay_hour_forward": &k.ReplayHourOn,
		"replay_jump": &k.ReplayJump, "replay_play": &k.ReplayPlay,
		"replay_faster": &k.ReplayFaster, "replay_slower": &k.ReplaySlower,
		"wake_mode_prev": &k.WakeModePrev, "wake_mode_next": &k.WakeModeNext,
		"wake_mode_stop": &k.WakeModeStop, "wake_mode_suspend": &k.WakeModeSuspend, "wake_mode_both": &k.WakeModeBoth,
		"wake_more": &k.WakeMore, "wake_fewer": &k.WakeFewer, "wake_default": &k.WakeDefault,
		"wake_test": &k.WakeTest, "start": &k.Start, "stop": &k.Stop, "suspend": &k.Suspend, "deploy": &k.Deploy,
	}
}

// Scroll moves pos (a cursor or a scroll offset over 0..last) by the
// navigation keys, a page at a time for pgup/pgdn, and clamps it. ok is false
// when msg is not a navigation key; pos is then returned unchanged.
func (k KeyMap) Scroll(msg tea.KeyMsg, pos, page, last int) (next int, ok bool) {
	switch {
	case key.Matches(msg, k.Up):
		pos--
	case key.Matches(msg, k.Down):
		pos++
	case key.Matches(msg, k.PageUp):
		pos -= max(page, 1)
	case key.Matches(msg, k.PageDown):
		pos += max(page, 1)
	case key.Matches(msg, k.Home):
		pos = 0
	case key.Matches(msg, k.End):
		pos = last
	default:
		return pos, false
	}
	return min(max(pos, 0), max(last, 0)), true
}
