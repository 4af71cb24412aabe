package machines

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/flywake/flywake/sources/flysim/gate"
)

// Leases (the docs' machines-resource page):
// a holder gets a nonce and passes it in fly-machine-lease-nonce on mutating
// calls; everyone else gets 409 until it is released or expires. Create
// answers 201, release {"status":"success","data":{"ok":true}}, a conflict
// {"status":"error","message":…,"code":"invalid"}. GET shows the lease,
// nonce included, to any caller of the org: that is how `fly machine leases
// clear` releases a lease it did not take. Expiry runs on WALL time (a
// protocol limit); expires_at is reported on the platform clock so it reads
// like every other timestamp.

const (
	// LeaseNonceHeader carries the lease holder's nonce on mutating calls.
	LeaseNonceHeader = "fly-machine-lease-nonce"
	defaultLeaseTTL  = 30 * time.Second
	maxLeaseTTL      = time.Hour
)

// leaseErrorJSON is the body of a lease conflict, as the docs show it.
type leaseErrorJSON struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Code    string `json:"code"`
}

func leaseConflict(msg string) reply {
	return reply{http.StatusConflict, leaseErrorJSON{Status: "error", Message: msg, Code: "invalid"}}
}

// liveLease returns m's unexpired lease, dropping an expired one.
// Callers hold the lock.
func (s *Store) liveLease(m *Machine) *lease {
	if m.lease != nil && !s.opts.Wall().Before(m.lease.expires) {
		m.lease = nil
	}
	return m.lease
}

// heldBy words a conflict the way a person needs it: who, and until when.
func (s *Store) heldBy(m *Machine, l *lease) string {
	return fmt.Sprintf("machine %s is currently leased by %s until %s", m.id, l.owner,
		s.leaseExpiry(l).UTC().Format(time.RFC3339))
}

// leaseExpiry is the lease's end on the platform clock: when the platform
// clock will read as the lease's wall-clock expiry passes.
func (s *Store) leaseExpiry(l *lease) time.Time {
	return s.now().Add(s.clock.PlatformDuration(l.expires.Sub(s.opts.Wall())))
}

// leaseBlocks refuses a mutating call on a leased machine without the
// holder's nonce. Callers hold the lock.
func (s *Store) leaseBlocks(m *Machine, r *http.Request) (reply, bool) {
	l := s.liveLease(m)
	if l == nil {
		return reply{}, false
	}
	switch nonce := r.Header.Get(LeaseNonceHeader); {
	case nonce == "":
		return leaseConflict(s.heldBy(m, l)), true
	case nonce != l.nonce:
		return leaseConflict("lease nonce invalid: " + s.heldBy(m, l)), true
	}
	return reply{}, false
}

func (s *Store) leaseReply(status int, l *lease) reply {
	return reply{status, leaseJSON{Status: "success", Data: &leaseDataJSON{
		Nonce: l.nonce, ExpiresAt: s.leaseExpiry(l).Unix(), Owner: l.owner,
		Description: l.description, Version: l.version}}}
}

// serveGetLease answers GET …/lease.
func (s *Store) serveGetLease(w http.ResponseWriter, r *http.Request) {
	s.withMachine(w, r, func(m *Machine) reply {
		l := s.liveLease(m)
		if l == nil {
			return errReply(http.StatusNotFound, "lease not found")
		}
		return s.leaseReply(http.StatusOK, l)
	})
}

// leaseRequest is the create body; fly-go v0.5.0 sends none and passes the
// ttl as ?ttl=N.
type leaseRequest struct {
	TTL         int    `json:"ttl"`
	Description string `json:"description"`
}

