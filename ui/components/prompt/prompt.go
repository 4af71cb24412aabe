// Package prompt is flywake's one y/N question, asked before anything
// changes machines: the dashboard's before a start, stop or suspend and
// before the wake test, and `flywake wake`'s on the command line. One rule
// says what answers yes (Yes); anything else is no, and nothing is sent.
package prompt

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
)

// Question is one y/N question. Text names what will happen, to which
// machines of which app; Warnings say what the answer costs, before it is
// given.
type Question struct {
	Text     string
	Warnings []string
}

// Hint follows the question: no is the default.
const Hint = "y/N"

// Yes is the rule for a typed answer: the yes key (y or Y) or the word
// "yes" in any case, blanks around ignored. Anything else is no.
func Yes(answer string) bool {
	a := strings.TrimSpace(answer)
	return strings.EqualFold(a, "yes") || slices.Contains(keys.Default().Yes.Keys(), a)
}

// YesKey is the rule for a key in the dashboard: the key map's Yes binding
// (y or Y unless rebound) answers yes; any other key answers no.
func YesKey(msg tea.KeyMsg, k *keys.KeyMap) bool { return key.Matches(msg, k.Yes) }

// Line is the question as one line of text, for a terminal prompt:
// "Stop …? [y/N] ".
func (q Question) Line() string { return q.Text + " [" + Hint + "] " }

// Lines draws the question for the dashboard, wrapped to width: each
// warning ("! …"), then the question and its hint.
func (q Question) Lines(th *theme.Theme, width int) []string {
	var out []string
	for _, w := range q.Warnings {
		for i, l := range cell.Wrap(w, max(width-2, 1), 0) {
			mark := "  "
			if i == 0 {
				mark = "! "
			}
			out = append(out, th.Warn.Render(mark+l))
		}
	}
	for _, l := range cell.Wrap(q.Text+" "+Hint, max(width, 1), 0) {
		out = append(out, th.Warn.Render(l))
	}
	return out
}

// Keys are the footer's hints while the question is open.
func Keys(k *keys.KeyMap, yes string) []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys(k.Yes.Keys()...), key.WithHelp(k.Yes.Help().Key, yes)),
		key.NewBinding(key.WithKeys("any"), key.WithHelp("any other key", "no: nothing is sent")),
	}
}
