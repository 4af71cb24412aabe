package flysim

import (
	"io"
	"net/http"
	"testing"
	"time"
)

// A frozen platform lives to a later instant only when told, the same way
// for the same seed; a running one refuses.
func TestAdvanceToOnAFrozenPlatform(t *testing.T) {
	t.Parallel()
	// One wall instant for both looks: the history ends at the wall's
	// minute, so two looks either side of a minute's turn would differ.
	wall := time.Date(2026, 3, 2, 12, 0, 30, 0, time.UTC)
	look := func() (time.Time, string) {
		s := New(Options{Seed: 1, Frozen: true, Wall: func() time.Time { return wall }})
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		before := s.Clock().Now()
		time.Sleep(20 * time.Millisecond)
		if !s.Clock().Now().Equal(before) {
			t.Fatal("the frozen clock moved by itself")
		}
		events := func() string { // the listing, as a client reads it
			req, _ := http.NewRequest(http.MethodGet, s.URL()+"/v1/apps/"+DemoCrash+"/machines", nil)
			req.Header.Set("Authorization", "Bearer "+s.Token())
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("list: %d %v", resp.StatusCode, err)
			}
			return string(b)
		}
		first := events()
		if err := s.AdvanceTo(before.Add(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		if got := s.Clock().Now(); !got.Equal(before.Add(10 * time.Second)) {
			t.Fatalf("advanced to %v, want %v", got, before.Add(10*time.Second))
		}
		after := events()
		if after == first {
			t.Fatal("nothing happened in 10 s of a crash-looping app")
		}
		if err := s.AdvanceTo(before); err != nil || !s.Clock().Now().Equal(before.Add(10*time.Second)) {
			t.Fatalf("a time already passed: %v, clock %v", err, s.Clock().Now())
		}
		return s.Clock().Now(), after
	}
	t1, a1 := look()
	t2, a2 := look()
	if a1 != a2 || !t1.Equal(t2) {
		t.Error("the same seed advanced differently")
	}
	running := New(Options{Seed: 1})
	if err := running.Start(); err != nil {
		t.Fatal(err)
	}
	defer running.Close()
	if err := running.AdvanceTo(running.Clock().Now().Add(time.Second)); err == nil {
		t.Error("a running platform advanced")
	}
}
