package machines

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"

	fly "github.com/superfly/fly-go"
)

// The endpoints a deploy writes: create, update and destroy a machine
// (fly-go's Launch, Update and Destroy), its versions, and cordon/uncordon.

// launchRequest is the body of create and update, as fly-go's
// LaunchMachineInput encodes it (plus current_version, which flyctl sends).
type launchRequest struct {
	Config                  *fly.MachineConfig `json:"config"`
	Region                  string             `json:"region"`
	Name                    string             `json:"name"`
	SkipLaunch              bool               `json:"skip_launch"`
	SkipServiceRegistration bool               `json:"skip_service_registration"`
	LeaseTTL                int                `json:"lease_ttl"`
	CurrentVersion          string             `json:"current_version"`
}

// decodeLaunch reads and checks a create or update body; the reply is set
// when the request is refused.
func decodeLaunch(r *http.Request) (launchRequest, *reply) {
	var in launchRequest
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err == nil {
		err = json.Unmarshal(body, &in)
	}
	switch {
	case err != nil:
		rp := errReply(http.StatusBadRequest, err.Error())
		return in, &rp
	case in.Config == nil:
		rp := errReply(http.StatusUnprocessableEntity, "invalid config: config is required")
		return in, &rp
	case in.Config.Image == "":
		rp := errReply(http.StatusUnprocessableEntity, "invalid config: image is required")
		return in, &rp
	case in.Region != "":
		if msg := regionRefused(in.Region); msg != "" {
			rp := errReply(http.StatusUnprocessableEntity, msg)
			return in, &rp
		}
	}
	return in, nil
}

// serveCreate answers POST /v1/apps/{app}/machines with the new machine.
func (s *Store) serveCreate(w http.ResponseWriter, r *http.Request) {
	in, refused := decodeLaunch(r)
	if refused != nil {
		refused.write(w)
		return
	}
	nonce := ""
	if in.LeaseTTL > 0 {
		nonce = s.gate.Nonce()
	}
	s.sched.Lock()
	var rp reply
	// One platform instant, as withMachine's: the launch event and the boot
	// it schedules start at the same time.
	s.sched.Instant(func() { rp = s.createReply(r, in, nonce) })
	s.sched.Unlock()
	rp.write(w)
}

// createReply creates the machine in. Callers hold the lock.
func (s *Store) createReply(r *http.Request, in launchRequest, nonce string) reply {
	a := s.apps[r.PathValue("app")]
	if a == nil {
		return errReply(http.StatusNotFound, "app not found")
	}
	if in.Name != "" && slices.ContainsFunc(a.machines, func(m *Machine) bool { return m.name == in.Name && m.state != "destroyed" }) {
		return errReply(http.StatusUnprocessableEntity, "a machine named "+strconv.Quote(in.Name)+" already exists")
	}
	region := in.Region
	if region == "" {
		region = a.p.Region
	}
	if msg := s.mountsRefused(a, nil, region, in.Config); msg != "" {
		return errReply(http.StatusUnprocessableEntity, msg)
	}
	m := s.createMachine(a, in.Name, region, in.Config,
		launchOptions{skipLaunch: in.SkipLaunch, cordoned: in.SkipServiceRegistration})
	s.attach(m)
	out := s.wireMachine(m)
	if nonce != "" {
		m.lease = s.newLease(m, nonce, "", leaseTTL(in.LeaseTTL))
		out.Nonce = nonce
	}
	return reply{http.StatusOK, out}
}

// serveUpdate answers POST …/machines/{id}: a new version with the given
// (whole) config.
func (s *Store) serveUpdate(w http.ResponseWriter, r *http.Request) {
	in, refused := decodeLaunch(r)
	if refused != nil {
		refused.write(w)
		return
	}
	s.withMachine(w, r, func(m *Machine) reply {
		if rp, held := s.leaseBlocks(m, r); held {
			return rp
		}
		if (in.Region != "" && in.Region != m.region) || (in.Name != "" && in.Name != m.name) {
			return errReply(http.StatusUnprocessableEntity, "region and name are immutable")
		}
		if in.CurrentVersion != "" && in.CurrentVersion != m.instanceID {
			return errReply(http.StatusPreconditionFailed,
				"failed_precondition: machine version mismatch: current version is "+m.instanceID)
		}
		if msg := s.mountsRefused(m.app, m, m.region, in.Config); msg != "" {
			return errReply(http.StatusUnprocessableEntity, msg)
		}
		if err := s.updateMachine(m, in.Config, launchOptions{skipLaunch: in.SkipLaunch,
			cordoned: in.SkipServiceRegistration}); err != nil {
			return transitionReply(err)
		}
		s.attach(m)
		return reply{http.StatusOK, s.wireMachine(m)}
	})
}

// serveDestroy answers DELETE …/machines/{id}[?force=true|kill=true].
func (s *Store) serveDestroy(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	force := q.Get("force") == "true" || q.Get("kill") == "true"
	s.withMachine(w, r, func(m *Machine) reply {
		if rp, held := s.leaseBlocks(m, r); held {
			return rp
		}
		if err := s.destroyMachine(m, force); err != nil {
			return transitionReply(err)
		}
		return reply{http.StatusOK, okJSON{OK: true}}
	})
}

// VersionJSON is one entry of GET …/versions (the spec's MachineVersion).
type VersionJSON struct {
	Version    string             `json:"version"`
	UserConfig *fly.MachineConfig `json:"user_config"`
	State      string             `json:"state"`
	CreatedAt  string             `json:"created_at"`
}

// serveVersions answers GET …/versions: the current version, then the
// earlier ones, newest first.
func (s *Store) serveVersions(w http.ResponseWriter, r *http.Request) {
	s.withMachine(w, r, func(m *Machine) reply {
		out := []VersionJSON{{Version: m.instanceID, UserConfig: m.cfg, State: m.state, CreatedAt: rfc3339s(m.versionAt)}}
		for _, v := range m.versions {
			out = append(out, VersionJSON{Version: v.id, UserConfig: v.cfg, State: v.state, CreatedAt: rfc3339s(v.created)})
		}
		return reply{http.StatusOK, out}
	})
}

// serveCordon answers POST …/cordon (on) and …/uncordon: the edge stops (or
// resumes) routing requests to the machine; its JSON's cordoned follows.
func (s *Store) serveCordon(on bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.withMachine(w, r, func(m *Machine) reply {
			if rp, held := s.leaseBlocks(m, r); held {
				return rp
			}
			if m.state == "destroyed" || m.state == "destroying" {
				return errReply(http.StatusPreconditionFailed, "failed_precondition: machine destroyed")
			}
			if m.cordoned != on {
				m.cordoned = on
				m.updatedAt = s.now()
				m.signalChange()
				if !on {
					s.edge.Routable(m.app) // queued requests may go there now
				}
			}
			return reply{http.StatusOK, okJSON{OK: true}}
		})
	}
}
