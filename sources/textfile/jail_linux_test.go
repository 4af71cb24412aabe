package textfile

import (
	"os"
	"testing"
)

// The last guard, for a kernel filesystem mounted inside a project: a file
// on procfs is known by its filesystem, whatever its path.
func TestKernelFile(t *testing.T) {
	for path, want := range map[string]string{"/proc/self/environ": "/proc", "/sys/kernel/osrelease": "/sys", "jail_linux_test.go": ""} {
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		if got := kernelFile(f); got != want {
			t.Errorf("kernelFile(%s) = %q, want %q", path, got, want)
		}
		_ = f.Close()
	}
}
