package keys

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The README's key tables list every key of every view: each action a
// place reads is written, by its default keys' labels, in that view's
// part of the "Keys" section or in the table of keys that act in every
// view.
func TestREADMEListsEveryKeyOfEveryView(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Keys\n")
	if !ok {
		t.Fatal(`README has no "Keys" section`)
	}
	section, _, _ = strings.Cut(section, "### Keys can be rebound")
	// Each view's part starts with its opening words; the every-view table
	// ends where the command line's part begins.
	starts := map[string]string{
		"every view":  "These keys act in every view:",
		Dashboard:     "The dashboard:",
		Describe:      "The describe view (`d`)",
		Overview:      "The org overview:",
		LogsView:      "The logs view (`l`):",
		Checklist:     "The checklist (`c`)",
		WakeTest:      "The wake test (`w`)",
		DemoDeploy:    "The demo deploy (`D`)",
		Question:      "Every `y/N` question",
		ErrorView:     "An error only you can fix",
		"the command": "The command line completes",
	}
	part := func(name string) string {
		from := strings.Index(section, starts[name])
		if from < 0 {
			t.Fatalf("README's Keys section has no %q", starts[name])
		}
		rest := section[from+len(starts[name]):]
		end := len(rest)
		for _, s := range starts {
			if i := strings.Index(rest, s); i >= 0 && i < end {
				end = i
			}
		}
		return rest[:end]
	}
	everyView := written(part("every view"))
	km := Default()
	all := km.All()
	for _, pl := range places {
		if pl.name == HelpView {
			continue // the help's keys are the every-view keys
		}
		here := written(part(pl.name))
		for _, action := range pl.actions {
			for _, k := range all[action].Keys() {
				if l := Label(k); !here[l] && !everyView[l] {
					t.Errorf("README does not list %s's key %q (%s) under %q or the keys of every view", pl.name, l, action, starts[pl.name])
				}
			}
		}
	}
}

var backticked = regexp.MustCompile("`([^`]+)`")

// written are the keys a README text names in backticks: "`←`/`→`",
// "`↑ ↓ pgup`", "`k j ctrl+u`", "`q`, `ctrl+c`", "`+`/`-`".
func written(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range backticked.FindAllStringSubmatch(text, -1) {
		out[m[1]] = true
		for _, f := range strings.Fields(m[1]) {
			out[f] = true
		}
	}
	return out
}
