package status

import (
	"io"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/columns"
	"github.com/flywake/flywake/sources/snapshot"
)

// maxCell is the widest cell the text table prints (a Fly machine name
// is at most 63 characters): a longer one is cut, with "…", so one odd
// value does not make every line of the table as wide.
const maxCell = 64

// textTable is the machines table of the text report: the columns of
// sources/columns (the Machines pane's) that have something to show, one
// row per machine, by id.
type textTable struct {
	titles []string
	right  []bool
	rows   [][]string
}

func machinesTable(a *snapshot.App, now time.Time) textTable {
	ms := a.Machines
	order := make([]*snapshot.Machine, len(ms))
	for i := range ms {
		order[i] = &ms[i]
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].ID < order[j].ID })
	var t textTable
	cells := make([][]string, len(order))
	for _, c := range columns.Machines() {
		col := make([]string, len(order))
		shown := false
		for i, m := range order {
			col[i] = ansi.Truncate(c.Cell(a, m, now), maxCell, "…")
			shown = shown || !columns.Empty(col[i])
		}
		if !shown && len(order) > 0 {
			continue // nothing in it for any machine
		}
		t.titles = append(t.titles, c.Title)
		t.right = append(t.right, c.Right)
		for i := range order {
			cells[i] = append(cells[i], col[i])
		}
	}
	t.rows = cells
	return t
}

// write prints the table with two spaces between columns, each line
// after indent, without trailing blanks.
func (t textTable) write(w io.Writer, indent string) {
	widths := make([]int, len(t.titles))
	for i, h := range t.titles {
		widths[i] = ansi.StringWidth(h)
	}
	for _, r := range t.rows {
		for i, c := range r {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range cells {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-ansi.StringWidth(c))
			if t.right[i] {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		_, _ = io.WriteString(w, strings.TrimRight(b.String(), " ")+"\n")
	}
	line(t.titles)
	for _, r := range t.rows {
		line(r)
	}
}
