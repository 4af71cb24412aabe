// Package waketest is the suspend-vs-stop wake test: it puts an app's
// machines to sleep through the Machines API, fires a burst of concurrent
// requests at the app's public hostname the way users arrive (through the
// edge, no fly-force-instance-id), and records both sides — what each
// request saw, and when each machine began to wake, reached started and
// first served. The gap between "started" and "serving" is the point: a
// cold boot is "started" long before the app answers; a resume is not.
//
// One engine serves the headless command (flywake wake) and the dashboard's
// wake view:
//
//	plan, err := waketest.Prepare(ctx, env, setup) // validate, list once, preflight; changes nothing
//	// show plan.Targets, plan.Warnings; ask for confirmation
//	report, err := plan.Run(ctx, onEvent)          // cancel ctx to abort
//	dir, err := waketest.UserStateDir()            // $XDG_STATE_HOME/flywake/wake, else ~/.local/state/…
//	path, err := report.Save(dir, time.Now())
//
// A forced instance is refused by Setup.Validate, before any API call.
// onEvent receives typed Events one at a time (phase changes, machine
// states, each request as it finishes, machines started and serving) for a
// progress bar, status counts and a per-machine timeline. Aborting keeps
// every result gathered, marks the run aborted, says what is missing and
// reports each machine's last seen state.
//
// # Time
//
// Every duration in a report is PLATFORM milliseconds: wall time × speed
// (speed is 1 on real Fly; the demo's clock runs --speed times faster).
// Request times are measured on the local monotonic clock and scaled; machine
// times come from the platform's own start events (millisecond timestamps),
// so they do not depend on how often the API can be polled. Zero is the
// burst's first send. -1 means "never happened".
//
// # JSON (stable; keys are only ever added)
//
//	{
//	  "app": "sleepy-api",            // app name
//	  "speed": 1,                     // platform seconds per wall second
//	  "started_at": "RFC3339",        // platform time the test began
//	  "saved_at": "RFC3339",          // wall clock it was saved at (names the file); absent until saved
//	  "release": "42",                // the group's current release: its highest fly_release_version
//	  "mode": "stop|suspend|both",
//	  "url": "https://sleepy-api.fly.dev", "path": "/api/health/",
//	  "process_group": "app",
//	  "representative": true,         // false when requests were pinned with fly-force-instance-id
//	  "aborted": false,               // the test was cut short (ctx cancelled or total limit)
//	  "targets": [{"id","name","region","state","can_suspend","suspend_blockers":[…]}],  // preflight
//	  "kept_running": ["id"],         // min_machines_running machines left alone
//	  "warnings": ["…"],              // autostart off, autostop off, suspend blocked by config, …
//	  "soft_limit": 12,               // the service's soft limit (Fly's default when unset); 0: not recorded
//	  "comparable": false,            // the runs can be read against each other and other tests
//	  "not_comparable_because": ["stop run: the 1 machine awake answered 24 of our 40 requests, …"],
//	                                  // [] when comparable: a run whose awake machines absorbed the
//	                                  // requests meant for the sleeping ones, or stop faster than suspend
//	  "comparable_if": "send at least 73 requests, or put every machine to sleep (flywake wake --all)",
//	                                  // what would make them comparable; "" when they are or nothing known would
//	  "runs": [{                      // one per mode; "both" = stop, then suspend
//	    "mode": "stop|suspend",
//	    "requests": 40,               // planned
//	    "sent": 40, "ok": 28, "failed": 12,
//	    "cut_off": 0,                 // in flight when aborted: no outcome
//	    "by_status": {"200": 28, "502": 12},   // "0" = no response
//	    "by_err_class": {"none": 28, "proxy_5xx": 12},  // edge.ErrClass
//	    "p50_ms", "p95_ms", "max_ms", // nearest rank over completed requests, failures included
//	    "first_200_ms",               // first send → first complete 2xx (-1: none)
//	    "slowest_ms",                 // the slowest complete 2xx (-1: none)
//	    "start_skew_ms",              // first send → last send
//	    "machines_woken": 3,          // machines that reached started during the burst
//	    "started_to_serving_ms": {"id": 26448},  // per woken machine that served us
//	    "woken_unserved": ["id"],     // woken but no 2xx of ours: other traffic, or still booting when ours gave up
//	    "targets_asleep": 5,          // targets asleep when the requests went out
//	    "targets_woken": 2,           // of which woke during the burst
//	    "served_by_awake": 24,        // our 2xx answered by machines already up (kept running, or woken by others)
//	    "not_comparable": "…",        // why these figures are not the wakes' (the awake machines answered
//	                                  // requests meant for the sleeping ones, so fewer woke); "" when they are
//	    "suspend_blocked_by": ["failed_precondition: Machines with swap cannot be suspended"],  // the API's 412 texts, verbatim
//	    "fell_back_to_stop": true,    // a refused suspend became a stop
//	    "representative": true,
//	    "aborted": false,
//	    "missing": "",                // what has no record and why, e.g. "requests 23–40 not sent: aborted"
//	    "notes": ["…"],               // e.g. a target other traffic woke before the burst
//	    "machines": [{"id","target","state_before","slept","state_at_burst","state_after",
//	                  "suspend_refused","fell_back_to_stop","sleep_error",
//	                  "wake": "resume|cold boot", "woken_by": "fly-proxy|user",
//	                  "wake_ms","started_ms","serving_ms","served"}],
//	    "results": [{"index","sent_ms","ttfb_ms","total_ms","status","err_class","err",
//	                 "machine",        // the app's Fly-Machine-Id echo, when present
//	                 "request_id"}]    // the edge's fly-request-id
//	  }]
//	}
//
// No token and no request header value is ever stored; Report.Encode also
// scrubs every Setup.Secrets string as a second line of defence.
//
// Results are saved one file per test as <app>-<UTC time>.json under
// UserStateDir ($XDG_STATE_HOME/flywake/wake, else ~/.local/state/flywake/wake);
// LoadLast returns the newest for an app, so a view can show it beside a
// new one.
package waketest
