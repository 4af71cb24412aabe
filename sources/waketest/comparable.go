package waketest

import (
	"fmt"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/words"
)

// The proxy sends a request to a serving machine under its soft limit, then
// holds it for a booting one under its soft limit, and only when every
// awake machine is at its soft limit wakes a sleeping one (the simulator's
// sources/flysim/proxy/route.go follows Fly's documented order). A machine
// kept running therefore answers the first soft-limit requests of a burst,
// and every one that finishes frees a place for the next: a burst too small
// for the machines awake wakes fewer machines than were put to sleep, and
// its figures are mostly the awake machines' — a warm request, not a wake.

// Coverage is how far a run's requests reached the machines it put to sleep.
type Coverage struct {
	Asleep int // targets asleep when the requests went out
	Woken  int // of which reached started during the burst
	// Awake counts the group's machines that were up when the requests went
	// out (kept running, or woken by other traffic), and ServedByAwake our
	// 2xx they answered.
	Awake, ServedByAwake int
}

// Coverage reads the run's machines: a saved result of any age has them.
func (r Run) Coverage() Coverage {
	var c Coverage
	for _, m := range r.Machines {
		phase := diagnose.Classify(m.AtBurst)
		switch {
		case m.Target && phase == diagnose.Asleep:
			c.Asleep++
			if m.StartedMS >= 0 {
				c.Woken++
			}
		case phase == diagnose.Awake,
			// Not listed when the requests went out (another group, or
			// created meanwhile), never started during them, yet it
			// answered: it was up.
			m.AtBurst == "" && m.StartedMS < 0 && m.Served > 0:
			c.Awake++
			c.ServedByAwake += m.Served
		}
	}
	return c
}

// Absorbed reports whether the awake machines answered requests meant for
// the sleeping ones, so that fewer woke than were put to sleep.
func (c Coverage) Absorbed() bool {
	return c.Asleep > 0 && c.Woken < c.Asleep && c.ServedByAwake > 0
}

// NeededRequests is the smallest burst that, arriving at once, leaves the
// proxy no awake machine under its soft limit until it has woken every one
// of asleep: soft for each machine awake, soft held for each woken one but
// the last, and one more to wake the last.
func NeededRequests(awake, asleep, soft int) int {
	if asleep <= 0 {
		return 0
	}
	return (awake+asleep-1)*max(soft, 1) + 1
}

// MaxWoken is how many of asleep a burst of n arriving at once makes the
// proxy wake, at most; requests that finish quickly free places on the
// awake machines and make it fewer.
func MaxWoken(n, awake, asleep, soft int) int {
	soft = max(soft, 1)
	left := n - awake*soft
	if left <= 0 {
		return 0
	}
	return min((left+soft-1)/soft, asleep)
}

// SuggestedRequests is NeededRequests with one more soft limit's worth:
// while the burst goes out, requests finish on the awake machines and
// free places the proxy fills before it wakes the next one (on the demo's
// snappy-api, 61 requests woke 4 of 5 machines and 73 woke all 5).
func SuggestedRequests(awake, asleep, soft int) int {
	if asleep <= 0 {
		return 0
	}
	return NeededRequests(awake, asleep, soft) + max(soft, 1)
}

// remedy says how to make the awake machines leave the wakes alone.
func remedy(awake, asleep, soft int) string {
	need := SuggestedRequests(awake, asleep, soft)
	if need > MaxRequests {
		return fmt.Sprintf("put every machine to sleep (flywake wake --all): waking all %d would take %s requests, more than the test sends",
			asleep, words.Thousands(need))
	}
	return fmt.Sprintf("send at least %s requests, or put every machine to sleep (flywake wake --all)",
		words.Thousands(need))
}

// WakeAdvice warns, before the test, when requests cannot make the proxy
// wake every target past the machines that stay running, and says what
// would; "" when they can, or when nothing stays running (every request
// then goes to a machine that woke).
func (p *Plan) WakeAdvice(requests int) string {
	asleep, awake, soft := len(p.Targets), p.Running, p.SoftLimit
	if asleep == 0 || awake == 0 || requests >= SuggestedRequests(awake, asleep, soft) {
		return ""
	}
	take := "it takes"
	if awake > 1 {
		take = "they take"
	}
	return fmt.Sprintf("%s up: %s %d requests at once (soft limit %d each) before the proxy wakes a sleeping machine and holds %d for each one it wakes, "+
		"so %d requests wake at most %d of the %d targets and the machines up answer the rest: the figures would be theirs, not a wake's — %s",
		words.Count(awake, "machine stays", "machines stay"), take, awake*soft, soft, soft,
		requests, MaxWoken(requests, awake, asleep, soft), asleep, remedy(awake, asleep, soft))
}

// notComparable says why a run's figures do not measure its wakes (the
// awake machines answered requests meant for the sleeping ones), and what
// would make them: "" and "" when they do. soft is the service's soft limit
// (0 when unknown: no remedy with a number).
func notComparable(r Run, soft int) (why, fix string) {
	c := r.Coverage()
	if !c.Absorbed() {
		return "", ""
	}
	why = fmt.Sprintf("the %s awake answered %d of our %d requests, so only %d of the %d machines put to sleep woke: these figures are mostly warm requests, not wakes",
		words.Count(c.Awake, "machine", "machines"), c.ServedByAwake, r.Sent, c.Woken, c.Asleep)
	if soft > 0 {
		fix = remedy(c.Awake, c.Asleep, soft)
	}
	return why, fix
}

// Comparison says whether the report's runs can be read against each other
// (stop against suspend, or against another test), why not, and what would
// make them comparable: a run whose awake machines absorbed the requests
// cannot be, and neither can a stop run that answered faster than the
// suspend run, which a cold boot does not do against a resume. It reads the
// runs' machines, so results saved before this judgement was recorded are
// judged too.
func (r *Report) Comparison() (ok bool, because []string, fix string) {
	because = []string{}
	most := 0
	for _, run := range r.Runs {
		why, f := notComparable(run, r.SoftLimit)
		if why == "" {
			continue
		}
		because = append(because, string(run.Mode)+" run: "+why)
		if c := run.Coverage(); f != "" && SuggestedRequests(c.Awake, c.Asleep, r.SoftLimit) > most {
			most, fix = SuggestedRequests(c.Awake, c.Asleep, r.SoftLimit), f
		}
	}
	stop, sus := r.Run(ModeStop), r.Run(ModeSuspend)
	if len(because) == 0 && stop != nil && sus != nil && stop.OK > 0 && sus.OK > 0 && stop.P50MS < sus.P50MS {
		because = append(because, fmt.Sprintf("the stop run answered faster than the suspend run (p50 %s against %s), which a cold boot does not do against a resume: "+
			"read which machines served each run before trusting either", FormatMS(stop.P50MS), FormatMS(sus.P50MS)))
	}
	return len(because) == 0, because, fix
}

// judge records the comparison in the report's and runs' JSON fields.
func (r *Report) judge() {
	for i := range r.Runs {
		run := &r.Runs[i]
		c := run.Coverage()
		run.TargetsAsleep, run.TargetsWoken, run.ServedByAwake = c.Asleep, c.Woken, c.ServedByAwake
		why, fix := notComparable(*run, r.SoftLimit)
		run.NotComparable = why
		if fix != "" {
			run.NotComparable += " — " + fix
		}
	}
	r.Comparable, r.NotComparableBecause, r.ComparableIf = r.Comparison()
}
