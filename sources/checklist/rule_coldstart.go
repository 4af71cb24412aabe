package checklist

import (
	"fmt"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/words"
)

// coldStartRule: how long from boot until the app answers a real request,
// against the longest any client in front of it will wait.
func coldStartRule(e Evidence, opts Options) Item {
	b := newItem(IDColdStart)
	limit, limitName := opts.ProxyPatience, fmt.Sprintf("the proxy's patience (%s)", words.Duration(opts.ProxyPatience, words.Tenths))
	if opts.CDNOriginTimeout > 0 && opts.CDNOriginTimeout < limit {
		limit, limitName = opts.CDNOriginTimeout, fmt.Sprintf("the CDN's origin timeout (%s)", words.Duration(opts.CDNOriginTimeout, words.Tenths))
	}
	cs := e.ColdStart
	if cs != nil && cs.Boots == 0 && cs.CrashRestarts > 0 {
		b.judge(Unknown, cs.Source, "no cold boot measured: every start in 24 h (%s) crashed or was the platform's restart after a crash, which times the crash, not a wake (see crash loop)",
			count(cs.CrashRestarts))
		return b.done()
	}
	if cs == nil || cs.Boots == 0 {
		b.judge(Unknown, "", "no boot measured yet: needs boot history in the logs or a wake test")
		return b.done()
	}
	perDay := ""
	if cs.PerDay > 0 {
		perDay = fmt.Sprintf(", %s a day", count(cs.PerDay))
	}
	b.note(cs.Source, "boot until serving: p50 %s, p95 %s, max %s over %s%s",
		words.Duration(cs.P50, words.Tenths), words.Duration(cs.P95, words.Tenths), words.Duration(cs.Max, words.Tenths), words.Count(cs.Boots, "boot", "boots"), perDay)
	if cs.CrashRestarts > 0 {
		b.note(cs.Source, "%s left out: they time the crash, not a wake (see crash loop)",
			words.Count(cs.CrashRestarts, "crash restart", "crash restarts"))
	}
	if cs.Dominant != "" {
		kind := ""
		if cs.DominantReleaseWork {
			kind = " (release work run at boot)"
		}
		b.note(cs.Source, "slowest phase: %s, %s%s", cs.Dominant, words.Duration(cs.DominantDur, words.Tenths), kind)
	}
	switch lvl := diagnose.ColdStartLevel(cs.P95, cs.Max, limit); {
	case lvl == Fail:
		b.judge(Fail, cs.Source, "p95 %s reaches %s: a request routed to a booting machine times out", words.Duration(cs.P95, words.Tenths), limitName)
	case lvl == Warn && cs.Max >= limit:
		b.judge(Warn, cs.Source, "the slowest boot (%s) reaches %s", words.Duration(cs.Max, words.Tenths), limitName)
	case lvl == Warn:
		b.judge(Warn, cs.Source, "p95 %s is over a third of %s", words.Duration(cs.P95, words.Tenths), limitName)
	default:
		b.judge(Pass, cs.Source, "p95 %s is well inside %s", words.Duration(cs.P95, words.Tenths), limitName)
	}
	if cs.DominantReleaseWork {
		b.fix("Take the release work out of the boot path (see release work).")
	}
	b.fix("Use auto_stop_machines = 'suspend' so a wake resumes in a few hundred ms instead of booting, and keep the server's import time small (bytecode cache).")
	return b.done()
}
