package watch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly"
)

// Log lines come from the app itself: any timestamp, message or instance
// converts to a LogLine without panicking, and keeps what it was given.
func FuzzToLogLine(f *testing.F) {
	f.Add("2025-11-30T12:00:00.123456789Z", "Listening on 0.0.0.0:8000", "148ed123456789", "", "app", "")
	f.Add("not a time", "", "", "e784e903f0e528", "runner", "health check failed")
	f.Add("2025-13-45T99:99:99Z", "\x1b[31mred\x1b[0m\n", "", "", "", "\"quoted\"")
	f.Add("", "error.message=\"x\"", "a", "b", "proxy", "could not find a good candidate within 40 attempts at load balancing")
	f.Fuzz(func(t *testing.T, ts, msg, instance, metaInstance, provider, errMsg string) {
		var e fly.LogEntry
		e.Timestamp, e.Message, e.Instance = ts, msg, instance
		e.Meta.Instance, e.Meta.Event.Provider, e.Meta.Error.Message = metaInstance, provider, errMsg
		l := toLogLine(e)
		wantMachine := instance
		if wantMachine == "" {
			wantMachine = metaInstance
		}
		if l.Machine != wantMachine || l.Provider != provider || !strings.HasPrefix(l.Message, msg) {
			t.Errorf("toLogLine(%+v) = %+v", e, l)
		}
		if errMsg == "" && l.Message != msg {
			t.Errorf("message %q became %q", msg, l.Message)
		}
		if at, err := time.Parse(time.RFC3339Nano, ts); err == nil && !l.Time.Equal(at) {
			t.Errorf("timestamp %q became %s", ts, l.Time)
		}
	})
}

// A logs page is a JSON:API document decoded by fly-go; Source.Logs pages
// through whatever the API answers (served here on 127.0.0.1) and never
// panics, loops or returns more lines than the pages held.
func FuzzLogsPage(f *testing.F) {
	for _, s := range []string{
		`{"data":[{"id":"1","type":"logs","attributes":{"timestamp":"2025-11-30T12:00:00Z","message":"hi","level":"info","instance":"148ed123456789","region":"ams","meta":{"event":{"provider":"app"}}}}],"meta":{"next_token":"1764504000000000001"}}`,
		`{"data":[],"meta":{"next_token":""}}`,
		`{"data":[{"attributes":{"timestamp":7,"message":null}}],"meta":{}}`,
		`{"data":null,"meta":{"next_token":"x"}}`,
		`{"data":[{"attributes":{"meta":{"error":{"code":1,"message":"boom"},"http":{"response":{"status_code":"502"}}}}}]}`,
		`{"id": `, `[]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var pages atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			pages.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}))
		defer srv.Close()
		c, err := fly.New(context.Background(), fly.Config{FlapsURL: srv.URL, APIURL: srv.URL, Token: "fuzz-token-abcdef"})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		now := time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)
		src := &Source{Client: c, Org: "org", Now: func() time.Time { return now }}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		lines, token, err := src.Logs(ctx, "app", "")
		if pages.Load() > 2 {
			t.Errorf("one repeating page was fetched %d times", pages.Load())
		}
		if err == nil && token == "" {
			t.Error("no token to continue from")
		}
		if strings.Count(string(body), "{")*int(pages.Load()) < len(lines) {
			t.Errorf("%d lines from %d pages of %q", len(lines), pages.Load(), body)
		}
	})
}
