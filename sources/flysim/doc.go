// Package flysim is an embedded, faithful simulator of the Fly.io platform
// for demo mode, tests and screenshots. It serves the Machines API under /v1
// (the paths and JSON shapes fly-go v0.5.0 expects), the logs API, the
// Prometheus API, the part of Fly's GraphQL API and web API flyctl's
// commands use, and an edge per app, all on 127.0.0.1.
//
// Sim wires its subsystems, each a package with its own state:
//
//	sched     the discrete-event scheduler and virtual clock; its lock is the world's
//	machines  the Machines API store: apps, machines and their state machine,
//	          versions, images, volumes, leases, secrets, releases, and the
//	          endpoints over them (/v1, /graphql, the web API's /api/v1)
//	proxy     Fly's proxy: the edges, routing and wakes, the background load, autostop
//	guest     a machine's OS: image filesystem, /proc, shell and commands (pure)
//	logs      the log lines and the logs API (own lock)
//	metrics   the response counters behind Prometheus (own lock)
//	promql    the PromQL subset and the Prometheus API (pure)
//	graphql   a GraphQL executor over Fly's schema (gqlparser validates)
//	gate      token, counters, faults and rate limits every request passes (own lock)
//	profile   the apps a platform plays (DemoApps, SteadyOrg)
//	rng       seeded streams and Fly-shaped ids
//
// The machines and the proxy change only in events on the scheduler: timed
// callbacks fire in virtual-time order, so a simulated day of history is
// generated in fast-forward at start-up and the same code then runs paced
// against wall time at Options.Speed; each part draws from its own seeded
// stream, so a seed lives the same day. The proxy reads the machines
// through their methods; the store asks the proxy only what machines.Edge
// says.
//
// Adding an endpoint: (1) a handler on the subsystem that owns its state
// (machines.Store for the platform's objects), running its change in one
// scheduler instant; (2) a gate.Route in that subsystem's Routes (or in
// Sim.Handler for logs and Prometheus), named by the spec's operationId;
// (3) a contract test through fly-go, and the operation in the swagger
// scenario when the document has it.
//
// Settings where Fly's behaviour is unconfirmed are fields of Options or
// profile.App, never hidden constants.
package flysim
