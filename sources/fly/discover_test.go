package fly

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDiscoverToken(t *testing.T) {
	tests := []struct {
		name       string
		env        map[string]string
		configYML  string // "" = no file
		wantToken  string
		wantSource string
		wantErr    error
	}{
		{"access token wins", map[string]string{"FLY_ACCESS_TOKEN": "a1", "FLY_API_TOKEN": "b2"}, "access_token: c3\n", "a1", "FLY_ACCESS_TOKEN", nil},
		{"api token next", map[string]string{"FLY_API_TOKEN": " b2 "}, "access_token: c3\n", "b2", "FLY_API_TOKEN", nil},
		{"config file last", nil, "access_token: c3\nlast_login: 2026-01-01\n", "c3", "~/.fly/config.yml", nil},
		{"quoted token in config", nil, "access_token: \"FlyV1 fm2_x,fm2_y\"\n", "FlyV1 fm2_x,fm2_y", "~/.fly/config.yml", nil},
		{"config without token", nil, "wire_guard_state: {}\n", "", "", ErrNoToken{}},
		{"nothing anywhere", nil, "", "", "", ErrNoToken{}},
		{"blank env is ignored", map[string]string{"FLY_ACCESS_TOKEN": "  "}, "", "", "", ErrNoToken{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			if tt.configYML != "" {
				if err := os.MkdirAll(filepath.Join(home, ".fly"), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(home, ".fly", "config.yml"), []byte(tt.configYML), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			tok, src, err := DiscoverToken(envOf(tt.env), home)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %T", err, tt.wantErr)
				}
				return
			}
			if err != nil || tok != tt.wantToken || src != tt.wantSource {
				t.Errorf("got %q from %q (%v), want %q from %q", tok, src, err, tt.wantToken, tt.wantSource)
			}
		})
	}
}

func TestNoTokenMessageSaysHowToLogIn(t *testing.T) {
	_, _, err := DiscoverToken(envOf(nil), t.TempDir())
	for _, want := range []string{"fly auth login", "FLY_API_TOKEN", "fly tokens create readonly", "flywake --demo"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ErrNoToken message %q lacks %q", err, want)
		}
	}
}

func TestMalformedConfigYMLDoesNotEchoIt(t *testing.T) {
	home := t.TempDir()
	_ = os.MkdirAll(filepath.Join(home, ".fly"), 0o700)
	_ = os.WriteFile(filepath.Join(home, ".fly", "config.yml"), []byte("access_token: [fo1_secretvalue\n"), 0o600)
	_, _, err := DiscoverToken(envOf(nil), home)
	if err == nil || strings.Contains(err.Error(), "fo1_secretvalue") {
		t.Fatalf("err = %v; want an error that does not quote the file", err)
	}
}

func TestDiscoverApp(t *testing.T) {
	tests := []struct {
		name       string
		flag       string
		env        map[string]string
		flyToml    string // "" = no file
		wantApp    string
		wantSource string
		wantErrIn  string
		wantErr    error
	}{
		{"flag wins", "from-flag", map[string]string{"FLY_APP": "from-env"}, `app = "from-toml"`, "from-flag", "-a flag", "", nil},
		{"env next", "", map[string]string{"FLY_APP": "from-env"}, `app = "from-toml"`, "from-env", "FLY_APP", "", nil},
		{"fly.toml last", "", nil, "# my app\napp = 'from-toml'\nprimary_region = \"ams\"\n\n[http_service]\n  auto_stop_machines = \"suspend\"\n",
			"from-toml", "fly.toml", "", nil},
		{"fly.toml without app", "", nil, "primary_region = \"ams\"\n", "", "", "", ErrNoApp{}},
		{"no fly.toml", "", nil, "", "", "", "", ErrNoApp{}},
		{"malformed fly.toml names the line", "", nil, "app = \"x\"\nprimary_region = \"ams\"\n[http_service\n", "", "", "line 3", nil},
		{"app of the wrong type", "", nil, "# c\napp = 3\n", "", "", "line 2: app must be a string", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.flyToml != "" {
				if err := os.WriteFile(filepath.Join(dir, "fly.toml"), []byte(tt.flyToml), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			app, src, err := DiscoverApp(tt.flag, envOf(tt.env), dir)
			switch {
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %T", err, tt.wantErr)
				}
			case tt.wantErrIn != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErrIn)
				}
			default:
				if err != nil || app != tt.wantApp || src != tt.wantSource {
					t.Errorf("got %q from %q (%v), want %q from %q", app, src, err, tt.wantApp, tt.wantSource)
				}
			}
		})
	}
}

// An app name with control characters (a hostile fly.toml: "\u001b" in a
// TOML string is ESC) would reach the header raw: it is refused, quoted.
func TestDiscoverAppRefusesControlCharacters(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fly.toml"), []byte("app = \"x\\u001b]0;pwned\\u0007\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := DiscoverApp("", envOf(nil), dir)
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") || !strings.Contains(err.Error(), "is not a valid app name") {
		t.Fatalf("DiscoverApp = %v", err)
	}
	if app, _, err := DiscoverApp("my-app", envOf(nil), dir); err != nil || app != "my-app" {
		t.Fatalf("a plain -a: %q, %v", app, err)
	}
}

// fly.toml is read as the checklist reads the project: a link out of the
// directory or to nothing is an error saying so (never "no app"), a FIFO
// does not hang, and a directory that does not exist has no fly.toml.
func TestDiscoverAppReadsFlyTomlInsideDir(t *testing.T) {
	for target, want := range map[string]string{
		"/proc/self/environ":  "outside the project directory",
		"fly.production.toml": "which does not exist",
		"FIFO":                "named pipe",
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "fly.toml")
		var err error
		if target == "FIFO" {
			err = syscall.Mkfifo(path, 0o644)
		} else {
			err = os.Symlink(target, path)
		}
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, _, err = DiscoverApp("", envOf(nil), dir)
		if errors.Is(err, ErrNoApp{}) || err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("fly.toml → %s: %v, want an error saying %q", target, err, want)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("fly.toml → %s: took %s", target, took)
		}
	}
	if _, _, err := DiscoverApp("", envOf(nil), filepath.Join(t.TempDir(), "gone")); !errors.Is(err, ErrNoApp{}) {
		t.Errorf("a directory that does not exist: %v, want ErrNoApp", err)
	}
}
