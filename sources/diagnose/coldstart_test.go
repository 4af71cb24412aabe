package diagnose

import (
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2025, 8, 22, 19, 0, 0, 0, time.UTC)

type at struct {
	sec      float64
	provider string
	msg      string
}

func linesFor(machine string, start time.Time, script []at) []LogLine {
	out := make([]LogLine, 0, len(script))
	for _, s := range script {
		out = append(out, LogLine{Time: start.Add(time.Duration(s.sec * float64(time.Second))), Machine: machine, Provider: s.provider, Message: s.msg})
	}
	return out
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// scaleToZeroBoot is sleepy-api's entrypoint: migrate, collectstatic &, granian.
func scaleToZeroBoot(migrate float64) []at {
	m := 2 + migrate
	return []at{
		{0, "proxy", "Starting machine"},
		{0.1, "runner", "Configuring firecracker"},
		{1.142, "runner", "Machine started in 1.042s"},
		{1.5, "app", " INFO Starting init (commit: 6c3fc2e)..."},
		{1.6, "app", " INFO Preparing to run: `/app/entrypoint.sh` as root"},
		{2, "app", "entrypoint: python manage.py migrate --noinput"},
		{3, "app", "Operations to perform:"},
		{3.1, "app", "Running migrations:"},
		{3.2, "app", "  No migrations to apply."},
		{m, "app", "Migrations complete"},
		{m + 0.3, "app", "entrypoint: python manage.py collectstatic --noinput &"},
		{m + 0.8, "app", "[INFO] Starting granian (WSGI; workers 2)"},
		{m + 7.8, "app", "[INFO] Listening at: http://0.0.0.0:8000"},
		{m + 9.8, "app", "0 static files copied to '/app/staticfiles', 1268 unmodified."},
		{m + 16.2, "app", `"GET /api/health/ HTTP/1.1" 200 15 3ms`},
		{m + 17, "health", "Health check on port 8000 is now passing."},
		{m + 18, "app", `"GET /api/v1/notifications/ HTTP/1.1" 200 15 3ms`},
	}
}

func TestBootsTimelines(t *testing.T) {
	type span struct {
		name       string
		start, end float64 // seconds after t0; end < 0 = open
		release    bool
	}
	for _, tc := range []struct {
		name     string
		lines    []LogLine
		now      time.Time
		boots    int
		pick     int
		resume   bool
		complete bool
		live     bool
		elapsed  time.Duration
		spans    []span
	}{
		{
			name: "scale-to-zero cold boot", lines: linesFor("m1", t0, scaleToZeroBoot(10.2)), now: t0.Add(time.Hour),
			boots: 1, complete: true, elapsed: secs(28.4 - 0.1),
			spans: []span{
				{PhaseMachineBoot, 0.1, 1.142, false},
				{PhaseInit, 1.5, 2, false},
				{PhaseMigrations, 2, 12.2, true},
				{PhaseStatic, 12.5, 22, true},
				{PhaseServerStart, 13, 20, false},
				{PhaseListening, 20, 28.4, false},
			},
		},
		{
			name: "tuned app with release gate",
			lines: linesFor("m2", t0, []at{
				{0, "runner", "Configuring firecracker"},
				{1, "runner", "Machine started in 1.0s"},
				{1.2, "app", "release gate: this release is already prepared, starting straight away"},
				{3, "app", "[INFO] Starting granian (WSGI; workers 2)"},
				{8, "app", "[INFO] Listening at: http://0.0.0.0:8000"},
				{9, "app", `"POST /api/login/ HTTP/1.1" 201 15 3ms`},
			}),
			now: t0.Add(time.Hour), boots: 1, complete: true, elapsed: secs(9),
			spans: []span{
				{PhaseMachineBoot, 0, 1, false},
				{PhaseReleaseGate, 1.2, 3, false},
				{PhaseServerStart, 3, 8, false},
				{PhaseListening, 8, 9, false},
			},
		},
		{
			name: "resume from snapshot",
			lines: linesFor("m3", t0, []at{
				{0, "proxy", "Starting machine"},
				{0.01, "runner", "Resuming machine from snapshot"},
				{0.3, "runner", "Machine resumed in 284ms"},
				{0.45, "app", `"GET /api/v1/notifications/unread_count/ HTTP/1.1" 200 2 4ms`},
			}),
			now: t0.Add(time.Minute), boots: 1, resume: true, complete: true, elapsed: secs(0.44),
			spans: []span{{PhaseResume, 0.01, 0.3, false}},
		},
		{
			name:  "live boot stuck in migrations",
			lines: linesFor("m4", t0, scaleToZeroBoot(10)[:9]),
			now:   t0.Add(20 * time.Second), boots: 1, live: true, elapsed: secs(19.9),
			spans: []span{
				{PhaseMachineBoot, 0.1, 1.142, false},
				{PhaseInit, 1.5, 2, false},
				{PhaseMigrations, 2, -1, true},
			},
		},
		{
			name: "crash before serving then a new boot",
			lines: linesFor("m5", t0, []at{
				{0, "runner", "Configuring firecracker"},
				{1, "runner", "Machine started in 1.0s"},
				{2, "app", "[INFO] Starting gunicorn 23.0.0"},
				{2.5, "app", "ImportError: cannot import name 'settings' from 'config'"},
				{3, "runner", "Configuring firecracker"},
				{4, "runner", "Machine started in 1.0s"},
			}),
			now: t0.Add(time.Minute), boots: 2, pick: 0, elapsed: secs(2.5),
			spans: []span{{PhaseMachineBoot, 0, 1, false}, {PhaseServerStart, 2, 2.5, false}},
		},
		{
			name: "non-2xx requests do not count, health passing does",
			lines: linesFor("m6", t0, []at{
				{0, "runner", "Configuring firecracker"},
				{1, "runner", "Machine started in 1.0s"},
				{2, "app", `"GET /api/health/ HTTP/1.1" 503 15 3ms`},
				{3, "app", `"GET /api/ HTTP/1.1" 304 0 3ms`},
				{4, "health", "Health check on port 8000 is now passing."},
			}),
			now: t0.Add(time.Minute), boots: 1, complete: true, elapsed: secs(4),
			spans: []span{{PhaseMachineBoot, 0, 1, false}},
		},
		{
			name: "lines before begin and wrong providers are ignored",
			lines: linesFor("m7", t0, []at{
				{-5, "app", `"GET /api/ HTTP/1.1" 200 1 1ms`},
				{-4, "app", "Configuring firecracker"},
				{0, "runner", "Configuring firecracker"},
				{2, "proxy", `"GET /api/ HTTP/1.1" 200 1 1ms`},
				{6, "app", `"GET /api/ HTTP/1.1" 200 1 1ms`},
			}),
			now: t0.Add(time.Minute), boots: 1, complete: true, elapsed: secs(6),
			spans: []span{{PhaseMachineBoot, 0, 6, false}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Reverse the input: Boots must not rely on order.
			lines := make([]LogLine, len(tc.lines))
			for i, l := range tc.lines {
				lines[len(lines)-1-i] = l
			}
			boots := boots(lines, DefaultMarkers())
			if len(boots) != tc.boots {
				t.Fatalf("got %d boots, want %d: %+v", len(boots), tc.boots, boots)
			}
			b := boots[tc.pick]
			if b.Resume != tc.resume || b.Complete != tc.complete || b.Live() != tc.live {
				t.Errorf("resume/complete/live = %v/%v/%v, want %v/%v/%v", b.Resume, b.Complete, b.Live(), tc.resume, tc.complete, tc.live)
			}
			if got := b.Elapsed(tc.now); got != tc.elapsed {
				t.Errorf("Elapsed = %v, want %v", got, tc.elapsed)
			}
			if len(b.Phases) != len(tc.spans) {
				t.Fatalf("phases = %+v, want %d spans", b.Phases, len(tc.spans))
			}
			for i, want := range tc.spans {
				got := b.Phases[i]
				wantEnd := time.Time{}
				if want.end >= 0 {
					wantEnd = t0.Add(secs(want.end))
				}
				if got.Name != want.name || !got.Start.Equal(t0.Add(secs(want.start))) || !got.End.Equal(wantEnd) || got.ReleaseWork != want.release {
					t.Errorf("phase %d = %s [%v, %v] release=%v, want %s [%v, %v] release=%v", i,
						got.Name, got.Start.Sub(t0), got.End, got.ReleaseWork, want.name, secs(want.start), wantEnd, want.release)
				}
			}
		})
	}
}

func TestBootsAbandonedAndPerMachine(t *testing.T) {
	lines := append(linesFor("a", t0, scaleToZeroBoot(10)), linesFor("b", t0.Add(time.Second), scaleToZeroBoot(5))...)
	lines = append(lines, linesFor("a", t0.Add(time.Minute), []at{{0, "runner", "Configuring firecracker"}})...)
	boots := boots(lines, DefaultMarkers())
	if len(boots) != 3 {
		t.Fatalf("got %d boots, want 3", len(boots))
	}
	want := []struct {
		machine  string
		complete bool
	}{{"a", true}, {"b", true}, {"a", false}}
	for i, w := range want {
		if boots[i].Machine != w.machine || boots[i].Complete != w.complete {
			t.Errorf("boot %d = %s complete=%v, want %s complete=%v", i, boots[i].Machine, boots[i].Complete, w.machine, w.complete)
		}
	}
	if !boots[2].Live() {
		t.Errorf("last boot of a should be live")
	}
}

func TestSummarizeSeedDay(t *testing.T) {
	now := t0.Add(24 * time.Hour)
	var lines []LogLine
	// 10 cold boots with migrations of 10 s each (28 s total), one every two hours…
	for i := range 10 {
		lines = append(lines, linesFor("m"+string(rune('a'+i)), t0.Add(time.Duration(i)*2*time.Hour+time.Minute), scaleToZeroBoot(10))...)
	}
	// …two resumes, and one live cold boot that began 10 s ago.
	for i := range 2 {
		lines = append(lines, linesFor("r", now.Add(-time.Duration(i+1)*time.Minute), []at{
			{0, "runner", "Resuming machine from snapshot"}, {0.3, "runner", "Machine resumed in 284ms"},
			{0.4 + float64(i)*0.1, "app", `"GET / HTTP/1.1" 200 1 1ms`}})...)
	}
	lines = append(lines, linesFor("live", now.Add(-10*time.Second), []at{{0, "runner", "Configuring firecracker"}})...)

	s := Summarize(boots(lines, DefaultMarkers()), t0, now)
	checks := []struct {
		name      string
		got, want any
	}{
		{"Count", s.Count, 11},
		{"Served", s.Served, 10},
		{"Live", s.Live, 1},
		{"P50", s.P50, secs(28.1)},
		{"P95", s.P95, secs(28.1)},
		{"Max", s.Max, secs(28.1)},
		{"PerHour", s.PerHour, 1},
		{"PerDay", s.PerDay, 11},
		{"Resumes.Count", s.Resumes.Count, 2},
		{"Resumes.Max", s.Resumes.Max, secs(0.5)},
		{"Dominant.Name", s.Dominant.Name, PhaseMigrations},
		{"Dominant.Duration", s.Dominant.Duration, secs(10)},
		{"Dominant.ReleaseWork", s.Dominant.ReleaseWork, true},
		{"sentence", s.DominantSentence(), "migrations: 10.0s of 28.1s — release work run on every boot"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestSummarizeWindowAndSentences(t *testing.T) {
	boot := func(beginMin float64, total float64, phases ...PhaseSpan) Boot {
		b := Boot{Machine: "m", Begin: t0.Add(secs(beginMin * 60)), Complete: true}
		b.Serving = b.Begin.Add(secs(total))
		for _, p := range phases {
			p.Start, p.End = b.Begin.Add(p.Start.Sub(time.Time{})), b.Begin.Add(p.End.Sub(time.Time{}))
			b.Phases = append(b.Phases, p)
		}
		return b
	}
	ph := func(name string, from, to float64, release bool) PhaseSpan {
		return PhaseSpan{Name: name, Start: time.Time{}.Add(secs(from)), End: time.Time{}.Add(secs(to)), ReleaseWork: release}
	}
	now := t0.Add(3 * time.Hour)
	for _, tc := range []struct {
		name     string
		boots    []Boot
		since    time.Time
		count    int
		p50, p95 time.Duration
		sentence string
	}{
		{"no boots", nil, t0, 0, 0, 0, "no completed cold start yet"},
		{"window excludes old boots", []Boot{boot(0, 30), boot(120, 10)}, t0.Add(time.Hour), 1, secs(10), secs(10), "10.0s to serve; no phase markers matched"},
		{
			"release work on some boots",
			[]Boot{
				boot(1, 20, ph(PhaseMigrations, 0, 15, true)),
				boot(2, 22, ph(PhaseMigrations, 0, 16, true)),
				boot(3, 5, ph(PhaseServerStart, 0, 4, false)),
			},
			t0, 3, secs(20), secs(22), "migrations: 15.0s of 20.0s — release work run on 2 of 3 boots",
		},
		{
			"a phase seen once does not dominate",
			[]Boot{
				boot(1, 10, ph(PhaseServerStart, 0, 6, false)),
				boot(2, 40, ph(PhaseServerStart, 0, 6, false), ph(PhaseMigrations, 6, 40, true)),
				boot(3, 10, ph(PhaseServerStart, 0, 6, false)),
			},
			t0, 3, secs(10), secs(40), "server start: 6.0s of 10.0s",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Summarize(tc.boots, tc.since, now)
			if s.Count != tc.count || s.P50 != tc.p50 || s.P95 != tc.p95 {
				t.Errorf("count/p50/p95 = %d/%v/%v, want %d/%v/%v", s.Count, s.P50, s.P95, tc.count, tc.p50, tc.p95)
			}
			if got := s.DominantSentence(); got != tc.sentence {
				t.Errorf("sentence = %q, want %q", got, tc.sentence)
			}
		})
	}
}

func TestBootsPerHour(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	b := func(ago time.Duration, resume bool) Boot { return Boot{Begin: now.Add(-ago), Resume: resume} }
	for _, tc := range []struct {
		name  string
		boots []Boot
		hours int
		want  []int
	}{
		{"zero hours", []Boot{b(0, false)}, 0, nil},
		{"buckets oldest first", []Boot{b(0, false), b(30*time.Minute, false), b(90*time.Minute, false), b(170*time.Minute, false)}, 3, []int{1, 1, 2}},
		{"exactly one hour ago is the previous bucket", []Boot{b(time.Hour, false)}, 2, []int{1, 0}},
		{"resumes, future and old boots are left out", []Boot{b(time.Minute, true), b(-time.Minute, false), b(5*time.Hour, false)}, 3, []int{0, 0, 0}},
	} {
		got := BootsPerHour(tc.boots, now, tc.hours)
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}

func TestPercentile(t *testing.T) {
	d := func(s ...int) []time.Duration {
		out := make([]time.Duration, len(s))
		for i, v := range s {
			out[i] = time.Duration(v) * time.Second
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		values []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty", nil, 50, 0},
		{"p out of range low", d(1, 2), 0, 0},
		{"p out of range high", d(1, 2), 101, 0},
		{"single", d(7), 95, 7 * time.Second},
		{"median odd", d(3, 1, 2), 50, 2 * time.Second},
		{"median even takes lower middle", d(4, 1, 3, 2), 50, 2 * time.Second},
		{"p95 of 20", d(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20), 95, 19 * time.Second},
		{"p100 is max", d(5, 9, 1), 100, 9 * time.Second},
		{"tiny p is min", d(5, 9, 1), 0.1, 1 * time.Second},
	} {
		in := append([]time.Duration(nil), tc.values...)
		if got := Percentile(tc.values, tc.p); got != tc.want {
			t.Errorf("%s: Percentile = %v, want %v", tc.name, got, tc.want)
		}
		for i := range in {
			if in[i] != tc.values[i] {
				t.Errorf("%s: input modified", tc.name)
			}
		}
	}
}

// boots groups log lines into boot timelines per machine, ordered by begin
// time, in one go (the dashboard feeds a BootTracker page by page). Lines before a machine's first begin marker, and lines after a boot
// served, are ignored: a timeline without its begin would understate the wait.
func boots(lines []LogLine, markers []Marker) []Boot {
	sorted := slices.Clone(lines)
	slices.SortStableFunc(sorted, func(a, b LogLine) int { return a.Time.Compare(b.Time) })
	t := NewBootTracker(markers)
	t.Add(sorted)
	return t.Boots()
}

// crashyBoot is a start whose app serves, then exits 1 (the platform
// restarts it after restart seconds when restart >= 0).
func crashyBoot(crashAt float64) []at {
	return []at{
		{0, "runner", "Configuring firecracker"},
		{0.8, "runner", "Machine started in 800ms"},
		{1.0, "app", "[INFO] Starting uvicorn (workers 1)"},
		{2.0, "app", "[INFO] Listening at: http://0.0.0.0:8080"},
		{2.7, "health", "Health check on port 8080 is now passing."},
		{crashAt, "app", "ImportError: cannot import name 'settings' from 'config' (/app/config/__init__.py)"},
		{crashAt, "app", " INFO Main child exited normally with code: 1"},
		{crashAt + 0.1, "app", " INFO Starting clean up."},
	}
}

func TestBootsCrashRestarts(t *testing.T) {
	clean := []at{
		{0, "runner", "Configuring firecracker"},
		{1, "runner", "Machine started in 1.0s"},
		{2, "health", "Health check on port 8080 is now passing."},
	}
	stop := []at{{0, "app", " INFO Sending signal SIGINT to main child process w/ PID 637"}, {0.2, "app", " INFO Main child exited normally with code: 0"}}
	oom := []at{
		{0, "runner", "Configuring firecracker"},
		{1, "runner", "Machine started in 1.0s"},
		{1.5, "app", "[    2.1] Out of memory: Killed process 321 (python3) total-vm:1203400kB"},
	}
	type want struct{ crashed, afterCrash, complete, live bool }
	for _, tc := range []struct {
		name  string
		lines []LogLine
		want  []want
	}{
		{"a clean boot is no crash restart", linesFor("m", t0, clean), []want{{complete: true}}},
		{"a clean stop (exit 0) is no crash", append(linesFor("m", t0, clean), linesFor("m", t0.Add(time.Minute), stop)...), []want{{complete: true}}},
		{
			"served, crashed, restarted: both belong to the loop",
			append(linesFor("m", t0, crashyBoot(3.3)), linesFor("m", t0.Add(secs(3.9)), crashyBoot(3.3))...),
			[]want{{crashed: true, complete: true}, {crashed: true, afterCrash: true, complete: true}},
		},
		{
			"a restart that stays up is still the crash's restart",
			append(linesFor("m", t0, crashyBoot(3.3)), linesFor("m", t0.Add(secs(4)), clean)...),
			[]want{{crashed: true, complete: true}, {afterCrash: true, complete: true}},
		},
		{
			"a boot long after the crash is a boot of its own",
			append(linesFor("m", t0, crashyBoot(3.3)), linesFor("m", t0.Add(10*time.Minute), clean)...),
			[]want{{crashed: true, complete: true}, {complete: true}},
		},
		{"killed by the OOM killer before serving: no live timer", linesFor("m", t0, oom), []want{{crashed: true}}},
		{"another machine's crash is not this one's", append(linesFor("a", t0, crashyBoot(3.3)), linesFor("b", t0.Add(secs(4)), clean)...), []want{{crashed: true, complete: true}, {complete: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := boots(tc.lines, DefaultMarkers())
			if len(got) != len(tc.want) {
				t.Fatalf("got %d boots, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				b := got[i]
				g := want{!b.CrashedAt.IsZero(), b.AfterCrash, b.Complete, b.Live()}
				if g != w {
					t.Errorf("boot %d: crashed/afterCrash/complete/live = %+v, want %+v", i, g, w)
				}
				if b.CrashRestart() != (w.crashed || w.afterCrash) {
					t.Errorf("boot %d: CrashRestart = %v", i, b.CrashRestart())
				}
			}
		})
	}
}

func TestSummarizeCountsCrashRestartsApart(t *testing.T) {
	now := t0.Add(2 * time.Hour)
	var lines []LogLine
	// Two healthy cold boots of 2 s, then a crash loop of 10 starts on
	// another machine, each serving after 2.7 s and crashing at 3.3 s.
	lines = append(lines, linesFor("ok", t0.Add(time.Minute), []at{{0, "runner", "Configuring firecracker"}, {2, "health", "Health check on port 8080 is now passing."}})...)
	lines = append(lines, linesFor("ok", t0.Add(time.Hour), []at{{0, "runner", "Configuring firecracker"}, {2, "health", "Health check on port 8080 is now passing."}})...)
	for i := range 10 {
		lines = append(lines, linesFor("crashy", now.Add(-30*time.Minute).Add(time.Duration(i)*4*time.Second), crashyBoot(3.3))...)
	}
	all := boots(lines, DefaultMarkers())
	for _, tc := range []struct {
		name      string
		boots     []Boot
		count     int
		crashes   int
		perHour   int
		perDay    int
		p95       time.Duration
		chartLast int
	}{
		{"healthy boots and a crash loop", all, 2, 10, 0, 2, secs(2), 0},
		{"only the crash loop", all[2:], 0, 10, 0, 0, 0, 0},
		{"only healthy boots", all[:2], 2, 0, 0, 2, secs(2), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Summarize(tc.boots, now.Add(-24*time.Hour), now)
			got := []any{s.Count, s.CrashRestarts, s.PerHour, s.PerDay, s.P95}
			want := []any{tc.count, tc.crashes, tc.perHour, tc.perDay, tc.p95}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("count/crash restarts/per hour/per day/p95 = %v, want %v", got, want)
					break
				}
			}
			if h := BootsPerHour(tc.boots, now, 1); h[0] != tc.chartLast {
				t.Errorf("BootsPerHour last hour = %d, want %d", h[0], tc.chartLast)
			}
			if bl := CorrelateBoots(nil, tc.boots, now.Add(-24*time.Hour), now); bl.Boots != tc.count {
				t.Errorf("CorrelateBoots.Boots = %d, want %d", bl.Boots, tc.count)
			}
		})
	}
}
