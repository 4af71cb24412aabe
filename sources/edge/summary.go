package edge

import (
	"sort"
	"time"
)

// Summary condenses one run. Requests = OK + Failed + Aborted.
type Summary struct {
	Requests int `json:"requests"`
	// OK counts complete 2xx responses.
	OK int `json:"ok"`
	// Failed counts requests that ended on their own without a complete 2xx.
	Failed int `json:"failed"`
	// Aborted counts requests cut off by an abort or MaxTotal.
	Aborted    int              `json:"aborted"`
	ByStatus   map[int]int      `json:"by_status"` // 0 = no response
	ByErrClass map[ErrClass]int `json:"by_err_class"`
	// P50, P95 and Max are nearest-rank over the Total of every completed
	// request, failures included: a 502 after 30 s is what that user waited.
	// Aborted requests are left out (their wait was cut short by us).
	P50 time.Duration `json:"p50_ns"`
	P95 time.Duration `json:"p95_ns"`
	Max time.Duration `json:"max_ns"`
	// First200 runs from the first Sent to the first complete 2xx; it is
	// meaningful only when OK > 0.
	First200 time.Duration `json:"first_200_ns"`
	// Slowest is the completed request with the largest Total (zero Result
	// when none completed).
	Slowest Result `json:"slowest"`
	// Machines lists the distinct echo header values, sorted.
	Machines []string `json:"machines"`
	// StartSkew is last Sent − first Sent: how "together" the burst left.
	StartSkew time.Duration `json:"start_skew_ns"`
	// WireSkew is the same spread for when requests were fully written
	// (after dial/TLS), over the requests that got that far.
	WireSkew time.Duration `json:"wire_skew_ns"`
}

// Summarize computes a Summary; it does no I/O and keeps results intact.
func Summarize(results []Result) Summary {
	s := Summary{
		Requests:   len(results),
		ByStatus:   map[int]int{},
		ByErrClass: map[ErrClass]int{},
		Machines:   []string{},
	}
	var totals []time.Duration
	var firstSent, lastSent, firstWire, lastWire, first2xx time.Time
	machines := map[string]bool{}
	for _, r := range results {
		s.ByStatus[r.Status]++
		s.ByErrClass[r.ErrClass]++
		switch {
		case r.OK():
			s.OK++
		case r.Completed():
			s.Failed++
		default:
			s.Aborted++
		}
		if r.Machine != "" && !machines[r.Machine] {
			machines[r.Machine] = true
			s.Machines = append(s.Machines, r.Machine)
		}
		if r.Completed() {
			totals = append(totals, r.Total)
			if len(totals) == 1 || r.Total > s.Slowest.Total {
				s.Slowest = r
			}
		}
		if r.Sent.IsZero() {
			continue
		}
		firstSent = earliest(firstSent, r.Sent)
		lastSent = latest(lastSent, r.Sent)
		if r.Wrote > 0 {
			w := r.Sent.Add(r.Wrote)
			firstWire = earliest(firstWire, w)
			lastWire = latest(lastWire, w)
		}
		if r.OK() {
			first2xx = earliest(first2xx, r.Sent.Add(r.Total))
		}
	}
	sort.Strings(s.Machines)
	sort.Slice(totals, func(i, j int) bool { return totals[i] < totals[j] })
	s.P50 = nearestRank(totals, 50)
	s.P95 = nearestRank(totals, 95)
	if len(totals) > 0 {
		s.Max = totals[len(totals)-1]
	}
	s.StartSkew = lastSent.Sub(firstSent)
	s.WireSkew = lastWire.Sub(firstWire)
	if !first2xx.IsZero() {
		s.First200 = first2xx.Sub(firstSent)
	}
	return s
}

// nearestRank returns the p-th percentile of sorted values: the smallest
// value with at least p % of values at or below it; 0 for no values.
func nearestRank(sorted []time.Duration, p int) time.Duration {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	rank := (p*n + 99) / 100 // ceil(p/100 × n)
	if rank < 1 {
		rank = 1
	}
	return sorted[rank-1]
}

func earliest(cur, t time.Time) time.Time {
	if cur.IsZero() || t.Before(cur) {
		return t
	}
	return cur
}

func latest(cur, t time.Time) time.Time {
	if cur.IsZero() || t.After(cur) {
		return t
	}
	return cur
}
