// Package checklist holds the pre-deploy checklist: eight rules, each a pure
// function over Evidence that callers gather elsewhere (the project
// directory through sources/repo, the platform through logs, exec probes
// and metrics). Nothing here does I/O or reads the clock.
//
// A missing input never guesses: runtime evidence that was not gathered
// makes an item "unknown" (and NeedsRunningMachine says when a running
// machine would answer it); a local file that is absent makes its part
// "n/a". Statuses combine by severity: fail > warn > pass > unknown > n/a.
//
// # JSON shape (stable; add fields, never rename)
//
//	{
//	  "app": "scale-to-zero",
//	  "items": [
//	    {
//	      "id": "cold_start",            // cold_start, release_work, bytecode, sleep_wake,
//	                                     // edge_origin, crash_loop, concurrency, health_checks
//	      "title": "Cold start until serving",
//	      "status": "fail",              // pass | warn | fail | unknown | n/a
//	      "evidence": [{"text": "p95 32.1 s …", "source": "logs (24 h)"}],
//	      "fix": "…",                    // empty when nothing to fix
//	      "needs_running_machine": false, // true when a probe of a started machine is missing
//	      "could_not_read": false        // true when a project file it needs could not be read
//	    }
//	  ],
//	  "summary": {"pass": 3, "warn": 1, "fail": 4, "unknown": 0, "n/a": 0}
//	}
//
// Items always come in the order above. ExitCode maps them to the CLI's
// exit status: 2 on failures; else 3 when an item could not read a project
// file it needs; else 1 on warnings; else 0.
package checklist
