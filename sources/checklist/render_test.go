package checklist

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRenderers(t *testing.T) {
	p, errs := demo(t, "scale-to-zero")
	items := Evaluate(withProject(scaleToZeroRuntime(), p, errs), Options{})

	text := Text("scale-to-zero", items)
	md := Markdown("scale-to-zero", items)
	for _, want := range []string{
		"pre-deploy checklist · scale-to-zero · 5 fail · 3 pass",
		"2. ✗ FAIL    Release work run on every boot",
		"[entrypoint.sh:6]",
		"migrations + collectstatic run on every boot: 92 boots, 1 release in 24 h",
		"edge saw 1,184 requests in 24 h that the app never answered (21.9 % of 5,406)",
		"site-packages holds 5,707 .py files and 0 .pyc",
		"fix: ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	for _, want := range []string{
		"| 1 | Cold start until serving | ❌ fail |",
		"| 6 | Crash loop | ✅ pass |",
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
	items := []Item{{ID: "x", Title: "a | b", Status: Warn, Evidence: []Fact{{Text: "<script> and `<kept>`"}}, Fix: "do"}}
	md := Markdown("app", items)
	for _, want := range []string{"| 1 | a \\| b | ⚠️ warn |", "&lt;script&gt; and `<kept>`"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestJSONShape(t *testing.T) {
	p, errs := demo(t, "backlog")
	items := Evaluate(withProject(Evidence{}, p, errs), Options{})
	out, err := JSON("backlog", items)
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
		for _, key := range []string{"id", "title", "status", "evidence", "fix"} {
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
		percent(0.219): "21.9 %", andList([]string{"a", "b", "c"}): "a, b + c",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
