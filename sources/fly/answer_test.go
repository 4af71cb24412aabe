package fly

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim"
)

// A machines answer with nulls in it — a null machine, "checks":[null],
// "events":[null] — crashed fly-go v0.5.0 (RemoveCompatChecks) and flywake.
// Through a real HTTP answer, the nulls are dropped and counted, and
// "cordoned", which fly-go does not decode, is read.
func TestNullEntriesAreSkippedAndCounted(t *testing.T) {
	list := `[null,
		{"id":"m1","state":"started","cordoned":true,"checks":[null,{"name":"hc","status":"passing"}],"events":[null],"containers":[null]},
		{"id":"m2","state":"stopped","checks":[{"name":"bg_deployments_compat_x","status":"passing"}]},
		42,
		{"id":"m3","state":{"not":"a string"}}]`
	one := `{"id":"m1","state":"started","checks":[null],"events":[null,{"type":"start","status":"started","timestamp":1}]}`
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/machines") {
			writeJSON(w, 200, list)
			return
		}
		writeJSON(w, 200, one)
	}))
	c, _ := newTestClient(t, srv.URL, "")
	l, err := c.List(context.Background(), "app1")
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(l.Machines) != 2 || l.Machines[0].ID != "m1" || l.Machines[1].ID != "m2" {
		t.Fatalf("machines = %+v", l.Machines)
	}
	// null machine, 42, m3 (undecodable), and m1's null check, event and container
	if l.Malformed != 6 {
		t.Errorf("Malformed = %d, want 6", l.Malformed)
	}
	// Which entries: m3 still names itself, so a judge that saw m3 before
	// knows it was not read rather than gone.
	if fmt.Sprint(l.Skipped) != "[  m3]" || len(l.Partial) != 1 || l.Partial["m1"] != 3 {
		t.Errorf("Skipped = %q, Partial = %v; want the null, 42 and m3, and m1's three nulls", l.Skipped, l.Partial)
	}
	if !l.Cordoned["m1"] || l.Cordoned["m2"] {
		t.Errorf("Cordoned = %v, want only m1", l.Cordoned)
	}
	for _, m := range l.Machines {
		for _, ck := range m.Checks {
			if ck == nil {
				t.Errorf("%s: a nil check survived", m.ID)
			}
		}
		for _, e := range m.Events {
			if e == nil {
				t.Errorf("%s: a nil event survived", m.ID)
			}
		}
	}
	if n := len(l.Machines[0].Checks); n != 1 {
		t.Errorf("m1 has %d checks, want 1", n)
	}
	m, err := c.GetMachine(context.Background(), "app1", "m1")
	if err != nil || m.ID != "m1" || len(m.Checks) != 0 || len(m.Events) != 1 || m.Events[0] == nil {
		t.Fatalf("GetMachine = %+v, %v", m, err)
	}
}

// The same through flysim's NullEntries knob.
func TestNullEntriesFromFlysim(t *testing.T) {
	t.Parallel()
	sim, client := faultSim(t)
	sim.SetFault("list", flysim.Fault{NullEntries: true})
	l, err := client.List(context.Background(), flysim.DemoTuned)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if want := 1 + 2*len(l.Machines); l.Malformed != want || len(l.Machines) == 0 {
		t.Errorf("%d machines, Malformed = %d, want %d", len(l.Machines), l.Malformed, want)
	}
}

// flysim's odd answers over HTTP: an undecodable machine is skipped by id,
// a null one without, a null check is a partial read of its machine.
func TestOddMachinesFromFlysim(t *testing.T) {
	t.Parallel()
	sim, client := faultSim(t)
	l, err := client.List(context.Background(), flysim.DemoTuned)
	if err != nil || len(l.Machines) < 3 {
		t.Fatalf("List: %d machines, %v", len(l.Machines), err)
	}
	a, b, c := l.Machines[0].ID, l.Machines[1].ID, l.Machines[2].ID
	sim.SetFault("list", flysim.Fault{Odd: map[string]flysim.Oddity{a: flysim.OddUndecodable, b: flysim.OddNull, c: flysim.OddChecks}})
	odd, err := client.List(context.Background(), flysim.DemoTuned)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(odd.Machines) != len(l.Machines)-2 || fmt.Sprint(odd.Skipped) != fmt.Sprint([]string{a, ""}) || odd.Partial[c] != 1 || odd.Malformed != 3 {
		t.Errorf("%d of %d machines, Skipped %q, Partial %v, Malformed %d; want %s and a null skipped, one null check of %s",
			len(odd.Machines), len(l.Machines), odd.Skipped, odd.Partial, odd.Malformed, a, c)
	}
}

