package flysim

import (
	"errors"
	"fmt"
	"net"
)

// Pause takes the API (Machines, logs and Prometheus) off the network, as an
// outage would: the listener and every open connection close, so requests in
// flight (wait long-polls included) fail and new ones are refused. The
// platform's clock, its machines, its traffic and the app edges keep running.
// Pausing a paused platform does nothing.
func (s *Sim) Pause() error {
	s.apiMu.Lock()
	defer s.apiMu.Unlock()
	if s.apiAddr == "" {
		return errors.New("flysim: Pause before Start")
	}
	if s.paused {
		return nil
	}
	select {
	case <-s.closing:
		return errors.New("flysim: Pause after Close")
	default:
	}
	srv := s.api
	s.api, s.paused = nil, true
	return srv.Close()
}

// Resume serves the API again on the same address, so clients configured
// with URL() reconnect without being told anything. Resuming a platform that
// is not paused does nothing.
func (s *Sim) Resume() error {
	s.apiMu.Lock()
	defer s.apiMu.Unlock()
	if !s.paused {
		return nil
	}
	select {
	case <-s.closing:
		return errors.New("flysim: Resume after Close")
	default:
	}
	ln, err := net.Listen("tcp", s.apiAddr)
	if err != nil {
		return fmt.Errorf("flysim: listen again on %s: %w", s.apiAddr, err)
	}
	s.paused = false
	s.serveAPI(ln)
	return nil
}

// Paused reports whether the API is off the network.
func (s *Sim) Paused() bool {
	s.apiMu.Lock()
	defer s.apiMu.Unlock()
	return s.paused
}
