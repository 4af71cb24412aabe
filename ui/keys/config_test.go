package keys

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"

	"github.com/flywake/flywake/sources/textfile"
	"github.com/flywake/flywake/ui/uitest"
)

const file = "/home/u/.config/flywake/keys.toml"

func matches(b key.Binding, name string) bool { return key.Matches(uitest.Key(name), b) }

// A rebound key acts and the old one does not; the help shows the new keys;
// an action the file does not name keeps its own.
func TestRebind(t *testing.T) {
	k := Default()
	err := k.Rebind([]byte(`# my keys
stop = "X"
down = ["down", "ctrl+n"]
log_follow = "space"
quit = "Q"
`), file)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name     string
		b        key.Binding
		acts     []string
		doesNot  []string
		helpKey  string
		helpDesc string
	}{
		{"stop", k.Stop, []string{"X"}, []string{"S"}, "X", "stop machine"},
		{"down", k.Down, []string{"down", "ctrl+n"}, []string{"j"}, "↓/ctrl+n", "down"},
		{"log_follow", k.LogFollow, []string{" "}, []string{"space"}, "space", "follow/pause"},
		{"quit", k.Quit, []string{"Q"}, []string{"q", "ctrl+c"}, "Q", "quit"},
		{"suspend, not in the file", k.Suspend, []string{"Z"}, nil, "Z", "suspend machine"},
	}
	for _, c := range checks {
		for _, n := range c.acts {
			if !matches(c.b, n) {
				t.Errorf("%s: %q does not act", c.name, n)
			}
		}
		for _, n := range c.doesNot {
			if matches(c.b, n) {
				t.Errorf("%s: the old key %q still acts", c.name, n)
			}
		}
		if h := c.b.Help(); h.Key != c.helpKey || h.Desc != c.helpDesc {
			t.Errorf("%s: help %q %q, want %q %q", c.name, h.Key, h.Desc, c.helpKey, c.helpDesc)
		}
	}
	// ctrl+c is the interrupt's whatever quit is bound to.
	if !matches(k.Interrupt, "ctrl+c") {
		t.Error("ctrl+c no longer interrupts")
	}
	if !inFullHelp(k, k.Stop) || !strings.Contains(helpText(k), "X stop machine") {
		t.Errorf("the help does not show the rebound stop:\n%s", helpText(k))
	}
}

func helpText(k KeyMap) string {
	var b strings.Builder
	for _, g := range k.FullHelp() {
		for _, h := range g {
			b.WriteString(h.Help().Key + " " + h.Help().Desc + "\n")
		}
	}
	return b.String()
}

// --readonly removes the dangerous actions whatever the file binds them to.
func TestReadOnlyAfterRebind(t *testing.T) {
	k := Default()
	if err := k.Rebind([]byte("stop = \"X\"\nwake_test = [\"W\", \"ctrl+w\"]\n"), file); err != nil {
		t.Fatal(err)
	}
	k.ReadOnly()
	for _, n := range []string{"X", "S", "W", "ctrl+w", "w"} {
		for _, d := range k.Dangerous() {
			if matches(d, n) {
				t.Errorf("read-only: %q still acts as %s", n, d.Help().Desc)
			}
		}
	}
	if strings.Contains(helpText(k), "stop machine") || strings.Contains(helpText(k), "wake test\n") {
		t.Errorf("read-only help lists a dangerous action:\n%s", helpText(k))
	}
}

