package keys

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// ShortHelp is the footer: the few keys a first-time user needs, most
// important first (a narrow footer cuts from the right).
// It satisfies help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return enabled([]key.Binding{k.Help, k.Quit, k.NextPane, k.Filter, k.Enter, k.Back, k.Command})
}

// Group is one titled group of the ? overlay: where its keys act.
type Group struct {
	Title    string
	Bindings []key.Binding
}

// Groups are the ? overlay's groups, each titled with where its keys act
// (an overlay's with the key that opens it). Disabled bindings (the
// dangerous ones under ReadOnly) are left out, and so is a group left
// empty by that.
func (k KeyMap) Groups() []Group {
	in := func(b key.Binding, desc string) key.Binding {
		b.SetHelp(b.Help().Key, desc)
		return b
	}
	groups := []Group{
		{"move", []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}},
		{"panes", []key.Binding{k.NextPane, k.PrevPane, k.Zoom, k.Enter, k.Back, k.Filter, k.Command, k.Refresh}},
		{"machines table", []key.Binding{in(k.SortNext, "sort: next col"), in(k.SortReverse, "sort: reverse"),
			Pair(k.Left, k.Right, "columns"), in(k.Describe, "describe"), k.Copy, k.Start, k.Stop, k.Suspend, k.Deploy}},
		{"describe (" + k.Describe.Help().Key + ")", []key.Binding{in(k.Filter, "search"), Pair(k.NextItem, k.PrevItem, "next/prev match")}},
		{"checklist (" + k.Checklist.Help().Key + ")", []key.Binding{in(k.Checklist, "open"), Pair(k.NextItem, k.PrevItem, "next/prev item")}},
		{wakeGroup(k), []key.Binding{in(k.WakeTest, "open"), wakeModes(k), Pair(k.WakeMore, k.WakeFewer, "requests"),
			in(k.Compare, "compare runs")}},
		{"logs view (" + k.Logs.Help().Key + ")", []key.Binding{in(k.Logs, "open"), k.LogFollow, Pair(k.LogMachine, k.LogRegion, "machine/region"), k.LogProvider, k.LogLevel, k.LogClear,
			Pair(k.LogWrap, k.LogTime, "wrap · times")}},
		{"replay (time bar)", []key.Binding{Pair(k.ReplayPrev, k.ReplayNext, "prev/next event"), Pair(k.ReplayHourBack, k.ReplayHourOn, "hour back/on"),
			k.ReplayJump, k.ReplayPlay, Pair(k.ReplaySlower, k.ReplayFaster, "slower/faster")}},
		{"flywake", []key.Binding{k.Help, k.Quit}},
	}
	out := make([]Group, 0, len(groups))
	for _, g := range groups {
		if g.Bindings = enabled(g.Bindings); len(g.Bindings) > 0 && (k.WakeTest.Enabled() || g.Title != wakeGroup(k)) {
			out = append(out, g)
		}
	}
	return out
}

// FullHelp is every group's bindings (help.KeyMap); the ? overlay draws
// Groups, with their titles.
func (k KeyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range k.Groups() {
		out = append(out, g.Bindings)
	}
	return out
}

// wakeModes is one help line for the wake test's mode keys: "←→ 123
// mode" (previous/next, or stop, suspend, both).
func wakeModes(k KeyMap) key.Binding {
	bs := []key.Binding{k.WakeModePrev, k.WakeModeNext, k.WakeModeStop, k.WakeModeSuspend, k.WakeModeBoth}
	var ks []string
	on := true
	for _, b := range bs {
		ks = append(ks, b.Keys()...)
		on = on && b.Enabled()
	}
	p := key.NewBinding(key.WithKeys(ks...), key.WithHelp(compact(bs[:2])+" "+compact(bs[2:]), "mode"))
	p.SetEnabled(on)
	return p
}

// compact writes the bindings' keys side by side ("←→", "123"), with a
// slash between them when one is longer than a character ("ctrl+a/x"):
// the help's key column stays narrow enough for three columns at 70×20.
func compact(bs []key.Binding) string {
	ks := make([]string, len(bs))
	sep := ""
	for i, b := range bs {
		if ks[i] = Short(b); len([]rune(ks[i])) > 1 {
			sep = "/"
		}
	}
	return strings.Join(ks, sep)
}

// wakeGroup is the wake test's group title; under --readonly the test is
// off and so is its group.
func wakeGroup(k KeyMap) string { return "wake test (" + k.WakeTest.Help().Key + ")" }

func enabled(bs []key.Binding) []key.Binding {
	out := bs[:0:0]
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// Pair is one hint for two bindings ("n/p item", "←/→ mode"), answering
// to both, shown by the first key of each (Short), so a rebound key shows
// as what it is.
func Pair(a, b key.Binding, desc string) key.Binding {
	p := key.NewBinding(key.WithKeys(append(a.Keys(), b.Keys()...)...),
		key.WithHelp(Short(a)+"/"+Short(b), desc))
	p.SetEnabled(a.Enabled() && b.Enabled())
	return p
}
