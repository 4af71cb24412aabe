// Package flysim is an embedded, faithful simulator of the Fly.io platform
// for demo mode, tests and screenshots. It serves the Machines API under /v1
// (the paths and JSON shapes fly-go v0.5.0 expects), keeps a state machine per
// Machine with realistic timings on a virtual clock, answers exec with a
// simulated guest, records the log lines a real platform would emit, and (in
// edge.go and friends) runs an edge proxy per app that wakes and puts machines
// to sleep by Fly's documented rules.
//
// Everything runs under one mutex (Sim.mu) driven by a discrete-event
// scheduler: timed callbacks fire in virtual-time order, so a simulated day of
// history is generated in fast-forward at start-up and the same code then runs
// paced against wall time at Options.Speed.
//
// The facts it copies, with their confidence, are in
// ../shared/reference/fly-platform.md; settings where Fly's behaviour is
// unconfirmed are fields of Options or AppProfile, never hidden constants.
package flysim
