package snapshot

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/words"
)

// SwapFacts gathers, per machine, what the swap verdict weighs.
func (a *App) SwapFacts() []diagnose.SwapFacts {
	out := make([]diagnose.SwapFacts, 0, len(a.Machines))
	for _, m := range a.Machines {
		p, probed := a.Meminfo[m.ID]
		out = append(out, SwapFactsOf(m, p, probed))
	}
	return out
}

// SwapFactsOf is one machine's swap facts, given its meminfo probe (probed
// false: none), so a caller that keeps them per machine can skip the rest.
func SwapFactsOf(m Machine, p Probe[diagnose.Meminfo], probed bool) diagnose.SwapFacts {
	f := diagnose.SwapFacts{Machine: m.ID}
	if cfg := m.Config; cfg != nil {
		f.ConfiguredMB, f.GuestMemoryMB = cfg.SwapMB, cfg.MemoryMB
	}
	if probed && p.Err == "" {
		v := p.Value
		f.Meminfo = &v
	}
	f.OOMKills = oomKills(m)
	return f
}

func oomKills(m Machine) int {
	n := 0
	for _, e := range m.Events {
		if e.OOMKilled {
			n++
		}
	}
	return n
}

// Swap is the swap pane's one-line verdict.
func (a *App) Swap() diagnose.Verdict { return diagnose.SwapVerdict(a.SwapFacts()) }

// CurrentDigests are the image digests the machines run, most common first.
func (a *App) CurrentDigests() []string {
	d := a.derived()
	if !d.digestsOK {
		d.digests, d.digestsOK = currentDigests(a.Machines), true
	}
	return slices.Clone(d.digests)
}

