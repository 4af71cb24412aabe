package table

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

func TestLayout(t *testing.T) {
	cases := []struct {
		name  string
		cols  []Column
		avail int
		want  []int
	}{
		{"exact fit", []Column{{Width: 4}, {Width: 5}}, 10, []int{4, 5}},
		{"no flex leaves slack", []Column{{Width: 4}, {Width: 5}}, 20, []int{4, 5}},
		{"one flex takes all", []Column{{Width: 4}, {Width: 5, Flex: 1}}, 20, []int{4, 15}},
		{"flex shares 1:2", []Column{{Width: 4, Flex: 1}, {Width: 4, Flex: 2}}, 18, []int{7, 10}},
		{"remainder left to right", []Column{{Width: 1, Flex: 1}, {Width: 1, Flex: 1}}, 6, []int{3, 2}},
		{"too narrow hides trailing", []Column{{Width: 6}, {Width: 6}, {Width: 6}}, 14, []int{6, 6, 0}},
		{"too narrow hides whole, never narrows", []Column{{Width: 6}, {Width: 6}, {Width: 6}}, 17, []int{6, 6, 0}},
		{"drop order before position", []Column{{Width: 6}, {Width: 6, Drop: 1}, {Width: 6}}, 14, []int{6, 0, 6}},
		{"highest drop first", []Column{{Width: 6, Drop: 1}, {Width: 6, Drop: 2}, {Width: 6}}, 14, []int{6, 0, 6}},
		{"flex grows into what dropping frees", []Column{{Width: 6, Flex: 1}, {Width: 6}, {Width: 6, Drop: 1}}, 16, []int{9, 6, 0}},
		{"a lone column narrows", []Column{{Width: 6}, {Width: 6}}, 4, []int{4, 0}},
		{"one cell left hides", []Column{{Width: 6}, {Width: 6}}, 8, []int{6, 0}},
		{"zero width min is one", []Column{{Width: 0}, {Width: 0}}, 3, []int{1, 1}},
		{"nothing fits", []Column{{Width: 6}}, 0, []int{0}},
		// REGION (Drop 6) goes first, then NEWEST EVENT (Drop 5) too, which
		// frees enough for REGION to come back.
		{"a narrow column comes back into what a wide one frees",
			[]Column{{Width: 12}, {Width: 14}, {Width: 9, Drop: 1}, {Width: 15, Drop: 4}, {Width: 6, Drop: 6},
				{Width: 6, Drop: 3}, {Width: 6, Drop: 2}, {Width: 12, Drop: 5}}, 77, []int{12, 14, 9, 15, 6, 6, 6, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := layout(c.cols, c.avail, 0); !reflect.DeepEqual(got, c.want) {
				t.Errorf("layout = %v, want %v", got, c.want)
			}
		})
	}
}

func TestTruncationWithWideGlyphs(t *testing.T) {
	cols := []Column{{Title: "NAME", Width: 7}, {Title: "NOTE", Width: 6}}
	cases := []struct {
		name string
		cell string
		want string // first column as drawn
	}{
		{"fits", "web", "web    "},
		{"exact", "abcdefg", "abcdefg"},
		{"long ascii", "abcdefghij", "abcdef…"},
		{"cjk fits exactly", "日本語", "日本語 "},
		{"cjk cut never splits a glyph", "日本語テキスト", "日本語…"},
		{"cjk odd boundary", "a日本語テ", "a日本…"},
		{"emoji", "🚀🚀🚀🚀🚀", "🚀🚀🚀…"},
		{"styled", "\x1b[31mfailed-machine\x1b[0m", "failed…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(cols, StylesFrom(theme.New(true)))
			m.SetRows([]Row{{ID: "x", Cells: []string{"pad", "-"}}, {ID: "y", Cells: []string{c.cell, "note"}}})
			out := m.View(20, 4)
			uitest.AssertSize(t, out, 20, 4)
			row := strings.Split(ansi.Strip(out), "\n")[2]
			if got := row[1:]; !strings.HasPrefix(got, c.want+" ") {
				t.Errorf("row %q, want prefix %q", got, c.want)
			}
		})
	}
}

func TestViewIsExactForManySizes(t *testing.T) {
	m := newTable()
	rows := rowsN(50)
	rows[3].Cells[1] = "日本語の長いステート"
	rows[4].Cells = nil // fewer cells than columns
	rows[5].Cells = append(rows[5].Cells, "extra", "cells")
	m.SetRows(rows)
	m.Move(4)
	for w := 1; w <= 60; w++ {
		for h := 1; h <= 20; h++ {
			m.SetHeight(h)
			out := m.View(w, h)
			uitest.AssertSize(t, out, w, h)
		}
	}
	if m.View(0, 10) != "" || m.View(10, 0) != "" || m.View(-1, -1) != "" {
		t.Error("non-positive size must render nothing")
	}
}

