package waketest

import (
	"errors"
	"strings"
	"testing"

	fly "github.com/superfly/fly-go"
)

type mopt func(*fly.Machine)

func machine(id, state string, opts ...mopt) *fly.Machine {
	intp := func(v int) *int { return &v }
	stop, start := fly.MachineAutostopStop, true
	m := &fly.Machine{ID: id, State: state, InstanceID: "inst-" + id, Config: &fly.MachineConfig{
		Guest:    &fly.MachineGuest{MemoryMB: 1024},
		Metadata: map[string]string{"fly_process_group": "app", "fly_release_version": "42"},
		Services: []fly.MachineService{{
			Autostop: &stop, Autostart: &start, MinMachinesRunning: intp(1),
			Concurrency: &fly.MachineServiceConcurrency{Type: "requests", SoftLimit: 12, HardLimit: 25},
			Checks:      []fly.MachineServiceCheck{{Type: strp("http"), HTTPPath: strp("/api/health/")}},
		}},
	}}
	for _, o := range opts {
		o(m)
	}
	return m
}

func strp(s string) *string { return &s }

func withSwap(mb int) mopt { return func(m *fly.Machine) { m.Config.Init.SwapSizeMB = &mb } }
func withMin(n int) mopt {
	return func(m *fly.Machine) { m.Config.Services[0].MinMachinesRunning = &n }
}

// withSecondService puts min_machines_running = n on a second service only.
func withSecondService(n int) mopt {
	return func(m *fly.Machine) {
		m.Config.Services[0].MinMachinesRunning = nil
		m.Config.Services = append(m.Config.Services, fly.MachineService{InternalPort: 9090, MinMachinesRunning: &n})
	}
}
func withGroup(g string) mopt {
	return func(m *fly.Machine) { m.Config.Metadata["fly_process_group"] = g }
}
func inRegion(region, primary string) mopt {
	return func(m *fly.Machine) { m.Region, m.Config.Env = region, map[string]string{"PRIMARY_REGION": primary} }
}
func noService() mopt { return func(m *fly.Machine) { m.Config.Services = nil } }
func withRelease(v string) mopt {
	return func(m *fly.Machine) { m.Config.Metadata["fly_release_version"] = v }
}
func autostart(on bool) mopt { return func(m *fly.Machine) { m.Config.Services[0].Autostart = &on } }
func autostop(a fly.MachineAutostop) mopt {
	return func(m *fly.Machine) { m.Config.Services[0].Autostop = &a }
}
func noConcurrencyNoChecks() mopt {
	return func(m *fly.Machine) { m.Config.Services[0].Concurrency, m.Config.Services[0].Checks = nil, nil }
}