// A 2xx that fly-go cannot decode says what it was, with its first bytes
// inert and the token out; Stats' last error is this answer, not an older
// unrelated one.
func TestBadAnswersAreNamed(t *testing.T) {
	const token = "fo1_CANARY_bad_answers_0123456789"
	tests := []struct {
		name, body, contentType, want string
	}{
		{"truncated JSON", `[{"id":"m1","state":"star`, "application/json", `something that is not JSON: "[{\"id\":\"m1\",\"state\":\"star"`},
		{"garbage with escapes", "\x1b]0;pwned\x07 garbage " + token, "application/json", `something that is not JSON: "␛]0;pwned␇ garbage [REDACTED]" (application/json)`},
		{"an HTML 200", "<!DOCTYPE html><html><head><title>Fly.io proxy</title></head><body>" + strings.Repeat("x", 200), "text/html; charset=utf-8", `something that is not JSON: "<!DOCTYPE html><html><head><title>Fly.io proxy</title></head"… (text/html; charset=utf-8)`},
		{"an empty body", "", "application/json", "an empty body"},
		{"JSON of another shape", `{"machines":[]}`, "application/json", "JSON of another shape (json: cannot unmarshal object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := true
			srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if first { // an older, unrelated failure
					first = false
					writeJSON(w, 500, `{"error":"old failure"}`)
					return
				}
				w.Header().Set("Content-Type", tt.contentType)
				w.WriteHeader(200)
				_, _ = w.Write([]byte(tt.body))
			}))
			c, _ := newTestClient(t, srv.URL, token)
			_, _ = c.ListMachines(context.Background(), "app1")
			_, err := c.ListMachines(context.Background(), "app1")
			if !errors.Is(err, ErrBadAnswer{}) {
				t.Fatalf("ListMachines = %T %v, want ErrBadAnswer", err, err)
			}
			if !strings.Contains(err.Error(), "list machines of app1: the API answered "+tt.want) {
				t.Errorf("error = %q\nwant it to contain %q", err, tt.want)
			}
			if strings.ContainsAny(err.Error(), "\x1b\x07") || strings.Contains(err.Error(), token) {
				t.Errorf("error not inert or not redacted: %q", err)
			}
			st := c.Stats()
			if strings.Contains(st.LastError, "old failure") || !strings.Contains(st.LastError, "GET /v1/apps/app1/machines") {
				t.Errorf("LastError = %q, want this answer", st.LastError)
			}
		})
	}
}

// The logs API and Prometheus answer through the same transport: a non-JSON
// 200 is named there too.
func TestBadAnswersOnLogsAndProm(t *testing.T) {
	t.Parallel()
	sim, client := faultSim(t)
	sim.SetFault("logs", flysim.Fault{Body: "<html>maintenance</html>"})
	sim.SetFault("prom", flysim.Fault{Body: "<html>maintenance</html>"})
	if _, _, err := client.Logs(context.Background(), flysim.DemoTuned, "", "", ""); !errors.Is(err, ErrBadAnswer{}) || !strings.Contains(err.Error(), `not JSON: "<html>maintenance</html>"`) {
		t.Errorf("Logs = %v, want ErrBadAnswer", err)
	}
	if _, err := client.PromQuery(context.Background(), sim.Org(), "up", sim.Clock().Now()); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("PromQuery = %v, want it to say not JSON", err)
	}
}

