package verdict

import (
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

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
	if !strings.Contains(md, "| m1 |") || strings.Contains(md, "KeyError: '|```'") {
		t.Errorf("markdown table or code fence broken:\n%s", md)
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
