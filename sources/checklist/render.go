package checklist

import (
	"fmt"
	"strings"
)

// emoji is the status mark for Markdown.
func emoji(s Status) string {
	switch s {
	case Pass:
		return "✅"
	case Warn:
		return "⚠️"
	case Fail:
		return "❌"
	case Unknown:
		return "❔"
	}
	return "➖"
}

// summaryLine reads "4 fail · 1 warn · 3 pass" (zero counts left out).
func summaryLine(items []Item) string {
	s := Summarize(items)
	var parts []string
	for _, p := range []struct {
		n    int
		word string
	}{{s.Fail, "fail"}, {s.Warn, "warn"}, {s.Pass, "pass"}, {s.Unknown, "unknown"}, {s.NA, "n/a"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.word))
		}
	}
	if len(parts) == 0 {
		return "nothing checked"
	}
	return strings.Join(parts, " · ")
}

// Text renders the checklist for a terminal or a CI log.
func Text(app string, items []Item) string {
	var b strings.Builder
	fmt.Fprintf(&b, "pre-deploy checklist · %s · %s\n", app, summaryLine(items))
	for i, it := range items {
		fmt.Fprintf(&b, "\n%d. %s %-7s %s\n", i+1, it.Status.Glyph(), strings.ToUpper(it.Status.String()), it.Title)
		for _, f := range it.Evidence {
			line := "     · " + f.Text
			if f.Source != "" {
				line += "  [" + f.Source + "]"
			}
			b.WriteString(line + "\n")
		}
		if it.Fix != "" {
			b.WriteString("     fix: " + it.Fix + "\n")
		}
	}
	return b.String()
}

// Markdown renders the checklist for a pull-request comment: a summary
// table, then one collapsible section per item with evidence and fix.
func Markdown(app string, items []Item) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### Pre-deploy checklist: `%s`\n\n**%s**\n\n", mdCode(app), summaryLine(items))
	b.WriteString("| # | Item | Status |\n|---|---|---|\n")
	for i, it := range items {
		fmt.Fprintf(&b, "| %d | %s | %s %s |\n", i+1, mdCell(it.Title), emoji(it.Status), it.Status)
	}
	for i, it := range items {
		fmt.Fprintf(&b, "\n<details><summary>%d. %s: %s %s</summary>\n\n", i+1, mdCell(it.Title), emoji(it.Status), it.Status)
		for _, f := range it.Evidence {
			b.WriteString("- " + mdLine(f.Text))
			if f.Source != "" {
				b.WriteString(" (`" + mdCode(f.Source) + "`)")
			}
			b.WriteString("\n")
		}
		if it.Fix != "" {
			b.WriteString("\n**Fix:** " + mdLine(it.Fix) + "\n")
		}
		b.WriteString("\n</details>\n")
	}
	return b.String()
}

// mdCell keeps a table cell on one line and its pipes literal.
func mdCell(s string) string {
	return strings.ReplaceAll(mdLine(s), "|", `\|`)
}

// mdLine keeps text on one line and stops raw HTML from reaching the page.
// Inside `code spans` nothing is interpreted, so those are left alone.
func mdLine(s string) string {
	parts := strings.Split(strings.ReplaceAll(s, "\n", " "), "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(parts[i])
	}
	return strings.Join(parts, "`")
}

func mdCode(s string) string {
	return strings.ReplaceAll(mdLine(s), "`", "'")
}
