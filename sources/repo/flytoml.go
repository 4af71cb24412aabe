package repo

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/textfile"
)

// FlyTomlFile is the config file name flyctl reads by default.
const FlyTomlFile = "fly.toml"

// AutoStop is the normalised auto_stop_machines value.
type AutoStop string

const (
	AutoStopUnset   AutoStop = ""        // key absent: the platform default is "off"
	AutoStopOff     AutoStop = "off"     // also `false`
	AutoStopStop    AutoStop = "stop"    // also `true`
	AutoStopSuspend AutoStop = "suspend" // suspends when eligible, else stops
)

// FlyToml is the part of fly.toml the checklist reads.
type FlyToml struct {
	App           string
	PrimaryRegion string
	SwapSizeMB    int // 0 = no swap configured
	// Services holds [http_service] first (Kind "http_service") then each [[services]].
	Services       []Service
	ReleaseCommand string
	VMMemoryMB     int     // from [[vm]] memory / memory_mb; 0 = unset
	Checks         []Check // top-level [checks.<name>] (machine checks, not routed on)
	// Processes are the process groups [processes] defines, sorted; empty
	// when it defines none (every machine is then in the group "app").
	Processes []string

	lines map[string]int // dotted key path -> line, e.g. "http_service.auto_stop_machines"
}

// Service is an [http_service] or one [[services]] block.
type Service struct {
	Kind               string // "http_service" or "services"
	Index              int    // position among [[services]]; 0 for http_service
	InternalPort       int
	Ports              []int
	AutoStop           AutoStop
	AutoStart          *bool
	MinMachinesRunning *int
	Concurrency        *Concurrency
	Checks             []Check
	// Processes are the process groups the service is for, as written;
	// empty means the default group (see FlyToml.ServiceGroups).
	Processes []string
	Line      int // line of the block header
}

// Concurrency is a service's [concurrency] block; 0 means "not set".
type Concurrency struct {
	Type      string
	SoftLimit int
	HardLimit int
	Line      int
}

// Check is a health check from any of the places fly.toml allows one.
type Check struct {
	Name     string // for top-level [checks.<name>]
	Kind     string // "http" or "tcp"
	Port     int
	Path     string
	Interval time.Duration
	Timeout  time.Duration
	// Processes are the groups a top-level check is for (empty: the
	// default group).
	Processes []string
	Line      int
}

// Line returns the line of a dotted key path ("swap_size_mb",
// "http_service.concurrency.hard_limit", "services.0.concurrency"), or 0.
func (f *FlyToml) Line(path string) int {
	if f == nil {
		return 0
	}
	return f.lines[path]
}

// Source is Line in "fly.toml:7" form (just "fly.toml" when unknown).
func (f *FlyToml) Source(path string) string { return Source(FlyTomlFile, f.Line(path)) }

// DefaultProcessGroup is the group flyctl gives a service, check or mount
// that names none: "app" when there is such a group (or no [processes]
// at all), else the first group by name.
func (f *FlyToml) DefaultProcessGroup() string {
	if f == nil || len(f.Processes) == 0 || slices.Contains(f.Processes, DefaultGroup) {
		return DefaultGroup
	}
	return f.Processes[0]
}

// DefaultGroup is the process group of an app that defines none.
const DefaultGroup = "app"

// ProcessGroups are the groups the app's machines are in: those of
// [processes], or "app" alone.
func (f *FlyToml) ProcessGroups() []string {
	if f == nil || len(f.Processes) == 0 {
		return []string{DefaultGroup}
	}
	return f.Processes
}

