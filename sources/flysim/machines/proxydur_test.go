package machines

import (
	"testing"
	"time"
)

func TestProxyDurLikeFly(t *testing.T) {
	for d, want := range map[time.Duration]string{
		995344449 * time.Nanosecond:  "995.344449ms",
		1198962695 * time.Nanosecond: "1.198962695s",
		8455 * time.Millisecond:      "8.455s",
		12 * time.Millisecond:        "12ms",
	} {
		if got := proxyDur(d); got != want {
			t.Errorf("%d ns: %q, want %q", d, got, want)
		}
	}
}
