package snapshot

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	flyapi "github.com/flywake/flywake/sources/fly"
)

// Exec output is whatever the guest printed: ApplyProbe takes any stdout,
// stderr, exit code or call error without panicking, always records the
// probe under its key, and the verdicts built on it still render.
func FuzzApplyProbe(f *testing.F) {
	f.Add(uint8(0), "MemTotal:  1015024 kB\nSwapTotal: 2097148 kB\nSwapFree: 2097148 kB\n", "", 0, false)
	f.Add(uint8(1), "  sl  local_address rem_address   st\n   0: 0100007F:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000 0 1 1 0\n", "", 0, false)
	f.Add(uint8(2), `{"python":"3.12.1","cache_tag":"cpython-312","app_dir":"/app","site_packages":{"py":5707,"pyc":0}}`, "", 0, false)
	f.Add(uint8(2), "", "sh: 1: python3: not found", 127, false)
	f.Add(uint8(0), "", "", 0, true)
	f.Add(uint8(1), "\x00\xff", "cat: /proc/net/tcp6: No such file or directory\n", 1, false)
	f.Add(uint8(7), "MemTotal: -1 kB", "", -1, false)
	now := time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, kind uint8, stdout, stderr string, exit int, callFailed bool) {
		a := New("org", "app", nil)
		req := ProbeRequest{Kind: ProbeKind(kind % 3), Machine: "148ed123456789", Key: "148ed123456789/01JABC"}
		res := ExecResult{Stdout: stdout, Stderr: stderr, ExitCode: exit}
		if callFailed {
			res.Err = errors.New("exec on machine: the Fly API is not answering properly")
		}
		a.ApplyProbe(req, res, now)
		var key string
		var err string
		var ok bool
		switch req.Kind {
		case ProbeMeminfo:
			p, found := a.Meminfo[req.Machine]
			key, err, ok = p.Key, p.Err, found
		case ProbeSockets:
			p, found := a.Sockets[req.Machine]
			key, err, ok = p.Key, p.Err, found
		default:
			p, found := a.Bytecode[req.Key]
			key, err, ok = p.Key, p.Err, found
		}
		if !ok || key != req.Key {
			t.Fatalf("%s probe not recorded under %q", req.Kind, req.Key)
		}
		if callFailed && err == "" {
			t.Errorf("a failed exec call recorded no error")
		}
		_ = a.Swap()
		_ = a.BytecodeVerdict()
		_ = a.CloseWait()
		_ = a.ProbesDue(now)
	})
}

// A listing is whatever fly-go decoded from the API's answer, nulls
// included: ApplyListing and every verdict built on it never panic, and no
// string in the model carries an escape.
func FuzzApplyListing(f *testing.F) {
	for _, s := range []string{
		`[null,{"id":"m1","checks":[null],"events":[null]}]`,
		`[{"id":"m1","state":"stopped","config":{"metadata":{"fly_release_version":"3"},"services":[{"autostop":"suspend","min_machines_running":0,"concurrency":{"soft_limit":-1}}],"init":{"swap_size_mb":-5}},"events":[{"type":"exit","timestamp":1,"request":{"exit_event":{"exit_code":1,"restarting":false}}}]}]`,
		`[{"id":"m1","host_status":"unreachable","incomplete_config":{"guest":{"memory_mb":4096}}}]`,
		`[{"id":"\u001b]0;x\u0007","name":"\u009b2J","events":[{"type":"start","status":"started","timestamp":-1}]}]`,
	} {
		f.Add([]byte(s))
	}
	now := time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, b []byte) {
		var ms []*fly.Machine
		if json.Unmarshal(b, &ms) != nil {
			return
		}
		a := New("org", "app", nil)
		for look := 0; look < 2; look++ {
			a.ApplyListing(flyapi.Listing{Machines: ms}, now.Add(time.Duration(look)*time.Minute))
		}
		_ = a.Evidence(now, nil, nil)
		_, _ = a.Swap(), a.BytecodeVerdict()
		_ = a.CrashBanner()
		_ = a.ProbesDue(now)
		for _, m := range a.Machines {
			for _, s := range []string{m.ID, m.Name, m.State, m.Region, m.ProcessGroup, m.Release, m.ImageDigest} {
				if strings.ContainsAny(s, "\x1b\u009b\x07") {
					t.Fatalf("%q carries an escape", s)
				}
			}
		}
	})
}
