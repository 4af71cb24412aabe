package diagnose

import (
	"fmt"
	"slices"
	"time"

	"github.com/flywake/flywake/sources/words"
)

// Spread summarises a set of boots: how many, and how long the ones that
// reached serving took (nearest-rank percentiles).
type Spread struct {
	Count     int // boots begun in the window
	Served    int // of which reached serving
	Live      int // of which are still booting
	Abandoned int // of which never served before the next boot began
	P50, P95  time.Duration
	Max       time.Duration
}

// DominantPhase is the phase with the longest median across completed cold boots.
type DominantPhase struct {
	Name        string
	Duration    time.Duration // median of this phase (0 in boots without it)
	OfTotal     time.Duration // median begin→serving
	ReleaseWork bool
	Boots       int // completed cold boots that ran this phase
	Of          int // completed cold boots considered
}

// ColdStartStats is what the cold-start pane shows.
type ColdStartStats struct {
	Spread         // cold boots (from stopped) begun in [since, now]
	Resumes Spread // resumes from suspend in the same window, kept apart: they are a different animal
	PerHour int    // cold boots begun in the hour before now
	PerDay  int    // cold boots begun in the 24 hours before now
	// CrashRestarts are the boots of the same window that crashed or were
	// the platform's restart after a crash (Boot.CrashRestart): in neither
	// spread nor the counts above, since they time a crash loop, not a wake.
	CrashRestarts int
	Dominant      DominantPhase
}

// Summarize computes the stats over boots begun in [since, now].
func Summarize(boots []Boot, since, now time.Time) ColdStartStats {
	var s ColdStartStats
	var cold, resumes []Boot
	for _, b := range boots {
		if b.ColdIn(now.Add(-time.Hour), now) {
			s.PerHour++
		}
		if b.ColdIn(now.Add(-24*time.Hour), now) {
			s.PerDay++
		}
		if b.Begin.Before(since) || b.Begin.After(now) {
			continue
		}
		switch {
		case b.CrashRestart():
			s.CrashRestarts++
		case b.Resume:
			resumes = append(resumes, b)
		default:
			cold = append(cold, b)
		}
	}
	s.Spread = spreadOf(cold, now)
	s.Resumes = spreadOf(resumes, now)
	s.Dominant = dominantPhase(cold, now)
	return s
}

func spreadOf(boots []Boot, now time.Time) Spread {
	sp := Spread{Count: len(boots)}
	var served []time.Duration
	for _, b := range boots {
		switch {
		case b.Complete:
			served = append(served, b.Elapsed(now))
		case b.Abandoned:
			sp.Abandoned++
		default:
			sp.Live++
		}
	}
	sp.Served = len(served)
	if len(served) > 0 {
		sp.P50 = Percentile(served, 50)
		sp.P95 = Percentile(served, 95)
		sp.Max = slices.Max(served)
	}
	return sp
}

// dominantPhase picks the phase with the largest median over completed boots,
// counting 0 for boots that did not run it, so a phase seen once cannot win.
func dominantPhase(boots []Boot, now time.Time) DominantPhase {
	var complete []Boot
	for _, b := range boots {
		if b.Complete {
			complete = append(complete, b)
		}
	}
	if len(complete) == 0 {
		return DominantPhase{}
	}
	var names []string
	release := map[string]bool{}
	for _, b := range complete {
		for _, p := range b.Phases {
			if !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
			release[p.Name] = release[p.Name] || p.ReleaseWork
		}
	}
	totals := make([]time.Duration, len(complete))
	for i, b := range complete {
		totals[i] = b.Elapsed(now)
	}
	best := DominantPhase{Of: len(complete), OfTotal: Median(totals)}
	for _, name := range names {
		durations := make([]time.Duration, len(complete))
		ran := 0
		for i, b := range complete {
			for _, p := range b.Phases {
				if p.Name == name {
					durations[i] += p.Duration(now)
				}
			}
			if slices.ContainsFunc(b.Phases, func(p PhaseSpan) bool { return p.Name == name }) {
				ran++
			}
		}
		if med := Median(durations); best.Name == "" || med > best.Duration {
			best.Name, best.Duration, best.ReleaseWork, best.Boots = name, med, release[name], ran
		}
	}
	return best
}

// DominantSentence says where the boot time goes, e.g.
// "migrations: 10.2 s of 28.4 s — release work run on every boot".
func (s ColdStartStats) DominantSentence() string {
	d := s.Dominant
	if d.Of == 0 {
		return "no completed cold start yet"
	}
	if d.Name == "" {
		return words.Duration(d.OfTotal, words.Tenths) + " to serve; no phase markers matched"
	}
	line := fmt.Sprintf("%s: %s of %s", d.Name, words.Duration(d.Duration, words.Tenths), words.Duration(d.OfTotal, words.Tenths))
	if d.ReleaseWork {
		if d.Boots == d.Of {
			line += " — release work run on every boot"
		} else {
			line += fmt.Sprintf(" — release work run on %d of %d boots", d.Boots, d.Of)
		}
	}
	return line
}

// BootsPerHour counts cold boots per hour for the last hours hours before
// now, oldest first; the last bucket is the hour ending at now (PerHour).
func BootsPerHour(boots []Boot, now time.Time, hours int) []int {
	if hours <= 0 {
		return nil
	}
	counts := make([]int, hours)
	for _, b := range boots {
		if b.Resume || b.CrashRestart() || b.Begin.After(now) {
			continue
		}
		// Buckets are (now-(k+1)h, now-kh], matching PerHour for the last one.
		ago := int(now.Sub(b.Begin) / time.Hour)
		if ago < hours {
			counts[hours-1-ago]++
		}
	}
	return counts
}

// ColdStartLevel grades boots until serving against limit, the longest a
// client in front of the app waits (the proxy's patience, or a CDN's origin
// timeout): p95 reaching it fails; the slowest boot reaching it, or p95 over
// a third of it, warns. The checklist's item 1 and the org overview read it.
func ColdStartLevel(p95, slowest, limit time.Duration) Level {
	switch {
	case p95 >= limit:
		return Fail
	case slowest >= limit, p95 >= limit/3:
		return Warn
	}
	return Pass
}
