package gate

import (
	"encoding/json"
	"strings"
	"testing"
)

// Each oddity alters only the machine it names, and the way it says.
func TestOddMachines(t *testing.T) {
	const answer = `[
	 {"id": "a", "config": {"metadata": {"fly_release_version": "7"}, "services": [{"concurrency": {"soft_limit": 20}}]},
	  "checks": [{"name": "http", "status": "passing"}],
	  "events": [{"type": "exit", "timestamp": 1700000000000, "request": {"exit_event": {"exit_code": 1, "exited_at": "2023-11-14T22:13:20Z"}}},
	             {"type": "start", "timestamp": 1699999990000}]},
	 {"id": "b", "config": {"metadata": {"fly_release_version": "7"}}, "events": [{"type": "start", "timestamp": 1}]}
	]`
	tests := []struct {
		odd  Oddity
		want string // in the altered machine a
		gone string // no longer in it
	}{
		{OddNull, `null`, `"id":"a"`},
		{OddUndecodable, `"soft_limit":"20"`, `"soft_limit":20`},
		{OddNoConfig, `"id":"a"`, `"config"`},
		{OddNoRelease, `"metadata":{}`, `fly_release_version`},
		{OddUntimedEvents, `"type":"exit"`, `timestamp`},
		{OddBarePayloads, `"type":"exit"`, `exit_event`},
		{OddChecks, `[{"name":"http"},null]`, `passing`},
	}
	for _, tt := range tests {
		t.Run(string(tt.odd), func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(answer), &v); err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(alter(v, Fault{Odd: map[string]Oddity{"a": tt.odd}}))
			if err != nil {
				t.Fatal(err)
			}
			var list []json.RawMessage
			if err := json.Unmarshal(out, &list); err != nil || len(list) != 2 {
				t.Fatalf("not a list of two: %s", out)
			}
			a, b := string(list[0]), string(list[1])
			if !strings.Contains(a, tt.want) || strings.Contains(a, tt.gone) {
				t.Errorf("machine a: %s; want %s and no %s", a, tt.want, tt.gone)
			}
			if !strings.Contains(b, `"fly_release_version":"7"`) || !strings.Contains(b, `"timestamp":1`) {
				t.Errorf("machine b was altered too: %s", b)
			}
		})
	}
}
