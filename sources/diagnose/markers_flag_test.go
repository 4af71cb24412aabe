package diagnose

import (
	"testing"
	"time"
)

func TestParseMarker(t *testing.T) {
	tests := []struct {
		spec    string
		wantErr bool
		name    string
	}{
		{"warm cache=warming .* cache", false, "warm cache"},
		{" index = building index", false, "index"},
		{"no-equals", true, ""},
		{"=regex", true, ""},
		{"name=", true, ""},
		{"bad=(", true, ""},
		{"\x1b[2Jwarm=warming", true, ""}, // the name is drawn: it must be plain text
	}
	for _, tt := range tests {
		m, err := ParseMarker(tt.spec, true)
		if (err != nil) != tt.wantErr {
			t.Errorf("%q: err %v, want error %v", tt.spec, err, tt.wantErr)
			continue
		}
		if err == nil && (m.Name != tt.name || !m.ReleaseWork || m.Kind != PhaseStart || m.Provider != "app") {
			t.Errorf("%q: got %+v", tt.spec, m)
		}
	}
}

// A user's marker turns its lines into a phase of the boot timeline.
func TestUserMarkerBecomesPhase(t *testing.T) {
	warm, err := ParseMarker("warm cache=warming the cache", true)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	lines := []LogLine{
		{Time: at(0), Machine: "m1", Provider: "runner", Message: "Configuring firecracker"},
		{Time: at(1), Machine: "m1", Provider: "runner", Message: "Machine started in 1.000s"},
		{Time: at(1.5), Machine: "m1", Provider: "app", Message: "warming the cache for 3 tenants"},
		{Time: at(9), Machine: "m1", Provider: "app", Message: "[INFO] Starting granian (WSGI; workers 2)"},
		{Time: at(12), Machine: "m1", Provider: "app", Message: `"GET /api/health/ HTTP/1.1" 200 15 3ms`},
	}
	boots := boots(lines, WithMarkers([]Marker{warm}))
	if len(boots) != 1 || !boots[0].Complete {
		t.Fatalf("boots: %+v", boots)
	}
	var found bool
	for _, ph := range boots[0].Phases {
		if ph.Name == "warm cache" {
			found = true
			if d := ph.End.Sub(ph.Start); d != 7500*time.Millisecond || !ph.ReleaseWork {
				t.Errorf("warm cache phase %s (release work %v), want 7.5s release work", d, ph.ReleaseWork)
			}
		}
	}
	if !found {
		t.Errorf("no warm cache phase in %+v", boots[0].Phases)
	}
}