// Each malformed file is refused with the line of every problem, and
// nothing of it is applied.
func TestRebindRefusesMalformedFiles(t *testing.T) {
	tests := []struct {
		name string
		file string
		want []string // each error line, in order
	}{
		{"a TOML syntax error", "stop = \"X\"\nzoom = \"F\n", []string{
			file + ":2: unterminated string: expected a closing quote before the end of the line"}},
		{"an unknown action, with the nearest", "stp = \"X\"\n", []string{
			file + `:1: unknown action "stp" — did you mean stop?`}},
		{"an unknown action far from any", "\n\nteleport = \"T\"\n", []string{
			file + `:3: unknown action "teleport" (the actions are listed in the README, "Keys can be rebound")`}},
		{"a key bubbletea cannot deliver", "zoom = \"ctrl+shift+f\"\n", []string{
			file + `:1: zoom: "ctrl+shift+f" is not a key: write one character`}},
		{"ctrl+i is tab", "zoom = [\"F\", \"ctrl+i\"]\n", []string{
			file + `:1: zoom: "ctrl+i" is not a key`}},
		{"a word is not a key", "zoom = \"zoom\"\n", []string{file + `:1: zoom: "zoom" is not a key`}},
		{"a number", "zoom = 5\n", []string{
			file + `:1: zoom: expected a key name or a list of them, like "x" or ["x", "ctrl+x"], got 5 (a number)`}},
		{"a list of numbers", "zoom = [1, 2]\n", []string{
			file + `:1: zoom: expected a key name or a list of them, like "x" or ["x", "ctrl+x"], got a list holding something else than key names`}},
		{"no key", "zoom = []\n", []string{
			file + ":1: zoom: no key given; an action needs one (delete the line to keep its default keys)"}},
		{"a section", "[keys]\nstop = \"X\"\n", []string{
			file + `:1: "keys" is a table: the key file has no sections or dotted names, only lines of action = "key"`}},
		{"a dotted name", "keys.stop = \"X\"\n", []string{file + `:1: "keys" is a table`}},
		{"the same action twice", "stop = \"X\"\nstop = \"Y\"\n", []string{file + ":2: "}},
		{"two actions of one place on one key, both in the file", "zoom = \"F\"\nrefresh = \"F\"\n", []string{
			file + `:1: "F" is both refresh and zoom in the dashboard (refresh on line 2, zoom on line 1): bind one of them to another key`}},
		{"a key another action has by default", "\nlog_clear = \"M\"\n", []string{
			file + `:2: "M" is both log_clear and log_machine in the logs view (log_clear on line 2, log_machine by default): bind one of them to another key`}},
		{"ctrl+c for anything but quit", "back = [\"esc\", \"ctrl+c\"]\n", []string{
			file + `:1: "ctrl+c" for back: ctrl+c always quits`}},
		{"a character that would end a text input", "back = \"b\"\n", []string{
			file + `:1: "b" for back: back also acts in a text input, where that key must type itself`}},
		{"a character that would move the switcher's highlight", "next_pane = \"=\"\n", []string{
			file + `:1: "=" for next_pane: next_pane also acts in a text input, where that key must type itself`}},
		{"every problem at once, by line", "zoom = \"F\"\nstp = \"X\"\nrefresh = \"F\"\nhelp = 3\nquit = \"ctrl+shift+q\"\nup = \"q\"\n", []string{
			file + `:1: "F" is both refresh and zoom in the dashboard (refresh on line 3, zoom on line 1)`,
			file + `:2: unknown action "stp"`, file + ":4: help: expected a key name",
			file + `:5: quit: "ctrl+shift+q" is not a key`}}, // up = "q" meets no quit known to the check
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := Default()
			err := k.Rebind([]byte(tt.file), file)
			if err == nil {
				t.Fatal("accepted")
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(tt.want) {
				t.Fatalf("%d problems, want %d:\n%s", len(got), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("problem %d:\n got %s\nwant %s…", i+1, got[i], w)
				}
			}
			if d := Default(); !sameBindings(&k, &d) {
				t.Error("a refused file changed the key map")
			}
		})
	}
}

func sameBindings(a, b *KeyMap) bool {
	bb := b.All()
	for name, x := range a.All() {
		y := bb[name]
		if !sameKeys(x.Keys(), y.Keys()) || x.Help() != y.Help() {
			return false
		}
	}
	return true
}

// Two places never read together may share a key.
func TestRebindAllowsOneKeyInTwoPlaces(t *testing.T) {
	k := Default()
	if err := k.Rebind([]byte("log_clear = \"s\"\n"), file); err != nil {
		t.Fatal(err)
	}
	if !matches(k.LogClear, "s") || !matches(k.Start, "s") {
		t.Error("s is not both log_clear (the logs view) and start (the dashboard)")
	}
}

