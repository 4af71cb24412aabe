package snapshot

import (
	"fmt"
	"sort"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/sanitize"
)

// ProbeKind names what an exec probe reads.
type ProbeKind int

const (
	ProbeMeminfo  ProbeKind = iota // /proc/meminfo, once per boot
	ProbeSockets                   // /proc/net/tcp{,6}, refreshed while the machine runs
	ProbeBytecode                  // the Python bytecode probe, once per image digest
)

// rank is the order due probes run in: the once-per-image bytecode probe,
// then the once-per-boot meminfo, then the socket refreshes, which recur
// every minute and would otherwise take the probe budget before the swap
// and bytecode panes had anything to show.
func (k ProbeKind) rank() int {
	switch k {
	case ProbeBytecode:
		return 0
	case ProbeMeminfo:
		return 1
	}
	return 2
}

func (k ProbeKind) String() string {
	return [...]string{"meminfo", "sockets", "bytecode"}[k]
}

// Command is the exec command line for the probe.
func (k ProbeKind) Command() string {
	switch k {
	case ProbeMeminfo:
		return "cat /proc/meminfo"
	case ProbeSockets:
		return "cat /proc/net/tcp /proc/net/tcp6"
	default:
		return diagnose.BytecodeProbeCommand()
	}
}

// ProbeRequest is one exec the model wants run.
type ProbeRequest struct {
	Kind    ProbeKind
	Machine string
	Key     string
}

// ExecResult is what an exec returned (Err: the call itself failed, with
// Cause when the API failed rather than the machine: auth, api_down, …).
type ExecResult struct {
	Stdout, Stderr string
	ExitCode       int
	Err            error
	Cause          diagnose.Cause
}

// SocketRefresh is how often a running machine's socket table is re-read.
const SocketRefresh = time.Minute

// ProbeRetry is how long a failed probe waits before it is tried again (an
// exec that timed out once should not leave a pane wrong for the whole boot).
const ProbeRetry = 2 * time.Minute

// settled reports whether p answers key and needs no new attempt now.
func settled[T any](p Probe[T], ok bool, key string, now time.Time) bool {
	return ok && p.Key == key && (p.Err == "" || now.Sub(p.At) < ProbeRetry)
}

// bootKey identifies a machine's current boot: probes of meminfo are cached
// per boot (swap use only changes while it runs; a new boot starts clean).
func bootKey(m Machine) string {
	key := m.ID + "/" + m.InstanceID
	for _, e := range m.Events {
		if e.Type == "start" && e.Status == "started" {
			return fmt.Sprintf("%s/%d", key, e.At.UnixMilli())
		}
	}
	return key
}

// ProbesDue lists the probes worth running now, in the order to run them
// (ProbeKind.rank): only on started machines (exec needs a running
// machine, and flywake never wakes one to look at it).
func (a *App) ProbesDue(now time.Time) []ProbeRequest {
	var out []ProbeRequest
	digests := map[string]bool{}
	for _, m := range a.Machines {
		if m.State != "started" {
			continue
		}
		key := bootKey(m)
		if p, ok := a.Meminfo[m.ID]; !settled(p, ok, key, now) {
			out = append(out, ProbeRequest{ProbeMeminfo, m.ID, key})
		}
		if p, ok := a.Sockets[m.ID]; !ok || p.Key != key || now.Sub(p.At) >= SocketRefresh {
			out = append(out, ProbeRequest{ProbeSockets, m.ID, key})
		}
		d := m.ImageDigest
		if d == "" || digests[d] {
			continue
		}
		digests[d] = true
		if p, ok := a.Bytecode[d]; !settled(p, ok, d, now) {
			out = append(out, ProbeRequest{ProbeBytecode, m.ID, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kind.rank() < out[j].Kind.rank() })
	return out
}

// ApplyProbe records a probe's result. What the guest printed is untrusted:
// every string kept from it is made inert.
func (a *App) ApplyProbe(req ProbeRequest, res ExecResult, now time.Time) {
	a.probesRev++
	errText := func(err error) string {
		if err != nil {
			return sanitize.Line(err.Error())
		}
		return ""
	}
	switch req.Kind {
	case ProbeMeminfo:
		p := Probe[diagnose.Meminfo]{Key: req.Key, At: now}
		if res.Err == nil && res.ExitCode == 0 {
			v, err := diagnose.ParseMeminfo(res.Stdout)
			p.Value, p.Err = v, errText(err)
		} else {
			p.Err, p.APIFailed = execError(res), apiFailed(res)
		}
		a.Meminfo[req.Machine] = p
	case ProbeSockets:
		p := Probe[map[string]int]{Key: req.Key, At: now}
		if res.Err == nil && res.ExitCode == 0 {
			socks, err := diagnose.ParseProcNetTCP(res.Stdout)
			p.Value, p.Err = diagnose.CountStates(socks), errText(err)
		} else {
			p.Err, p.APIFailed = execError(res), apiFailed(res)
		}
		clean := make(map[string]int, len(p.Value))
		for state, n := range p.Value {
			clean[sanitize.Line(state)] += n
		}
		p.Value = clean
		a.Sockets[req.Machine] = p
	case ProbeBytecode:
		p := Probe[diagnose.BytecodeReport]{Key: req.Key, At: now}
		if res.Err == nil {
			v, err := diagnose.ParseBytecodeProbe(res.Stdout, res.ExitCode, res.Stderr)
			p.Value, p.Err = cleanBytecode(v), errText(err)
		} else {
			p.Err, p.APIFailed = execError(res), apiFailed(res)
		}
		a.Bytecode[req.Key] = p
	}
}

// apiFailed is the cause of an exec the API failed, "" when the API
// answered (a machine that stopped meanwhile, a command that failed).
func apiFailed(res ExecResult) diagnose.Cause {
	switch res.Cause {
	case diagnose.CauseAuth, diagnose.CauseAPIDown, diagnose.CauseRateLimited, diagnose.CauseBadAnswer:
		return res.Cause
	}
	return ""
}

func execError(res ExecResult) string {
	if res.Err != nil {
		return sanitize.Line(res.Err.Error())
	}
	if res.Stderr != "" {
		return fmt.Sprintf("exit %d: %s", res.ExitCode, sanitize.Line(firstLine(res.Stderr)))
	}
	return fmt.Sprintf("exit %d", res.ExitCode)
}

// cleanBytecode makes the strings the guest reported inert.
func cleanBytecode(r diagnose.BytecodeReport) diagnose.BytecodeReport {
	r.Python, r.CacheTag = sanitize.Line(r.Python), sanitize.Line(r.CacheTag)
	for _, t := range []*diagnose.BytecodeTree{&r.SitePackages, &r.App} {
		t.Dir = sanitize.Line(t.Dir)
		t.ForeignTags = cleanAll(t.ForeignTags)
	}
	return r
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}

func cleanAll(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	return sanitize.Lines(append([]string(nil), ss...))
}
