package edge

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestPlanValidate(t *testing.T) {
	forced := http.Header{"fly-force-instance-id": {"148e"}} // lower-case key, as a map literal might
	tests := []struct {
		name    string
		plan    Plan
		wantErr string // substring; "" = valid
	}{
		{"minimal http", Plan{URL: "http://127.0.0.1:8080", Requests: 40}, ""},
		{"https with path and query", Plan{URL: "https://app.fly.dev", Path: "/api/health/?x=1", Requests: 1}, ""},
		{"max requests", Plan{URL: "http://127.0.0.1:1", Requests: MaxRequests}, ""},
		{"zero requests", Plan{URL: "http://127.0.0.1:1", Requests: 0}, "between 1 and 2000"},
		{"too many requests", Plan{URL: "http://127.0.0.1:1", Requests: MaxRequests + 1}, "between 1 and 2000"},
		{"ftp scheme", Plan{URL: "ftp://127.0.0.1", Requests: 1}, "scheme must be http or https"},
		{"no scheme", Plan{URL: "app.fly.dev", Requests: 1}, "scheme must be http or https"},
		{"no host", Plan{URL: "http://", Requests: 1}, "no host"},
		{"credentials in url", Plan{URL: "https://user:secret@app.fly.dev", Requests: 1}, "credentials"},
		{"relative path", Plan{URL: "http://127.0.0.1:1", Path: "api", Requests: 1}, "must start with /"},
		{"path that is a url", Plan{URL: "http://127.0.0.1:1", Path: "//evil.example/x", Requests: 1}, "not a URL"},
		{"negative timeout", Plan{URL: "http://127.0.0.1:1", Requests: 1, Timeout: -time.Second}, "timeout"},
		{"huge timeout", Plan{URL: "http://127.0.0.1:1", Requests: 1, Timeout: time.Hour}, "timeout"},
		{"huge total", Plan{URL: "http://127.0.0.1:1", Requests: 1, MaxTotal: time.Hour}, "total time limit"},
		{"forced instance refused", Plan{URL: "http://127.0.0.1:1", Requests: 1, Header: forced}, ErrForcedInstance.Error()},
		{"forced instance allowed", Plan{URL: "http://127.0.0.1:1", Requests: 1, Header: forced, AllowForcedInstance: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.plan.Validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Validate() = %v, want error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestPlanForcedInstanceIsTheSentinel(t *testing.T) {
	p := Plan{URL: "http://127.0.0.1:1", Requests: 1, Header: http.Header{"Fly-Force-Instance-Id": {"x"}}}
	if err := p.Validate(); !errors.Is(err, ErrForcedInstance) {
		t.Fatalf("Validate() = %v, want ErrForcedInstance", err)
	}
	if p.Representative() {
		t.Fatal("a forced-instance plan must not be representative")
	}
	if !(Plan{URL: "http://127.0.0.1:1"}).Representative() {
		t.Fatal("a plain plan is representative")
	}
}

func TestPlanDefaultsAndTarget(t *testing.T) {
	tests := []struct {
		url, path, want string
	}{
		{"http://127.0.0.1:9000", "", "http://127.0.0.1:9000/"},
		{"https://app.fly.dev/ignored", "/api/v1/notifications/", "https://app.fly.dev/api/v1/notifications/"},
		{"https://app.fly.dev", "/q?a=1#frag", "https://app.fly.dev/q?a=1"},
	}
	for _, tt := range tests {
		p := Plan{URL: tt.url, Path: tt.path, Requests: 1}.WithDefaults()
		u, err := p.target()
		if err != nil {
			t.Fatalf("target(%q,%q): %v", tt.url, tt.path, err)
		}
		if u.String() != tt.want {
			t.Errorf("target(%q,%q) = %q, want %q", tt.url, tt.path, u, tt.want)
		}
	}
	d := Plan{Timeout: 5 * time.Second}.WithDefaults()
	if d.EchoHeader != DefaultEchoHeader || d.MaxTotal != 35*time.Second || d.Path != "/" {
		t.Errorf("defaults = %+v", d)
	}
	if got := (Plan{}).WithDefaults().Timeout; got != DefaultTimeout {
		t.Errorf("default timeout = %s", got)
	}
}
