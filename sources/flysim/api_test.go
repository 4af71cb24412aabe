package flysim

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestPrintenvNeverShowsSecrets(t *testing.T) {
	s := New(Options{Seed: 3, NoTraffic: true, History: time.Hour})
	s.sched.Lock()
	m := s.apps[DemoScaleToZero].machines[0]
	g := s.guestOf(m)
	secrets := m.app.p.SecretEnv
	s.sched.Unlock()
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
