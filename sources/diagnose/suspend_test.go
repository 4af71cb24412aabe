package diagnose

import (
	"slices"
	"testing"

	fly "github.com/superfly/fly-go"
)

func TestSuspendBlockers(t *testing.T) {
	swap := func(mb int) fly.MachineInit { return fly.MachineInit{SwapSizeMB: &mb} }
	for _, tc := range []struct {
		name string
		cfg  *fly.MachineConfig
		want []string
	}{
		{"nil", nil, []string{"config unavailable"}},
		{"clean 1 GB", &fly.MachineConfig{Guest: &fly.MachineGuest{MemoryMB: 1024}}, nil},
		{"seed: 2 GB swap", &fly.MachineConfig{Init: swap(2048), Guest: &fly.MachineGuest{MemoryMB: 1024}}, []string{"swap (2048 MB)"}},
		{"zero swap is no swap", &fly.MachineConfig{Init: swap(0)}, nil},
		{"exactly 2 GB is fine", &fly.MachineConfig{Guest: &fly.MachineGuest{MemoryMB: 2048}}, nil},
		{"everything", &fly.MachineConfig{Init: swap(512), Guest: &fly.MachineGuest{MemoryMB: 4096, GPUs: 1, GPUKind: "a100-pcie-40gb"}, Schedule: "daily"},
			[]string{"swap (512 MB)", "memory 4096 MB (over 2 GB)", "GPU", "schedule (daily)"}},
	} {
		if got := SuspendBlockers(tc.cfg); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestAutostopAndAutostart(t *testing.T) {
	stop, suspend, off, bogus := fly.MachineAutostopStop, fly.MachineAutostopSuspend, fly.MachineAutostopOff, fly.MachineAutostop(9)
	yes, no := true, false
	svc := func(a *fly.MachineAutostop, start *bool) fly.MachineService {
		return fly.MachineService{Autostop: a, Autostart: start}
	}
	for _, tc := range []struct {
		name      string
		cfg       *fly.MachineConfig
		mode      string
		autostart bool
	}{
		{"nil config", nil, "off", false},
		{"no services", &fly.MachineConfig{}, "off", false},
		{"seed: stop + autostart", &fly.MachineConfig{Services: []fly.MachineService{svc(&stop, &yes)}}, "stop", true},
		{"tuned: suspend", &fly.MachineConfig{Services: []fly.MachineService{svc(&suspend, &yes)}}, "suspend", true},
		{"unset fields", &fly.MachineConfig{Services: []fly.MachineService{svc(nil, nil)}}, "off", false},
		{"explicit off, no autostart", &fly.MachineConfig{Services: []fly.MachineService{svc(&off, &no)}}, "off", false},
		{"most aggressive service wins", &fly.MachineConfig{Services: []fly.MachineService{svc(&off, &no), svc(&suspend, nil), svc(&stop, &yes)}}, "suspend", true},
		{"unknown value ignored", &fly.MachineConfig{Services: []fly.MachineService{svc(&bogus, nil), svc(&stop, nil)}}, "stop", false},
	} {
		if got := AutostopMode(tc.cfg); got != tc.mode {
			t.Errorf("%s: AutostopMode = %q, want %q", tc.name, got, tc.mode)
		}
		if got := Autostart(tc.cfg); got != tc.autostart {
			t.Errorf("%s: Autostart = %v, want %v", tc.name, got, tc.autostart)
		}
	}
}

func TestInPrimaryRegion(t *testing.T) {
	cases := []struct {
		primary, region string
		want            bool
	}{
		{"ams", "ams", true},
		{"ams", "ord", false},
		{"", "ord", true}, // the config does not say
	}
	for _, c := range cases {
		if got := InPrimaryRegion(c.primary, c.region); got != c.want {
			t.Errorf("InPrimaryRegion(%q, %q) = %v, want %v", c.primary, c.region, got, c.want)
		}
	}
}

func TestMinRunning(t *testing.T) {
	n := func(v int) *int { return &v }
	cases := []struct {
		name string
		cfg  *fly.MachineConfig
		want *int
	}{
		{"no config", nil, nil},
		{"no service sets it", &fly.MachineConfig{Services: []fly.MachineService{{}, {}}}, nil},
		{"the first service that sets it", &fly.MachineConfig{Services: []fly.MachineService{{}, {MinMachinesRunning: n(2)}, {MinMachinesRunning: n(5)}}}, n(2)},
		{"a negative count keeps none", &fly.MachineConfig{Services: []fly.MachineService{{MinMachinesRunning: n(-1)}}}, n(0)},
	}
	for _, c := range cases {
		got := MinRunning(c.cfg)
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%s: MinRunning = %v, want %v", c.name, got, c.want)
		}
	}
}
