package app

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
)

// The footer shows the keys that work where the user is: the prompt's
// answers, the switcher's, the help's, an overlay's, or the dashboard's.

// hintMap is a footer's bindings in order; it satisfies help.KeyMap.
type hintMap []key.Binding

func (h hintMap) ShortHelp() []key.Binding  { return h }
func (h hintMap) FullHelp() [][]key.Binding { return [][]key.Binding{h} }

// relabel is b with another description (and help key), keeping its keys,
// so a rebound key shows as what it is.
func relabel(b key.Binding, helpKey, desc string) key.Binding {
	if helpKey == "" {
		helpKey = b.Help().Key
	}
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(helpKey, desc))
}

// hint is a footer entry that no binding of the key map stands for.
func hint(helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(helpKey), key.WithHelp(helpKey, desc))
}

// footerKeys are the hints for the current context.
func (m *Model) footerKeys() help.KeyMap {
	k := m.keys
	switch {
	case m.confirm != nil:
		return hintMap{hint("y", m.confirm.action.String()+" "+m.confirm.machine), hint("any other key", "cancels")}
	case m.switcher != nil:
		return hintMap{hint("tab", "complete"), hint("enter", "switch"), hint("esc", "cancel")}
	case m.help:
		return hintMap{relabel(k.Help, k.Help.Help().Key+"/"+k.Back.Help().Key, "close"), k.Quit}
	case m.overlay != nil && m.overlay == m.checklist:
		return hintMap{
			relabel(k.NextItem, k.NextItem.Help().Key+"/"+k.PrevItem.Help().Key, "next/prev"),
			relabel(k.Enter, "", "evidence"),
			relabel(k.PageDown, k.PageUp.Help().Key+"/"+k.PageDown.Help().Key, "scroll"),
			k.Back, k.Help, k.Quit,
		}
	case m.overlay != nil && !closable(m.overlay):
		// The wake test draws its own hints; while it holds every key
		// (its y/N, a run) only ctrl+c gets past it.
		return hintMap{hint("ctrl+c", "quit now, leaving machines as they are")}
	case m.overlay != nil:
		return hintMap{relabel(k.Back, "", "close"), k.Help, k.Quit}
	}
	return *k
}
