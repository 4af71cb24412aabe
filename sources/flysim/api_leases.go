package flysim

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Leases (reference/fly-platform.md §1.2): a holder gets a nonce and passes
// it in fly-machine-lease-nonce on mutating calls; everyone else gets 409
// until it is released or expires. Expiry runs on WALL time (a protocol
// limit); expires_at is reported on the platform clock so it reads like every
// other timestamp. A nonce is only ever shown to the caller that acquired it
// (or already presents it).

const (
	leaseNonceHeader = "fly-machine-lease-nonce"
	defaultLeaseTTL  = 30 * time.Second
	maxLeaseTTL      = time.Hour
)

// liveLease returns m's unexpired lease, dropping an expired one.
// Callers hold s.mu.
func (s *Sim) liveLease(m *machine) *lease {
	if m.lease != nil && !s.opts.Wall().Before(m.lease.expires) {
		m.lease = nil
	}
	return m.lease
}

// leaseBlocks refuses a mutating call on a leased machine without the
// holder's nonce. Callers hold s.mu.
func (s *Sim) leaseBlocks(m *machine, r *http.Request) (reply, bool) {
	l := s.liveLease(m)
	if l == nil {
		return reply{}, false
	}
	switch nonce := r.Header.Get(leaseNonceHeader); {
	case nonce == "":
		return errReply(http.StatusConflict, "lease currently held by "+l.owner), true
	case nonce != l.nonce:
		return errReply(http.StatusConflict, "lease nonce invalid"), true
	}
	return reply{}, false
}

func (s *Sim) leaseReply(l *lease, showNonce bool) reply {
	left := l.expires.Sub(s.opts.Wall())
	d := &leaseDataJSON{ExpiresAt: s.now().Add(left).Unix(), Owner: l.owner, Version: l.version}
	if showNonce {
		d.Nonce = l.nonce
	}
	return reply{http.StatusOK, leaseJSON{Status: "success", Data: d}}
}

// serveGetLease answers GET …/lease.
func (s *Sim) serveGetLease(w http.ResponseWriter, r *http.Request) {
	s.withMachine(w, r, func(m *machine) reply {
		l := s.liveLease(m)
		if l == nil {
			return errReply(http.StatusNotFound, "lease not found")
		}
		return s.leaseReply(l, r.Header.Get(leaseNonceHeader) == l.nonce)
	})
}

// serveAcquireLease answers POST …/lease[?ttl=N] or {"ttl":N,"description":…}:
// a new lease, or a refresh when the caller presents the holder's nonce.
func (s *Sim) serveAcquireLease(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TTL         int    `json:"ttl"`
		Description string `json:"description"`
	}
	if body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16)); len(body) > 0 {
		if err := json.Unmarshal(body, &in); err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	if v := r.URL.Query().Get("ttl"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			writeError(w, http.StatusBadRequest, "invalid ttl")
			return
		}
		in.TTL = n
	}
	ttl := defaultLeaseTTL
	if in.TTL > 0 {
		ttl = min(time.Duration(in.TTL)*time.Second, maxLeaseTTL)
	}
	nonce := s.newNonce()
	s.withMachine(w, r, func(m *machine) reply {
		expires := s.opts.Wall().Add(ttl)
		if l := s.liveLease(m); l != nil {
			if r.Header.Get(leaseNonceHeader) != l.nonce {
				return errReply(http.StatusConflict, "lease currently held by "+l.owner)
			}
			l.expires = expires
			return s.leaseReply(l, true)
		}
		m.lease = &lease{nonce: nonce, owner: s.leaseOwner(), description: in.Description,
			expires: expires, version: m.instanceID}
		return s.leaseReply(m.lease, true)
	})
}

// serveReleaseLease answers DELETE …/lease with the holder's nonce.
func (s *Sim) serveReleaseLease(w http.ResponseWriter, r *http.Request) {
	s.withMachine(w, r, func(m *machine) reply {
		l := s.liveLease(m)
		if l == nil {
			return errReply(http.StatusNotFound, "lease not found")
		}
		if r.Header.Get(leaseNonceHeader) != l.nonce {
			return errReply(http.StatusConflict, "lease nonce invalid")
		}
		m.lease = nil
		return reply{http.StatusOK, okJSON{OK: true}}
	})
}

// leaseOwner is the (only) user of the simulated org.
func (s *Sim) leaseOwner() string { return "flysim@" + s.opts.Org }

func (s *Sim) newNonce() string {
	st := &s.apist
	st.mu.Lock()
	defer st.mu.Unlock()
	st.init(s.opts.Seed)
	return randomHex(st.rng, 12)
}
