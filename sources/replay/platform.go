// Package replay serves a recording (sources/record) as the platform it
// recorded: the Machines API, the logs API and the Prometheus API on
// 127.0.0.1, answering as Fly answered at the clock's instant. The
// dashboard, status, verdict and check reach it with the same fly-go
// client as Fly itself: a replay is not a second code path.
//
// It reuses the embedded platform's parts where they carry over: its gate
// (token, call counters, rate limits, request ids), its logs API (JSON:API
// pages behind next_token) over the recorded lines, and its PromQL engine
// over the recorded counters. Machines are served as fly-go's JSON, spliced
// from the recorded entries, configs and events. It is read-only: every
// call that would change something is refused with a 412 saying so.
package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flywake/flywake/sources/flysim/gate"
	"github.com/flywake/flywake/sources/flysim/logs"
	"github.com/flywake/flywake/sources/flysim/promql"
	"github.com/flywake/flywake/sources/flysim/rng"
	"github.com/flywake/flywake/sources/record"
)

// Options configure a Platform.
type Options struct {
	Addr  string // default 127.0.0.1:0
	Token string // the accepted API token; default: random per run
	// LogsPageSize is the most lines one logs page holds; default 1000,
	// as the embedded platform pages.
	LogsPageSize int
}

// Platform is one recording served at its clock's instant.
type Platform struct {
	rec   *record.Recording
	clock *Clock
	opts  Options
	gate  *gate.Gate

	mu  sync.Mutex
	srv *http.Server
	url string
}

// New serves rec at clock's instant; Start listens.
func New(rec *record.Recording, clock *Clock, o Options) *Platform {
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.Token == "" {
		o.Token = "replay_" + rng.Hex(rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11)), 32)
	}
	if o.LogsPageSize <= 0 {
		o.LogsPageSize = 1000
	}
	p := &Platform{rec: rec, clock: clock, opts: o}
	p.gate = gate.New(gate.Config{Token: o.Token, Seed: 1, Region: "iad", Now: clock.Now, Wall: time.Now})
	return p
}

// Start listens on Options.Addr and serves until Close.
func (p *Platform) Start() error {
	ln, err := net.Listen("tcp", p.opts.Addr)
	if err != nil {
		return fmt.Errorf("replay: listen %s: %w", p.opts.Addr, err)
	}
	srv := &http.Server{Handler: p.Handler(), ReadHeaderTimeout: 10 * time.Second}
	p.mu.Lock()
	p.srv, p.url = srv, "http://"+ln.Addr().String()
	p.mu.Unlock()
	go func() { _ = srv.Serve(ln) }()
	return nil
}

// Close stops serving.
func (p *Platform) Close() error {
	p.mu.Lock()
	srv := p.srv
	p.srv = nil
	p.mu.Unlock()
	if srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); errors.Is(err, context.DeadlineExceeded) {
		return srv.Close()
	}
	return nil
}

// URL is the base URL of every API (FLY_FLAPS_BASE_URL and FLY_API_BASE_URL).
func (p *Platform) URL() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.url
}

// Token is the API token the platform accepts.
func (p *Platform) Token() string { return p.opts.Token }

// Org is the recorded organization.
func (p *Platform) Org() string { return p.rec.Org() }

// Clock is the replay's clock.
func (p *Platform) Clock() *Clock { return p.clock }

// Recording is what is replayed.
func (p *Platform) Recording() *record.Recording { return p.rec }

// APICalls counts the calls per "action:id", as the embedded platform does.
func (p *Platform) APICalls() map[string]int { return p.gate.APICalls() }

// Handler serves the recording's APIs behind the gate.
func (p *Platform) Handler() http.Handler {
	byApp, byMachine := gate.ByPath("app"), gate.ByPath("id")
	org := func(*http.Request) string { return p.rec.Org() }
	const (
		ms = "/v1/apps/{app}/machines"
		m  = ms + "/{id}"
	)
	rt := gate.NewRoute
	logsAPI := &logs.API{Lines: lines{p}, Now: p.clock.Now, PageSize: p.opts.LogsPageSize, Known: p.rec.HasApp}
	prom := &promql.API{Org: p.rec.Org(), Now: p.clock.Now, Read: p.readCounters}
	routes := []gate.Route{
		rt("GET /v1/apps", "Apps_list", "apps", org, gate.PerAction, p.within(p.serveApps)),
		rt("GET /v1/apps/{app}", "Apps_show", "app", byApp, gate.PerAction, p.within(p.serveApp)),
		rt("GET "+ms, "Machines_list", "list", byApp, gate.PerAction, p.within(p.serveList)),
		rt("GET "+m, "Machines_show", "get", byMachine, gate.GetMachine, p.within(p.serveMachine)),
		rt("GET "+m+"/wait", "Machines_wait", "wait", byMachine, gate.PerAction, p.within(p.serveWait)),
		rt("POST "+m+"/exec", "Machines_exec", "exec", byMachine, gate.PerAction, p.within(p.serveExec)),
		rt("GET /v1/apps/{app}/volumes", "Volumes_list", "volumes", byApp, gate.PerAction, p.within(p.serveVolumes)),
		rt("GET /api/v1/apps/{app}/logs", "Logs_list", "logs", byApp, nil, p.within(logsAPI.ServeHTTP)),
		rt("GET /prometheus/{org}/api/v1/query", "Prometheus_query", "prom", gate.ByPath("org"), nil, p.within(prom.Query)),
		rt("GET /prometheus/{org}/api/v1/query_range", "Prometheus_query_range", "prom", gate.ByPath("org"), nil, p.within(prom.QueryRange)),
	}
	// Everything else that changes something is refused, in words: a 412
	// is an answer the client shows as the platform's own.
	for _, method := range []string{"POST", "PUT", "PATCH", "DELETE"} {
		routes = append(routes, rt(method+" /", "Replay_refused", "refused", org, nil, p.refuse))
	}
	routes = append(routes, rt("GET "+m+"/lease", "Machines_show_lease", "lease_show", byMachine, gate.PerAction, p.refuse))
	return p.gate.Handler(routes)
}

