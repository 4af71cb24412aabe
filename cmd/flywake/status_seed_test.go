package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// statusWallClockKeys are the keys of `status --json` whose values come from
// the wall clock: generated_at (sources/status/doc.go), and each app's
// observed_at — the platform's now, which reads the wall's time when the
// platform starts. They are dropped before two runs are compared, and every
// other timestamp (machines' and events' times) is written as its age at
// its app's observed_at: the event ages at start are compared, not the
// dates. A ULID (instance ids, event ids) keeps only its drawn part: its
// first 10 characters encode the time it was made.
var statusWallClockKeys = map[string]bool{"generated_at": true, "observed_at": true}

var ulidValue = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{26}$`)

// withoutWallClock returns the JSON document re-encoded (keys sorted) with
// every wall-clock field removed and timestamps as ages.
func withoutWallClock(t *testing.T, doc []byte) []byte {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber() // compare numbers digit for digit
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("status --json is not JSON: %v\n%.300s", err, doc)
	}
	var strip func(v any, ref time.Time) any
	strip = func(v any, ref time.Time) any {
		switch x := v.(type) {
		case map[string]any:
			if at, ok := x["observed_at"].(string); ok {
				if t, err := time.Parse(time.RFC3339Nano, at); err == nil {
					ref = t
				}
			}
			for k, val := range x {
				if statusWallClockKeys[k] {
					delete(x, k)
					continue
				}
				x[k] = strip(val, ref)
			}
		case []any:
			for i := range x {
				x[i] = strip(x[i], ref)
			}
		case string:
			if at, err := time.Parse(time.RFC3339Nano, x); err == nil {
				if ref.IsZero() {
					return "<wall clock>"
				}
				return "age " + ref.Sub(at).String()
			}
			if ulidValue.MatchString(x) {
				return "<ulid>" + x[10:]
			}
		}
		return v
	}
	out, err := json.MarshalIndent(strip(v, time.Time{}), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStatusSeedReproducible: `status --demo --seed N --json` twice gives the
// same bytes apart from wall-clock fields — every app's machines, boots,
// p50/p95/max, event ages and edge counts — and another seed does not.
func TestStatusSeedReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("three demo platforms with a day of history each: skipped under -short")
	}
	t.Parallel()
	// The three platforms are built side by side: each is a day of history.
	runs := [][]string{{"7"}, {"7"}, {"8", "-a", "sleepy-api"}}
	outs := make([]string, len(runs))
	fails := make([]string, len(runs))
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, errOut, code := runFlywake(t, nil, append([]string{"status", "--demo", "--seed", r[0], "--speed", "50", "--json"}, r[1:]...)...)
			outs[i] = out
			if code != 0 {
				fails[i] = fmt.Sprintf("status --seed %s: exit %d: %s", r[0], code, errOut)
			}
		}()
	}
	wg.Wait()
	for _, f := range fails {
		if f != "" {
			t.Fatal(f)
		}
	}
	first, second, other := withoutWallClock(t, []byte(outs[0])), withoutWallClock(t, []byte(outs[1])), withoutWallClock(t, []byte(outs[2]))
	if !bytes.Equal(first, second) {
		a, b := strings.Split(string(first), "\n"), strings.Split(string(second), "\n")
		for i := 0; i < min(len(a), len(b)); i++ {
			if a[i] != b[i] {
				t.Fatalf("two runs of seed 7 differ at line %d:\n  %s\n  %s", i+1, a[i], b[i])
			}
		}
		t.Fatalf("two runs of seed 7 differ in length: %d and %d lines", len(a), len(b))
	}
	for _, want := range []string{`"p95_s"`, `"newest_event"`, `"boots_24h"`, `"sleepy-api"`, `"snappy-api"`, `"age `} {
		if !bytes.Contains(first, []byte(want)) {
			t.Errorf("status --json lacks %s: the comparison would prove nothing", want)
		}
	}
	if bytes.Equal(first, other) {
		t.Error("seeds 7 and 8 print the same status: the seed changes nothing")
	}
}
