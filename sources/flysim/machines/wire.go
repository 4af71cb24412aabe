package machines

import (
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	fly "github.com/superfly/fly-go"
)

// The JSON shapes of the Machines API, as fly-go v0.5.0 decodes them and as
// Fly's docs show them. They are built under the lock as plain values, then
// encoded after the lock is released, so a slow client never holds the
// platform. A machine's *fly.MachineConfig is shared, not copied: the core
// replaces the pointer on deploy and metadata edits copy on write, so a
// config is never mutated after it is published.

// MachineJSON is a Machine as the API encodes it.
type MachineJSON struct {
	ID         string              `json:"id"`
	Name       string              `json:"name"`
	State      string              `json:"state"`
	Region     string              `json:"region"`
	ImageRef   fly.MachineImageRef `json:"image_ref"`
	InstanceID string              `json:"instance_id"`
	Version    string              `json:"version"`
	PrivateIP  string              `json:"private_ip"`
	CreatedAt  string              `json:"created_at"`
	UpdatedAt  string              `json:"updated_at"`
	Config     *fly.MachineConfig  `json:"config"`
	Events     []eventJSON         `json:"events"`
	Checks     []checkJSON         `json:"checks,omitempty"`
	HostStatus string              `json:"host_status"`
	Cordoned   bool                `json:"cordoned"`
	// Nonce is only sent on a create that asked for a lease (lease_ttl).
	Nonce string `json:"nonce,omitempty"`
}

// eventJSON carries the "id" fly-go's struct drops and a unix-ms timestamp.
type eventJSON struct {
	ID        string       `json:"id"`
	Type      string       `json:"type"`
	Status    string       `json:"status"`
	Source    string       `json:"source"`
	Timestamp int64        `json:"timestamp"`
	Request   *requestJSON `json:"request,omitempty"`
}

type requestJSON struct {
	ExitEvent    *exitEventJSON `json:"exit_event,omitempty"`
	RestartCount int            `json:"restart_count"`
}

// exitEventJSON spells every field out (fly-go's own struct omits zeros):
// Fly's examples show exit_code 0 and restarting false explicitly.
type exitEventJSON struct {
	ExitCode      int    `json:"exit_code"`
	GuestExitCode int    `json:"guest_exit_code"`
	GuestSignal   int    `json:"guest_signal"`
	Signal        int    `json:"signal"`
	OOMKilled     bool   `json:"oom_killed"`
	RequestedStop bool   `json:"requested_stop"`
	Restarting    bool   `json:"restarting"`
	ExitedAt      string `json:"exited_at"`
}

type checkJSON struct {
	Name      string `json:"name"`
	Status    string `json:"status"`
	Output    string `json:"output"`
	UpdatedAt string `json:"updated_at"`
}

type errorJSON struct {
	Error string `json:"error"`
}

type okJSON struct {
	OK bool `json:"ok"`
}

type startJSON struct {
	PreviousState string `json:"previous_state"`
	Migrated      bool   `json:"migrated"`
	NewHost       string `json:"new_host"`
}

type orgJSON struct {
	Name              string `json:"name"`
	Slug              string `json:"slug"`
	InternalNumericID int64  `json:"internal_numeric_id"`
}

type appJSON struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Status       string  `json:"status,omitempty"`
	Organization orgJSON `json:"organization"`
	Network      string  `json:"network"`
	MachineCount int     `json:"machine_count"`
	VolumeCount  int     `json:"volume_count"`
	// InternalNumericID is Fly's numeric id of the app (flyctl reads it).
	InternalNumericID int64 `json:"internal_numeric_id"`
}

type appsJSON struct {
	TotalApps int       `json:"total_apps"`
	Apps      []appJSON `json:"apps"`
}

type leaseDataJSON struct {
	Nonce       string `json:"nonce"`
	ExpiresAt   int64  `json:"expires_at"`
	Owner       string `json:"owner"`
	Description string `json:"description"`
	Version     string `json:"version"`
}

type leaseJSON struct {
	Status string         `json:"status"`
	Data   *leaseDataJSON `json:"data,omitempty"`
}

