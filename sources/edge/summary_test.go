package edge

import (
	"reflect"
	"testing"
	"time"
)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func TestSummarize(t *testing.T) {
	t0 := time.Date(2025, 9, 25, 10, 0, 0, 0, time.UTC)
	at := func(offset int) time.Time { return t0.Add(ms(offset)) }
	tests := []struct {
		name    string
		results []Result
		want    Summary
	}{
		{
			name:    "empty",
			results: nil,
			want:    Summary{ByStatus: map[int]int{}, ByErrClass: map[ErrClass]int{}, Machines: []string{}},
		},
		{
			name: "mixed: a slow 502 counts in the percentiles, an abort does not",
			results: []Result{
				{Index: 0, Sent: at(0), Wrote: ms(1), Total: ms(300), Status: 200, ErrClass: ErrNone, Machine: "m2"},
				{Index: 1, Sent: at(2), Wrote: ms(2), Total: ms(30000), Status: 502, ErrClass: ErrProxy5xx},
				{Index: 2, Sent: at(1), Wrote: ms(1), Total: ms(250), Status: 200, ErrClass: ErrNone, Machine: "m1"},
				{Index: 3, Sent: at(3), Total: ms(60000), ErrClass: ErrTimeout},
				{Index: 4, Sent: at(1), Wrote: ms(3), Total: ms(400), Status: 200, ErrClass: ErrNone, Machine: "m2"},
				{Index: 5, Sent: at(4), Total: ms(90000), ErrClass: ErrAborted},
			},
			want: Summary{
				Requests: 6, OK: 3, Failed: 2, Aborted: 1,
				ByStatus:   map[int]int{200: 3, 502: 1, 0: 2},
				ByErrClass: map[ErrClass]int{ErrNone: 3, ErrProxy5xx: 1, ErrTimeout: 1, ErrAborted: 1},
				// completed totals sorted: 250 300 400 30000 60000
				P50: ms(400), P95: ms(60000), Max: ms(60000),
				// first 2xx completion: Sent 1 ms + 250 ms
				First200:  ms(251),
				Slowest:   Result{Index: 3, Sent: at(3), Total: ms(60000), ErrClass: ErrTimeout},
				Machines:  []string{"m1", "m2"},
				StartSkew: ms(4),
				// wire times: 1, 4, 2, 4 → spread 3 ms
				WireSkew: ms(3),
			},
		},
		{
			name: "2xx cut off while reading the body is not OK",
			results: []Result{
				{Index: 0, Sent: at(0), Total: ms(100), Status: 200, ErrClass: ErrTimeout},
			},
			want: Summary{
				Requests: 1, Failed: 1,
				ByStatus:   map[int]int{200: 1},
				ByErrClass: map[ErrClass]int{ErrTimeout: 1},
				P50:        ms(100), P95: ms(100), Max: ms(100),
				Slowest:  Result{Index: 0, Sent: at(0), Total: ms(100), Status: 200, ErrClass: ErrTimeout},
				Machines: []string{},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Summarize(tt.results)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Summarize =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}

func TestNearestRank(t *testing.T) {
	vals := []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
		11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	tests := []struct {
		n, p int
		want time.Duration
	}{
		{20, 50, 10}, {20, 95, 19}, {20, 100, 20}, {20, 1, 1},
		{1, 50, 1}, {1, 95, 1}, {2, 50, 1}, {2, 95, 2}, {3, 50, 2}, {0, 50, 0},
	}
	for _, tt := range tests {
		if got := nearestRank(vals[:tt.n], tt.p); got != tt.want {
			t.Errorf("nearestRank(n=%d, p=%d) = %d, want %d", tt.n, tt.p, got, tt.want)
		}
	}
}
