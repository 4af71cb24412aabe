package flysim

import (
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"
	"github.com/superfly/fly-go/flaps"
)

// Contract tests of volumes, apps and versions through fly-go: what
// `fly volumes create/extend/destroy`, `fly machine clone` of a machine
// with a volume, `fly apps create/destroy` and a version history need.

// TestContractVolumes: a volume is created with its size, region,
// encryption and snapshot retention, updated, extended (online, growing
// only), snapshotted, forked, and deleted once nothing mounts it; a
// machine mounts one only in its region and only one machine at a time.
func TestContractVolumes(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 100)
	s.SetRateLimits(false)
	ctx := ctxT(t)
	size, enc, keep := 3, false, 10
	v, err := c.CreateVolume(ctx, DemoBacklog, fly.CreateVolumeRequest{Name: "uploads", Region: "iad", SizeGb: &size,
		Encrypted: &enc, SnapshotRetention: &keep})
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "uploads" || v.Region != "iad" || v.SizeGb != 3 || v.Encrypted || v.SnapshotRetention != 10 || v.IsAttached() ||
		!strings.HasPrefix(v.ID, "vol_") {
		t.Errorf("created %+v", v)
	}
	if _, err := c.CreateVolume(ctx, DemoBacklog, fly.CreateVolumeRequest{Name: "Bad Name"}); httpStatus(err) != 400 {
		t.Errorf("a volume named %q: %v", "Bad Name", err)
	}
	off, days := false, 3
	if v, err = c.UpdateVolume(ctx, DemoBacklog, v.ID, fly.UpdateVolumeRequest{AutoBackupEnabled: &off, SnapshotRetention: &days}); err != nil ||
		v.AutoBackupEnabled || v.SnapshotRetention != 3 {
		t.Errorf("updated %+v, %v", v, err)
	}
	grown, restart, err := c.ExtendVolume(ctx, DemoBacklog, v.ID, 5)
	if err != nil || grown.SizeGb != 5 || restart {
		t.Errorf("extended %+v (restart %v), %v", grown, restart, err)
	}
	if _, _, err := c.ExtendVolume(ctx, DemoBacklog, v.ID, 4); httpStatus(err) != 400 {
		t.Errorf("shrinking a volume: %v", err)
	}
	if err := c.CreateVolumeSnapshot(ctx, DemoBacklog, v.ID); err != nil {
		t.Fatal(err)
	}
	snaps, err := c.GetVolumeSnapshots(ctx, DemoBacklog, v.ID)
	if err != nil || len(snaps) != 1 || snaps[0].Status != "created" {
		t.Fatalf("snapshots of a new volume after one: %+v, %v", snaps, err)
	}
	fork, err := c.CreateVolume(ctx, DemoBacklog, fly.CreateVolumeRequest{Name: "uploads_copy", SourceVolumeID: &v.ID})
	if err != nil || fork.SizeGb != 5 || fork.Region != "iad" || fork.ID == v.ID {
		t.Errorf("fork %+v, %v", fork, err)
	}
	restored, err := c.CreateVolume(ctx, DemoBacklog, fly.CreateVolumeRequest{Name: "uploads_back", SnapshotID: &snaps[0].ID})
	if err != nil || restored.SizeGb != 5 {
		t.Errorf("restored from a snapshot: %+v, %v", restored, err)
	}

	// Mount rules.
	src, err := c.Get(ctx, DemoBacklog, machineIn(t, s, DemoBacklog, "started"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := *src.Config
	cfg.Mounts = []fly.MachineMount{{Volume: v.ID, Path: "/uploads"}}
	m, err := c.Launch(ctx, DemoBacklog, fly.LaunchMachineInput{Config: &cfg, Region: "iad"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Launch(ctx, DemoBacklog, fly.LaunchMachineInput{Config: &cfg, Region: "iad"}); httpStatus(err) != 422 ||
		!strings.Contains(err.Error(), "already attached to machine "+m.ID) {
		t.Errorf("a second machine on an attached volume: %v", err)
	}
	far := cfg
	far.Mounts = []fly.MachineMount{{Volume: fork.ID, Path: "/uploads"}}
	if _, err := c.Launch(ctx, DemoBacklog, fly.LaunchMachineInput{Config: &far, Region: "ord"}); httpStatus(err) != 422 ||
		!strings.Contains(err.Error(), "in region iad") {
		t.Errorf("a machine in ord on a volume in iad: %v", err)
	}
	if got, err := c.GetVolume(ctx, DemoBacklog, v.ID); err != nil || got.AttachedMachine == nil || *got.AttachedMachine != m.ID {
		t.Errorf("the mounted volume %+v, %v", got, err)
	}
	if _, err := c.DeleteVolume(ctx, DemoBacklog, v.ID); httpStatus(err) != 412 {
		t.Errorf("deleting a mounted volume: %v", err)
	}
	waitState(t, c, DemoBacklog, m.ID, "started")
	if err := c.Stop(ctx, DemoBacklog, fly.StopMachineInput{ID: m.ID}, ""); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, DemoBacklog, m.ID, "stopped")
	if err := c.Destroy(ctx, DemoBacklog, fly.RemoveMachineInput{ID: m.ID}, ""); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, DemoBacklog, m.ID, "destroyed")
	gone, err := c.DeleteVolume(ctx, DemoBacklog, v.ID)
	if err != nil || gone.State != "destroyed" {
		t.Errorf("deleted %+v, %v", gone, err)
	}
	if _, err := c.GetVolume(ctx, DemoBacklog, v.ID); httpStatus(err) != 404 {
		t.Errorf("a deleted volume: %v", err)
	}
}

// TestContractCloneWithVolume: `fly machine clone` of a machine with a
// volume, as flyctl does it: a new volume from the source volume's latest
// snapshot, in the same region, then a machine with the source's config
// mounting it.
func TestContractCloneWithVolume(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 100)
	s.SetRateLimits(false)
	ctx := ctxT(t)
	src, err := c.Get(ctx, DemoBacklog, machineIn(t, s, DemoBacklog, "started"))
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Config.Mounts) != 1 {
		t.Fatalf("backlog-web mounts %+v", src.Config.Mounts)
	}
	mnt := src.Config.Mounts[0]
	snaps, err := c.GetVolumeSnapshots(ctx, DemoBacklog, mnt.Volume)
	if err != nil || len(snaps) == 0 {
		t.Fatalf("snapshots %+v, %v", snaps, err)
	}
	last := snaps[len(snaps)-1].ID
	vol, err := c.CreateVolume(ctx, DemoBacklog, fly.CreateVolumeRequest{Name: mnt.Name, Region: src.Region, SnapshotID: &last})
	if err != nil {
		t.Fatal(err)
	}
	cfg := *src.Config
	cfg.Mounts = []fly.MachineMount{{Volume: vol.ID, Path: mnt.Path, Name: mnt.Name}}
	clone, err := c.Launch(ctx, DemoBacklog, fly.LaunchMachineInput{Config: &cfg, Region: src.Region})
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, c, DemoBacklog, clone.ID, "started")
	out, err := c.Exec(ctx, DemoBacklog, clone.ID, &fly.MachineExecRequest{Cmd: "df " + mnt.Path})
	if err != nil || !strings.Contains(out.StdOut, mnt.Path) {
		t.Errorf("the clone's df: %+v, %v", out, err)
	}
	if got, err := c.GetVolume(ctx, DemoBacklog, vol.ID); err != nil || got.AttachedMachine == nil || *got.AttachedMachine != clone.ID {
		t.Errorf("the clone's volume %+v, %v", got, err)
	}
}

