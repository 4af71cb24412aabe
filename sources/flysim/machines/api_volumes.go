package machines

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/gate"
	"github.com/flywake/flywake/sources/flysim/guest"
	"github.com/flywake/flywake/sources/flysim/rng"
)

// Volumes (the Volumes_* operations): list, get, create (empty, from a
// snapshot or forked from another volume), update, extend, delete, and
// their snapshots; and the mount rules a machine's config meets: each
// volume on one machine at a time, in the machine's region. A profile
// with VolumeGB gives each machine its own volume "data" mounted at /data,
// with one daily snapshot per retention day. Volume ids and zones come
// from rngs of their own, so volumes never shift the platform's draws.

type volume struct {
	id, name, zone, region string
	sizeGB                 int
	machine                string // the machine it is attached to, "" for none
	createdAt              time.Time
	encrypted, autoBackup  bool
	retention              int // snapshot retention, days
	fstype                 string
	destroyed              bool
	snapshots              []volumeSnapshotJSON // taken on demand, besides the daily ones
}

const (
	volumeMount             = "/data"
	volumeName              = "data"
	volumeSnapshotRetention = 5   // days, Fly's default
	maxVolumeGB             = 500 // Fly's ceiling per volume
)

// volumeNames is what Fly accepts as a volume name.
var volumeNames = regexp.MustCompile(`^[a-z0-9_]{1,30}$`)

// VolumeJSON is a Volume as the spec and fly-go describe it.
type VolumeJSON struct {
	ID                string  `json:"id"`
	Name              string  `json:"name"`
	State             string  `json:"state"`
	SizeGB            int     `json:"size_gb"`
	Region            string  `json:"region"`
	Zone              string  `json:"zone"`
	Encrypted         bool    `json:"encrypted"`
	AttachedMachineID *string `json:"attached_machine_id"`
	AttachedAllocID   *string `json:"attached_alloc_id"`
	CreatedAt         string  `json:"created_at"`
	HostDedicationID  string  `json:"host_dedication_id"`
	SnapshotRetention int     `json:"snapshot_retention"`
	AutoBackupEnabled bool    `json:"auto_backup_enabled"`
	FSType            string  `json:"fstype"`
	BlockSize         int     `json:"block_size"`
	Blocks            int     `json:"blocks"`
	BlocksFree        int     `json:"blocks_free"`
	BlocksAvail       int     `json:"blocks_avail"`
	HostStatus        string  `json:"host_status"`
}

type volumeSnapshotJSON struct {
	ID            string `json:"id"`
	Size          int    `json:"size"`
	VolumeSize    int    `json:"volume_size"`
	Digest        string `json:"digest"`
	CreatedAt     string `json:"created_at"`
	Status        string `json:"status"`
	RetentionDays int    `json:"retention_days"`
}

func volumeRNG(seed uint64, app string) *rand.Rand {
	h := fnv.New64a()
	_, _ = h.Write([]byte(app))
	return rand.New(rand.NewPCG(seed^0x701_0e5, h.Sum64()))
}

// newVolume is a volume with Fly's defaults.
func newVolume(id, name, zone, region string, sizeGB int, created time.Time) *volume {
	return &volume{id: id, name: name, zone: zone, region: region, sizeGB: sizeGB, createdAt: created,
		encrypted: true, autoBackup: true, retention: volumeSnapshotRetention, fstype: "ext4"}
}

// attachVolumes gives each of a's machines its volume and mount (profiles
// with VolumeGB). Callers hold the lock.
func (s *Store) attachVolumes(a *App) {
	if a.p.VolumeGB <= 0 {
		return
	}
	draw := volumeRNG(s.opts.Seed, a.p.Name)
	for _, m := range a.machines {
		v := newVolume("vol_"+rng.Hex(draw, 16), volumeName, rng.Hex(draw, 4), m.region, a.p.VolumeGB, m.createdAt)
		v.machine = m.id
		a.volumes = append(a.volumes, v)
		s.mountVolume(m)
	}
}

// mountVolume adds m's volume to its config (after a deploy rewrote it).
func (s *Store) mountVolume(m *Machine) {
	for _, v := range m.app.volumes {
		if v.machine == m.id && !v.destroyed {
			cfg := *m.cfg
			cfg.Mounts = []fly.MachineMount{{Volume: v.id, Path: volumeMount, Name: v.name, SizeGb: v.sizeGB}}
			m.setConfig(&cfg)
		}
	}
}

