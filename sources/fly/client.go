package fly

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	flygo "github.com/superfly/fly-go"
	"github.com/superfly/fly-go/flaps"
	"github.com/superfly/fly-go/tokens"

	"github.com/flywake/flywake/sources/sanitize"
)

const (
	DefaultFlapsURL  = "https://api.machines.dev"
	DefaultAPIURL    = "https://api.fly.io"
	defaultUserAgent = "flywake"
	defaultDeadline  = 15 * time.Second
)

// Config says where a Client goes and as whom.
type Config struct {
	FlapsURL  string // Machines API; "" = $FLY_FLAPS_BASE_URL, else https://api.machines.dev
	APIURL    string // logs and Prometheus; "" = $FLY_API_BASE_URL, else https://api.fly.io
	Token     string // "" sends no Authorization header
	UserAgent string // "" = "flywake"
	// Debug, when set, gets a line per API attempt, retry and failure.
	Debug *DebugLog
	// SteppedClock, when set, is the time the client's rate limits and
	// back-offs count, and they never sleep: for a platform whose clock
	// moves only when told (the demo's day lived a step at a time, its
	// calls already paced in its own time). Nil: the wall clock.
	SteppedClock func() time.Time
	// Unpaced sends each Machines API call at once, without the client's
	// pacing under Fly's limits: only for a platform that has none (flysim
	// with its rate limits off), so a test spends no wall time on them.
	// A 429 is still waited out as the platform asks.
	Unpaced bool
}

// withDefaults fills empty fields the way flyctl does.
func (c Config) withDefaults(env func(string) string) Config {
	if c.FlapsURL == "" {
		c.FlapsURL = firstNonEmpty(env("FLY_FLAPS_BASE_URL"), DefaultFlapsURL)
	}
	if c.APIURL == "" {
		c.APIURL = firstNonEmpty(env("FLY_API_BASE_URL"), DefaultAPIURL)
	}
	if c.UserAgent == "" {
		c.UserAgent = defaultUserAgent
	}
	return c
}

// Client talks to one Fly platform. Safe for concurrent use.
type Client struct {
	cfg     Config
	token   string
	toks    *tokens.Tokens // nil when there is no token
	state   *shared
	flaps   *flaps.Client
	logs    *flygo.Client
	apiHC   *http.Client // for Prometheus
	apiBase *url.URL
	netT    *http.Transport
	tap     Tap // nil: none
}

// New builds a client; it does no network I/O.
func New(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.SteppedClock != nil {
		return newClient(ctx, cfg, os.Getenv, steppedClock{cfg.SteppedClock})
	}
	return newClient(ctx, cfg, os.Getenv, realClock{})
}

func newClient(ctx context.Context, cfg Config, env func(string) string, clk clock) (*Client, error) {
	cfg = cfg.withDefaults(env)
	flapsBase, err := parseBase("Machines API", cfg.FlapsURL)
	if err != nil {
		return nil, err
	}
	apiBase, err := parseBase("Fly API", cfg.APIURL)
	if err != nil {
		return nil, err
	}
	token := strings.TrimSpace(cfg.Token)
	var toks *tokens.Tokens // tokens.Parse("") would send "Authorization: Bearer "
	if token != "" {
		toks = tokens.Parse(token)
	}
	netT := http.DefaultTransport.(*http.Transport).Clone()
	// The process holds the token from now on: it leaves every text
	// sources/sanitize makes inert, whatever its source.
	sanitize.AddSecret(token)
	cfg.Debug.AddSecret(token)
	st := &shared{clock: clk, limiter: newLimiter(clk), unpaced: cfg.Unpaced, stats: &recorder{token: token}, debug: cfg.Debug, entries: &entryMemo{}}
	flapsT := &apiTransport{base: flapsBase, api: machinesAPI, next: netT, state: st}
	apiT := &apiTransport{base: apiBase, api: platformAPI, next: netT, state: st}

	// No Logger, ever: fly-go's logging transport dumps bodies.
	fc, err := flaps.NewWithOptions(ctx, flaps.NewClientOpts{UserAgent: cfg.UserAgent, Tokens: toks, Transport: flapsT})
	if err != nil {
		return nil, fmt.Errorf("building the Machines API client: %s", sanitize.Redact(err.Error(), token))
	}
	logsTokens := toks
	if logsTokens == nil {
		logsTokens = &tokens.Tokens{} // fly-go would parse "" anyway; the transport drops the empty header
	}
	lc := flygo.NewClientFromOptions(flygo.ClientOptions{
		Tokens:    logsTokens,
		BaseURL:   apiBase.String(),
		Name:      cfg.UserAgent,
		Transport: &flygo.Transport{UnderlyingTransport: apiT, Tokens: logsTokens, UserAgent: cfg.UserAgent},
	})
	apiHC, err := flygo.NewHTTPClient(nil, apiT) // same 502/503 retries as fly-go's own calls
	if err != nil {
		return nil, err
	}
	return &Client{
		cfg: cfg, token: token, toks: toks, state: st,
		flaps: fc, logs: lc, apiHC: apiHC, apiBase: apiBase, netT: netT,
	}, nil
}

// Stats is a snapshot of this client's traffic, for the dashboard header.
func (c *Client) Stats() Stats { return c.state.stats.snapshot(c.state.clock.Now()) }

// FlapsURL and APIURL report the resolved base URLs (for the header/help).
func (c *Client) FlapsURL() string { return c.cfg.FlapsURL }
func (c *Client) APIURL() string   { return c.cfg.APIURL }

// Close drops idle connections.
func (c *Client) Close() { c.netT.CloseIdleConnections() }

// fail classifies err for c's calls.
func (c *Client) fail(ctx context.Context, k call, err error) error {
	rep := reportOf(ctx).get()
	out := classify(ctx.Err(), k, err, c.token, rep)
	var bad ErrBadAnswer
	if rep.request != "" && rep.badAnswer == "" && errors.As(out, &bad) {
		// JSON of a shape fly-go cannot decode: the transport saw a 2xx and
		// could not tell; the last error says it now.
		c.state.stats.failed(c.state.clock.Now(), rep.call, rep.request+": the API answered "+bad.What)
	}
	return out
}

// withDeadline applies d unless the caller already set a deadline: fly-go's
// http.Client has no timeout of its own. It also gives the call a report,
// where the transport notes what the answer held (see classify).
func withDeadline(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, _ = withReport(ctx)
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
}

func parseBase(what, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s base URL %q is not an http(s) URL — fix FLY_FLAPS_BASE_URL/FLY_API_BASE_URL", what, raw)
	}
	return u, nil
}

// checkName rejects names that would change the request path.
func checkName(kind, v string) error {
	if v == "" || strings.ContainsAny(v, "/?#%\\ \t\r\n") || v == "." || v == ".." {
		return fmt.Errorf("invalid %s name %q", kind, v)
	}
	return nil
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
