package watch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly"
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

// A logs fetch whose page reaches the platform's now ends there: the page
// after it would be empty, one call more on every poll that brought lines.
// A page whose lines are older asks for the next one.
func TestLogsFetchEndsOnceCaughtUp(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		age   time.Duration
		pages int32
	}{
		{time.Second, 1},
		{time.Minute, 2},
	} {
		var pages atomic.Int32
		line := now.Add(-tt.age)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			pages.Add(1)
			w.Header().Set("Content-Type", "application/json")
			token := strconv.FormatInt(line.UnixNano(), 10)
			if r.URL.Query().Get("next_token") == token {
				fmt.Fprintf(w, `{"data":[],"meta":{"next_token":%q}}`, token)
				return
			}
			fmt.Fprintf(w, `{"data":[{"id":"1","attributes":{"timestamp":%q,"message":"hello","instance":"m1"}}],"meta":{"next_token":%q}}`,
				line.Format(time.RFC3339Nano), token)
		}))
		c, err := fly.New(context.Background(), fly.Config{FlapsURL: srv.URL, APIURL: srv.URL, Token: "test-token-abcdef"})
		if err != nil {
			t.Fatal(err)
		}
		src := &Source{Client: c, Org: "org", Now: func() time.Time { return now }}
		lines, _, err := src.Logs(context.Background(), "app", strconv.FormatInt(now.Add(-time.Hour).UnixNano(), 10))
		c.Close()
		srv.Close()
		if err != nil || len(lines) != 1 {
			t.Fatalf("lines %s old: %d lines, %v", tt.age, len(lines), err)
		}
		if got := pages.Load(); got != tt.pages {
			t.Errorf("newest line %s old: %d pages fetched, want %d", tt.age, got, tt.pages)
		}
	}
}