// Groups are the process groups whose machines get a part that names
// processes (a service, a top-level check) as flyctl applies it: the ones
// named that exist, or the default group when none is named.
func (f *FlyToml) Groups(processes []string) []string {
	if len(processes) == 0 {
		return []string{f.DefaultProcessGroup()}
	}
	var out []string
	for _, g := range processes {
		if slices.Contains(f.ProcessGroups(), g) && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// HTTPService returns the [http_service] block, or nil.
func (f *FlyToml) HTTPService() *Service {
	if f == nil {
		return nil
	}
	for i := range f.Services {
		if f.Services[i].Kind == "http_service" {
			return &f.Services[i]
		}
	}
	return nil
}

// Path is the dotted key prefix of this service ("http_service" or "services.2").
func (s Service) Path() string {
	if s.Kind == "http_service" {
		return "http_service"
	}
	return fmt.Sprintf("services.%d", s.Index)
}

// The raw* types are the schema of fly.toml as flywake reads it: the keys
// it uses, typed, and the other keys flyctl knows (as `any`, so they are
// neither read nor flagged). A key in none of them is reported as unknown.
// Tables whose keys are the user's own (env, processes, build args…) are
// `any` as a whole.

type rawFly struct {
	App           string       `toml:"app"`
	PrimaryRegion string       `toml:"primary_region"`
	SwapSizeMB    int          `toml:"swap_size_mb"`
	HTTPService   *rawService  `toml:"http_service"`
	Services      []rawService `toml:"services"`
	Deploy        struct {
		ReleaseCommand        string `toml:"release_command"`
		Strategy              any    `toml:"strategy"`
		MaxUnavailable        any    `toml:"max_unavailable"`
		WaitTimeout           any    `toml:"wait_timeout"`
		ReleaseCommandTimeout any    `toml:"release_command_timeout"`
		ReleaseCommandVM      any    `toml:"release_command_vm"`
		SeedCommand           any    `toml:"seed_command"`
	} `toml:"deploy"`
	VM     []rawVM             `toml:"vm"`
	Checks map[string]rawCheck `toml:"checks"`

	KillSignal     any `toml:"kill_signal"`
	KillTimeout    any `toml:"kill_timeout"`
	ConsoleCommand any `toml:"console_command"`
	Experimental   any `toml:"experimental"`
	Build          any `toml:"build"`
	Env            any `toml:"env"`
	// Processes is a table of group -> command; old files write
	// `processes = []` for none, which flyctl still reads.
	Processes        any `toml:"processes"`
	Mounts           any `toml:"mounts"`
	Files            any `toml:"files"`
	HostDedicationID any `toml:"host_dedication_id"`
	MachineConfig    any `toml:"machine_config"`
	Container        any `toml:"container"`
	MachineChecks    any `toml:"machine_checks"`
	Restart          any `toml:"restart"`
	Statics          any `toml:"statics"`
	Metrics          any `toml:"metrics"`
}

type rawService struct {
	InternalPort int             `toml:"internal_port"`
	AutoStop     any             `toml:"auto_stop_machines"`
	AutoStart    *bool           `toml:"auto_start_machines"`
	MinRunning   *int            `toml:"min_machines_running"`
	Concurrency  *rawConcurrency `toml:"concurrency"`
	Checks       []rawCheck      `toml:"checks"`
	HTTPChecks   []rawCheck      `toml:"http_checks"`
	TCPChecks    []rawCheck      `toml:"tcp_checks"`
	Processes    []string        `toml:"processes"`
	Ports        []struct {
		Port              int `toml:"port"`
		StartPort         any `toml:"start_port"`
		EndPort           any `toml:"end_port"`
		Handlers          any `toml:"handlers"`
		ForceHTTPS        any `toml:"force_https"`
		TLSOptions        any `toml:"tls_options"`
		HTTPOptions       any `toml:"http_options"`
		ProxyProtoOptions any `toml:"proxy_proto_options"`
	} `toml:"ports"`

	Protocol          any `toml:"protocol"`
	ForceHTTPS        any `toml:"force_https"`
	TLSOptions        any `toml:"tls_options"`
	HTTPOptions       any `toml:"http_options"`
	ProxyProtoOptions any `toml:"proxy_proto_options"`
	MachineChecks     any `toml:"machine_checks"`
}

type rawConcurrency struct {
	Type      string `toml:"type"`
	SoftLimit int    `toml:"soft_limit"`
	HardLimit int    `toml:"hard_limit"`
}

type rawCheck struct {
	Type      string   `toml:"type"`
	Port      int      `toml:"port"`
	Path      string   `toml:"path"`
	Interval  any      `toml:"interval"`
	Timeout   any      `toml:"timeout"`
	Processes []string `toml:"processes"`

	GracePeriod   any `toml:"grace_period"`
	Method        any `toml:"method"`
	Protocol      any `toml:"protocol"`
	TLSSkipVerify any `toml:"tls_skip_verify"`
	TLSServerName any `toml:"tls_server_name"`
	Headers       any `toml:"headers"`
	RestartLimit  any `toml:"restart_limit"`
	Kind          any `toml:"kind"`
}

type rawVM struct {
	Memory   any `toml:"memory"`
	MemoryMB int `toml:"memory_mb"`

	Size             any `toml:"size"`
	CPUs             any `toml:"cpus"`
	CPUKind          any `toml:"cpu_kind"`
	GPUs             any `toml:"gpus"`
	GPUKind          any `toml:"gpu_kind"`
	HostDedicationID any `toml:"host_dedication_id"`
	KernelArgs       any `toml:"kernel_args"`
	PersistRootfs    any `toml:"persist_rootfs"`
	MaxMemoryMB      any `toml:"max_memory_mb"`
	Processes        any `toml:"processes"`
}

// ParseFlyToml decodes fly.toml and returns every problem it finds, each a
// *textfile.FileError with its line: a syntax error (the parser cannot go on past
// one), every value of the wrong type, every value out of range, and every
// unknown key as a warning naming the nearest known key. The result is nil
// when there is any error, because a half-read config would make the
// checklist judge values that are not what the user wrote; warnings alone
// leave it usable.
func ParseFlyToml(data []byte) (*FlyToml, []error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, []error{decodeError(err)}
	}
	lines, err := textfile.TOMLLines(data)
	if err != nil {
		return nil, []error{decodeError(err)}
	}
	// go-toml stops at the first value of the wrong type and reports unknown
	// keys (strict mode) only when decoding succeeds; one walk over the
	// document against the schema finds them all, with lines from keyLines.
	sw := schemaWalk{lines: lines}
	sw.table(doc, reflect.TypeFor[rawFly](), "")
	var raw rawFly
	if len(sw.errs) > 0 {
		// Decode what is left (the mistyped keys dropped) so that range
		// checks below still run and every error is reported at once.
		clean, err := toml.Marshal(doc)
		if err == nil {
			err = toml.Unmarshal(clean, &raw)
		}
		if err != nil {
			return nil, append(sw.errs, sw.warns...)
		}
	} else if err := toml.Unmarshal(data, &raw); err != nil {
		return nil, append([]error{decodeError(err)}, sw.warns...)
	}
	f := &FlyToml{
		App:            sanitize.Line(raw.App),
		PrimaryRegion:  sanitize.Line(raw.PrimaryRegion),
		SwapSizeMB:     raw.SwapSizeMB,
		ReleaseCommand: sanitize.Line(raw.Deploy.ReleaseCommand),
		lines:          lines,
	}
	errs := sw.errs
	if groups, ok := processGroups(raw.Processes); ok {
		f.Processes = groups
	} else {
		errs = append(errs, f.fieldError("processes", "expected a table of process group = command for [processes], got %s", tomlLiteral(raw.Processes)))
	}
	if raw.SwapSizeMB < 0 {
		errs = append(errs, f.fieldError("swap_size_mb", "expected a size in MB of 0 or more, got %d", raw.SwapSizeMB))
	}
	if raw.HTTPService != nil {
		s, err := f.service(*raw.HTTPService, "http_service", 0)
		errs = append(errs, err...)
		f.Services = append(f.Services, s)
	}
	for i, rs := range raw.Services {
		s, err := f.service(rs, "services", i)
		errs = append(errs, err...)
		f.Services = append(f.Services, s)
	}
	for i, vm := range raw.VM {
		mb, err := f.vmMemory(vm, i)
		if err != nil {
			errs = append(errs, err)
		}
		if mb > 0 {
			f.VMMemoryMB = mb
		}
	}
	for _, name := range sortedKeys(raw.Checks) {
		c, err := f.check(raw.Checks[name], "checks."+name, "")
		errs = append(errs, err...)
		c.Name = sanitize.Line(name)
		f.Checks = append(f.Checks, c)
	}
	slices.SortStableFunc(errs, byLine)
	if len(errs) > 0 {
		return nil, append(errs, sw.warns...)
	}
	return f, append(sw.warns, f.unknownGroups()...)
}

// processGroups reads [processes]: the group names of a table, sorted;
// none for an absent table or the old `processes = []`.
func processGroups(v any) ([]string, bool) {
	switch x := v.(type) {
	case nil:
		return nil, true
	case map[string]any:
		groups := make([]string, 0, len(x))
		for g := range x {
			groups = append(groups, sanitize.Line(g))
		}
		slices.Sort(groups)
		return groups, true
	case []any:
		return nil, len(x) == 0
	}
	return nil, false
}

// unknownGroups warns about a service or check whose processes name a
// group the app does not have: flyctl gives it to no machine of that name.
func (f *FlyToml) unknownGroups() []error {
	var out []error
	warn := func(path, what string, processes []string) {
		for i, g := range processes {
			if slices.Contains(f.ProcessGroups(), g) {
				continue
			}
			msg := fmt.Sprintf("processes of %s names %s, which is no process group of this app (%s): no machine gets it from that name",
				what, strconv.Quote(clip(g, 80)), strings.Join(f.ProcessGroups(), ", "))
			fe := &textfile.FileError{File: FlyTomlFile, Line: f.Line(fmt.Sprintf("%s.processes.%d", path, i)), Warning: true, Key: path + ".processes"}
			if fe.Line == 0 {
				fe.Line = f.Line(path + ".processes")
			}
			if near := textfile.Nearest(g, f.ProcessGroups()); near != "" {
				msg += fmt.Sprintf(" — did you mean %s?", near)
			}
			fe.Msg = sanitize.Line(msg)
			out = append(out, fe)
		}
	}
	for _, s := range f.Services {
		warn(s.Path(), "["+keyName(s.Path())+"]", s.Processes)
	}
	for _, c := range f.Checks {
		warn("checks."+c.Name, "[checks."+c.Name+"]", c.Processes)
	}
	return out
}

func byLine(a, b error) int {
	var fa, fb *textfile.FileError
	errors.As(a, &fa)
	errors.As(b, &fb)
	if fa == nil || fb == nil {
		return 0
	}
	return fa.Line - fb.Line
}

func (f *FlyToml) fieldError(path, format string, args ...any) error {
	return &textfile.FileError{File: FlyTomlFile, Line: f.Line(path), Msg: fmt.Sprintf(format, args...)}
}

func (f *FlyToml) service(rs rawService, kind string, index int) (Service, []error) {
	s := Service{Kind: kind, Index: index, InternalPort: rs.InternalPort, AutoStart: rs.AutoStart, MinMachinesRunning: rs.MinRunning,
		Processes: sanitize.Lines(rs.Processes)}
	p := s.Path()
	s.Line = f.Line(p)
	var errs []error
	mode, ok := parseAutoStop(rs.AutoStop)
	if !ok {
		errs = append(errs, f.fieldError(p+".auto_stop_machines",
			`expected "off", "stop", "suspend" or a boolean for auto_stop_machines, got %s`, tomlLiteral(rs.AutoStop)))
	}
	s.AutoStop = mode
	if rs.MinRunning != nil && *rs.MinRunning < 0 {
		errs = append(errs, f.fieldError(p+".min_machines_running", "expected 0 or more for min_machines_running, got %d", *rs.MinRunning))
	}
	for _, port := range rs.Ports {
		s.Ports = append(s.Ports, port.Port)
	}
	if c := rs.Concurrency; c != nil {
		s.Concurrency = &Concurrency{Type: sanitize.Line(c.Type), SoftLimit: c.SoftLimit, HardLimit: c.HardLimit, Line: f.Line(p + ".concurrency")}
		if c.Type != "" && c.Type != "connections" && c.Type != "requests" {
			errs = append(errs, f.fieldError(p+".concurrency.type", `expected "connections" or "requests" for concurrency type, got %q`, c.Type))
		}
		if c.SoftLimit < 0 || c.HardLimit < 0 {
			errs = append(errs, f.fieldError(p+".concurrency", "expected limits of 0 or more, got soft_limit %d, hard_limit %d", c.SoftLimit, c.HardLimit))
		}
	}
	add := func(list []rawCheck, key, kind string) {
		for i, rc := range list {
			c, err := f.check(rc, fmt.Sprintf("%s.%s.%d", p, key, i), kind)
			errs = append(errs, err...)
			if c.Port == 0 {
				c.Port = s.InternalPort
			}
			s.Checks = append(s.Checks, c)
		}
	}
	add(rs.Checks, "checks", "http")
	add(rs.HTTPChecks, "http_checks", "http")
	add(rs.TCPChecks, "tcp_checks", "tcp")
	return s, errs
}

func (f *FlyToml) check(rc rawCheck, path, kind string) (Check, []error) {
	c := Check{Kind: kind, Port: rc.Port, Path: sanitize.Line(rc.Path), Processes: sanitize.Lines(rc.Processes), Line: f.Line(path)}
	if rc.Type != "" {
		c.Kind = sanitize.Line(rc.Type)
	}
	if c.Kind == "" {
		// Top-level checks without a type: an http check has a path.
		c.Kind = "tcp"
		if rc.Path != "" {
			c.Kind = "http"
		}
	}
	var errs []error
	var ok bool
	if c.Interval, ok = parseTomlDuration(rc.Interval); !ok {
		errs = append(errs, f.fieldError(path+".interval", `expected a duration like "15s" for interval, got %s`, tomlLiteral(rc.Interval)))
	}
	if c.Timeout, ok = parseTomlDuration(rc.Timeout); !ok {
		errs = append(errs, f.fieldError(path+".timeout", `expected a duration like "2s" for timeout, got %s`, tomlLiteral(rc.Timeout)))
	}
	return c, errs
}

func (f *FlyToml) vmMemory(vm rawVM, i int) (int, error) {
	if vm.MemoryMB < 0 {
		return 0, f.fieldError(fmt.Sprintf("vm.%d.memory_mb", i), "expected memory_mb of 0 or more, got %d", vm.MemoryMB)
	}
	if vm.Memory == nil {
		return vm.MemoryMB, nil
	}
	mb, ok := parseMemoryMB(vm.Memory)
	if !ok {
		return 0, f.fieldError(fmt.Sprintf("vm.%d.memory", i), `expected a memory size like "1gb" or "512mb" for memory, got %s`, tomlLiteral(vm.Memory))
	}
	return mb, nil
}

// parseAutoStop accepts the documented forms; nil means the key is absent.
func parseAutoStop(v any) (AutoStop, bool) {
	switch x := v.(type) {
	case nil:
		return AutoStopUnset, true
	case bool:
		if x {
			return AutoStopStop, true
		}
		return AutoStopOff, true
	case string:
		switch AutoStop(strings.ToLower(x)) {
		case AutoStopOff:
			return AutoStopOff, true
		case AutoStopStop:
			return AutoStopStop, true
		case AutoStopSuspend:
			return AutoStopSuspend, true
		}
	}
	return AutoStopUnset, false
}

// parseTomlDuration reads "15s"-style strings; flyctl also takes plain
// integers, which it reads as milliseconds.
func parseTomlDuration(v any) (time.Duration, bool) {
	switch x := v.(type) {
	case nil:
		return 0, true
	case int64:
		if x < 0 {
			return 0, false
		}
		return time.Duration(x) * time.Millisecond, true
	case string:
		d, err := time.ParseDuration(strings.TrimSpace(x))
		if err != nil || d < 0 {
			return 0, false
		}
		return d, true
	}
	return 0, false
}

// parseMemoryMB reads "1gb", "512mb", "2GB", "1024" (MB) or an integer (MB).
func parseMemoryMB(v any) (int, bool) {
	switch x := v.(type) {
	case int64:
		if x <= 0 || x > 1<<24 {
			return 0, false
		}
		return int(x), true
	case string:
		s := strings.ToLower(strings.TrimSpace(x))
		mult := 1
		switch {
		case strings.HasSuffix(s, "gb"):
			mult, s = 1024, strings.TrimSuffix(s, "gb")
		case strings.HasSuffix(s, "mb"):
			s = strings.TrimSuffix(s, "mb")
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 || n > 1<<24/mult {
			return 0, false
		}
		return n * mult, true
	}
	return 0, false
}

// tomlLiteral shows a decoded value the way it was probably written.
func tomlLiteral(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case nil:
		return "nothing"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	default:
		return fmt.Sprint(x)
	}
}

// decodeError is TOMLError for fly.toml.
func decodeError(err error) error { return textfile.TOMLError(FlyTomlFile, err) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
