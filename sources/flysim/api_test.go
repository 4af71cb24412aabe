package flysim

import (
	"strings"
	"testing"
	"time"
)

func TestPrintenvNeverShowsSecrets(t *testing.T) {
	t.Parallel()
	s := New(Options{Seed: 3, NoTraffic: true, History: time.Hour})
	s.sched.Lock()
	m := s.store.App(DemoScaleToZero).Machines()[0]
	g := s.store.Guest(m)
	secrets := m.App().Profile().SecretEnv
	s.sched.Unlock()
	out := g.Exec("printenv", nil).StdOut
	for k, v := range secrets {
		if strings.Contains(out, k+"=") || strings.Contains(out, v) {
			t.Errorf("printenv shows secret %s", k)
		}
	}
	for _, want := range []string{"FLY_APP_NAME=sleepy-api", "FLY_MACHINE_ID=" + m.ID(), "PRIMARY_REGION=ams", "PYTHONDONTWRITEBYTECODE=1"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("printenv lacks %s", want)
		}
	}
}