func currentDigests(ms []Machine) []string {
	count := map[string]int{}
	for _, m := range ms {
		if d := m.ImageDigest; d != "" {
			count[d]++
		}
	}
	var out []string
	for d := range count {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if count[out[i]] != count[out[j]] {
			return count[out[i]] > count[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

// BytecodeFor is the probe result for the image most machines run.
func (a *App) BytecodeFor() (digest string, p Probe[diagnose.BytecodeReport], ok bool) {
	for _, d := range a.CurrentDigests() {
		if p, ok := a.Bytecode[d]; ok {
			return d, p, true
		}
	}
	if ds := a.CurrentDigests(); len(ds) > 0 {
		return ds[0], Probe[diagnose.BytecodeReport]{}, false
	}
	return "", Probe[diagnose.BytecodeReport]{}, false
}

// Bytecode is the bytecode pane's verdict.
func (a *App) BytecodeVerdict() diagnose.Verdict {
	_, p, ok := a.BytecodeFor()
	switch {
	case !ok:
		return diagnose.Verdict{Level: diagnose.Unknown, Line: "not probed yet: the probe runs on a started machine, once per image"}
	case p.Err != "":
		return diagnose.Verdict{Level: diagnose.Unknown, Line: "probe failed: " + p.Err}
	}
	return diagnose.BytecodeVerdict(p.Value)
}

// CurrentRelease is the app's current release (diagnose.CurrentRelease
// over its machines), "" when no machine names one.
func (a *App) CurrentRelease() string {
	d := a.derived()
	if !d.releaseOK {
		d.release, d.releaseOK = currentRelease(a.Machines), true
	}
	return d.release
}

func currentRelease(ms []Machine) string {
	versions := make([]string, 0, len(ms))
	for _, m := range ms {
		versions = append(versions, m.Release)
	}
	return diagnose.CurrentRelease(versions)
}

// CrashLoops are the machines of the current release that crash-loop or
// that the platform gave up restarting.
type CrashLoops struct {
	Release string // "" when no machine names one
	Looping []string
	GaveUp  []string
}

// Any reports whether some machine of the release is crashing.
func (c CrashLoops) Any() bool { return len(c.Looping)+len(c.GaveUp) > 0 }

// ReleaseName is "release v7", or "the current release".
func (c CrashLoops) ReleaseName() string {
	if c.Release == "" {
		return "the current release"
	}
	return "release v" + c.Release
}

// Explanation is what the crash-looping machines mean, in one sentence
// that never speaks of "the machine" when several are named.
func (c CrashLoops) Explanation() string {
	it, they := "it", "each"
	switch {
	case len(c.Looping) > 0 && len(c.GaveUp) > 0:
		return "every start since the deploy crashed; a given-up one crashes again on a request"
	case len(c.GaveUp) > 0:
		if len(c.GaveUp) > 1 {
			return "the platform gave up restarting them; a request wakes them into the same crash"
		}
		return "the platform gave up restarting it; a request wakes it into the same crash"
	case len(c.Looping) > 1:
		it = they
	}
	return it + " has crashed repeatedly since the deploy and is still restarting"
}

// CrashLoops finds the crashing machines of the current release: the
// release judge's crash picture (verdict.Result.Crashes), as every surface
// shows it.
func (a *App) CrashLoops() CrashLoops {
	c := a.Rollout.Crashes()
	return CrashLoops{Release: c.Release, Looping: c.Looping, GaveUp: c.GaveUp}
}

// CrashVerdict is the crash judgement in one graded line, as status
// prints it: a crash loop or a give-up fails; what could not be read, and
// could hide one, is unknown; a machine that crashed once and awaits the
// look that tells is a warning; else a pass.
func (a *App) CrashVerdict() diagnose.Verdict {
	c := a.Rollout.Crashes()
	v := diagnose.Verdict{Level: c.Level()}
	switch v.Level {
	case diagnose.Fail:
		v.Line = a.CrashBanner()
	case diagnose.Unknown:
		v.Line = c.UnreadReason()
	case diagnose.Warn:
		v.Line = c.WatchingReason()
	default:
		v.Line = fmt.Sprintf("no machine of %s is crashing (%s judged by the newest crash's time)", c.ReleaseName(),
			words.Count(c.Judged, "machine", "machines"))
		if c.Judged == 0 {
			v.Level, v.Line = diagnose.NA, "no machine of the current release to judge"
		}
	}
	return v
}

// CrashBanner says which machines of the current release are crash-looping or
// gave up restarting, then what that means; "" when none.
func (a *App) CrashBanner() string {
	c := a.CrashLoops()
	if !c.Any() {
		return ""
	}
	var parts []string
	if len(c.Looping) > 0 {
		parts = append(parts, strings.Join(c.Looping, ", ")+" crash-looping")
	}
	if len(c.GaveUp) > 0 {
		parts = append(parts, strings.Join(c.GaveUp, ", ")+" gave up restarting")
	}
	return fmt.Sprintf("%s: %s — %s", c.ReleaseName(), strings.Join(parts, " · "), c.Explanation())
}

// CloseWait is the CLOSE_WAIT count per probed machine.
func (a *App) CloseWait() map[string]int {
	out := map[string]int{}
	for id, p := range a.Sockets {
		if p.Err == "" {
			out[id] = p.Value["CLOSE_WAIT"]
		}
	}
	return out
}

// EdgeOrigin compares what the edge answered clients with what the machines
// answered the proxy, by status, over the last hour and day.
type EdgeOrigin struct {
	At              time.Time
	Edge1h, App1h   map[string]float64
	Edge24h, App24h map[string]float64
	Err             string
	Cause           diagnose.Cause // why Err, in the checklist's words
}

// ApplyEdgeOrigin records one edge/origin query (a failed one too: its Err
// says why the checklist cannot judge item 5). Status labels and the error
// come from outside and are made inert.
func (a *App) ApplyEdgeOrigin(eo EdgeOrigin) {
	eo.Err = sanitize.Line(eo.Err)
	for _, m := range []*map[string]float64{&eo.Edge1h, &eo.App1h, &eo.Edge24h, &eo.App24h} {
		*m = cleanLabels(*m)
	}
	a.Metrics = &eo
}

func cleanLabels(m map[string]float64) map[string]float64 {
	if m == nil {
		return nil
	}
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[sanitize.Line(k)] += v
	}
	return out
}

// Gaps compares the edge with the app over the last hour and the day, in
// both directions (diagnose.EdgeGap): what the Traffic pane, the
// checklist's item 5 and status say about edge and origin.
func (eo EdgeOrigin) Gaps() (hour, day diagnose.EdgeGap) {
	return diagnose.CompareEdge(eo.Edge1h, eo.App1h), diagnose.CompareEdge(eo.Edge24h, eo.App24h)
}

// Died is how many requests the edge answered that no machine did
// (diagnose.Lost, class by class), and the edge's total.
func Died(edge, app map[string]float64) (died, total float64) {
	return diagnose.Lost(edge, app), diagnose.StatusCounts(edge).Total()
}
