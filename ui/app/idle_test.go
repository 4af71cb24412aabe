package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
)

// quietPlatform serves the fixture's 10 machines, none in transition, and
// nothing new: no log lines, no metrics, canned probe output. It counts the
// calls it answers by kind.
type quietPlatform struct {
	mu    sync.Mutex
	calls map[string]int
}

func (q *quietPlatform) count(kind string) {
	q.mu.Lock()
	q.calls[kind]++
	q.mu.Unlock()
}

func (q *quietPlatform) snapshot() map[string]int {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := map[string]int{}
	for k, v := range q.calls {
		out[k] = v
	}
	return out
}

func newQuietPlatform(t *testing.T, fx fixtureData) (*watch.Source, *quietPlatform) {
	t.Helper()
	q := &quietPlatform{calls: map[string]int{}}
	listing, err := json.Marshal(fx.machines)
	if err != nil {
		t.Fatal(err)
	}
	closing := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		p := r.URL.Path
		switch {
		case strings.HasSuffix(p, "/exec"):
			q.count("exec")
			var in struct{ Cmd string }
			_ = json.NewDecoder(r.Body).Decode(&in)
			out := map[string]any{"exit_code": 0}
			switch {
			case strings.Contains(in.Cmd, "/proc/meminfo"):
				out["stdout"] = fixtureMeminfo
			case strings.Contains(in.Cmd, "/proc/net/tcp"):
				out["stdout"] = fixtureNetTCP
			case strings.HasPrefix(in.Cmd, diagnose.BytecodeProbeCommand()[:20]):
				out["stdout"] = fixtureBytecode
			default:
				out = map[string]any{"exit_code": 127, "stderr": "sh: 1: not found"}
			}
			_ = json.NewEncoder(w).Encode(out)
		case strings.HasSuffix(p, "/wait"):
			// Nothing changes on a quiet platform: a wait holds for its
			// timeout and answers that the state was not reached.
			q.count("wait")
			secs, _ := strconv.Atoi(r.URL.Query().Get("timeout"))
			select {
			case <-time.After(time.Duration(secs) * time.Second):
			case <-r.Context().Done():
			case <-closing:
			}
			w.WriteHeader(http.StatusRequestTimeout)
			_, _ = io.WriteString(w, `{"error":"deadline_exceeded: machine failed to reach desired state"}`)
		case strings.HasSuffix(p, "/machines"):
			q.count("list")
			_, _ = w.Write(listing)
		case strings.HasSuffix(p, "/logs"):
			q.count("logs")
			fmt.Fprintf(w, `{"data":[],"meta":{"next_token":%q}}`, r.URL.Query().Get("next_token"))
		case strings.Contains(p, "/prometheus/"):
			q.count("prometheus")
			_, _ = io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[]}}`)
		default:
			q.count("other " + p)
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(closing) }) // before Close, which waits for the held waits
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: srv.URL, APIURL: srv.URL, Token: "idle-token"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &watch.Source{Client: c, Org: fixtureOrg, Now: time.Now}, q
}

// renderCounter wraps the root and counts, per message type, the Updates
// and the View calls that follow them (bubbletea renders after every
// message), and how many of those frames differed from the one before.
type renderCounter struct {
	inner tea.Model
	stats *renderStats
}

type renderStats struct {
	mu      sync.Mutex
	on      bool
	views   int
	changed int
	byMsg   map[string]int
	last    string
	lastMsg string
}

func (s *renderStats) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on, s.views, s.changed, s.byMsg = true, 0, 0, map[string]int{}
}

func (s *renderStats) stop() (views, changed int, byMsg map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on = false
	return s.views, s.changed, s.byMsg
}

func (c renderCounter) Init() tea.Cmd { return c.inner.Init() }

func (c renderCounter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	c.stats.mu.Lock()
	c.stats.lastMsg = strings.TrimPrefix(fmt.Sprintf("%T", msg), "app.")
	if r, ok := msg.(watch.Reply); ok {
		c.stats.lastMsg += "(" + r.Kind.String()
		if r.Kind == watch.FeedJob {
			c.stats.lastMsg += " " + c.inner.(Model).sched.FeedName(r.Feed)
		}
		c.stats.lastMsg += ")"
	}
	c.stats.mu.Unlock()
	next, cmd := c.inner.Update(msg)
	c.inner = next
	return c, cmd
}

func (c renderCounter) View() string {
	v := c.inner.View()
	s := c.stats
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.on {
		s.views++
		s.byMsg[s.lastMsg]++
		if v != s.last {
			s.changed++
		}
	}
	s.last = v
	return v
}

// TestIdleRendersPerMinute runs the dashboard against a quiet platform and
// counts frames. The header's "updated N s ago" needs one frame a second;
// every other render comes from a refresh timer or its reply. Skipped
// under -short (it runs for ~7 s).
func TestIdleRendersPerMinute(t *testing.T) {
	if testing.Short() {
		t.Skip("idle render count runs for ~7 s")
	}
	t.Parallel()
	const window = 5 * time.Second
	src, q := newQuietPlatform(t, newFixture(10, t0))
	stats := &renderStats{byMsg: map[string]int{}}
	m := renderCounter{inner: New(Config{Source: src, App: fixtureApp, Theme: theme.New(true)}), stats: stats}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 48))
	// Warm up: the first listing, logs page, metrics and the three probes
	// of the started machine.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("3.14.0")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	time.Sleep(500 * time.Millisecond)
	before := q.snapshot()
	stats.start()
	time.Sleep(window)
	views, changed, byMsg := stats.stop()
	after := q.snapshot()
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(3*time.Second))

	perMin := func(n int) float64 { return float64(n) * float64(time.Minute) / float64(window) }
	var causes []string
	for k, v := range byMsg {
		causes = append(causes, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(causes)
	var calls []string
	for k, v := range after {
		if d := v - before[k]; d > 0 {
			calls = append(calls, fmt.Sprintf("%s=%d", k, d))
		}
	}
	sort.Strings(calls)
	t.Logf("idle over %v: %d renders (%.0f/min), %d changed the frame (%.0f/min); by message: %s; platform calls: %s",
		window, views, perMin(views), changed, perMin(changed), strings.Join(causes, " "), strings.Join(calls, " "))

	// One clock, ticking once a second: a second clock would double this.
	// A loaded machine delivers ticks late, never early, so only the upper
	// bound is tight; the lower one says the clock runs at all.
	if ticks, maxTicks := byMsg["clockMsg"], int(window/time.Second)+1; ticks > maxTicks || ticks < 2 {
		t.Errorf("%d clock ticks in %v, want about %d", ticks, window, maxTicks-1)
	}
	// Beyond the clock only refresh timers and their replies may render:
	// with logs every 5 s and a listing every 12 s that is at most
	// 4 (logs) + 2 (listing) per 5 s window; 8 leaves room for a slow machine.
	if other := views - byMsg["clockMsg"]; other > 8 {
		t.Errorf("%d non-clock renders in %v of idling (%s)", other, window, strings.Join(causes, " "))
	}
	// The waits watching the machines hold for their whole poll: none
	// answers, and none starts again, while nothing changes.
	if waits := after["wait"] - before["wait"]; waits > 0 || byMsg["watch.Reply(wait)"] > 0 {
		t.Errorf("%d waits started and %d answered in %v although nothing changed", waits, byMsg["watch.Reply(wait)"], window)
	}
}
