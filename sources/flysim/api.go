package flysim

import (
	"crypto/subtle"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"

	"github.com/flywake/flywake/sources/flysim/logs"
)

// apiState is the Machines API's own bookkeeping: protocol state that lives
// in wall time (rate limits, leases' clocks) and test knobs (faults), kept
// apart from s.mu so that counting a request never waits for the platform.
// Its zero value is ready to use.
type apiState struct {
	mu        sync.Mutex
	rng       *rand.Rand // request ids and lease nonces: never the platform's rng
	buckets   map[string]*bucket
	stats     map[string]*APIStat
	limitsOff bool
	faults    map[string]Fault
}

func (st *apiState) init(seed uint64) {
	if st.rng == nil {
		st.rng = rand.New(rand.NewPCG(seed, 0x5eed_a91))
		st.buckets = map[string]*bucket{}
		st.stats = map[string]*APIStat{}
		st.faults = map[string]Fault{}
	}
}

// routeInfo names a route. op is the operation's id as the Machines API
// spec names it (Machines_create_lease, …): Fly limits each operation on
// its own, so op (with the key) is the rate-limit bucket. action is the short
// name counters and faults use ("start", "lease_create", …). keyOf picks the
// identifier both are scoped to (machine id, app name, org).
type routeInfo struct {
	op     string
	action string
	keyOf  func(r *http.Request) string
	limit  *rateLimit // nil: not rate limited
}

func byMachine(r *http.Request) string { return r.PathValue("id") }
func byApp(r *http.Request) string     { return r.PathValue("app") }
func byVolume(r *http.Request) string  { return r.PathValue("vol") }

// Handler serves the Machines API (/v1), the logs API (/api/v1/apps/{app}/logs)
// and the Prometheus API (/prometheus/{org}/api/v1/query and query_range).
func (s *Sim) Handler() http.Handler {
	mux := http.NewServeMux()
	org := func(*http.Request) string { return s.opts.Org }
	byOrg := func(r *http.Request) string { return r.PathValue("org") }
	perAction, getMachine := &defaultLimit, &getMachineLimit
	prom := s.promAPI()
	logsAPI := &logs.API{Store: s.logs, Now: s.now, PageSize: s.opts.LogsPageSize, Known: s.hasApp}
	handle := func(pattern string, ri routeInfo, h http.HandlerFunc) {
		mux.Handle(pattern, s.wrap(ri, h))
	}
	const (
		ms = "/v1/apps/{app}/machines"
		m  = ms + "/{id}"
		vs = "/v1/apps/{app}/volumes"
	)
	routes := []struct {
		pattern string
		ri      routeInfo
		h       http.HandlerFunc
	}{
		{"GET /v1/apps", routeInfo{"Apps_list", "apps", org, perAction}, s.serveListApps},
		{"GET /v1/apps/{app}", routeInfo{"Apps_show", "app", byApp, perAction}, s.serveGetApp},
		{"GET " + ms, routeInfo{"Machines_list", "list", byApp, perAction}, s.serveListMachines},
		{"POST " + ms, routeInfo{"Machines_create", "create", byApp, perAction}, s.serveCreate},
		{"GET " + m, routeInfo{"Machines_show", "get", byMachine, getMachine}, s.serveGetMachine},
		{"POST " + m, routeInfo{"Machines_update", "update", byMachine, perAction}, s.serveUpdate},
		{"DELETE " + m, routeInfo{"Machines_delete", "destroy", byMachine, perAction}, s.serveDestroy},
		{"POST " + m + "/start", routeInfo{"Machines_start", "start", byMachine, perAction}, s.serveStart},
		{"POST " + m + "/stop", routeInfo{"Machines_stop", "stop", byMachine, perAction}, s.serveStop},
		{"POST " + m + "/suspend", routeInfo{"Machines_suspend", "suspend", byMachine, perAction}, s.serveSuspend},
		{"POST " + m + "/restart", routeInfo{"Machines_restart", "restart", byMachine, perAction}, s.serveRestart},
		{"POST " + m + "/signal", routeInfo{"Machines_signal", "signal", byMachine, perAction}, s.serveSignal},
		{"POST " + m + "/cordon", routeInfo{"Machines_cordon", "cordon", byMachine, perAction}, s.serveCordon(true)},
		{"POST " + m + "/uncordon", routeInfo{"Machines_uncordon", "uncordon", byMachine, perAction}, s.serveCordon(false)},
		{"GET " + m + "/wait", routeInfo{"Machines_wait", "wait", byMachine, perAction}, s.serveWait},
		{"POST " + m + "/exec", routeInfo{"Machines_exec", "exec", byMachine, perAction}, s.serveExec},
		{"GET " + m + "/lease", routeInfo{"Machines_show_lease", "lease_show", byMachine, perAction}, s.serveGetLease},
		{"POST " + m + "/lease", routeInfo{"Machines_create_lease", "lease_create", byMachine, perAction}, s.serveAcquireLease},
		{"DELETE " + m + "/lease", routeInfo{"Machines_release_lease", "lease_release", byMachine, perAction}, s.serveReleaseLease},
		{"GET " + m + "/events", routeInfo{"Machines_list_events", "events", byMachine, perAction}, s.serveEvents},
		{"GET " + m + "/versions", routeInfo{"Machines_list_versions", "versions", byMachine, perAction}, s.serveVersions},
		{"GET " + m + "/metadata", routeInfo{"Machines_show_metadata", "metadata_show", byMachine, perAction}, s.serveGetMetadata},
		{"POST " + m + "/metadata/{key}", routeInfo{"Machines_update_metadata", "metadata_update", byMachine, perAction}, s.serveSetMetadata},
		{"DELETE " + m + "/metadata/{key}", routeInfo{"Machines_delete_metadata", "metadata_delete", byMachine, perAction}, s.serveDeleteMetadata},
		{"GET " + m + "/ps", routeInfo{"Machines_list_processes", "ps", byMachine, perAction}, s.servePs},
		{"GET " + vs, routeInfo{"Volumes_list", "volumes", byApp, perAction}, s.serveListVolumes},
		{"GET " + vs + "/{vol}", routeInfo{"Volumes_get_by_id", "volume", byVolume, perAction}, s.serveGetVolume},
		{"GET " + vs + "/{vol}/snapshots", routeInfo{"Volumes_list_snapshots", "volume_snapshots", byVolume, perAction}, s.serveVolumeSnapshots},
		// Not in the 2024 spec; named in its style.
		{"GET /v1/apps/{app}/secrets", routeInfo{"Secrets_list", "secrets", byApp, perAction}, s.serveListSecrets},
		{"GET /v1/platform/regions", routeInfo{"Platform_regions", "regions", org, perAction}, s.serveRegions},

		// The logs and Prometheus APIs share auth, headers, counters and faults
		// but not the Machines API's rate limits.
		{"GET /api/v1/apps/{app}/logs", routeInfo{"Logs_list", "logs", byApp, nil}, logsAPI.ServeHTTP},
		{"GET /prometheus/{org}/api/v1/query", routeInfo{"Prometheus_query", "prom", byOrg, nil}, prom.Query},
		{"GET /prometheus/{org}/api/v1/query_range", routeInfo{"Prometheus_query_range", "prom", byOrg, nil}, prom.QueryRange},
	}
	for _, rt := range routes {
		handle(rt.pattern, rt.ri, rt.h)
	}
	handle("/", routeInfo{"unknown", "unknown", func(*http.Request) string { return "" }, nil}, func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not found")
	})
	return mux
}

