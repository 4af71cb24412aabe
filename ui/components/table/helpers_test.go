package table

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/theme"
)

var testCols = []Column{
	{Title: "ID", Width: 6},
	{Title: "STATE", Width: 10, Flex: 1},
	{Title: "REGION", Width: 6, Align: AlignRight},
}

func newTable() Model {
	return New(testCols, StylesFrom(theme.New(true)))
}

// rowsN builds n rows with IDs m0000, m0001, ...
func rowsN(n int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		id := fmt.Sprintf("m%04d", i)
		rows[i] = Row{ID: id, Cells: []string{id, "started", "ams"}}
	}
	return rows
}

func rowsOf(ids ...string) []Row {
	rows := make([]Row, len(ids))
	for i, id := range ids {
		rows[i] = Row{ID: id, Cells: []string{id, "started", "ams"}}
	}
	return rows
}

func selectedID(t *testing.T, m Model) string {
	t.Helper()
	r, ok := m.Selected()
	if !ok {
		return ""
	}
	return r.ID
}

// plainLines renders and strips styling.
func plainLines(m Model, w, h int) []string {
	return strings.Split(ansi.Strip(m.View(w, h)), "\n")
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
func join(lines []string) string  { return strings.Join(lines, "\n") }
