// Package record keeps what the platform forgets: every fact the dashboard
// reads from Fly — machine states and configs, every event with its exit
// code, log lines, exec probes, response counters, boots and crash-loop
// judgements — in one SQLite file (modernc.org/sqlite: pure Go, no cgo), so
// the dashboard can be replayed at any past instant (sources/replay).
//
// A Writer appends facts as `flywake record` reads them; a Recording reads
// them back. The writer stores changes, not snapshots: a machine's state is
// written when its listing entry changes, its config once per version, each
// event once, a probe's output when it differs from the last one, and a
// counter's minute when its count does. Facts are batched and committed at
// least once a second (WAL, synchronous=NORMAL), so a kill -9 loses at most
// the last second; a restart opens a new session and resumes without
// duplicates; the time between two sessions is a gap the replay names.
//
// Times are the platform's (Fly's, or the demo's virtual clock), in unix
// nanoseconds. Text is stored as received, with every secret the process
// holds removed (sources/sanitize); it is made inert where it is shown.
//
// # Schema, version 2
//
//	meta(key, value)                    schema_version, org, scope, events_kept, created_by
//	sessions(id, began, last, scope)    one per run of the recorder: began..last is recorded time
//	apps(t, app, present)               the org's apps listing, as it changed
//	machines(id, app, machine)          one row per machine ever seen (ids for the tables below)
//	configs(id, hash, release, json)    each distinct machine config once (its release from
//	                                    the fly_release_version metadata)
//	states(t, mid, state, config,       a machine's listing entry when it changed: fly-go's JSON
//	       cordoned, json)              without config and events; json NULL: gone from the listing
//	events(mid, t, seen, type, status,  every event ever listed, once (t: the event's time, seen:
//	       source, exit_code, oom,      when a listing first held it), with fly-go's JSON
//	       json)
//	logs(app, t, machine, region,       every log line read, with the error text the proxy adds
//	     provider, level, message, error)
//	probes(t, app, machine, command,    an exec probe's answer (meminfo, sockets, bytecode) when
//	       exit_code, stdout, stderr)   it differs from that machine's last one to the same command
//	counts(app, metric, status, minute, the edge's and the app's responses per minute, by status
//	       n)                           (fly_edge_http_responses_count, fly_app_http_responses_count)
//	boots(app, machine, began, served,  each boot the logs told, with its phases (JSON)
//	      crashed, phases)
//	judgements(t, app, release,         the crash-loop judgement of a release when it changed
//	           outcome, reason)
//	volumes(t, app, json)               the app's volumes listing (fly-go's JSON) when it changed
//	                                    (version 2; a version 1 file gains the table when written)
//
// A file whose schema_version is newer than SchemaVersion is refused (this
// build cannot read it); an older one is migrated on open for writing.
package record
