package textfile

import (
	"slices"
	"strings"
)

// Nearest is the known name closest to word, if it is close enough to be a
// typo (an edit distance of at most a third of its length, and 3): the
// "did you mean" of fly.toml's unknown keys and the key file's actions.
func Nearest(word string, known []string) string {
	if len(word) > 64 {
		return "" // no known name is that long
	}
	names := slices.Sorted(slices.Values(known))
	best, bestD := "", min(3, max(1, len(word)/3))+1
	for _, n := range names {
		if d := editDistance(strings.ToLower(word), n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps of
// two neighbours that turn a into b (optimal string alignment; a dozen
// lines, and no library in the module has one).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
