package keys

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// keyNames are the names bubbletea gives the keys it tells apart (its
// tea.KeyType names: "ctrl+a", "pgdown", "f12", …), read from bubbletea
// itself so the list cannot drift from what a KeyMsg says. Space is " ".
var keyNames = func() map[string]bool {
	names := map[string]bool{}
	for t := tea.KeyType(-128); t < 128; t++ {
		if s := t.String(); s != "" && s != "runes" {
			names[s] = true
		}
	}
	return names
}()

// spaceName is how the key file and the help write the space bar.
const spaceName = "space"

// normalKey turns a key as written in the key file into the name a
// tea.KeyMsg gives it ("space" is " "), and reports whether bubbletea can
// deliver it at all: one printable character, a named key, or alt+ one of
// those. ctrl+i, ctrl+m and ctrl+[ are not keys of their own (a terminal
// sends tab, enter and esc).
func normalKey(s string) (string, bool) {
	if s == spaceName {
		return " ", true
	}
	if rest, ok := strings.CutPrefix(s, "alt+"); ok && rest != "" {
		k, ok := normalKey(rest)
		return "alt+" + k, ok
	}
	if keyNames[s] {
		return s, true
	}
	r, n := utf8.DecodeRuneInString(s)
	return s, n == len(s) && r != utf8.RuneError && unicode.IsPrint(r)
}

// namedKeys lists the named keys for an error message: the plain ones
// (f1 to f20 as one), then how many modified forms there are.
func namedKeys() string {
	var plain []string
	modified, fkeys := 0, 0
	for n := range keyNames {
		switch {
		case n == " ":
		case len(n) > 1 && n[0] == 'f' && n[1] >= '0' && n[1] <= '9':
			fkeys++
		case strings.Contains(n, "+") && n != "shift+tab":
			modified++
		default:
			plain = append(plain, n)
		}
	}
	sort.Strings(plain)
	if fkeys > 0 {
		plain = append(plain, "f1…f"+strconv.Itoa(fkeys))
	}
	return strings.Join(plain, ", ") + " (and " + strconv.Itoa(modified) +
		" ctrl+ and shift+ forms, such as ctrl+a, ctrl+up, shift+home)"
}

// labels are the help's names for keys whose KeyMsg name is long or blank.
var labels = map[string]string{
	"up": "↑", "down": "↓", "left": "←", "right": "→", "pgdown": "pgdn", " ": spaceName,
}

// Label is how the footer and the help show one key.
func Label(k string) string {
	if l, ok := labels[k]; ok {
		return l
	}
	return k
}

// Short is how a hint shows a binding in few cells: its first key ("↑"
// for up, "←" for the wake test's previous mode), whatever it is bound to.
func Short(b key.Binding) string {
	if ks := b.Keys(); len(ks) > 0 {
		return Label(ks[0])
	}
	return b.Help().Key
}

// labelOf is a rebound binding's help key: each of its keys, "/" between.
func labelOf(keys []string) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = Label(k)
	}
	return strings.Join(out, "/")
}
