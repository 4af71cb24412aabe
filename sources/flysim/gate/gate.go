// Package gate is what every request to the simulated API passes before its
// handler: the token, the call counters, injected faults and Fly's rate
// limits, and the headers every answer shares. Its state is protocol state
// that lives in wall time, with its own lock: counting a request never
// waits for the platform.
package gate

import (
	"crypto/subtle"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/flywake/flywake/sources/flysim/rng"
)

// Config is what a Gate needs to know of its platform.
type Config struct {
	Token  string           // the accepted API token
	Seed   uint64           // for request ids, nonces and fault dice
	Region string           // where the API "runs": the suffix of request ids
	Now    func() time.Time // platform time: Date headers and request ids
	Wall   func() time.Time // wall time: rate limits and counters
}

// Gate guards one platform's API.
type Gate struct {
	token, region string
	now, wall     func() time.Time

	mu        sync.Mutex
	rng       *rand.Rand // request ids and lease nonces: never the platform's rng
	dice      *rand.Rand // injected faults' dice
	buckets   map[string]*bucket
	stats     map[string]*APIStat
	limitsOff bool
	faults    map[string]Fault
}

// New is a gate with cfg.
func New(cfg Config) *Gate {
	return &Gate{token: cfg.Token, region: cfg.Region, now: cfg.Now, wall: cfg.Wall,
		rng: rand.New(rand.NewPCG(cfg.Seed, 0x5eed_a91)), dice: rng.Stream(cfg.Seed, "faults"),
		buckets: map[string]*bucket{}, stats: map[string]*APIStat{}, faults: map[string]Fault{}}
}

// Route is one endpoint. Op is the operation's id as the Machines API spec
// names it (Machines_create_lease, …): Fly limits each operation on its
// own, so Op (with the key) is the rate-limit bucket. Action is the short
// name counters and faults use ("start", "lease_create", …). Key picks the
// identifier both are scoped to (machine id, app name, org).
type Route struct {
	Pattern string
	Op      string
	Action  string
	Key     func(r *http.Request) string
	Limit   *Limit // nil: not rate limited
	Handler http.HandlerFunc
}

// NewRoute is a Route with these fields, in their order.
func NewRoute(pattern, op, action string, key func(*http.Request) string, limit *Limit, h http.HandlerFunc) Route {
	return Route{Pattern: pattern, Op: op, Action: action, Key: key, Limit: limit, Handler: h}
}

// ByPath keys a route by one of its path values ("id", "app", "vol").
func ByPath(name string) func(r *http.Request) string {
	return func(r *http.Request) string { return r.PathValue(name) }
}

// Handler serves routes, each behind the gate, and answers 404 elsewhere.
func (g *Gate) Handler(routes []Route) http.Handler {
	mux := http.NewServeMux()
	for _, rt := range routes {
		mux.Handle(rt.Pattern, g.wrap(rt))
	}
	mux.Handle("/", g.wrap(Route{Op: "unknown", Action: "unknown", Key: func(*http.Request) string { return "" },
		Handler: func(w http.ResponseWriter, r *http.Request) { WriteError(w, http.StatusNotFound, "not found") }}))
	return mux
}

// wrap applies what every response shares: JSON content type, a
// fly-request-id, a Date in platform time; then auth, the call counter,
// injected faults and the rate limit, in that order.
func (g *Gate) wrap(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := w.Header()
		hdr.Set("Content-Type", "application/json")
		hdr.Set("fly-request-id", g.requestID())
		hdr.Set("Date", g.now().UTC().Format(http.TimeFormat))
		if !g.authorized(r.Header.Get("Authorization")) {
			WriteError(w, http.StatusUnauthorized, "unauthorized")
			return
		}
		key := rt.Key(r)
		g.countCall(rt.Action, key)
		w, finish, answered := g.applyFault(w, r, rt.Action)
		if answered {
			return
		}
		defer finish()
		if rt.Limit != nil && !g.allow(rt.Op, rt.Action, key, *rt.Limit) {
			hdr.Set("Retry-After", "1")
			WriteError(w, http.StatusTooManyRequests, "rate limit exceeded")
			return
		}
		rt.Handler(w, r)
	})
}

// requestID is Fly's "<ULID>-<region>" request id.
func (g *Gate) requestID() string {
	now := g.now()
	g.mu.Lock()
	id := rng.ULID(g.rng, now)
	g.mu.Unlock()
	return id + "-" + g.region
}

// Nonce is a new lease nonce.
func (g *Gate) Nonce() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return rng.Hex(g.rng, 12)
}

// authorized accepts "Bearer <token>" or "FlyV1 <token>", where the part
// after the scheme may be a comma-separated list (as fly-go sends several
// tokens) of which one must be the platform's token. Compared in constant
// time; the token itself never reaches a log or a response.
func (g *Gate) authorized(header string) bool {
	scheme, rest, ok := strings.Cut(header, " ")
	if !ok || (!strings.EqualFold(scheme, "Bearer") && !strings.EqualFold(scheme, "FlyV1")) {
		return false
	}
	want := []byte(g.token)
	for _, tok := range strings.Split(rest, ",") {
		if subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), want) == 1 {
			return true
		}
	}
	return false
}

// WriteJSON answers status with v encoded.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// WriteError answers status with {"error": msg}, as Fly's APIs do.
func WriteError(w http.ResponseWriter, status int, msg string) {
	WriteJSON(w, status, struct {
		Error string `json:"error"`
	}{msg})
}
