package flysim

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"
)

// testLogStore holds lines sharing nanoseconds, as one scheduler event stamps
// them, across two machines and two regions.
func testLogStore() (*logStore, time.Time) {
	t0 := time.Date(2025, 11, 30, 10, 0, 0, 0, time.UTC)
	l := newLogStore(1000)
	spec := []struct {
		at              time.Duration
		machine, region string
	}{
		{0, "m1", "ams"}, {time.Second, "m1", "ams"}, {time.Second, "m2", "ams"}, {time.Second, "m1", "fra"},
		{time.Second, "m2", "fra"}, {2 * time.Second, "m2", "ams"}, {3 * time.Second, "m1", "ams"},
		{3 * time.Second, "m1", "ams"}, {3 * time.Second, "m2", "fra"}, {4 * time.Second, "", "ams"},
	}
	for i, s := range spec {
		l.add(LogLine{ID: fmt.Sprint("L", i), Time: t0.Add(s.at), App: "a", Machine: s.machine, Region: s.region})
	}
	return l, t0
}

func TestLogStorePageNeverSplitsANanosecond(t *testing.T) {
	l, t0 := testLogStore()
	before := t0.Add(-time.Nanosecond)
	tests := []struct {
		after            time.Time
		limit            int
		instance, region string
		want             string
	}{
		{before, 1, "", "", "L0"},
		{before, 2, "", "", "L0 L1 L2 L3 L4"}, // the page grows to the end of t0+1s
		{t0, 1, "", "", "L1 L2 L3 L4"},
		{t0.Add(time.Second), 2, "", "", "L5 L6 L7 L8"},
		{t0.Add(time.Second), 10, "", "", "L5 L6 L7 L8 L9"},
		{t0.Add(4 * time.Second), 10, "", "", ""},
		{before, 2, "m1", "", "L0 L1 L3"},
		{before, 3, "", "fra", "L3 L4 L8"},
		{before, 1, "m2", "fra", "L4"},
	}
	for _, tt := range tests {
		var got []string
		for _, ln := range l.page("a", tt.after, tt.instance, tt.region, tt.limit) {
			got = append(got, ln.ID)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("page(after %s, limit %d, %q, %q) = %q, want %q", tt.after.Sub(t0), tt.limit, tt.instance, tt.region, g, tt.want)
		}
	}
}

// Paging from the start with any page size and filter yields every matching
// line exactly once, in order.
func TestLogStorePagingWalksEveryLineOnce(t *testing.T) {
	l, t0 := testLogStore()
	for limit := 1; limit <= 11; limit++ {
		for _, f := range []struct{ instance, region string }{{"", ""}, {"m1", ""}, {"m2", "fra"}, {"", "ams"}, {"m9", ""}} {
			want := l.query("a", time.Time{}, f.instance, f.region, 1000)
			var got []LogLine
			after := t0.Add(-time.Hour)
			for range 50 {
				page := l.page("a", after, f.instance, f.region, limit)
				if len(page) == 0 {
					break
				}
				got = append(got, page...)
				after = page[len(page)-1].Time
			}
			if fmt.Sprint(logIDs(got)) != fmt.Sprint(logIDs(want)) {
				t.Errorf("limit %d %+v: walked %v, want %v", limit, f, logIDs(got), logIDs(want))
			}
		}
	}
}

func logIDs(lines []LogLine) []string {
	out := make([]string, len(lines))
	for i, ln := range lines {
		out[i] = ln.ID
	}
	return out
}

func TestParseNextToken(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Time
		ok, bad bool
	}{
		{"", time.Time{}, false, false},
		{"0", time.Unix(0, 0), true, false},
		{"1764496800123456789", time.Unix(0, 1764496800123456789), true, false},
		{"-5", time.Time{}, false, true},
		{"2025-11-30T10:00:00Z", time.Time{}, false, true},
		{"99999999999999999999", time.Time{}, false, true},
		{" 12", time.Time{}, false, true},
	}
	for _, tt := range tests {
		got, ok, err := parseNextToken(tt.in)
		if (err != nil) != tt.bad || ok != tt.ok || !got.Equal(tt.want) {
			t.Errorf("parseNextToken(%q) = %v, %v, %v", tt.in, got, ok, err)
		}
		if ok && formatNextToken(got) != tt.in {
			t.Errorf("formatNextToken(parseNextToken(%q)) = %q", tt.in, formatNextToken(got))
		}
	}
}

