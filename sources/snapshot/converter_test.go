package snapshot

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	fly "github.com/superfly/fly-go"

	flyapi "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/sanitize"
)

// The Converter reuses a machine only where the listing's hash says its
// entry is the one it converted last time, for the same app. Each case
// lists machine a renamed "new" (as the API would send a change) under a
// hash: a reused machine still has the old name.
func TestConverterReusesOnlyUnchangedEntries(t *testing.T) {
	listing := func(name string, hashes map[string]uint64) flyapi.Listing {
		a, b := flyMachine("a", "started", "d1", t0), flyMachine("b", "stopped", "d1", t0)
		a.Name = name
		return flyapi.Listing{Machines: []*fly.Machine{a, b}, Hashes: hashes}
	}
	same := map[string]uint64{"a": 1, "b": 2}
	cases := []struct {
		name   string
		app    string
		hashes map[string]uint64
		want   string // a's name in the converted listing
	}{
		{"same hash, same app: reused", "app", same, "old"},
		{"another hash: converted", "app", map[string]uint64{"a": 9, "b": 2}, "new"},
		{"no hash: converted", "app", map[string]uint64{"b": 2}, "new"},
		{"no hashes at all: converted", "app", nil, "new"},
		{"another app: converted", "other", same, "new"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var cv Converter
			first := cv.Convert("app", listing("old", same))
			if got := first.Machines()[0].Name; got != "old" {
				t.Fatalf("first listing: a is %q", got)
			}
			got := cv.Convert(c.app, listing("new", c.hashes)).Machines()
			if len(got) != 2 || got[0].Name != c.want || got[1].ID != "b" {
				t.Errorf("got %d machines, a named %q; want a named %q, then b", len(got), got[0].Name, c.want)
			}
		})
	}
}

// Hashes in order (Listing.Order) count as the map does, entry for entry;
// an Order that is not one per machine is not read.
func TestConverterReadsHashesInOrder(t *testing.T) {
	listing := func(name string, order []uint64, hashes map[string]uint64) flyapi.Listing {
		a, b := flyMachine("a", "started", "d1", t0), flyMachine("b", "stopped", "d1", t0)
		a.Name = name
		return flyapi.Listing{Machines: []*fly.Machine{a, b}, Order: order, Hashes: hashes}
	}
	cases := []struct {
		name   string
		order  []uint64
		hashes map[string]uint64
		want   string // a's name in the second listing
	}{
		{"same hashes in order: reused", []uint64{1, 2}, nil, "old"},
		{"a's hash moved: converted", []uint64{9, 2}, nil, "new"},
		{"order too short, no map: converted", []uint64{1}, nil, "new"},
		{"order too short, the map's hashes: reused", []uint64{1}, map[string]uint64{"a": 1, "b": 2}, "old"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var cv Converter
			cv.Convert("app", listing("old", []uint64{1, 2}, nil))
			got := cv.Convert("app", listing("new", c.order, c.hashes)).Machines()
			if len(got) != 2 || got[0].Name != c.want || got[1].ID != "b" {
				t.Errorf("got %d machines, a named %q; want a named %q, then b", len(got), got[0].Name, c.want)
			}
		})
	}
}

// With honest hashes the Converter answers what Convert does, listing
// after listing: reuse changes nothing a reader sees.
func TestConverterAgreesWithConvert(t *testing.T) {
	var cv Converter
	for i, states := range [][2]string{{"started", "stopped"}, {"started", "stopped"}, {"stopping", "stopped"}, {"stopped", "stopped"}} {
		a, b := flyMachine("a", states[0], "d1", t0), flyMachine("b", states[1], "d1", t0)
		h := func(s string) uint64 { return uint64(len(s)) } // differs for each state used here
		l := flyapi.Listing{Machines: []*fly.Machine{a, b, a}, Hashes: map[string]uint64{"a": h(states[0]), "b": h(states[1])}}
		got, want := cv.Convert("app", l), Convert(l)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("listing %d: the Converter's\n%+v\nConvert's\n%+v", i, got, want)
		}
	}
}

// What the Converter keeps of each entry (the text of its times) goes
// with the entry's machine, listing after listing, in order or not: two
// machines swap their times' text (and places), a listing whose times
// the kept text would wrongly answer.
func TestConverterKeepsTimesWithTheirMachine(t *testing.T) {
	times := []string{"2026-12-01T10:00:00Z", "2026-12-01T11:00:00+01:00", "2026-12-02T09:30:00.5Z"}
	var cv Converter
	for step := 0; step < 12; step++ {
		a, b := flyMachine("a", "started", "d1", t0), flyMachine("b", "started", "d1", t0)
		a.CreatedAt, a.UpdatedAt = times[step%3], times[(step+1)%3]
		b.CreatedAt, b.UpdatedAt = times[(step+1)%3], times[step%3]
		a.Name, b.Name = fmt.Sprint("a", step), fmt.Sprint("b", step) // every entry changed
		ms := []*fly.Machine{a, b}
		if step%4 >= 2 {
			ms = []*fly.Machine{b, a} // another order: not converted in place
		}
		l := flyapi.Listing{Machines: ms, Hashes: map[string]uint64{"a": uint64(2 * step), "b": uint64(2*step + 1)}}
		if got, want := cv.Convert("app", l).Machines(), Convert(l).Machines(); !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: the Converter's\n%+v\nConvert's\n%+v", step, got, want)
		}
	}
}

// A machine that changed is cleaned again, whatever the Converter kept
// of it: a hostile name (an OSC sequence, a bidi override) sent in a
// changed entry comes out as sanitize.Field makes it, the first time and
// when sent again in an entry changed otherwise, in place or not.
func TestConverterCleansAChangedMachine(t *testing.T) {
	const hostile = "web\x1b]52;c;cHduZWQ=\x07\u202eexe.gpj"
	var cv Converter
	for step, name := range []string{"web", hostile, hostile, hostile, hostile} {
		a, b := flyMachine("a", "started", "d1", t0), flyMachine("b", "started", "d1", t0)
		a.Name = name
		a.State = []string{"started", "stopped"}[step%2] // a changed entry each time
		a.CreatedAt, a.UpdatedAt = "2026-12-01T10:00:00Z", "2026-12-01T10:00:00Z"
		ms := []*fly.Machine{a, b}
		if step == 4 {
			ms = []*fly.Machine{b, a}
		}
		l := flyapi.Listing{Machines: ms, Hashes: map[string]uint64{"a": uint64(step), "b": 99}}
		var got Machine
		for _, m := range cv.Convert("app", l).Machines() {
			if m.ID == "a" {
				got = m
			}
		}
		if want := sanitize.Field(name); got.Name != want {
			t.Errorf("step %d: name %q, want %q", step, got.Name, want)
		}
		if strings.ContainsAny(got.Name, "\x1b\x07\u202e") {
			t.Errorf("step %d: name %q holds a control", step, got.Name)
		}
	}
}
