package checklist

import (
	"fmt"
	"strings"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/theme"
)

// checked counts the items that have an answer: any status but unknown.
func checked(items []checklist.Item) int {
	n := 0
	for _, it := range items {
		if it.Status != checklist.Unknown {
			n++
		}
	}
	return n
}

// progressText reads "5 of 8 checked".
func progressText(items []checklist.Item) string {
	return fmt.Sprintf("%d of %d checked", checked(items), len(items))
}

// summaryCount is one "2 fail" part of the summary, zero counts left out.
type summaryCount struct {
	n      int
	status checklist.Status
}

func summaryCounts(r checklist.Report) []summaryCount {
	s := r.Summary
	var out []summaryCount
	for _, c := range []summaryCount{
		{s.Fail, checklist.Fail}, {s.Warn, checklist.Warn}, {s.Pass, checklist.Pass},
		{s.Unknown, checklist.Unknown}, {s.NA, checklist.NA},
	} {
		if c.n > 0 {
			out = append(out, c)
		}
	}
	return out
}

// summaryVariants are the summary line from the longest to the shortest,
// so the view can pick the longest that fits: "2 fail · 1 warn · 4 pass ·
// 1 n/a · 2 project warnings — `flywake check` would exit 2", then "… —
// exit 2", then the counts. Each count is drawn in its status style when t
// is not nil.
func summaryVariants(t *theme.Theme, r checklist.Report) []string {
	var parts []string
	for _, c := range summaryCounts(r) {
		part := fmt.Sprintf("%d %s", c.n, c.status)
		if t != nil {
			part = t.Level(c.status).Style.Render(part)
		}
		parts = append(parts, part)
	}
	if n := r.Summary.Findings; n > 0 {
		part := words.Count(n, "project warning", "project warnings")
		if t != nil {
			part = t.Level(checklist.Warn).Style.Render(part)
		}
		parts = append(parts, part)
	}
	counts := strings.Join(parts, " · ")
	if counts == "" {
		counts = "nothing to check"
	}
	code := r.ExitCode()
	return []string{
		fmt.Sprintf("%s — `flywake check` would exit %d", counts, code),
		fmt.Sprintf("%s — exit %d", counts, code),
		counts,
	}
}
