// Package verdict is the post-deploy gate —
// `flywake verdict`, the step after `fly deploy` that decides whether the
// release took or must be rolled back — and the rollout the dashboard draws
// while a deploy replaces machines. Both read the same Judge.
//
// The gate is a layered check that never counts crashes: look at a machine once
// it looks started, look again after a settle, fail at once when the
// platform gave up restarting it, and when a crash happened since the
// deploy began, look once more and compare the newest crash's timestamp —
// never a count: the platform keeps only the newest five events per
// machine, so in a crash loop the count of crashes in the list is the same
// at every look. Machines of older releases, and machines stopped on
// purpose (autostop, a deploy that left them stopped), are not crashes.
//
// The package is pure: the caller lists the machines (sources/watch runs
// the loop, with `wait` long-polls) and hands every listing to Judge.Observe
// with the platform time it was taken at. Nothing here does I/O or reads
// the clock.
//
// # JSON shape (stable; add fields, never rename)
//
//	{
//	  "app": "sleepy-api",
//	  "release": "43",                 // "" when no machine names one
//	  "verdict": "failed",             // live | failed | unknown
//	  "exit_code": 2,                  // 0 live, 2 failed (roll back), 3 could not judge
//	  "reason": "the machine has crashed repeatedly since the deploy and is still restarting",
//	  "cannot_judge": null,            // or {"cause": "timeout", "detail": "…"}; cause is one of
//	                                   // timeout, auth, api_down, rate_limited, unknown_app,
//	                                   // bad_answer, interrupted, nothing_to_judge, error
//	  "machines": [                    // the release's machines first, then the others
//	    {
//	      "id": "148e4d55f36278", "name": "…", "region": "ams", "state": "started",
//	      "release": "43",
//	      "from_release": "42",        // the release it left while flywake watched, else ""
//	      "status": "failed",          // live | failed | looking | pending | idle | old | gone
//	      "crash": "crash-looping",    // steady | watching | crash-looping | gave up | unknown
//	      "reason": "…",
//	      "newest_crash": "2025-09-25T10:00:12.700Z",  // null: none since the release began
//	      "first_crash": "2025-09-25T10:00:02.500Z",   // the earliest any look saw; null: none
//	      "exit_codes": [1, 1],        // of the crashes in the newest event list, newest first
//	      "checks": {"passing": 0, "total": 1},
//	      "looks": [                   // the newest looks, oldest first
//	        {"at": "…", "state": "started", "newest_crash": "…", "visible_crashes": 2, "kind": "watching"}
//	      ],
//	      "unread": ""                 // what of its entry could not be read (no look was taken
//	                                   // then), or that it names no release while not steady; ""
//	    }
//	  ],
//	  "unread": [                      // what could hide a failure of the release: while any is
//	                                   // listed the verdict is failed (a failure seen) or unknown
//	                                   // (cause bad_answer), never live
//	    {"machine": "", "why": "an entry of the answer could not be read (null, or not a machine)"}
//	  ],
//	  "first_crash_logs": {            // null unless it failed on a crash
//	    "machine": "148e4d55f36278", "at": "…",
//	    "lines": ["Traceback (most recent call last):", "…"],
//	    "error": ""                    // why the lines could not be read, else ""
//	  },
//	  "settle_seconds": 5,
//	  "timeout_seconds": 180,
//	  "api_calls": 14,
//	  "elapsed_seconds": 12.4
//	}
//
// visible_crashes is shown, never judged by: it is the count that stays
// flat. Times are RFC 3339 in UTC, on the platform's clock.
//
// A judgement is only as good as what it read (Judge.ObserveListing): a
// machine entry the answer held but that could not be decoded, a null one,
// checks or events dropped as null, an exit event without a time or an exit
// code, a health check of no known status, a machine that names no release
// while it is not seen steady — each could hide a failure, so while one is
// there the release is never live. A machine seen once and then not read is
// remembered, with where it stood, not forgotten.
package verdict
