package table

import (
	"reflect"
	"testing"
)

func TestCursorSurvivesRefresh(t *testing.T) {
	cases := []struct {
		name   string
		before []string
		sel    string
		after  []string
		want   string
	}{
		{"same rows", []string{"a", "b", "c", "d"}, "c", []string{"a", "b", "c", "d"}, "c"},
		{"reversed", []string{"a", "b", "c", "d"}, "c", []string{"d", "c", "b", "a"}, "c"},
		{"row inserted above", []string{"a", "b", "c"}, "b", []string{"x", "y", "a", "b", "c"}, "b"},
		{"row above removed", []string{"a", "b", "c"}, "c", []string{"b", "c"}, "c"},
		{"selected removed: next takes its place", []string{"a", "b", "c", "d"}, "b", []string{"a", "c", "d"}, "c"},
		{"selected last removed: clamps", []string{"a", "b", "c"}, "c", []string{"a", "b"}, "b"},
		{"all removed", []string{"a", "b"}, "a", nil, ""},
		{"comes back after empty", []string{"a", "b"}, "b", []string{"a", "b"}, "b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newTable()
			m.SetRows(rowsOf(c.before...))
			if !m.Select(c.sel) {
				t.Fatalf("Select(%q) failed", c.sel)
			}
			m.SetRows(rowsOf(c.after...))
			if got := selectedID(t, m); got != c.want {
				t.Errorf("selected %q, want %q", got, c.want)
			}
		})
	}
}

func TestCursorKeepsScreenLineWhenRowMoves(t *testing.T) {
	m := newTable()
	m.SetHeight(12) // 10 body rows
	m.SetRows(rowsN(100))
	m.Select("m0050")
	before := m.Cursor() - m.offset
	// Ten new rows sort in front: the selected row moves down by ten.
	rows := append(rowsOf("n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9"), rowsN(100)...)
	m.SetRows(rows)
	if got := selectedID(t, m); got != "m0050" {
		t.Fatalf("selected %q", got)
	}
	if after := m.Cursor() - m.offset; after != before {
		t.Errorf("row moved on screen from line %d to %d", before, after)
	}
}

func TestFilter(t *testing.T) {
	rows := []Row{
		{ID: "a", Cells: []string{"a", "\x1b[32mstarted\x1b[0m", "ams"}},
		{ID: "b", Cells: []string{"b", "stopped", "AMS"}},
		{ID: "c", Cells: []string{"c", "started", "fra"}},
		{ID: "d", Cells: []string{"d", "failed", "fra"}},
	}
	cases := []struct {
		name     string
		selected string
		q        string
		want     []string
		wantSel  string
	}{
		{"empty shows all", "a", "", []string{"a", "b", "c", "d"}, "a"},
		{"case-insensitive", "a", "Ams", []string{"a", "b"}, "a"},
		{"styled cells match on text", "c", "started", []string{"a", "c"}, "c"},
		{"escape codes never match", "a", "32m", nil, ""},
		{"selected filtered out jumps to first", "d", "ams", []string{"a", "b"}, "a"},
		{"no match across cells", "a", "startedams", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newTable()
			m.SetRows(rows)
			m.Select(c.selected)
			m.SetFilter(c.q)
			var got []string
			for _, vi := range m.visible {
				got = append(got, m.rows[vi].ID)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("visible %v, want %v", got, c.want)
			}
			if s := selectedID(t, m); s != c.wantSel {
				t.Errorf("selected %q, want %q", s, c.wantSel)
			}
		})
	}
}

func TestFilterSurvivesRefreshAndClearRestoresSelection(t *testing.T) {
	m := newTable()
	m.SetRows(rowsOf("web-1", "web-2", "worker-1"))
	m.Select("web-2")
	m.SetFilter("web")
	m.SetRows(rowsOf("worker-1", "web-2", "web-1", "web-3"))
	if m.Len() != 3 || m.Total() != 4 {
		t.Errorf("len %d total %d, want 3 and 4", m.Len(), m.Total())
	}
	if s := selectedID(t, m); s != "web-2" {
		t.Errorf("selected %q after refresh under filter", s)
	}
	m.SetFilter("")
	if s := selectedID(t, m); s != "web-2" {
		t.Errorf("selected %q after clearing filter", s)
	}
}

