package diagnose

import (
	"strings"
	"testing"
)

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

// Access lines are an app's stdout: whatever they hold, the parser never
// panics, and what it takes as client or host is an address or a host name.
func FuzzParseAccessLine(f *testing.F) {
	for _, s := range []string{
		`203.0.113.17 staging.sleepy-api.fly.dev "GET /.env HTTP/1.1" 301 0 12ms`,
		`- [fdaa::2]:8000 "GET /api/health/ HTTP/1.1" 200 15 3ms`,
		`INFO:     203.0.113.9:52114 - "GET / HTTP/1.1" 200 OK`,
		"\x1b[31m1.2.3.4\x1b[0m evil\x07.com \"GET /\x1b]0;x\x07 HTTP/1.1\" 200",
		`"GET  HTTP/1.1" 200`, `""`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		a, ok := ParseAccessLine(h0, msg)
		if !ok {
			return
		}
		if a.Status < 100 || a.Status > 599 || a.Path == "" || strings.ContainsAny(a.Path, " \t\n") {
			t.Errorf("accepted %+v from %q", a, msg)
		}
		if a.Host != "" && !isHostName(a.Host) {
			t.Errorf("host %q from %q", a.Host, msg)
		}
		if strings.ContainsAny(a.Client+a.Host, "\x1b\x07\n") {
			t.Errorf("control characters kept: %+v", a)
		}
	})
}
