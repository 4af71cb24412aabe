package coldstart

import (
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
)

// window is how far back the pane looks: the logs flywake pages through.
const window = 24 * time.Hour

// liveStaleAfter stops the timer for a boot that logged nothing for this
// long: its serving line was missed, and a timer counting forever would lie.
const liveStaleAfter = 10 * time.Minute

// segment is one phase of a boot, as offsets from the boot's begin.
type segment struct {
	Entry      *legendEntry
	From, To   time.Duration
	Name       string
	Duration   time.Duration
	StillGoing bool
}

// bootStatus says how a boot ended.
type bootStatus int

const (
	bootServed bootStatus = iota
	bootLive
	bootAbandoned
)

// historyRow is one boot in the history list, derived in SetData.
type historyRow struct {
	Machine string
	Begin   time.Time
	Resume  bool
	// CrashRestart: the boot crashed or restarted after a crash (counted
	// apart from cold boots).
	CrashRestart bool
	Status       bootStatus
	Total        time.Duration // served: begin→serving; otherwise begin→last line or now
	Segments     []segment
}

// derived is everything the pane shows, computed once per SetData.
type derived struct {
	live     []diagnose.Boot
	stats    diagnose.ColdStartStats
	perHour  []int
	history  []historyRow
	legend   []*legendEntry
	maxTotal time.Duration
}

// derive builds the pane's rows from the model at platform time now.
func derive(a *snapshot.App, now time.Time) derived {
	var d derived
	if a == nil {
		return d
	}
	d.stats = a.ColdStarts(now)
	d.perHour = diagnose.BootsPerHour(a.Boots, now, 24)
	d.live = liveBoots(a, now)

	letters := newLetterSet()
	since := now.Add(-window)
	// Oldest first while assigning letters, so the legend order is the
	// order phases run in; the list itself is newest first.
	for _, b := range a.Boots {
		if b.Begin.Before(since) || b.Begin.After(now) {
			continue
		}
		row := historyRow{Machine: b.Machine, Begin: b.Begin, Resume: b.Resume, CrashRestart: b.CrashRestart(), Total: b.Elapsed(now)}
		switch {
		case b.Complete:
			row.Status = bootServed
		case b.Abandoned:
			row.Status = bootAbandoned
		default:
			row.Status = bootLive
		}
		for _, p := range b.Phases {
			e := letters.add(p.Name, p.ReleaseWork)
			from := max(0, p.Start.Sub(b.Begin))
			dur := p.Duration(now)
			if row.Status != bootLive && p.End.IsZero() {
				dur = max(0, b.Begin.Add(row.Total).Sub(p.Start))
			}
			row.Segments = append(row.Segments, segment{
				Entry: e, From: from, To: from + dur, Name: p.Name, Duration: dur,
				StillGoing: p.End.IsZero() && row.Status == bootLive,
			})
		}
		d.maxTotal = max(d.maxTotal, row.Total)
		d.history = append(d.history, row)
	}
	for i, j := 0, len(d.history)-1; i < j; i, j = i+1, j-1 {
		d.history[i], d.history[j] = d.history[j], d.history[i]
	}
	d.legend = letters.order
	return d
}

// liveBoots are the boots worth a running timer: under way, logging
// recently, on a machine that is not known to be asleep or gone.
func liveBoots(a *snapshot.App, now time.Time) []diagnose.Boot {
	var out []diagnose.Boot
	for _, b := range a.LiveBoots() {
		if now.Sub(b.LastSeen) > liveStaleAfter {
			continue
		}
		if m, ok := a.Machine(b.Machine); ok {
			switch m.Phase {
			case diagnose.Asleep, diagnose.Gone, diagnose.Troubled, diagnose.Sleeping:
				continue
			}
		}
		out = append(out, b)
	}
	return out
}

// currentPhase names what a live boot is doing: its newest open phase.
func currentPhase(b diagnose.Boot) string {
	for i := len(b.Phases) - 1; i >= 0; i-- {
		if b.Phases[i].End.IsZero() {
			return b.Phases[i].Name
		}
	}
	if len(b.Phases) > 0 {
		return "after " + b.Phases[len(b.Phases)-1].Name
	}
	return "booting"
}

// dominantLevel grades the dominant phase: release work on every boot is
// time users wait for nothing; on some boots it is worth a look.
func dominantLevel(s diagnose.ColdStartStats) (diagnose.Level, bool) {
	d := s.Dominant
	switch {
	case d.Of == 0 || d.Name == "" || !d.ReleaseWork:
		return diagnose.Unknown, false
	case d.Boots == d.Of:
		return diagnose.Fail, true
	default:
		return diagnose.Warn, true
	}
}