func TestFlash(t *testing.T) {
	m := newTable()
	m.SetRows(rowsOf("a", "b", "c"))
	m.Flash([]string{"b", "d"}) // d is not (yet) a row: harmless
	for id, want := range map[string]bool{"a": false, "b": true, "c": false} {
		if m.IsFlashing(id) != want {
			t.Errorf("IsFlashing(%s) = %v", id, !want)
		}
	}
	// Flash replaces the set; it does not add to it.
	m.Flash([]string{"a"})
	if !m.IsFlashing("a") || m.IsFlashing("b") {
		t.Errorf("after Flash(a): a=%v b=%v", m.IsFlashing("a"), m.IsFlashing("b"))
	}
	// New rows end the flash: it belongs to the data it was set for.
	m.SetRows(rowsOf("a", "b", "c"))
	if m.IsFlashing("a") {
		t.Error("SetRows left a flashing")
	}
	m.Flash([]string{"c"})
	m.ClearFlash()
	if m.IsFlashing("c") {
		t.Error("ClearFlash left c flashing")
	}
}

func TestSetRowsDoesNotAliasCallerSlice(t *testing.T) {
	m := newTable()
	rows := rowsOf("a", "b")
	m.SetRows(rows)
	rows[0] = Row{ID: "zzz", Cells: []string{"zzz"}}
	if r, _ := m.Selected(); r.ID != "a" {
		t.Errorf("table saw the caller's later write: %q", r.ID)
	}
}

func TestWindowMath(t *testing.T) {
	type step func(m *Model)
	cases := []struct {
		name       string
		n, height  int
		steps      []step
		wantCursor int
		wantFirst  string // first body row shown
		wantPos    string // position line
	}{
		{"top", 100, 12, nil, 0, "m0000", "1–10 of 100"},
		{"down within page", 100, 12, []step{func(m *Model) { m.Move(9) }}, 9, "m0000", "1–10 of 100"},
		{"down past page scrolls one", 100, 12, []step{func(m *Model) { m.Move(10) }}, 10, "m0001", "2–11 of 100"},
		{"page down", 100, 12, []step{func(m *Model) { m.PageDown() }}, 10, "m0001", "2–11 of 100"},
		{"bottom", 100, 12, []step{func(m *Model) { m.Bottom() }}, 99, "m0090", "91–100 of 100"},
		{"past bottom clamps", 100, 12, []step{func(m *Model) { m.Move(1000) }}, 99, "m0090", "91–100 of 100"},
		{"up from bottom stays", 100, 12, []step{func(m *Model) { m.Bottom() }, func(m *Model) { m.Move(-3) }}, 96, "m0090", "91–100 of 100"},
		{"above top clamps", 100, 12, []step{func(m *Model) { m.Move(-5) }}, 0, "m0000", "1–10 of 100"},
		{"page up from bottom", 100, 12, []step{func(m *Model) { m.Bottom() }, func(m *Model) { m.PageUp() }}, 89, "m0089", "90–99 of 100"},
		{"fewer rows than page", 3, 12, []step{func(m *Model) { m.Bottom() }}, 2, "m0000", "1–3 of 3"},
		{"thousands", 10000, 12, []step{func(m *Model) { m.Bottom() }}, 9999, "m9990", "9,991–10,000 of 10,000"},
		{"shrinking terminal keeps cursor visible", 100, 5, []step{func(m *Model) { m.Move(8) }}, 8, "m0006", "7–9 of 100"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newTable()
			m.SetRows(rowsN(c.n))
			m.SetHeight(12)
			for _, s := range c.steps {
				s(&m)
			}
			if c.height != 12 {
				m.SetHeight(c.height)
			}
			if m.Cursor() != c.wantCursor {
				t.Errorf("cursor %d, want %d", m.Cursor(), c.wantCursor)
			}
			lines := plainLines(m, 40, c.height)
			if first := lines[1][1:6]; first != c.wantFirst {
				t.Errorf("first row %q, want %q\n%s", first, c.wantFirst, join(lines))
			}
			if last := lines[len(lines)-1]; !contains(last, c.wantPos) {
				t.Errorf("position %q, want %q", last, c.wantPos)
			}
		})
	}
}

func TestEmptyTable(t *testing.T) {
	m := newTable()
	m.Move(3)
	m.PageDown()
	if _, ok := m.Selected(); ok {
		t.Error("empty table has a selection")
	}
	lines := plainLines(m, 30, 5)
	if !contains(lines[1], "no rows") || !contains(lines[4], "0 of 0") {
		t.Errorf("empty view:\n%s", join(lines))
	}
	m.SetRows(rowsOf("a"))
	m.SetFilter("zzz")
	lines = plainLines(m, 40, 5)
	if !contains(lines[1], "no rows match “zzz”") || !contains(lines[4], "(1 total)") {
		t.Errorf("no-match view:\n%s", join(lines))
	}
}
