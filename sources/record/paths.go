package record

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DefaultPath is where `flywake record` writes without --db:
// $XDG_STATE_HOME/flywake/record.db (an absolute path, as the XDG spec
// requires), else ~/.local/state/flywake/record.db. Pure: pass os.Getenv
// and the home directory.
func DefaultPath(getenv func(string) string, home string) string {
	if x := strings.TrimSpace(getenv("XDG_STATE_HOME")); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "flywake", "record.db")
	}
	return filepath.Join(home, ".local", "state", "flywake", "record.db")
}

// DemoPath is where the demo's recorded day is kept once made: the user's
// cache directory (it can always be made again).
func DemoPath(seed uint64) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the demo's recording: set XDG_CACHE_HOME or HOME (%w)", err)
	}
	return filepath.Join(dir, "flywake", fmt.Sprintf("demo-day-seed%d-v%d.db", seed, SchemaVersion)), nil
}
