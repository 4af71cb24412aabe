package app

// Helpers for the soak and the performance tests: the real root model in a
// headless bubbletea program, watched from inside its Update, and counters
// of the process's goroutines, heap, file descriptors and sockets.

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
)

// observed is the root model with hooks run inside Update, on the program's
// goroutine, right after a message was applied: onList after a machines
// listing (the moment the model "holds" what it says), onMsg after any.
type observed struct {
	Model
	onList func(m *Model, msg watch.Reply, at time.Time)
	onMsg  func(m *Model, msg tea.Msg, at time.Time)
}

func (o observed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := o.Model.Update(msg)
	o.Model = next.(Model)
	if lm, ok := msg.(watch.Reply); ok && lm.Kind == watch.ListJob && lm.Err == nil && lm.Gen == o.gen && o.onList != nil {
		o.onList(&o.Model, lm, time.Now())
	}
	if o.onMsg != nil {
		o.onMsg(&o.Model, msg, time.Now())
	}
	return o, cmd
}

// headless runs a model with no terminal: no input, output discarded,
// a fixed window size. stop quits with the user's q and waits for the end.
type headless struct {
	p    *tea.Program
	done chan struct{}
	err  error
}

func runHeadless(t testing.TB, m tea.Model, w, h int) *headless {
	t.Helper()
	hl := &headless{done: make(chan struct{})}
	hl.p = tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	go func() {
		defer close(hl.done)
		_, hl.err = hl.p.Run()
	}()
	hl.p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	return hl
}

func (hl *headless) stop(t testing.TB) {
	t.Helper()
	hl.p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	select {
	case <-hl.done:
	case <-time.After(10 * time.Second):
		hl.p.Kill()
		t.Fatal("the dashboard did not quit within 10 s of q")
	}
	if hl.err != nil {
		t.Fatalf("program: %v", hl.err)
	}
}

// simSource starts sim and a client to it (closed by the caller's cleanup).
func simSource(t testing.TB, sim *flysim.Sim) (*watch.Source, *fly.Client) {
	t.Helper()
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	return &watch.Source{Client: c, Org: sim.Org(), Now: sim.Clock().Now}, c
}

// dashboard is the root model pointed at app, NO_COLOR theme.
func dashboard(src *watch.Source, app string) Model {
	return New(Config{Source: src, App: app, Demo: true, Theme: theme.New(true)})
}

// steadyProfile is an app whose machines never change on their own: all
// started, autostop off, no background traffic needed.
func steadyProfile(name string, machines int) flysim.AppProfile {
	p := flysim.DemoApps()[1] // snappy-api: suspendable, quick boots
	p.Name, p.Machines, p.InitialAwake = name, machines, machines
	p.MoreRegions = nil // exactly machines, in one region
	p.Autostop, p.MinRunning = "off", 0
	return p
}

// machinesAPI sums the Machines API calls by action (logs and prom apart).
func machinesAPI(calls map[string]int) (byAction map[string]int, total int) {
	byAction = map[string]int{}
	for k, n := range calls {
		action := k
		for i := range k {
			if k[i] == ':' {
				action = k[:i]
				break
			}
		}
		byAction[action] += n
		if action != "logs" && action != "prom" {
			total += n
		}
	}
	return byAction, total
}

// processCounts is one sample of the process's resources.
type processCounts struct {
	at         time.Duration // since the run began
	heap       uint64        // live heap after a GC, bytes
	goroutines int
	fds        int
	conns      int // established sockets on the simulator's ports (both ends)
}

func sampleProcess(t0 time.Time, ports map[uint16]bool) processCounts {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return processCounts{at: time.Since(t0), heap: ms.HeapAlloc, goroutines: runtime.NumGoroutine(),
		fds: openFDs(), conns: establishedOn(ports)}
}

// openFDs counts this process's open file descriptors (-1 where /proc is missing).
func openFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// establishedOn counts ESTABLISHED sockets whose local or remote port is one
// of ports: each connection to the simulator shows twice (client and server
// end), as both live in this process.
func establishedOn(ports map[uint16]bool) int {
	n := 0
	for _, f := range []string{"/proc/self/net/tcp", "/proc/self/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		socks, err := diagnose.ParseProcNetTCP(string(b))
		if err != nil {
			continue
		}
		for _, s := range socks {
			if s.State == "ESTABLISHED" && (ports[s.Local.Port()] || ports[s.Remote.Port()]) {
				n++
			}
		}
	}
	return n
}

func portOf(t testing.TB, rawURL string) uint16 {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	return uint16(p)
}

// settle polls cond for up to d; it reports whether cond came true.
func settle(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// perfOn reports whether the opt-in performance measurements run
// (FLYWAKE_PERF=1, set by .ci/perf.sh).
func perfOn() bool { return os.Getenv("FLYWAKE_PERF") != "" }

// perfLine prints one machine-readable figure for .ci/perf.sh: "PERF key value".
var perfMu sync.Mutex

func perfLine(t testing.TB, key string, format string, args ...any) {
	t.Helper()
	v := fmt.Sprintf(format, args...)
	t.Logf("%s = %s", key, v)
	perfMu.Lock()
	fmt.Printf("PERF %s %s\n", key, v)
	perfMu.Unlock()
}