func TestPreflight(t *testing.T) {
	tests := []struct {
		name         string
		machines     []*fly.Machine
		setup        Setup
		wantTargets  string
		wantKept     string
		wantRequests int
		wantPath     string
		wantRelease  string
		wantWarn     []string // substrings, each must appear
		wantErr      string
	}{
		{
			name: "default keeps min_machines_running started machines",
			machines: []*fly.Machine{machine("m3", "stopped"), machine("m1", "started"), machine("m2", "started"),
				machine("m4", "suspended")},
			setup:       Setup{Mode: ModeStop},
			wantTargets: "m2,m3,m4", wantKept: "m1", wantRequests: 40, wantPath: "/api/health/", wantRelease: "42",
		},
		{
			name: "min_machines_running keeps machines in the primary region only",
			machines: []*fly.Machine{machine("a", "started", inRegion("ord", "ams")), machine("b", "started", inRegion("ams", "ams")),
				machine("c", "suspended", inRegion("ams", "ams"))},
			setup:       Setup{Mode: ModeStop},
			wantTargets: "a,c", wantKept: "b", wantRequests: 40, wantPath: "/api/health/", wantRelease: "42",
		},
		{
			name: "min_machines_running counts from the first service that sets it",
			machines: []*fly.Machine{machine("a", "started", withSecondService(1)), machine("b", "started", withSecondService(1)),
				machine("c", "stopped", withSecondService(1))},
			setup:       Setup{Mode: ModeStop},
			wantTargets: "b,c", wantKept: "a", wantRequests: 40, wantPath: "/api/health/", wantRelease: "42",
		},
		{
			name:        "running × soft limit + 1 beats 40",
			machines:    []*fly.Machine{machine("a", "started", withMin(4)), machine("b", "started"), machine("c", "started"), machine("d", "started"), machine("e", "stopped")},
			setup:       Setup{Mode: ModeStop},
			wantTargets: "e", wantKept: "a,b,c,d", wantRequests: 4*12 + 1, wantPath: "/api/health/", wantRelease: "42",
		},
		{
			name:         "--all takes every machine; defaults without concurrency or checks",
			machines:     []*fly.Machine{machine("a", "started", noConcurrencyNoChecks()), machine("b", "stopped")},
			setup:        Setup{Mode: ModeStop, All: true},
			wantTargets:  "a,b",
			wantRequests: 40, wantPath: "/", wantRelease: "42",
		},
		{
			name:         "explicit requests and path win",
			machines:     []*fly.Machine{machine("a", "started"), machine("b", "stopped")},
			setup:        Setup{Mode: ModeStop, Requests: 7, Path: "/x"},
			wantTargets:  "b",
			wantKept:     "a",
			wantRequests: 7, wantPath: "/x", wantRelease: "42",
		},
		{
			name:        "suspend blocked by swap is warned about",
			machines:    []*fly.Machine{machine("a", "started", withSwap(2048)), machine("b", "stopped", withSwap(2048))},
			setup:       Setup{Mode: ModeBoth},
			wantTargets: "b", wantKept: "a", wantRequests: 40, wantPath: "/api/health/", wantRelease: "42",
			wantWarn: []string{"suspend is blocked on 1 of 1"},
		},
		{
			name:        "autostart and autostop off",
			machines:    []*fly.Machine{machine("a", "started"), machine("b", "stopped", autostart(false), autostop(fly.MachineAutostopOff))},
			setup:       Setup{Mode: ModeStop},
			wantTargets: "b", wantKept: "a", wantRequests: 40, wantPath: "/api/health/", wantRelease: "42",
			wantWarn: []string{"nothing will wake the machines", "will not go back to sleep"},
		},
		{
			name: "the group with the service, gone machines left out, the highest release (a rolling deploy)",
			machines: []*fly.Machine{machine("w1", "started", withGroup("worker"), noService(), withRelease("44")),
				machine("a", "started"), machine("b", "stopped", withRelease("43")), machine("c", "stopped"),
				machine("d", "destroyed")},
			setup:       Setup{Mode: ModeStop},
			wantTargets: "b,c", wantKept: "a", wantRequests: 40, wantPath: "/api/health/", wantRelease: "43",
		},
		{
			name:        "explicit machines",
			machines:    []*fly.Machine{machine("a", "started"), machine("b", "stopped"), machine("c", "stopped")},
			setup:       Setup{Mode: ModeStop, Machines: []string{"c", "c"}},
			wantTargets: "c", wantRequests: 40, wantPath: "/api/health/", wantRelease: "42",
		},
		{
			name:     "explicit unknown machine",
			machines: []*fly.Machine{machine("a", "started")},
			setup:    Setup{Mode: ModeStop, Machines: []string{"zz"}},
			wantErr:  "machine zz is not in the service's process group",
		},
		{
			name:     "min_machines_running keeps everything",
			machines: []*fly.Machine{machine("a", "started")},
			setup:    Setup{Mode: ModeStop},
			wantErr:  "nothing to put to sleep",
		},
		{
			name:     "no service at all",
			machines: []*fly.Machine{machine("a", "started", noService())},
			setup:    Setup{Mode: ModeStop},
			wantErr:  "no machine of this app has a service",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.setup.App = "sleepy-api"
			p, err := Preflight(tt.machines, tt.setup)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(p.TargetIDs(), ","); got != tt.wantTargets {
				t.Errorf("targets = %s, want %s", got, tt.wantTargets)
			}
			if got := strings.Join(p.Kept, ","); got != tt.wantKept {
				t.Errorf("kept = %s, want %s", got, tt.wantKept)
			}
			if p.Requests != tt.wantRequests || p.Path != tt.wantPath || p.Release != tt.wantRelease {
				t.Errorf("requests %d path %q release %q, want %d %q %q", p.Requests, p.Path, p.Release, tt.wantRequests, tt.wantPath, tt.wantRelease)
			}
			all := strings.Join(p.Warnings, "\n")
			for _, w := range tt.wantWarn {
				if !strings.Contains(all, w) {
					t.Errorf("warnings %q lack %q", all, w)
				}
			}
			if len(tt.wantWarn) == 0 && len(p.Warnings) > 0 {
				t.Errorf("unexpected warnings %q", all)
			}
			if p.URL != "https://sleepy-api.fly.dev" {
				t.Errorf("url = %s", p.URL)
			}
		})
	}
}

