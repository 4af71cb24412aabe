package fly

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// Prometheus answers come from outside: parsePromQuery returns an error for
// anything it cannot read, never panics, and what it accepts is consistent.
func FuzzParsePromQuery(f *testing.F) {
	for _, s := range []string{
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"status":"200"},"value":[1764504000.5,"42"]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1764504000,"NaN"]},{"value":[0,"+Inf"]}]}}`,
		`{"status":"success","data":{"resultType":"scalar","result":[1764504000.123,"1e3"]}}`,
		`{"status":"error","errorType":"bad_data","error":"parse error at char 5"}`,
		`{"status":"success","data":{"resultType":"matrix","result":[]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"value":[1e400,"1"]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"value":["x",1]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":null}}`,
		`{"id": `, ``, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		res, err := parsePromQuery(body)
		if err != nil {
			if len(err.Error()) > 400 {
				t.Errorf("error text of %d bytes: an answer is quoted whole", len(err.Error()))
			}
			return
		}
		switch res.ResultType {
		case "vector":
		case "scalar":
			if len(res.Samples) != 1 {
				t.Errorf("scalar with %d samples", len(res.Samples))
			}
		default:
			t.Errorf("accepted result type %q", res.ResultType)
		}
		for _, s := range res.Samples {
			if s.Labels == nil {
				t.Error("a sample without a label map")
			}
		}
	})
}

// A range query's answer comes from outside too: parsePromMatrix never
// panics, and what it accepts has label maps and points in time order.
func FuzzParsePromMatrix(f *testing.F) {
	for _, s := range []string{
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"status":"200"},"values":[[1764504000,"42"],[1764507600,"7.5"]]}]}}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"values":[[1,"NaN"],[1,"1"]]}]}}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":null,"values":null}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[]}}`,
		`{"status":"error","errorType":"bad_data","error":"zero or negative query resolution step widths are not accepted"}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"values":[[1e400,"1"]]}]}}`,
		`{"id": `, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		res, err := parsePromMatrix(body)
		if err != nil {
			if len(err.Error()) > 400 {
				t.Errorf("error text of %d bytes: an answer is quoted whole", len(err.Error()))
			}
			return
		}
		for _, s := range res {
			if s.Labels == nil {
				t.Error("a series without a label map")
			}
			for i := 1; i < len(s.Points); i++ {
				if !s.Points[i].Time.After(s.Points[i-1].Time) {
					t.Errorf("points out of order: %v then %v", s.Points[i-1].Time, s.Points[i].Time)
				}
			}
		}
	})
}

// ~/.fly/config.yml is the user's file, and it holds the token: whatever it
// contains, DiscoverToken never panics and never quotes the file in an error.
func FuzzDiscoverTokenConfig(f *testing.F) {
	for _, s := range []string{
		"access_token: fo1_CANARY_abcdefghijklmnopqrstuvwxyz\n",
		"access_token: \"FlyV1 fm2_lJPE,fm2_abcdef\"\nlast_login: 2025-11-30\nwire_guard_state: {}\n",
		"access_token: [1, 2]\n",
		"access_token: fo1_CANARY_unclosed \"quote\n\t- : :\n",
		"---\n...\n", "", "access_token:\n", "\xff\xfe", "{access_token: fo1_x", "- a\n- b\n",
	} {
		f.Add([]byte(s))
	}
	env := func(string) string { return "" }
	f.Fuzz(func(t *testing.T, data []byte) {
		home := t.TempDir()
		if err := os.MkdirAll(filepath.Join(home, ".fly"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".fly", "config.yml"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		token, source, err := DiscoverToken(env, home)
		if err != nil {
			text := strings.TrimSpace(string(data))
			if len(text) >= 12 && strings.Contains(err.Error(), text) {
				t.Errorf("the error quotes the config file: %v", err)
			}
			return
		}
		if token == "" || token != strings.TrimSpace(token) || source != "~/.fly/config.yml" {
			t.Errorf("DiscoverToken = %q from %q", token, source)
		}
	})
}

// A machines listing is whatever the API (or a proxy before it) answered:
// through the real transport and fly-go's decoding, List never panics, and
// what it returns holds no nil machine, check or event.
func FuzzListMachines(f *testing.F) {
	for _, s := range []string{
		`[]`, `null`, `[null]`, `[{}]`, `{}`, ``, `[{"id":"m1"`, `<html></html>`, `[42,"x",true]`,
		`[{"id":"m1","state":"started","checks":[null],"events":[null],"containers":[null],"cordoned":true}]`,
		`[{"id":"m1","config":null,"incomplete_config":{"services":[null],"checks":{"a":null}},"host_status":"unreachable"}]`,
		`[{"id":"m1","events":[{"type":"exit","request":{"exit_event":null,"MonitorEvent":{"exit_event":{"exit_code":1}}}}]}]`,
		`[{"id":"m1","config":{"guest":null,"init":{"swap_size_mb":null},"restart":null,"services":[{"autostop":"nope","concurrency":null}]}}]`,
		`[{"id":"m1","checks":"x"},{"id":"m2","state":5}]`,
	} {
		f.Add([]byte(s))
	}
	var body atomic.Pointer[[]byte]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(*body.Load())
	}))
	defer srv.Close()
	c, err := newClient(context.Background(), Config{FlapsURL: srv.URL, APIURL: srv.URL},
		func(string) string { return "" }, newFakeClock())
	if err != nil {
		f.Fatal(err)
	}
	defer c.Close()
	f.Fuzz(func(t *testing.T, b []byte) {
		body.Store(&b)
		l, err := c.List(context.Background(), "app1")
		if err != nil {
			if !errors.Is(err, ErrBadAnswer{}) {
				t.Fatalf("List = %T %v, want ErrBadAnswer for a bad answer", err, err)
			}
			return
		}
		if l.Malformed < 0 {
			t.Fatalf("Malformed = %d", l.Malformed)
		}
		for _, m := range l.Machines {
			if m == nil {
				t.Fatal("a nil machine")
			}
			for _, c := range m.Checks {
				if c == nil {
					t.Fatal("a nil check")
				}
			}
			for _, e := range m.Events {
				if e == nil {
					t.Fatal("a nil event")
				}
			}
		}
	})
}
