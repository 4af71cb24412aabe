package fly

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

func TestMachineCallsSendWhatTheAPIExpects(t *testing.T) {
	var mu sync.Mutex
	bodies := map[string][]string{} // path -> bodies, retries included
	first := map[string]bool{}
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies[r.URL.Path] = append(bodies[r.URL.Path], string(b))
		retry := !first[r.URL.Path]
		first[r.URL.Path] = true
		mu.Unlock()
		if r.URL.Path != "/v1/apps/app1/machines/m1/exec" && r.URL.Path != "/v1/apps/app1/machines/m1/lease" &&
			r.Header.Get("fly-machine-lease-nonce") != "n0nce" {
			t.Errorf("%s %s sent without the lease nonce", r.Method, r.URL.Path)
		}
		if retry { // every POST is throttled once, so its body must be replayed
			w.Header().Set("Retry-After", "1")
			writeJSON(w, 429, `{"error":"rate limit exceeded"}`)
			return
		}
		if serveLease(w, r) {
			return
		}
		switch r.URL.Path {
		case "/v1/apps/app1/machines/m1/start":
			writeJSON(w, 200, `{"status":"ok","previous_state":"suspended"}`)
		case "/v1/apps/app1/machines/m1/exec":
			writeJSON(w, 200, `{"exit_code":127,"stderr":"sh: 1: python3: not found"}`)
		default:
			writeJSON(w, 200, `{}`)
		}
	}))
	c, _ := newTestClient(t, srv.URL, "")
	ctx := context.Background()
	res, err := c.Start(ctx, "app1", "m1")
	if err != nil || res.PreviousState != "suspended" {
		t.Fatalf("Start = %+v, %v", res, err)
	}
	if err := c.Stop(ctx, "app1", "m1", "sigint", 5*time.Second); err != nil {
		t.Fatal(err)
	}
	out, err := c.Exec(ctx, "app1", "m1", "python3 -V", 7*time.Second)
	if err != nil || out.ExitCode != 127 || out.StdErr != "sh: 1: python3: not found" {
		t.Fatalf("Exec = %+v, %v", out, err)
	}
	var stop struct {
		ID, Signal, Timeout string
	}
	var exec struct {
		Cmd     string
		Timeout int
	}
	mu.Lock()
	defer mu.Unlock()
	stopBodies, execBodies := bodies["/v1/apps/app1/machines/m1/stop"], bodies["/v1/apps/app1/machines/m1/exec"]
	if len(stopBodies) != 2 || stopBodies[0] != stopBodies[1] || len(execBodies) != 2 || execBodies[0] != execBodies[1] {
		t.Fatalf("retried POST bodies differ or are missing: stop %q exec %q", stopBodies, execBodies)
	}
	if err := json.Unmarshal([]byte(stopBodies[1]), &stop); err != nil || stop.ID != "m1" || stop.Signal != "SIGINT" || stop.Timeout != "5s" {
		t.Errorf("stop body %s decoded as %+v (%v)", stopBodies[1], stop, err)
	}
	if err := json.Unmarshal([]byte(execBodies[1]), &exec); err != nil || exec.Cmd != "python3 -V" || exec.Timeout != 7 {
		t.Errorf("exec body %s decoded as %+v (%v)", execBodies[1], exec, err)
	}
}

func TestNamesThatWouldChangeThePathAreRefused(t *testing.T) {
	c, _ := newTestClient(t, "http://127.0.0.1:1", "")
	ctx := context.Background()
	for _, id := range []string{"", "../other", "m1?x=1", "a b"} {
		if _, err := c.GetMachine(ctx, "app1", id); err == nil {
			t.Errorf("GetMachine(%q) accepted", id)
		}
	}
	if _, err := c.ListMachines(ctx, "app/x"); err == nil {
		t.Error("ListMachines(app/x) accepted")
	}
}
