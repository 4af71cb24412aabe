package snapshot

import (
	"errors"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/diagnose"
	flyapi "github.com/flywake/flywake/sources/fly"
)

// Every surface reads the one judge's crash picture, what it could not
// read included: a listing that skipped an entry leaves the overview's
// CRASH cell, the checklist's crash item and status's crash line unknown,
// never a pass — the same listing read whole passes all three.
func TestEverySurfaceKnowsWhatTheListingSkipped(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    func(ms []*fly.Machine) flyapi.Listing
		want diagnose.Level
	}{
		{"read whole", func(ms []*fly.Machine) flyapi.Listing { return flyapi.Listing{Machines: ms} }, diagnose.Pass},
		{"a null entry", func(ms []*fly.Machine) flyapi.Listing {
			return flyapi.Listing{Machines: ms, Skipped: []string{""}, Malformed: 1}
		}, diagnose.Unknown},
		{"an undecodable machine", func(ms []*fly.Machine) flyapi.Listing {
			return flyapi.Listing{Machines: ms[1:], Skipped: []string{ms[0].ID}, Malformed: 1}
		}, diagnose.Unknown},
		{"a null event dropped", func(ms []*fly.Machine) flyapi.Listing {
			return flyapi.Listing{Machines: ms, Partial: map[string]int{ms[0].ID: 1}, Malformed: 1}
		}, diagnose.Unknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := New("org", "app", nil)
			ms := []*fly.Machine{flyMachine("a", "started", "d", t0), flyMachine("b", "started", "d", t0)}
			a.ApplyListing(flyapi.Listing{Machines: ms}, t0)
			later := t0.Add(10 * time.Second)
			a.ApplyListing(tc.l(ms), later)
			row := baseRow(a, later, 30*time.Second)
			item := checklist.Evaluate(a.Evidence(later, nil, nil), checklist.Options{})[5]
			if item.ID != checklist.IDCrashLoop {
				t.Fatalf("item 6 is %s", item.ID)
			}
			if row.Crash != tc.want || item.Status != tc.want || a.CrashVerdict().Level != tc.want {
				t.Errorf("overview %s, checklist %s, status %s (%s); want %s", row.Crash, item.Status, a.CrashVerdict().Level, a.CrashVerdict().Line, tc.want)
			}
			if tc.want == diagnose.Unknown && (row.Unread == 0 || !item.CouldNotRead || item.Cause != diagnose.CauseBadAnswer) {
				t.Errorf("unread %d, could_not_read %v, cause %q", row.Unread, item.CouldNotRead, item.Cause)
			}
		})
	}
}

// An exec probe the API failed (not the machine) is what the checklist
// could not check; one the machine failed (it stopped meanwhile) is not.
func TestAProbeTheAPIFailedIsUnread(t *testing.T) {
	for _, tc := range []struct {
		cause  diagnose.Cause
		unread bool
	}{{diagnose.CauseAPIDown, true}, {diagnose.CauseAuth, true}, {diagnose.CauseError, false}, {"", false}} {
		a := New("org", "app", nil)
		a.ApplyListing(flyapi.Listing{Machines: []*fly.Machine{flyMachine("a", "started", "d", t0)}}, t0)
		for _, req := range a.ProbesDue(t0) {
			a.ApplyProbe(req, ExecResult{Err: errors.New("exec failed"), Cause: tc.cause}, t0)
		}
		_, got := a.Evidence(t0, nil, nil).Unread[checklist.InputExec]
		if got != tc.unread {
			t.Errorf("cause %q: exec unread %v, want %v", tc.cause, got, tc.unread)
		}
	}
}
