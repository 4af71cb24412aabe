package checklist

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

func TestRenderers(t *testing.T) {
	p, errs := demo(t, "scale-to-zero")
	r := Run("scale-to-zero", withProject(scaleToZeroRuntime(), p, errs), Options{})

	text := r.Text()
	md := r.Markdown()
	for _, want := range []string{
		"pre-deploy checklist · scale-to-zero · 5 fail · 3 pass",
		"2. ✗ FAIL    Release work run on every boot",
		"[entrypoint.sh:6]",
		"migrations and collectstatic run on every boot: 92 boots, 1 release in 24 h",
		"the edge answered 1,184 requests the app never saw in 24 h (21.9 %)",
		"site-packages holds 5,707 .py files and 0 .pyc",
		"fix: ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	for _, want := range []string{
		"| 1 | Cold start until serving | ❌ fail | deployed release |",
		"| 6 | Crash loop | ✅ pass | deployed release |",
		"| 7 | Concurrency and backlog | ✅ pass | this project |",
		"<details><summary>4. Sleep and wake: ❌ fail</summary>",
		"(`fly.toml:5`)",
		"**Fix:** ",
		"/app/<project dirs>", // inside a code span: left as written
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

func TestMarkdownEscapes(t *testing.T) {
	r := Report{App: "app", Items: []Item{{ID: "x", Title: "a | b", Status: Warn, Judges: JudgesProject, Evidence: []Fact{{Text: "<script> and `<kept>`"}}, Fix: "do"}}}
	md := r.Markdown()
	for _, want := range []string{"| 1 | a \\| b | ⚠️ warn | this project |", "&lt;script&gt; and `<kept>`"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestJSONShape(t *testing.T) {
	p, errs := demo(t, "backlog")
	out, err := Run("backlog", withProject(Evidence{}, p, errs), Options{}).JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		App   string `json:"app"`
		Items []map[string]any
		Sum   map[string]int `json:"summary"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.App != "backlog" || len(doc.Items) != len(IDs) {
		t.Fatalf("app %q, %d items", doc.App, len(doc.Items))
	}
	for i, it := range doc.Items {
		for _, key := range []string{"id", "title", "status", "evidence", "fix", "needs_running_machine", "could_not_read", "judges", "release", "changes"} {
			if _, ok := it[key]; !ok {
				t.Errorf("item %d lacks %q", i, key)
			}
		}
		if it["id"] != IDs[i] {
			t.Errorf("item %d id %v, want %s", i, it["id"], IDs[i])
		}
	}
	total := 0
	for _, k := range []string{"pass", "warn", "fail", "unknown", "n/a"} {
		total += doc.Sum[k]
	}
	if total != len(IDs) {
		t.Errorf("summary counts %v add up to %d, want %d", doc.Sum, total, len(IDs))
	}
}

func TestFormat(t *testing.T) {
	cases := map[string]string{
		count(0): "0", count(999): "999", count(1184): "1,184", count(1234567): "1,234,567", count(-5707): "-5,707",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

// The report says what it judges in its header: the project beside the
// deployed release, or the deployed release alone when no project was read.
func TestSubjectLine(t *testing.T) {
	p, errs := demo(t, "tuned")
	withP := Run("snappy-api", Evidence{Project: p, ProjectErrors: errs, Release: "57"}, Options{})
	if got := withP.Subject; !got.Project || got.Release != "v57" || strings.Join(got.Files, ",") != "fly.toml,Dockerfile,.dockerignore,entrypoint.sh" {
		t.Errorf("subject %+v", got)
	}
	if want := "judges this project (fly.toml, Dockerfile, .dockerignore, entrypoint.sh) as Fly will apply it, beside deployed release v57"; !strings.Contains(withP.Text(), want) {
		t.Errorf("text lacks %q:\n%s", want, withP.Text())
	}
	none := Run("snappy-api", Evidence{Release: "57"}, Options{})
	want := "o project files read: every item judges deployed release v57" // "No" in markdown
	for _, out := range []string{none.Text(), none.Markdown()} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, it := range none.Items {
		if it.Judges != JudgesDeployed || it.Release != "v57" {
			t.Errorf("%s judges %q of %q without a project", it.ID, it.Judges, it.Release)
		}
	}
	// An empty directory is no project either.
	empty, _ := project(t, map[string]string{})
	if s := Run("x", Evidence{Project: empty}, Options{}).Subject; s.Project {
		t.Errorf("an empty directory is a project: %+v", s)
	}
}

// Findings count as warnings in the exit code; failures and unread files
// still win.
func TestReportExitCode(t *testing.T) {
	f := []Finding{{File: "fly.toml", Line: 1, Status: Warn, Text: "unknown key"}}
	cases := []struct {
		r    Report
		want int
	}{
		{Report{Items: []Item{{Status: Pass}}}, ExitOK},
		{Report{Items: []Item{{Status: Pass}}, Findings: f}, ExitWarnings},
		{Report{Items: []Item{{Status: Fail}}, Findings: f}, ExitFailures},
		{Report{Items: []Item{{Status: Unknown, CouldNotRead: true}}, Findings: f}, ExitCannotCheck},
	}
	for _, tc := range cases {
		if got := tc.r.ExitCode(); got != tc.want {
			t.Errorf("ExitCode(%+v) = %d, want %d", tc.r, got, tc.want)
		}
	}
}

// Backticks, links, images and HTML in project files stay text in
// `check --format markdown`: parsed as GitHub parses it (goldmark, GFM),
// the report holds no link, image or inline HTML, and each evidence line
// keeps the code spans flywake meant.
func TestMarkdownQuotesProjectTextAsText(t *testing.T) {
	evil := "python manage.py migrate `x` ![pixel](https://evil.example/t.png) <img src=x onerror=alert(1)> [go](https://evil.example) ``"
	p, errs := project(t, map[string]string{
		"fly.toml":          "app = 'a'\n[deploy]\nrelease_command = \"migrate ` [r](https://evil.example/r) `\"\n[http_service]\ninternal_port = 8080\nauto_stop_machine = 'x'\n[\"<img src=k>\"]\n",
		"Dockerfile":        "FROM python:3.12-slim\nENTRYPOINT [\"/app/entrypoint.sh\"]\n",
		"app/entrypoint.sh": "#!/bin/sh\n" + evil + "\nexec granian app\n",
	})
	r := Run("a`](https://evil.example)", Evidence{Project: p, ProjectErrors: errs}, Options{})
	md := r.Markdown()
	if !strings.Contains(r.Text(), evil) {
		t.Fatalf("the text report does not quote the line as written: the test proves nothing\n%s", r.Text())
	}
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader([]byte(md)))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n.(type) {
		case *ast.Link, *ast.Image, *ast.RawHTML, *ast.AutoLink:
			if entering {
				t.Errorf("a %s in the report: %q", n.Kind(), n.Text([]byte(md)))
			}
		}
		return ast.WalkContinue, nil
	})
	work := itemOf(r.Items, IDReleaseWork)
	for _, f := range work.Evidence {
		if !strings.Contains(f.Text, "runs before the server") {
			continue
		}
		line := goldmark.New().Parser().Parse(text.NewReader([]byte(f.Markdown())))
		spans := 0
		_ = ast.Walk(line, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if _, ok := n.(*ast.CodeSpan); ok && entering {
				spans++
				if got := string(n.Text([]byte(f.Markdown()))); got != evil {
					t.Errorf("the code span holds %q, want the line as written", got)
				}
			}
			return ast.WalkContinue, nil
		})
		if spans != 1 {
			t.Errorf("%q: %d code spans, want 1", f.Markdown(), spans)
		}
		return
	}
	t.Fatalf("the migrate line was not judged: %s", evidenceText(work))
}
