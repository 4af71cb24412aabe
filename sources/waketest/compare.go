package waketest

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/words"
)

// Row is one line of the side-by-side table: a label and one cell per run.
type Row struct {
	Label string
	Cells []string
}

// Table lays runs side by side (stop, then suspend, for "both"): ok/failed,
// p50/p95/max, first 200, slowest, machines woken, started-to-serving gap,
// and what became of suspend. Pure; the command and the TUI both draw it.
func Table(runs []Run) (header []string, rows []Row) {
	header = []string{""}
	for _, r := range runs {
		h := string(r.Mode)
		if !r.Representative {
			h += " (not representative)"
		}
		if r.Aborted {
			h += " (aborted)"
		}
		if r.Coverage().Absorbed() {
			h += " (not comparable)"
		}
		header = append(header, h)
	}
	add := func(label string, cell func(Run) string) {
		row := Row{Label: label}
		for _, r := range runs {
			row.Cells = append(row.Cells, cell(r))
		}
		rows = append(rows, row)
	}
	add("ok / failed", func(r Run) string {
		s := fmt.Sprintf("%d / %d of %d", r.OK, r.Failed, r.Requests)
		if r.CutOff > 0 {
			s += fmt.Sprintf(" (%d cut off)", r.CutOff)
		}
		return s
	})
	add("statuses", func(r Run) string { return statusLine(r) })
	add("p50 / p95 / max", func(r Run) string {
		if r.Sent == 0 {
			return words.Missing
		}
		return fmt.Sprintf("%s / %s / %s", FormatMS(r.P50MS), FormatMS(r.P95MS), FormatMS(r.MaxMS))
	})
	add("first 200", func(r Run) string { return FormatMS(r.First200MS) })
	add("slowest 200", func(r Run) string { return FormatMS(r.SlowestMS) })
	add("machines woken", func(r Run) string {
		s := fmt.Sprint(r.MachinesWoken)
		if c := r.Coverage(); c.Asleep > 0 {
			s = fmt.Sprintf("%d of the %d asleep", c.Woken, c.Asleep)
		}
		if n := len(r.WokenUnserved); n > 0 {
			s += fmt.Sprintf(" (%d served none of ours)", n)
		}
		return s
	})
	awake := false
	for _, r := range runs {
		awake = awake || r.Coverage().Awake > 0
	}
	if awake { // only when a machine was up to answer: most tests have none
		add("served by awake", func(r Run) string {
			c := r.Coverage()
			if c.Awake == 0 || r.Sent == 0 {
				return words.Missing
			}
			return fmt.Sprintf("%d of %d (%s)", c.ServedByAwake, r.Sent, words.Count(c.Awake, "machine", "machines"))
		})
	}
	add("started → serving", func(r Run) string { return gapLine(r.StartedToServingMS) })
	add("suspend", func(r Run) string {
		switch {
		case r.Mode == ModeStop:
			return words.Missing
		case len(r.SuspendBlockedBy) > 0:
			s := "blocked by: " + strings.Join(r.SuspendBlockedBy, "; ")
			if r.FellBackToStop {
				s += " → fell back to stop"
			}
			return s
		case r.FellBackToStop:
			return "fell back to stop"
		}
		n := 0
		for _, m := range r.Machines {
			if m.Target && m.Slept == "suspended" {
				n++
			}
		}
		if n == 0 {
			return words.Missing // not run, or aborted before any machine got there
		}
		return fmt.Sprintf("%d suspended", n)
	})
	add("missing", func(r Run) string {
		if r.Missing == "" {
			return words.Missing
		}
		return r.Missing
	})
	return header, rows
}

// FormatMS spells platform milliseconds as every measured time is
// spelled (words.Duration, words.Tenths): "840ms", "31.2s";
// words.Missing ("–") for -1 (never happened).
func FormatMS(ms int64) string {
	if ms < 0 {
		return words.Missing
	}
	return words.Duration(time.Duration(ms)*time.Millisecond, words.Tenths)
}

func statusLine(r Run) string {
	if len(r.ByStatus) == 0 {
		return words.Missing
	}
	keys := make([]string, 0, len(r.ByStatus))
	for k := range r.ByStatus {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		label := k
		if k == "0" {
			label = "no answer"
		}
		parts = append(parts, fmt.Sprintf("%s×%d", label, r.ByStatus[k]))
	}
	return strings.Join(parts, " ")
}

// gapLine summarises the started-to-serving gaps: "min–max (n machines)".
func gapLine(gaps map[string]int64) string {
	if len(gaps) == 0 {
		return words.Missing
	}
	lo, hi := int64(-1), int64(-1)
	for _, g := range gaps {
		if lo < 0 || g < lo {
			lo = g
		}
		hi = max(hi, g)
	}
	n := len(gaps)
	unit := "machines"
	if n == 1 {
		unit = "machine"
	}
	if lo == hi {
		return fmt.Sprintf("%s (%d %s)", FormatMS(lo), n, unit)
	}
	return fmt.Sprintf("%s – %s (%d %s)", FormatMS(lo), FormatMS(hi), n, unit)
}
