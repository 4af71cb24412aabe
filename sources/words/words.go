// Package words formats numbers and nouns the same way in every pane,
// report and command: "5,707", "1 machine", "3 boots", "–".
package words

import (
	"strconv"
	"strings"
)

// Missing stands for a value there is none of (not measured, not set).
const Missing = "–"

// OrMissing is s, or Missing when s is empty.
func OrMissing(s string) string {
	if s == "" {
		return Missing
	}
	return s
}

// Release is how every view spells a release: "v42", Missing when unnamed.
func Release(rel string) string {
	if rel == "" {
		return Missing
	}
	return "v" + rel
}

// Moved is a release change as every view spells it ("v42→v43"), or the
// one release when nothing moved.
func Moved(from, to string) string {
	if from == "" || from == to {
		return Release(to)
	}
	return Release(from) + "→" + Release(to)
}

// Thousands writes n with comma separators: 5707 → "5,707".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// And joins words as a sentence lists them: "a", "a and b", "a, b and c".
func And(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// Count is n and the noun that fits it: "1 machine", "5,707 files".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(n) + " " + many
}

// Article is the indefinite article for word: "an" before a vowel ("an
// integer"), else "a".
func Article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
