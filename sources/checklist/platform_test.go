package checklist

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/flywake/flywake/sources/diagnose"
)

// An API that failed leaves the items that read it unanswered: they say
// which API and why, cannot pass, and the run could not check (exit 3) —
// unless something read fails, which wins. The logs and Prometheus down
// with the Machines API up used to read "6 pass · 2 unknown", exit 0.
func TestAnAPIThatFailedCannotPass(t *testing.T) {
	down := Unread{Cause: diagnose.CauseAPIDown, Detail: "the Fly API is not answering properly (HTTP 503)"}
	tuned := tunedRuntime()
	tuned.ColdStart, tuned.ReleaseWork, tuned.EdgeOrigin = nil, nil, nil // what the failed APIs would have given
	tests := []struct {
		name      string
		e         Evidence
		unread    []string // items that could not be checked
		code      int
		cause     diagnose.Cause
		sentence  string
		stillPass string // an item that read nothing that failed keeps its status
	}{
		{"logs and metrics down", withUnreadInputs(tuned, map[Input]Unread{InputLogs: down, InputMetrics: down}),
			[]string{IDColdStart, IDReleaseWork, IDEdgeOrigin}, ExitCannotCheck, diagnose.CauseAPIDown,
			"could not check the boot logs (logs API): the Fly API is not answering properly (HTTP 503)", IDCrashLoop},
		{"metrics refused the token", withUnreadInputs(tunedRuntime(), map[Input]Unread{InputMetrics: {Cause: diagnose.CauseAuth, Detail: "refused (401)"}}),
			[]string{IDEdgeOrigin}, ExitCannotCheck, diagnose.CauseAuth, "could not check the edge and app response counts (Prometheus): refused (401)", IDColdStart},
		{"the machines could not be listed", Evidence{Unread: map[Input]Unread{InputMachines: {Cause: diagnose.CauseUnknownApp, Detail: `app "x" not found`}}},
			IDs, ExitCannotCheck, diagnose.CauseUnknownApp, `could not check the machines (Machines API): app "x" not found`, ""},
		{"the exec probes failed with the API", withUnreadInputs(tunedRuntime(), map[Input]Unread{InputExec: {Cause: diagnose.CauseRateLimited, Detail: "the socket tables: 429"}}),
			[]string{IDBytecode, IDConcurrency}, ExitCannotCheck, diagnose.CauseRateLimited, "could not check the exec probes (Machines API exec): the socket tables: 429", IDHealthChecks},
		{"a failure read elsewhere wins", withUnreadInputs(scaleToZeroRuntime(), map[Input]Unread{InputMetrics: down}),
			[]string{IDEdgeOrigin}, ExitFailures, diagnose.CauseAPIDown, "could not check the edge and app response counts", IDBytecode},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Run("x", tt.e, Options{})
			items := r.Items
			if code := r.ExitCode(); code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			for _, it := range items {
				want := strings.Contains(strings.Join(tt.unread, ","), it.ID)
				if it.CouldNotRead != want {
					t.Errorf("%s: could_not_read %v, want %v (%s)", it.ID, it.CouldNotRead, want, evidenceText(it))
				}
				if want && (it.Status == Pass || it.Cause != tt.cause && it.Status != Fail) {
					t.Errorf("%s: %s with cause %q, want no pass and cause %q", it.ID, it.Status, it.Cause, tt.cause)
				}
			}
			if tt.stillPass != "" {
				before := itemOf(Evaluate(withUnreadInputs(tt.e, nil), Options{}), tt.stillPass)
				if after := itemOf(items, tt.stillPass); after.Status != before.Status || after.CouldNotRead {
					t.Errorf("%s changed from %s to %s", tt.stillPass, before.Status, after.Status)
				}
			}
			b, err := r.JSON()
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				ExitCode      int `json:"exit_code"`
				CouldNotCheck *struct {
					Cause  string   `json:"cause"`
					Detail string   `json:"detail"`
					Items  []string `json:"items"`
				} `json:"could_not_check"`
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			if c := doc.CouldNotCheck; doc.ExitCode != tt.code || c == nil || c.Cause != string(tt.cause) ||
				!strings.Contains(c.Detail, tt.sentence) || len(c.Items) != len(tt.unread) {
				t.Errorf("JSON: exit_code %d, could_not_check %+v", doc.ExitCode, doc.CouldNotCheck)
			}
			for _, text := range []string{r.Text(), r.Markdown()} {
				if !strings.Contains(text, "ould not check ("+tt.cause.Words()+")") || !strings.Contains(text, tt.sentence) {
					t.Errorf("the report does not say what could not be checked:\n%s", text)
				}
			}
		})
	}
}

// A report that read everything has no could_not_check.
func TestEverythingReadHasNoCouldNotCheck(t *testing.T) {
	r := Run("x", tunedRuntime(), Options{})
	if c := r.CouldNotCheck; c != nil {
		t.Errorf("could_not_check %+v", c)
	}
	if strings.Contains(r.Text(), "could not check") {
		t.Errorf("the text says it could not check:\n%s", r.Text())
	}
}

func withUnreadInputs(e Evidence, u map[Input]Unread) Evidence {
	e.Unread = u
	return e
}
