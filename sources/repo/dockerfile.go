package repo

import (
	"encoding/json"
	"strconv"
	"strings"
)

// DockerfileFile is the Dockerfile name Load looks for.
const DockerfileFile = "Dockerfile"

// Dockerfile is what the checklist needs from a Dockerfile. Entrypoint, Cmd
// and Env describe the final stage (a stage built FROM an earlier one
// inherits it); Runs cover every stage, since a builder stage may compile
// bytecode that a later COPY --from brings over.
type Dockerfile struct {
	BaseImages []string
	Entrypoint *Command
	Cmd        *Command
	Env        []EnvVar
	Runs       []Instruction
	// Python is true when the image looks like a Python one (a python base
	// image, pip/uv/poetry, a .py entry point, a Python app server).
	Python bool
}

// Command is an ENTRYPOINT or CMD.
type Command struct {
	Exec bool     // exec form: ["a", "b"]
	Args []string // exec-form args, or the shell-form text split on blanks
	Text string   // as written after the instruction
	Line int
}

// EnvVar is one ENV assignment.
type EnvVar struct {
	Key, Value string
	Line       int
}

// Instruction is one logical instruction (continuations joined).
type Instruction struct {
	Text string // arguments as written, continuations joined with a space
	Line int    // line of the instruction keyword
}

// Lookup returns the final stage's value of an ENV key.
func (d *Dockerfile) Lookup(key string) (EnvVar, bool) {
	if d == nil {
		return EnvVar{}, false
	}
	for i := len(d.Env) - 1; i >= 0; i-- {
		if d.Env[i].Key == key {
			return d.Env[i], true
		}
	}
	return EnvVar{}, false
}

// DontWriteBytecode reports an ENV PYTHONDONTWRITEBYTECODE that is set to
// anything but empty or "0" (Python's own reading of it).
func (d *Dockerfile) DontWriteBytecode() (EnvVar, bool) {
	v, ok := d.Lookup("PYTHONDONTWRITEBYTECODE")
	if !ok || v.Value == "" || v.Value == "0" {
		return EnvVar{}, false
	}
	return v, true
}

// Compileall returns the first RUN that byte-compiles Python ahead of time.
func (d *Dockerfile) Compileall() (Instruction, bool) {
	if d == nil {
		return Instruction{}, false
	}
	for _, r := range d.Runs {
		if strings.Contains(r.Text, "compileall") || strings.Contains(r.Text, "--compile-bytecode") ||
			strings.Contains(r.Text, "UV_COMPILE_BYTECODE") {
			return r, true
		}
	}
	return Instruction{}, false
}

// stage is the state a FROM line starts and a later FROM <stage> inherits.
type stage struct {
	entrypoint, cmd *Command
	cmdInherited    bool
	env             []EnvVar
}

// ParseDockerfile reads a Dockerfile. It never fails: unknown or broken
// instructions are skipped, because a Dockerfile that docker rejects cannot
// be deployed and is not this checker's business.
func ParseDockerfile(data []byte) *Dockerfile {
	d := &Dockerfile{}
	stages := map[string]stage{} // by lower-cased name and by index
	var cur stage
	var names []string // names of the current stage
	for _, ins := range logicalLines(string(data)) {
		keyword, rest, _ := strings.Cut(ins.Text, " ")
		rest = strings.TrimSpace(rest)
		switch strings.ToUpper(keyword) {
		case "FROM":
			image, name := parseFrom(rest)
			cur = stage{}
			if parent, ok := stages[strings.ToLower(image)]; ok {
				cur = parent
				cur.env = append([]EnvVar(nil), parent.env...)
				cur.cmdInherited = parent.cmd != nil
			}
			names = []string{strconv.Itoa(len(d.BaseImages))}
			if name != "" {
				names = append(names, strings.ToLower(name))
			}
			d.BaseImages = append(d.BaseImages, image)
		case "ENV":
			for _, kv := range parseEnv(rest) {
				kv.Line = ins.Line
				cur.env = append(cur.env, kv)
			}
		case "ENTRYPOINT":
			cur.entrypoint = parseCommand(rest, ins.Line)
			// Docker drops a CMD inherited from the base when ENTRYPOINT is set.
			if cur.cmdInherited {
				cur.cmd, cur.cmdInherited = nil, false
			}
		case "CMD":
			cur.cmd, cur.cmdInherited = parseCommand(rest, ins.Line), false
		case "RUN":
			d.Runs = append(d.Runs, Instruction{Text: rest, Line: ins.Line})
		}
		for _, n := range names {
			stages[n] = cur
		}
	}
	d.Entrypoint, d.Cmd, d.Env = cur.entrypoint, cur.cmd, cur.env
	d.Python = looksPython(d)
	return d
}

