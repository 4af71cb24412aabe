package checklist

import (
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/words"
)

const crashFix = "Roll back to the previous release and read the first crash's log lines. Judge a deploy by the newest crash timestamp, not a crash count: the platform keeps only the newest 5 events per machine, so a count stops moving once the list is full."

// crashLoopRule: the current release's crash-loop verdict.
func crashLoopRule(e Evidence) Item {
	b := newItem(IDCrashLoop)
	c := e.Crash
	// A failure seen stands; then what could not be read; then a pass
	// only when the events judged say so.
	switch {
	case c == nil:
		b.judge(Unknown, "", "machine events not read yet")
	case c.GaveUp:
		reason := c.Reason
		if reason == "" {
			reason = "the platform gave up restarting: the machine reached its max restart count and stays stopped"
		}
		b.judge(Fail, c.Source, "%s", reason)
	case c.Looping:
		reason := c.Reason
		if reason == "" {
			reason = "the machine has crashed repeatedly since the deploy and is still restarting"
		}
		b.judge(Fail, c.Source, "%s", reason)
	case c.Unread > 0:
		// What could not be read may be the crash loop: never a pass.
		reason := c.UnreadReason
		if reason == "" {
			reason = words.Count(c.Unread, "part of the machines answer", "parts of the machines answer") + " could not be read: a crash loop could hide there"
		}
		b.cannotReadAnswer(diagnose.CauseBadAnswer, c.Source, "%s", reason)
	case !c.Known:
		reason := c.Reason
		if reason == "" {
			reason = "not enough events since the release to judge"
		}
		b.judge(Unknown, c.Source, "%s", reason)
	default:
		reason := c.Reason
		if reason == "" {
			reason = "no new crash since the release: the newest crash timestamp did not move"
		}
		b.judge(Pass, c.Source, "%s", reason)
	}
	if c != nil && c.Machines > 0 {
		b.note(c.Source, "%s judged", words.Count(c.Machines, "machine", "machines"))
	}
	b.fix(crashFix)
	return b.done()
}
