package repo

import (
	"path"
	"regexp"
	"strings"
)

// WorkKind names a kind of release work found in a boot script.
type WorkKind string

const (
	WorkMigrations WorkKind = "migrations"
	WorkStatic     WorkKind = "static-file collection"
	WorkWarmup     WorkKind = "cache warm-up"
	WorkIndex      WorkKind = "index build"
)

// ReleaseWork is one command in a boot path that belongs to a release.
type ReleaseWork struct {
	Kind       WorkKind
	Command    string // the line as written
	File       string // "entrypoint.sh", or "Dockerfile" for an inline CMD
	Line       int
	Background bool // ends with "&": it competes with the server for the CPU
	Gated      bool // a release gate decides whether it runs
}

// Source is "file:line".
func (w ReleaseWork) Source() string { return Source(w.File, w.Line) }

// Marker is a notable line in a script.
type Marker struct {
	Text string
	Line int
}

// Script is what a boot script (or an inline ENTRYPOINT/CMD) does before
// the server starts.
type Script struct {
	File   string
	Work   []ReleaseWork
	Gate   *Marker // first line that consults a release gate
	Exec   *Marker // the `exec <server>` that replaces the shell
	Server string  // first word after exec, e.g. "granian" or "$@"
}

var workPatterns = []struct {
	kind WorkKind
	re   *regexp.Regexp
}{
	{WorkMigrations, regexp.MustCompile(`manage\.py\s+migrate\b|django-admin\s+migrate\b|alembic\b.*\bupgrade\b|\b(rails|rake)\s+db:(migrate|prepare)\b|prisma\s+migrate\s+deploy\b|flask\s+db\s+upgrade\b`)},
	{WorkStatic, regexp.MustCompile(`\bcollectstatic\b|\bassets:precompile\b`)},
	{WorkIndex, regexp.MustCompile(`\b(re-?index|rebuild_index|update_index|build_index|search_index\s+--rebuild)\b`)},
	{WorkWarmup, regexp.MustCompile(`\b(warm[_-]?up|warm[_-]cache|cache[:_-]warm(up)?)\b`)},
}

var (
	gateRe     = regexp.MustCompile(`(?i)release[ _-]?gate|FLY_IMAGE_REF|FLY_MACHINE_VERSION`)
	funcOpenRe = regexp.MustCompile(`^(function\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*\(\)\s*\{?\s*$|^function\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{?\s*$`)
)

// AnalyzeScript scans a shell script for release work run before the
// server, a release gate around it and the final exec. Work inside a
// function counts as gated when the function is called at or after the gate.
func AnalyzeScript(file string, data []byte) Script {
	raw := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	// Join "\" continuations; each logical line keeps its first line number.
	var lines []string
	var starts []int
	for i := 0; i < len(raw); i++ {
		start := i
		text := raw[i]
		for strings.HasSuffix(text, "\\") && i+1 < len(raw) {
			i++
			text = strings.TrimRight(strings.TrimSuffix(text, "\\"), " \t") + " " + strings.TrimSpace(raw[i])
		}
		lines = append(lines, strings.TrimSuffix(text, "\\"))
		starts = append(starts, start+1)
	}
	return analyzeLines(file, lines, func(i int) int { return starts[i] })
}

// analyzeLines does the work for scripts and inline commands; lineOf maps
// a slice index to the line number to report.
func analyzeLines(file string, lines []string, lineOf func(int) int) Script {
	s := Script{File: file}
	type found struct {
		work ReleaseWork
		fn   string
	}
	var works []found
	calls := map[string][]int{} // function name -> lines that call it
	var funcs []string
	fn := ""
	for i, raw := range lines {
		text := strings.TrimSpace(raw)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		line := lineOf(i)
		if m := funcOpenRe.FindStringSubmatch(text); m != nil {
			fn = m[2] + m[3]
			funcs = append(funcs, fn)
			continue
		}
		if fn != "" && (text == "}" || strings.HasPrefix(text, "} ")) {
			fn = ""
			continue
		}
		for _, f := range funcs {
			if f != fn && containsWord(text, f) {
				calls[f] = append(calls[f], line)
			}
		}
		if isMessage(text) {
			continue
		}
		if s.Gate == nil && gateRe.MatchString(text) {
			s.Gate = &Marker{Text: text, Line: line}
		}
		if fn == "" && (text == "exec" || strings.HasPrefix(text, "exec ")) {
			s.Exec = &Marker{Text: text, Line: line}
			s.Server = serverName(strings.TrimSpace(strings.TrimPrefix(text, "exec")))
			break // nothing after exec runs
		}
		for _, p := range workPatterns {
			if p.re.MatchString(text) {
				works = append(works, found{fn: fn, work: ReleaseWork{
					Kind: p.kind, Command: text, File: file, Line: line,
					Background: strings.HasSuffix(text, "&") && !strings.HasSuffix(text, "&&"),
				}})
				break
			}
		}
	}
	for _, f := range works {
		w := f.work
		if s.Gate != nil {
			if f.fn == "" {
				w.Gated = w.Line >= s.Gate.Line
			} else {
				for _, at := range calls[f.fn] {
					w.Gated = w.Gated || at >= s.Gate.Line
				}
			}
		}
		if f.fn != "" && len(calls[f.fn]) == 0 {
			continue // a function nobody calls does not run at boot
		}
		s.Work = append(s.Work, w)
	}
	return s
}