func TestPreflightBlockersPerTarget(t *testing.T) {
	big := func(m *fly.Machine) { m.Config.Guest.MemoryMB = 4096 }
	sched := func(m *fly.Machine) { m.Config.Schedule = "daily" }
	p, err := Preflight([]*fly.Machine{machine("a", "started"), machine("b", "stopped", withSwap(512)),
		machine("c", "stopped", big), machine("d", "stopped", sched), machine("e", "stopped")}, Setup{App: "x", Mode: ModeSuspend})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"b": "swap (512 MB)", "c": "memory 4096 MB (over 2 GB)", "d": "schedule (daily)", "e": ""}
	for _, tg := range p.Targets {
		if got := strings.Join(tg.Blockers, ","); got != want[tg.ID] || tg.CanSuspend != (want[tg.ID] == "") {
			t.Errorf("%s: blockers %q can %v, want %q", tg.ID, got, tg.CanSuspend, want[tg.ID])
		}
	}
}

func TestSetupValidate(t *testing.T) {
	tests := []struct {
		name    string
		setup   Setup
		wantErr string
		is      error
	}{
		{"ok", Setup{App: "a", Mode: ModeStop}, "", nil},
		{"forced instance refused", Setup{App: "a", ForceInstance: "148e"}, "bypasses the proxy's wake logic", ErrForcedInstance},
		{"forced instance allowed", Setup{App: "a", ForceInstance: "148e", AllowForcedInstance: true}, "", nil},
		{"bad mode", Setup{App: "a", Mode: "restart"}, "mode must be", nil},
		{"too many requests", Setup{App: "a", Requests: 2001}, "between 1 and 2000", nil},
		{"relative path", Setup{App: "a", Path: "health"}, "must start with /", nil},
		{"credentials in url", Setup{App: "a", URL: "https://u:p@a.fly.dev"}, "credentials", nil},
		{"not http", Setup{App: "a", URL: "ftp://a.fly.dev"}, "scheme", nil},
		{"no app", Setup{}, "no app", nil},
	}
	for _, tt := range tests {
		err := tt.setup.Validate()
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.wantErr)
		case tt.is != nil && !errors.Is(err, tt.is):
			t.Errorf("%s: err = %v is not %v", tt.name, err, tt.is)
		}
	}
}

func TestBaseURL(t *testing.T) {
	tests := []struct {
		setup Setup
		want  string
	}{
		{Setup{App: "a"}, "https://a.fly.dev"},
		{Setup{App: "a", AppURL: "http://127.0.0.1:9"}, "http://127.0.0.1:9"},
		{Setup{App: "a", AppURL: "http://127.0.0.1:9", URL: "https://staging.example"}, "https://staging.example"},
	}
	for _, tt := range tests {
		if got := tt.setup.BaseURL(); got != tt.want {
			t.Errorf("BaseURL(%+v) = %s, want %s", tt.setup, got, tt.want)
		}
	}
}