func TestFile(t *testing.T) {
	env := func(vals map[string]string) func(string) string { return func(k string) string { return vals[k] } }
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/x/config"}, "/x/config/flywake/keys.toml"},
		{map[string]string{"XDG_CONFIG_HOME": "relative/config"}, "/home/u/.config/flywake/keys.toml"}, // the XDG spec: ignore a relative path
		{map[string]string{}, "/home/u/.config/flywake/keys.toml"},
	}
	for _, tt := range tests {
		if got := File(env(tt.env), "/home/u"); got != tt.want {
			t.Errorf("File(%v) = %s, want %s", tt.env, got, tt.want)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	k, err := Load(filepath.Join(dir, "none.toml"))
	if d := Default(); err != nil || !sameBindings(&k, &d) {
		t.Errorf("no file: %v, want the defaults and no error", err)
	}
	path := filepath.Join(dir, "keys.toml")
	if err := os.WriteFile(path, []byte("zoom = \"F\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if k, err = Load(path); err != nil || !matches(k.Zoom, "F") {
		t.Errorf("Load: %v, zoom %v", err, k.Zoom.Keys())
	}
	if err := os.WriteFile(path, []byte("zoom = \"F\nquit=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err = Load(path); err == nil || !strings.HasPrefix(err.Error(), path+":1: ") {
		t.Errorf("a malformed file: %v, want an error at %s:1", err, path)
	}
	if _, err = Load(dir); err == nil || !strings.Contains(err.Error(), "reading the key file") {
		t.Errorf("an unreadable file (a directory): %v", err)
	}
}

// A key file that is a FIFO used to hold the dashboard before its first
// frame, waiting for a writer: it is refused at once, naming what it is.
func TestLoadRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.toml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := Load(path)
	if took := time.Since(start); took >= textfile.Timeout {
		t.Errorf("Load took %s: the FIFO was waited on", took)
	}
	want := "reading the key file " + path + ": is a named pipe (FIFO), not a regular file; not read"
	if err == nil || err.Error() != want {
		t.Errorf("Load of a FIFO: %v, want %q", err, want)
	}
}

// The README's "Keys can be rebound" names every action and its example
// file is a good one.
func TestREADMEKeyFile(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "### Keys can be rebound")
	if !ok {
		t.Fatal(`README has no "Keys can be rebound"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	k := Default()
	for name := range k.All() {
		if !strings.Contains(section, "`"+name+"`") {
			t.Errorf("README does not list the action %s", name)
		}
	}
	_, example, ok := strings.Cut(section, "```toml\n")
	example, _, _ = strings.Cut(example, "```")
	if !ok || example == "" {
		t.Fatal("README has no example key file")
	}
	if err := k.Rebind([]byte(example), "README example"); err != nil {
		t.Errorf("the README's example is refused: %v", err)
	}
	if !matches(k.Stop, "X") || matches(k.Stop, "S") || matches(k.Down, "j") {
		t.Error("the README's example does not do what its comments say")
	}
}

// A key file linked from elsewhere (a dotfiles checkout) is read where the
// link leads; a link to nothing is an error, not the default keys.
func TestLoadFollowsALinkedKeyFile(t *testing.T) {
	dotfiles, config := t.TempDir(), t.TempDir()
	target := filepath.Join(dotfiles, "flywake-keys.toml")
	if err := os.WriteFile(target, []byte("zoom = \"F\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(config, "keys.toml")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if k, err := Load(path); err != nil || !matches(k.Zoom, "F") {
		t.Errorf("a linked key file: %v, zoom %v", err, k.Zoom.Keys())
	}
	dangling := filepath.Join(config, "dangling.toml")
	if err := os.Symlink("gone.toml", dangling); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dangling); err == nil || !strings.Contains(err.Error(), "gone.toml, which does not exist") {
		t.Errorf("a key file linked to nothing: %v, want the link named", err)
	}
	// Linked to nothing in a dotfiles checkout: where it leads is named,
	// not "outside the project directory" (a key file is in none).
	gone := filepath.Join(dotfiles, "gone.toml")
	away := filepath.Join(config, "away.toml")
	if err := os.Symlink(gone, away); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(away); err == nil || !strings.Contains(err.Error(), "gone.toml, which does not exist") ||
		strings.Contains(err.Error(), "project") {
		t.Errorf("a key file linked to nothing elsewhere: %v, want the link named", err)
	}
}
