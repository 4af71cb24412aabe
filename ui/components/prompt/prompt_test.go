package prompt

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// One rule: y, Y and yes (any case) are yes, typed or pressed; anything
// else is no.
func TestOneRuleForYes(t *testing.T) {
	for answer, want := range map[string]bool{
		"y": true, "Y": true, "yes": true, "YES": true, " Yes\n": true, "y\r\n": true,
		"": false, "n": false, "no": false, "ye": false, "yess": false, "yy": false, "q": false, "\x1b": false,
	} {
		if got := Yes(answer); got != want {
			t.Errorf("Yes(%q) = %v, want %v", answer, got, want)
		}
	}
	k := keys.Default()
	for key, want := range map[string]bool{"y": true, "Y": true, "n": false, "enter": false, "esc": false, "s": false} {
		if got := YesKey(uitest.Key(key), &k); got != want {
			t.Errorf("YesKey(%q) = %v, want %v", key, got, want)
		}
		if want && !Yes(uitest.Key(key).String()) {
			t.Errorf("the key %q answers yes but the typed rule says no", key)
		}
	}
}

func TestLinesSayTheWarningsFirst(t *testing.T) {
	q := Question{Text: "Stop machine 148e4d55f36278 (suspended) of sleepy-api?",
		Warnings: []string{"stopping discards 148e4d55f36278's suspend snapshot: its next start is a cold boot, not a resume"}}
	lines := q.Lines(theme.New(true), 60)
	plain := ansi.Strip(strings.Join(lines, "\n"))
	if !strings.HasPrefix(plain, "! stopping discards") || !strings.HasSuffix(plain, "sleepy-api? y/N") {
		t.Fatalf("lines:\n%s", plain)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line %q is %d wide", ansi.Strip(l), w)
		}
	}
	if got := q.Line(); got != "Stop machine 148e4d55f36278 (suspended) of sleepy-api? [y/N] " {
		t.Errorf("Line() = %q", got)
	}
}
