package checklist

import (
	"fmt"
	"strings"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/words"
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

// summaryLine reads "4 fail · 1 warn · 3 pass · 2 project warnings" (zero
// counts left out).
func summaryLine(r Report) string {
	s := r.Summary
	var parts []string
	for _, p := range []struct {
		n    int
		word string
	}{{s.Fail, "fail"}, {s.Warn, "warn"}, {s.Pass, "pass"}, {s.Unknown, "unknown"}, {s.NA, "n/a"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.word))
		}
	}
	if s.Findings > 0 {
		parts = append(parts, words.Count(s.Findings, "project warning", "project warnings"))
	}
	if len(parts) == 0 {
		return "nothing checked"
	}
	return strings.Join(parts, " · ")
}

// SubjectLine says what the report judges: the project (its files listed
// when files is true) beside the deployed release, or the deployed release
// alone.
func (r Report) SubjectLine(files bool) string {
	rel := "no deployed release known"
	if r.Subject.Release != "" {
		rel = "deployed release " + r.Subject.Release
	}
	if !r.Subject.Project {
		line := "no project files read: every item judges " + rel
		if files {
			line += " (give --dir to judge the project about to ship)"
		}
		return line
	}
	project := "this project"
	if files {
		project += " (" + strings.Join(r.Subject.Files, ", ") + ")"
	}
	if r.Subject.Release == "" {
		return "judges " + project + "; " + rel + " to compare with"
	}
	return "judges " + project + " as Fly will apply it, beside " + rel
}

// JudgesLabel is what an item judging the deployed release says beside its
// title ("deployed v57"); "" for an item that judges the project.
func JudgesLabel(it Item) string {
	if it.Judges != JudgesDeployed {
		return ""
	}
	if it.Release == "" {
		return "deployed release"
	}
	return "deployed " + it.Release
}

// ChangeText is one change as a sentence: "hard_limit: deployed 25 → this
// project none".
func ChangeText(c Change) string {
	return c.Setting + ": deployed " + c.Deployed + " → this project " + c.Project
}

// Text renders the checklist for a terminal or a CI log.
func (r Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pre-deploy checklist · %s · %s\n%s\n", r.App, summaryLine(r), r.SubjectLine(true))
	if c := r.CouldNotCheck; c != nil {
		fmt.Fprintf(&b, "? could not check (%s), exit %d: %s\n", c.Cause.Words(), r.Exit, c.Detail)
	}
	if len(r.Findings) > 0 {
		fmt.Fprintf(&b, "\nproject files · %s\n", words.Count(len(r.Findings), "warning", "warnings"))
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "  %s %s  %s\n", f.Status.Glyph(), f.Source(), f.Text)
		}
	}
	for i, it := range r.Items {
		fmt.Fprintf(&b, "\n%d. %s %-7s %s", i+1, it.Status.Glyph(), strings.ToUpper(it.Status.String()), it.Title)
		if l := JudgesLabel(it); l != "" {
			b.WriteString(" · " + l)
		}
		b.WriteString("\n")
		for _, f := range it.Evidence {
			line := "     · " + f.Text
			if f.Source != "" {
				line += "  [" + f.Source + "]"
			}
			b.WriteString(line + "\n")
		}
		if len(it.Changes) > 0 {
			b.WriteString("     this deploy changes:\n")
			for _, c := range it.Changes {
				b.WriteString("       " + ChangeText(c) + "  [" + c.Source + "]\n")
			}
		}
		if it.Fix != "" {
			b.WriteString("     fix: " + it.Fix + "\n")
		}
	}
	return b.String()
}

// Markdown renders the checklist for a pull-request comment: a summary
// table, then one collapsible section per item with evidence and fix.
// What it quotes from the project or the platform stays text
// (sanitize.MarkdownText, MarkdownCode): a backtick in an entrypoint line
// does not end flywake's code span.
func (r Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "### Pre-deploy checklist: %s\n\n**%s**\n\n%s\n\n", sanitize.MarkdownCode(r.App), summaryLine(r), sanitize.MarkdownText(sentence(r.SubjectLine(true))))
	if c := r.CouldNotCheck; c != nil {
		fmt.Fprintf(&b, "❔ **Could not check (%s), exit %d:** %s\n\n", c.Cause.Words(), r.Exit, sanitize.MarkdownText(c.Detail))
	}
	if len(r.Findings) > 0 {
		b.WriteString("**Project files**\n\n")
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "- %s %s %s\n", emoji(f.Status), sanitize.MarkdownCode(f.Source()), sanitize.MarkdownText(f.Text))
		}
		b.WriteString("\n")
	}
	b.WriteString("| # | Item | Status | Judges |\n|---|---|---|---|\n")
	for i, it := range r.Items {
		judged := JudgesLabel(it)
		if judged == "" {
			judged = "this project"
		}
		fmt.Fprintf(&b, "| %d | %s | %s %s | %s |\n", i+1, mdCell(it.Title), emoji(it.Status), it.Status, sanitize.MarkdownText(judged))
	}
	for i, it := range r.Items {
		fmt.Fprintf(&b, "\n<details><summary>%d. %s: %s %s</summary>\n\n", i+1, mdCell(it.Title), emoji(it.Status), it.Status)
		for _, f := range it.Evidence {
			b.WriteString("- " + f.Markdown())
			if f.Source != "" {
				b.WriteString(" (" + sanitize.MarkdownCode(f.Source) + ")")
			}
			b.WriteString("\n")
		}
		if len(it.Changes) > 0 {
			b.WriteString("\n**This deploy changes:**\n\n")
			for _, c := range it.Changes {
				b.WriteString("- " + sanitize.MarkdownText(ChangeText(c)) + " (" + sanitize.MarkdownCode(c.Source) + ")\n")
			}
		}
		if it.Fix != "" {
			b.WriteString("\n**Fix:** " + mdLine(it.Fix) + "\n")
		}
		b.WriteString("\n</details>\n")
	}
	return b.String()
}

// sentence capitalises a line and ends it with a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// Markdown is the fact as Markdown: its quotes kept text when a rule made
// it (see itemBuilder.note), else its text read as flywake's own.
func (f Fact) Markdown() string {
	if f.markdown != "" {
		return f.markdown
	}
	return mdLine(f.Text)
}

// mdCell keeps a table cell of flywake's own words on one line and its
// pipes literal.
func mdCell(s string) string {
	return strings.ReplaceAll(mdLine(s), "|", `\|`)
}

// mdLine keeps flywake's own text on one line and stops raw HTML from
// reaching the page. Inside `code spans` nothing is interpreted, so those
// are left alone. Someone else's text is sanitize.MarkdownText's.
func mdLine(s string) string {
	parts := strings.Split(strings.ReplaceAll(s, "\n", " "), "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(parts[i])
	}
	return strings.Join(parts, "`")
}
