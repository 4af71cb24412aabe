package fly

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/textfile"
)

// DiscoverApp picks the app: the -a flag, then FLY_APP, then `app = "..."`
// in dir/fly.toml. source says which one won. Nothing found → ErrNoApp; a
// malformed fly.toml → an error naming its line.
func DiscoverApp(flag string, env func(string) string, dir string) (app, source string, err error) {
	app, source, err = discoverApp(flag, env, dir)
	if err == nil && sanitize.Line(app) != app {
		// It would reach the screen (the header names the app) and no Fly
		// app name has control characters.
		return "", "", fmt.Errorf("app %q from %s is not a valid app name — pass -a APP", app, source)
	}
	return app, source, err
}

func discoverApp(flag string, env func(string) string, dir string) (app, source string, err error) {
	if v := strings.TrimSpace(flag); v != "" {
		return v, "-a flag", nil
	}
	if v := strings.TrimSpace(env("FLY_APP")); v != "" {
		return v, "FLY_APP", nil
	}
	// Read as the checklist reads the project (sources/repo): inside dir,
	// without blocking on a FIFO; a dangling link is an error, not "no
	// fly.toml".
	path := filepath.Join(dir, repo.FlyTomlFile)
	b, err := textfile.ReadFile(dir, repo.FlyTomlFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", ErrNoApp{Dir: dir}
	}
	var fe *textfile.FileError
	if errors.As(err, &fe) {
		return "", "", fmt.Errorf("reading %s: %s — fix it or pass -a APP", sanitize.Line(path), fe.Msg)
	}
	if err != nil {
		return "", "", fmt.Errorf("reading %s: %w", sanitize.Line(path), err)
	}
	name, err := appFromFlyToml(b)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", path, err)
	}
	if name == "" {
		return "", "", ErrNoApp{Dir: dir}
	}
	return name, "fly.toml", nil
}

// appFromFlyToml reads the top-level app key of a fly.toml.
func appFromFlyToml(b []byte) (string, error) {
	var doc struct {
		App any `toml:"app"`
	}
	if err := toml.Unmarshal(b, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return "", fmt.Errorf("line %d, column %d: %s — fix fly.toml or pass -a APP", row, col, sanitize.Line(de.Error()))
		}
		return "", fmt.Errorf("not valid TOML: %s — fix fly.toml or pass -a APP", sanitize.Line(err.Error()))
	}
	switch v := doc.App.(type) {
	case nil:
		return "", nil
	case string:
		return strings.TrimSpace(v), nil
	default:
		return "", fmt.Errorf("line %d: app must be a string, e.g. app = \"my-app\" — fix fly.toml or pass -a APP", appKeyLine(b))
	}
}

// appKeyLine finds the line of the top-level app key, for error messages.
func appKeyLine(b []byte) int {
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			break // past the top-level table
		}
		if key, _, ok := strings.Cut(line, "="); ok && strings.Trim(strings.TrimSpace(key), `"'`) == "app" {
			return i + 1
		}
	}
	return 0
}
