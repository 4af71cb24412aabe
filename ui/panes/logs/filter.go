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
	MinLevel int    // 0 all, 1 warn and worse, 2 errors only
	From, To time.Time
	Regex    string // matched against the message and the machine id
}

// Empty reports whether the filter lets every line through.
func (f Filter) Empty() bool { return f == Filter{} }

// compiled is a Filter ready to match: its regular expression compiled.
type compiled struct {
	f  Filter
	re *regexp.Regexp
}

// compile prepares f; a regex that does not compile is returned as the
// error and matched as a literal string meanwhile, so typing "foo(" shows
// the lines containing "foo(" instead of nothing.
func compile(f Filter) (compiled, error) {
	if f.Regex == "" {
		return compiled{f: f}, nil
	}
	re, err := regexp.Compile("(?i)" + f.Regex)
	if err != nil {
		return compiled{f: f, re: regexp.MustCompile("(?i)" + regexp.QuoteMeta(f.Regex))}, err
	}
	return compiled{f: f, re: re}, nil
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
	if f.MinLevel > 0 && levelRank(l.Level) < f.MinLevel {
		return false
	}
	if !f.From.IsZero() && l.Time.Before(f.From) {
		return false
	}
	if !f.To.IsZero() && l.Time.After(f.To) {
		return false
	}
	if c.re != nil && !c.re.MatchString(l.Message) && !c.re.MatchString(l.Machine) {
		return false
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
