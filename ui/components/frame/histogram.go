package frame

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/flywake/flywake/ui/components/cell"
)

// Bucket is one histogram bar: a label ("<250ms") and its count.
type Bucket struct {
	Label string
	Count int
}

// eighths are partial block widths, for bars finer than one cell.
var eighths = []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// Histogram draws one horizontal bar per bucket: label, bar scaled to the
// largest count, and the count. The result is exactly width×height; when
// buckets outnumber lines, the last line says how many were left out.
// Labels take at most a third of the width.
func Histogram(buckets []Bucket, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	shown := buckets
	hidden := 0
	if len(buckets) > height {
		keep := max(height-1, 0)
		shown, hidden = buckets[:keep], len(buckets)-keep
	}
	labelW, countW, peak := 0, 0, 0
	for _, bk := range shown {
		labelW = max(labelW, ansi.StringWidth(bk.Label))
		countW = max(countW, len(cell.Thousands(max(bk.Count, 0))))
		peak = max(peak, bk.Count)
	}
	labelW = min(labelW, width/3)
	barW := width - labelW - countW - 2
	if barW < 1 { // no room for counts: bars only
		countW = 0
		barW = width - labelW - 1
	}

	lines := make([]string, 0, height)
	for _, bk := range shown {
		var b strings.Builder
		if labelW > 0 {
			b.WriteString(cell.Fit(bk.Label, labelW, cell.Right))
			b.WriteByte(' ')
		}
		b.WriteString(cell.Cut(bar(bk.Count, peak, barW), max(barW, 0)))
		if countW > 0 {
			b.WriteByte(' ')
			b.WriteString(cell.Fit(cell.Thousands(max(bk.Count, 0)), countW, cell.Right))
		}
		lines = append(lines, b.String())
	}
	if hidden > 0 {
		lines = append(lines, "… "+cell.Thousands(hidden)+" more")
	}
	return cell.Block(strings.Join(lines, "\n"), width, height)
}

// bar is count's share of width cells, in eighths of a cell. A positive
// count always shows at least a sliver.
func bar(count, peak, width int) string {
	if count <= 0 || peak <= 0 || width <= 0 {
		return ""
	}
	units := count * width * 8 / peak
	units = max(units, 1)
	return strings.Repeat("█", units/8) + eighths[units%8]
}
