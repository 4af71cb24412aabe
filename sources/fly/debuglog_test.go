package fly

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/superfly/fly-go/tokens"
)

// The debug log records each attempt, the retry after a 429 and a
// failure, and never the token — not even when the server echoes it.
func TestDebugLogRecordsCallsNotTheToken(t *testing.T) {
	const token = "FlyV1 fm2_DebugSecretPiece123,fm2_OtherSecretPiece456"
	var calls atomic.Int32
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			writeJSON(w, 429, `{"error":"rate limit exceeded"}`)
			return
		}
		writeJSON(w, 500, fmt.Sprintf(`{"error":"internal: saw %s"}`, r.Header.Get("Authorization")))
	}))
	var buf bytes.Buffer
	clk := newFakeClock()
	c, err := newClient(context.Background(), Config{FlapsURL: srv.URL, APIURL: srv.URL, Token: token, Debug: NewDebugLog(&buf)},
		func(string) string { return "" }, clk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	_, callErr := c.ListMachines(context.Background(), "app1")
	if callErr == nil {
		t.Fatal("a 500 passed as success")
	}
	c.cfg.Debug.Printf("command failed: %v (token %s)", callErr, token)

	log := buf.String()
	for _, want := range []string{
		"api GET /v1/apps/app1/machines → 429 in ",
		"api GET /v1/apps/app1/machines → 429: retry 1 of 3 in 1s",
		"api GET /v1/apps/app1/machines → 500 in ",
		"command failed: ",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("debug log lacks %q:\n%s", want, log)
		}
	}
	for _, secret := range []string{token, tokens.StripAuthorizationScheme(token), "DebugSecretPiece123", "OtherSecretPiece456"} {
		if strings.Contains(log, secret) {
			t.Errorf("debug log holds %q:\n%s", secret, log)
		}
	}
}

func TestDebugLogFailureAndNil(t *testing.T) {
	var buf bytes.Buffer
	d := NewDebugLog(&buf, "fo1_secret_abcdef")
	d.apiFailed("GET", "/v1/apps", fmt.Errorf("dial tcp: connection refused (fo1_secret_abcdef)"), 0)
	d.Printf("two\nlines")
	if got := buf.String(); !strings.Contains(got, "api GET /v1/apps failed after 0s: dial tcp: connection refused ([REDACTED])") ||
		!strings.Contains(got, "two\n    lines\n") {
		t.Errorf("log:\n%s", got)
	}
	var none *DebugLog
	none.Printf("nothing") // a nil log logs nothing and does not panic
	none.AddSecret("x")
}