// volume finds a's live volume id.
func (a *App) volume(id string) *volume {
	for _, v := range a.volumes {
		if v.id == id && !v.destroyed {
			return v
		}
	}
	return nil
}

// mountsRefused says why m (nil: a new machine in region) cannot mount what
// cfg mounts: a volume the app does not have, one in another region, one
// attached to another machine. "" when it can.
func (s *Store) mountsRefused(a *App, m *Machine, region string, cfg *fly.MachineConfig) string {
	seen := map[string]bool{}
	for _, mt := range cfg.Mounts {
		v := a.volume(mt.Volume)
		switch {
		case v == nil:
			return fmt.Sprintf("volume %s not found", strconv.Quote(mt.Volume))
		case v.region != region:
			return fmt.Sprintf("volume %s is in region %s, the machine in %s", v.id, v.region, region)
		case seen[v.id]:
			return fmt.Sprintf("volume %s is mounted twice", v.id)
		}
		seen[v.id] = true
		if other := a.byID[v.machine]; other != nil && other != m && other.state != "destroyed" {
			return fmt.Sprintf("volume %s is already attached to machine %s", v.id, other.id)
		}
	}
	return ""
}

// attach points the volumes m's config mounts at m and lets go of those it
// no longer mounts. Callers hold the lock.
func (s *Store) attach(m *Machine) {
	mounted := map[string]bool{}
	for _, mt := range m.cfg.Mounts {
		mounted[mt.Volume] = true
	}
	for _, v := range m.app.volumes {
		switch {
		case mounted[v.id]:
			v.machine = m.id
		case v.machine == m.id:
			v.machine = ""
		}
	}
}

// detach lets go of m's volumes (it was destroyed). Callers hold the lock.
func (s *Store) detach(m *Machine) {
	for _, v := range m.app.volumes {
		if v.machine == m.id {
			v.machine = ""
		}
	}
}

func (s *Store) wireVolume(a *App, v *volume) VolumeJSON {
	blocks, used := guest.VolumeBlocks(v.sizeGB)
	out := VolumeJSON{ID: v.id, Name: v.name, State: "created", SizeGB: v.sizeGB, Region: v.region, Zone: v.zone,
		Encrypted: v.encrypted, CreatedAt: rfc3339s(v.createdAt), SnapshotRetention: v.retention,
		AutoBackupEnabled: v.autoBackup, FSType: v.fstype, BlockSize: guest.VolumeBlockSize, Blocks: blocks,
		BlocksFree: blocks - used, BlocksAvail: blocks - used, HostStatus: "ok"}
	if v.destroyed {
		out.State = "destroyed"
	}
	if m := a.byID[v.machine]; m != nil && m.state != "destroyed" {
		id, alloc := m.id, m.instanceID
		out.AttachedMachineID, out.AttachedAllocID = &id, &alloc
	}
	return out
}

// serveListVolumes answers GET /v1/apps/{app}/volumes (destroyed ones
// left out).
func (s *Store) serveListVolumes(w http.ResponseWriter, r *http.Request) {
	s.sched.Lock()
	a := s.apps[r.PathValue("app")]
	var out []VolumeJSON
	if a != nil {
		out = make([]VolumeJSON, 0, len(a.volumes))
		for _, v := range a.volumes {
			if !v.destroyed {
				out = append(out, s.wireVolume(a, v))
			}
		}
	}
	s.sched.Unlock()
	if a == nil {
		gate.WriteError(w, http.StatusNotFound, "app not found")
		return
	}
	gate.WriteJSON(w, http.StatusOK, out)
}

// withVolume finds {app}/{vol} (a live one) and answers fn's reply, at one
// platform instant.
func (s *Store) withVolume(w http.ResponseWriter, r *http.Request, fn func(a *App, v *volume) reply) {
	s.sched.Lock()
	rp := errReply(http.StatusNotFound, "app not found")
	if a := s.apps[r.PathValue("app")]; a != nil {
		rp = errReply(http.StatusNotFound, "volume not found")
		if v := a.volume(r.PathValue("vol")); v != nil {
			s.sched.Instant(func() { rp = fn(a, v) })
		}
	}
	s.sched.Unlock()
	rp.write(w)
}

