package waketest

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/edge"
)

// Mode says how the targets are put to sleep before the requests go out.
type Mode string

const (
	ModeStop    Mode = "stop"
	ModeSuspend Mode = "suspend"
	ModeBoth    Mode = "both" // the stop run, then the suspend run
)

// ParseMode accepts stop, suspend or both.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case ModeStop, ModeSuspend, ModeBoth:
		return m, nil
	}
	return "", fmt.Errorf("mode must be stop, suspend or both, got %q", s)
}

// runModes lists the runs a mode makes, in order.
func (m Mode) runModes() []Mode {
	if m == ModeBoth {
		return []Mode{ModeStop, ModeSuspend}
	}
	return []Mode{m}
}

// Defaults and bounds of a Setup.
const (
	MinDefaultRequests = 40
	MaxRequests        = edge.MaxRequests
	DefaultTimeout     = 60 * time.Second
	DefaultMaxTotal    = 15 * time.Minute
	// DefaultSoftLimit is Fly's soft_limit when a service sets no concurrency.
	DefaultSoftLimit = diagnose.DefaultSoftLimit
)

// ErrForcedInstance refuses a pinned test; the text is the reason.
var ErrForcedInstance = errors.New("refusing --force-instance: fly-force-instance-id bypasses the proxy's wake logic " +
	"and measures a path no user takes (a test pinned this way saw 502 after 30 s while 40 users through the edge got 200); " +
	"pass --allow-forced-instance to run it anyway, marked not representative")

// Setup is what the user asks for. Zero fields take the documented defaults.
type Setup struct {
	App  string
	Mode Mode
	// Machines names the targets explicitly; empty = the machines autostop
	// would put to sleep (All: every machine of the service's process group).
	Machines []string
	All      bool
	// ProcessGroup picks the service's process group; "" = the one with a
	// service (preferring "app").
	ProcessGroup string
	// Requests is the burst size; 0 = max(40, running × soft_limit + 1).
	Requests int
	// Path is requested on the app; "" = the service's HTTP check path, else "/".
	Path string
	// Timeout bounds each request, in platform time (default 60 s).
	Timeout time.Duration
	// MaxTotal bounds the whole test in wall time (default 15 min): the API's
	// rate limits and waits run on the wall clock whatever the speed.
	MaxTotal time.Duration
	// AppURL is the app's public base URL as the platform serves it: ""
	// means https://<app>.fly.dev; the demo passes its edge's URL.
	AppURL string
	// URL, when set, replaces AppURL: an explicit override by the user.
	URL string
	// ForceInstance pins every request to one machine; refused unless
	// AllowForcedInstance, and then the result is not representative.
	ForceInstance       string
	AllowForcedInstance bool
	// Speed is platform seconds per wall second (1 on real Fly).
	Speed float64
	// Secrets are scrubbed from anything the report encodes (defense in
	// depth: the engine never stores a header value or a token).
	Secrets []string
}

// withDefaults fills what needs no machine list.
func (s Setup) withDefaults() Setup {
	if s.Mode == "" {
		s.Mode = ModeBoth
	}
	if s.Timeout == 0 {
		s.Timeout = DefaultTimeout
	}
	if s.MaxTotal == 0 {
		s.MaxTotal = DefaultMaxTotal
	}
	if s.Speed <= 0 {
		s.Speed = 1
	}
	return s
}

// BaseURL is where the requests go: the explicit URL, else the app's own.
func (s Setup) BaseURL() string {
	switch {
	case s.URL != "":
		return s.URL
	case s.AppURL != "":
		return s.AppURL
	}
	return "https://" + s.App + ".fly.dev"
}

// Representative reports whether the setup measures the path users take.
func (s Setup) Representative() bool { return s.ForceInstance == "" }

// Validate checks everything that needs no API call; Prepare calls it first,
// so a forced instance is refused before anything reaches the platform.
func (s Setup) Validate() error {
	s = s.withDefaults()
	if s.ForceInstance != "" && !s.AllowForcedInstance {
		return ErrForcedInstance
	}
	if s.App == "" {
		return errors.New("no app given")
	}
	if _, err := ParseMode(string(s.Mode)); err != nil {
		return err
	}
	if s.Requests < 0 || s.Requests > MaxRequests {
		return fmt.Errorf("requests must be between 1 and %d, got %d", MaxRequests, s.Requests)
	}
	if s.Timeout < 0 || s.MaxTotal < 0 {
		return errors.New("timeouts must be positive")
	}
	if s.Path != "" && !strings.HasPrefix(s.Path, "/") {
		return fmt.Errorf("path must start with /, got %q", s.Path)
	}
	// Let the request engine judge the URL (scheme, host, no credentials).
	return s.edgePlan(1, "/").Validate()
}

// edgePlan is the burst for requests at path; times converted to wall.
func (s Setup) edgePlan(requests int, path string) edge.Plan {
	p := edge.Plan{
		URL: s.BaseURL(), Path: path, Requests: requests,
		Timeout:    max(time.Duration(float64(s.Timeout)/s.Speed), time.Millisecond),
		EchoHeader: edge.DefaultEchoHeader,
	}
	if s.ForceInstance != "" {
		p.Header = http.Header{edge.ForcedInstanceHeader: {s.ForceInstance}}
		p.AllowForcedInstance = s.AllowForcedInstance
	}
	return p
}
