package machines

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/logs"
	"github.com/flywake/flywake/sources/flysim/profile"
	"github.com/flywake/flywake/sources/flysim/sched"
)

// bigStore is a store with one app of 1,000 machines and no history.
func bigStore(b *testing.B) *Store {
	p := profile.DemoApps()[0]
	p.Name, p.Machines, p.InitialAwake = "big-app", 1000, 100
	now := time.Now().Truncate(time.Minute)
	sch := sched.New(time.Now, 1, now)
	s := New(Config{Seed: 9, Org: profile.DemoOrg, Region: "ams", EventsKept: 5, Wall: time.Now, Sched: sch,
		Logs: logs.NewStore(1000), Closing: make(chan struct{})})
	sch.Lock()
	s.AddApp(p, now, now)
	sch.Unlock()
	sch.FastForward(now)
	return s
}

// BenchmarkListJSONFloor1000 is the floor: encoding the same 1,000 machines
// and decoding them into fly-go's types, with no HTTP and no locks.
func BenchmarkListJSONFloor1000(b *testing.B) {
	s := bigStore(b)
	s.sched.Lock()
	wire := make([]MachineJSON, 0, 1000)
	for _, m := range s.App("big-app").Machines() {
		wire = append(wire, s.wireMachine(m))
	}
	s.sched.Unlock()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		raw, err := json.Marshal(wire)
		if err != nil {
			b.Fatal(err)
		}
		var out []*fly.Machine
		if err := json.Unmarshal(raw, &out); err != nil || len(out) != 1000 {
			b.Fatalf("decode: %d, %v", len(out), err)
		}
	}
}

func TestWaitTimeoutAndStates(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{"", 60 * time.Second, false},
		{"1", time.Second, false},
		{"0", time.Second, false},
		{"600", 60 * time.Second, false},
		{"30s", 30 * time.Second, false},
		{"soon", 0, true},
	}
	for _, tt := range tests {
		got, err := waitTimeout(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("waitTimeout(%q) = %s, %v", tt.in, got, err)
		}
	}
	states := []struct {
		state string
		want  []string
		ok    bool
	}{
		{"started", []string{"started"}, true},
		{"stopping", []string{"stopped"}, false},
		{"suspended", []string{"stopped", "suspended"}, true},
		{"suspended", []string{"settled"}, true},
		{"starting", []string{"settled"}, false},
	}
	for _, tt := range states {
		if got := stateReached(tt.state, tt.want); got != tt.ok {
			t.Errorf("stateReached(%s, %v) = %v", tt.state, tt.want, got)
		}
	}
}

func TestDecodeStop(t *testing.T) {
	tests := []struct {
		body, signal, err string
	}{
		{"", "", ""},
		{`{"signal":"SIGTERM","timeout":"10s"}`, "SIGTERM", ""},
		{`{"id":"x","timeout":"0s"}`, "", ""},
		{"[]", "", "json: cannot unmarshal array into Go value of type main.stopRequest"},
		{`"stop"`, "", "json: cannot unmarshal string into Go value of type main.stopRequest"},
		{"{", "", "unexpected end of JSON input"},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest("POST", "/", strings.NewReader(tt.body))
		in, err := decodeStop(r)
		if (tt.err == "") != (err == nil) || (err != nil && err.Error() != tt.err) || in.Signal != tt.signal {
			t.Errorf("decodeStop(%q) = %+v, %v", tt.body, in, err)
		}
	}
}
