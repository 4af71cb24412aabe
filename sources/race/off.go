//go:build !race

// Package race says whether the race detector is on, for the tests whose
// wall-clock bounds or simulated timings are meant for real builds: the
// detector slows every goroutine several times (go test -race -short in CI).
package race

// Enabled reports whether the binary was built with -race.
const Enabled = false
