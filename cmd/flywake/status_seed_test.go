package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

// statusWallClockKeys are the keys of `status --json` whose values come from
// the wall clock (the platform's clock reads the wall's time when it starts):
// they are dropped before two runs are compared. Besides these, any string
// value that is an RFC 3339 timestamp is a wall-clock field too, and a ULID
// (instance ids, event ids) keeps only its drawn part: its first 10
// characters encode the time it was made.
var statusWallClockKeys = map[string]bool{"at": true}

var ulidValue = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{26}$`)

// withoutWallClock returns the JSON document re-encoded (keys sorted) with
// every wall-clock field removed.
func withoutWallClock(t *testing.T, doc []byte) []byte {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber() // compare numbers digit for digit
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("status --json is not JSON: %v\n%.300s", err, doc)
	}
	var strip func(any) any
	strip = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, val := range x {
				if statusWallClockKeys[k] {
					delete(x, k)
					continue
				}
				x[k] = strip(val)
			}
		case []any:
			for i := range x {
				x[i] = strip(x[i])
			}
		case string:
			if _, err := time.Parse(time.RFC3339Nano, x); err == nil {
				return "<wall clock>"
			}
			if ulidValue.MatchString(x) {
				return "<ulid>" + x[10:]
			}
		}
		return v
	}
	out, err := json.MarshalIndent(strip(v), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStatusSeedReproducible: `status --demo --seed N --json` twice gives the
// same bytes apart from wall-clock fields — every app's machines, boots,
// p50/p95/max, event ages and edge counts — and another seed does not.
func TestStatusSeedReproducible(t *testing.T) {
	run := func(seed string, more ...string) []byte {
		t.Helper()
		out, errOut, code := runFlywake(t, nil, append([]string{"status", "--demo", "--seed", seed, "--speed", "50", "--json"}, more...)...)
		if code != 0 {
			t.Fatalf("status --seed %s: exit %d: %s", seed, code, errOut)
		}
		return withoutWallClock(t, []byte(out))
	}
	first, second := run("7"), run("7")
	if !bytes.Equal(first, second) {
		a, b := strings.Split(string(first), "\n"), strings.Split(string(second), "\n")
		for i := 0; i < min(len(a), len(b)); i++ {
			if a[i] != b[i] {
				t.Fatalf("two runs of seed 7 differ at line %d:\n  %s\n  %s", i+1, a[i], b[i])
			}
		}
		t.Fatalf("two runs of seed 7 differ in length: %d and %d lines", len(a), len(b))
	}
	for _, want := range []string{`"p95_s"`, `"newest_event"`, `"boots_24h"`, `"sleepy-api"`, `"snappy-api"`} {
		if !bytes.Contains(first, []byte(want)) {
			t.Errorf("status --json lacks %s: the comparison would prove nothing", want)
		}
	}
	if bytes.Equal(first, run("8", "-a", "sleepy-api")) {
		t.Error("seeds 7 and 8 print the same status: the seed changes nothing")
	}
}
