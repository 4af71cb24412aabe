package keys

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/words"
)

// A place is where one set of actions is read at once. Two actions may
// share a key only when no place reads both (h is "next mode" in the wake
// test and nothing on the dashboard); the key file is checked against
// this list, and so is Default. A new action goes into every place that
// reads it (TestEveryActionActsSomewhere fails until it does).
type place struct {
	name    string
	actions []string
}

// nav is the navigation every scrolling place reads.
var nav = []string{"up", "down", "page_up", "page_down", "home", "end"}

// around are the root's keys over any view: quit, help, close, and the
// `:` command line.
var around = []string{"quit", "help", "back", "command"}

// replayKeys are the time bar's: they act wherever the replayed instant
// is shown, the dashboard and the org overview.
var replayKeys = []string{"replay_prev_event", "replay_next_event", "replay_hour_back", "replay_hour_forward", "replay_jump", "replay_play", "replay_faster", "replay_slower"}

func joined(parts ...[]string) []string { return slices.Concat(parts...) }

// The places by name: the root says which one a key was pressed in
// (ActsIn), and a key that does nothing there says where it acts.
const (
	Dashboard  = "the dashboard"
	Describe   = "the describe view"
	Question   = "a y/N question"
	Checklist  = "the checklist"
	WakeTest   = "the wake test"
	LogsView   = "the logs view"
	Overview   = "the org overview"
	DemoDeploy = "the demo deploy"
	HelpView   = "the help"
	ErrorView  = "the error screen"
)

var places = []place{
	{Dashboard, joined(nav, []string{"quit", "help", "next_pane", "prev_pane", "zoom", "enter", "back",
		"filter", "command", "refresh", "checklist", "logs", "wake_test", "start", "stop", "suspend", "deploy",
		"sort_next", "sort_reverse", "left", "right", "describe", "copy", "next_item", "prev_item", "compare"}, replayKeys)},
	{Describe, joined(around, nav, []string{"filter", "next_item", "prev_item", "describe", "copy", "refresh"})},
	{Question, []string{"yes"}},
	{Checklist, joined(around, nav, []string{"next_item", "prev_item", "enter", "refresh"})},
	{WakeTest, joined(around, nav, []string{"enter", "refresh", "compare",
		"wake_mode_prev", "wake_mode_next", "wake_mode_stop", "wake_mode_suspend", "wake_mode_both",
		"wake_more", "wake_fewer", "wake_default"})},
	{LogsView, joined(around, nav, []string{"filter", "refresh", "log_follow", "log_machine", "log_region",
		"log_provider", "log_level", "log_clear", "log_wrap", "log_time", "left", "right", "copy"})},
	{Overview, joined(around, nav, []string{"enter", "filter", "refresh", "sort_next", "sort_reverse", "left", "right"}, replayKeys)},
	{DemoDeploy, joined(around, []string{"deploy_healthy", "deploy_crashing"})},
	{HelpView, around},
	{ErrorView, around},
}

// Actions are the names (as the key file writes them) of the actions read
// in place, in the order places.go lists them; nil for a place it does
// not know.
func Actions(place string) []string {
	for _, pl := range places {
		if pl.name == place {
			return slices.Clone(pl.actions)
		}
	}
	return nil
}

// typing names the actions a line input (the logs view's regex, the
// machines filter, the app switcher) answers to instead of typing them:
// enter and back end it, next and prev pane move the switcher's highlight.
// A key that types a character would do that instead of typing.
var typing = place{"a text input", []string{"enter", "back", "next_pane", "prev_pane"}}

// interruptKey always quits (KeyMap.Interrupt); only quit may list it.
// backgroundKey always suspends (KeyMap.Background); no action lists it.
const (
	interruptKey  = "ctrl+c"
	backgroundKey = "ctrl+z"
)

// conflict is two actions that answer to one key in some places; an
// empty second action is a rule broken by one (ctrl+c, or typing).
type conflict struct {
	key     string
	actions [2]string
	places  []string
	why     string // for a rule
}

func (c conflict) String() string {
	if c.why != "" {
		return fmt.Sprintf("%q for %s: %s", c.key, c.actions[0], c.why)
	}
	return fmt.Sprintf("%q is both %s and %s in %s", c.key, c.actions[0], c.actions[1], words.And(c.places))
}

// conflicts lists every key two actions share in one place (once per pair,
// naming every place), a ctrl+c bound to anything but quit, and a typed
// character bound to an action that ends a text input. Sorted, so the
// errors read the same on every run.
func conflicts(bindings map[string][]string) []conflict {
	var out []conflict
	seen := map[string]int{} // key and pair -> index in out
	for _, pl := range places {
		owner := map[string]string{}
		for _, action := range pl.actions {
			for _, k := range bindings[action] {
				if k == interruptKey || k == backgroundKey {
					continue // quit's, or a rule broken: below
				}
				other, taken := owner[k]
				if !taken || other == action {
					owner[k] = action
					continue
				}
				pair := [2]string{min(other, action), max(other, action)}
				id := k + "\x00" + pair[0] + "\x00" + pair[1]
				if i, ok := seen[id]; ok {
					out[i].places = append(out[i].places, pl.name)
					continue
				}
				seen[id] = len(out)
				out = append(out, conflict{key: k, actions: pair, places: []string{pl.name}})
			}
		}
	}
	for action, ks := range bindings {
		for _, k := range ks {
			switch {
			case k == interruptKey && action != "quit":
				out = append(out, conflict{key: k, actions: [2]string{action}, why: "ctrl+c always quits"})
			case k == backgroundKey:
				out = append(out, conflict{key: k, actions: [2]string{action}, why: "ctrl+z always suspends the dashboard"})
			case typesACharacter(k) && slices.Contains(typing.actions, action):
				out = append(out, conflict{key: k, actions: [2]string{action},
					why: action + " also acts in " + typing.name + ", where that key must type itself"})
			}
		}
	}
	slices.SortFunc(out, func(a, b conflict) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// typesACharacter: a key a text input takes as text.
func typesACharacter(k string) bool {
	return utf8.RuneCountInString(k) == 1
}

// placesOf are the places that read action, for error messages.
func placesOf(action string) []string {
	var out []string
	for _, pl := range places {
		if slices.Contains(pl.actions, action) {
			out = append(out, pl.name)
		}
	}
	return out
}

// ActsWhere says what a key does and where it does it, for a key pressed
// where it does nothing: the first place (in the order above, the
// dashboard first) with an enabled action bound to it. ok is false for a
// key no action answers to.
func (k *KeyMap) ActsWhere(msg tea.KeyMsg) (desc, where string, ok bool) {
	all := k.All()
	for _, pl := range places {
		for _, action := range pl.actions {
			if b := all[action]; b != nil && b.Enabled() && key.Matches(msg, *b) {
				return b.Help().Desc, pl.name, true
			}
		}
	}
	return "", "", false
}

// Reads reports whether place reads action (as the key file names it).
func Reads(place, action string) bool { return slices.Contains(Actions(place), action) }

// ActsIn is the enabled action msg stands for in place: its description,
// ok false when nothing there answers to it.
func (k *KeyMap) ActsIn(place string, msg tea.KeyMsg) (desc string, ok bool) {
	all := k.All()
	for _, action := range Actions(place) {
		if b := all[action]; b != nil && b.Enabled() && key.Matches(msg, *b) {
			return b.Help().Desc, true
		}
	}
	return "", false
}
