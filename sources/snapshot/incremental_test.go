package snapshot

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	flyapi "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/verdict"
)

// A listing applied through a Converter (unchanged entries reused, the
// judge and the model skipping what they worked out already) leaves the
// model as a listing converted from scratch does, step by step: every
// machine, its verdict and row hash, and the release's judgement. The
// steps cover what the shortcuts must not miss: nothing changed with no
// look due, and with one due; a machine in transition whose look comes
// due; one machine changed; a crash loop; a deploy
// moving machines between releases; a machine gone and one new; an event
// timed years ahead, and one that is too far ahead once the clock
// moves back; a null entry, an entry skipped, a partial one; the
// same machines in another order.
func TestIncrementalListingsAgreeWithFromScratch(t *testing.T) {
	start := t0
	at := start
	m := map[string]*fly.Machine{}
	for _, id := range []string{"a", "b", "c", "d"} {
		m[id] = flyMachine(id, "started", "d1", start)
	}
	exit := func(id string, code int) {
		fm := clone(t, m[id])
		ee := &fly.MachineExitEvent{ExitCode: code, Restarting: true, ExitedAt: at}
		fm.Events = append([]*fly.MachineEvent{
			{Type: "start", Status: "started", Source: "flyd", Timestamp: at.Add(time.Second).UnixMilli()},
			{Type: "exit", Status: "stopped", Source: "flyd", Timestamp: at.UnixMilli(), Request: &fly.MachineRequest{ExitEvent: ee}},
		}, fm.Events...)
		m[id] = fm
	}
	set := func(id string, change func(*fly.Machine)) {
		fm := clone(t, m[id])
		change(fm)
		m[id] = fm
	}
	list := func(ids ...string) flyapi.Listing {
		l := flyapi.Listing{Hashes: map[string]uint64{}}
		for _, id := range ids {
			if id == "" {
				l.Machines = append(l.Machines, nil)
				l.Malformed++
				continue
			}
			l.Machines = append(l.Machines, m[id])
			l.Hashes[id] = hashOf(t, m[id])
		}
		return l
	}
	all := func() flyapi.Listing { return list("a", "b", "c", "d") }
	steps := []struct {
		name    string
		wait    time.Duration
		change  func()
		listing func() flyapi.Listing
		same    bool // the model keeps its machines
	}{
		{"first listing", 0, nil, all, false},
		{"b starting before its second look", time.Second, func() { set("b", func(fm *fly.Machine) { fm.State = "starting" }) }, all, false},
		{"b still starting, its look due: long-poll it", 6 * time.Second, nil, all, false},
		{"unchanged, no look due", time.Second, nil, all, true},
		{"unchanged again", time.Second, nil, all, true},
		{"unchanged, a look due", 4 * time.Second, nil, all, false}, // the verdicts count their looks
		{"unchanged, the next look", 6 * time.Second, nil, all, false},
		{"unchanged between looks", time.Second, nil, all, true},
		{"one machine stopped", time.Second, func() { set("b", func(fm *fly.Machine) { fm.State = "stopped" }) }, all, false},
		{"a crash", 6 * time.Second, func() { exit("c", 1) }, all, false},
		{"unchanged after the crash", time.Second, nil, all, false},
		{"the crash again: a loop", 6 * time.Second, func() { exit("c", 1) }, all, false},
		{"unchanged in the loop", 6 * time.Second, nil, all, false},
		{"a deploy replaces a", time.Second, func() {
			set("a", func(fm *fly.Machine) {
				fm.State, fm.InstanceID = "replacing", "01NEWa"
				fm.Config.Metadata = map[string]string{"fly_release_version": "8"}
			})
		}, all, false},
		{"a settles on the new release", 2 * time.Second, func() { set("a", func(fm *fly.Machine) { fm.State = "started" }) }, all, false},
		{"unchanged mid-deploy", 6 * time.Second, nil, all, false},
		{"d gone, e new", time.Second, func() { m["e"] = flyMachine("e", "started", "d1", at) }, func() flyapi.Listing { return list("a", "b", "c", "e") }, false},
		{"an event years ahead", time.Second, func() {
			set("e", func(fm *fly.Machine) {
				fm.Events = append([]*fly.MachineEvent{{Type: "start", Status: "started", Source: "flyd", Timestamp: at.AddDate(50, 0, 0).UnixMilli()}}, fm.Events...)
			})
		}, func() flyapi.Listing { return list("a", "b", "c", "e") }, false},
		{"unchanged with it", 6 * time.Second, nil, func() flyapi.Listing { return list("a", "b", "c", "e") }, false},
		{"a null entry", time.Second, nil, func() flyapi.Listing { return list("a", "", "b", "c", "e") }, false},
		{"an entry skipped", time.Second, nil, func() flyapi.Listing {
			l := list("a", "b", "e")
			l.Skipped, l.Malformed = []string{"c"}, 1
			return l
		}, false},
		{"an entry partial", 6 * time.Second, nil, func() flyapi.Listing {
			l := list("a", "b", "c", "e")
			l.Partial = map[string]int{"b": 1}
			return l
		}, false},
		{"read whole again", time.Second, nil, func() flyapi.Listing { return list("a", "b", "c", "e") }, false},
		{"another order", time.Second, nil, func() flyapi.Listing { return list("e", "c", "b", "a") }, false},
		{"unchanged in that order", time.Second, nil, func() flyapi.Listing { return list("e", "c", "b", "a") }, true},
		{"a look in that order", 6 * time.Second, nil, func() flyapi.Listing { return list("e", "c", "b", "a") }, false},
		{"every machine renamed", time.Second, func() {
			for _, id := range []string{"a", "b", "c", "e"} {
				set(id, func(fm *fly.Machine) { fm.Name += "-b" })
			}
		}, func() flyapi.Listing { return list("e", "c", "b", "a") }, false},
		{"renamed back, moved, a look due; c checked", 6 * time.Second, func() {
			for _, id := range []string{"a", "b", "c", "e"} {
				set(id, func(fm *fly.Machine) { fm.Name, fm.Region = strings.TrimSuffix(fm.Name, "-b"), "fra" })
			}
			set("c", func(fm *fly.Machine) {
				fm.Checks = []*fly.MachineCheckStatus{{Name: "http", Status: "passing"}}
			})
		}, func() flyapi.Listing { return list("e", "c", "b", "a") }, false},
		{"renamed, c's check failing", time.Second, func() {
			for _, id := range []string{"a", "b", "c", "e"} {
				set(id, func(fm *fly.Machine) { fm.Name += "-c" })
			}
			set("c", func(fm *fly.Machine) {
				fm.Checks = []*fly.MachineCheckStatus{{Name: "http", Status: "critical"}}
			})
		}, func() flyapi.Listing { return list("e", "c", "b", "a") }, false},
		{"renamed, b exits between looks, its exit code unread", time.Second, func() {
			for _, id := range []string{"a", "b", "c", "e"} {
				set(id, func(fm *fly.Machine) { fm.Name += "-x" })
			}
			set("b", func(fm *fly.Machine) {
				fm.Events = append([]*fly.MachineEvent{{Type: "exit", Status: "stopped", Source: "flyd", Timestamp: at.UnixMilli()}}, fm.Events...)
			})
		}, func() flyapi.Listing { return list("e", "c", "b", "a") }, false},
		{"renamed, e's config autostops, c's swaps", time.Second, func() {
			for _, id := range []string{"a", "b", "c", "e"} {
				set(id, func(fm *fly.Machine) { fm.Name += "-d" })
			}
			stop, swap := fly.MachineAutostopSuspend, 512
			set("e", func(fm *fly.Machine) { fm.Config.Services = []fly.MachineService{{Protocol: "tcp", Autostop: &stop}} })
			set("c", func(fm *fly.Machine) { fm.Config.Init.SwapSizeMB = &swap })
		}, func() flyapi.Listing { return list("e", "c", "b", "a") }, false},
		{"renamed, every config as e's", time.Second, func() {
			for _, id := range []string{"a", "b", "c"} {
				set(id, func(fm *fly.Machine) { fm.Name += "-e"; fm.Config = clone(t, m["e"]).Config })
			}
		}, func() flyapi.Listing { return list("e", "c", "b", "a") }, false},
		{"an exit half a day ahead", time.Second, func() {
			set("b", func(fm *fly.Machine) {
				ahead := at.Add(12 * time.Hour)
				ee := &fly.MachineExitEvent{ExitCode: 1, ExitedAt: ahead}
				fm.Events = append([]*fly.MachineEvent{{Type: "exit", Status: "stopped", Source: "flyd", Timestamp: ahead.UnixMilli(),
					Request: &fly.MachineRequest{ExitEvent: ee}}}, fm.Events...)
			})
		}, func() flyapi.Listing { return list("e", "c", "b", "a") }, false},
		{"unchanged, the clock a day back (a replay): now too far ahead", -24 * time.Hour, nil, func() flyapi.Listing { return list("e", "c", "b", "a") }, false},
	}
	inc, scratch := New("org", "app", nil), New("org", "app", nil)
	scratch.judge = verdict.New(verdict.Options{Afresh: true})
	var cv Converter
	for _, s := range steps {
		at = at.Add(s.wait)
		if s.change != nil {
			s.change()
		}
		l := s.listing()
		before, rev := inc.Machines, inc.MachinesRev()
		inc.ApplyConverted(cv.Convert("app", l), at)
		scratch.ApplyConverted(Convert(l), at)
		if !reflect.DeepEqual(inc.Machines, scratch.Machines) {
			t.Errorf("%s: machines differ:\nincremental  %+v\nfrom scratch %+v", s.name, inc.Machines, scratch.Machines)
		}
		if !reflect.DeepEqual(inc.Rollout, scratch.Rollout) {
			t.Errorf("%s: judgement differs:\nincremental  %+v\nfrom scratch %+v", s.name, inc.Rollout, scratch.Rollout)
		}
		if inc.Malformed != scratch.Malformed || !inc.ListedAt.Equal(scratch.ListedAt) {
			t.Errorf("%s: malformed %d listed %v, from scratch %d %v", s.name, inc.Malformed, inc.ListedAt, scratch.Malformed, scratch.ListedAt)
		}
		kept := len(before) > 0 && &before[0] == &inc.Machines[0] && rev == inc.MachinesRev()
		if s.same && !kept {
			t.Errorf("%s: the model made new machines for a listing that changed nothing", s.name)
		}
		if !kept && rev == inc.MachinesRev() {
			t.Errorf("%s: new machines, and MachinesRev did not move", s.name)
		}
	}
}

func clone(t *testing.T, fm *fly.Machine) *fly.Machine {
	t.Helper()
	var c fly.Machine
	raw, err := json.Marshal(fm)
	if err == nil {
		err = json.Unmarshal(raw, &c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return &c
}

// hashOf is fm's entry hash, as the client makes it from the answer.
func hashOf(t *testing.T, fm *fly.Machine) uint64 {
	t.Helper()
	raw, err := json.Marshal(fm)
	if err != nil {
		t.Fatal(err)
	}
	return flyapi.EntryHash(raw)
}
