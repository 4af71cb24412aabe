package machines

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Churn actions, as counted by Churner.Counts.
const (
	ChurnStart   = "start"   // a stopped machine cold-boots, a suspended one resumes
	ChurnStop    = "stop"    // a started or suspended machine stops
	ChurnSuspend = "suspend" // a started machine suspends
	ChurnCrash   = "crash"   // a started machine exits 1 and flyd restarts it
	ChurnRestart = "restart" // a started machine stops, then starts
	ChurnDeploy  = "deploy"  // every machine is replaced by a new release
	ChurnBusy    = "busy"    // the picked machine was mid-transition: nothing done
)

// churnDeployOdds: one action in this many redeploys the whole app, so a
// long soak also passes through "replacing".
const churnDeployOdds = 600

// Churner drives one app's machines through every state on the platform's own
// scheduler (platform time, so --speed speeds it up). Soak tests use it; no
// demo app churns.
type Churner struct {
	s       *Store
	a       *App
	every   time.Duration
	rng     *rand.Rand // its own: churn never shifts the platform's draws
	stopped bool
	counts  map[string]int
}

// Churn starts churning app: about every `every` of platform time (jittered
// ±50 %) one machine picked at random is started, stopped, suspended,
// crashed or restarted, whichever its state allows, and now and then the whole
// app is redeployed. Call Stop to end it.
func (s *Store) Churn(app string, every time.Duration) (*Churner, error) {
	if every <= 0 {
		return nil, fmt.Errorf("flysim: churn interval must be positive, got %s", every)
	}
	s.sched.Lock()
	defer s.sched.Unlock()
	a := s.apps[app]
	if a == nil || len(a.machines) == 0 {
		return nil, fmt.Errorf("flysim: no machines to churn in app %q", app)
	}
	c := &Churner{s: s, a: a, every: every, counts: map[string]int{},
		rng: rand.New(rand.NewPCG(s.opts.Seed^0xc4e2, uint64(len(a.machines))))}
	s.sched.After(c.next(), c.step)
	return c, nil
}

// Stop ends the churn; machines finish the transition they are in.
func (c *Churner) Stop() {
	c.s.sched.Lock()
	c.stopped = true
	c.s.sched.Unlock()
}

// Counts is how many times each action was taken so far.
func (c *Churner) Counts() map[string]int {
	c.s.sched.Lock()
	defer c.s.sched.Unlock()
	out := make(map[string]int, len(c.counts))
	for k, v := range c.counts {
		out[k] = v
	}
	return out
}

func (c *Churner) next() time.Duration {
	return c.every/2 + time.Duration(c.rng.Int64N(int64(c.every)+1))
}

// step runs on the scheduler with the lock held.
func (c *Churner) step() {
	if c.stopped {
		return
	}
	c.counts[c.act()]++
	c.s.sched.After(c.next(), c.step)
}

// act applies one action and names it. Callers hold the lock.
func (c *Churner) act() string {
	s := c.s
	if c.rng.IntN(churnDeployOdds) == 0 {
		s.deploy(c.a, c.a.p.Release)
		return ChurnDeploy
	}
	m := c.a.machines[c.rng.IntN(len(c.a.machines))]
	switch m.state {
	case "stopped", "created":
		if _, err := s.startMachine(m, SourceUser); err == nil {
			return ChurnStart
		}
	case "suspended":
		if c.rng.IntN(3) == 0 {
			if s.stopMachine(m, SourceUser, "") == nil {
				return ChurnStop
			}
		} else if _, err := s.startMachine(m, SourceUser); err == nil {
			return ChurnStart
		}
	case "started":
		if !m.serving {
			return ChurnBusy // still booting its app
		}
		switch c.rng.IntN(4) {
		case 0:
			if s.stopMachine(m, SourceUser, "") == nil {
				return ChurnStop
			}
		case 1:
			if s.suspendMachine(m, SourceUser) == nil {
				return ChurnSuspend
			}
			if s.stopMachine(m, SourceUser, "") == nil { // suspend blocked by config
				return ChurnStop
			}
		case 2:
			s.crash(m)
			return ChurnCrash
		default:
			if s.stopMachine(m, SourceUser, "") == nil {
				s.startWhenStopped(m, m.run)
				return ChurnRestart
			}
		}
	}
	return ChurnBusy
}
