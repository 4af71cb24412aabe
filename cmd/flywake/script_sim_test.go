package main

import (
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/flywake/flywake/sources/flysim"
)

// scriptState is what a script's own commands started: one platform and
// one counting listener at most.
type scriptState struct {
	sim      *flysim.Sim
	listener *countingListener
}

var scripts sync.Map // *testscript.TestScript → *scriptState

func stateOf(ts *testscript.TestScript) *scriptState {
	st, _ := scripts.LoadOrStore(ts, &scriptState{})
	return st.(*scriptState)
}

// scriptSimToken is the token of a script's platform: recognisable, so a
// script can look for it in everything flywake printed.
const scriptSimToken = "fo1_CANARY_script_sim_0123456789abcdef"

// sim start | pause | resume | fault ENDPOINT down|reset|html|null|clear
//
// start runs flysim on 127.0.0.1 in the test (seed 3, 20 times faster than
// the wall, no background traffic) and points the real-platform path at it
// for the rest of the script, as a user's environment points flywake at
// Fly: FLY_FLAPS_BASE_URL, FLY_API_BASE_URL, FLY_API_TOKEN (SIM_TOKEN).
// pause takes its API off the network; fault installs one of its faults on
// an endpoint ("list", "logs", "prom", "*", …): down answers 500, reset
// drops the connection, html answers 200 with a web page, null adds a null
// machine, check and event to the answer.
func cmdSim(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: sim start | pause | resume | fault ENDPOINT KIND")
	}
	st := stateOf(ts)
	if args[0] != "start" && st.sim == nil {
		ts.Fatalf("sim %s before sim start", args[0])
	}
	switch args[0] {
	case "start":
		sim := flysim.New(flysim.Options{Seed: 3, Speed: 20, NoTraffic: true, Token: scriptSimToken})
		if err := sim.Start(); err != nil {
			ts.Fatalf("sim: %v", err)
		}
		ts.Defer(func() { _ = sim.Close(); scripts.Delete(ts) })
		st.sim = sim
		ts.Setenv("FLY_FLAPS_BASE_URL", sim.URL())
		ts.Setenv("FLY_API_BASE_URL", sim.URL())
		ts.Setenv("FLY_API_TOKEN", sim.Token())
		ts.Setenv("SIM_TOKEN", sim.Token())
	case "pause":
		ts.Check(st.sim.Pause())
	case "resume":
		ts.Check(st.sim.Resume())
	case "fault":
		if len(args) != 3 {
			ts.Fatalf("usage: sim fault ENDPOINT down|reset|html|null|clear")
		}
		var f flysim.Fault
		switch args[2] {
		case "down":
			f = flysim.Fault{Rate5xx: 1, Status5xx: 500}
		case "reset":
			f = flysim.Fault{Reset: true}
		case "html":
			f = flysim.Fault{Body: "<html><body>502 Bad Gateway</body></html>"}
		case "null":
			f = flysim.Fault{NullEntries: true}
		case "clear":
			st.sim.ClearFaults()
			return
		default:
			ts.Fatalf("sim fault: unknown kind %q", args[2])
		}
		st.sim.SetFault(args[1], f)
	default:
		ts.Fatalf("sim: unknown subcommand %q", args[0])
	}
}

// listen starts a listener on 127.0.0.1 that accepts connections, counts
// them and closes them at once, and sets LISTEN_URL to it: a stand-in for
// a remote platform (or a proxy) that must never be reached.
// connections N checks how many connections it accepted (! connections N:
// any other number).
func cmdListen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: listen")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	l := &countingListener{ln: ln, marked: make(chan struct{})}
	go l.serve()
	stateOf(ts).listener = l
	ts.Defer(func() { _ = ln.Close() })
	ts.Setenv("LISTEN_URL", "http://"+ln.Addr().String())
}

func cmdConnections(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: [!] connections N")
	}
	l := stateOf(ts).listener
	if l == nil {
		ts.Fatalf("connections before listen")
	}
	want, err := strconv.ParseInt(args[0], 10, 64)
	ts.Check(err)
	got, err := l.count()
	ts.Check(err)
	if (got == want) == neg {
		ts.Fatalf("the listener accepted %d connections, want %s%d", got, map[bool]string{true: "other than "}[neg], want)
	}
}

// countingListener counts the connections it accepts, one at a time in
// the order the kernel queued them.
type countingListener struct {
	ln     net.Listener
	n      atomic.Int64
	marked chan struct{} // a count's own connection was accepted
}

// marker is what a count's own connection sends first.
const marker = "flywake-count\n"

func (l *countingListener) serve() {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		buf := make([]byte, len(marker))
		if n, _ := io.ReadFull(c, buf); string(buf[:n]) == marker {
			l.marked <- struct{}{}
		} else {
			l.n.Add(1)
		}
		_ = c.Close()
	}
}

// count is the number of connections accepted so far: it connects once
// itself and waits for that connection to be accepted, so every
// connection queued before it has been counted.
func (l *countingListener) count() (int64, error) {
	c, err := net.Dial("tcp", l.ln.Addr().String())
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if _, err := io.WriteString(c, marker); err != nil {
		return 0, err
	}
	select {
	case <-l.marked:
		return l.n.Load(), nil
	case <-time.After(10 * time.Second):
		return 0, errors.New("the listener did not accept its own connection")
	}
}