// serveGetVolume answers GET …/volumes/{vol}.
func (s *Store) serveGetVolume(w http.ResponseWriter, r *http.Request) {
	s.withVolume(w, r, func(a *App, v *volume) reply { return reply{http.StatusOK, s.wireVolume(a, v)} })
}

// serveVolumeSnapshots answers GET …/volumes/{vol}/snapshots: the daily
// snapshots of the retention window and those taken on demand, oldest
// first.
func (s *Store) serveVolumeSnapshots(w http.ResponseWriter, r *http.Request) {
	s.withVolume(w, r, func(a *App, v *volume) reply { return reply{http.StatusOK, s.snapshotsOf(v)} })
}

func (s *Store) snapshotsOf(v *volume) []volumeSnapshotJSON {
	draw := volumeRNG(s.opts.Seed, v.id)
	day := s.now().UTC().Truncate(24 * time.Hour)
	out := []volumeSnapshotJSON{}
	for d := v.retention; d >= 1; d-- {
		at := day.Add(-time.Duration(d)*24*time.Hour + 3*time.Hour)
		if at.Before(v.createdAt) {
			continue
		}
		out = append(out, volumeSnapshotJSON{ID: "vs_" + rng.Hex(draw, 16), Size: 40<<20 + draw.IntN(8<<20),
			VolumeSize: v.sizeGB << 30, Digest: rng.Hex(draw, 32), CreatedAt: rfc3339s(at),
			Status: "created", RetentionDays: v.retention})
	}
	out = append(out, v.snapshots...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt < out[j].CreatedAt })
	return out
}

// decodeBody reads a JSON body into in; a reply when it is not JSON.
func decodeBody(r *http.Request, in any) *reply {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err == nil && len(body) > 0 {
		err = json.Unmarshal(body, in)
	}
	if err != nil {
		rp := errReply(http.StatusBadRequest, err.Error())
		return &rp
	}
	return nil
}

// serveCreateVolume answers POST /v1/apps/{app}/volumes: an empty volume,
// one restored from a snapshot (snapshot_id), or a fork of another
// (source_volume_id), with Fly's defaults for what the request leaves out.
func (s *Store) serveCreateVolume(w http.ResponseWriter, r *http.Request) {
	var in fly.CreateVolumeRequest
	if rp := decodeBody(r, &in); rp != nil {
		rp.write(w)
		return
	}
	s.sched.Lock()
	var rp reply
	s.sched.Instant(func() { rp = s.createVolume(r.PathValue("app"), in) })
	s.sched.Unlock()
	rp.write(w)
}

func (s *Store) createVolume(appName string, in fly.CreateVolumeRequest) reply {
	a := s.apps[appName]
	if a == nil {
		return errReply(http.StatusNotFound, "app not found")
	}
	if !volumeNames.MatchString(in.Name) {
		return errReply(http.StatusBadRequest, "invalid volume name "+strconv.Quote(in.Name)+
			": up to 30 lowercase letters, digits and underscores")
	}
	size := 1
	var source *volume
	switch {
	case in.SourceVolumeID != nil:
		if source = a.volume(*in.SourceVolumeID); source == nil {
			return errReply(http.StatusNotFound, "source volume not found")
		}
	case in.SnapshotID != nil:
		for _, v := range a.volumes {
			for _, snap := range s.snapshotsOf(v) {
				if snap.ID == *in.SnapshotID {
					source = v
				}
			}
		}
		if source == nil {
			return errReply(http.StatusNotFound, "snapshot not found")
		}
	}
	region := in.Region
	if source != nil {
		size = source.sizeGB
		if region == "" {
			region = source.region
		}
	}
	if region == "" {
		region = a.p.Region
	}
	if msg := regionRefused(region); msg != "" {
		return errReply(http.StatusUnprocessableEntity, msg)
	}
	if in.SizeGb != nil {
		if *in.SizeGb < size || *in.SizeGb > maxVolumeGB {
			return errReply(http.StatusBadRequest, fmt.Sprintf("size_gb must be from %d to %d", size, maxVolumeGB))
		}
		size = *in.SizeGb
	}
	draw := s.volRNG
	v := newVolume("vol_"+rng.Hex(draw, 16), in.Name, rng.Hex(draw, 4), region, size, s.now())
	if in.Encrypted != nil {
		v.encrypted = *in.Encrypted
	}
	if in.AutoBackupEnabled != nil {
		v.autoBackup = *in.AutoBackupEnabled
	}
	if in.SnapshotRetention != nil {
		if *in.SnapshotRetention < 1 || *in.SnapshotRetention > 60 {
			return errReply(http.StatusBadRequest, "snapshot_retention must be from 1 to 60 days")
		}
		v.retention = *in.SnapshotRetention
	}
	if in.FSType != nil {
		if *in.FSType != "ext4" && *in.FSType != "raw" {
			return errReply(http.StatusBadRequest, "fstype must be ext4 or raw")
		}
		v.fstype = *in.FSType
	}
	a.volumes = append(a.volumes, v)
	return reply{http.StatusOK, s.wireVolume(a, v)}
}

