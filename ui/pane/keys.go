package pane

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/flywake/flywake/ui/keys"
)

// Relabel is b shown as helpKey ("" keeps b's own) with another
// description, answering to b's keys, so a rebound key shows as what it is.
func Relabel(b key.Binding, helpKey, desc string) key.Binding {
	if helpKey == "" {
		helpKey = b.Help().Key
	}
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(helpKey, desc), enabledIf(b.Enabled()))
}

// Pair is one hint for two bindings ("n/p item"), answering to both.
func Pair(a, b key.Binding, desc string) key.Binding { return keys.Pair(a, b, desc) }

// Arrows is one "↑/↓ desc" hint for the up and down bindings.
func Arrows(k *keys.KeyMap, desc string) key.Binding { return keys.Pair(k.Up, k.Down, desc) }

// Hint is a footer entry that no binding of the key map stands for.
func Hint(helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(helpKey), key.WithHelp(helpKey, desc))
}

func enabledIf(on bool) key.BindingOpt {
	return func(b *key.Binding) { b.SetEnabled(on) }
}
