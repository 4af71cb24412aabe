package textfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A file linked from another directory (a dotfiles checkout) is read where
// the link leads; a FIFO there is refused, not waited on; no file is
// fs.ErrNotExist.
func TestReadLinked(t *testing.T) {
	dotfiles, config := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dotfiles, "keys.toml"), []byte("zoom = \"F\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dotfiles, "keys.toml"), filepath.Join(config, "keys.toml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dotfiles, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dotfiles, "pipe"), filepath.Join(config, "pipe.toml")); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadLinked(filepath.Join(config, "keys.toml")); err != nil || string(b) != "zoom = \"F\"\n" {
		t.Errorf("a linked file: %q, %v", b, err)
	}
	var fe *FileError
	if _, err := ReadLinked(filepath.Join(config, "pipe.toml")); !errors.As(err, &fe) || !strings.Contains(fe.Msg, "named pipe") {
		t.Errorf("a link to a FIFO: %v, want a FileError saying it is a named pipe", err)
	}
	if _, err := ReadLinked(filepath.Join(config, "none.toml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no file: %v, want fs.ErrNotExist", err)
	}
}

func TestTOMLErrorSaysWhatWasExpected(t *testing.T) {
	for msg, want := range map[string]string{
		"cannot decode TOML string into struct field repo.rawService.InternalPort of type int":          "an integer",
		"cannot decode TOML integer into struct field repo.rawFly.HTTPService of type *repo.rawService": "a table",
		"cannot decode TOML string into struct field x.Y of type bool":                                  "a boolean",
	} {
		if _, got, ok := typeMismatch(msg); !ok || got != want {
			t.Errorf("typeMismatch(%q) = %q, %v; want %q", msg, got, ok, want)
		}
	}
}

func TestNearest(t *testing.T) {
	known := []string{"kill_timeout", "http_service", "services"}
	for word, want := range map[string]string{"kill_timout": "kill_timeout", "servics": "services", "zzz": "", strings.Repeat("a", 65): ""} {
		if got := Nearest(word, known); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", word, got, want)
		}
	}
}
