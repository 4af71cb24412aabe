package status

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/columns"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
)

var observed = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// oddApp is an app with the shapes real answers have: a host that is
// unreachable (its config only in incomplete_config), an exit event in the
// legacy MonitorEvent nesting, transient states, a state flywake has never
// heard of, machines without checks, events or an image digest, and a
// failed edge/origin query.
func oddApp(t *testing.T) *snapshot.App {
	t.Helper()
	b, err := os.ReadFile("testdata/machines.json")
	if err != nil {
		t.Fatal(err)
	}
	var ms []*fly.Machine
	if err := json.Unmarshal(b, &ms); err != nil {
		t.Fatal(err)
	}
	a := snapshot.New("odd-org", "odd-api", nil)
	a.ApplyMachines(ms, observed)
	a.ApplyEdgeOrigin(snapshot.EdgeOrigin{At: observed, Err: "Prometheus: HTTP 503: unavailable"})
	_, sample := a.SampleProbes(a.ProbesDue(observed), snapshot.SamplePerGroup, 16) // as Collect samples (the probes not run)
	a.Sample = &sample
	return a
}

func oddReport(t *testing.T) Report {
	return Report{GeneratedAt: observed.Add(3 * time.Second), Org: "odd-org", Apps: []App{BuildApp(oddApp(t), observed)}}
}

// The shape of status --json, byte for byte: go test ./sources/status -update
// rewrites the golden file; read its diff.
func TestReportGolden(t *testing.T) {
	b, err := json.MarshalIndent(oddReport(t), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.RequireEqual(t, append(b, '\n'))
}

// What the TUI shows about a machine, status says too.
func TestReportSaysWhatTheDashboardShows(t *testing.T) {
	r := oddReport(t).Apps[0]
	byID := map[string]Machine{}
	for _, m := range r.Machines {
		byID[m.ID] = m
	}
	lost := byID["2a6b0c1d2e3f40"]
	if lost.HostStatus == nil || *lost.HostStatus != "unreachable" || !lost.ConfigIncomplete ||
		len(lost.Alerts) != 1 || lost.Alerts[0].Kind != "host_unreachable" {
		t.Errorf("unreachable host: %+v", lost)
	}
	if lost.Release == nil || *lost.Release != "19" {
		t.Errorf("the incomplete config's release is lost: %v", lost.Release)
	}
	legacy := byID["3c3c3c3c3c3c3c"]
	if legacy.NewestEvent == nil || legacy.NewestEvent.Type != "exit" || legacy.Crash.Verdict == "" {
		t.Errorf("legacy exit event: %+v", legacy)
	}
	if m := byID["4d4d4d4d4d4d4d"]; !m.Transient || m.Phase != "waking" || m.Autostop == nil || m.Release != nil || m.HostStatus != nil {
		t.Errorf("a replacing machine: %+v", m)
	}
	if m := byID["5e5e5e5e5e5e5e"]; !m.Transient || m.Phase != "waking" {
		t.Errorf("a resuming machine: %+v", m)
	}
	if m := byID["6f6f6f6f6f6f6f"]; m.Phase != "unknown" || m.State != "hibernating" || len(m.Alerts) != 1 {
		t.Errorf("an unknown state on an unknown host: %+v", m)
	}
	if r.Release == nil || *r.Release != "20" {
		t.Errorf("release %v, want the highest, 20", r.Release)
	}
	cs := r.ColdStarts
	if cs.Boots24h != 0 || cs.P50Seconds != nil || cs.MaxSeconds != nil || cs.Dominant != nil {
		t.Errorf("no logs, yet cold starts %+v", cs)
	}
	if e := r.EdgeOrigin; e == nil || e.Error == nil || e.Died24h != nil {
		t.Errorf("failed edge/origin query: %+v", e)
	}
	for _, m := range r.Machines {
		if m.Checks == nil || m.Alerts == nil {
			t.Errorf("%s: lists must be [] rather than null", m.ID)
		}
	}
}

// The schema in doc.go names every field the JSON has, and no other.
func TestDocumentedSchemaMatches(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile(`"([a-z0-9_]+)":`).FindAllStringSubmatch(string(doc), -1) {
		documented[m[1]] = true
	}
	// Every optional object filled, so every key is there to compare.
	r := oddReport(t)
	name, med := "migrations", 10.0
	r.Apps[0].ColdStarts.Dominant = &DominantPhase{Name: &name, Median: med}
	r.Apps[0].Machines[0].Backlog = &MachineBacklog{}
	r.Apps[0].EdgeOrigin.Verdicts24h = []Verdict{{}}
	b, _ := json.Marshal(r)
	var v any
	_ = json.Unmarshal(b, &v)
	actual := map[string]bool{}
	collectKeys(v, actual)
	var missing, extra []string
	for k := range actual {
		if !documented[k] {
			missing = append(missing, k)
		}
	}
	for k := range documented {
		if !actual[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Errorf("doc.go and the JSON disagree:\n  undocumented: %s\n  documented but absent: %s",
			strings.Join(missing, ", "), strings.Join(extra, ", "))
	}
}

func collectKeys(v any, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			into[k] = true
			collectKeys(e, into)
		}
	case []any:
		for _, e := range x {
			collectKeys(e, into)
		}
	}
}