// serveUpdateVolume answers POST …/volumes/{vol}: its snapshot retention
// and automatic backups.
func (s *Store) serveUpdateVolume(w http.ResponseWriter, r *http.Request) {
	var in fly.UpdateVolumeRequest
	if rp := decodeBody(r, &in); rp != nil {
		rp.write(w)
		return
	}
	s.withVolume(w, r, func(a *App, v *volume) reply {
		if in.SnapshotRetention != nil {
			if *in.SnapshotRetention < 1 || *in.SnapshotRetention > 60 {
				return errReply(http.StatusBadRequest, "snapshot_retention must be from 1 to 60 days")
			}
			v.retention = *in.SnapshotRetention
		}
		if in.AutoBackupEnabled != nil {
			v.autoBackup = *in.AutoBackupEnabled
		}
		return reply{http.StatusOK, s.wireVolume(a, v)}
	})
}

// serveExtendVolume answers PUT …/volumes/{vol}/extend {"size_gb":N}: a
// volume only grows, online (no restart needed).
func (s *Store) serveExtendVolume(w http.ResponseWriter, r *http.Request) {
	var in struct {
		SizeGB int `json:"size_gb"`
	}
	if rp := decodeBody(r, &in); rp != nil {
		rp.write(w)
		return
	}
	s.withVolume(w, r, func(a *App, v *volume) reply {
		if in.SizeGB <= v.sizeGB || in.SizeGB > maxVolumeGB {
			return errReply(http.StatusBadRequest, fmt.Sprintf("size_gb must be larger than the volume's %d GB and at most %d", v.sizeGB, maxVolumeGB))
		}
		v.sizeGB = in.SizeGB
		if m := a.byID[v.machine]; m != nil && m.state != "destroyed" {
			s.mountVolume(m) // the config's mount tells the new size
		}
		return reply{http.StatusOK, struct {
			Volume       VolumeJSON `json:"volume"`
			NeedsRestart bool       `json:"needs_restart"`
		}{s.wireVolume(a, v), false}}
	})
}

// serveDeleteVolume answers DELETE …/volumes/{vol} with the destroyed
// volume; one attached to a machine that is not destroyed stays.
func (s *Store) serveDeleteVolume(w http.ResponseWriter, r *http.Request) {
	s.withVolume(w, r, func(a *App, v *volume) reply {
		if m := a.byID[v.machine]; m != nil && m.state != "destroyed" {
			return errReply(http.StatusPreconditionFailed, "failed_precondition: volume "+v.id+" is attached to machine "+m.id+", destroy the machine first")
		}
		v.destroyed, v.machine = true, ""
		return reply{http.StatusOK, s.wireVolume(a, v)}
	})
}

// serveSnapshotVolume answers POST …/volumes/{vol}/snapshots: a snapshot
// taken now, kept for the volume's retention.
func (s *Store) serveSnapshotVolume(w http.ResponseWriter, r *http.Request) {
	s.withVolume(w, r, func(a *App, v *volume) reply {
		draw := s.volRNG
		v.snapshots = append(v.snapshots, volumeSnapshotJSON{ID: "vs_" + rng.Hex(draw, 16), Size: 40<<20 + draw.IntN(8<<20),
			VolumeSize: v.sizeGB << 30, Digest: rng.Hex(draw, 32), CreatedAt: rfc3339s(s.now()),
			Status: "created", RetentionDays: v.retention})
		return reply{status: http.StatusOK}
	})
}
