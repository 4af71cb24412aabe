package main

import (
	"encoding/json"
	"testing"

	"github.com/flywake/flywake/sources/checklist"
)

// flywake check against each demo app gives the verdicts its story implies
// and the documented exit code; the JSON has the documented shape.
func TestCheckDemoApps(t *testing.T) {
	if testing.Short() {
		t.Skip("four demo platforms, one per app (the check script covers three): skipped under -short")
	}
	t.Parallel()
	tests := []struct {
		app      string
		wantCode int
		want     map[string]string // item id → status
	}{
		{"sleepy-api", checklist.ExitFailures, map[string]string{
			"release_work": "fail", "bytecode": "fail", "sleep_wake": "fail", "edge_origin": "fail"}},
		{"snappy-api", checklist.ExitOK, map[string]string{
			"cold_start": "pass", "release_work": "pass", "bytecode": "pass", "sleep_wake": "pass",
			"edge_origin": "pass", "crash_loop": "pass", "concurrency": "pass", "health_checks": "pass"}},
		{"crashy-api", checklist.ExitFailures, map[string]string{"crash_loop": "fail"}},
		{"backlog-web", checklist.ExitFailures, map[string]string{"concurrency": "fail"}},
	}
	for _, tt := range tests {
		t.Run(tt.app, func(t *testing.T) {
			t.Parallel()
			out, errOut, code := runFlywake(t, nil, "check", "--demo", "-a", tt.app, "--format", "json")
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.wantCode, errOut)
			}
			var rep struct {
				App   string `json:"app"`
				Items []struct {
					ID       string `json:"id"`
					Title    string `json:"title"`
					Status   string `json:"status"`
					Evidence []struct {
						Text   string `json:"text"`
						Source string `json:"source"`
					} `json:"evidence"`
					Fix string `json:"fix"`
				} `json:"items"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, out)
			}
			if rep.App != tt.app || len(rep.Items) != len(checklist.IDs) {
				t.Fatalf("app %q with %d items, want %q with %d", rep.App, len(rep.Items), tt.app, len(checklist.IDs))
			}
			got := map[string]string{}
			for _, it := range rep.Items {
				got[it.ID] = it.Status
				if it.Title == "" || (it.Status != "n/a" && len(it.Evidence) == 0) {
					t.Errorf("item %s lacks a title or evidence", it.ID)
				}
				if (it.Status == "fail" || it.Status == "warn") && it.Fix == "" {
					t.Errorf("item %s is %s without a fix", it.ID, it.Status)
				}
			}
			for id, want := range tt.want {
				if got[id] != want {
					t.Errorf("%s: %s, want %s", id, got[id], want)
				}
			}
		})
	}
}

func TestCheckRejectsUnknownFormat(t *testing.T) {
	_, _, code := runFlywake(t, nil, "check", "--demo", "--format", "yaml")
	if code != 1 {
		t.Errorf("exit %d, want 1 (usage)", code)
	}
}

func TestCheckUnknownAppCannotCheck(t *testing.T) {
	_, errOut, code := runFlywake(t, nil, "check", "--demo", "-a", "no-such-app")
	if code != checklist.ExitCannotCheck {
		t.Errorf("exit %d, want %d (%s)", code, checklist.ExitCannotCheck, errOut)
	}
}
