package repo

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"
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
	Line               int // line of the block header
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
	Line     int
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

type rawFly struct {
	App           string       `toml:"app"`
	PrimaryRegion string       `toml:"primary_region"`
	SwapSizeMB    int          `toml:"swap_size_mb"`
	HTTPService   *rawService  `toml:"http_service"`
	Services      []rawService `toml:"services"`
	Deploy        struct {
		ReleaseCommand string `toml:"release_command"`
	} `toml:"deploy"`
	VM     []rawVM             `toml:"vm"`
	Checks map[string]rawCheck `toml:"checks"`
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
	Ports        []struct {
		Port int `toml:"port"`
	} `toml:"ports"`
}

type rawConcurrency struct {
	Type      string `toml:"type"`
	SoftLimit int    `toml:"soft_limit"`
	HardLimit int    `toml:"hard_limit"`
}

type rawCheck struct {
	Type     string `toml:"type"`
	Port     int    `toml:"port"`
	Path     string `toml:"path"`
	Interval any    `toml:"interval"`
	Timeout  any    `toml:"timeout"`
}

type rawVM struct {
	Memory   any `toml:"memory"`
	MemoryMB int `toml:"memory_mb"`
}

// ParseFlyToml decodes fly.toml. Any error is a *FileError with the line
// and what was expected; the result is then nil, because a half-read config
// would make the checklist judge values that are not what the user wrote.
func ParseFlyToml(data []byte) (*FlyToml, error) {
	var raw rawFly
	if err := toml.Unmarshal(data, &raw); err != nil {
		return nil, decodeError(err)
	}
	lines, err := keyLines(data)
	if err != nil {
		return nil, decodeError(err)
	}
	f := &FlyToml{
		App:            raw.App,
		PrimaryRegion:  raw.PrimaryRegion,
		SwapSizeMB:     raw.SwapSizeMB,
		ReleaseCommand: raw.Deploy.ReleaseCommand,
		lines:          lines,
	}
	var errs []error
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
		c.Name = name
		f.Checks = append(f.Checks, c)
	}
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return f, nil
}

func (f *FlyToml) fieldError(path, format string, args ...any) error {
	return &FileError{File: FlyTomlFile, Line: f.Line(path), Msg: fmt.Sprintf(format, args...)}
}

func (f *FlyToml) service(rs rawService, kind string, index int) (Service, []error) {
	s := Service{Kind: kind, Index: index, InternalPort: rs.InternalPort, AutoStart: rs.AutoStart, MinMachinesRunning: rs.MinRunning}
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
		s.Concurrency = &Concurrency{Type: c.Type, SoftLimit: c.SoftLimit, HardLimit: c.HardLimit, Line: f.Line(p + ".concurrency")}
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
	c := Check{Kind: kind, Port: rc.Port, Path: rc.Path, Line: f.Line(path)}
	if rc.Type != "" {
		c.Kind = rc.Type
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

// decodeError turns a go-toml error into a FileError with its line and a
// sentence saying what was expected.
func decodeError(err error) error {
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &FileError{File: FlyTomlFile, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	line, _ := de.Position()
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	key := strings.Join(de.Key(), ".")
	if got, want, ok := typeMismatch(msg); ok {
		msg = "expected " + want
		if key != "" {
			msg += " for " + key
		}
		msg += ", got " + article(got) + " " + got
	} else {
		msg = syntaxHint(msg)
		if key != "" && !strings.Contains(msg, key) {
			msg = fmt.Sprintf("%s (at %s)", msg, key)
		}
	}
	return &FileError{File: FlyTomlFile, Line: line, Msg: msg}
}

// syntaxHint rewords go-toml messages that do not say what was expected.
func syntaxHint(msg string) string {
	switch {
	case strings.Contains(msg, "strings cannot have new lines"):
		return "unterminated string: expected a closing quote before the end of the line"
	case strings.HasPrefix(msg, "unexpected character") && strings.Contains(msg, "at start of value"):
		return "expected a value after '=', " + strings.TrimSuffix(msg, " at start of value")
	case msg == "array is incomplete":
		return "expected ']' to close the array"
	case msg == "inline table is incomplete":
		return "expected '}' to close the inline table"
	}
	return msg
}

// typeMismatch reads go-toml's "cannot decode TOML string into struct field
// repo.rawService.InternalPort of type int".
func typeMismatch(msg string) (got, want string, ok bool) {
	const prefix = "cannot decode TOML "
	if !strings.HasPrefix(msg, prefix) {
		return "", "", false
	}
	got, target, found := strings.Cut(strings.TrimPrefix(msg, prefix), " into ")
	if !found {
		return "", "", false
	}
	if _, t, ok := strings.Cut(target, " of type "); ok {
		target = t
	}
	target = strings.TrimPrefix(strings.TrimSpace(target), "*")
	switch {
	case strings.HasPrefix(target, "int") || strings.HasPrefix(target, "uint"):
		want = "an integer"
	case target == "bool":
		want = "a boolean"
	case target == "string":
		want = "a string"
	case strings.HasPrefix(target, "[]"):
		want = "an array of tables"
	case strings.HasPrefix(target, "map["), strings.HasPrefix(target, "repo."), strings.HasPrefix(target, "struct"):
		want = "a table"
	default:
		want = "a " + target
	}
	return got, want, true
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