// ErrReadOnly is the words every change is refused with.
const ErrReadOnly = "failed_precondition: this is a replay of a recording: nothing can be changed"

func (p *Platform) refuse(w http.ResponseWriter, _ *http.Request) {
	gate.WriteError(w, http.StatusPreconditionFailed, ErrReadOnly)
}

// within answers 503 outside what was recorded: before the first session,
// after the last one, or in a gap between two (nothing is known there, so
// nothing is answered as if it were).
func (p *Platform) within(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if msg := p.outside(p.clock.Now()); msg != "" {
			gate.WriteError(w, http.StatusServiceUnavailable, msg)
			return
		}
		h(w, r)
	}
}

// outside says why t is not a recorded instant ("" when it is).
func (p *Platform) outside(t time.Time) string {
	from, to := p.rec.Span()
	stamp := func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }
	switch {
	case from.IsZero():
		return "the recording holds nothing"
	case t.Before(from):
		return "the recording begins at " + stamp(from)
	case t.After(to.Add(record.GapSlack)):
		return "the recording ends at " + stamp(to)
	}
	if g, ok := p.rec.GapAt(t); ok {
		return "nothing was recorded from " + stamp(g.From) + " to " + stamp(g.To) + " (the recorder was not running)"
	}
	return ""
}

type appJSON struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Status       string `json:"status"`
	MachineCount int    `json:"machine_count"`
	Organization struct {
		Name string `json:"name"`
		Slug string `json:"slug"`
	} `json:"organization"`
}

func (p *Platform) app(name string) appJSON {
	a := appJSON{ID: name, Name: name, Status: "deployed"}
	a.Organization.Name, a.Organization.Slug = p.rec.Org(), p.rec.Org()
	return a
}

func (p *Platform) serveApps(w http.ResponseWriter, r *http.Request) {
	out := struct {
		TotalApps int       `json:"total_apps"`
		Apps      []appJSON `json:"apps"`
	}{Apps: []appJSON{}}
	if slug := r.URL.Query().Get("org_slug"); slug == "" || slug == p.rec.Org() {
		for _, name := range p.rec.Apps(p.clock.Now()) {
			out.Apps = append(out.Apps, p.app(name))
		}
	}
	out.TotalApps = len(out.Apps)
	gate.WriteJSON(w, http.StatusOK, out)
}

func (p *Platform) serveApp(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("app")
	if !p.rec.HasApp(name) {
		gate.WriteError(w, http.StatusNotFound, "app not found")
		return
	}
	gate.WriteJSON(w, http.StatusOK, p.app(name))
}

