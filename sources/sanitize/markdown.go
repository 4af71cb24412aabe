package sanitize

import (
	"fmt"
	"strings"
)

// Markdown output (a check report in a job summary, a verdict in a
// pull-request comment) quotes project and platform text. Quoted, it must
// stay text: a backtick in an entrypoint line closed flywake's code span
// and the rest of the line became Markdown (links, images, raw HTML).

// markdownSpecial are the characters that start Markdown or HTML syntax
// anywhere in a line (GitHub's $ starts math, ~ strikes through). "(" and
// "!" only matter beside "[", which is escaped; "_" only matters at the
// edge of a word (see MarkdownText).
const markdownSpecial = "\\`*[]|<>~&$"

// MarkdownText is s as literal Markdown text on one line: every character
// that could start emphasis, a link, an image, a code span, HTML or a
// table cell is backslash-escaped, a bare URL is not linked, and a line
// that would start a list or a heading does not.
func MarkdownText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	b.Grow(len(s) + 8)
	digits := true // the text so far is a run of digits: "1." starts a list
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte(markdownSpecial, c) >= 0:
			b.WriteByte('\\')
		case c == '_' && !(i > 0 && wordByte(s[i-1]) && i+1 < len(s) && wordByte(s[i+1])):
			b.WriteByte('\\') // auto_stop_machines is read as written
		case i == 0 && (c == '-' || c == '+' || c == '=' || c == '#'):
			b.WriteByte('\\')
		case digits && i > 0 && (c == '.' || c == ')'):
			b.WriteByte('\\')
		case c == ':' && strings.HasPrefix(s[i:], "://"), c == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www"):
			b.WriteByte('\\') // GitHub links a bare URL: quoted text stays unlinked
		}
		b.WriteByte(c)
		digits = digits && c >= '0' && c <= '9'
	}
	return b.String()
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// MarkdownCode is s as one Markdown code span: fenced with one backtick
// more than the longest run inside it, so no backtick in s ends it, and on
// one line.
func MarkdownCode(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		s = " " + s + " " // a space each side is stripped again
	}
	return fence + s + fence
}

// MarkdownBlock is lines as one fenced code block, each line as written:
// the fence is longer than any run of backticks in them, so no line ends
// it.
func MarkdownBlock(lines []string) string {
	longest := 2
	for _, l := range lines {
		run := 0
		for i := 0; i < len(l); i++ {
			if l[i] == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	fence := strings.Repeat("`", longest+1)
	var b strings.Builder
	b.WriteString(fence + "\n")
	for _, l := range lines {
		b.WriteString(strings.Join(strings.Fields(l), " ") + "\n")
	}
	b.WriteString(fence)
	return b.String()
}

// MarkdownSprintf is fmt.Sprintf for Markdown, for a format written by
// flywake whose arguments are someone else's text: the format's own
// `code spans` stay code spans (their arguments fenced by MarkdownCode),
// and an argument outside one is MarkdownText. The format's own text is
// trusted, its < and > made entities.
func MarkdownSprintf(format string, args ...any) string {
	var b, code strings.Builder
	inCode, next := false, 0
	arg := func(spec string) string {
		if next >= len(args) {
			return "%!" + spec[len(spec)-1:] + "(MISSING)" // as fmt says it
		}
		next++
		return fmt.Sprintf(spec, args[next-1])
	}
	literal := strings.NewReplacer("<", "&lt;", ">", "&gt;")
	for i := 0; i < len(format); {
		c := format[i]
		switch {
		case c == '`':
			if inCode {
				b.WriteString(MarkdownCode(code.String()))
				code.Reset()
			}
			inCode = !inCode
			i++
		case c == '%' && i+1 < len(format) && format[i+1] == '%':
			if inCode {
				code.WriteByte('%')
			} else {
				b.WriteByte('%')
			}
			i += 2
		case c == '%':
			j := i + 1
			for j < len(format) && strings.IndexByte("+-# 0123456789.", format[j]) >= 0 {
				j++
			}
			if j >= len(format) {
				return MarkdownText(fmt.Sprintf(format, args...)) // no verb: not a format worth parsing
			}
			s := arg(format[i : j+1])
			if inCode {
				code.WriteString(s)
			} else {
				b.WriteString(MarkdownText(s))
			}
			i = j + 1
		default:
			j := i
			for j < len(format) && format[j] != '`' && format[j] != '%' {
				j++
			}
			if inCode {
				code.WriteString(format[i:j])
			} else {
				b.WriteString(literal.Replace(strings.ReplaceAll(format[i:j], "\n", " ")))
			}
			i = j
		}
	}
	if inCode {
		b.WriteString(MarkdownCode(code.String()))
	}
	return b.String()
}
