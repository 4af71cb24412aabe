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
//	  "subject": {
//	    "project": true,                 // false: no project read, every item judges the deployed release
//	    "files": ["fly.toml", "Dockerfile", ".dockerignore", "entrypoint.sh"],
//	    "release": "v57"                 // the deployed release the platform's evidence is about; "" unknown
//	  },
//	  "findings": [                      // a project file's problems that no one item owns, each listed once
//	    {"file": "fly.toml", "line": 4, "status": "warn",
//	     "text": "unknown key \"kill_timout\" at the top level, ignored — did you mean kill_timeout?",
//	     "key": "kill_timout", "nearest": "kill_timeout"}
//	  ],
//	  "items": [
//	    {
//	      "id": "cold_start",            // cold_start, release_work, bytecode, sleep_wake,
//	                                     // edge_origin, crash_loop, concurrency, health_checks
//	      "title": "Cold start until serving",
//	      "status": "fail",              // pass | warn | fail | unknown | n/a
//	      "evidence": [{"text": "p95 32.1 s …", "source": "logs (24 h)"}],
//	      "fix": "…",                    // empty when nothing to fix
//	      "needs_running_machine": false, // true when a probe of a started machine is missing
//	      "could_not_read": false,       // true when a project file it needs could not be read
//	      "judges": "deployed",          // project: the project's files as Fly will apply them;
//	                                     // deployed: the running release (boot history, metrics,
//	                                     // events, or its config when no project file answers)
//	      "release": "v57",              // the deployed release its platform evidence is about
//	      "changes": [                   // what the deploy changes: deployed value beside the project's
//	        {"setting": "[http_service.concurrency] hard_limit", "deployed": "25", "project": "none", "source": "fly.toml:22"}
//	      ]
//	    }
//	  ],
//	  "summary": {"pass": 3, "warn": 1, "fail": 4, "unknown": 0, "n/a": 0, "findings": 1}
//	}
//
// Items always come in the order above. Report.ExitCode maps them to the
// CLI's exit status: 2 on failures; else 3 when an item could not read a
// project file it needs; else 1 on warnings or findings; else 0.
package checklist
