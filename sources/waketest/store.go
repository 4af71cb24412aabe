package waketest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/sanitize"
)

// StateDir is where results are kept: $XDG_STATE_HOME/flywake/wake (an
// absolute path, as the XDG spec requires), else ~/.local/state/flywake/wake.
// Pure: pass os.Getenv and the home directory.
func StateDir(getenv func(string) string, home string) string {
	if x := strings.TrimSpace(getenv("XDG_STATE_HOME")); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "flywake", "wake")
	}
	return filepath.Join(home, ".local", "state", "flywake", "wake")
}

// UserStateDir is StateDir for this process. Without a usable
// XDG_STATE_HOME it needs the home directory, and says so when there is none.
func UserStateDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		if dir := StateDir(os.Getenv, ""); filepath.IsAbs(dir) {
			return dir, nil
		}
		return "", fmt.Errorf("no directory for wake test results: set XDG_STATE_HOME or HOME (%w)", err)
	}
	return StateDir(os.Getenv, home), nil
}

// Encode renders the report as indented JSON with every secret the setup
// named redacted (sanitize.Redact), whatever field it might have slipped into.
func (r *Report) Encode() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	s := sanitize.Redact(string(b), r.secrets...)
	return []byte(s + "\n"), nil
}

// Save writes the report to dir as <app>-<UTC time>.json (created 0700, the
// file 0600) and returns the path. now, the wall clock, is the report's
// SavedAt and names the file: one time for the saved test everywhere.
func (r *Report) Save(dir string, now time.Time) (string, error) {
	r.SavedAt = now.UTC()
	b, err := r.Encode()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("saving the wake test: %w", err)
	}
	base := safeName(r.App) + "-" + r.SavedAt.Format(stampLayout)
	path := filepath.Join(dir, base+".json")
	for i := 2; fileExists(path); i++ {
		path = filepath.Join(dir, fmt.Sprintf("%s-%d.json", base, i))
	}
	if err := writeFile(path, b); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is a temporary file's: the directory is named instead
		}
		return "", fmt.Errorf("saving the wake test in %s: %w; nothing was written (earlier results are kept)", dir, err)
	}
	return path, nil
}

// writeFile writes data to path all or nothing: into a temporary file in
// path's directory, synced, then renamed to path, so a full disk or a crash
// leaves the whole file or none (os.WriteFile left a 0-byte result that
// LoadLast then took for the newest). The file is 0600, as os.CreateTemp
// makes it.
func writeFile(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil { // the rename itself outlives a crash
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// LoadLast reads the newest saved report of app in dir; (nil, "", nil) when
// there is none.
func LoadLast(dir, app string) (*Report, string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	prefix := safeName(app) + "-"
	var names []string
	for _, e := range entries {
		n := e.Name()
		rest := strings.TrimPrefix(n, prefix)
		// The time must follow the prefix directly, so "api" never picks up
		// "api-v2"'s results.
		if e.Type().IsRegular() && strings.HasPrefix(n, prefix) && strings.HasSuffix(n, ".json") &&
			len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, "", nil
	}
	sort.Slice(names, func(i, j int) bool { return stamp(names[i]) > stamp(names[j]) })
	path := filepath.Join(dir, names[0])
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	sanitize.All(&rep)        // a saved file is outside text too
	if rep.SavedAt.IsZero() { // saved before saved_at existed: its name says when
		if t, _ := stampTime(names[0]); t != "" {
			rep.SavedAt, _ = time.Parse(stampLayout, t)
		}
	}
	return &rep, path, nil
}

// stampLayout is the time in a saved result's file name.
const stampLayout = "20060102T150405.000Z"

// stampTime is the time in a saved result's file name (stampLayout) and
// what follows it (the -N suffix); "" when the name has none.
func stampTime(name string) (at, suffix string) {
	name = strings.TrimSuffix(name, ".json")
	i := strings.LastIndex(name, "Z")
	if i < 0 {
		return "", ""
	}
	j := strings.LastIndexByte(name[:i], '-')
	return name[j+1 : i+1], name[i+1:]
}

// stamp orders file names by time, then by the -N suffix.
func stamp(name string) string {
	at, suffix := stampTime(name)
	if at == "" {
		return strings.TrimSuffix(name, ".json")
	}
	return at + fmt.Sprintf("%08s", strings.TrimPrefix(suffix, "-"))
}

func safeName(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			b.WriteRune(c)
		} else {
			b.WriteRune('_')
		}
	}
	if b.Len() == 0 {
		return "app"
	}
	return b.String()
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
