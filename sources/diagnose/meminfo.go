package diagnose

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Meminfo holds the /proc/meminfo fields flywake reads, in kB.
type Meminfo struct {
	MemTotalKB     int64
	MemAvailableKB int64
	SwapTotalKB    int64
	SwapFreeKB     int64
	SwapCachedKB   int64
}

// SwapUsedKB is swap holding pages right now.
func (m Meminfo) SwapUsedKB() int64 { return max(0, m.SwapTotalKB-m.SwapFreeKB) }

// maxMeminfoLines bounds the work on hostile input; the real file has ~55 lines.
const maxMeminfoLines = 10000

// ParseMeminfo reads /proc/meminfo text. Unknown fields are skipped; a known
// field with a bad value, a missing MemTotal, or text with no "Key: value"
// line at all is an error.
func ParseMeminfo(text string) (Meminfo, error) {
	var m Meminfo
	fields := map[string]*int64{
		"MemTotal":     &m.MemTotalKB,
		"MemAvailable": &m.MemAvailableKB,
		"SwapTotal":    &m.SwapTotalKB,
		"SwapFree":     &m.SwapFreeKB,
		"SwapCached":   &m.SwapCachedKB,
	}
	seen := map[string]bool{}
	parsed := 0
	for i, line := range strings.Split(text, "\n") {
		if i >= maxMeminfoLines {
			return Meminfo{}, errors.New("meminfo: too many lines")
		}
		key, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		key = strings.TrimSpace(key)
		value, err := parseKB(rest)
		dst, known := fields[key]
		if !known {
			if err == nil {
				parsed++
			}
			continue
		}
		if err != nil {
			return Meminfo{}, fmt.Errorf("meminfo: %s: %w", key, err)
		}
		*dst = value
		seen[key] = true
		parsed++
	}
	if parsed == 0 {
		return Meminfo{}, errors.New("meminfo: no \"Key: value kB\" lines")
	}
	if !seen["MemTotal"] {
		return Meminfo{}, errors.New("meminfo: no MemTotal")
	}
	if m.SwapFreeKB > m.SwapTotalKB {
		return Meminfo{}, fmt.Errorf("meminfo: SwapFree %d kB above SwapTotal %d kB", m.SwapFreeKB, m.SwapTotalKB)
	}
	return m, nil
}

// parseKB reads "   985220 kB" (or a bare number, as for HugePages_Total).
func parseKB(s string) (int64, error) {
	f := strings.Fields(s)
	if len(f) == 0 || len(f) > 2 || (len(f) == 2 && f[1] != "kB") {
		return 0, fmt.Errorf("want \"<number> kB\", got %q", clip(strings.TrimSpace(s), 40))
	}
	v, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("bad number %q", clip(f[0], 40))
	}
	return v, nil
}

// clip shortens outside text quoted in an error so a bad input cannot flood a log.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
