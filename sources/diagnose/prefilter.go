package diagnose

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
)

// prefilter is a cheap test a line must pass before a marker's pattern can
// match it: every match holds one of its literals. Most log lines are
// access-log lines that match no marker, and Go's regexp scans every
// offset of a pattern without a literal prefix (an alternation, a (?i)):
// with the filter a tracker reading a day of logs spends its time on the
// few lines that can match.
type prefilter struct {
	any  []string // nil: no literal is required, run the pattern
	fold bool     // the literals (and the line) are compared case-folded
}

// newPrefilter derives the literals every match of re holds.
func newPrefilter(re *regexp.Regexp) prefilter {
	if re == nil {
		return prefilter{}
	}
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return prefilter{}
	}
	for _, fold := range []bool{false, true} {
		if lits := required(parsed.Simplify(), fold); lits != nil {
			if fold {
				for i, l := range lits {
					lits[i] = foldCanon(l)
				}
			}
			return prefilter{any: lits, fold: fold}
		}
	}
	return prefilter{}
}

// mayMatch reports whether a line could match: false only when it holds
// none of the literals. folded keeps the line as foldCanon spells it
// ("": not made yet), so a line is folded once for all its filters.
func (p prefilter) mayMatch(line string, folded *string) bool {
	if p.any == nil {
		return true
	}
	if p.fold {
		if *folded == "" {
			*folded = foldCanon(line)
		}
		line = *folded
	}
	for _, l := range p.any {
		if strings.Contains(line, l) {
			return true
		}
	}
	return false
}

// required returns literals of which every match of re contains at least
// one, or nil when it finds none. With fold false it takes only
// case-sensitive literals; with fold true only case-folded ones.
func required(re *syntax.Regexp, fold bool) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if (re.Flags&syntax.FoldCase != 0) != fold {
			return nil
		}
		return []string{string(re.Rune)}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0], fold)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0], fold)
		}
	case syntax.OpConcat:
		// Any one part's literals will do: the longest shortest is the
		// most selective.
		var best []string
		for _, sub := range re.Sub {
			if lits := required(sub, fold); lits != nil && (best == nil || shortest(lits) > shortest(best)) {
				best = lits
			}
		}
		return best
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			lits := required(sub, fold)
			if lits == nil {
				return nil
			}
			all = append(all, lits...)
		}
		return all
	}
	return nil
}

func shortest(lits []string) int {
	n := len(lits[0])
	for _, l := range lits[1:] {
		n = min(n, len(l))
	}
	return n
}

// foldCanon spells s with each rune replaced by the smallest rune of its
// case-folding orbit (unicode.SimpleFold), so two strings match under
// (?i) rune by rune exactly when their canonical spellings are equal.
func foldCanon(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 { // an ASCII letter's orbit starts at its upper case
			if 'a' <= r && r <= 'z' {
				return r - 'a' + 'A'
			}
			return r
		}
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}
