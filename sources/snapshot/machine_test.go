package snapshot

import (
	"reflect"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	flyapi "github.com/flywake/flywake/sources/fly"
)

// hostile carries an escape sequence in every string the API can send.
const hostile = "\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\u009b2J"

func TestNewMachineIsNilSafe(t *testing.T) {
	// Every pointer fly-go may leave nil: no config, a config with nothing
	// in it, a service with nothing set, events and checks that are null.
	for name, fm := range map[string]*fly.Machine{
		"bare":         {ID: "m1"},
		"empty config": {ID: "m1", Config: &fly.MachineConfig{}},
		"empty service": {ID: "m1", Config: &fly.MachineConfig{
			Services: []fly.MachineService{{Checks: []fly.MachineServiceCheck{{}}}},
			Checks:   map[string]fly.MachineCheck{"c": {}},
		}},
		"null entries": {ID: "m1", Checks: []*fly.MachineCheckStatus{nil}, Events: []*fly.MachineEvent{nil, {Type: "exit"}}},
		"incomplete":   {ID: "m1", HostStatus: "unreachable", IncompleteConfig: &fly.MachineConfig{Guest: &fly.MachineGuest{MemoryMB: 512}}},
	} {
		t.Run(name, func(t *testing.T) {
			a := New("org", "app", nil)
			a.ApplyMachines([]*fly.Machine{fm}, t0)
			m := a.Machines[0]
			_, _ = m.CheckCounts()
			_, _ = m.NewestEvent()
			_ = m.HostDown()
			if m.Config != nil && m.Config.MinRunning != nil {
				t.Error("min running set from nothing")
			}
			_ = a.Evidence(t0, nil, nil)
			_ = a.SwapFacts()
			_ = a.CrashBanner()
			_ = a.ProbesDue(t0)
		})
	}
	a := New("org", "app", nil)
	a.ApplyMachines([]*fly.Machine{{ID: "m1", HostStatus: "unreachable", IncompleteConfig: &fly.MachineConfig{Guest: &fly.MachineGuest{MemoryMB: 512}}}}, t0)
	if m := a.Machines[0]; m.Config == nil || !m.Config.Incomplete || m.Config.MemoryMB != 512 || !m.HostDown() {
		t.Errorf("incomplete_config not read: %+v", m.Config)
	}
}

func TestApplyListingSkipsAndCountsMalformed(t *testing.T) {
	a := New("org", "app", nil)
	a.ApplyListing(flyapi.Listing{Malformed: 2, Machines: []*fly.Machine{
		nil, {ID: ""}, flyMachine("a", "started", "d", t0), flyMachine("a", "stopped", "d", t0),
	}}, t0)
	if len(a.Machines) != 1 || a.Machines[0].State != "started" {
		t.Fatalf("machines = %+v", a.Machines)
	}
	if a.Malformed != 4 { // 2 dropped before decoding, a null, an id-less one
		t.Errorf("Malformed = %d, want 4", a.Malformed)
	}
}

// Every string a pane, verdict or command reads is inert: no ESC, no C1.
func TestMachineFieldsAreSanitised(t *testing.T) {
	swap, minRun, port, auto := 512, 1, 8080, true
	typ, path := "http"+hostile, "/health"+hostile
	stop := fly.MachineAutostopSuspend
	fm := &fly.Machine{
		ID: "m1" + hostile, Name: "web" + hostile, State: "started", Region: "ams" + hostile,
		InstanceID: "i" + hostile, Version: "v" + hostile, HostStatus: fly.HostStatus("ok" + hostile),
		ImageRef: fly.MachineImageRef{Registry: "registry.fly.io", Repository: "app" + hostile, Tag: "t" + hostile, Digest: "sha256:" + hostile},
		Checks:   []*fly.MachineCheckStatus{{Name: "hc" + hostile, Status: "passing", Output: "ok" + hostile}},
		Events:   []*fly.MachineEvent{{Type: "start" + hostile, Status: "started" + hostile, Source: "flyd" + hostile, Timestamp: t0.UnixMilli()}},
		Config: &fly.MachineConfig{
			Image: "img" + hostile, Schedule: "daily" + hostile,
			Guest:    &fly.MachineGuest{CPUKind: "shared" + hostile, CPUs: 1, MemoryMB: 256},
			Init:     fly.MachineInit{SwapSizeMB: &swap, Cmd: []string{"run" + hostile}, Entrypoint: []string{"/e" + hostile}, Exec: []string{"x" + hostile}},
			Metadata: map[string]string{"fly_release_version": "7" + hostile, "fly_process_group": "app" + hostile, "k" + hostile: "v" + hostile},
			Restart:  &fly.MachineRestart{Policy: fly.MachineRestartPolicy("always" + hostile)},
			Services: []fly.MachineService{{
				Protocol: "tcp" + hostile, Autostop: &stop, Autostart: &auto, MinMachinesRunning: &minRun,
				Concurrency: &fly.MachineServiceConcurrency{Type: "requests" + hostile, SoftLimit: 20},
				Checks:      []fly.MachineServiceCheck{{Type: &typ, HTTPPath: &path, Port: &port}},
			}},
			Checks: map[string]fly.MachineCheck{"named" + hostile: {Type: &typ, HTTPPath: &path}},
		},
	}
	a := New("org", "app", nil)
	a.ApplyMachines([]*fly.Machine{fm}, t0)
	m := a.Machines[0]
	var walk func(path string, v reflect.Value)
	strs := 0
	walk = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			strs++
			if s := v.String(); strings.ContainsAny(s, "\x1b\x07\u009b") {
				t.Errorf("%s = %q is not inert", path, s)
			}
		case reflect.Pointer:
			if !v.IsNil() {
				walk(path, v.Elem())
			}
		case reflect.Struct:
			if v.Type() == reflect.TypeOf(time.Time{}) {
				return
			}
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(path+"."+v.Type().Field(i).Name, v.Field(i))
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(path+"[]", v.Index(i))
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				walk(path+"{key}", k)
				walk(path+"{}", v.MapIndex(k))
			}
		}
	}
	walk("Machine", reflect.ValueOf(m))
	if strs < 30 {
		t.Errorf("only %d strings walked: the fixture no longer reaches every field", strs)
	}
	if m.Config.SwapMB != 512 || m.Config.Autostop != "suspend" || !m.Config.Autostart || m.Config.Services[0].Concurrency.SoftLimit != 20 {
		t.Errorf("config facts lost: %+v", m.Config)
	}
	if mr := m.Config.MinRunning; mr == nil || *mr != 1 {
		t.Errorf("MinRunning = %v", mr)
	}
	if !strings.HasPrefix(m.Release, "7") || !strings.HasPrefix(m.ProcessGroup, "app") || !strings.Contains(m.Name, "␛]0;pwned") {
		t.Errorf("release %q group %q name %q", m.Release, m.ProcessGroup, m.Name)
	}
}
