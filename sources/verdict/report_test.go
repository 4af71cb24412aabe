package verdict

import (
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	gmtext "github.com/yuin/goldmark/text"

	"github.com/flywake/flywake/sources/diagnose"
)

// failedReport is a crash loop judged at the second look, as the gate
// reports it.
func failedReport(t *testing.T) Report {
	t.Helper()
	s := newSim()
	m := s.machine("m1", "43", "started")
	m.Name = "web|\x1b]0;owned\x07"
	for range 4 {
		s.crashCycle(m)
	}
	s.machine("old", "42", "started")
	j := New(Options{})
	r := s.observe(j)
	for s.clock.Before(r.NextLook) {
		s.crashCycle(m)
	}
	r = s.observe(j)
	if r.Outcome != Failed {
		t.Fatalf("fixture: %v %s", r.Outcome, r.Reason)
	}
	return Report{App: "sleepy-api", Result: r, Settle: DefaultSettle, Timeout: 3 * time.Minute, Calls: 3, Took: 6 * time.Second,
		Logs: &CrashLogs{Machine: "m1", At: r.Machines[0].FirstCrash, Lines: []string{"Traceback (most recent call last):", "KeyError: '|```'"}}}
}

// Names and lines from the platform stay text in the Markdown report: no
// link, image or HTML from a machine's id, the app's name or a log line.
func TestMarkdownQuotesPlatformTextAsText(t *testing.T) {
	rep := failedReport(t)
	rep.App = "app` [x](https://evil.example) <img src=x>"
	rep.Result.Machines[0].ID = "m1](https://evil.example)![i](https://evil.example/p.png)"
	rep.Result.Machines[0].Reason = "<b>bold</b> **bold** | cell"
	rep.Logs.Machine = "m1` <img src=y> `"
	rep.Logs.Lines = append(rep.Logs.Lines, "``` <script>x</script>", "````")
	md := Markdown(rep)
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(gmtext.NewReader([]byte(md)))
	var cells []int // per table row
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.Link, *ast.Image, *ast.RawHTML, *ast.HTMLBlock, *ast.AutoLink, *ast.Emphasis:
			t.Errorf("a %s in the report:\n%s", n.Kind(), md)
		case *east.TableHeader, *east.TableRow:
			cells = append(cells, n.ChildCount())
		}
		return ast.WalkContinue, nil
	})
	if len(cells) != 2 || cells[0] != 9 || cells[1] != 9 {
		t.Errorf("table rows of %v cells, want 2 of 9:\n%s", cells, md)
	}
}

func TestTextAndMarkdownSayWhyAndWhatToDo(t *testing.T) {
	rep := failedReport(t)
	text, md := Text(rep), Markdown(rep)
	for _, out := range []string{text, md} {
		for _, want := range []string{"FAILED — roll back", diagnose.CrashLoopReason, "m1", "1, 1", "KeyError", "1 machine of older releases not judged",
			"3 API calls", "2025-09-25T10:00:"} {
			if !strings.Contains(out, want) {
				t.Errorf("missing %q in\n%s", want, out)
			}
		}
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("control characters in the report:\n%q", out)
		}
	}
	if !strings.Contains(md, "| m1 |") || !strings.Contains(md, "````\nTraceback") {
		t.Errorf("markdown table or code fence broken:\n%s", md)
	}
	// The log lines are one code block, as written, whatever they hold.
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(gmtext.NewReader([]byte(md)))
	blocks := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if cb, ok := n.(*ast.FencedCodeBlock); ok && entering {
			blocks++
			var got []string
			for i := 0; i < cb.Lines().Len(); i++ {
				seg := cb.Lines().At(i)
				got = append(got, strings.TrimSuffix(string(seg.Value([]byte(md))), "\n"))
			}
			if strings.Join(got, "\n") != strings.Join(rep.Logs.Lines, "\n") {
				t.Errorf("the code block holds %q, want %q", got, rep.Logs.Lines)
			}
		}
		return ast.WalkContinue, nil
	})
	if blocks != 1 {
		t.Errorf("%d code blocks, want 1:\n%s", blocks, md)
	}
	if rep.ExitCode() != ExitFailed {
		t.Errorf("exit %d", rep.ExitCode())
	}
}

// The JSON document has exactly the keys doc.go documents, at the top and
// per machine and look, so the documentation cannot drift from the output.
func TestJSONMatchesItsDocumentation(t *testing.T) {
	b, err := JSON(failedReport(t))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile(`"([a-z_]+)":`).FindAllStringSubmatch(string(src), -1) {
		documented[m[1]] = true
	}
	check := func(where string, obj map[string]any) {
		var keys []string
		for k := range obj {
			keys = append(keys, k)
			if !documented[k] {
				t.Errorf("%s: key %q is not in doc.go", where, k)
			}
		}
		sort.Strings(keys)
		t.Logf("%s keys: %v", where, keys)
	}
	check("report", doc)
	machines := doc["machines"].([]any)
	if len(machines) != 2 {
		t.Fatalf("machines %v", machines)
	}
	m := machines[0].(map[string]any)
	check("machine", m)
	check("look", m["looks"].([]any)[0].(map[string]any))
	check("logs", doc["first_crash_logs"].(map[string]any))
	if doc["verdict"] != "failed" || doc["exit_code"] != float64(2) || doc["cannot_judge"] != nil || m["status"] != "failed" || m["crash"] != "crash-looping" {
		t.Errorf("values: verdict %v exit %v cannot %v status %v crash %v", doc["verdict"], doc["exit_code"], doc["cannot_judge"], m["status"], m["crash"])
	}
	// Every documented key of the report appears (none documented and missing).
	for _, k := range []string{"app", "release", "verdict", "exit_code", "reason", "cannot_judge", "machines", "first_crash_logs",
		"settle_seconds", "timeout_seconds", "api_calls", "elapsed_seconds"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("documented key %q missing", k)
		}
	}
}

// A run that could not judge says which cause, in JSON too; an undecided
// judgement is a timeout.
func TestCannotJudgeNamesItsCause(t *testing.T) {
	for _, tc := range []struct {
		rep   Report
		cause string
	}{
		{Report{App: "a", Cause: CauseAPIDown, Detail: "list machines of a: the Fly API is not answering properly"}, "api_down"},
		{Report{App: "a", Result: Result{Outcome: Undecided, Reason: "waiting: 1 machine to look at again"}}, "timeout"},
		{Report{App: "a", Cause: CauseAuth, Detail: "the API refused the token (401)"}, "auth"},
	} {
		b, err := JSON(tc.rep)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Verdict  string `json:"verdict"`
			ExitCode int    `json:"exit_code"`
			Cannot   *struct {
				Cause string `json:"cause"`
			} `json:"cannot_judge"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Verdict != "unknown" || doc.ExitCode != 3 || doc.Cannot == nil || doc.Cannot.Cause != tc.cause {
			t.Errorf("%+v: %s", tc.rep, b)
		}
		if !strings.Contains(Text(tc.rep), "COULD NOT JUDGE ("+strings.ReplaceAll(tc.cause, "_", " ")+")") {
			t.Errorf("text does not name %s:\n%s", tc.cause, Text(tc.rep))
		}
	}
}
