package table

import (
	"fmt"
	"testing"

	"github.com/flywake/flywake/ui/theme"
)

func benchTable(n int) Model {
	m := New([]Column{
		{Title: "ID", Width: 14},
		{Title: "STATE", Width: 12},
		{Title: "REGION", Width: 6},
		{Title: "IMAGE", Width: 12, Flex: 1},
		{Title: "CHECKS", Width: 6, Align: AlignRight},
	}, StylesFrom(theme.New(false)))
	th := theme.New(false)
	rows := make([]Row, n)
	for i := range rows {
		id := fmt.Sprintf("3d8d%010d", i)
		rows[i] = Row{ID: id, Cells: []string{id, th.State("started").Render(), "ams", "registry.fly.io/app:deployment-01H", "2/2"}}
	}
	m.SetRows(rows)
	m.SetHeight(40)
	m.Move(n / 2)
	return m
}

func benchView(b *testing.B, n int) {
	m := benchTable(n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.View(120, 40)
	}
}

func BenchmarkView10(b *testing.B)    { benchView(b, 10) }
func BenchmarkView1000(b *testing.B)  { benchView(b, 1000) }
func BenchmarkView10000(b *testing.B) { benchView(b, 10000) }

// fullScreen is the row count that exactly fills the 38 body lines of a
// 40-line view: any larger table must cost the same per frame.
const fullScreen = 38

// TestViewAllocsIndependentOfRowCount is the deterministic guard of the
// virtualisation: a 10,000-row frame allocates what a one-screen frame does
// (a few more bytes of "10,000" in the position line at most).
func TestViewAllocsIndependentOfRowCount(t *testing.T) {
	allocs := func(n int) float64 {
		m := benchTable(n)
		return testing.AllocsPerRun(50, func() { _ = m.View(120, 40) })
	}
	screen, big := allocs(fullScreen), allocs(10000)
	if big > screen+10 {
		t.Errorf("allocs per frame: %d rows %.0f, 10,000 rows %.0f", fullScreen, screen, big)
	}
}
