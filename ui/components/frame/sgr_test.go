package frame

import (
	"regexp"
	"strconv"
	"strings"
)

var sgrRE = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// sgrColour returns the SGR sequences in s that set a foreground or
// background colour (30–38, 40–48, 90–97, 100–107).
func sgrColour(s string) []string {
	var found []string
	for _, m := range sgrRE.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' }) {
			n, err := strconv.Atoi(p)
			if err == nil && ((n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107)) {
				found = append(found, m[0])
				break
			}
		}
	}
	return found
}
