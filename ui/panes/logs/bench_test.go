package logs

import (
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// The budget: a keystroke in the regex over a full model (snapshot.MaxLogLines
// lines) must not stall Update. Update only starts the scan; the scan runs in
// its command (off Update) and a newer keystroke cancels it.

func fullPane(b *testing.B) (*Pane, *snapshot.App) {
	b.Helper()
	a := model(day(snapshot.MaxLogLines))
	p := newPane(theme.New(false))
	p.SetSize(160, 46)
	p.SetData(a, t0)
	run(p, uitest.Key("/"))
	return p, a
}

// BenchmarkKeystrokeUpdate is what one typed character costs Update with
// 150,000 lines held: the input, a compile, and the scan handed to a command.
func BenchmarkKeystrokeUpdate(b *testing.B) {
	p, _ := fullPane(b)
	keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("t")}, {Type: tea.KeyBackspace}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.Update(keys[i%2]) // the command (the scan) is not run: it runs off Update
	}
}

// BenchmarkScan150k is the scan a keystroke starts, in its command.
func BenchmarkScan150k(b *testing.B) {
	p, _ := fullPane(b)
	c, _ := compile(Filter{Regex: "timeout|PR0[1-4]"})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		scan(context.Background(), p.lines, 0, len(p.lines), c)
	}
	b.ReportMetric(float64(len(p.lines)), "lines")
}

// BenchmarkCatchUpOneFetch is SetData matching the largest batch one logs
// fetch brings (watch.MaxLogPages pages of 1,000) against a regex: the part
// of the filtering that does run in Update.
func BenchmarkCatchUpOneFetch(b *testing.B) {
	lines := day(watch.MaxLogPages * 1000)
	p := newPane(theme.New(false))
	p.SetSize(160, 46)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		a := snapshot.New("demo-org", "sleepy-api", nil)
		p.SetData(a, t0)
		run(p, uitest.Key("/"))
		typeText(p, "PR0[1-4]")
		run(p, uitest.Key("enter"))
		a.ApplyLogs(lines)
		b.StartTimer()
		p.SetData(a, t0)
	}
}

// BenchmarkView draws a filtered, full model at 160×46.
func BenchmarkView(b *testing.B) {
	p, _ := fullPane(b)
	typeText(p, "notifications/1")
	run(p, uitest.Key("enter"))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.View(true, t0)
	}
}

// BenchmarkScan150kText is the common case: plain text, any case.
func BenchmarkScan150kText(b *testing.B) {
	p, _ := fullPane(b)
	c, _ := compile(Filter{Regex: "health check"})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		scan(context.Background(), p.lines, 0, len(p.lines), c)
	}
}

// BenchmarkCatchUpWorst is SetData's bounded share (catchUpMax lines) of a
// big fetch against the slowest kind of expression (case-insensitive
// alternation).
func BenchmarkCatchUpWorst(b *testing.B) {
	lines := day(watch.MaxLogPages * 1000)
	p := newPane(theme.New(false))
	p.SetSize(160, 46)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		a := snapshot.New("demo-org", "sleepy-api", nil)
		p.SetData(a, t0)
		run(p, uitest.Key("/"))
		typeText(p, "timeout|pr0[1-4]")
		run(p, uitest.Key("enter"))
		a.ApplyLogs(lines)
		b.StartTimer()
		p.SetData(a, t0)
		if p.behind() == 0 {
			b.Fatal("nothing left for later: the bound did not apply")
		}
	}
}
