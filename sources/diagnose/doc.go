// Package diagnose holds flywake's domain logic: how to read machine states,
// crash loops, cold-start timelines, swap, bytecode caches, socket backlogs and
// suspend eligibility. Everything here is pure: no I/O, no network and no clock;
// callers pass the data and the current time in.
package diagnose
