package machines

import (
	"crypto/sha256"
	"encoding/hex"
	"hash/fnv"
	"math/rand/v2"
	"net/http"
	"sort"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/gate"
	"github.com/flywake/flywake/sources/flysim/guest"
	"github.com/flywake/flywake/sources/flysim/rng"
)

// Volume reads (Volumes_list, Volumes_get_by_id, Volumes_list_snapshots) and
// secret names. A profile with VolumeGB gives each machine its own volume
// "data" mounted at /data, with one daily snapshot per retention day.
// Volume ids and zones come from an rng of their own, so adding volumes to
// a profile never shifts the platform's boot-time draws.

type volume struct {
	id, name, zone, region string
	sizeGB                 int
	machine                string
	createdAt              time.Time
}

const (
	volumeMount             = "/data"
	volumeName              = "data"
	volumeSnapshotRetention = 5 // days, Fly's default
)

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

// attachVolumes gives each of a's machines its volume and mount (profiles
// with VolumeGB). Callers hold the lock.
func (s *Store) attachVolumes(a *App) {
	if a.p.VolumeGB <= 0 {
		return
	}
	draw := volumeRNG(s.opts.Seed, a.p.Name)
	for _, m := range a.machines {
		v := &volume{id: "vol_" + rng.Hex(draw, 16), name: volumeName, zone: rng.Hex(draw, 4),
			region: m.region, sizeGB: a.p.VolumeGB, machine: m.id, createdAt: m.createdAt}
		a.volumes = append(a.volumes, v)
		s.mountVolume(m)
	}
}

// mountVolume adds m's volume to its config (after a deploy rewrote it).
func (s *Store) mountVolume(m *Machine) {
	for _, v := range m.app.volumes {
		if v.machine == m.id {
			cfg := *m.cfg
			cfg.Mounts = []fly.MachineMount{{Volume: v.id, Path: volumeMount, Name: v.name, SizeGb: v.sizeGB}}
			m.cfg = &cfg
		}
	}
}

func (s *Store) wireVolume(a *App, v *volume) VolumeJSON {
	blocks, used := guest.VolumeBlocks(v.sizeGB)
	out := VolumeJSON{ID: v.id, Name: v.name, State: "created", SizeGB: v.sizeGB, Region: v.region, Zone: v.zone,
		Encrypted: true, CreatedAt: rfc3339s(v.createdAt), SnapshotRetention: volumeSnapshotRetention,
		AutoBackupEnabled: true, FSType: "ext4", BlockSize: guest.VolumeBlockSize, Blocks: blocks,
		BlocksFree: blocks - used, BlocksAvail: blocks - used, HostStatus: "ok"}
	if m := a.byID[v.machine]; m != nil && m.state != "destroyed" {
		id, alloc := m.id, m.instanceID
		out.AttachedMachineID, out.AttachedAllocID = &id, &alloc
	}
	return out
}

// serveListVolumes answers GET /v1/apps/{app}/volumes.
func (s *Store) serveListVolumes(w http.ResponseWriter, r *http.Request) {
	s.sched.Lock()
	a := s.apps[r.PathValue("app")]
	var out []VolumeJSON
	if a != nil {
		out = make([]VolumeJSON, 0, len(a.volumes))
		for _, v := range a.volumes {
			out = append(out, s.wireVolume(a, v))
		}
	}
	s.sched.Unlock()
	if a == nil {
		gate.WriteError(w, http.StatusNotFound, "app not found")
		return
	}
	gate.WriteJSON(w, http.StatusOK, out)
}

// withVolume finds {app}/{vol} and answers fn's reply.
func (s *Store) withVolume(w http.ResponseWriter, r *http.Request, fn func(a *App, v *volume) reply) {
	s.sched.Lock()
	rp := errReply(http.StatusNotFound, "app not found")
	if a := s.apps[r.PathValue("app")]; a != nil {
		rp = errReply(http.StatusNotFound, "volume not found")
		for _, v := range a.volumes {
			if v.id == r.PathValue("vol") {
				rp = fn(a, v)
			}
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
// snapshots of the retention window, oldest first.
func (s *Store) serveVolumeSnapshots(w http.ResponseWriter, r *http.Request) {
	s.withVolume(w, r, func(a *App, v *volume) reply {
		draw := volumeRNG(s.opts.Seed, v.id)
		day := s.now().UTC().Truncate(24 * time.Hour)
		out := []volumeSnapshotJSON{}
		for d := volumeSnapshotRetention; d >= 1; d-- {
			at := day.Add(-time.Duration(d)*24*time.Hour + 3*time.Hour)
			if at.Before(v.createdAt) {
				continue
			}
			out = append(out, volumeSnapshotJSON{ID: "vs_" + rng.Hex(draw, 16), Size: 40<<20 + draw.IntN(8<<20),
				VolumeSize: v.sizeGB << 30, Digest: rng.Hex(draw, 32), CreatedAt: rfc3339s(at),
				Status: "created", RetentionDays: volumeSnapshotRetention})
		}
		return reply{http.StatusOK, out}
	})
}

// secretJSON is one secret as GET /v1/apps/{app}/secrets lists it: its
// name and a digest, never its value.
type secretJSON struct {
	Name      string `json:"name"`
	Digest    string `json:"digest"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// serveListSecrets answers GET /v1/apps/{app}/secrets with the names of the
// app's secrets. Values are never served, whatever show_secrets says; the
// digest is derived from the name, not the value, so it leaks nothing.
func (s *Store) serveListSecrets(w http.ResponseWriter, r *http.Request) {
	s.sched.Lock()
	a := s.apps[r.PathValue("app")]
	var out struct {
		Secrets []secretJSON `json:"secrets"`
	}
	if a != nil {
		at := rfc3339s(a.deployedAt)
		for name := range a.p.SecretEnv {
			sum := sha256.Sum256([]byte(a.id + "/" + name))
			out.Secrets = append(out.Secrets, secretJSON{Name: name, Digest: hex.EncodeToString(sum[:8]), CreatedAt: at, UpdatedAt: at})
		}
		sort.Slice(out.Secrets, func(i, j int) bool { return out.Secrets[i].Name < out.Secrets[j].Name })
	}
	s.sched.Unlock()
	if a == nil {
		gate.WriteError(w, http.StatusNotFound, "app not found")
		return
	}
	if out.Secrets == nil {
		out.Secrets = []secretJSON{}
	}
	gate.WriteJSON(w, http.StatusOK, out)
}
