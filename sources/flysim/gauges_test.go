package flysim

import "testing"

func TestGuestMeminfo(t *testing.T) {
	tests := []struct {
		name                       string
		memMB, swapMB, pct, usedKB int
		want                       guestMemory
	}{
		{"1 GB guest with 2 GB swap (BRIEF §1)", 1024, 2048, 58, 0,
			guestMemory{MemTotalKB: 985220, MemAvailableKB: 571427, SwapTotalKB: 2097148, SwapFreeKB: 2097148}},
		{"no swap", 1024, 0, 61, 0, guestMemory{MemTotalKB: 985220, MemAvailableKB: 600984}},
		{"swap in use", 512, 1024, 64, 1000,
			guestMemory{MemTotalKB: 492610, MemAvailableKB: 315270, SwapTotalKB: 1048572, SwapFreeKB: 1047572}},
		{"more swap used than exists", 2048, 1, 40, 5000,
			guestMemory{MemTotalKB: 1970440, MemAvailableKB: 788176, SwapTotalKB: 1020, SwapFreeKB: 0}},
		{"nonsense percentages clamp", 1024, 0, 250, 0, guestMemory{MemTotalKB: 985220, MemAvailableKB: 985220}},
	}
	for _, tt := range tests {
		if got := guestMeminfo(tt.memMB, tt.swapMB, tt.pct, tt.usedKB); got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
