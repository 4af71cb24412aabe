package fly

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v2"
)

// TokenVariables are the environment variables flyctl takes a token from,
// in its order.
var TokenVariables = []string{"FLY_ACCESS_TOKEN", "FLY_API_TOKEN"}

// DiscoverToken finds a token the way flyctl does: FLY_ACCESS_TOKEN, then
// FLY_API_TOKEN, then access_token in ~/.fly/config.yml. source names where
// it came from (never the token). Nothing found → ErrNoToken.
func DiscoverToken(env func(string) string, home string) (token, source string, err error) {
	for _, name := range TokenVariables {
		if v := strings.TrimSpace(env(name)); v != "" {
			return v, name, nil
		}
	}
	path := filepath.Join(home, ".fly", "config.yml")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || home == "" {
		return "", "", ErrNoToken{ConfigPath: "~/.fly/config.yml"}
	}
	if err != nil {
		return "", "", fmt.Errorf("reading %s: %w", path, err)
	}
	var cfg struct {
		AccessToken string `yaml:"access_token"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		// yaml errors may quote the offending line, which could be the token
		return "", "", fmt.Errorf("%s is not valid YAML — fix it or run `fly auth login` again", path)
	}
	if t := strings.TrimSpace(cfg.AccessToken); t != "" {
		return t, "~/.fly/config.yml", nil
	}
	return "", "", ErrNoToken{ConfigPath: "~/.fly/config.yml"}
}