// useFlyBaseURL points fly-go's package-global base URL (GetAppLogs ignores
// ClientOptions.BaseURL) at url for one test. fly-go has no getter; its
// default is "".
func useFlyBaseURL(t *testing.T, url string) {
	fly.SetBaseURL(url)
	t.Cleanup(func() { fly.SetBaseURL("") })
}

// A real fly.Client pages through a simulated day of one app's logs.
func TestGetAppLogsPagesThroughTheDay(t *testing.T) {
	began := time.Now()
	s := New(Options{Seed: 11})
	t.Logf("history generated in %s", time.Since(began))
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	useFlyBaseURL(t, srv.URL)
	client := fly.NewClientFromOptions(fly.ClientOptions{AccessToken: s.Token(), Name: "flywake-test", Version: "0"})
	ctx := context.Background()
	app := DemoScaleToZero

	// Add lines the day may lack: a steady day of them with groups sharing
	// a nanosecond, a proxy error, and lines from another region.
	s.mu.Lock()
	now := s.now()
	m := s.apps[app].machines[0]
	seedDayOfLogs(s, app, now)
	s.logs.add(LogLine{ID: "proxy-err", Time: now, App: app, Machine: m.id, Region: "ams", Provider: "proxy", Level: "error",
		Message: "could not wake up machine", ErrorCode: "PM03", ErrorMsg: "could not wake up machine due to a timeout requesting from the machines API",
		Method: "GET", Path: "/api/v1/notifications/", Status: 502})
	for i := range 7 {
		s.logs.add(LogLine{ID: fmt.Sprint("burst", i), Time: now, App: app, Machine: m.id, Region: "ams", Provider: "app", Message: fmt.Sprint("burst ", i)})
	}
	s.logs.add(LogLine{ID: "fra-line", Time: now, App: app, Region: "fra", Provider: "runner", Message: "elsewhere"})
	all := s.logs.query(app, time.Time{}, "", "", 1<<30)
	// Some tens of pages whatever the traffic model logs.
	pageSize := max(50, len(all)/40)
	s.opts.LogsPageSize = pageSize
	s.mu.Unlock()
	t.Logf("%d lines of %s, pages of %d", len(all), app, pageSize)
	if len(all) < 200 {
		t.Fatalf("a simulated day holds only %d lines for %s; want several pages", len(all), app)
	}
	start := formatNextToken(now.Add(-25 * time.Hour))

	walk := func(instance, region string) ([]fly.LogEntry, string) {
		t.Helper()
		var got []fly.LogEntry
		token := start
		for range 10000 {
			page, next, err := client.GetAppLogs(ctx, app, token, region, instance)
			if err != nil {
				t.Fatalf("GetAppLogs(%s): %v", token, err)
			}
			if next == "" {
				t.Fatalf("empty next_token after %s", token)
			}
			if len(page) == 0 {
				if next != token {
					t.Errorf("an empty page moved the cursor from %s to %s", token, next)
				}
				return got, next
			}
			// A page may only outgrow its size to finish a nanosecond.
			if n := len(page); n > pageSize && page[pageSize-1].Timestamp != page[n-1].Timestamp {
				t.Errorf("page of %d lines exceeds the page size %d", n, pageSize)
			}
			if want := mustNanos(t, page[len(page)-1].Timestamp); next != want {
				t.Errorf("next_token %s is not the last line's time %s", next, want)
			}
			got = append(got, page...)
			token = next
		}
		t.Fatal("paging never ended")
		return nil, ""
	}
	match := func(instance, region string) []LogLine {
		var out []LogLine
		for _, ln := range all {
			if (instance == "" || ln.Machine == instance) && (region == "" || ln.Region == region) {
				out = append(out, ln)
			}
		}
		return out
	}
	for _, f := range []struct{ instance, region string }{{"", ""}, {m.id, ""}, {"", "fra"}, {m.id, "fra"}} {
		got, last := walk(f.instance, f.region)
		want := match(f.instance, f.region)
		if len(got) != len(want) {
			t.Errorf("filter %+v: %d lines arrived, want %d", f, len(got), len(want))
			continue
		}
		prev := int64(0)
		for i, e := range got {
			ns, _ := strconv.ParseInt(mustNanos(t, e.Timestamp), 10, 64)
			if ns < prev {
				t.Fatalf("filter %+v: line %d out of order", f, i)
			}
			prev = ns
			if e.Message != want[i].Message || e.Instance != want[i].Machine || e.Region != want[i].Region ||
				e.Meta.Event.Provider != want[i].Provider || ns != want[i].Time.UnixNano() {
				t.Fatalf("filter %+v: line %d = %+v, want %+v", f, i, e, want[i])
			}
		}
		if len(want) > 0 && last != formatNextToken(want[len(want)-1].Time) {
			t.Errorf("filter %+v: final cursor %s, want the newest line's time", f, last)
		}
	}

	// The decoded proxy error keeps its metadata.
	tail, next, err := client.GetAppLogs(ctx, app, "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tail) != 100 || next != formatNextToken(now) {
		t.Errorf("default request: %d lines, cursor %s; want the newest 100 and %s", len(tail), next, formatNextToken(now))
	}
	var pe *fly.LogEntry
	for i := range tail {
		if tail[i].Meta.Event.Provider == "proxy" && tail[i].Meta.Error.Message != "" {
			pe = &tail[i]
		}
	}
	if pe == nil {
		t.Fatal("the proxy error line is missing from the tail")
	}
	if pe.Meta.Error.Code != 502 || !strings.HasPrefix(pe.Meta.Error.Message, "[PM03] could not wake up machine") ||
		pe.Meta.HTTP.Request.Method != "GET" || pe.Meta.HTTP.Response.StatusCode != 502 ||
		pe.Meta.URL.Full != "https://sleepy-api.fly.dev/api/v1/notifications/" || pe.Level != "error" || pe.Meta.Instance != m.id {
		t.Errorf("proxy error decoded as %+v", pe.Meta)
	}

	if _, _, err := client.GetAppLogs(ctx, "no-such-app", "", "", ""); !fly.IsNotFoundError(err) {
		t.Errorf("unknown app: err = %v, want a 404", err)
	}
	if _, _, err := client.GetAppLogs(ctx, app, "yesterday", "", ""); err == nil {
		t.Error("a malformed next_token should be refused")
	}
}

// seedDayOfLogs merges 3000 lines spread over the 24 h before now into app's
// store, in groups of four sharing a nanosecond, across the app's
// machines, two regions and the four providers. Callers hold s.mu.
func seedDayOfLogs(s *Sim, app string, now time.Time) {
	machines := s.apps[app].machines
	providers := []string{"app", "runner", "proxy", "health"}
	lines := s.logs.byApp[app]
	for i := range 3000 {
		at := now.Add(-24*time.Hour + time.Duration(i/4*4)*28800*time.Millisecond + time.Duration(i/4%7))
		region := "ams"
		if i%17 == 0 {
			region = "fra"
		}
		lines = append(lines, LogLine{ID: fmt.Sprint("seed", i), Time: at, App: app, Machine: machines[i%len(machines)].id,
			Region: region, Provider: providers[i%4], Level: "info", Message: fmt.Sprint("seeded line ", i)})
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].Time.Before(lines[j].Time) })
	s.logs.byApp[app] = lines
}

func mustNanos(t *testing.T, ts string) string {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		t.Fatalf("timestamp %q: %v", ts, err)
	}
	return formatNextToken(tm)
}
