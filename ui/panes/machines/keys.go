package machines

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
)

// Keys are the bindings that act in the pane now: the filter's while it is
// typed, the describe view's or the drill-down's while open, the table's
// otherwise; most used first (a narrow footer cuts from the right).
func (m *Model) Keys() []key.Binding {
	k := *m.ctx.Keys
	switch {
	case m.filtering():
		return []key.Binding{pane.Hint("enter", "keep filter"), pane.Relabel(k.Back, "", "clear filter"), pane.Arrows(&k, "move")}
	case m.describe != nil && m.describe.searching():
		return []key.Binding{pane.Hint("enter", "search"), pane.Relabel(k.Back, "", "cancel")}
	case m.describe != nil:
		return []key.Binding{pane.Relabel(k.Back, "", "back"), pane.Arrows(&k, "scroll"), pane.Relabel(k.Filter, "", "search"),
			pane.Pair(k.NextItem, k.PrevItem, "next/prev match"), k.Copy, pane.Relabel(k.Describe, "", "ask again")}
	case m.detail != nil:
		out := []key.Binding{pane.Relabel(k.Back, "", "back"), pane.Arrows(&k, "scroll"), pane.Relabel(k.Logs, "", "its logs"), k.Describe, k.Copy}
		return append(out, m.actionKeys(k)...)
	}
	out := []key.Binding{k.Filter, pane.Relabel(k.Enter, "", "drill in"), k.Describe}
	if m.table.Filter() != "" {
		out = append(out, pane.Relabel(k.Back, "", "clear filter"))
	}
	out = append(out, m.actionKeys(k)...)
	out = append(out, pane.Pair(k.SortNext, k.SortReverse, "sort"), k.Copy)
	if left, right := m.columnsOff(); left+right > 0 {
		out = append(out, pane.Pair(k.Left, k.Right, "columns"))
	}
	return out
}

// actionKeys is one hint for s/S/Z, or none when they are off.
func (m *Model) actionKeys(k keys.KeyMap) []key.Binding {
	if m.ctx.ReadOnly || k.IsReadOnly() || !k.Start.Enabled() || !k.Stop.Enabled() || !k.Suspend.Enabled() {
		return nil
	}
	ks := append(append(append([]string{}, k.Start.Keys()...), k.Stop.Keys()...), k.Suspend.Keys()...)
	help := k.Start.Help().Key + "/" + k.Stop.Help().Key + "/" + k.Suspend.Help().Key
	return []key.Binding{key.NewBinding(key.WithKeys(ks...), key.WithHelp(help, "start/stop/suspend"))}
}
