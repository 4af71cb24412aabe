package logs

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
)

// Filter is what the logs view shows: every field left empty lets every line
// through. Lines are matched as the model holds them (already sanitised).
type Filter struct {
	Machine  string
	Region   string
	Provider string // app, runner, proxy, health
	// ProxyErrors: only the proxy's lines that carry an error code.
	ProxyErrors bool
	MinLevel    int // 0 all, 1 warn and worse, 2 errors only
	From, To    time.Time
	Regex       string // matched against the message (smart case)
}

// Empty reports whether the filter lets every line through.
func (f Filter) Empty() bool { return f == Filter{} }

// compiled is a Filter ready to match: its expression compiled, or, when it
// is plain text, the text to look for (much faster than a regexp, and what
// most searches are).
type compiled struct {
	f       Filter
	re      *regexp.Regexp
	literal string // plain text: matched ignoring ASCII case
}

// compile prepares f. The search is case-insensitive unless it has an
// upper-case letter (smart case, as ripgrep and less -i do). A regexp that
// does not compile is returned as the error and matched as plain text
// meanwhile, so typing "foo(" shows the lines containing "foo(".
func compile(f Filter) (compiled, error) {
	pat := f.Regex
	if pat == "" {
		return compiled{f: f}, nil
	}
	if regexp.QuoteMeta(pat) == pat {
		return literal(f), nil
	}
	flags := "(?i)"
	if strings.ToLower(pat) != pat {
		flags = ""
	}
	re, err := regexp.Compile(flags + pat)
	if err != nil {
		return literal(f), err
	}
	return compiled{f: f, re: re}, nil
}

func literal(f Filter) compiled {
	c := compiled{f: f, literal: f.Regex}
	if strings.ToLower(f.Regex) == f.Regex {
		c.literal = strings.ToLower(f.Regex) // and matched ignoring case
	}
	return c
}

// containsText reports whether s holds sub: exactly when sub has an
// upper-case letter, else ignoring ASCII case.
func containsText(s, sub string) bool {
	if strings.ToLower(sub) != sub {
		return strings.Contains(s, sub)
	}
	if len(sub) == 0 {
		return true
	}
	first := sub[0]
	upper := first
	if 'a' <= first && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		if c := s[i]; (c == first || c == upper) && strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// match reports whether l passes.
func (c compiled) match(l *diagnose.LogLine) bool {
	f := &c.f
	if f.Machine != "" && l.Machine != f.Machine {
		return false
	}
	if f.Region != "" && l.Region != f.Region {
		return false
	}
	if f.Provider != "" && l.Provider != f.Provider {
		return false
	}
	if f.ProxyErrors && (l.Provider != "proxy" || diagnose.ProxyErrorCode(l.Message) == "") {
		return false
	}
	if f.MinLevel > 0 && levelRank(l.Level) < f.MinLevel {
		return false
	}
	if !f.From.IsZero() && l.Time.Before(f.From) {
		return false
	}
	if !f.To.IsZero() && l.Time.After(f.To) {
		return false
	}
	switch {
	case c.literal != "":
		return containsText(l.Message, c.literal)
	case c.re != nil:
		return c.re.MatchString(l.Message)
	}
	return true
}

// levelRank: 1 for warnings, 2 for errors and worse, 0 otherwise.
func levelRank(level string) int {
	switch strings.ToLower(level) {
	case "warn", "warning":
		return 1
	case "error", "err", "fatal", "critical", "crit", "panic":
		return 2
	}
	return 0
}

// levelNames name MinLevel's steps in the filter bar.
var levelNames = []string{"", "warn+", "error"}

// scan returns the indexes in [from, to) of lines that pass c, checking ctx
// every few thousand lines so a scan overtaken by the next keystroke stops.
func scan(ctx context.Context, lines []diagnose.LogLine, from, to int, c compiled) ([]int, bool) {
	var out []int
	for i := from; i < to; i++ {
		if (i-from)&4095 == 4095 && ctx.Err() != nil {
			return nil, false
		}
		if c.match(&lines[i]) {
			out = append(out, i)
		}
	}
	return out, true
}
