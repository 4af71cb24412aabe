package snapshot

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
)

// SwapFacts gathers, per machine, what the swap verdict weighs.
func (a *App) SwapFacts() []diagnose.SwapFacts {
	var out []diagnose.SwapFacts
	for _, m := range a.Machines {
		f := diagnose.SwapFacts{Machine: m.ID}
		if cfg := m.Config; cfg != nil {
			f.ConfiguredMB, f.GuestMemoryMB = cfg.SwapMB, cfg.MemoryMB
		}
		if p, ok := a.Meminfo[m.ID]; ok && p.Err == "" {
			v := p.Value
			f.Meminfo = &v
		}
		f.OOMKills = oomKills(m)
		out = append(out, f)
	}
	return out
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
	count := map[string]int{}
	for _, m := range a.Machines {
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
	versions := make([]string, 0, len(a.Machines))
	for _, m := range a.Machines {
		versions = append(versions, m.Release)
	}
	return diagnose.CurrentRelease(versions)
}

// CrashBanner says which machines of the current release are crash-looping or
// gave up restarting; "" when none.
func (a *App) CrashBanner() string {
	rel := a.CurrentRelease()
	var looping, gaveUp []string
	for _, m := range a.Machines {
		if rel != "" && m.Release != rel {
			continue
		}
		switch m.Crash.Kind {
		case diagnose.CrashLooping:
			looping = append(looping, m.ID)
		case diagnose.GaveUp:
			gaveUp = append(gaveUp, m.ID)
		}
	}
	var parts []string
	if len(looping) > 0 {
		parts = append(parts, fmt.Sprintf("%d crash-looping (%s)", len(looping), strings.Join(looping, ", ")))
	}
	if len(gaveUp) > 0 {
		parts = append(parts, fmt.Sprintf("%d gave up restarting (%s)", len(gaveUp), strings.Join(gaveUp, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	relText := "the current release"
	if rel != "" {
		relText = "release v" + rel
	}
	why := diagnose.CrashLoopReason
	if len(looping) == 0 {
		why = "the platform stopped restarting them after repeated crashes; the next request wakes them into the same crash"
	}
	return fmt.Sprintf("%s: %s — %s", relText, strings.Join(parts, "; "), why)
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
}

// ApplyEdgeOrigin records one edge/origin query (a failed one too: its Err
// says why the checklist cannot judge item 5).
func (a *App) ApplyEdgeOrigin(eo EdgeOrigin) { a.Metrics = &eo }

// Died is how many requests the edge answered that no machine did
// (diagnose.Lost, class by class), and the edge's total.
func Died(edge, app map[string]float64) (died, total float64) {
	return diagnose.Lost(edge, app), diagnose.StatusCounts(edge).Total()
}