// AnalyzeCommand treats an inline ENTRYPOINT/CMD as a one-line script:
// `sh -c "python manage.py migrate && exec gunicorn"` does release work too.
func AnalyzeCommand(file string, c *Command) Script {
	if c == nil {
		return Script{File: file}
	}
	text := c.Text
	if c.Exec {
		args := c.Args
		if len(args) >= 3 && isShell(args[0]) && args[1] == "-c" {
			text = args[2]
		} else {
			text = strings.Join(args, " ")
		}
	}
	parts := splitCommands(text)
	s := analyzeLines(file, parts, func(int) int { return c.Line })
	if s.Exec == nil && len(parts) > 0 && c.Exec && !isShell(firstWord(parts[len(parts)-1])) {
		// The exec form replaces PID 1 without a shell: it is its own exec.
		s.Exec = &Marker{Text: parts[len(parts)-1], Line: c.Line}
		s.Server = serverName(parts[len(parts)-1])
	}
	return s
}

// ScriptCandidates lists project-relative paths where the files an
// ENTRYPOINT/CMD runs may live: "/app/entrypoint.sh" is looked for as
// app/entrypoint.sh, entrypoint.sh, bin/entrypoint.sh and scripts/entrypoint.sh.
func ScriptCandidates(c *Command) [][]string {
	if c == nil {
		return nil
	}
	var out [][]string
	for _, arg := range c.Args {
		for _, word := range strings.Fields(arg) {
			if !looksLikeScript(word) {
				continue
			}
			out = append(out, pathCandidates(word))
		}
	}
	return out
}

func looksLikeScript(word string) bool {
	word = strings.Trim(word, `"';&|`)
	if word == "" || strings.HasPrefix(word, "-") || strings.Contains(word, "$") || strings.Contains(word, "=") {
		return false
	}
	for _, sys := range []string{"/bin/", "/usr/", "/sbin/", "/etc/", "/proc/", "/dev/"} {
		if strings.HasPrefix(word, sys) {
			return false
		}
	}
	ext := path.Ext(word)
	return ext == ".sh" || ext == ".bash" || strings.Contains(path.Base(word), "entrypoint") ||
		strings.HasPrefix(word, "./") || strings.HasPrefix(word, "bin/") || strings.HasPrefix(word, "scripts/")
}

func pathCandidates(word string) []string {
	word = strings.Trim(word, `"';&|`)
	clean := strings.TrimPrefix(path.Clean("/"+word), "/")
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if p != "" && p != "." && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	parts := strings.Split(clean, "/")
	for i := range parts {
		add(strings.Join(parts[i:], "/"))
	}
	base := path.Base(clean)
	add("bin/" + base)
	add("scripts/" + base)
	return out
}

func splitCommands(text string) []string {
	text = strings.NewReplacer("&&", "\n", "||", "\n", ";", "\n").Replace(text)
	var out []string
	for _, p := range strings.Split(text, "\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// serverName is the program an exec line starts, skipping VAR=x prefixes
// and "python -m".
func serverName(cmd string) string {
	words := shellWords(cmd)
	for len(words) > 0 && (strings.Contains(words[0], "=") || words[0] == "env") {
		words = words[1:]
	}
	if len(words) >= 3 && strings.HasPrefix(path.Base(words[0]), "python") && words[1] == "-m" {
		return words[2]
	}
	if len(words) == 0 {
		return ""
	}
	return path.Base(words[0])
}

func isShell(word string) bool {
	switch path.Base(word) {
	case "sh", "bash", "dash", "ash", "zsh":
		return true
	}
	return false
}

// isMessage skips lines that only print, so `echo "running migrate"` is not
// mistaken for the work itself.
func isMessage(text string) bool {
	switch firstWord(text) {
	case "echo", "printf", ":", "log", "logger":
		return true
	}
	return false
}

func firstWord(text string) string {
	w, _, _ := strings.Cut(strings.TrimSpace(text), " ")
	return w
}

func containsWord(text, word string) bool {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if w == word {
			return true
		}
	}
	return false
}