func TestTextSaysTheHost(t *testing.T) {
	var b strings.Builder
	oddReport(t).WriteText(&b)
	out := b.String()
	for _, want := range []string{"odd-api  release v20  at 2026-03-01T12:00:00Z", "! host unreachable", "✗ ", "p50 – p95 – max –",
		"edge vs origin: unavailable (Prometheus: HTTP 503: unavailable)"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}

// The text table is the one column definition (sources/columns), the
// Machines pane's: the same titles, the same cells, ages as of the look.
func TestTextTableIsTheSharedDefinition(t *testing.T) {
	a := oddApp(t)
	tt := BuildApp(a, observed).table
	byTitle := map[string]columns.Column{}
	for _, c := range columns.Machines() {
		byTitle[c.Title] = c
	}
	ids := map[string]*snapshot.Machine{}
	for i := range a.Machines {
		ids[a.Machines[i].ID] = &a.Machines[i]
	}
	idCol := -1
	for i, h := range tt.titles {
		if h == "ID" {
			idCol = i
		}
		if _, ok := byTitle[h]; !ok {
			t.Fatalf("title %q is not a column of the definition", h)
		}
	}
	if idCol < 0 || len(tt.rows) != len(a.Machines) {
		t.Fatalf("titles %v, %d rows for %d machines", tt.titles, len(tt.rows), len(a.Machines))
	}
	for _, r := range tt.rows {
		m := ids[r[idCol]]
		for i, h := range tt.titles {
			if want := byTitle[h].Cell(a, m, observed); r[i] != want {
				t.Errorf("%s %s: %q, the definition says %q", m.ID, h, r[i], want)
			}
		}
	}
}

// backlogApp is backlog-web as status sees it: two machines behind a
// service with no hard limit, one drowning in CLOSE_WAIT and one backing
// up, and an app that answered more than the edge delivered.
func backlogApp(t *testing.T) *snapshot.App {
	t.Helper()
	web := func(id string) *fly.Machine {
		return &fly.Machine{ID: id, Name: "web-" + id[:4], State: "started", Region: "iad",
			Config: &fly.MachineConfig{Metadata: map[string]string{"fly_release_version": "19", "fly_process_group": "app"},
				Services: []fly.MachineService{{Protocol: "tcp", InternalPort: 8080,
					Concurrency: &fly.MachineServiceConcurrency{Type: "connections", SoftLimit: 25}}}},
			Events: []*fly.MachineEvent{{Type: "start", Status: "started", Source: "flyd", Timestamp: observed.Add(-time.Hour).UnixMilli()}}}
	}
	a := snapshot.New("odd-org", "backlog-web", nil)
	a.ApplyMachines([]*fly.Machine{web("2de0d70d8992ac"), web("a683c41fa9a67f"), {ID: "0c0c0c0c0c0c0c", State: "started", Region: "iad",
		Config: &fly.MachineConfig{Metadata: map[string]string{"fly_release_version": "19", "fly_process_group": "worker"}}}}, observed)
	closeWait := map[string]int{"2de0d70d8992ac": 463, "a683c41fa9a67f": 12, "0c0c0c0c0c0c0c": 0}
	for _, req := range a.ProbesDue(observed) {
		if req.Kind != snapshot.ProbeSockets {
			continue
		}
		rows := "  sl  local_address rem_address   st\n"
		for i := range closeWait[req.Machine] {
			rows += fmt.Sprintf("%4d: 0100007F:1F90 0100007F:%04X 08 00000000:00000000 00:00000000 00000000 0 0 %d 1\n", i, 40000+i, 1000+i)
		}
		a.ApplyProbe(req, snapshot.ExecResult{Stdout: rows}, observed)
	}
	a.ApplyEdgeOrigin(snapshot.EdgeOrigin{At: observed,
		Edge1h: map[string]float64{"200": 113}, App1h: map[string]float64{"200": 140},
		Edge24h: map[string]float64{"200": 6365}, App24h: map[string]float64{"200": 7938}})
	return a
}

// Why a machine is flagged "backlog", in JSON and in text: its sockets,
// its limits, and the edge/app gap the backlog explains, byte for byte
// (go test ./sources/status -update rewrites the golden files).
func TestBacklogReasonGolden(t *testing.T) {
	app := BuildApp(backlogApp(t), observed)
	t.Run("json", func(t *testing.T) {
		b, err := json.MarshalIndent(app, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden.RequireEqual(t, append(b, '\n'))
	})
	t.Run("text", func(t *testing.T) {
		var b strings.Builder
		app.WriteText(&b)
		golden.RequireEqual(t, []byte(b.String()))
	})
}

// The reason travels with the flag: every machine whose alerts say backlog
// carries its CLOSE_WAIT count, hard limit and reason; the text says them.
func TestBacklogFlagCarriesItsReason(t *testing.T) {
	app := BuildApp(backlogApp(t), observed)
	var text strings.Builder
	app.WriteText(&text)
	for _, tc := range []struct {
		id        string
		alert     bool
		closeWait int
		reason    string
	}{
		{"2de0d70d8992ac", true, 463, "463 sockets in CLOSE_WAIT, no hard limit (soft limit 25 connections)"},
		{"a683c41fa9a67f", true, 12, "12 sockets in CLOSE_WAIT, no hard limit (soft limit 25 connections)"},
	} {
		var m *Machine
		for i := range app.Machines {
			if app.Machines[i].ID == tc.id {
				m = &app.Machines[i]
			}
		}
		if m == nil {
			t.Fatalf("%s missing", tc.id)
		}
		flagged := false
		for _, a := range m.Alerts {
			flagged = flagged || a.Kind == "backlog"
		}
		b := m.Backlog
		if flagged != tc.alert || b == nil || b.CloseWait == nil || *b.CloseWait != tc.closeWait || b.HardLimit != nil || !strings.HasPrefix(b.Reason, tc.reason) {
			t.Errorf("%s: flagged %v, backlog %+v", tc.id, flagged, b)
		}
		if !strings.Contains(text.String(), tc.id+": "+tc.reason) {
			t.Errorf("text does not say why %s is flagged:\n%s", tc.id, text.String())
		}
	}
	if app.Backlog.Level != diagnose.Fail || !strings.Contains(app.Backlog.Line, "no hard limit") {
		t.Errorf("app backlog %+v", app.Backlog)
	}
	for _, m := range app.Machines {
		if m.ID == "0c0c0c0c0c0c0c" && m.Backlog != nil {
			t.Errorf("a worker without a service has a backlog: %+v", m.Backlog)
		}
	}
}

// status never says "agree" when the edge and the app counted differently.
func TestEdgeOriginNamesBothDirections(t *testing.T) {
	for _, tc := range []struct {
		name      string
		edge, app map[string]float64
		want      string
	}{
		{"agree", map[string]float64{"200": 100}, map[string]float64{"200": 100}, "edge/app [pass] edge and app agree: 100 requests in 24 h"},
		{"lost", map[string]float64{"200": 90, "502": 10}, map[string]float64{"200": 90}, "edge/app [fail] the edge answered 10 requests the app never saw in 24 h"},
		{"too late", map[string]float64{"200": 6365}, map[string]float64{"200": 7938}, "edge/app [fail] the app answered 1,573 requests in 24 h that no client received"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := snapshot.New("o", "a", nil)
			a.ApplyEdgeOrigin(snapshot.EdgeOrigin{At: observed, Edge24h: tc.edge, App24h: tc.app})
			var b strings.Builder
			BuildApp(a, observed).WriteText(&b)
			out := b.String()
			if !strings.Contains(out, tc.want) {
				t.Errorf("text lacks %q:\n%s", tc.want, out)
			}
			if agrees := strings.Contains(out, "agree"); agrees != (tc.name == "agree") {
				t.Errorf("says agree = %v:\n%s", agrees, out)
			}
		})
	}
}

// A 20 MB machine name (and check output) is cut where it is kept and
// where it is printed: the text report and its JSON stay a few KB, and a
// name of Fly's longest (63 characters) is printed whole.
func TestLongFieldsAreBounded(t *testing.T) {
	huge := strings.Repeat("n", 20<<20)
	whole := strings.Repeat("w", 63)
	a := snapshot.New("odd-org", "odd-api", nil)
	a.ApplyMachines([]*fly.Machine{
		{ID: "148e4d55f36278", Name: "web-" + huge, State: "started", Region: "ams" + huge,
			Checks: []*fly.MachineCheckStatus{{Name: "http" + huge, Status: "passing", Output: huge}}},
		{ID: "148e4d55f36279", Name: whole, State: "stopped", Region: "ams"},
	}, observed)
	r := Report{GeneratedAt: observed, Org: "odd-org", Apps: []App{BuildApp(a, observed)}}
	var text strings.Builder
	r.WriteText(&text)
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if n := text.Len(); n > 16<<10 {
		t.Errorf("the text report is %d bytes", n)
	}
	if n := len(js); n > 32<<10 {
		t.Errorf("the JSON report is %d bytes", n)
	}
	if !strings.Contains(text.String(), whole) || !strings.Contains(string(js), whole) {
		t.Errorf("a 63-character name is not printed whole:\n%s", text.String())
	}
	if !strings.Contains(text.String(), "web-nnnn") {
		t.Errorf("the long name's start is not printed:\n%.2000s", text.String())
	}
}

// A platform event timestamp at the end of int64 milliseconds (and one as
// far before 1970) is no time at all: status --json failed outright on it
// (a time past the year 9999 has no RFC 3339 form). Such a time is
// unknown, null in JSON; the text's age falls back to the machine's
// updated_at as for an event without a time (it read "0s", an age from
// the far future), and every other field stands.
func TestOddTimestampsAreUnknown(t *testing.T) {
	listing := `[{"id": "7f7f7f7f7f7f7f", "name": "odd-times", "state": "stopped", "region": "ams",
	  "created_at": "2026-03-01T10:00:00Z", "updated_at": "2026-03-01T11:00:00Z",
	  "config": {"metadata": {"fly_release_version": "19", "fly_process_group": "app"}},
	  "events": [
	    {"id": "01F", "type": "exit", "status": "stopped", "source": "flyd", "timestamp": 9223372036854775807,
	     "request": {"exit_event": {"exit_code": 1, "requested_stop": false, "exited_at": "2026-03-01T11:00:00Z"}}},
	    {"id": "01P", "type": "start", "status": "started", "source": "flyd", "timestamp": -9223372036854775808}
	  ]}]`
	var ms []*fly.Machine
	if err := json.Unmarshal([]byte(listing), &ms); err != nil {
		t.Fatal(err)
	}
	a := snapshot.New("odd-org", "odd-api", nil)
	a.ApplyMachines(ms, observed)
	app := BuildApp(a, observed)
	b, err := json.Marshal(Report{GeneratedAt: observed, Org: "odd-org", Apps: []App{app}})
	if err != nil {
		t.Fatalf("status --json fails on odd timestamps: %v", err)
	}
	m := app.Machines[0]
	if m.NewestEvent == nil || m.NewestEvent.Type != "exit" || m.NewestEvent.At != nil {
		t.Errorf("newest event %+v, want the exit with an unknown (null) time", m.NewestEvent)
	}
	if m.Crash.NewestCrashAt != nil {
		t.Errorf("newest crash at %v, want unknown", m.Crash.NewestCrashAt)
	}
	if !strings.Contains(string(b), `"at":null`) || strings.Contains(string(b), "292") {
		t.Errorf("JSON:\n%s", b)
	}
	var text strings.Builder
	Report{GeneratedAt: observed, Org: "odd-org", Apps: []App{app}}.WriteText(&text)
	row := ""
	for _, l := range strings.Split(text.String(), "\n") {
		if strings.Contains(l, "odd-times") {
			row = l
		}
	}
	if !strings.Contains(row, " 1h00m ") {
		t.Errorf("the machine's age is not the hour since its updated_at:\n%s", text.String())
	}
}
