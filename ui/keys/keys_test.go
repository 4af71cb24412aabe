package keys

import (
	"slices"
	"strings"
	"testing"

	"github.com/flywake/flywake/ui/uitest"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
)

var _ help.KeyMap = KeyMap{}

// allKeyNames is every key any binding answers to.
func allKeyNames(k KeyMap) []string {
	var names []string
	for _, b := range k.All() {
		names = append(names, b.Keys()...)
	}
	return names
}

func TestKeyNamesMatchTheirMessages(t *testing.T) {
	k := Default()
	k.Replaying(true) // the time bar's keys are off unless a recording is replayed
	for name, b := range k.All() {
		for _, kn := range b.Keys() {
			if got := uitest.Key(kn).String(); got != kn {
				t.Errorf("%s: key %q arrives as %q", name, kn, got)
			}
			if !key.Matches(uitest.Key(kn), *b) {
				t.Errorf("%s does not match its own key %q", name, kn)
			}
		}
	}
}

// Two actions read in one place never share a key (places.go), and
// ctrl+c is quit's alone.
func TestDefaultHasNoConflicts(t *testing.T) {
	k := Default()
	for _, c := range conflicts(bindingsOf(&k)) {
		t.Errorf("default keys: %s", c)
	}
}

// Every action acts somewhere, and every place names real actions, so a
// new binding cannot escape the conflict check.
func TestEveryActionActsSomewhere(t *testing.T) {
	k := Default()
	all := k.All()
	for name := range all {
		if len(placesOf(name)) == 0 {
			t.Errorf("action %s is read in no place: add it to every place in places.go that reads it", name)
		}
	}
	for _, pl := range slices.Concat(places, []place{typing}) {
		for _, a := range pl.actions {
			if _, ok := all[a]; !ok {
				t.Errorf("%s names %q, which is no action", pl.name, a)
			}
		}
	}
}

// The conflict check sees what it must: one key for two actions in one
// place, and nothing across places that are never read together.
func TestConflicts(t *testing.T) {
	k := Default()
	b := bindingsOf(&k)
	b["log_clear"] = []string{"s"} // s is start on the dashboard: never read with the logs view's keys
	if c := conflicts(b); len(c) != 0 {
		t.Errorf("keys of different places reported: %v", c)
	}
	b["log_clear"] = []string{"M"} // log_machine's, in the logs view
	c := conflicts(b)
	if len(c) != 1 || c[0].String() != `"M" is both log_clear and log_machine in the logs view` {
		t.Errorf("conflicts = %v", c)
	}
	b = bindingsOf(&k)
	b["up"] = []string{"q"} // quit's in every place that scrolls: one report naming them all
	c = conflicts(b)
	if len(c) != 1 || !strings.Contains(c[0].String(), "quit and up in the dashboard, the describe view, the checklist, the wake test, the logs view and the org overview") {
		t.Errorf("conflicts = %v", c)
	}
}

func bindingsOf(k *KeyMap) map[string][]string {
	out := map[string][]string{}
	for name, b := range k.All() {
		out[name] = b.Keys()
	}
	return out
}

func TestDangerousFlags(t *testing.T) {
	k := Default()
	cases := []struct {
		name string
		b    key.Binding
		want bool
	}{
		{"wake test", k.WakeTest, true},
		{"start", k.Start, true},
		{"stop", k.Stop, true},
		{"suspend", k.Suspend, true},
		{"demo deploy", k.Deploy, true},
		{"quit", k.Quit, false},
		{"refresh", k.Refresh, false},
		{"enter", k.Enter, false},
		{"checklist", k.Checklist, false},
	}
	for _, c := range cases {
		if got := k.IsDangerous(c.b); got != c.want {
			t.Errorf("IsDangerous(%s) = %v, want %v", c.name, got, c.want)
		}
	}
	if n := len(k.Dangerous()); n != 5 {
		t.Errorf("Dangerous() has %d bindings, want 5", n)
	}
}

func TestReadOnlyRemovesDangerousEverywhere(t *testing.T) {
	k := Default()
	// Before: each dangerous binding works and is listed.
	for _, d := range k.Dangerous() {
		if !inFullHelp(k, d) {
			t.Fatalf("before ReadOnly, %q missing from FullHelp", d.Help().Key)
		}
	}
	k.ReadOnly()
	if !k.IsReadOnly() {
		t.Error("IsReadOnly false after ReadOnly")
	}
	for _, d := range k.Dangerous() {
		if d.Enabled() {
			t.Errorf("%q still enabled", d.Help().Key)
		}
		for _, kn := range allKeyNames(Default()) {
			if key.Matches(uitest.Key(kn), d) {
				t.Errorf("read-only: %q still matches key %q", d.Help().Key, kn)
			}
		}
		if inFullHelp(k, d) {
			t.Errorf("read-only: %q still in FullHelp", d.Help().Key)
		}
		for _, b := range k.ShortHelp() {
			if k.IsDangerous(b) {
				t.Errorf("read-only: %q in ShortHelp", b.Help().Key)
			}
		}
	}
	// Safe bindings are untouched.
	for _, kn := range k.Quit.Keys() {
		if !key.Matches(uitest.Key(kn), k.Quit) {
			t.Errorf("read-only broke quit key %q", kn)
		}
	}
	for _, g := range k.FullHelp() {
		if len(g) == 0 {
			t.Error("FullHelp kept an empty column")
		}
	}
	// ReadOnly on a copy leaves the original alone (bindings are values).
	orig := Default()
	cp := orig
	cp.ReadOnly()
	if !orig.Stop.Enabled() {
		t.Error("ReadOnly on a copy disabled the original")
	}
}

func inFullHelp(k KeyMap, b key.Binding) bool {
	for _, g := range k.FullHelp() {
		for _, h := range g {
			if sameKeys(h.Keys(), b.Keys()) {
				return true
			}
		}
	}
	return false
}

// The ? help lists the wake setup's keys, answering to what the setup
// takes, in a key column narrow enough for 70×20.
func TestHelpListsTheWakeSetupKeys(t *testing.T) {
	k := Default()
	var wake Group
	for _, g := range k.Groups() {
		if strings.HasPrefix(g.Title, "wake test") {
			wake = g
		}
	}
	want := map[string][]string{"←→ 123": {"left", "right", "1", "2", "3"}, "+/-": {"+", "-"}}
	for _, b := range wake.Bindings {
		if keys, ok := want[b.Help().Key]; ok {
			for _, kk := range keys {
				if !slices.Contains(b.Keys(), kk) {
					t.Errorf("%q does not answer to %q", b.Help().Key, kk)
				}
			}
			delete(want, b.Help().Key)
		}
	}
	if len(want) > 0 {
		t.Errorf("the wake group %q lacks %v", wake.Title, want)
	}
}
