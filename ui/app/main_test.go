package app

import (
	"os"
	"testing"

	"github.com/flywake/flywake/sources/longtest"
)

// TestMain runs up to eight parallel tests at once: they are the fault
// rigs of faults_test.go and hardening_test.go, each a dashboard waiting
// out seconds of injected latency, exec timeouts and retry back-offs.
func TestMain(m *testing.M) {
	longtest.WaitParallel(8)
	os.Exit(m.Run())
}
