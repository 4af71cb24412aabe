package uitest

import (
	"time"

	"github.com/flywake/flywake/sources/diagnose"
)

// Boot is how long a demo cold boot's phases take.
type Boot struct {
	Migrations, Static, Serve time.Duration
}

// ColdBoot is the demo's Django cold boot of machine m from begin, in the
// log vocabulary flysim emits: the runner, migrations, collectstatic, then
// the server and its first health check. A non-zero until leaves out the
// lines after it (a boot still going).
func ColdBoot(m string, begin time.Time, b Boot, until time.Time) []diagnose.LogLine {
	var out []diagnose.LogLine
	at := begin
	step := func(d time.Duration, provider, msg string) {
		at = at.Add(d)
		if until.IsZero() || !at.After(until) {
			out = append(out, diagnose.LogLine{Time: at, Machine: m, Provider: provider, Message: msg})
		}
	}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	step(0, "proxy", "Starting machine")
	step(ms(10), "runner", "Configuring firecracker")
	step(ms(1040), "runner", "Machine started in 1.042s")
	step(ms(100), "app", " INFO Starting init (commit: 6c3fc2e)...")
	step(ms(100), "app", " INFO Preparing to run: `/app/entrypoint.sh` as root")
	step(ms(200), "app", "entrypoint: python manage.py migrate --noinput")
	step(ms(100), "app", "Operations to perform:")
	step(ms(100), "app", "Running migrations:")
	step(ms(100), "app", "  No migrations to apply.")
	step(b.Migrations-ms(300), "app", "Migrations complete")
	step(ms(50), "app", "entrypoint: python manage.py collectstatic --noinput &")
	step(b.Static, "app", "0 static files copied to '/app/staticfiles', 1268 unmodified.")
	step(ms(50), "app", "[INFO] Starting granian (WSGI; workers 2)")
	step(b.Serve, "app", "[INFO] Listening at: http://0.0.0.0:8000")
	step(ms(300), "app", `"GET /api/health/ HTTP/1.1" 200 15 3ms`)
	step(ms(200), "health", "Health check on port 8000 is now passing.")
	return out
}
