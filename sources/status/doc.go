// Package status builds what `flywake status` prints: one look at each app,
// from the same snapshot.App the dashboard draws. It is pure: the command
// collects the apps (sources/watch) and encodes the Report.
//
// # JSON shape of `flywake status --json` (stable; fields are only added)
//
// Timestamps are RFC 3339 strings in UTC. A value flywake does not know is
// null — never 0 or "" standing in for "no data". Every level is one of
// pass, warn, fail, unknown, n/a.
//
//	{
//	  "generated_at": "2026-03-01T12:00:00.123Z", // WALL clock: when the command ran.
//	                                     // The only wall-clock field; everything
//	                                     // else is platform time (the demo's
//	                                     // virtual clock with --demo).
//	  "org": "demo-org",
//	  "demo": true,
//	  "apps": [{
//	    "app": "sleepy-api",
//	    "observed_at": "…",              // platform time of this look
//	    "release": "19",                 // current release: the highest fly_release_version; null: none set
//	    "crash_loop": "release v19: …",  // the dashboard's crash banner; null when none
//	    "malformed_entries_skipped": 0,  // null machines, checks or events the listing held
//	    "machines": [{                   // sorted by id
//	      "id": "148e4d55f749c6", "name": "sleepy-api-1",
//	      "state": "stopped",            // as the API says it
//	      "phase": "asleep",             // awake | asleep | waking | sleeping | troubled | gone | unknown
//	      "transient": false,            // the platform moves on from this state by itself
//	      "region": "ams",
//	      "process_group": "app",        // null: the config names none
//	      "release": "19",               // null: unknown
//	      "image": "registry.fly.io/…",  // null: unknown
//	      "image_digest": "sha256:…",    // null: unknown
//	      "host_status": "ok",           // ok | unknown | unreachable; null: not reported
//	      "config_incomplete": false,    // the config is the platform's incomplete_config
//	                                     // (host unreachable): it may be partial or old
//	      "cordoned": false,
//	      "created_at": "…", "updated_at": "…", // null: unknown
//	      "autostop": "stop",            // off | stop | suspend; null: no config reported
//	      "checks": [{"name": "servicecheck-00-http-8080", "status": "passing",
//	                  "level": "pass", "updated_at": "…"}],
//	      "newest_event": {"type": "stop", "status": "stopped", "source": "flyd",
//	                       "at": "…"},   // null: no events listed; at null: the
//	                                     // platform's time is missing or no date
//	      "crash": {"verdict": "steady", // steady | watching | crash-looping | gave up | unknown
//	                "level": "pass", "newest_crash_at": null, "reason": "…"},
//	      "alerts": [{"kind": "host_unreachable", "level": "warn", "text": "host unreachable"}]
//	                                     // what the machines table's ALERT column flags, most
//	                                     // severe first: crash_loop, gave_up, crashed,
//	                                     // host_unreachable, host_unknown, backlog (CLOSE_WAIT
//	                                     // over the Backlog pane's thresholds); [] when none
//	      "backlog": {                   // why a backlog alert says what it says; null: no service
//	        "level": "fail",             // the machine's, as its alert
//	        "close_wait": 463,           // sockets in CLOSE_WAIT; null: not probed in this boot
//	        "probed_at": "…",            // null: not probed
//	        "limit_type": "connections", "soft_limit": 25, // in force (Fly's defaults when unset)
//	        "hard_limit": null,          // null: none (Fly sets no hard limit by default)
//	        "reason": "463 sockets in CLOSE_WAIT, no hard limit (soft limit 25 connections): …"}
//	    }],
//	    "cold_starts": {                 // boots from the logs over the 24 h before observed_at
//	      "boots_24h": 92, "boots_last_hour": 4,
//	      "served": 90, "booting_now": 1, "abandoned": 1,
//	      "p50_s": 28.5, "p95_s": 32.1, "max_s": 33.0, // null when no boot served
//	      "resumes_24h": 0,
//	      "resume_p50_s": null, "resume_p95_s": null, "resume_max_s": null,
//	      "crash_restarts_24h": 0,       // starts that crashed or were the platform's restart
//	                                     // after a crash: in none of the figures above
//	      "dominant_phase": {            // null when no cold boot completed
//	        "name": "migrations",        // null: no phase marker matched
//	        "median_s": 10.2, "of_median_s": 28.5, "release_work": true,
//	        "boots": 90, "of": 90},
//	      "summary": "migrations: 10.2 s of 28.5 s — release work run on every boot"
//	    },
//	    "swap":     {"level": "fail", "line": "…"},
//	    "bytecode": {"level": "fail", "line": "…"},
//	    "edge_origin": {                 // null: not queried
//	      "at": "…",
//	      "died_1h": 12, "edge_1h": 40, "died_24h": 300, "edge_24h": 1371, // null when the query failed
//	      "error": null,                 // why the query failed
//	      "app_1h": 28, "app_24h": 1071, // the app's responses; null when the query failed
//	      "answered_too_late_1h": 0, "answered_too_late_24h": 0, // the app's beyond the edge's, by
//	                                     // status class: answers no client received (a backlog);
//	                                     // null when the query failed
//	      "verdicts_24h": [{"level": "fail", "line": "the edge answered 300 requests …"}],
//	      "verdicts_1h": [{"level": "fail", "line": "…"}] // one per direction with a gap ("agree"
//	                                     // only when both counts match); [] when the query failed
//	    },
//	    "backlog": {"level": "fail", "line": "no hard limit: …"}, // the Backlog pane's verdict
//	    "crash": {"level": "warn", "line": "…"}, // the release's crash judgement (the banner's and
//	                                     // verdict's): fail a crash loop or give-up; unknown what
//	                                     // could hide one could not be read; warn a crash awaits
//	                                     // the look that tells; pass; n/a no machine of the release
//	    "probes": {                      // which machines the exec probes ran on; null: none ran
//	      "started": 500, "probed": 4,   // a sample of the started machines (the only ones probed):
//	      "groups": 2, "per_group": 2,   // per process group and image, its first per_group by id
//	      "exec_calls": 9, "exec_limit": 16, // at most 16 per app and 48 per command
//	      "capped": false}               // true: exec_limit ran out before the sample did
//	  }]
//	}
package status
