package verdict

import (
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/words"
)

// Crashes is the judged release's crash picture after a listing: what the
// dashboard's banner and its org overview, the checklist's crash item,
// status and verdict say of crashes — all from the one judge.
type Crashes struct {
	Release string // "" when no machine names one
	Judged  int    // machines of the release (neither older nor gone)
	// The release's machines that crash-loop, that the platform gave up
	// restarting, that crashed once and await the look that tells.
	Looping, GaveUp, Watching []string
	// Steady counts the release's machines looked at that did not crash
	// again.
	Steady int
	// Unread is what could not be read and could hide a crash (Result.Unread).
	Unread []Unread
}

// Crashes is the result's crash picture.
func (r Result) Crashes() Crashes {
	c := Crashes{Release: r.Release}
	for _, u := range r.Unread {
		if !u.steady { // a steady machine without a release hides no crash
			c.Unread = append(c.Unread, u)
		}
	}
	for i := range r.Machines { // Judged's machines, without copying them
		m := &r.Machines[i]
		if m.Status == StatusOld || m.Status == StatusGone {
			continue
		}
		c.Judged++
		switch m.Crash.Kind {
		case diagnose.CrashLooping:
			c.Looping = append(c.Looping, m.ID)
		case diagnose.GaveUp:
			c.GaveUp = append(c.GaveUp, m.ID)
		case diagnose.Watching:
			c.Watching = append(c.Watching, m.ID)
		case diagnose.Steady:
			c.Steady++
		}
	}
	return c
}

// Crashing reports whether a machine of the release crash-loops or was
// given up on.
func (c Crashes) Crashing() bool { return len(c.Looping)+len(c.GaveUp) > 0 }

// Level grades it: Fail when a machine crash-loops or was given up on (a
// failure seen stands whatever else could not be read); else Unknown when
// something that could hide a crash could not be read; else Warn while a
// machine that crashed once awaits the look that tells a crash loop from
// one crash; else Pass.
func (c Crashes) Level() diagnose.Level {
	switch {
	case c.Crashing():
		return diagnose.Fail
	case len(c.Unread) > 0:
		return diagnose.Unknown
	case len(c.Watching) > 0:
		return diagnose.Warn
	}
	return diagnose.Pass
}

// UnreadReason says what could not be read, with the counts ("" when
// everything was read).
func (c Crashes) UnreadReason() string {
	if len(c.Unread) == 0 {
		return ""
	}
	return unreadReason(c.ReleaseName(), c.Unread)
}

// WatchingReason says, for a judgement that ends here (status), that one
// look cannot tell a crash loop from one crash, naming the machines (""
// when none awaits a look).
func (c Crashes) WatchingReason() string {
	if len(c.Watching) == 0 {
		return ""
	}
	var ns names
	for _, id := range c.Watching {
		ns.add(id)
	}
	return words.Count(len(c.Watching), "machine", "machines") + " of " + c.ReleaseName() + " crashed since it began (" +
		ns.String() + "): one look cannot tell a crash loop from one crash, and the look that would tell was not taken"
}

// ReleaseName is "release v7", or "the current release".
func (c Crashes) ReleaseName() string { return Result{Release: c.Release}.ReleaseName() }
