package wake

// latencyBucket is one bar of the latency histogram: requests whose total
// time (platform ms) is below upTo; the last bucket has no bound.
type latencyBucket struct {
	label string
	upTo  int64
}

// latencyBuckets follow what a user feels: instant, a pause, a wait, a cold
// boot, a proxy giving up.
var latencyBuckets = []latencyBucket{
	{"<0.5s", 500},
	{"0.5–1s", 1_000},
	{"1–2s", 2_000},
	{"2–5s", 5_000},
	{"5–10s", 10_000},
	{"10–30s", 30_000},
	{"≥30s", -1},
}

// bucketOf is the index of the bucket ms falls in.
func bucketOf(ms int64) int {
	for i, b := range latencyBuckets {
		if b.upTo < 0 || ms < b.upTo {
			return i
		}
	}
	return len(latencyBuckets) - 1
}
