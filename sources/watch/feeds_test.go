package watch

import (
	"testing"
	"time"
)

func TestLogsPollSlowsOnAQuietApp(t *testing.T) {
	tests := []struct {
		busy, transitioning bool
		want                time.Duration
	}{
		{true, false, LogsEvery},
		{false, true, LogsEvery},
		{false, false, LogsQuiet},
	}
	for _, tt := range tests {
		if got := LogsInterval(tt.busy, tt.transitioning); got != tt.want {
			t.Errorf("LogsInterval(busy=%v, transitioning=%v) = %s, want %s", tt.busy, tt.transitioning, got, tt.want)
		}
	}
	if LogsQuiet <= LogsEvery {
		t.Errorf("the quiet interval %s must be longer than the busy one %s", LogsQuiet, LogsEvery)
	}
}

func TestFeedNamesAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Feeds() {
		if f.Name == "" || f.Fetch == nil || f.Next == nil || f.Timeout <= 0 {
			t.Errorf("feed %q is incomplete", f.Name)
		}
		if seen[f.Name] {
			t.Errorf("two feeds named %q", f.Name)
		}
		seen[f.Name] = true
	}
}
