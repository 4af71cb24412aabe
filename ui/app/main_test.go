package app

import (
	"os"
	"testing"

	"github.com/flywake/flywake/sources/longtest"
)

// TestMain runs up to eight parallel tests at once (outside -race): most are dashboards
// waiting on the wall clock — the fault rigs of faults_test.go and
// hardening_test.go (injected latency, exec timeouts, retry back-offs),
// the idle render count, the demo look, the long mode's economy minutes.
func TestMain(m *testing.M) {
	longtest.WaitParallel(8)
	os.Exit(m.Run())
}
