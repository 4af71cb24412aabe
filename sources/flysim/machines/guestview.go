package machines

import (
	"fmt"

	"github.com/flywake/flywake/sources/demoproject"
	"github.com/flywake/flywake/sources/flysim/guest"
)

// Guest copies what the guest shows of m. Its app's image filesystem is
// built on the first exec, from the app's project. Callers hold the lock.
func (s *Store) Guest(m *Machine) guest.View {
	p := &m.app.p
	if m.app.fs == nil {
		project, _ := demoproject.FS(p.Project)
		m.app.fs = guest.BuildFS(p.Bytecode, project, m.app.deployedAt)
	}
	inflight, closeWait := s.edge.Load(m)
	g := guest.View{
		App: p.Name, ID: m.id, Region: m.region, PrivateIP: m.privateIP, Group: p.ProcessGroup,
		Version: m.instanceID, Image: fmt.Sprintf("registry.fly.io/%s:%s", p.Image, p.Tag),
		MemoryMB: p.MemoryMB, CPUs: p.CPUs, Port: p.InternalPort, Env: map[string]string{},
		MemAvailPct: p.MemAvailPct, SwapUsedKB: p.SwapUsedKB, Inflight: inflight, CloseWait: closeWait,
		Serving: m.serving, Bytecode: p.Bytecode, BootedAt: m.updatedAt, Now: s.now(), HealthPath: p.HealthPath,
		Server: p.Server, Workers: max(p.Workers, 1), FS: m.app.fs,
	}
	if m.bootBegin.IsZero() && !m.servingSince.IsZero() {
		g.BootedAt = m.servingSince
	}
	if im := m.image; im != nil && im.public {
		// A public image: its own server on a plain Debian, nothing of the app's.
		if im.fs == nil {
			im.fs = guest.PlainFS(m.createdAt)
		}
		g.FS, g.Bytecode, g.Server, g.Workers = im.fs, guest.Bytecode{NotPython: true}, im.command(m.cfg), 1
		g.Image, g.Env = m.cfg.Image, map[string]string{}
		if svc, ok := m.Service(); ok {
			g.Port = svc.Port
		}
	}
	if c := m.cfg; c != nil {
		if c.Guest != nil {
			g.MemoryMB, g.CPUs = c.Guest.MemoryMB, c.Guest.CPUs
		}
		if c.Init.SwapSizeMB != nil {
			g.SwapMB = *c.Init.SwapSizeMB
		}
		for k, v := range c.Env {
			g.Env[k] = v
		}
		for _, mt := range c.Mounts {
			v := guest.Volume{Path: mt.Path, SizeGB: mt.SizeGb, Created: m.createdAt, Files: p.VolumeFiles}
			for _, vol := range m.app.volumes {
				if vol.id == mt.Volume {
					v.SizeGB, v.Created = vol.sizeGB, vol.createdAt
				}
			}
			g.Volumes = append(g.Volumes, v)
		}
	}
	return g
}
