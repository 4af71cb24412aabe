package diagnose

import (
	"strings"
	"testing"
)

const seedMeminfo = `MemTotal:         985220 kB
MemFree:          412332 kB
MemAvailable:     701244 kB
Buffers:           20340 kB
Cached:           301112 kB
SwapCached:            0 kB
Active:           254332 kB
SwapTotal:       2097148 kB
SwapFree:        2097148 kB
HugePages_Total:       0
Hugepagesize:       2048 kB
`

func TestParseMeminfo(t *testing.T) {
	for _, tc := range []struct {
		name    string
		text    string
		want    Meminfo
		wantErr string
	}{
		{"seed machine", seedMeminfo, Meminfo{MemTotalKB: 985220, MemAvailableKB: 701244, SwapTotalKB: 2097148, SwapFreeKB: 2097148}, ""},
		{"no swap lines, CRLF", "MemTotal: 1000 kB\r\nMemAvailable: 500 kB\r\n", Meminfo{MemTotalKB: 1000, MemAvailableKB: 500}, ""},
		{"swap in use", "MemTotal: 1000 kB\nSwapTotal: 2048 kB\nSwapFree: 1024 kB\nSwapCached: 12 kB", Meminfo{MemTotalKB: 1000, SwapTotalKB: 2048, SwapFreeKB: 1024, SwapCachedKB: 12}, ""},
		{"unknown odd field tolerated", "MemTotal: 1000 kB\nWeird: lots of stuff\n", Meminfo{MemTotalKB: 1000}, ""},
		{"empty", "", Meminfo{}, "no \"Key: value kB\" lines"},
		{"garbage", "sh: 1: cat: not found\n", Meminfo{}, "no \"Key: value kB\" lines"},
		{"no MemTotal", "SwapTotal: 0 kB\nSwapFree: 0 kB\n", Meminfo{}, "no MemTotal"},
		{"bad known value", "MemTotal: lots kB\n", Meminfo{}, "MemTotal"},
		{"negative", "MemTotal: -5 kB\n", Meminfo{}, "bad number"},
		{"wrong unit", "MemTotal: 5 MB\n", Meminfo{}, "MemTotal"},
		{"free above total", "MemTotal: 5 kB\nSwapTotal: 1 kB\nSwapFree: 2 kB\n", Meminfo{}, "above SwapTotal"},
		{"overflow", "MemTotal: 99999999999999999999 kB\n", Meminfo{}, "bad number"},
	} {
		got, err := ParseMeminfo(tc.text)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err = %v, want containing %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
}

func TestSwapVerdict(t *testing.T) {
	mem := func(total, free int64) *Meminfo {
		return &Meminfo{MemTotalKB: 985220, SwapTotalKB: total, SwapFreeKB: free}
	}
	fleet := func(n int, f func(i int) SwapFacts) []SwapFacts {
		out := make([]SwapFacts, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		facts []SwapFacts
		level Level
		line  string
	}{
		{"no machines", nil, Unknown, "no machines"},
		{"seed: 10 machines, untouched swap", fleet(10, func(int) SwapFacts {
			return SwapFacts{ConfiguredMB: 2048, GuestMemoryMB: 1024, Meminfo: mem(2097148, 2097148)}
		}), Warn, "2048 MB swap on 10/10 machines, 0 kB in use (all probed), no OOM kills — it only blocks suspend"},
		{"only one running to probe", fleet(10, func(i int) SwapFacts {
			f := SwapFacts{ConfiguredMB: 2048}
			if i == 0 {
				f.Meminfo = mem(2097148, 2097148)
			}
			return f
		}), Warn, "2048 MB swap on 10/10 machines, 0 kB in use (1 of 10 probed), no OOM kills — it only blocks suspend"},
		{"swap in use", fleet(3, func(i int) SwapFacts {
			return SwapFacts{ConfiguredMB: 512, Meminfo: mem(524284, 524284-int64(i)*61440)}
		}), Warn, "swap in use on 2 machines (up to 120 MB): add memory before removing it"},
		{"a little in use", []SwapFacts{{ConfiguredMB: 512, Meminfo: mem(524284, 524184)}}, Warn, "swap in use on 1 machine (up to 100 kB): add memory before removing it"},
		{"no swap", fleet(2, func(int) SwapFacts { return SwapFacts{Meminfo: mem(0, 0)} }), Pass, "no swap configured"},
		{"no swap but OOM", []SwapFacts{{OOMKills: 3}}, Warn, "no swap configured; 3 OOM kills: memory is short"},
		{"nothing running", fleet(4, func(int) SwapFacts { return SwapFacts{ConfiguredMB: 2048} }), Unknown,
			"2048 MB swap on 4/4 machines, usage unknown: no running machine to probe"},
		{"mixed sizes and an OOM kill", []SwapFacts{
			{ConfiguredMB: 512, Meminfo: mem(524284, 524284), OOMKills: 1},
			{ConfiguredMB: 2048},
			{},
		}, Warn, "512–2048 MB swap on 2/3 machines, 0 kB in use now but 1 OOM kill: check memory before removing it"},
		{"swap seen only in meminfo", []SwapFacts{{Meminfo: mem(1048572, 1048572)}}, Warn,
			"1023 MB swap on 1/1 machines, 0 kB in use (all probed), no OOM kills — it only blocks suspend"},
	} {
		got := SwapVerdict(tc.facts)
		if got.Level != tc.level || got.Line != tc.line {
			t.Errorf("%s:\n got %v %q\nwant %v %q", tc.name, got.Level, got.Line, tc.level, tc.line)
		}
	}
}
