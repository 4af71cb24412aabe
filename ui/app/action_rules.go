package app

import (
	"fmt"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/panes/machines"
)

// refusal says why action makes no sense for mc as the last listing shows
// it, or "" when the user may be asked. It answers before any call, so
// nothing is sent for a start of a started machine; the API still has the
// last word (its 412 text is shown as it comes).
func refusal(a machines.Action, mc snapshot.Machine, app string) string {
	if mc.ID == "" {
		return "machine is not listed — nothing to " + a.String()
	}
	id, state := mc.ID, mc.State
	nothing := "machine " + id + " is " + state + " — nothing to " + a.String()
	settle := "machine " + id + " is " + state + " — " + a.String() + " it once it has settled"
	phase := diagnose.Classify(state)
	if phase == diagnose.Gone {
		return nothing
	}
	switch a {
	case machines.ActionStart, machines.ActionResume:
		switch phase {
		case diagnose.Awake, diagnose.Waking:
			return nothing
		case diagnose.Sleeping:
			return settle
		}
	case machines.ActionStop:
		switch {
		case phase == diagnose.Sleeping:
			return nothing
		case phase == diagnose.Asleep && state != "suspended": // stopping a suspended machine drops its snapshot
			return nothing
		}
	case machines.ActionSuspend:
		switch phase {
		case diagnose.Asleep, diagnose.Troubled, diagnose.Sleeping:
			return nothing
		case diagnose.Waking:
			return settle
		case diagnose.Awake:
			return suspendBlocked(mc, app)
		}
	}
	return ""
}

// suspendBlocked is why the config rules suspend out, or "". With the
// config unknown the API decides.
func suspendBlocked(mc snapshot.Machine, app string) string {
	if mc.Config == nil {
		return ""
	}
	blockers := mc.Config.SuspendBlockers
	if len(blockers) == 0 {
		return ""
	}
	return "won't suspend " + mc.ID + " of " + app + ": its config blocks suspend — " +
		strings.Join(blockers, ", ") + ". Fly would refuse it; stop it instead"
}

// promptText is the confirmation: what, which machine in which state, of
// which app (the prompt adds y/N).
func promptText(a machines.Action, id, state, app string) string {
	verb := a.String()
	return strings.ToUpper(verb[:1]) + verb[1:] + " machine " + id + " (" + state + ") of " + app + "?"
}

// actionWarnings say what an action costs beyond itself, before it is
// confirmed: a stop of a suspended machine throws its snapshot away, and a
// stop or suspend of a started machine may leave fewer running in the
// primary region than min_machines_running (which holds only there).
func actionWarnings(a machines.Action, mc snapshot.Machine, all []snapshot.Machine) []string {
	var out []string
	if a == machines.ActionStop && mc.State == "suspended" {
		out = append(out, "stopping discards "+mc.ID+"'s suspend snapshot: its next start is a cold boot, not a resume")
	}
	if a == machines.ActionStart || a == machines.ActionResume || mc.State != "started" || !mc.InPrimaryRegion() {
		return out
	}
	if mc.Config == nil || mc.Config.MinRunning == nil || *mc.Config.MinRunning <= 0 {
		return out
	}
	minRun := *mc.Config.MinRunning
	running := 0
	for _, o := range all {
		if o.State == "started" && o.ProcessGroup == mc.ProcessGroup && o.InPrimaryRegion() {
			running++
		}
	}
	if left := running - 1; left < minRun { // mc is in the primary region: its own is that
		out = append(out, fmt.Sprintf("this leaves %s running in %s (the primary region), fewer than min_machines_running = %d",
			words.Count(left, "machine", "machines"), mc.Region, minRun))
	}
	return out
}
