package logs

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// testLogStore holds lines sharing nanoseconds, as one scheduler event stamps
// them, across two machines and two regions.
func testLogStore() (*Store, time.Time) {
	t0 := time.Date(2025, 11, 30, 10, 0, 0, 0, time.UTC)
	l := NewStore(1000)
	spec := []struct {
		at              time.Duration
		machine, region string
	}{
		{0, "m1", "ams"}, {time.Second, "m1", "ams"}, {time.Second, "m2", "ams"}, {time.Second, "m1", "fra"},
		{time.Second, "m2", "fra"}, {2 * time.Second, "m2", "ams"}, {3 * time.Second, "m1", "ams"},
		{3 * time.Second, "m1", "ams"}, {3 * time.Second, "m2", "fra"}, {4 * time.Second, "", "ams"},
	}
	for i, s := range spec {
		l.Add(Line{ID: fmt.Sprint("L", i), Time: t0.Add(s.at), App: "a", Machine: s.machine, Region: s.region})
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
			var got []Line
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

func logIDs(lines []Line) []string {
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
		if ok && NextToken(got) != tt.in {
			t.Errorf("NextToken(parseNextToken(%q)) = %q", tt.in, NextToken(got))
		}
	}
}
