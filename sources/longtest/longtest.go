// Package longtest gates the tests that run for wall-clock minutes (the
// API economy minute, the metrics and org budgets, the soak): they run
// only with FLYWAKE_LONG=1, which .ci/run sets, so that `go test ./...`
// stays a few minutes. Import it from tests only.
package longtest

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/flywake/flywake/sources/race"
)

// Env is the variable that turns the long tests on.
const Env = "FLYWAKE_LONG"

// On reports whether the long tests run: Env is set and -short is not.
func On() bool { return os.Getenv(Env) != "" && !testing.Short() }

// Need skips t unless the long tests run; what says what takes so long.
func Need(t testing.TB, what string) {
	t.Helper()
	if !On() {
		t.Skipf("%s: runs with %s=1 (as .ci/run does), not under -short", what, Env)
	}
}

// WaitParallel sets -test.parallel to n when the command line did not set
// it. Call it from TestMain, before m.Run, in a package whose parallel tests
// spend their time waiting on the wall clock (injected latency, exec
// timeouts, retry back-offs, a program's redraws): the default, one test
// per core, leaves the cores idle while every such test waits its turn.
// Under the race detector it keeps the default: there the same tests
// compute many times as long, and eight at once on two cores ran the
// commands past their own deadlines.
func WaitParallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	if race.Enabled {
		return
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set && n > runtime.GOMAXPROCS(0) {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}
