package sanitize

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// hostileMarkdown is project text that tries to become Markdown.
var hostileMarkdown = []string{
	"migrate` ![pixel](https://evil.example/t.png) `",
	"``` <img src=x onerror=alert(1)> ```",
	"[click](javascript:alert(1)) **bold** _em_ ~~gone~~",
	"<details><summary>x</summary>",
	"| a | b |",
	"# heading",
	"- item",
	"1. first",
	"`",
	"a\nb\r\n# c",
	"$x^2$ \\` \\\\",
	"https://evil.example/ok www.evil.example",
	"x _em_ y __strong__ a*b*c",
	"#tag +plus =eq",
}

// nodes parses md as GitHub does (GFM) and counts what is not plain text,
// code or a paragraph: an independent check of the escaping.
func nodes(t *testing.T, md string) map[string]int {
	t.Helper()
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM))
	src := []byte(md)
	doc := gm.Parser().Parse(text.NewReader(src))
	found := map[string]int{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.Document, *ast.Paragraph, *ast.Text, *ast.String:
		case *ast.CodeSpan:
			found["code"]++
		case *east.Strikethrough:
			found["strike"]++
		default:
			found[n.Kind().String()]++
		}
		return ast.WalkContinue, nil
	})
	return found
}

func TestMarkdownTextStaysText(t *testing.T) {
	for _, s := range hostileMarkdown {
		md := MarkdownText(s)
		if got := nodes(t, md); len(got) > 0 {
			t.Errorf("MarkdownText(%q) = %q parses as %v", s, md, got)
		}
	}
}

// What is plain stays as written: a snake_case key is not escaped.
func TestMarkdownTextKeepsPlainWords(t *testing.T) {
	for in, want := range map[string]string{
		"unknown key \"auto_stop_machine\"": "unknown key \"auto_stop_machine\"",
		"fly.toml:12 (soft_limit 20)":       "fly.toml:12 (soft_limit 20)",
		"_lead and trail_":                  "\\_lead and trail\\_",
		"1. list":                           "1\\. list",
	} {
		if got := MarkdownText(in); got != want {
			t.Errorf("MarkdownText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarkdownCodeIsOneSpan(t *testing.T) {
	for _, s := range hostileMarkdown {
		md := MarkdownCode(s)
		got := nodes(t, md)
		if got["code"] != 1 || len(got) != 1 {
			t.Errorf("MarkdownCode(%q) = %q parses as %v, want one code span", s, md, got)
		}
	}
}

// A format's own code spans stay one each, whatever the arguments hold;
// arguments outside them are text.
func TestMarkdownSprintf(t *testing.T) {
	for _, s := range hostileMarkdown {
		md := MarkdownSprintf("%s: `%s` runs before the server on every boot, see `exec %s` (%d%%)", s, s, s, 50)
		got := nodes(t, md)
		if got["code"] != 2 || len(got) != 1 {
			t.Errorf("with %q: %q parses as %v, want two code spans", s, md, got)
		}
		if !strings.Contains(md, "(50%)") {
			t.Errorf("%q lost the %%%% and the number", md)
		}
	}
	if got := MarkdownSprintf("no <b>verbs</b> `a < b`"); got != "no &lt;b&gt;verbs&lt;/b&gt; `a < b`" {
		t.Errorf("literal text: %q", got)
	}
}
