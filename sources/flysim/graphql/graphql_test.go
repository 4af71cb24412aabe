package graphql

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func run(t *testing.T, query string, vars map[string]any, root Object) (map[string]any, []responseError) {
	t.Helper()
	h := &Handler{Run: func(fn func(q, m Object)) { fn(root, Object{}) }}
	out := h.Do(Request{Query: query, Variables: vars})
	// Round-trip through JSON, as a client sees it.
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Data   map[string]any  `json:"data"`
		Errors []responseError `json:"errors"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return back.Data, back.Errors
}

// The executor completes what resolvers give by the schema: aliases,
// arguments from variables, fragments, nulls and zeros where nothing was
// resolved, errors with Fly's codes, and an answer that conforms.
func TestExecute(t *testing.T) {
	created := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	root := Object{
		"app": Field(func(args map[string]any) (any, error) {
			if args["name"] != "a" {
				return nil, &Error{Message: "Could not find App", Code: "NOT_FOUND"}
			}
			return Object{"id": "app1", "name": "a", "deployed": true, "createdAt": created, "internalNumericId": 7,
				"organization": Object{"slug": "org", "internalNumericId": int64(12345678901)}}, nil
		}),
	}
	query := `query ($n: String!) {
		x: app(name: $n) { id name deployed createdAt status internalNumericId currentRelease { version }
			organization { ...o } }
	}
	fragment o on Organization { slug internalNumericId paidPlan }`
	data, errs := run(t, query, map[string]any{"n": "a"}, root)
	if len(errs) != 0 {
		t.Fatalf("errors %v", errs)
	}
	got, _ := json.Marshal(data)
	want := `{"x":{"createdAt":"2026-11-30T09:00:00Z","currentRelease":null,"deployed":true,"id":"app1","internalNumericId":7,` +
		`"name":"a","organization":{"internalNumericId":"12345678901","paidPlan":false,"slug":"org"},"status":""}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if bad, err := Conform(query, "", data); err != nil || len(bad) != 0 {
		t.Errorf("the executor's answer does not conform: %v %v", bad, err)
	}

	data, errs = run(t, query, map[string]any{"n": "b"}, root)
	if len(errs) != 1 || errs[0].Extensions["code"] != "NOT_FOUND" || !equalPath(errs[0].Path, "x") || data["x"] != nil {
		t.Errorf("a resolver's error: %v %v", data, errs)
	}
	if _, errs := run(t, `{ app(name: "a") { nope } }`, nil, root); len(errs) != 1 || !strings.Contains(errs[0].Message, "nope") {
		t.Errorf("an invalid query: %v", errs)
	}
	if _, errs := run(t, `query ($n: String!) { app(name: $n) { id } }`, map[string]any{"n": 5}, root); len(errs) != 1 {
		t.Errorf("a variable of the wrong type: %v", errs)
	}
}

func equalPath(p []any, want ...string) bool {
	if len(p) != len(want) {
		return false
	}
	for i := range p {
		if p[i] != want[i] {
			return false
		}
	}
	return true
}

// Conform finds what breaks the schema's promises.
func TestConformFlags(t *testing.T) {
	query := `{ app(name: "a") { id deployed internalNumericId createdAt platformVersion organization { slug } } }`
	tests := []struct {
		data string
		want string
	}{
		{`{"app":{"id":"1","deployed":null,"internalNumericId":1,"createdAt":"2026-11-30T09:00:00Z","platformVersion":null,"organization":{"slug":"o"}}}`, "data.app.deployed: null"},
		{`{"app":{"id":"1","deployed":true,"internalNumericId":1.5,"createdAt":"2026-11-30T09:00:00Z","platformVersion":null,"organization":{"slug":"o"}}}`, "internalNumericId: want a 32-bit integer"},
		{`{"app":{"id":"1","deployed":true,"internalNumericId":1,"createdAt":"soon","platformVersion":null,"organization":{"slug":"o"}}}`, "createdAt: want an ISO 8601 time"},
		{`{"app":{"id":"1","deployed":true,"internalNumericId":1,"createdAt":"2026-11-30T09:00:00Z","platformVersion":"kubernetes","organization":{"slug":"o"}}}`, "is not a PlatformVersionEnum"},
		{`{"app":{"id":"1","deployed":true,"internalNumericId":1,"createdAt":"2026-11-30T09:00:00Z","platformVersion":null}}`, "data.app.organization: missing"},
	}
	for _, tt := range tests {
		var data any
		if err := json.Unmarshal([]byte(tt.data), &data); err != nil {
			t.Fatal(err)
		}
		bad, err := Conform(query, "", data)
		if err != nil || len(bad) != 1 || !strings.Contains(bad[0], tt.want) {
			t.Errorf("%s: %v %v, want one about %q", tt.data, bad, err, tt.want)
		}
	}
}
