package snapshot

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
)

// Items 1 and 2 read the same boot logs: when item 1 measured boots from
// them, item 2 never says they were not read, and the counts add up.
func TestColdStartAndReleaseWorkReadTheSameLogs(t *testing.T) {
	now := t0.Add(24 * time.Hour)
	line := func(at time.Time, m, provider, msg string) diagnose.LogLine {
		return diagnose.LogLine{Time: at, Machine: m, Provider: provider, Message: msg}
	}
	resumes := func(n int) []diagnose.LogLine {
		var out []diagnose.LogLine
		for i := range n {
			b := now.Add(-time.Duration(n-i) * 10 * time.Minute) // oldest first, as the logs API pages
			out = append(out, line(b, "m", "runner", "Resuming machine from snapshot"),
				line(b.Add(300*time.Millisecond), "m", "app", `"GET / HTTP/1.1" 200 1 1ms`))
		}
		return out
	}
	crashLoop := func(n int) []diagnose.LogLine {
		var out []diagnose.LogLine
		for i := range n {
			b := now.Add(-10 * time.Minute).Add(time.Duration(i) * 4 * time.Second)
			out = append(out, line(b, "m", "runner", "Configuring firecracker"),
				line(b.Add(2700*time.Millisecond), "m", "health", "Health check on port 8080 is now passing."),
				line(b.Add(3300*time.Millisecond), "m", "app", " INFO Main child exited normally with code: 1"))
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		logs      []diagnose.LogLine // nil: never applied
		coldSays  string             // in item 1 ("" : item 1 measured nothing)
		releaseIn string             // in item 2
	}{
		{"logs never read", nil, "", "boot logs not read"},
		{"resumes only", resumes(41), "over 41 boots", "the logs hold 41 resumes from suspend, and a resume runs no entrypoint"},
		{"a crash loop only", crashLoop(12), "every start in 24 h (12) crashed", "no release work in the logs of 12 boots"},
		{"read, and nothing booted", []diagnose.LogLine{}, "", "no boots in 24 h"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := New("org", "app", nil)
			a.ApplyMachines([]*fly.Machine{flyMachine("m", "started", "d1", t0)}, now)
			if tc.logs != nil {
				a.ApplyLogs(tc.logs)
			}
			p, errs := repo.LoadFS(fstest.MapFS{"Dockerfile": {Data: []byte("FROM python:3.13\nCMD [\"uvicorn\", \"main:app\"]\n")}})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			items := map[string]checklist.Item{}
			for _, it := range checklist.Evaluate(a.Evidence(now, p, nil), checklist.Options{}) {
				items[it.ID] = it
			}
			text := func(id string) string {
				var parts []string
				for _, f := range items[id].Evidence {
					parts = append(parts, f.Text+" ["+f.Source+"]")
				}
				return strings.Join(parts, " | ")
			}
			cold, release := text(checklist.IDColdStart), text(checklist.IDReleaseWork)
			if tc.coldSays != "" && !strings.Contains(cold, tc.coldSays) {
				t.Errorf("item 1 lacks %q: %s", tc.coldSays, cold)
			}
			if !strings.Contains(release, tc.releaseIn) {
				t.Errorf("item 2 lacks %q: %s", tc.releaseIn, release)
			}
			if tc.logs != nil && strings.Contains(release, "not read") {
				t.Errorf("item 2 says the logs were not read after they were: %s", release)
			}
		})
	}
}
