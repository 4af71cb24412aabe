package watch

import (
	"context"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/snapshot"
)

// The volumes feed lists the demo's backlog app's volumes through fly-go:
// one "data" volume of 1 GB per machine, each attached to its machine; an
// app without volumes lists none, and that is no error.
func TestVolumesFeedThroughFlyGo(t *testing.T) {
	t.Parallel()
	_, src := startDemo(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, err := src.Collect(ctx, flysim.DemoBacklog, VolumesFeed())
	if err != nil {
		t.Fatal(err)
	}
	vs := a.Volumes()
	if vs.Err != "" || vs.At.IsZero() || len(vs.List) != len(a.Machines) || len(a.Machines) == 0 {
		t.Fatalf("volumes %+v for %d machines", vs, len(a.Machines))
	}
	for _, v := range vs.List {
		if _, ok := a.Machine(v.Machine); !ok || v.Name != "data" || v.SizeGB != 1 || v.State != "created" {
			t.Errorf("volume %+v", v)
		}
	}
	none, err := src.Collect(ctx, flysim.DemoTuned, VolumesFeed())
	if err != nil {
		t.Fatal(err)
	}
	if v := none.Volumes(); v.Err != "" || v.At.IsZero() || len(v.List) != 0 {
		t.Errorf("an app without volumes: %+v", v)
	}
	if got := VolumesFeed().Next(snapshot.New("org", "app", nil), Result{}); got != time.Minute {
		t.Errorf("the volumes feed comes due every %v, want once a minute", got)
	}
}
