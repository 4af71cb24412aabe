package machines

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/gate"
	"github.com/flywake/flywake/sources/flysim/guest"
)

// serveListMachines answers GET /v1/apps/{app}/machines. Filters: region=,
// state= (comma list), metadata.<key>=; destroyed machines only with
// include_deleted=true; unknown keys are accepted and ignored.
func (s *Store) serveListMachines(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	region, deleted := q.Get("region"), q.Get("include_deleted") == "true"
	var states []string
	if v := q.Get("state"); v != "" {
		states = strings.Split(v, ",")
	}
	meta := map[string]string{}
	for k, v := range q {
		if key, ok := strings.CutPrefix(k, "metadata."); ok && len(v) > 0 {
			meta[key] = v[0]
		}
	}
	s.sched.Lock()
	a := s.apps[r.PathValue("app")]
	if a == nil {
		s.sched.Unlock()
		gate.WriteError(w, http.StatusNotFound, "app not found")
		return
	}
	out := make([]MachineJSON, 0, len(a.machines))
	for _, m := range a.machines {
		if (region != "" && m.region != region) || (m.state == "destroyed" && !deleted) {
			continue
		}
		if len(states) > 0 && !inList(states, m.state) {
			continue
		}
		if !metadataMatches(m.cfg.Metadata, meta) {
			continue
		}
		out = append(out, s.wireMachine(m))
	}
	s.sched.Unlock()
	gate.WriteJSON(w, http.StatusOK, out)
}

func metadataMatches(have, want map[string]string) bool {
	for k, v := range want {
		if have[k] != v {
			return false
		}
	}
	return true
}