// rfc3339s is Fly's created_at/updated_at shape: seconds, UTC, "Z".
func rfc3339s(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// wireMachine renders m as the API returns it. Callers hold the lock.
func (s *Store) wireMachine(m *Machine) MachineJSON {
	return MachineJSON{
		ID: m.id, Name: m.name, State: m.state, Region: m.region,
		ImageRef:   wireImageRef(m.image, m.cfg),
		InstanceID: m.instanceID, Version: m.instanceID, PrivateIP: m.privateIP,
		CreatedAt: rfc3339s(m.createdAt), UpdatedAt: rfc3339s(m.updatedAt),
		Config: m.cfg, Events: wireEvents(m.events, 0), Checks: s.wireChecks(m),
		HostStatus: "ok", Cordoned: m.cordoned,
	}
}

// wireVersion renders one of m's earlier versions as a version query sees
// it: that version's id, config and terminal state (replaced, migrated).
func (s *Store) wireVersion(m *Machine, id string) (MachineJSON, bool) {
	state, cfg, im, ok := m.version(id)
	if !ok {
		return MachineJSON{}, false
	}
	out := s.wireMachine(m)
	if id != m.instanceID {
		out.State, out.Config, out.ImageRef = state, cfg, wireImageRef(im, cfg)
		out.InstanceID, out.Version, out.Checks = id, id, nil
	}
	return out, true
}

// wireImageRef is the image a machine runs; one the registry never had
// (a failed pull) is named from its config, without a digest.
func wireImageRef(im *image, cfg *fly.MachineConfig) fly.MachineImageRef {
	if im != nil {
		return fly.MachineImageRef{Registry: im.registry, Repository: im.repository, Tag: im.tag, Digest: im.digest}
	}
	ref := fly.MachineImageRef{Registry: flyRegistry}
	if cfg != nil {
		name, _, _ := strings.Cut(cfg.Image, "@")
		name = strings.TrimPrefix(name, flyRegistry+"/")
		ref.Repository, ref.Tag, _ = strings.Cut(name, ":")
	}
	return ref
}

// wireEvents renders the newest limit events (0 = all), newest first.
func wireEvents(evs []Event, limit int) []eventJSON {
	if limit > 0 && len(evs) > limit {
		evs = evs[:limit]
	}
	out := make([]eventJSON, len(evs))
	for i, e := range evs {
		out[i] = eventJSON{ID: e.ID, Type: e.Type, Status: e.Status, Source: e.Source, Timestamp: e.Time.UnixMilli()}
		if e.Exit != nil {
			x := e.Exit
			out[i].Request = &requestJSON{RestartCount: e.RestartCount, ExitEvent: &exitEventJSON{
				ExitCode: x.ExitCode, GuestExitCode: x.GuestExitCode, GuestSignal: x.GuestSignal, Signal: x.Signal,
				OOMKilled: x.OOMKilled, RequestedStop: x.RequestedStop, Restarting: x.Restarting,
				ExitedAt: x.ExitedAt.UTC().Format(time.RFC3339Nano),
			}}
		}
	}
	return out
}

// wireChecks are the machine's health checks (its config's) as Fly reports
// them: passing only while the app serves, critical while a started
// machine is still booting. A machine that is not running keeps its checks,
// in "warning" (flyctl's restart and deploy wait on them; the exact wording
// Fly uses for a sleeping machine's check output is not documented).
func (s *Store) wireChecks(m *Machine) []checkJSON {
	if m.state == "destroyed" {
		return nil
	}
	var out []checkJSON
	for _, c := range checksOf(m.cfg) {
		switch {
		case m.state == "started" && m.serving:
			at := m.checkAt
			if at.IsZero() {
				at = m.updatedAt
			}
			output := "Success"
			if c.kind == "http" {
				output = fmt.Sprintf("[✓]\n\nHTTP GET http://[%s]:%d%s: 200 OK Output: \"OK\"", m.privateIP, c.port, c.path)
			}
			out = append(out, checkJSON{Name: c.name, Status: "passing", UpdatedAt: rfc3339s(at), Output: output})
		case m.state == "started":
			out = append(out, checkJSON{Name: c.name, Status: "critical", UpdatedAt: rfc3339s(m.updatedAt),
				Output: fmt.Sprintf("dial tcp [%s]:%d: connect: connection refused", m.privateIP, c.port)})
		default:
			out = append(out, checkJSON{Name: c.name, Status: "warning", UpdatedAt: rfc3339s(m.updatedAt),
				Output: "the machine is " + m.state})
		}
	}
	return out
}

// wireApp renders a for the apps endpoints. Callers hold the lock.
func (s *Store) wireApp(a *App, withStatus bool) appJSON {
	out := appJSON{ID: a.id, Name: a.p.Name, Organization: s.wireOrg(), Network: "default", MachineCount: a.liveMachines(),
		VolumeCount: a.liveVolumes(), InternalNumericID: a.numericID()}
	if withStatus {
		out.Status = a.status()
	}
	return out
}

// status is the app's as Fly reports it: pending until it has a machine.
func (a *App) status() string {
	if a.liveMachines() == 0 {
		return "pending"
	}
	return "deployed"
}

// numericID is a stable number for the app, as Fly's internal id is.
func (a *App) numericID() int64 { return numericID(a.id) }

func numericID(s string) int64 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(s))
	return int64(h.Sum32()%9_000_000) + 1_000_000
}

// liveVolumes counts the volumes not destroyed.
func (a *App) liveVolumes() int {
	n := 0
	for _, v := range a.volumes {
		if !v.destroyed {
			n++
		}
	}
	return n
}

// liveMachines counts the machines not destroyed.
func (a *App) liveMachines() int {
	n := 0
	for _, m := range a.machines {
		if m.state != "destroyed" {
			n++
		}
	}
	return n
}

// wireOrg names the org after its slug ("demo-org" → "Demo Org").
func (s *Store) wireOrg() orgJSON {
	words := strings.Split(s.opts.Org, "-")
	for i, w := range words {
		if w != "" {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return orgJSON{Name: strings.Join(words, " "), Slug: s.opts.Org, InternalNumericID: numericID(s.opts.Org)}
}
