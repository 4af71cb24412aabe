package machine

import (
	"slices"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/sanitize"
)

// Configs converts machine configs once per distinct content: the
// machines of a fleet mostly share one config (a deploy writes the same
// to each), so a listing where every machine changed converts each
// distinct config about once and its machines share the result (a Config
// is never written once made). A config is matched against the one the
// machine had at the last listing and the few met last, by what
// conversion reads of it (sameConfig): no hashing, and a miss costs a few
// comparisons. It forgets a config neither the current listing nor the
// last used (see Next). The zero value is ready; not safe for concurrent
// use.
type Configs struct {
	gen     int
	secrets uint64 // sanitize.SecretsVersion the configs were cleaned at
	known   map[*Config]*configEntry
	recent  [8]*configEntry // the last distinct ones met, newest first
	image   imageMemo
	// Scratch for a machine's checks and events, copied out when new.
	checks []Check
	events []Event
}

// configEntry is one config converted, with the raw config it was
// converted from.
type configEntry struct {
	raw                   *fly.MachineConfig
	key                   configKey // raw's, to match others against
	incomplete            bool
	cfg                   *Config
	processGroup, release string
	gen                   int // the last listing that used it
}

// imageMemo is the last image reference joined: most machines run one.
type imageMemo struct {
	registry, repository, tag, image string
}

// Next starts a listing: the configs the listing before last used and
// the last did not are let go.
func (cs *Configs) Next() {
	cs.gen++
	if v := sanitize.SecretsVersion(); v != cs.secrets {
		// A secret added since: what was cleaned before may hold it.
		cs.secrets, cs.known, cs.recent, cs.image = v, nil, [8]*configEntry{}, imageMemo{}
	}
	for k, e := range cs.known {
		if e.gen < cs.gen-1 {
			delete(cs.known, k)
		}
	}
	for i, e := range cs.recent {
		if e != nil && e.gen < cs.gen-1 {
			cs.recent[i] = nil
		}
	}
}

// FromFly is machine.FromFly with the config taken from cs when a
// machine with the same config content was converted since the listing
// before (cs nil: converted afresh), and the checks and events of prev
// (the machine's last conversion, or nil) kept where they are the same.
func (cs *Configs) FromFly(fm *fly.Machine, prev *Machine) Machine {
	m, _ := fromFly(fm, cs, prev, nil)
	return m
}

// FromFlyKept is FromFly, also reusing prev's parsed times where fm's
// text of them is the one prev was made of, as was (what prev's
// conversion kept; nil: nothing) tells; it returns what to keep of fm for
// the next conversion of the machine.
func (cs *Configs) FromFlyKept(fm *fly.Machine, prev *Machine, was *Kept) (Machine, Kept) {
	return fromFly(fm, cs, prev, was)
}

// config is cfg converted, from memory when its content was met: first
// the config of was (the machine's last conversion, or nil), then the
// ones met last.
func (cs *Configs) config(cfg *fly.MachineConfig, incomplete bool, was *Config) configEntry {
	if cs == nil {
		return convertConfig(cfg, incomplete)
	}
	if cs.known == nil {
		cs.known = map[*Config]*configEntry{}
	}
	match := func(e *configEntry) bool {
		return e != nil && e.incomplete == incomplete && (e.raw == cfg || e.key.same(cfg))
	}
	var found *configEntry
	if e := cs.known[was]; was != nil && match(e) {
		found = e
	} else {
		for _, e := range cs.recent {
			if match(e) {
				found = e
				break
			}
		}
	}
	if found == nil {
		e := convertConfig(cfg, incomplete)
		e.key = keyOf(cfg) // only a remembered config is matched against
		found = &e
		cs.known[e.cfg] = found
	}
	found.gen = cs.gen
	if cs.recent[0] != found {
		i := slices.Index(cs.recent[:], found)
		if i < 0 {
			i = len(cs.recent) - 1
		}
		copy(cs.recent[1:i+1], cs.recent[:i])
		cs.recent[0] = found
	}
	return *found
}

func convertConfig(cfg *fly.MachineConfig, incomplete bool) configEntry {
	return configEntry{raw: cfg, incomplete: incomplete, cfg: newConfig(cfg, incomplete),
		processGroup: sanitize.Field(cfg.ProcessGroup()), release: sanitize.Field(Release(cfg))}
}

// imageOf is the machine's image reference joined (registry/repository:tag).
func (cs *Configs) imageOf(ref fly.MachineImageRef) string {
	if cs != nil && cs.image.image != "" && ref.Registry == cs.image.registry && ref.Repository == cs.image.repository && ref.Tag == cs.image.tag {
		return cs.image.image
	}
	img := ref.Repository
	if ref.Registry != "" {
		img = ref.Registry + "/" + img
	}
	if ref.Tag != "" {
		img += ":" + ref.Tag
	}
	img = sanitize.Field(img)
	if cs != nil {
		cs.image = imageMemo{ref.Registry, ref.Repository, ref.Tag, img}
	}
	return img
}

