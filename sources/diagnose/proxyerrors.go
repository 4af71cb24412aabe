package diagnose

import (
	"regexp"
	"slices"
	"strings"
	"time"
)

// Fly's proxy logs its own errors (provider "proxy") with a code in brackets
// ("[PM03] could not wake up machine due to a timeout requesting from the
// machines API"); these are the requests the app's logs never see. The
// meanings are Fly's (fly.io/docs/monitoring/error-codes), in a few words.

// proxyCodes are the codes Fly documents that a scale-to-zero or overloaded
// app meets, with what each means.
var proxyCodes = map[string]string{
	"PM01": "the Machines API refused a wake (e.g. machine still attempting to start)",
	"PM02": "internal error while waking a machine",
	"PM03": "wake timed out: a request waited on a booting machine and gave up",
	"PM05": "could not connect to the machine after starting it",
	"PM07": "the machine's state change failed",
	"PM08": "machine in a state it cannot be started from (stopping, destroyed)",
	"PM09": "machine in a non-startable state",
	"PM11": "machine recently stopped: rerouted to another one",
	"PR01": "no healthy machine for the route",
	"PR03": "no good candidate after retries: every machine busy or not listening",
	"PR04": "no good candidate after retries: every machine busy or not listening",
	"PC01": "the machine refused the connection: the app is not listening yet",
	"PL01": "a request went past the concurrency limit",
	"PL02": "a request went past the concurrency limit",
}

// proxyCodeRE finds a proxy error code: "[PM03]" or a bare "PM11".
var proxyCodeRE = regexp.MustCompile(`\b(P[A-Z]\d{2})\b`)

// proxyMessages give the code of errors Fly logs without one.
var proxyMessages = []struct{ text, code string }{
	{"machine was recently stopped", "PM11"},
	{"could not find a good candidate", "PR04"},
	{"no known healthy instances", "PR01"},
	{"could not wake up machine", "PM03"},
}

// ProxyErrorCode is the code of a proxy log line, "" when it carries none.
func ProxyErrorCode(msg string) string {
	if m := proxyCodeRE.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	for _, pm := range proxyMessages {
		if strings.Contains(msg, pm.text) {
			return pm.code
		}
	}
	return ""
}

// ProxyErrorMeaning says what a code means, or where to read it.
func ProxyErrorMeaning(code string) string {
	if m, ok := proxyCodes[code]; ok {
		return m
	}
	return "see fly.io/docs/monitoring/error-codes"
}

// ProxyErrors are one code's log lines.
type ProxyErrors struct {
	Code    string
	Lines   int
	Last    time.Time
	Meaning string
}

// CountProxyErrors counts the proxy's error lines by code over [since, now],
// commonest first.
func CountProxyErrors(lines []LogLine, since, now time.Time) []ProxyErrors {
	by := map[string]*ProxyErrors{}
	for _, l := range lines {
		if l.Provider != "proxy" || l.Time.Before(since) || l.Time.After(now) {
			continue
		}
		code := ProxyErrorCode(l.Message)
		if code == "" {
			continue
		}
		pe := by[code]
		if pe == nil {
			pe = &ProxyErrors{Code: code, Meaning: ProxyErrorMeaning(code)}
			by[code] = pe
		}
		pe.Lines++
		if l.Time.After(pe.Last) {
			pe.Last = l.Time
		}
	}
	out := make([]ProxyErrors, 0, len(by))
	for _, pe := range by {
		out = append(out, *pe)
	}
	slices.SortFunc(out, func(a, b ProxyErrors) int {
		if a.Lines != b.Lines {
			return b.Lines - a.Lines
		}
		return strings.Compare(a.Code, b.Code)
	})
	return out
}