func TestRendersOnlyVisibleRowsAndMarks(t *testing.T) {
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(old)

	m := New(testCols, StylesFrom(theme.New(false)))
	m.SetHeight(6)
	m.SetRows(rowsN(20))
	next := rowsN(20)
	next[1].Cells[1] = "\x1b[33mstopping\x1b[0m"
	m.SetRows(next)
	m.Flash([]string{"m0001"})
	m.Move(2)
	out := m.View(40, 6)
	lines := strings.Split(ansi.Strip(out), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d lines", len(lines))
	}
	if !strings.HasPrefix(lines[0], " ID") {
		t.Errorf("header %q", lines[0])
	}
	for i, want := range []string{" m0000", "▌m0001", " m0002", " m0003"} {
		if !strings.HasPrefix(lines[i+1], want) {
			t.Errorf("body line %d = %q, want prefix %q", i, lines[i+1], want)
		}
	}
	if strings.Contains(ansi.Strip(out), "m0004") {
		t.Error("a row outside the window was drawn")
	}
	raw := strings.Split(out, "\n")
	if !strings.Contains(raw[3], "\x1b[7") && !strings.Contains(raw[3], ";7") {
		t.Errorf("selected row not reversed: %q", raw[3])
	}
	if !strings.Contains(raw[2], "\x1b[33m") {
		t.Errorf("flashing row lost its cell colour: %q", raw[2])
	}

	m.SetDim(true)
	for i, l := range strings.Split(m.View(40, 6), "\n")[1:4] {
		if i != 1 && strings.Contains(l, "\x1b[33m") {
			t.Errorf("dimmed row kept a cell colour: %q", l)
		}
	}
}

func TestFilterPositionLine(t *testing.T) {
	m := newTable()
	m.SetRows(rowsN(1200))
	m.SetFilter("m00")
	lines := plainLines(m, 60, 5)
	if want := "/m00 · 1–3 of 100 (1,200 total)"; !strings.Contains(lines[4], want) {
		t.Errorf("position %q, want %q", lines[4], want)
	}
}

// The sort's mark never moves a title, in whichever column it is and
// however that column is aligned; a sort by a column off screen is named
// at the header's end.
func TestSortMarkKeepsTheHeaderInPlace(t *testing.T) {
	cols := []Column{{Title: "STATE", Width: 9}, {Title: "REGION", Width: 6}, {Title: "CHECKS", Width: 6, Align: AlignRight},
		{Title: "AGE", Width: 6, Align: AlignRight}, {Title: "IMAGE", Width: 12, Drop: 9}}
	m := New(cols, Styles{})
	m.SetRows([]Row{{ID: "a", Cells: []string{"started", "ams", "1/1", "5s", "67ac8500bb8b"}}})
	header := func(width int) string { return strings.Split(ansi.Strip(m.View(width, 4)), "\n")[0] }
	starts := func(h string) []int {
		var out []int
		for _, c := range cols {
			i := strings.Index(h, c.Title)
			out = append(out, ansi.StringWidth(h[:max(i, 0)])) // in cells: the mark is 3 bytes
		}
		return out
	}
	plain := header(60)
	for col := range cols {
		for _, desc := range []bool{false, true} {
			m.SetSort(col, desc)
			got := header(60)
			if !reflect.DeepEqual(starts(got), starts(plain)) {
				t.Errorf("sorted by %s: header %q moved from %q", cols[col].Title, got, plain)
			}
			mark := SortAsc
			if desc {
				mark = SortDesc
			}
			if strings.Count(got, mark) != 1 {
				t.Errorf("sorted by %s: header %q has no one %s", cols[col].Title, got, mark)
			}
		}
	}
	// At 43 cells IMAGE is off screen: the header's end names the sort.
	// At 42 there is no room left there: the position line does.
	m.SetSort(4, false)
	if got := header(43); !strings.Contains(got, "sort IMAGE↑") || strings.Contains(got, "IMAGE ") {
		t.Errorf("sorted by a hidden column: header %q", got)
	}
	lines := strings.Split(ansi.Strip(m.View(42, 4)), "\n")
	if !strings.Contains(lines[3], "sort IMAGE↑ ·") || strings.Contains(lines[0], "sort") {
		t.Errorf("sorted by a hidden column at 42: %q", lines)
	}
	if !reflect.DeepEqual(starts(header(42)), starts(strings.Split(ansi.Strip(New(cols, Styles{}).View(42, 4)), "\n")[0])) {
		t.Errorf("a sort by a hidden column moved the header: %q", header(42))
	}
	uitest.AssertSize(t, m.View(42, 4), 42, 4)
}
