package machines

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/columns"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/uitest"
)

// fleet is n machines in a mix of states, names, regions and events, the
// i-th renamed when rename says so.
func fleet(n int, rename func(i int) bool) []*fly.Machine {
	states := []string{"started", "stopped", "suspended", "starting"}
	var ms []*fly.Machine
	for i := range n {
		id := fmt.Sprintf("m%05d", i)
		ms = append(ms, machine(id, states[i%len(states)], func(m *fly.Machine) {
			m.Region = []string{"ams", "iad", "syd"}[i%3]
			if i%4 == 0 {
				m.Name = ""
			}
			if rename(i) {
				m.Name = "renamed-" + id + "-with-a-long-tail"
			}
		}))
	}
	return ms
}

// A pane handed listing after listing (its rows kept and formatted only
// as drawn) draws, filters and sorts what a pane handed only the last
// listing draws, key for key.
func TestRowsKeptAcrossListingsDrawAsFresh(t *testing.T) {
	never := func(int) bool { return false }
	listings := [][]*fly.Machine{
		fleet(300, never),
		fleet(300, func(i int) bool { return i%7 == 0 }),
		fleet(300, func(int) bool { return true }),
		slices.Concat(fleet(300, never)[150:], fleet(300, never)[:100]), // reordered, some gone
		fleet(300, never),
	}
	keys := [][]string{nil, {"o"}, {"o", "o", "o"}, {"/", "a", "m"}, {"/", "s", "y", "d", "enter"}, {"O", "G"}}
	for _, ks := range keys {
		name := strings.Join(ks, "")
		a := snapshot.New("org", "app", nil)
		kept := newPane()
		kept.SetSize(160, 20)
		var at time.Time
		for li, l := range listings {
			at = t0.Add(time.Duration(li) * 10 * time.Second)
			a.ApplyMachines(l, at)
			kept.SetData(a, at)
			if li == 1 {
				for _, k := range ks {
					kept.Update(uitest.Key(k))
				}
			}
			_ = uitest.View(kept, 160, 20, true, at) // draw some rows between listings
		}
		fresh := newPane()
		fresh.SetSize(160, 20)
		fresh.SetData(a, at)
		for _, k := range ks {
			fresh.Update(uitest.Key(k))
		}
		kept.table.Move(17)
		fresh.table.Move(17)
		kept.SetData(a, at) // the same listing again: no flash on either
		if got, want := uitest.PlainView(kept, 160, 20, true, at), uitest.PlainView(fresh, 160, 20, true, at); got != want {
			t.Errorf("keys %q: the kept pane draws\n%s\na fresh one\n%s", name, got, want)
		}
	}
}

// A refresh of many changed machines formats the rows drawn, not all.
func TestChangedListingFormatsOnlyTheRowsDrawn(t *testing.T) {
	p := newPane()
	p.SetSize(160, 20)
	a := appOf(fleet(2000, func(int) bool { return false })...)
	p.SetData(a, t0)
	later := t0.Add(10 * time.Second)
	a.ApplyMachines(fleet(2000, func(int) bool { return true }), later)
	p.SetData(a, later)
	_ = uitest.View(p, 160, 20, true, later)
	formatted := 0
	for i := range p.rows.entries {
		if p.rows.entries[i].row != nil {
			formatted++
		}
	}
	if formatted > 20 {
		t.Errorf("%d of 2,000 rows formatted for a 20-line view", formatted)
	}
	if !p.table.IsFlashing("m00007") {
		t.Error("a renamed machine does not flash")
	}
}

// The shape measured column by column until nothing can change it is the
// shape of every row's formatted cells.
func TestShapeIsEveryRowsShape(t *testing.T) {
	cases := map[string][]*fly.Machine{
		"mixed":       fleet(50, func(i int) bool { return i == 49 }),
		"short names": fleet(50, func(int) bool { return false }),
		"one machine": fleet(1, func(int) bool { return true }),
		// A name one cell short of the column, then one as wide.
		"widest last": {machine("a", "started", withName(strings.Repeat("n", 23))), machine("b", "started", withName(strings.Repeat("n", 24)))},
		"no machines": nil,
	}
	for name, ms := range cases {
		a := appOf(ms...)
		var cache rowCache
		st := newStyles(newPane().ctx.Theme)
		_, _, got := buildRows(a, st, &cache, listed)
		var want shape
		for i := range want.empty {
			want.empty[i] = len(a.Machines) > 0
		}
		defs := columns.Machines()
		for i := range a.Machines {
			f := newFormatted(&a.Machines[i], st)
			for c, d := range defs {
				text := f.row.Cells[c]
				if d.Since != nil {
					if !f.since.IsZero() {
						want.empty[c] = false
					}
					continue
				}
				if c == columns.State {
					text = a.Machines[i].State // the look's glyph says nothing alone
				}
				if !columns.Empty(text) {
					want.empty[c] = false
				}
				want.width[c] = max(want.width[c], min(cell.Width(f.row.Cells[c]), d.Width))
			}
		}
		if got != want {
			t.Errorf("%s: shape %+v, want %+v", name, got, want)
		}
	}
}