// serveAcquireLease answers POST …/lease[?ttl=N] or {"ttl":N,"description":…}:
// a new lease (201), or a refresh (200) when the caller presents the
// holder's nonce.
func (s *Store) serveAcquireLease(w http.ResponseWriter, r *http.Request) {
	var in leaseRequest
	if body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16)); len(body) > 0 {
		if err := json.Unmarshal(body, &in); err != nil {
			gate.WriteError(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	if v := r.URL.Query().Get("ttl"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			gate.WriteError(w, http.StatusBadRequest, "invalid ttl")
			return
		}
		in.TTL = n
	}
	ttl := leaseTTL(in.TTL)
	nonce := s.gate.Nonce()
	s.withMachine(w, r, func(m *Machine) reply {
		if m.state == "destroyed" {
			return errReply(http.StatusPreconditionFailed, "failed_precondition: machine destroyed")
		}
		expires := s.opts.Wall().Add(ttl)
		if l := s.liveLease(m); l != nil {
			if r.Header.Get(LeaseNonceHeader) != l.nonce {
				return leaseConflict(s.heldBy(m, l))
			}
			l.expires = expires
			return s.leaseReply(http.StatusOK, l)
		}
		m.lease = s.newLease(m, nonce, in.Description, ttl)
		return s.leaseReply(http.StatusCreated, m.lease)
	})
}

func leaseTTL(seconds int) time.Duration {
	if seconds <= 0 {
		return defaultLeaseTTL
	}
	return min(time.Duration(seconds)*time.Second, maxLeaseTTL)
}

// newLease is a lease of m by the org's user. Callers hold the lock.
func (s *Store) newLease(m *Machine, nonce, description string, ttl time.Duration) *lease {
	return &lease{nonce: nonce, owner: s.leaseOwner(), description: description,
		expires: s.opts.Wall().Add(ttl), version: m.instanceID}
}

// releasedJSON is the release answer: {"status":"success","data":{"ok":true}}.
type releasedJSON struct {
	Status string `json:"status"`
	Data   okJSON `json:"data"`
}

// serveReleaseLease answers DELETE …/lease with the holder's nonce.
func (s *Store) serveReleaseLease(w http.ResponseWriter, r *http.Request) {
	s.withMachine(w, r, func(m *Machine) reply {
		l := s.liveLease(m)
		if l == nil {
			return errReply(http.StatusNotFound, "lease not found")
		}
		if r.Header.Get(LeaseNonceHeader) != l.nonce {
			return leaseConflict("lease nonce invalid: " + s.heldBy(m, l))
		}
		m.lease = nil
		return reply{http.StatusOK, releasedJSON{Status: "success", Data: okJSON{OK: true}}}
	})
}

// leaseOwner is the (only) user of the simulated org, an email as on Fly.
func (s *Store) leaseOwner() string { return "you@" + s.opts.Org + ".example" }

// HoldLease takes the lease of app's machine id as someone else would (a
// deploy in another terminal): owner and description as given, ttl of wall
// time. It returns the nonce. Tests and demos use it to show what a held
// lease does to flywake's own actions.
func (s *Store) HoldLease(app, id, owner, description string, ttl time.Duration) (string, error) {
	nonce := s.gate.Nonce()
	s.sched.Lock()
	defer s.sched.Unlock()
	a := s.apps[app]
	if a == nil || a.byID[id] == nil {
		return "", fmt.Errorf("flysim: no machine %s in app %q", id, app)
	}
	m := a.byID[id]
	if l := s.liveLease(m); l != nil {
		return "", fmt.Errorf("flysim: %s", s.heldBy(m, l))
	}
	m.lease = s.newLease(m, nonce, description, max(ttl, time.Second))
	if owner != "" {
		m.lease.owner = owner
	}
	return nonce, nil
}

// Lease reports app's machine id lease holder and wall-clock expiry; ok is
// false when the machine is not leased.
func (s *Store) Lease(app, id string) (owner string, expires time.Time, ok bool) {
	s.sched.Lock()
	defer s.sched.Unlock()
	a := s.apps[app]
	if a == nil || a.byID[id] == nil {
		return "", time.Time{}, false
	}
	l := s.liveLease(a.byID[id])
	if l == nil {
		return "", time.Time{}, false
	}
	return l.owner, l.expires, true
}
