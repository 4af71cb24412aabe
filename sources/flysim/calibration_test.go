package flysim

import (
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim/proxy"
)

// dayFigures are the scale-to-zero app's figures over the simulated day, as
// measured on Fly: from logs and from both metric series.
type dayFigures struct {
	coldStarts           int             // "Configuring firecracker" runner lines
	boots                []time.Duration // begin → first health 200, complete boots
	polled, polledFailed int
	appErrLines          int // app log lines with a 5xx
	appErrSeries         float64
	edgeTotal, appTotal  float64
	logLines             int
}

func measureDay(s *Sim, app string, from, to time.Time) dayFigures {
	st, _ := s.Traffic(app)
	s.sched.Lock()
	defer s.sched.Unlock()
	var f dayFigures
	begun := map[string]time.Time{}
	for _, ln := range s.logs.Lines(app) {
		if ln.Time.Before(from) || ln.Time.After(to) {
			continue
		}
		switch {
		case ln.Provider == "runner" && ln.Message == "Configuring firecracker":
			f.coldStarts++
			begun[ln.Machine] = ln.Time
		case ln.Provider == "app" && strings.Contains(ln.Message, `"GET `+s.store.App(app).Profile().HealthPath+` HTTP/1.1" 200`):
			if t, ok := begun[ln.Machine]; ok {
				f.boots = append(f.boots, ln.Time.Sub(t))
				delete(begun, ln.Machine)
			}
		}
		if ln.Provider == "app" && ln.Status >= 500 {
			f.appErrLines++
		}
	}
	f.logLines = len(s.logs.Lines(app))
	f.polled = st.Served[proxy.ClassPoll] + st.Failed[proxy.ClassPoll]
	f.polledFailed = st.Failed[proxy.ClassPoll]
	for _, n := range s.metrics.EdgeTotals(app) {
		f.edgeTotal += n
	}
	for _, byStatus := range s.metrics.AppTotals(app) {
		for status, n := range byStatus {
			f.appTotal += n
			if status >= 500 {
				f.appErrSeries += n
			}
		}
	}
	return f
}

// TestCalibrationScaleToZeroDay holds the simulated day of the scale-to-zero
// app to the figures measured on Fly: about 90 cold starts on 10 machines,
// 25–33 s each, roughly a fifth of the polled requests failing at the edge,
// none of them in the app's logs or its fly_app series.
func TestCalibrationScaleToZeroDay(t *testing.T) {
	t.Parallel()
	// Seeds at different times of day: the history's diurnal curve and bursts
	// are laid out from its end, so the hour the platform starts matters.
	base := time.Date(2026, 11, 30, 3, 17, 0, 0, time.UTC)
	for i, seed := range []uint64{1, 2, 3} {
		wall := base.Add(time.Duration(i) * 8 * time.Hour)
		start := time.Now()
		s := New(Options{Seed: seed, Wall: func() time.Time { return wall }})
		took := time.Since(start)
		end := s.clock.Now()
		f := measureDay(s, DemoScaleToZero, end.Add(-24*time.Hour), end)
		minB, maxB, sum := time.Hour, time.Duration(0), time.Duration(0)
		for _, b := range f.boots {
			minB, maxB, sum = min(minB, b), max(maxB, b), sum+b
		}
		share := float64(f.polledFailed) / float64(max(1, f.polled))
		t.Logf("seed %d: history in %s; %d cold starts, %d complete boots %s–%s (mean %s); polled %d, failed at edge %d (%.1f%%); edge %0.f vs app %0.f responses; %d log lines",
			seed, took.Round(time.Millisecond), f.coldStarts, len(f.boots), minB.Round(100*time.Millisecond), maxB.Round(100*time.Millisecond),
			(sum / time.Duration(max(1, len(f.boots)))).Round(100*time.Millisecond), f.polled, f.polledFailed, 100*share, f.edgeTotal, f.appTotal, f.logLines)
		// The time it took is logged, not asserted: machines here are shared
		// and noisy; BenchmarkSimStartup measures it.
		if f.coldStarts < 70 || f.coldStarts > 115 {
			t.Errorf("seed %d: %d cold starts, want about 90 (70–115)", seed, f.coldStarts)
		}
		if len(f.boots) < f.coldStarts*8/10 {
			t.Errorf("seed %d: only %d of %d boots reached serving", seed, len(f.boots), f.coldStarts)
		}
		if minB < 24*time.Second || maxB > 34*time.Second {
			t.Errorf("seed %d: boots %s–%s, want within 24–34 s", seed, minB, maxB)
		}
		if share < 0.15 || share > 0.30 {
			t.Errorf("seed %d: %.1f%% of polled requests failed at the edge, want 15–30%%", seed, 100*share)
		}
		if f.appErrLines != 0 || f.appErrSeries != 0 {
			t.Errorf("seed %d: the app saw %d error lines / %.0f 5xx in fly_app; the failures must be edge-only", seed, f.appErrLines, f.appErrSeries)
		}
		if gap := f.edgeTotal - f.appTotal; gap < float64(f.polledFailed) {
			t.Errorf("seed %d: edge−app gap %.0f smaller than the %d edge failures", seed, gap, f.polledFailed)
		}
		if f.logLines > 50_000 {
			t.Errorf("seed %d: %d log lines in a day, want ≤ 50k", seed, f.logLines)
		}
	}
}
