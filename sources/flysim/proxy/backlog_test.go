package proxy

import (
	"net/http"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim/profile"
)

// TestBacklogOutsideRequestQueues: an outside request to the backlog app
// waits behind the stale queue, and a client that gives up leaves one more
// socket in CLOSE_WAIT.
func TestBacklogOutsideRequestQueues(t *testing.T) {
	s := newWorld(t, worldOptions{seed: 2, speed: 10})
	s.start(t)
	client := &http.Client{Timeout: 300 * time.Millisecond} // 3 s platform
	_, err := client.Get(s.px.EdgeURL(profile.DemoBacklog) + "/api/board")
	if err == nil {
		t.Fatal("a request behind hundreds of stale ones was answered at once")
	}
	time.Sleep(50 * time.Millisecond)
	s.sched.Lock()
	defer s.sched.Unlock()
	abandoned := 0
	for _, m := range s.store.App(profile.DemoBacklog).Machines() {
		for _, e := range s.px.loadOf(m).backlog {
			if e.done != nil && e.expired {
				abandoned++
			}
		}
	}
	if abandoned != 1 {
		t.Errorf("%d abandoned outside requests in the queue, want 1", abandoned)
	}
}