func inList(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// serveGetMachine answers GET …/machines/{id}[?version=V]: the current
// version, or an earlier one in the terminal state it ended in (replaced,
// migrated), as the docs' machine-states page says a version query sees it.
func (s *Store) serveGetMachine(w http.ResponseWriter, r *http.Request) {
	version := r.URL.Query().Get("version")
	s.withMachine(w, r, func(m *Machine) reply {
		if version == "" {
			return reply{http.StatusOK, s.wireMachine(m)}
		}
		out, ok := s.wireVersion(m, version)
		if !ok {
			return errReply(http.StatusNotFound, "machine version not found")
		}
		return reply{http.StatusOK, out}
	})
}

// transitionReply turns a lifecycle error into the API's answer.
func transitionReply(err error) reply {
	var pe *PreconditionError
	if errors.As(err, &pe) {
		return errReply(http.StatusPreconditionFailed, pe.Text)
	}
	return errReply(http.StatusInternalServerError, err.Error())
}

// serveStart answers POST …/start with the state the machine was in.
func (s *Store) serveStart(w http.ResponseWriter, r *http.Request) {
	s.withMachine(w, r, func(m *Machine) reply {
		if rp, held := s.leaseBlocks(m, r); held {
			return rp
		}
		prev, err := s.startMachine(m, SourceUser)
		if err != nil {
			return transitionReply(err)
		}
		out := startJSON{PreviousState: prev, Migrated: m.migratedTo != "", NewHost: m.migratedTo}
		m.migratedTo = ""
		return reply{http.StatusOK, out}
	})
}

// stopRequest is the stop body; Fly's server names its type main.stopRequest,
// which shows in its decode errors.
type stopRequest struct {
	Signal  string       `json:"signal"`
	Timeout fly.Duration `json:"timeout"`
}

// decodeStop reads an optional stop body, failing as Fly's server does.
func decodeStop(r *http.Request) (stopRequest, error) {
	var in stopRequest
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	if err != nil || len(strings.TrimSpace(string(body))) == 0 {
		return in, nil
	}
	if err := json.Unmarshal(body, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field == "" {
			return in, fmt.Errorf("json: cannot unmarshal %s into Go value of type main.stopRequest", te.Value)
		}
		return in, err
	}
	return in, nil
}

// serveStop answers POST …/stop {"signal","timeout"}.
func (s *Store) serveStop(w http.ResponseWriter, r *http.Request) {
	in, err := decodeStop(r)
	if err != nil {
		gate.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	signal := ""
	if in.Signal != "" {
		sig, err := parseSignal(json.RawMessage(strconv.Quote(in.Signal)))
		if err != nil {
			gate.WriteError(w, http.StatusBadRequest, err.Error())
			return
		}
		signal = sig
	}
	s.withMachine(w, r, func(m *Machine) reply {
		if rp, held := s.leaseBlocks(m, r); held {
			return rp
		}
		if err := s.stopMachineFor(m, SourceUser, signal, in.Timeout.Duration); err != nil {
			return transitionReply(err)
		}
		return reply{http.StatusOK, okJSON{OK: true}}
	})
}

// serveSuspend answers POST …/suspend.
func (s *Store) serveSuspend(w http.ResponseWriter, r *http.Request) {
	s.withMachine(w, r, func(m *Machine) reply {
		if rp, held := s.leaseBlocks(m, r); held {
			return rp
		}
		if err := s.suspendMachine(m, SourceUser); err != nil {
			return transitionReply(err)
		}
		return reply{http.StatusOK, okJSON{OK: true}}
	})
}

// serveRestart answers POST …/restart?signal=&timeout=: a running machine
// goes restarting, its process stopped as a stop would, then boots again;
// one that is not running is simply started. It answers at once.
func (s *Store) serveRestart(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	signal := strings.ToUpper(q.Get("signal"))
	var timeout time.Duration
	if v := q.Get("timeout"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			gate.WriteError(w, http.StatusBadRequest, fmt.Sprintf("invalid timeout %q", v))
			return
		}
		timeout = d
	}
	s.withMachine(w, r, func(m *Machine) reply {
		if rp, held := s.leaseBlocks(m, r); held {
			return rp
		}
		if err := s.restartMachine(m, SourceUser, signal, timeout); err != nil {
			return transitionReply(err)
		}
		return reply{http.StatusOK, okJSON{OK: true}}
	})
}

// startWhenStopped polls (in platform time) until the stop of run finishes,
// then starts the machine; anything else happening to it first cancels.
func (s *Store) startWhenStopped(m *Machine, run uint64) {
	s.sched.After(250*time.Millisecond, func() {
		switch {
		case m.run != run:
		case m.state == "stopped":
			_, _ = s.startMachine(m, SourceUser)
		default:
			s.startWhenStopped(m, run)
		}
	})
}

// Waitable states; "settled" (flyctl's default) is any persistent state.
var waitStates = map[string]bool{"started": true, "stopped": true, "suspended": true, "destroyed": true, "settled": true}

func stateReached(state string, want []string) bool {
	for _, w := range want {
		if w == state {
			return true
		}
		if w == "settled" && (state == "started" || state == "stopped" || state == "suspended" ||
			state == "created" || state == "failed" || state == "destroyed") {
			return true
		}
	}
	return false
}

// passedThrough reports whether m recorded an event of a wanted status
// since it had recorded seq events: a crash the restart policy restarts is
// an exit event whose status is "stopped" — the state the machine is in
// when flyd starts it again — so a wait for stopped returns on it, though
// the machine is restarting by the time the waiter looks. (Fly documents
// the wait only as "until the machine reaches the state"; that the exit
// counts is read from the event's status.)
func passedThrough(m *Machine, seq uint64, want []string) bool {
	n := min(m.eventSeq-seq, uint64(len(m.events)))
	for _, ev := range m.events[:n] {
		if slices.Contains(want, ev.Status) {
			return true
		}
	}
	return false
}

// serveWait answers GET …/wait?state=&state=&timeout=&version=|instance_id=&from_event_id=.
// It blocks on the machine's change signal in WALL time, for at most 60 s,
// and returns once the machine is in a wanted state or has passed through
// one (passedThrough). from_event_id is accepted and ignored. A version (or
// instance_id) that is no longer the machine's current one means that
// version was replaced, which counts as down: a wait for stopped, destroyed
// or settled returns at once; other waits follow the current version.
func (s *Store) serveWait(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	want := q["state"]
	if len(want) == 0 {
		want = []string{"started"}
	}
	for _, st := range want {
		if !waitStates[st] {
			gate.WriteError(w, http.StatusBadRequest, fmt.Sprintf("invalid state %q", st))
			return
		}
	}
	timeout, err := waitTimeout(q.Get("timeout"))
	if err != nil {
		gate.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	version := q.Get("version")
	if version == "" {
		version = q.Get("instance_id")
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var seq uint64
	for first := true; ; first = false {
		s.sched.Lock()
		m, rp := s.lookupMachine(r)
		if m == nil {
			s.sched.Unlock()
			rp.write(w)
			return
		}
		if first {
			seq = m.eventSeq
		}
		state, changed := m.state, m.changed
		replaced := version != "" && version != m.instanceID
		passed := passedThrough(m, seq, want)
		s.sched.Unlock()
		if stateReached(state, want) || passed || (replaced && (inList(want, "stopped") || inList(want, "destroyed") || inList(want, "settled"))) {
			gate.WriteJSON(w, http.StatusOK, okJSON{OK: true})
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			gate.WriteError(w, http.StatusRequestTimeout, fmt.Sprintf(
				"deadline_exceeded: machine failed to reach desired state, %s, currently %s", strings.Join(want, "|"), state))
			return
		case <-r.Context().Done():
			return
		case <-s.opts.Closing:
			gate.WriteError(w, http.StatusServiceUnavailable, "platform shutting down")
			return
		}
	}
}

// waitTimeout parses the wait timeout: seconds (or a Go duration), default
// and cap 60 s, at least 1 s.
func waitTimeout(v string) (time.Duration, error) {
	const limit = 60 * time.Second
	if v == "" {
		return limit, nil
	}
	d := time.Duration(0)
	if n, err := strconv.Atoi(v); err == nil {
		d = time.Duration(n) * time.Second
	} else if pd, err := time.ParseDuration(v); err == nil {
		d = pd
	} else {
		return 0, fmt.Errorf("invalid timeout %q", v)
	}
	return min(max(d, time.Second), limit), nil
}

// serveEvents answers GET …/events[?limit=N]: the machine's kept events,
// newest first.
func (s *Store) serveEvents(w http.ResponseWriter, r *http.Request) {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	s.withMachine(w, r, func(m *Machine) reply { return reply{http.StatusOK, wireEvents(m.events, max(limit, 0))} })
}

// serveGetMetadata answers GET …/metadata with config.metadata.
func (s *Store) serveGetMetadata(w http.ResponseWriter, r *http.Request) {
	s.withMachine(w, r, func(m *Machine) reply {
		out := make(map[string]string, len(m.cfg.Metadata))
		for k, v := range m.cfg.Metadata {
			out[k] = v
		}
		return reply{http.StatusOK, out}
	})
}

// serveSetMetadata answers POST …/metadata/{key} {"value":"…"} with 204.
func (s *Store) serveSetMetadata(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Value string `json:"value"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&in); err != nil {
		gate.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	key := r.PathValue("key")
	s.withMachine(w, r, func(m *Machine) reply {
		s.editMetadata(m, func(md map[string]string) { md[key] = in.Value })
		return reply{status: http.StatusNoContent}
	})
}

// serveDeleteMetadata answers DELETE …/metadata/{key} with 204.
func (s *Store) serveDeleteMetadata(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("key")
	s.withMachine(w, r, func(m *Machine) reply {
		s.editMetadata(m, func(md map[string]string) { delete(md, key) })
		return reply{status: http.StatusNoContent}
	})
}

// editMetadata copies the config before editing it: published configs are
// shared with responses being encoded outside the lock. Callers hold the lock.
func (s *Store) editMetadata(m *Machine, edit func(map[string]string)) {
	cfg := *m.cfg
	cfg.Metadata = make(map[string]string, len(m.cfg.Metadata)+1)
	for k, v := range m.cfg.Metadata {
		cfg.Metadata[k] = v
	}
	edit(cfg.Metadata)
	m.setConfig(&cfg)
	m.updatedAt = s.now()
}

// servePs answers GET …/ps with the guest's main processes.
func (s *Store) servePs(w http.ResponseWriter, r *http.Request) {
	s.withMachine(w, r, func(m *Machine) reply {
		if m.state != "started" {
			return errReply(http.StatusPreconditionFailed, "failed_precondition: machine not running")
		}
		return reply{http.StatusOK, s.Guest(m).Processes(s.now())}
	})
}

// serveExec answers POST …/exec with the simulated guest's answer. The body
// carries "cmd" (a string, what fly-go sends) or "command" (an argv array).
func (s *Store) serveExec(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Cmd     string   `json:"cmd"`
		Command []string `json:"command"`
		Timeout int      `json:"timeout"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in); err != nil {
		gate.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	if in.Cmd == "" && len(in.Command) == 0 {
		gate.WriteError(w, http.StatusBadRequest, "cmd or command is required")
		return
	}
	s.sched.Lock()
	m, rp := s.lookupMachine(r)
	var g guest.View
	if m != nil {
		if m.state != "started" {
			rp = errReply(http.StatusPreconditionFailed, "failed_precondition: machine not running")
			m = nil
		} else {
			g = s.Guest(m)
		}
	}
	s.sched.Unlock()
	if m == nil {
		rp.write(w)
		return
	}
	if f, ok := s.gate.FaultFor("exec"); ok && f.ExecTimeout {
		timeout := time.Duration(in.Timeout) * time.Second
		if timeout <= 0 {
			timeout = 30 * time.Second
		}
		// The command runs on the guest, so its timeout is the platform's
		// time, as the proxy's patience is: at Speed 10 it ends in a tenth.
		t := time.NewTimer(s.clock.WallDuration(timeout))
		defer t.Stop()
		select {
		case <-t.C:
			gate.WriteError(w, http.StatusRequestTimeout, "deadline_exceeded: exec timed out")
		case <-r.Context().Done():
		case <-s.opts.Closing:
		}
		return
	}
	gate.WriteJSON(w, http.StatusOK, g.Exec(in.Cmd, in.Command))
}
