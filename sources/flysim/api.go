package flysim

import (
	"crypto/subtle"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
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

// routeInfo names a route for rate limits, counters and faults. keyOf picks
// the identifier the limit is scoped to (machine id, app name, org).
type routeInfo struct {
	action string
	keyOf  func(r *http.Request) string
	limit  *rateLimit // nil: not rate limited
}

func byMachine(r *http.Request) string { return r.PathValue("id") }
func byApp(r *http.Request) string     { return r.PathValue("app") }

// Handler serves the Machines API (/v1), the logs API (/api/v1/apps/{app}/logs)
// and the Prometheus API (/prometheus/{org}/api/v1/query).
func (s *Sim) Handler() http.Handler {
	mux := http.NewServeMux()
	org := func(*http.Request) string { return s.opts.Org }
	perAction, getMachine := &defaultLimit, &getMachineLimit
	handle := func(pattern string, ri routeInfo, h http.HandlerFunc) {
		mux.Handle(pattern, s.wrap(ri, h))
	}
	const m = "/v1/apps/{app}/machines/{id}"

	handle("GET /v1/apps", routeInfo{"apps", org, perAction}, s.serveListApps)
	handle("GET /v1/apps/{app}", routeInfo{"app", byApp, perAction}, s.serveGetApp)
	handle("GET /v1/apps/{app}/machines", routeInfo{"list", byApp, perAction}, s.serveListMachines)
	handle("GET "+m, routeInfo{"get", byMachine, getMachine}, s.serveGetMachine)
	handle("POST "+m+"/start", routeInfo{"start", byMachine, perAction}, s.serveStart)
	handle("POST "+m+"/stop", routeInfo{"stop", byMachine, perAction}, s.serveStop)
	handle("POST "+m+"/suspend", routeInfo{"suspend", byMachine, perAction}, s.serveSuspend)
	handle("POST "+m+"/restart", routeInfo{"restart", byMachine, perAction}, s.serveRestart)
	handle("GET "+m+"/wait", routeInfo{"wait", byMachine, perAction}, s.serveWait)
	handle("POST "+m+"/exec", routeInfo{"exec", byMachine, perAction}, s.serveExec)
	handle("GET "+m+"/lease", routeInfo{"lease", byMachine, perAction}, s.serveGetLease)
	handle("POST "+m+"/lease", routeInfo{"lease", byMachine, perAction}, s.serveAcquireLease)
	handle("DELETE "+m+"/lease", routeInfo{"lease", byMachine, perAction}, s.serveReleaseLease)
	handle("GET "+m+"/events", routeInfo{"events", byMachine, perAction}, s.serveEvents)
	handle("GET "+m+"/metadata", routeInfo{"metadata", byMachine, perAction}, s.serveGetMetadata)
	handle("POST "+m+"/metadata/{key}", routeInfo{"metadata", byMachine, perAction}, s.serveSetMetadata)
	handle("DELETE "+m+"/metadata/{key}", routeInfo{"metadata", byMachine, perAction}, s.serveDeleteMetadata)
	handle("GET "+m+"/ps", routeInfo{"ps", byMachine, perAction}, s.servePs)
	handle("GET /v1/platform/regions", routeInfo{"regions", org, perAction}, s.serveRegions)

	// The logs and Prometheus APIs share auth, headers, counters and faults
	// but not the Machines API's rate limits.
	handle("GET /api/v1/apps/{app}/logs", routeInfo{"logs", byApp, nil}, s.serveLogs)
	handle("GET /prometheus/{org}/api/v1/query", routeInfo{"prom", func(r *http.Request) string { return r.PathValue("org") }, nil}, s.servePromQuery)

	handle("/", routeInfo{"unknown", func(*http.Request) string { return "" }, nil}, func(w http.ResponseWriter, r *http.Request) {
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
		if s.applyFault(w, r, ri.action) {
			return
		}
		if ri.limit != nil && !s.allow(ri.action, key, *ri.limit) {
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
// the reply is encoded after the lock is released.
func (s *Sim) withMachine(w http.ResponseWriter, r *http.Request, fn func(m *machine) reply) {
	s.mu.Lock()
	m, rp := s.lookupMachine(r)
	if m != nil {
		rp = fn(m)
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
