package diagnose

import "testing"

// The parsers read text that comes from a remote machine; none may panic.

func FuzzParseMeminfo(f *testing.F) {
	for _, s := range []string{seedMeminfo, "", "MemTotal: 1 kB", "MemTotal:\n", ":::", "SwapFree: 9 kB\nMemTotal: 1 kB\nSwapTotal: 1 kB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMeminfo(text)
		if err == nil && (m.MemTotalKB < 0 || m.SwapFreeKB > m.SwapTotalKB || m.SwapUsedKB() < 0) {
			t.Fatalf("accepted impossible meminfo %+v", m)
		}
	})
}

func FuzzParseProcNetTCP(f *testing.F) {
	for _, s := range []string{procNetTCP, procNetTCP6, procNetTCP + procNetTCP6, "", "0: :: 0A", "0: 0100007F:0050 00000000:0000 08 zz:zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		socks, err := ParseProcNetTCP(text)
		if err != nil {
			return
		}
		total := 0
		for _, n := range CountStates(socks) {
			total += n
		}
		if total != len(socks) {
			t.Fatalf("CountStates lost sockets: %d of %d", total, len(socks))
		}
	})
}

func FuzzParseBytecodeProbe(f *testing.F) {
	f.Add(seedProbe, 0, "")
	f.Add("", 127, "sh: 1: python3: not found")
	f.Add("{", 0, "")
	f.Add(`{"python":"3","site_packages":{"py":-1}}`, 0, "")
	f.Add("noise\n{\"cache_tag\":\"cpython-314\"}\n", 1, "boom")
	f.Fuzz(func(t *testing.T, stdout string, exit int, stderr string) {
		r, err := ParseBytecodeProbe(stdout, exit, stderr)
		if err != nil {
			return
		}
		v := BytecodeVerdict(r)
		if v.Line == "" {
			t.Fatalf("empty verdict for %+v", r)
		}
	})
}
