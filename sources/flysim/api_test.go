package flysim

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestPrintenvNeverShowsSecrets(t *testing.T) {
	s := New(Options{Seed: 3, NoTraffic: true, History: time.Hour})
	s.mu.Lock()
	m := s.apps[DemoScaleToZero].machines[0]
	g := s.guestOf(m)
	secrets := m.app.p.SecretEnv
	s.mu.Unlock()
	out := g.Exec("printenv", nil).StdOut
	for k, v := range secrets {
		if strings.Contains(out, k+"=") || strings.Contains(out, v) {
			t.Errorf("printenv shows secret %s", k)
		}
	}
	for _, want := range []string{"FLY_APP_NAME=sleepy-api", "FLY_MACHINE_ID=" + m.id, "PRIMARY_REGION=ams", "PYTHONDONTWRITEBYTECODE=1"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("printenv lacks %s", want)
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

func TestAuthorizedHeaderForms(t *testing.T) {
	s := &Sim{opts: Options{Token: "flysim_abc"}}
	tests := []struct {
		header string
		ok     bool
	}{
		{"Bearer flysim_abc", true},
		{"bearer flysim_abc", true},
		{"FlyV1 fm2_x,flysim_abc", true},
		{"FlyV1 fm2_x, flysim_abc ", true},
		{"Bearer flysim_ab", false},
		{"Bearer flysim_abcd", false},
		{"Bearer ", false},
		{"flysim_abc", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := s.authorized(tt.header); got != tt.ok {
			t.Errorf("authorized(%q) = %v", tt.header, got)
		}
	}
}

func TestRateLimitRefillsInWallTime(t *testing.T) {
	wall := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := &Sim{opts: Options{Wall: func() time.Time { return wall }, Seed: 1}}
	try := func() bool { s.countCall("start", "m1"); return s.allow("Machines_start", "start", "m1", defaultLimit) }
	var got []bool
	for i := 0; i < 4; i++ {
		got = append(got, try())
	}
	wall = wall.Add(999 * time.Millisecond)
	got = append(got, try())
	wall = wall.Add(2 * time.Millisecond)
	got = append(got, try(), try())
	want := []bool{true, true, true, false, false, true, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("admissions %v, want %v", got, want)
		}
	}
	if st := s.APIStats()["start:m1"]; st.Calls != 7 || st.Limited != 3 || st.MaxPerSecond != 5 {
		t.Errorf("stats = %+v", st)
	}
	s.ResetAPICalls()
	if len(s.APICalls()) != 0 {
		t.Errorf("ResetAPICalls left %v", s.APICalls())
	}
}
