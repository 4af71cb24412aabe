package waketest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/sanitize"
)

func TestStateDir(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/x/state"}, "/x/state/flywake/wake"},
		{map[string]string{"XDG_STATE_HOME": "relative"}, "/home/u/.local/state/flywake/wake"},
		{nil, "/home/u/.local/state/flywake/wake"},
	}
	for _, tt := range tests {
		if got := StateDir(env(tt.env), "/home/u"); got != tt.want {
			t.Errorf("StateDir(%v) = %s, want %s", tt.env, got, tt.want)
		}
	}
}

func TestSaveLoadLastAndScrub(t *testing.T) {
	dir := t.TempDir()
	const secret = "FlyV1 fm2_supersecrettoken"
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	mk := func(app, release string) *Report {
		return &Report{App: app, Release: release, Runs: []Run{}, secrets: []string{secret},
			Warnings: []string{"a warning that somehow quotes " + secret}}
	}
	for _, s := range []struct {
		r  *Report
		at time.Time
	}{
		{mk("api", "1"), t0},
		{mk("api", "3"), t0.Add(2 * time.Hour)},
		{mk("api", "2"), t0.Add(time.Hour)},
		{mk("api-v2", "9"), t0.Add(3 * time.Hour)},
		{mk("api", "4"), t0.Add(2 * time.Hour)}, // same instant: gets a -2 suffix, is newer
	} {
		path, err := s.r.Save(dir, s.at)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "supersecret") || !strings.Contains(string(b), sanitize.Redacted) {
			t.Errorf("%s holds the secret or was not scrubbed:\n%s", path, b)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", path, st.Mode().Perm())
		}
	}
	last, path, err := LoadLast(dir, "api")
	if err != nil {
		t.Fatal(err)
	}
	if last == nil || last.Release != "4" || filepath.Base(path) != "api-20260301T120000.000Z-2.json" {
		t.Fatalf("LoadLast = %+v from %s, want release 4", last, path)
	}
	if want := t0.Add(2 * time.Hour); !last.SavedAt.Equal(want) {
		t.Errorf("SavedAt %v, want %v: the time that names the file", last.SavedAt, want)
	}
	// A result saved before saved_at existed: its file's name says when.
	old := filepath.Join(dir, "old-20260301T090000.000Z-3.json")
	if err := os.WriteFile(old, []byte(`{"app":"old","started_at":"2026-12-01T07:44:00Z"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if r, _, err := LoadLast(dir, "old"); err != nil || !r.SavedAt.Equal(t0.Add(-time.Hour)) {
		t.Errorf("old result: SavedAt %v (%v), want 09:00 from its name, not its platform start", r.SavedAt, err)
	}
	if r, _, err := LoadLast(dir, "nope"); r != nil || err != nil {
		t.Errorf("LoadLast of an app with no results = %v, %v", r, err)
	}
	if r, _, err := LoadLast(filepath.Join(dir, "missing"), "api"); r != nil || err != nil {
		t.Errorf("LoadLast of a missing dir = %v, %v", r, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "api-20990101T000000.000Z.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadLast(dir, "api"); err == nil {
		t.Error("a corrupt newest file gave no error")
	}
}

func TestUserStateDir(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/x/state")
	t.Setenv("HOME", "")
	if dir, err := UserStateDir(); err != nil || dir != "/x/state/flywake/wake" {
		t.Errorf("XDG_STATE_HOME without HOME: %q, %v", dir, err)
	}
	t.Setenv("XDG_STATE_HOME", "")
	if dir, err := UserStateDir(); err == nil {
		t.Errorf("neither XDG_STATE_HOME nor HOME: %q, want an error", dir)
	}
	t.Setenv("HOME", "/home/u")
	if dir, err := UserStateDir(); err != nil || dir != "/home/u/.local/state/flywake/wake" {
		t.Errorf("HOME only: %q, %v", dir, err)
	}
}

// A saved test is named by its wall-clock save time, in UTC, by the
// dashboard and the headless command alike; one saved before saved_at
// existed, whose file name says nothing either, by "an unknown time".
func TestSavedWhen(t *testing.T) {
	cet := time.FixedZone("CET", 3600)
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{time.Date(2026, 11, 30, 8, 44, 59, 0, cet), "2026-11-30 07:44 UTC"},
		{time.Time{}, "an unknown time"},
	} {
		if got := (&Report{SavedAt: tc.at}).SavedWhen(); got != tc.want {
			t.Errorf("SavedWhen(%v) = %q, want %q", tc.at, got, tc.want)
		}
	}
}