// wrap applies what every response shares: JSON content type, a
// fly-request-id, a Date in platform time; then auth, the call counter,
// injected faults and the rate limit, in that order.
func (s *Sim) wrap(ri routeInfo, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := w.Header()
		hdr.Set("Content-Type", "application/json")
		hdr.Set("fly-request-id", s.requestID())
		hdr.Set("Date", s.now().UTC().Format(http.TimeFormat))
		if !s.authorized(r.Header.Get("Authorization")) {
			writeError(w, http.StatusUnauthorized, "unauthorized")
			return
		}
		key := ri.keyOf(r)
		s.countCall(ri.action, key)
		w, finish, answered := s.applyFault(w, r, ri.action)
		if answered {
			return
		}
		defer finish()
		if ri.limit != nil && !s.allow(ri.op, ri.action, key, *ri.limit) {
			hdr.Set("Retry-After", "1")
			writeError(w, http.StatusTooManyRequests, "rate limit exceeded")
			return
		}
		h(w, r)
	})
}

// requestID is Fly's "<ULID>-<region>" request id.
func (s *Sim) requestID() string {
	now := s.now()
	st := &s.apist
	st.mu.Lock()
	st.init(s.opts.Seed)
	id := ulid(st.rng, now)
	st.mu.Unlock()
	return id + "-" + s.apiRegion()
}

// apiRegion is where the simulated API "runs": the first app's region.
func (s *Sim) apiRegion() string {
	if len(s.opts.Apps) > 0 && s.opts.Apps[0].Region != "" {
		return s.opts.Apps[0].Region
	}
	return "iad"
}

// authorized accepts "Bearer <token>" or "FlyV1 <token>", where the part
// after the scheme may be a comma-separated list (as fly-go sends several
// tokens) of which one must be the platform's token. Compared in constant
// time; the token itself never reaches a log or a response.
func (s *Sim) authorized(header string) bool {
	scheme, rest, ok := strings.Cut(header, " ")
	if !ok || (!strings.EqualFold(scheme, "Bearer") && !strings.EqualFold(scheme, "FlyV1")) {
		return false
	}
	want := []byte(s.opts.Token)
	for _, tok := range strings.Split(rest, ",") {
		if subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), want) == 1 {
			return true
		}
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorJSON{Error: msg})
}

// reply is what a handler answers: a status and a JSON body (nil for none).
type reply struct {
	status int
	body   any
}

func errReply(status int, msg string) reply { return reply{status, errorJSON{Error: msg}} }

func (rp reply) write(w http.ResponseWriter) {
	if rp.body == nil {
		w.WriteHeader(rp.status)
		return
	}
	writeJSON(w, rp.status, rp.body)
}

// withMachine looks the request's machine up and runs fn on it under s.mu;
// the reply is encoded after the lock is released. fn runs at one platform
// instant (what it stamps and what it schedules start at the same time).
func (s *Sim) withMachine(w http.ResponseWriter, r *http.Request, fn func(m *machine) reply) {
	s.mu.Lock()
	m, rp := s.lookupMachine(r)
	if m != nil {
		s.instant(func() { rp = fn(m) })
	}
	s.mu.Unlock()
	rp.write(w)
}

// lookupMachine finds {app}/{id}. Callers hold s.mu.
func (s *Sim) lookupMachine(r *http.Request) (*machine, reply) {
	a := s.apps[r.PathValue("app")]
	if a == nil {
		return nil, errReply(http.StatusNotFound, "app not found")
	}
	m := a.byID[r.PathValue("id")]
	if m == nil {
		return nil, errReply(http.StatusNotFound, "machine not found")
	}
	return m, reply{}
}
