package diagnose

import (
	"regexp"
	"slices"
	"testing"
)

func TestPrefilterLiterals(t *testing.T) {
	tests := []struct {
		pattern string
		want    []string // nil: no filter
		fold    bool
	}{
		{`Configuring firecracker`, []string{"Configuring firecracker"}, false},
		{`Starting init|Preparing to run:`, []string{"Starting init", "Preparing to run:"}, false},
		{`entrypoint:.*\bmigrate\b|Operations to perform:|Running migrations`, []string{"entrypoint:", "Operations to perform:", "Running migrations"}, false},
		{`Machine (?:started|resumed) in`, []string{"Machine "}, false},
		{`"(?:GET|HEAD) \S+ HTTP/[0-9.]+" 2\d\d\b`, []string{" HTTP/"}, false},
		{`(?i)release gate:`, []string{"RELEASE GATE:"}, true},
		{`(?i)Starting (?:granian|gunicorn)\b`, []string{"STARTING "}, true},
		{`ab+c`, []string{"a"}, false},
		{`(?:abc){2,}`, []string{"abc"}, false},
		{`x*`, nil, false},
		{`[Ss]tarting?`, []string{"tartin"}, false},
		{`a|\d`, nil, false},
		{`(?i)ab|cd`, []string{"AB", "CD"}, true},
		{`(?i)a|b`, nil, false}, // a class: [ABab]
	}
	for _, tt := range tests {
		p := newPrefilter(regexp.MustCompile(tt.pattern))
		if !slices.Equal(p.any, tt.want) || (p.any != nil && p.fold != tt.fold) {
			t.Errorf("%s: literals %q fold %v, want %q fold %v", tt.pattern, p.any, p.fold, tt.want, tt.fold)
		}
	}
	// Every default marker is filtered: a day of access-log lines never
	// reaches their patterns.
	for _, m := range DefaultMarkers() {
		if newPrefilter(m.Pattern).any == nil {
			t.Errorf("marker %q (%s) has no prefilter", m.Name, m.Pattern)
		}
	}
}

// FuzzPrefilter: a line the filter turns away never matches the pattern,
// for every default marker (the seeds run in every go test).
func FuzzPrefilter(f *testing.F) {
	for _, line := range []string{
		`10.0.3.17 sleepy-api.fly.dev "GET /api/items/1234 HTTP/1.1" 200 15322 43ms`,
		`"POST /x HTTP/2" 204`, `"GET / HTTP/1.1" 500 0 1ms`,
		"Configuring firecracker", "Machine started in 1.1s", "Machine resumed in 312ms",
		"Starting init (commit: 1a2b3c)...", "Preparing to run: `/app/entrypoint.sh` as app",
		"release gate: waiting", "RELEASE GATE: open", "Release Gate:",
		"entrypoint: python manage.py migrate --noinput", "Operations to perform:", "Running migrations:",
		"entrypoint: python manage.py collectstatic", "Starting granian", "ſtarting gunicorn", "STARTİNG server",
		"starting uvicorn 0.30", "Listening at: http://0.0.0.0:8000", "Uvicorn running on http://0.0.0.0",
		"Health check on port 8000 is now passing", "Main child exited normally with code: 1",
		"Out of memory: Killed process 512 (python)", "", "\xff\xfe release gate:",
	} {
		f.Add(line)
	}
	markers := DefaultMarkers()
	f.Fuzz(func(t *testing.T, line string) {
		var folded string
		for _, m := range markers {
			if !newPrefilter(m.Pattern).mayMatch(line, &folded) && m.Pattern.MatchString(line) {
				t.Errorf("marker %q: the filter turns away %q, which the pattern matches", m.Name, line)
			}
		}
	})
}

func BenchmarkBootTrackerAccessLines(b *testing.B) {
	lines := make([]LogLine, 1000)
	for i := range lines {
		lines[i] = LogLine{Machine: "m1", Provider: "app",
			Message: `10.0.3.17 sleepy-api.fly.dev "GET /api/items/1234 HTTP/1.1" 200 15322 43ms`}
	}
	markers := DefaultMarkers()
	b.ReportAllocs()
	for b.Loop() {
		NewBootTracker(markers).Add(lines)
	}
}
