package app

import (
	"slices"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"

	"github.com/flywake/flywake/ui/components/prompt"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
)

// The footer shows the keys that work where the user is: the prompt's
// answers, the switcher's, the help's, or the active pane's own keys (from
// its Keys) with the global keys that act there.

// hintMap is a footer's bindings in order; it satisfies help.KeyMap.
type hintMap []key.Binding

func (h hintMap) ShortHelp() []key.Binding  { return h }
func (h hintMap) FullHelp() [][]key.Binding { return [][]key.Binding{h} }

// footerKeys are the hints for the current context.
func (m *Model) footerKeys() help.KeyMap {
	k := m.keys
	switch {
	case m.confirm != nil:
		return hintMap(prompt.Keys(k, m.confirm.action.String()+" "+m.confirm.machine))
	case m.switcher != nil:
		return switcherKeys(k)
	case m.fatal != nil:
		return hintMap{pane.Relabel(k.Back, "", "back to "+m.back.String()), pane.Relabel(k.Command, "", "another app or a command"), k.Quit}
	case m.help:
		return hintMap{pane.Relabel(k.Help, k.Help.Help().Key+"/"+k.Back.Help().Key, "close"), m.commandHint(), k.Quit}
	}
	p := m.active()
	if p.Capturing() {
		return hintMap(p.Keys()) // it takes every key: only its own act
	}
	if m.open != nil {
		// The way out, help and the command line first: a narrow footer
		// cuts from the right, and these are the same in every view.
		out := hintMap{}
		if m.open.CanClose() {
			out = append(out, k.Back)
		}
		out = append(out, k.Help, m.commandHint())
		if keys.Reads(m.placeOf(p), "refresh") && !claimsAny(p, k.Refresh) && m.cfg.App != "" {
			out = append(out, k.Refresh)
		}
		return append(append(out, p.Keys()...), k.Quit)
	}
	// A narrow footer keeps only its first hints (? help lists the rest):
	// help, quit, the command line and refresh, then the headline
	// overlays, the pane's own keys, then the rest.
	out := hintMap{k.Help, k.Quit, m.commandHint(), k.Refresh}
	if m.zoomed() { // the way back out of a zoom is never cut
		out = append(out, pane.Relabel(k.Zoom, "", "unzoom"))
	}
	overlays := func(headline bool) {
		for _, o := range m.overlays {
			if o.headline == headline && !claimsAny(p, o.key) { // the pane's own use of the key comes first
				out = append(out, o.key)
			}
		}
	}
	overlays(true)
	out = append(out, p.Keys()...)
	overlays(false)
	if len(m.panes) > 1 {
		out = append(out, k.NextPane)
	}
	if m.canZoom() && !m.zoom {
		out = append(out, pane.Relabel(k.Zoom, "", "zoom pane"))
	}
	return out
}

// commandHint is the command line's hint, in every view.
func (m *Model) commandHint() key.Binding { return pane.Relabel(m.keys.Command, "", "command") }

// claimsAny reports whether one of b's keys acts in p now.
func claimsAny(p pane.Pane, b key.Binding) bool {
	for _, k := range b.Keys() {
		for _, own := range p.Keys() {
			if own.Enabled() && slices.Contains(own.Keys(), k) {
				return true
			}
		}
	}
	return false
}
