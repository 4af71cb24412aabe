package machine

import (
	"reflect"
	"testing"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/sanitize"
)

// sameConfig must see every part of a config that conversion reads, or
// interning would hand a machine another's config. Every field of a
// config filled in (pointers set, one element in each slice and map) is
// changed in turn, map keys too: wherever the conversion changes,
// sameConfig must say the configs differ. It must also say a config is
// the same as its copy, or nothing would be shared.
func TestSameConfigSeesWhatConversionReads(t *testing.T) {
	base := filledConfig(-1)
	if !sameConfig(base, filledConfig(-1)) {
		t.Fatal("a config and its copy are not the same")
	}
	want := convertConfig(base, false)
	changed := 0
	for k := 0; ; k++ {
		c, leaves := filledConfigN(k)
		if k >= leaves {
			break
		}
		got := convertConfig(c, false)
		if reflect.DeepEqual(got.cfg, want.cfg) && got.processGroup == want.processGroup && got.release == want.release {
			continue
		}
		changed++
		if sameConfig(base, c) || sameConfig(c, base) {
			t.Errorf("leaf %d changed: it converts to\n%+v (group %q, release %q), not\n%+v (group %q, release %q),\nbut sameConfig says they are the same",
				k, *got.cfg, got.processGroup, got.release, *want.cfg, want.processGroup, want.release)
		}
	}
	// The filler changes values and keys, never how many: an entry more or
	// less.
	fewer, more := filledConfig(-1), filledConfig(-1)
	delete(fewer.Metadata, "other")
	more.Metadata["another"] = "a"
	if sameConfig(base, fewer) || sameConfig(fewer, base) || sameConfig(base, more) || sameConfig(more, base) {
		t.Error("a config with a metadata entry more or less is the same")
	}
	// Image, schedule, guest, swap, the init commands, the primary region,
	// restart, metadata, a service's and a check's fields: far more.
	if changed < 25 {
		t.Errorf("only %d changes of a config changed its conversion: the filler misses fields", changed)
	}
}

func filledConfig(mutate int) *fly.MachineConfig {
	c, _ := filledConfigN(mutate)
	return c
}

// filledConfigN is a config with every field set, leaf number mutate
// (counting from 0 in field order) set otherwise, and the count of leaves.
func filledConfigN(mutate int) (*fly.MachineConfig, int) {
	c := &fly.MachineConfig{}
	f := filler{mutate: mutate}
	f.fill(reflect.ValueOf(c).Elem(), 0)
	return c, f.n
}

type filler struct{ n, mutate int }

// leaf reports whether this leaf is the one to change.
func (f *filler) leaf() bool {
	f.n++
	return f.n-1 == f.mutate
}

// mapKeys are the keys of every string-keyed map: those conversion
// looks up (an env's and metadata's), and another.
var mapKeys = []string{"PRIMARY_REGION", fly.MachineConfigMetadataKeyFlyReleaseVersion, fly.MachineConfigMetadataKeyFlyProcessGroup, "process_group", "other"}

