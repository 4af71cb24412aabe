package diagnose

import (
	"fmt"

	fly "github.com/superfly/fly-go"
)

// SuspendMaxMemoryMB is the documented memory ceiling for suspend.
const SuspendMaxMemoryMB = 2048

// SuspendBlockers lists why a machine with cfg cannot be suspended, per
// Fly's suspend requirements (swap, more than 2 GB of memory, a schedule; GPUs
// per the community thread). Autosuspend silently falls back to stop when any
// of these hold, so the list is what turns "suspend" back into a cold boot.
// An empty list means nothing in the config blocks it (the platform may still
// refuse, e.g. a machine not updated since June 2024).
func SuspendBlockers(cfg *fly.MachineConfig) []string {
	if cfg == nil {
		return []string{"config unavailable"}
	}
	var out []string
	if sw := cfg.Init.SwapSizeMB; sw != nil && *sw > 0 {
		out = append(out, fmt.Sprintf("swap (%d MB)", *sw))
	}
	if g := cfg.Guest; g != nil {
		if g.MemoryMB > SuspendMaxMemoryMB {
			out = append(out, fmt.Sprintf("memory %d MB (over 2 GB)", g.MemoryMB))
		}
		if g.GPUs > 0 || g.GPUKind != "" {
			out = append(out, "GPU")
		}
	}
	if cfg.Schedule != "" {
		out = append(out, fmt.Sprintf("schedule (%s)", cfg.Schedule))
	}
	return out
}

// AutostopMode is what the proxy does to idle machines: "off", "stop" or
// "suspend". With several services the most aggressive one wins, since any
// of them lets the proxy put the machine to sleep.
func AutostopMode(cfg *fly.MachineConfig) string {
	mode := fly.MachineAutostopOff
	if cfg != nil {
		for _, s := range cfg.Services {
			if s.Autostop != nil && *s.Autostop > mode && *s.Autostop <= fly.MachineAutostopSuspend {
				mode = *s.Autostop
			}
		}
	}
	return mode.String()
}

// Autostart reports whether any service lets the proxy start this machine
// on demand. An unset autostart counts as off: flyctl always writes it from
// fly.toml, so nil means the machine was made without it.
func Autostart(cfg *fly.MachineConfig) bool {
	if cfg == nil {
		return false
	}
	for _, s := range cfg.Services {
		if s.Autostart != nil && *s.Autostart {
			return true
		}
	}
	return false
}

// MinRunning is a machine config's min_machines_running: the first of its
// services that sets it, nil when none does. Fly's proxy keeps that many
// of the group's machines running, in the primary region only
// (InPrimaryRegion); a negative count keeps none.
func MinRunning(cfg *fly.MachineConfig) *int {
	if cfg == nil {
		return nil
	}
	for _, s := range cfg.Services {
		if s.MinMachinesRunning != nil {
			n := max(*s.MinMachinesRunning, 0)
			return &n
		}
	}
	return nil
}

// InPrimaryRegion reports whether min_machines_running holds for a machine
// in region: Fly applies it in the app's primary region only (primary is
// the PRIMARY_REGION fly deploy sets in every machine's env), and a machine
// whose config does not say is taken to be in it.
func InPrimaryRegion(primary, region string) bool { return primary == "" || primary == region }
