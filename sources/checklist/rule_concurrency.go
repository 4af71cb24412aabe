package checklist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
)

const concurrencyFix = "Set hard_limit in the service's concurrency block (a little above soft_limit) so the proxy stops feeding a machine that is already drowning, and cap in-flight requests per worker in the app: answer 503 {\"detail\":\"server busy\"} at once instead of queueing."

// concurrencyRule: the hard limit of each service as Fly will apply it
// (Fly sets none unless told), what the deploy changes, and the CLOSE_WAIT
// backlog of the deployed machines.
func concurrencyRule(e Evidence) Item {
	b := newItem(IDConcurrency)
	c, ok := configOf(b, e)
	hardLimited := false
	if ok {
		svcs, orphans := c.services()
		for _, o := range orphans {
			b.note(c.f.Source(""), "%s goes to no process group of the app (see the project warnings), so it is not judged", o)
		}
		if len(svcs) == 0 {
			where := "no [http_service] or [[services]]"
			if c.f == nil {
				where = "no service in the machine config"
			}
			b.judge(NA, c.src0(), "%s: the proxy routes no traffic to this app", where)
			return b.done()
		}
		hardLimited = true
		for _, s := range svcs {
			if !judgeLimits(b, c, s) {
				hardLimited = false
			}
		}
	}
	if sk := e.Sockets; sk != nil && sk.CloseWait != nil {
		closeWait(b, sk, platformSource(e, sk.Source), hardLimited)
	} else {
		b.item.NeedsRunningMachine = true
		b.note("", "CLOSE_WAIT sockets (/proc/net/tcp, tcp6) need a running machine")
	}
	b.fix(concurrencyFix)
	return b.done()
}

// src0 is the source of a fact about the config as a whole.
func (c config) src0() string {
	if c.f != nil {
		return c.f.Source("")
	}
	return c.deployedSource("machine config")
}

// judgeLimits judges one service's limits and records what the deploy
// changes; true when a hard limit applies.
func judgeLimits(b *itemBuilder, c config, s service) bool {
	lim := s.concurrency()
	of := ""
	if s.label != "" {
		of = s.label + ": "
	}
	switch {
	case lim.Hard > 0:
		b.judge(Pass, c.src(s, "concurrency.hard_limit"), "%shard_limit %d, soft_limit %d (%s): the proxy stops sending at %d",
			of, lim.Hard, lim.SoftLimit(), lim.Kind(), lim.Hard)
	case lim.Configured:
		b.judge(Warn, c.src(s, "concurrency"), "%sno hard_limit (soft_limit %d, %s), and Fly sets none unless told: the proxy keeps feeding a machine that is already drowning",
			of, lim.SoftLimit(), lim.Kind())
	default:
		what := "no concurrency block"
		if s.project == nil {
			what = "no concurrency in the machine config"
		}
		b.judge(Warn, c.src(s, ""), "%s%s: Fly applies soft_limit %d (connections) and no hard_limit, so the proxy keeps feeding a machine that is already drowning",
			of, what, diagnose.DefaultSoftLimit)
	}
	if d := s.deployed; d != nil {
		dl := d.Concurrency
		c.changed(b, s, "concurrency.type", dl.Kind(), lim.Kind())
		c.changed(b, s, "concurrency.soft_limit", fmt.Sprint(dl.SoftLimit()), fmt.Sprint(lim.SoftLimit()))
		c.changed(b, s, "concurrency.hard_limit", dl.HardLimit(), lim.HardLimit())
	} else if s.project != nil && c.dep != nil {
		b.note(c.src(s, ""), "%sno deployed machine has this service yet: the deploy adds it", of)
	}
	return lim.Hard > 0
}

func closeWait(b *itemBuilder, c *Sockets, source string, hardLimited bool) {
	ids := make([]string, 0, len(c.CloseWait))
	worst, total := 0, 0
	for id, n := range c.CloseWait {
		ids = append(ids, id)
		worst = max(worst, n)
		total += n
	}
	// Largest backlog first, so the number that matters leads.
	slices.SortFunc(ids, func(a, b string) int {
		if c.CloseWait[a] != c.CloseWait[b] {
			return c.CloseWait[b] - c.CloseWait[a]
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("%s on %s", count(c.CloseWait[id]), id))
	}
	list := strings.Join(parts, ", ")
	if len(ids) == 0 {
		list = "no machine probed"
	}
	// The thresholds are the Backlog pane's and the Machines badge's; the
	// hard limit is the one the deploy will apply.
	switch diagnose.CloseWaitLevel(worst, hardLimited) {
	case diagnose.Fail:
		b.judge(Fail, source, "%s sockets in CLOSE_WAIT (%s): clients gave up long ago and the server still works through their requests while new ones queue behind them", count(total), list)
	case diagnose.Warn:
		b.judge(Warn, source, "%s sockets in CLOSE_WAIT (%s): a backlog of abandoned requests", count(total), list)
	default:
		b.judge(Pass, source, "CLOSE_WAIT sockets: %s", list)
	}
}
