package edge

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Bounds and defaults of a Plan.
const (
	MaxRequests       = 2000
	DefaultTimeout    = 60 * time.Second
	MaxTimeout        = 10 * time.Minute
	DefaultEchoHeader = "Fly-Machine-Id"
	// maxTotalSlack is added to Timeout when MaxTotal is unset: every request
	// starts at once, so the run cannot legitimately outlast one timeout by much.
	maxTotalSlack = 30 * time.Second
	MaxMaxTotal   = 30 * time.Minute
)

// ForcedInstanceHeader pins a request to one machine and skips the proxy's
// wake logic.
const ForcedInstanceHeader = "Fly-Force-Instance-Id"

// ErrForcedInstance is returned by Validate when the plan pins an instance
// without AllowForcedInstance.
var ErrForcedInstance = errors.New("fly-force-instance-id bypasses the proxy's wake logic and measures a path no user takes")

// Plan describes one burst of requests.
type Plan struct {
	// URL is the app's public base URL, e.g. https://app.fly.dev or
	// http://127.0.0.1:PORT for the demo edge. Credentials belong in Header,
	// never in the URL (results and errors would carry them).
	URL string `json:"url"`
	// Path (with optional query) replaces the URL's path; default "/".
	Path string `json:"path"`
	// Requests is how many requests are released together (1..MaxRequests).
	Requests int `json:"requests"`
	// Timeout bounds each request from send to body drained (default 60 s).
	Timeout time.Duration `json:"timeout_ns"`
	// Header holds extra request headers. Values never reach results.
	Header http.Header `json:"-"`
	// AllowForcedInstance lets Header carry fly-force-instance-id; the
	// caller must then mark the result as not representative.
	AllowForcedInstance bool `json:"allow_forced_instance"`
	// EchoHeader is the response header in which the app names the machine
	// that served it (default "Fly-Machine-Id").
	EchoHeader string `json:"echo_header"`
	// MaxTotal bounds the whole run (default Timeout + 30 s).
	MaxTotal time.Duration `json:"max_total_ns"`
}

// WithDefaults returns p with empty fields filled in.
func (p Plan) WithDefaults() Plan {
	if p.Path == "" {
		p.Path = "/"
	}
	if p.Timeout == 0 {
		p.Timeout = DefaultTimeout
	}
	if p.EchoHeader == "" {
		p.EchoHeader = DefaultEchoHeader
	}
	if p.MaxTotal == 0 {
		p.MaxTotal = p.Timeout + maxTotalSlack
	}
	return p
}

// ForcesInstance reports whether Header pins a machine, whatever the key's case.
func (p Plan) ForcesInstance() bool {
	for k := range p.Header {
		if strings.EqualFold(k, ForcedInstanceHeader) {
			return true
		}
	}
	return false
}

// Representative reports whether the plan measures the path users take.
func (p Plan) Representative() bool { return !p.ForcesInstance() }

// Validate checks p after defaults; Run calls it too.
func (p Plan) Validate() error {
	p = p.WithDefaults()
	if p.Requests < 1 || p.Requests > MaxRequests {
		return fmt.Errorf("requests must be between 1 and %d, got %d", MaxRequests, p.Requests)
	}
	if p.Timeout < 0 || p.Timeout > MaxTimeout {
		return fmt.Errorf("timeout must be between 0 and %s, got %s", MaxTimeout, p.Timeout)
	}
	if p.MaxTotal < 0 || p.MaxTotal > MaxMaxTotal {
		return fmt.Errorf("total time limit must be between 0 and %s, got %s", MaxMaxTotal, p.MaxTotal)
	}
	if p.ForcesInstance() && !p.AllowForcedInstance {
		return ErrForcedInstance
	}
	if _, err := p.target(); err != nil {
		return err
	}
	return nil
}

// target joins URL and Path into the absolute URL every request asks for.
func (p Plan) target() (*url.URL, error) {
	base, err := url.Parse(p.URL)
	if err != nil {
		return nil, fmt.Errorf("url: %w", errors.Unwrap(err))
	}
	if base.Scheme != "http" && base.Scheme != "https" {
		return nil, fmt.Errorf("url scheme must be http or https, got %q", base.Scheme)
	}
	if base.Host == "" {
		return nil, errors.New("url has no host")
	}
	if base.User != nil {
		return nil, errors.New("url must not carry credentials; put them in a header")
	}
	if !strings.HasPrefix(p.Path, "/") {
		return nil, fmt.Errorf("path must start with /, got %q", p.Path)
	}
	ref, err := url.Parse(p.Path)
	if err != nil {
		return nil, fmt.Errorf("path: %w", errors.Unwrap(err))
	}
	if ref.Scheme != "" || ref.Host != "" {
		return nil, fmt.Errorf("path must be a path, not a URL: %q", p.Path)
	}
	ref.Fragment = ""
	return base.ResolveReference(ref), nil
}
