package coldstart

import (
	"strings"
	"unicode"

	"github.com/flywake/flywake/sources/diagnose"
)

// knownLetters gives the default phases letters that read well in a bar
// ("MMMMFFFFSSS") and never collide; other (configured) phases take the
// first free letter of their name.
var knownLetters = map[string]rune{
	diagnose.PhaseMachineBoot: 'B',
	diagnose.PhaseResume:      'R',
	diagnose.PhaseInit:        'I',
	diagnose.PhaseReleaseGate: 'G',
	diagnose.PhaseMigrations:  'M',
	diagnose.PhaseStatic:      'F',
	diagnose.PhaseServerStart: 'S',
	diagnose.PhaseListening:   'L',
}

// legendEntry is one phase of the bar legend.
type legendEntry struct {
	Letter      rune
	Name        string
	ReleaseWork bool
	Index       int // position in the legend, picks the colour
}

// letterSet assigns each phase name one letter, stable for one SetData.
type letterSet struct {
	byName map[string]*legendEntry
	used   map[rune]bool
	order  []*legendEntry
}

func newLetterSet() *letterSet {
	used := map[rune]bool{}
	for _, r := range knownLetters {
		used[r] = true // reserved even when absent, so letters never shift
	}
	return &letterSet{byName: map[string]*legendEntry{}, used: used}
}

// add returns the entry for name, creating it on first sight.
func (s *letterSet) add(name string, releaseWork bool) *legendEntry {
	if e, ok := s.byName[name]; ok {
		e.ReleaseWork = e.ReleaseWork || releaseWork
		return e
	}
	letter, ok := knownLetters[name]
	if !ok {
		letter = s.freeLetter(name)
	}
	e := &legendEntry{Letter: letter, Name: name, ReleaseWork: releaseWork, Index: len(s.order)}
	s.byName[name] = e
	s.order = append(s.order, e)
	return e
}

// freeLetter is the first unused letter of name (upper-cased), then any
// unused letter or digit; '?' when all are taken.
func (s *letterSet) freeLetter(name string) rune {
	candidates := strings.ToUpper(name) + "ABCDEHJKNOPQTUVWXYZ0123456789"
	for _, r := range candidates {
		if (unicode.IsUpper(r) || unicode.IsDigit(r)) && r < unicode.MaxASCII && !s.used[r] {
			s.used[r] = true
			return r
		}
	}
	return '?'
}