// sameConfig reports whether a and b agree in everything newConfig,
// ProcessGroup and Release read of a config (neither is nil): then they
// convert alike. It must follow newConfig; a test mutates every field of
// a config to hold it to that.
func sameConfig(a, b *fly.MachineConfig) bool {
	k := keyOf(a)
	return k.same(b)
}

// configKey is a config as sameConfig compares others to it, with what
// it reads of the config's maps read once: a memo entry's is compared
// with a config of every machine converted.
type configKey struct {
	raw     *fly.MachineConfig
	primary string   // raw.Env["PRIMARY_REGION"]
	meta    []string // raw.Metadata's keys and values, pairwise
}

func keyOf(cfg *fly.MachineConfig) configKey {
	k := configKey{raw: cfg, primary: cfg.Env["PRIMARY_REGION"]}
	if len(cfg.Metadata) > 0 {
		k.meta = make([]string, 0, 2*len(cfg.Metadata))
		for n, v := range cfg.Metadata {
			k.meta = append(k.meta, n, v)
		}
	}
	return k
}

// same is sameConfig(k.raw, b).
func (k *configKey) same(b *fly.MachineConfig) bool {
	a := k.raw
	if a.Image != b.Image || a.Schedule != b.Schedule {
		return false
	}
	if ga, gb := a.Guest, b.Guest; (ga == nil) != (gb == nil) ||
		ga != nil && (ga.CPUKind != gb.CPUKind || ga.CPUs != gb.CPUs || ga.MemoryMB != gb.MemoryMB || ga.GPUs != gb.GPUs || ga.GPUKind != gb.GPUKind) {
		return false
	}
	if !sameInt(a.Init.SwapSizeMB, b.Init.SwapSizeMB) || !slices.Equal(a.Init.Entrypoint, b.Init.Entrypoint) ||
		!slices.Equal(a.Init.Cmd, b.Init.Cmd) || !slices.Equal(a.Init.Exec, b.Init.Exec) {
		return false
	}
	if ra, rb := a.Restart, b.Restart; (ra == nil) != (rb == nil) || ra != nil && (ra.Policy != rb.Policy || ra.MaxRetries != rb.MaxRetries) {
		return false
	}
	if len(a.Services) != len(b.Services) || len(a.Checks) != len(b.Checks) || len(a.Metadata) != len(b.Metadata) {
		return false
	}
	for i := range a.Services {
		if !sameService(&a.Services[i], &b.Services[i]) {
			return false
		}
	}
	for n, ca := range a.Checks {
		cb, ok := b.Checks[n]
		if !ok || !sameCheck(ca.Type, ca.Port, ca.HTTPPath, ca.Interval, ca.GracePeriod, cb.Type, cb.Port, cb.HTTPPath, cb.Interval, cb.GracePeriod) {
			return false
		}
	}
	// The maps last: the dearest to compare.
	if b.Env["PRIMARY_REGION"] != k.primary || len(b.Metadata) != len(k.meta)/2 {
		return false
	}
	for i := 0; i < len(k.meta); i += 2 {
		if v, ok := b.Metadata[k.meta[i]]; !ok || v != k.meta[i+1] {
			return false
		}
	}
	return true
}

func sameService(a, b *fly.MachineService) bool {
	if a.Protocol != b.Protocol || a.InternalPort != b.InternalPort || !samePtr(a.Autostop, b.Autostop) ||
		!samePtr(a.Autostart, b.Autostart) || !sameInt(a.MinMachinesRunning, b.MinMachinesRunning) || len(a.Checks) != len(b.Checks) {
		return false
	}
	if ca, cb := a.Concurrency, b.Concurrency; (ca == nil) != (cb == nil) ||
		ca != nil && (ca.Type != cb.Type || ca.SoftLimit != cb.SoftLimit || ca.HardLimit != cb.HardLimit) {
		return false
	}
	for i := range a.Checks {
		ca, cb := &a.Checks[i], &b.Checks[i]
		if !sameCheck(ca.Type, ca.Port, ca.HTTPPath, ca.Interval, ca.GracePeriod, cb.Type, cb.Port, cb.HTTPPath, cb.Interval, cb.GracePeriod) {
			return false
		}
	}
	return true
}

func sameCheck(ta *string, pa *int, ha *string, ia, ga *fly.Duration, tb *string, pb *int, hb *string, ib, gb *fly.Duration) bool {
	return samePtr(ta, tb) && sameInt(pa, pb) && samePtr(ha, hb) && samePtr(ia, ib) && samePtr(ga, gb)
}

func sameInt(a, b *int) bool { return samePtr(a, b) }

// samePtr: both unset, or both set to equal values.
func samePtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