// parseFrom reads "[--platform=x] image [AS name]".
func parseFrom(rest string) (image, name string) {
	var words []string
	for _, w := range strings.Fields(rest) {
		if !strings.HasPrefix(w, "--") {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return "", ""
	}
	if len(words) >= 3 && strings.EqualFold(words[1], "as") {
		return words[0], words[2]
	}
	return words[0], ""
}

// parseCommand reads the exec form (a JSON array) or falls back to the
// shell form, as docker does when the JSON does not parse.
func parseCommand(rest string, line int) *Command {
	c := &Command{Text: rest, Line: line}
	if strings.HasPrefix(rest, "[") {
		var args []string
		if json.Unmarshal([]byte(rest), &args) == nil {
			c.Exec, c.Args = true, args
			return c
		}
	}
	c.Args = strings.Fields(rest)
	return c
}

// parseEnv reads both `ENV K=V K2="v 2"` and the legacy `ENV K V with spaces`.
func parseEnv(rest string) []EnvVar {
	words := shellWords(rest)
	if len(words) == 0 {
		return nil
	}
	if !strings.Contains(words[0], "=") {
		key, value, _ := strings.Cut(rest, " ")
		value = unquote(strings.TrimSpace(value))
		return []EnvVar{{Key: key, Value: value}}
	}
	var out []EnvVar
	for _, w := range words {
		key, value, ok := strings.Cut(w, "=")
		if !ok || key == "" {
			continue
		}
		out = append(out, EnvVar{Key: key, Value: value})
	}
	return out
}

// shellWords splits on blanks outside quotes and removes the quotes.
func shellWords(s string) []string {
	var words []string
	var b strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			b.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				b.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, b.String())
	}
	return words
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// looksPython guesses whether the image runs Python, from what it installs
// and starts.
func looksPython(d *Dockerfile) bool {
	var texts []string
	texts = append(texts, d.BaseImages...)
	for _, r := range d.Runs {
		texts = append(texts, r.Text)
	}
	for _, c := range []*Command{d.Entrypoint, d.Cmd} {
		if c != nil {
			texts = append(texts, strings.Join(c.Args, " "))
		}
	}
	for _, e := range d.Env {
		texts = append(texts, e.Key)
	}
	for _, t := range texts {
		t = strings.ToLower(t)
		for _, marker := range []string{"python", "pip ", "pip3", "uv sync", "uv pip", "poetry", ".py", "gunicorn", "granian", "uvicorn", "manage.py"} {
			if strings.Contains(t, marker) {
				return true
			}
		}
	}
	return false
}

// logicalLines joins continuation lines (a trailing backslash, or the
// escape character chosen by a `# escape=` directive), drops comments and
// blank lines, and folds heredoc bodies (RUN <<EOF ... EOF) into their
// instruction. Line is where the instruction starts.
func logicalLines(src string) []Instruction {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	escape := byte('\\')
	var out []Instruction
	var cur strings.Builder
	start := 0
	heredoc := ""
	directives := true
	for i, raw := range lines {
		line := strings.TrimRight(raw, " \t\r")
		trimmed := strings.TrimSpace(line)
		if heredoc != "" {
			cur.WriteString("\n" + raw)
			if strings.TrimSpace(raw) == heredoc {
				out = append(out, Instruction{Text: cur.String(), Line: start})
				cur.Reset()
				heredoc = ""
			}
			continue
		}
		if directives && strings.HasPrefix(trimmed, "#") {
			if k, v, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(trimmed, "#")), "="); ok &&
				strings.EqualFold(strings.TrimSpace(k), "escape") && len(strings.TrimSpace(v)) == 1 {
				escape = strings.TrimSpace(v)[0]
			}
			continue
		}
		directives = false
		if strings.HasPrefix(trimmed, "#") || trimmed == "" {
			continue // comments and blank lines inside a continuation are dropped too
		}
		if cur.Len() == 0 {
			start = i + 1
		} else {
			cur.WriteByte(' ')
		}
		if len(line) > 0 && line[len(line)-1] == escape {
			cur.WriteString(strings.TrimSpace(line[:len(line)-1]))
			continue
		}
		cur.WriteString(trimmed)
		if tag := heredocTag(cur.String()); tag != "" {
			heredoc = tag
			continue
		}
		out = append(out, Instruction{Text: cur.String(), Line: start})
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, Instruction{Text: cur.String(), Line: start})
	}
	return out
}

// heredocTag returns the terminator of a `<<EOF` / `<<-"EOF"` in a RUN or COPY.
func heredocTag(ins string) string {
	kw, _, _ := strings.Cut(ins, " ")
	if k := strings.ToUpper(kw); k != "RUN" && k != "COPY" {
		return ""
	}
	_, after, ok := strings.Cut(ins, "<<")
	if !ok {
		return ""
	}
	after = strings.TrimLeft(strings.TrimPrefix(after, "-"), "\"'")
	end := 0
	for end < len(after) && (after[end] == '_' || after[end] >= 'A' && after[end] <= 'Z' ||
		after[end] >= 'a' && after[end] <= 'z' || after[end] >= '0' && after[end] <= '9') {
		end++
	}
	return after[:end]
}
