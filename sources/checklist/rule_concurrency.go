package checklist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
)

const concurrencyFix = "Set hard_limit in the service's concurrency block (a little above soft_limit) so the proxy stops feeding a machine that is already drowning, and cap in-flight requests per worker in the app: answer 503 {\"detail\":\"server busy\"} at once instead of queueing."

type limits struct {
	hard      int
	soft      int
	kind      string
	src       string
	noService bool
}

// concurrencyRule: a hard limit, and the CLOSE_WAIT backlog on each machine.
func concurrencyRule(e Evidence) Item {
	b := newItem(IDConcurrency)
	var lim *limits
	if c := e.Concurrency; c != nil && c.FromConfig {
		lim = &limits{soft: c.SoftLimit, kind: c.Type, src: c.Source}
		if c.HardLimit != nil {
			lim.hard = *c.HardLimit
		}
	} else if localFile(b, e, repo.FlyTomlFile) {
		lim = fileLimits(e.Project.FlyToml)
	}
	if lim != nil && lim.noService {
		b.judge(NA, repo.FlyTomlFile, "no [http_service] or [[services]]: the proxy routes no traffic to this app")
		return b.done()
	}
	if lim != nil {
		kind := lim.kind
		if kind == "" {
			kind = "connections"
		}
		if lim.hard > 0 {
			b.judge(Pass, lim.src, "hard_limit %d, soft_limit %d (%s): the proxy stops sending at %d", lim.hard, lim.soft, kind, lim.hard)
		} else {
			b.judge(Warn, lim.src, "no hard_limit (soft_limit %d, %s): the proxy keeps feeding a machine that is already drowning", lim.soft, kind)
		}
	}
	if c := e.Concurrency; c != nil && c.CloseWait != nil {
		closeWait(b, c, lim == nil || lim.hard == 0)
	} else {
		b.item.NeedsRunningMachine = true
		b.note("", "CLOSE_WAIT sockets (/proc/net/tcp, tcp6) need a running machine")
	}
	b.fix(concurrencyFix)
	return b.done()
}

func fileLimits(f *repo.FlyToml) *limits {
	if len(f.Services) == 0 {
		return &limits{noService: true}
	}
	for _, s := range f.Services {
		if c := s.Concurrency; c != nil {
			soft := c.SoftLimit
			if soft == 0 {
				soft = diagnose.DefaultSoftLimit
			}
			return &limits{hard: c.HardLimit, soft: soft, kind: c.Type, src: repo.Source(repo.FlyTomlFile, c.Line)}
		}
	}
	s := f.Services[0]
	return &limits{soft: diagnose.DefaultSoftLimit, src: f.Source(s.Path())}
}

func closeWait(b *itemBuilder, c *Concurrency, noHard bool) {
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
	// The thresholds are the Backlog pane's and the Machines badge's.
	switch diagnose.CloseWaitLevel(worst, !noHard) {
	case diagnose.Fail:
		b.judge(Fail, c.Source, "%s sockets in CLOSE_WAIT (%s): clients gave up long ago and the server still works through their requests while new ones queue behind them", count(total), list)
	case diagnose.Warn:
		b.judge(Warn, c.Source, "%s sockets in CLOSE_WAIT (%s): a backlog of abandoned requests", count(total), list)
	default:
		b.judge(Pass, c.Source, "CLOSE_WAIT sockets: %s", list)
	}
}
