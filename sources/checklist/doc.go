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
//	      "could_not_read": false,       // true when an input it needs could not be read:
//	                                     // a project file, or an API that failed
//	      "cause": "",                   // why, when could_not_read: could_not_read (a project
//	                                     // file), auth, unknown_app, api_down, rate_limited,
//	                                     // timeout, bad_answer; else ""
//	      "judges": "deployed",          // project: the project's files as Fly will apply them;
//	                                     // deployed: the running release (boot history, metrics,
//	                                     // events, or its config when no project file answers)
//	      "release": "v57",              // the deployed release its platform evidence is about
//	      "changes": [                   // what the deploy changes: deployed value beside the project's
//	        {"setting": "[http_service.concurrency] hard_limit", "deployed": "25", "project": "none", "source": "fly.toml:22"}
//	      ]
//	    }
//	  ],
//	  "summary": {"pass": 3, "warn": 1, "fail": 4, "unknown": 0, "n/a": 0, "findings": 1},
//	  "exit_code": 2,                    // the command's exit status (Report.ExitCode)
//	  "could_not_check": null            // or {"cause": "api_down", "detail": "could not check
//	                                     // the boot logs (logs API): …", "items": ["cold_start"]}:
//	                                     // the cause to fix first, every reason, the items
//	}
//
// Items always come in the order above. Report.ExitCode maps them to the
// CLI's exit status: 2 on failures; else 3 when an item could not read an
// input it needs (a project file, an API that failed); else 1 on warnings
// or findings; else 0. The command prints the report whatever the exit
// status (a usage error aside): when the platform could not be read at
// all, the items the project answers are judged and the others say why
// they could not be checked.
package checklist