func (f *filler) fill(v reflect.Value, depth int) {
	if depth > 8 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		s := "a"
		if f.leaf() {
			s = "" // unset: what some conversions tell apart from any value
		}
		v.SetString(s)
	case reflect.Bool:
		v.SetBool(!f.leaf())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := int64(1) // 1 and 2: valid for the enums (autostop: stop, suspend)
		if f.leaf() {
			n = 2
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n := uint64(1)
		if f.leaf() {
			n = 2
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		x := 1.0
		if f.leaf() {
			x = 2
		}
		v.SetFloat(x)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		f.fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			f.fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		keys := []string{"k"}
		if v.Type().Key().Kind() == reflect.String {
			keys = mapKeys
		}
		for _, k := range keys {
			key := reflect.New(v.Type().Key()).Elem()
			if key.Kind() == reflect.String {
				if f.leaf() {
					k += "-other"
				}
				key.SetString(k)
			} else {
				f.fill(key, depth+1)
			}
			val := reflect.New(v.Type().Elem()).Elem()
			f.fill(val, depth+1)
			m.SetMapIndex(key, val)
		}
		v.Set(m)
	}
}

// Machines with configs of the same content share one converted config;
// another content gets its own, and so does an incomplete config; a
// secret added since cleans them again.
func TestConfigsShareEqualContent(t *testing.T) {
	machine := func(id string, cfg *fly.MachineConfig) *fly.Machine {
		return &fly.Machine{ID: id, State: "started", Config: cfg}
	}
	var cs Configs
	cs.Next()
	a := cs.FromFly(machine("a", filledConfig(-1)), nil)
	b := cs.FromFly(machine("b", filledConfig(-1)), nil)
	other := cs.FromFly(machine("c", filledConfig(0)), nil)
	incomplete := cs.FromFly(&fly.Machine{ID: "d", IncompleteConfig: filledConfig(-1)}, nil)
	switch {
	case a.Config != b.Config:
		t.Error("equal configs converted twice")
	case a.Config == other.Config:
		t.Error("another config shares the first's")
	case a.Config == incomplete.Config || !incomplete.Config.Incomplete:
		t.Error("an incomplete config shares a complete one's")
	}
	if !reflect.DeepEqual(a, FromFly(machine("a", filledConfig(-1)))) {
		t.Errorf("shared conversion differs from one afresh:\n%+v\n%+v", a, FromFly(machine("a", filledConfig(-1))))
	}
	// Two listings on, a config no listing used is let go.
	cs.Next()
	cs.Next()
	if again := cs.FromFly(machine("a", filledConfig(-1)), &a); again.Config == a.Config {
		t.Error("a config two listings unused is still held")
	}
	cs.Next()
	before := cs.FromFly(machine("a", filledConfig(-1)), nil)
	sanitize.AddSecret("a-secret-from-a-test")
	cs.Next()
	if after := cs.FromFly(machine("a", filledConfig(-1)), &before); after.Config == before.Config {
		t.Error("a config cleaned before a secret was added is shared after")
	}
}

// A machine converted again keeps the last conversion's checks and events
// where they are the same, and has its own where they differ.
func TestFromFlyKeepsUnchangedParts(t *testing.T) {
	fm := &fly.Machine{ID: "a", State: "started",
		Checks: []*fly.MachineCheckStatus{{Name: "http", Status: "passing"}},
		Events: []*fly.MachineEvent{{Type: "start", Status: "started", Source: "flyd", Timestamp: 1700000000000}}}
	var cs Configs
	cs.Next()
	first := cs.FromFly(fm, nil)
	renamed := *fm
	renamed.Name = "new"
	again := cs.FromFly(&renamed, &first)
	if &again.Checks[0] != &first.Checks[0] || &again.Events[0] != &first.Events[0] {
		t.Error("unchanged checks and events were copied again")
	}
	failing := renamed
	failing.Checks = []*fly.MachineCheckStatus{{Name: "http", Status: "critical"}}
	changed := cs.FromFly(&failing, &again)
	if &changed.Checks[0] == &again.Checks[0] || changed.Checks[0].Status != "critical" || &changed.Events[0] != &again.Events[0] {
		t.Errorf("changed checks: %+v", changed.Checks)
	}
	if again.Checks[0].Status != "passing" {
		t.Error("the last conversion's checks were written")
	}
	if !reflect.DeepEqual(changed, FromFly(&failing)) {
		t.Errorf("kept parts differ from a conversion afresh:\n%+v\n%+v", changed, FromFly(&failing))
	}
}

// A machine converted again reuses the last conversion's parsed times
// only where the entry's text of them is the same: a new text is parsed,
// even one naming the same instant in another zone (which parses to
// another time.Time).
func TestFromFlyKeptReusesOnlyTheSameTimeText(t *testing.T) {
	fm := &fly.Machine{ID: "a", State: "started", CreatedAt: "2026-12-01T10:00:00Z", UpdatedAt: "2026-12-02T10:00:00Z"}
	var cs Configs
	cs.Next()
	first, kept := cs.FromFlyKept(fm, nil, nil)
	steps := []struct{ name, created, updated string }{
		{"the same text", fm.CreatedAt, fm.UpdatedAt},
		{"updated later", fm.CreatedAt, "2026-12-02T10:00:05.25Z"},
		{"the same instant, another zone", "2026-12-01T11:00:00+01:00", "2026-12-02T10:00:05.25Z"},
		{"no longer a time", "yesterday", ""},
		{"a time again", "2026-12-01T11:00:00+01:00", "2026-12-02T10:00:05.25Z"},
	}
	prev := first
	for _, s := range steps {
		next := *fm
		next.Name, next.CreatedAt, next.UpdatedAt = s.name, s.created, s.updated
		got, k := cs.FromFlyKept(&next, &prev, &kept)
		if want := FromFly(&next); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: kept times give\n%+v, afresh\n%+v", s.name, got, want)
		}
		prev, kept = got, k
	}
	// Without what the last conversion kept, nothing is reused: not even
	// for an entry without times, which the zero Kept's empty text is.
	other := *fm
	other.CreatedAt, other.UpdatedAt = "", ""
	if got, _ := cs.FromFlyKept(&other, &first, &Kept{}); !got.CreatedAt.IsZero() || !got.UpdatedAt.IsZero() {
		t.Errorf("an entry without times has them: %v, %v", got.CreatedAt, got.UpdatedAt)
	}
	other.UpdatedAt = "2026-12-03T00:00:00Z"
	if got, _ := cs.FromFlyKept(&other, &first, nil); !got.UpdatedAt.Equal(FromFly(&other).UpdatedAt) {
		t.Errorf("UpdatedAt %v without a Kept", got.UpdatedAt)
	}
}

// The memo matches a config against what it read of a remembered one's
// maps once (configKey): a config whose metadata or primary region
// differs only in a value, or in a key, gets its own conversion.
func TestConfigsTellMapsApart(t *testing.T) {
	cfg := func(region string, meta map[string]string) *fly.Machine {
		return &fly.Machine{ID: "m", State: "started", Config: &fly.MachineConfig{Env: map[string]string{"PRIMARY_REGION": region}, Metadata: meta}}
	}
	var cs Configs
	cs.Next()
	base := cs.FromFly(cfg("ams", map[string]string{"fly_release_version": "7", "x": "1"}), nil)
	for _, c := range []struct {
		name string
		fm   *fly.Machine
		same bool
	}{
		{"a copy", cfg("ams", map[string]string{"x": "1", "fly_release_version": "7"}), true},
		{"another release", cfg("ams", map[string]string{"fly_release_version": "8", "x": "1"}), false},
		{"another key", cfg("ams", map[string]string{"fly_release_version": "7", "y": "1"}), false},
		{"another region", cfg("fra", map[string]string{"fly_release_version": "7", "x": "1"}), false},
	} {
		got := cs.FromFly(c.fm, &base)
		if shared := got.Config == base.Config; shared != c.same {
			t.Errorf("%s: shares the first config = %v", c.name, shared)
		}
		if want := FromFly(c.fm); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: converts to\n%+v, afresh\n%+v", c.name, got, want)
		}
	}
}
