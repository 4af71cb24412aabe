package machines

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/flywake/flywake/sources/flysim/gate"
	"github.com/flywake/flywake/sources/flysim/rng"
)

// Signals the Machines API accepts (the spec's SignalRequest enum, plus
// SIGUSR2), by name and number: fly-go's Kill sends {"signal":9}, flyctl's
// `machine kill` the name.
var signalNumbers = map[string]int{
	"SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3, "SIGILL": 4, "SIGTRAP": 5, "SIGABRT": 6,
	"SIGFPE": 8, "SIGKILL": 9, "SIGUSR1": 10, "SIGSEGV": 11, "SIGUSR2": 12,
	"SIGPIPE": 13, "SIGALRM": 14, "SIGTERM": 15,
}

// terminating are the signals a typical app server (granian, gunicorn,
// uvicorn) shuts down on; the others it logs and ignores. An image can
// ignore terminating ones too (a shell entrypoint that does not forward
// SIGINT), except SIGKILL.
var terminating = map[string]bool{"SIGINT": true, "SIGTERM": true, "SIGQUIT": true, "SIGKILL": true}

// parseSignal reads a signal as a name ("SIGTERM", "term") or a number.
func parseSignal(raw json.RawMessage) (string, error) {
	var n int
	if err := json.Unmarshal(raw, &n); err == nil {
		for name, num := range signalNumbers {
			if num == n {
				return name, nil
			}
		}
		return "", fmt.Errorf("invalid signal %d", n)
	}
	var name string
	if err := json.Unmarshal(raw, &name); err != nil {
		return "", fmt.Errorf("invalid signal %s", raw)
	}
	name = strings.ToUpper(strings.TrimSpace(name))
	if v, err := strconv.Atoi(name); err == nil {
		return parseSignal(json.RawMessage(strconv.Itoa(v)))
	}
	if !strings.HasPrefix(name, "SIG") {
		name = "SIG" + name
	}
	if _, ok := signalNumbers[name]; !ok {
		return "", fmt.Errorf("invalid signal %q", name)
	}
	return name, nil
}

// serveSignal answers POST …/signal {"signal":"SIGTERM"|9} (`fly machine
// kill`, fly-go's Kill): the signal goes to the main process of a started
// machine. SIGKILL ends it at once (exit 137, so the restart policy
// restarts it); another terminating signal the app handles ends it after its
// graceful shutdown (exit 0); any other is logged and changes nothing.
func (s *Store) serveSignal(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Signal json.RawMessage `json:"signal"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&in); err != nil || len(in.Signal) == 0 {
		gate.WriteError(w, http.StatusBadRequest, "signal is required")
		return
	}
	sig, err := parseSignal(in.Signal)
	if err != nil {
		gate.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.withMachine(w, r, func(m *Machine) reply {
		if rp, held := s.leaseBlocks(m, r); held {
			return rp
		}
		if m.state != "started" {
			return errReply(http.StatusPreconditionFailed, "failed_precondition: machine not running")
		}
		s.signalMachine(m, sig)
		return reply{http.StatusOK, okJSON{OK: true}}
	})
}

// signalMachine delivers sig to m's main process. Callers hold the lock.
func (s *Store) signalMachine(m *Machine, sig string) {
	s.log(m, "app", fmt.Sprintf(" INFO Sending signal %s to main child process w/ PID %d", sig, mainPID))
	switch {
	case sig == "SIGKILL":
		s.log(m, "app", " INFO Main child exited with signal (with signal 'SIGKILL', core dumped? false)")
		s.exited(m, 137, 9)
	case terminating[sig] && !m.image.ignoresSignal(sig):
		run, p := m.run, &m.app.p
		s.sched.After(rng.Between(s.rng, p.StopTook.Min, p.StopTook.Max), func() {
			if m.run == run && m.state == "started" {
				s.log(m, "app", " INFO Main child exited normally with code: 0")
				s.exited(m, 0, -1)
			}
		})
	}
}
