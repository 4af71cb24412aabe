package snapshot

import (
	"fmt"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	flyapi "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/fly/flytest"
)

// One listing of n machines through a Converter and ApplyConverted (the
// judge included), every machine renamed between the two listings it
// alternates: the sources' share of a listing reply when a whole fleet
// changes (ui/app's BenchmarkListReply adds the panes).
//
//	go test ./sources/snapshot -run '^$' -bench 'ConvertApply' -benchmem
func BenchmarkConvertApply(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		base := benchFleet(n, "")
		renamed := benchFleet(n, "-b")
		for _, c := range []struct {
			name string
			next []*fly.Machine
		}{{"unchanged", base}, {"changed", renamed}} {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				lists := [2]flyapi.Listing{flytest.Hashed(b, c.next), flytest.Hashed(b, base)}
				a := New("o", "a", nil)
				var cv Converter
				a.ApplyConverted(cv.Convert("a", lists[1]), t0)
				b.ReportAllocs()
				b.ResetTimer()
				i := 0
				for b.Loop() {
					a.ApplyConverted(cv.Convert("a", lists[i%2]), t0) // the clock still, as in ui/app's
					i++
				}
			})
		}
	}
}

// benchFleet is n machines shaped like a deployed fleet's (one config
// each, equal in content; five events; a passing check), named with
// suffix.
func benchFleet(n int, suffix string) []*fly.Machine {
	out := make([]*fly.Machine, n)
	autostop, autostart, one := fly.MachineAutostopStop, true, 1
	swap, typ, path := 2048, "http", "/api/health/"
	for i := range out {
		begin := t0.Add(-time.Duration(i) * time.Minute)
		at := begin.Add(20 * time.Second)
		ev := func(typ, status, source string, t time.Time) *fly.MachineEvent {
			return &fly.MachineEvent{Type: typ, Status: status, Source: source, Timestamp: t.UnixMilli()}
		}
		stop := ev("exit", "stopped", "flyd", begin.Add(-time.Hour))
		stop.Request = &fly.MachineRequest{ExitEvent: &fly.MachineExitEvent{RequestedStop: true, Signal: -1, GuestSignal: -1, ExitedAt: begin.Add(-time.Hour)}}
		out[i] = &fly.Machine{
			ID: fmt.Sprintf("e%013x", i), Name: fmt.Sprintf("quiet-%02d%s", i, suffix), State: "started", Region: "ams",
			InstanceID: fmt.Sprintf("01KB1Y6Q3T8M2%05X", i), HostStatus: "ok",
			ImageRef:  fly.MachineImageRef{Registry: "registry.fly.io", Repository: "sleepy-api", Tag: "deployment-01", Digest: "sha256:0123"},
			CreatedAt: t0.Add(-72 * time.Hour).Format(time.RFC3339), UpdatedAt: at.Format(time.RFC3339),
			Config: &fly.MachineConfig{
				Guest: &fly.MachineGuest{CPUKind: "shared", CPUs: 1, MemoryMB: 1024},
				Init:  fly.MachineInit{SwapSizeMB: &swap},
				Image: "registry.fly.io/sleepy-api:deployment-01",
				Env:   map[string]string{"PRIMARY_REGION": "ams"},
				Metadata: map[string]string{
					"fly_platform_version": "v2", "fly_process_group": "app",
					"fly_release_version": "42", "fly_release_id": "rel_42",
				},
				Restart: &fly.MachineRestart{Policy: fly.MachineRestartPolicyOnFailure, MaxRetries: 10},
				Services: []fly.MachineService{{
					Protocol: "tcp", InternalPort: 8000,
					Autostop: &autostop, Autostart: &autostart, MinMachinesRunning: &one,
					Concurrency: &fly.MachineServiceConcurrency{Type: "requests", SoftLimit: 12, HardLimit: 25},
					Checks:      []fly.MachineServiceCheck{{Type: &typ, HTTPPath: &path, Interval: &fly.Duration{Duration: 15 * time.Second}}},
				}},
			},
			Checks: []*fly.MachineCheckStatus{{Name: "servicecheck-00-http-8000", Status: "passing", UpdatedAt: &at}},
			Events: []*fly.MachineEvent{
				ev("start", "started", "flyd", begin.Add(time.Second)),
				ev("start", "starting", "fly-proxy", begin),
				stop,
				ev("stop", "stopping", "fly-proxy", begin.Add(-time.Hour-time.Second)),
				ev("start", "started", "flyd", begin.Add(-2*time.Hour)),
			},
		}
	}
	return out
}

// One listing of n machines through a Converter alone, every machine
// renamed between the two listings it alternates (each decoded afresh, as
// the client's are: no raw value is shared between them): the conversion
// half of BenchmarkConvertApply.
//
//	go test ./sources/snapshot -run '^$' -bench 'ConverterChanged' -benchmem
func BenchmarkConverterChanged(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		lists := [2]flyapi.Listing{flytest.Hashed(b, benchFleet(n, "-b")), flytest.Hashed(b, benchFleet(n, ""))}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var cv Converter
			cv.Convert("a", lists[1])
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				_ = cv.Convert("a", lists[i%2])
				i++
			}
		})
	}
}
