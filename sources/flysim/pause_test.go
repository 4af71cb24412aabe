package flysim

import (
	"net/http"
	"testing"
	"time"
)

// Pause takes the API off the network (requests in flight fail, new ones
// are refused) while the clock and the machines keep going; Resume serves
// again on the same address.
func TestPauseAndResumeKeepAddressAndClock(t *testing.T) {
	t.Parallel()
	s := New(Options{Seed: 1, Speed: 50, History: -1, NoTraffic: true})
	if err := s.Pause(); err == nil {
		t.Error("Pause before Start succeeded")
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := s.URL()
	hc := &http.Client{Timeout: 5 * time.Second}
	get := func(path string) (int, error) {
		req, _ := http.NewRequest(http.MethodGet, url+path, nil)
		req.Header.Set("Authorization", "Bearer "+s.Token())
		resp, err := hc.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	list := "/v1/apps/" + DemoTuned + "/machines"
	if code, err := get(list); err != nil || code != http.StatusOK {
		t.Fatalf("before Pause: %d %v", code, err)
	}
	// A long-poll held open when the outage begins must end with it.
	s.sched.Lock()
	id := s.store.App(DemoTuned).Machines()[0].ID()
	s.sched.Unlock()
	held := make(chan error, 1)
	go func() {
		_, err := get("/v1/apps/" + DemoTuned + "/machines/" + id + "/wait?state=destroyed&timeout=30")
		held <- err
	}()
	time.Sleep(100 * time.Millisecond)

	before := s.Clock().Now()
	if err := s.Pause(); err != nil {
		t.Fatal(err)
	}
	if err := s.Pause(); err != nil || !s.Paused() {
		t.Fatalf("second Pause = %v, paused %v", err, s.Paused())
	}
	select {
	case err := <-held:
		if err == nil {
			t.Error("the held long-poll got an answer from a paused API")
		}
	case <-time.After(2 * time.Second):
		t.Error("the held long-poll outlived the Pause")
	}
	if _, err := get(list); err == nil {
		t.Error("a paused API answered")
	}
	time.Sleep(50 * time.Millisecond)
	if !s.Clock().Now().After(before.Add(time.Second)) {
		t.Errorf("the clock stood still while paused: %s → %s", before, s.Clock().Now())
	}
	if err := s.Resume(); err != nil {
		t.Fatal(err)
	}
	if s.URL() != url || s.Paused() {
		t.Fatalf("after Resume URL %s (was %s), paused %v", s.URL(), url, s.Paused())
	}
	if code, err := get(list); err != nil || code != http.StatusOK {
		t.Fatalf("after Resume: %d %v", code, err)
	}
	if err := s.Resume(); err != nil {
		t.Errorf("Resume of a running API = %v", err)
	}
}

// Close works on a paused platform, and Pause/Resume after Close refuse.
func TestCloseWhilePaused(t *testing.T) {
	t.Parallel()
	s := New(Options{Seed: 1, History: -1, NoTraffic: true})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.Pause(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close hung on a paused platform")
	}
	if err := s.Resume(); err == nil {
		t.Error("Resume after Close succeeded")
	}
}