func (p *Platform) serveList(w http.ResponseWriter, r *http.Request) {
	app := r.PathValue("app")
	if !p.rec.HasApp(app) {
		gate.WriteError(w, http.StatusNotFound, "app not found")
		return
	}
	b, err := p.rec.ListingJSON(app, p.clock.Now())
	if err != nil {
		gate.WriteError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeRaw(w, b)
}

func (p *Platform) serveMachine(w http.ResponseWriter, r *http.Request) {
	app, id := r.PathValue("app"), r.PathValue("id")
	if !p.rec.HasApp(app) {
		gate.WriteError(w, http.StatusNotFound, "app not found")
		return
	}
	b, ok, err := p.rec.MachineJSON(app, id, p.clock.Now())
	switch {
	case err != nil:
		gate.WriteError(w, http.StatusInternalServerError, err.Error())
	case !ok:
		gate.WriteError(w, http.StatusNotFound, "machine not found")
	default:
		writeRaw(w, b)
	}
}

func writeRaw(w http.ResponseWriter, b []byte) {
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// waitPoll is how often a wait looks at the clock while it plays.
const waitPoll = 100 * time.Millisecond

// serveWait long-polls the recorded machine: it answers once the clock
// reaches an instant where the machine is in a wanted state, or its
// timeout (wall time, as on Fly) passes.
func (p *Platform) serveWait(w http.ResponseWriter, r *http.Request) {
	app, id := r.PathValue("app"), r.PathValue("id")
	q := r.URL.Query()
	want := q["state"]
	if len(want) == 0 {
		want = []string{"started"}
	}
	timeout := 60 * time.Second
	if v := q.Get("timeout"); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			timeout = d
		} else if n, err := strconv.Atoi(v); err == nil {
			timeout = time.Duration(n) * time.Second
		}
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(waitPoll)
	defer tick.Stop()
	for {
		state := p.rec.StateOf(app, id, p.clock.Now())
		if state == "" {
			gate.WriteError(w, http.StatusNotFound, "machine not found")
			return
		}
		for _, s := range want {
			if s == state || (s == "settled" && (state == "started" || state == "stopped" || state == "suspended")) {
				gate.WriteJSON(w, http.StatusOK, struct {
					OK bool `json:"ok"`
				}{true})
				return
			}
		}
		select {
		case <-p.clock.Changed():
		case <-tick.C:
		case <-deadline.C:
			gate.WriteError(w, http.StatusRequestTimeout, fmt.Sprintf(
				"deadline_exceeded: machine failed to reach desired state, %s, currently %s", strings.Join(want, "|"), state))
			return
		case <-r.Context().Done():
			return
		}
	}
}

// serveExec answers a probe with the answer the recording holds: the last
// one the same command got on the same machine up to the clock's instant.
func (p *Platform) serveExec(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Cmd string `json:"cmd"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in); err != nil || in.Cmd == "" {
		gate.WriteError(w, http.StatusBadRequest, "cmd is required")
		return
	}
	app, id, now := r.PathValue("app"), r.PathValue("id"), p.clock.Now()
	switch state := p.rec.StateOf(app, id, now); state {
	case "":
		gate.WriteError(w, http.StatusNotFound, "machine not found")
		return
	case "started":
	default:
		gate.WriteError(w, http.StatusPreconditionFailed, "failed_precondition: machine not running")
		return
	}
	res, _, ok, err := p.rec.Probe(app, id, in.Cmd, now)
	switch {
	case err != nil:
		gate.WriteError(w, http.StatusInternalServerError, err.Error())
	case !ok:
		gate.WriteError(w, http.StatusPreconditionFailed, "failed_precondition: the recording holds no answer to this command on this machine by then")
	default:
		gate.WriteJSON(w, http.StatusOK, res)
	}
}

// serveVolumes answers the app's volumes listing as last recorded.
func (p *Platform) serveVolumes(w http.ResponseWriter, r *http.Request) {
	app := r.PathValue("app")
	if !p.rec.HasApp(app) {
		gate.WriteError(w, http.StatusNotFound, "app not found")
		return
	}
	js, ok, err := p.rec.Volumes(app, p.clock.Now())
	switch {
	case err != nil:
		gate.WriteError(w, http.StatusInternalServerError, err.Error())
	case !ok:
		gate.WriteError(w, http.StatusPreconditionFailed, "failed_precondition: the recording holds no volumes listing of this app by then")
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(js)
	}
}

// lines reads the recording's log lines up to the clock's instant.
type lines struct{ p *Platform }

func (l lines) Query(app string, after time.Time, instance, region string, limit int) []logs.Line {
	got, _ := l.p.rec.Logs(app, after, l.p.clock.Now(), instance, region, limit)
	return toLines(app, got)
}

func (l lines) Tail(app string, since time.Time, instance, region string, limit int) []logs.Line {
	got, _ := l.p.rec.Tail(app, since, l.p.clock.Now(), instance, region, limit)
	return toLines(app, got)
}

func toLines(app string, in []record.LogLine) []logs.Line {
	out := make([]logs.Line, len(in))
	for i, l := range in {
		out[i] = logs.Line{ID: strconv.FormatInt(l.ID, 10), Time: l.Time, App: app, Machine: l.Machine, Region: l.Region,
			Provider: l.Provider, Level: l.Level, Message: l.Message, ErrorMsg: l.Error}
	}
	return out
}

// readCounters hands promql the recorded counters as they stood at the
// clock's instant: a minute counts once it has ended.
func (p *Platform) readCounters(fn func(promql.Source)) {
	known := p.clock.Now()
	fn(func(name string) map[string][]promql.Series {
		out := map[string][]promql.Series{}
		for _, c := range p.rec.Counters(name) {
			inc := c.Increase
			out[c.Metric] = append(out[c.Metric], promql.Series{
				Labels:   map[string]string{"app": c.App, "status": c.Status},
				ValueAt:  func(t time.Time) float64 { return inc(time.Unix(0, 0), t, known) },
				Increase: func(from, to time.Time) float64 { return inc(from, to, known) },
			})
		}
		return out
	})
}
