package columns

import (
	"testing"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/snapshot/machine"
	"github.com/flywake/flywake/sources/words"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestCells(t *testing.T) {
	bare := snapshot.Machine{Machine: machine.Machine{ID: "m1", State: "stopped"}}
	full := snapshot.Machine{Machine: machine.Machine{
		ID: "m2", Name: "quiet-moon", State: "started", Region: "ams", ProcessGroup: "app", Release: "19",
		ImageDigest: "sha256:0123456789abcdef", HostStatus: "unreachable",
		Checks: []snapshot.Check{{Status: "passing"}, {Status: "critical"}},
		Events: []snapshot.Event{{Type: "start", Status: "started", Source: "flyd", At: now.Add(-24*time.Hour - 12*time.Minute - time.Second)}},
		Config: &snapshot.Config{Autostop: "suspend"},
	}, Crash: diagnose.CrashVerdict{Kind: diagnose.CrashLooping}}
	cases := []struct {
		m    snapshot.Machine
		col  int
		want string
	}{
		{bare, Alert, ""},
		{bare, Checks, words.Missing}, // none: never "0/0"
		{bare, Release, words.Missing},
		{bare, Event, words.Missing},
		{bare, Age, words.Missing},
		{bare, Autostop, "off"}, // no config: the proxy never stops it
		{bare, Image, words.Missing},
		{full, Alert, "✗ crash-loop +1"}, // the worst, and how many more
		{full, Checks, "1/2"},
		{full, Release, "v19"},
		{full, Event, "start/started/flyd"},
		{full, Age, "1d00h"}, // not "24h12m1s ago"
		{full, Image, "0123456789ab"},
		{full, Autostop, "suspend"},
		{full, Name, "quiet-moon"},
	}
	for _, c := range cases {
		if got := Machines()[c.col].Cell(nil, &c.m, now); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.m.ID, Machines()[c.col].Title, got, c.want)
		}
	}
	updated := snapshot.Machine{Machine: machine.Machine{UpdatedAt: now.Add(-90 * time.Second)}}
	if got := Machines()[Age].Cell(nil, &updated, now); got != "1m30s" {
		t.Errorf("an age without events counts from the update: %q", got)
	}
}

func TestOrders(t *testing.T) {
	ms := map[string]*snapshot.Machine{
		"a": {Machine: machine.Machine{ID: "a", State: "started", Phase: diagnose.Awake, Release: "9", Events: []snapshot.Event{{At: now.Add(-time.Hour)}}}},
		"b": {Machine: machine.Machine{ID: "b", State: "failed", Phase: diagnose.Troubled, Release: "10", Events: []snapshot.Event{{At: now.Add(-time.Minute)}}}},
		"c": {Machine: machine.Machine{ID: "c", State: "stopped", Phase: diagnose.Asleep, Release: "10"}, Crash: diagnose.CrashVerdict{Kind: diagnose.GaveUp}},
	}
	cases := []struct {
		col  int
		desc bool
		want string
	}{
		{State, false, "bac"},   // troubled first
		{Release, false, "abc"}, // 9 < 10 as numbers; the tie by id
		{Release, true, "bca"},  // the tie stays by id, descending or not
		{Age, false, "bac"},     // the youngest first; no events and no update: last
		{Alert, false, "cab"},   // the worst first
		{ID, true, "cba"},
	}
	for _, c := range cases {
		col := Machines()[c.col]
		got := sorted([]*snapshot.Machine{ms["a"], ms["b"], ms["c"]}, col, c.desc)
		if got != c.want {
			t.Errorf("%s desc=%v: %s, want %s", col.Title, c.desc, got, c.want)
		}
	}
}

func sorted(ms []*snapshot.Machine, c Column, desc bool) string {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && c.Cmp(nil, ms[j], ms[j-1], desc) < 0; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
	s := ""
	for _, m := range ms {
		s += m.ID
	}
	return s
}

func TestEveryColumnIsDefined(t *testing.T) {
	for i, c := range Machines() {
		if c.Title == "" || c.Width < len(c.Title) && c.Since == nil || (c.Text == nil) == (c.Since == nil) {
			t.Errorf("column %d (%q) is not fully defined", i, c.Title)
		}
	}
	if len(Machines()) != Count {
		t.Fatalf("%d columns, Count %d", len(Machines()), Count)
	}
}
