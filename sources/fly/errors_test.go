package fly

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// statusServer answers every request with one status and body.
func statusServer(t *testing.T, status int, body string) string {
	return newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, status, body)
	})).URL
}

func TestErrorClassification(t *testing.T) {
	ctx := context.Background()
	type op func(c *Client) error
	listMachines := func(c *Client) error { _, err := c.ListMachines(ctx, "app1"); return err }
	getMachine := func(c *Client) error { _, err := c.GetMachine(ctx, "app1", "m1"); return err }
	suspend := func(c *Client) error { return c.Suspend(ctx, "app1", "m1") }
	exec := func(c *Client) error { _, err := c.Exec(ctx, "app1", "m1", "printenv", 5*time.Second); return err }
	logs := func(c *Client) error { _, _, err := c.Logs(ctx, "app1", "", "", ""); return err }
	tests := []struct {
		name      string
		status    int
		body      string
		call      op
		want      error
		wantInMsg string
	}{
		{"list 404 is an unknown app", 404, `{"error":"app not found"}`, listMachines, ErrUnknownApp{}, "`fly apps list`"},
		{"get 404 machine not found", 404, `{"error":"machine not found"}`, getMachine, ErrMachineNotFound{}, "m1"},
		{"get 404 app not found", 404, `{"error":"app not found"}`, getMachine, ErrUnknownApp{}, `app "app1" not found`},
		{"401 bad token", 401, `{"error":"unauthorized"}`, listMachines, ErrBadToken{}, "the API refused the token (401)"},
		{"403 bad token", 403, `{"error":"forbidden"}`, suspend, ErrBadToken{}, "fly tokens deploy"},
		{"412 text verbatim", 412, `{"error":"failed_precondition: Machines with swap cannot be suspended"}`, suspend,
			ErrPrecondition{}, "failed_precondition: Machines with swap cannot be suspended"},
		{"exec on a stopped machine", 412, `{"error":"failed_precondition: machine not running"}`, exec,
			ErrPrecondition{}, "failed_precondition: machine not running"},
		{"500 api down", 500, `{"error":"internal"}`, getMachine, ErrAPIDown{}, "HTTP 500"},
		{"422 rejected", 422, `{"error":"invalid config"}`, suspend, ErrRejected{}, "invalid config"},
		{"logs 404", 404, `{}`, logs, ErrUnknownApp{}, "app1"},
		{"logs 401", 401, `{}`, logs, ErrBadToken{}, "fly auth login"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestClient(t, statusServer(t, tt.status, tt.body), "fo1_sometoken")
			err := tt.call(c)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %T %v, want %T", err, err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.wantInMsg) {
				t.Errorf("message %q lacks %q", err.Error(), tt.wantInMsg)
			}
		})
	}
}

func TestPreconditionTextIsKeptVerbatim(t *testing.T) {
	const text = "failed_precondition: Machines with swap cannot be suspended"
	c, _ := newTestClient(t, statusServer(t, 412, `{"error":"`+text+`"}`), "")
	var pe ErrPrecondition
	if err := c.Suspend(context.Background(), "app1", "m1"); !errors.As(err, &pe) || pe.Text != text {
		t.Fatalf("Suspend = %v; want ErrPrecondition with Text %q", err, text)
	}
}

func TestConnectionRefusedIsAPIDown(t *testing.T) {
	srv := newLocalServer(t, http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, _ := newTestClient(t, url, "")
	_, err := c.GetMachine(context.Background(), "app1", "m1")
	if !errors.Is(err, ErrAPIDown{}) || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("GetMachine against a closed port = %v, want ErrAPIDown mentioning refused", err)
	}
	if strings.Contains(err.Error(), "api.machines.dev") {
		t.Errorf("message %q names fly-go's default host instead of the real target", err)
	}
}

func TestHungAPIHitsDefaultDeadline(t *testing.T) {
	release := make(chan struct{})
	srvURL := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})).URL
	defer close(release)
	c, _ := newTestClient(t, srvURL, "")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.GetMachine(ctx, "app1", "m1")
	if !errors.Is(err, ErrAPIDown{}) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("GetMachine on a hung API = %v, want ErrAPIDown wrapping DeadlineExceeded", err)
	}
}

func TestWithDeadlineKeepsCallerDeadline(t *testing.T) {
	parent, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	want, _ := parent.Deadline()
	ctx, done := withDeadline(parent, time.Second)
	defer done()
	if got, _ := ctx.Deadline(); !got.Equal(want) {
		t.Errorf("caller deadline replaced: %v, want %v", got, want)
	}
	ctx2, done2 := withDeadline(context.Background(), time.Second)
	defer done2()
	if _, ok := ctx2.Deadline(); !ok {
		t.Error("no default deadline applied")
	}
}

func TestTokenNeverLeaks(t *testing.T) {
	const token = "FlyV1 fm2_SuperSecretMacaroonPayload123,fm2_SecondSecretPiece456"
	// A hostile or buggy server that echoes the Authorization header back.
	echo := func(status int) string {
		return newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			auth := r.Header.Get("Authorization")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error":"failed_precondition: bad header %s","status":"%s"}`, auth, auth)
		})).URL
	}
	ctx := context.Background()
	for _, status := range []int{400, 401, 404, 412, 422, 429, 500} {
		c, _ := newTestClient(t, echo(status), token)
		errs := []error{
			c.Suspend(ctx, "app1", "m1"),
			func() error { _, err := c.ListMachines(ctx, "app1"); return err }(),
			func() error { _, err := c.PromQuery(ctx, "personal", "up", time.Time{}); return err }(),
			func() error { _, _, err := c.Logs(ctx, "app1", "", "", ""); return err }(),
		}
		for i, err := range errs {
			if err == nil {
				t.Fatalf("status %d call %d: no error", status, i)
			}
			for _, shown := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err), c.Stats().LastError} {
				for _, secret := range []string{"SuperSecretMacaroonPayload123", "SecondSecretPiece456"} {
					if strings.Contains(shown, secret) {
						t.Errorf("status %d call %d leaked the token: %s", status, i, shown)
					}
				}
			}
		}
	}
}
