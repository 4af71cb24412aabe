package keys

import "github.com/charmbracelet/bubbles/key"

// ShortHelp is the footer: the few keys a first-time user needs, most
// important first (a narrow footer cuts from the right).
// It satisfies help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return enabled([]key.Binding{k.Help, k.Quit, k.NextPane, k.Filter, k.Enter, k.Back, k.Command})
}

// FullHelp is the ? overlay, one column per group. Disabled bindings (for
// example dangerous ones under ReadOnly) are left out, and so is a column
// left empty by that. It satisfies help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	groups := [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.NextPane, k.PrevPane, k.Zoom, k.Enter, k.Back, k.Filter, k.Command},
		{k.Refresh, k.Checklist, k.NextItem, k.PrevItem, k.Compare},
		{k.Logs, k.LogFollow, k.LogMachine, k.LogRegion, k.LogProvider, k.LogLevel, k.LogClear},
		{k.WakeTest, k.Start, k.Stop, k.Suspend, k.Deploy}, // the wake test's setup keys: on its own hint line
		{k.Help, k.Quit},
	}
	out := make([][]key.Binding, 0, len(groups))
	for _, g := range groups {
		if g = enabled(g); len(g) > 0 {
			out = append(out, g)
		}
	}
	return out
}

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