// TestContractAppsCreateDelete: an app created over the API is empty and
// pending, takes machines and gets an edge; deleting it destroys them.
func TestContractAppsCreateDelete(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 100)
	s.SetRateLimits(false)
	ctx := ctxT(t)
	if err := createApp(t, s, "new-api"); err != nil {
		t.Fatal(err)
	}
	app, err := c.GetApp(ctx, "new-api")
	if err != nil || app.Name != "new-api" || app.Organization.Slug != DemoOrg || app.Status != "pending" {
		t.Fatalf("created app %+v, %v", app, err)
	}
	if err := createApp(t, s, "new-api"); err == nil || !strings.Contains(err.Error(), "taken") {
		t.Errorf("the same name again: %v", err)
	}
	if err := createApp(t, s, "Not_OK"); err == nil {
		t.Error("an invalid name was accepted")
	}
	port, on := 80, true
	m, err := c.Launch(ctx, "new-api", fly.LaunchMachineInput{Config: &fly.MachineConfig{Image: "nginx",
		Services: []fly.MachineService{{Protocol: "tcp", InternalPort: 80, Autostart: &on, Ports: []fly.MachinePort{{Port: &port, Handlers: []string{"http"}}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, c, "new-api", m.ID, "started")
	if s.EdgeURL("new-api") == "" {
		t.Error("the new app has no edge")
	}
	if _, _, err := flapsDelete(t, s, "new-api"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetApp(ctx, "new-api"); httpStatus(err) != 404 {
		t.Errorf("a deleted app: %v", err)
	}
	for _, name := range s.Apps() {
		if name == "new-api" {
			t.Error("the deleted app is still listed")
		}
	}
	if s.EdgeURL("new-api") != "" {
		t.Error("the deleted app kept its edge")
	}
}

// createApp creates an app over POST /v1/apps, as flaps' CreateApp does.
func createApp(t *testing.T, s *Sim, name string) error {
	t.Helper()
	resp, body := rawDo(t, s, "POST", "/v1/apps", `{"app_name":"`+name+`","org_slug":"`+DemoOrg+`"}`, nil)
	if resp.StatusCode != 201 {
		return &flaps.FlapsError{ResponseStatusCode: resp.StatusCode, OriginalError: errorText(body)}
	}
	return nil
}

func flapsDelete(t *testing.T, s *Sim, app string) (int, string, error) {
	t.Helper()
	resp, body := rawDo(t, s, "DELETE", "/v1/apps/"+app, "", nil)
	if resp.StatusCode != 202 {
		return resp.StatusCode, string(body), errorText(body)
	}
	return resp.StatusCode, string(body), nil
}

type errorText []byte

func (e errorText) Error() string { return string(e) }

// TestContractVersionsAndMigration: each version is dated when it was
// made; an update's replaced process exits with its event; and Fly's own
// host drains move machines over a day, so a migrated version is there to
// see, as on Fly.
func TestContractVersionsAndMigration(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 100)
	s.SetRateLimits(false)
	ctx := ctxT(t)
	id := machineIn(t, s, DemoCrash, "stopped")
	if _, err := c.Start(ctx, DemoCrash, id, ""); err != nil {
		t.Fatal(err)
	}
	m, err := c.Get(ctx, DemoCrash, id)
	if err != nil {
		t.Fatal(err)
	}
	before := m.InstanceID
	cfg := *m.Config
	cfg.Image = "registry.fly.io/crashy-api:" + DemoHealthyTag
	updatedAt := s.clock.Now()
	if _, err := c.Update(ctx, DemoCrash, fly.LaunchMachineInput{ID: id, Config: &cfg}, ""); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, DemoCrash, id, "started")
	var versions []struct {
		Version   string `json:"version"`
		State     string `json:"state"`
		CreatedAt string `json:"created_at"`
	}
	if code := getRaw(t, s, "/v1/apps/"+DemoCrash+"/machines/"+id+"/versions", &versions); code != 200 || len(versions) < 2 {
		t.Fatalf("versions %d %+v", code, versions)
	}
	made, _ := time.Parse(time.RFC3339, versions[0].CreatedAt)
	if versions[1].Version != before || versions[1].State != "replaced" || made.Sub(updatedAt.Truncate(time.Second)) > time.Second ||
		versions[1].CreatedAt >= versions[0].CreatedAt {
		t.Errorf("versions %+v after an update at %s", versions, updatedAt)
	}
	m, err = c.Get(ctx, DemoCrash, id)
	if err != nil {
		t.Fatal(err)
	}
	exited := false
	for i, e := range m.Events {
		if e.Type == "update" && i > 0 && m.Events[i-1].Type == "exit" && m.Events[i-1].Request != nil &&
			m.Events[i-1].Request.ExitEvent != nil && m.Events[i-1].Request.ExitEvent.RequestedStop {
			exited = true
		}
	}
	if !exited {
		t.Errorf("the replaced process left no exit event after the update: %+v", m.Events)
	}

	migrated := 0
	for _, app := range s.Apps() {
		ms, err := c.List(ctx, app, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			var vs []struct {
				State string `json:"state"`
			}
			getRaw(t, s, "/v1/apps/"+app+"/machines/"+m.ID+"/versions", &vs)
			for _, v := range vs {
				if v.State == "migrated" {
					migrated++
				}
			}
		}
	}
	if migrated == 0 {
		t.Error("a day of Fly's host drains left no migrated version")
	}
}