// The token inside platform data — an app that logs it, a machine named
// after it — never reaches the caller: answers are redacted before they are
// decoded, the JSON-escaped form ("\/") included, and again after, so one
// "\u" escape in the middle does not hide it.
func TestTokenInAnswersIsRedacted(t *testing.T) {
	const token = "FlyV1 fm2_lJPE/abc+def=="
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"data":[
			{"id":"1","type":"logs","attributes":{"timestamp":"2026-05-01T12:00:00Z","message":"Authorization: FlyV1 fm2_lJPE/abc+def==","instance":"m1"}},
			{"id":"2","type":"logs","attributes":{"timestamp":"2026-05-01T12:00:01Z","message":"escaped fm2_lJPE\/abc+def==","instance":"m1"}},
			{"id":"3","type":"logs","attributes":{"timestamp":"2026-05-01T12:00:02Z","message":"one escape fm2_lJP\u0045/abc+def==","instance":"m1"}}],
			"meta":{"next_token":"1"}}`)
	}))
	c, _ := newTestClient(t, srv.URL, token)
	entries, _, err := c.Logs(context.Background(), "app1", "", "", "")
	if err != nil || len(entries) != 3 {
		t.Fatalf("Logs: %d entries, %v", len(entries), err)
	}
	for _, e := range entries {
		if strings.Contains(e.Message, "fm2_lJPE") || !strings.Contains(e.Message, "[REDACTED]") {
			t.Errorf("log line not redacted: %q", e.Message)
		}
	}

	sim, client := faultSim(t)
	sim.SetFault("list", flysim.Fault{Hostile: "-" + faultToken})
	ms, err := client.ListMachines(context.Background(), flysim.DemoTuned)
	if err != nil || len(ms) == 0 {
		t.Fatalf("ListMachines: %v", err)
	}
	for _, m := range ms {
		if strings.Contains(m.Name, faultToken) || !strings.Contains(m.Name, "[REDACTED]") {
			t.Fatalf("machine name not redacted: %q", m.Name)
		}
	}
}

// A server's status line and error body are its own text: the error and
// the header's last error show them inert.
func TestStatusLineAndErrorBodyAreInert(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				_, _ = bufio.NewReader(c).ReadString('\n')
				body := "{\"error\":\"\\u001b]0;pwned\\u0007 boom\"}"
				fmt.Fprintf(c, "HTTP/1.1 500 Oops \x1b]52;c;eA==\x07\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
			}(conn)
		}
	}()
	c, _ := newTestClient(t, "http://"+ln.Addr().String(), "")
	_, err = c.ListMachines(context.Background(), "app1")
	if err == nil {
		t.Fatal("a 500 succeeded")
	}
	for what, s := range map[string]string{"error": err.Error(), "last error": c.Stats().LastError} {
		if strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("%s not inert: %q", what, s)
		}
	}
	if !strings.Contains(err.Error(), "␛]0;pwned␇ boom") {
		t.Errorf("error %q does not show the API's text", err)
	}
}

// A call its caller cancels (a quit, an app switch) is not the API's
// failure: the header's last error stays empty. A deadline that passes is.
func TestCanceledCallIsNotALastError(t *testing.T) {
	release := make(chan struct{})
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer close(release)
	var debug bytes.Buffer
	c, err := newClient(context.Background(), Config{FlapsURL: srv.URL, APIURL: srv.URL, Token: "tok", Debug: NewDebugLog(&debug)},
		func(string) string { return "" }, newFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := c.ListMachines(ctx, "app1"); err == nil {
		t.Fatal("a canceled call succeeded")
	}
	if st := c.Stats(); st.LastError != "" {
		t.Errorf("LastError = %q after the caller canceled", st.LastError)
	}
	// The debug log still records the attempt and how it ended.
	if !strings.Contains(debug.String(), "api GET /v1/apps/app1/machines failed after ") {
		t.Errorf("the debug log has no line for the canceled call:\n%s", debug.String())
	}
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.ListMachines(ctx, "app1"); err == nil {
		t.Fatal("a call past its deadline succeeded")
	}
	if st := c.Stats(); st.LastError == "" {
		t.Error("a call past its deadline left no last error")
	}
}

// Listing.Hashes: one per machine entry, by id, the same for an entry the
// API sends again byte for byte and another for one that changed (cordoned
// included), so a converter can skip the unchanged.
func TestListingHashesEachEntry(t *testing.T) {
	lists := []string{
		`[{"id":"m1","state":"started"},{"id":"m2","state":"stopped"}]`,
		`[{"id":"m1","state":"started"},{"id":"m2","state":"stopped","cordoned":true}]`,
	}
	n := 0
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, lists[n])
	}))
	c, _ := newTestClient(t, srv.URL, "")
	var got [2]map[string]uint64
	for n = range lists {
		l, err := c.List(context.Background(), "app1")
		if err != nil {
			t.Fatalf("List: %v", err)
		}
		got[n] = l.Hashes
	}
	if len(got[0]) != 2 || got[0]["m1"] == 0 || got[0]["m1"] == got[0]["m2"] {
		t.Fatalf("first listing's hashes = %v, want two different ones", got[0])
	}
	if got[1]["m1"] != got[0]["m1"] || got[1]["m2"] == got[0]["m2"] {
		t.Errorf("hashes %v then %v: want m1's the same and m2's changed", got[0], got[1])
	}
}

// Listing.Order: the same hashes, one per machine in Machines' order, a
// skipped entry (null) taking no place, so Order[i] is Machines[i]'s.
func TestListingOrderFollowsMachines(t *testing.T) {
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `[{"id":"m1","state":"started"},null,{"id":"m2","state":"stopped"},{"id":"m3","checks":[null]}]`)
	}))
	c, _ := newTestClient(t, srv.URL, "")
	l, err := c.List(context.Background(), "app1")
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(l.Machines) != 3 || len(l.Order) != 3 {
		t.Fatalf("%d machines, %d hashes in order: want 3 and 3", len(l.Machines), len(l.Order))
	}
	for i, m := range l.Machines {
		if l.Order[i] != l.Hashes[m.ID] || l.Order[i] == 0 {
			t.Errorf("Order[%d] = %x, Hashes[%s] = %x: want the same", i, l.Order[i], m.ID, l.Hashes[m.ID])
		}
	}
}
