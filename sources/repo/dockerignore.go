package repo

import "strings"

// DockerignoreFile is the ignore file docker reads from the context root.
const DockerignoreFile = ".dockerignore"

// Dockerignore holds the patterns of a .dockerignore.
type Dockerignore struct {
	Patterns []IgnorePattern
	// Unanchored lists bytecode patterns that only match at the context
	// root, with the pattern that would match at any depth.
	Unanchored []IgnoreFix
}

// IgnorePattern is one pattern line.
type IgnorePattern struct {
	Text   string // without the leading "!"
	Negate bool
	Line   int
}

// IgnoreFix suggests a pattern that matches at every depth.
type IgnoreFix struct {
	Pattern, Suggest string
	Line             int
}

// Ignores reports whether a pattern (as written, e.g. "**/*.pyc") is present
// and not negated.
func (d *Dockerignore) Ignores(pattern string) bool {
	if d == nil {
		return false
	}
	for _, p := range d.Patterns {
		if !p.Negate && strings.TrimSuffix(p.Text, "/") == strings.TrimSuffix(pattern, "/") {
			return true
		}
	}
	return false
}

// ParseDockerignore reads patterns one a line; "#" starts a comment line.
// Unlike .gitignore, docker anchors every pattern at the context root, so
// `__pycache__/` skips only ./__pycache__ and nested ones reach the image.
func ParseDockerignore(data []byte) *Dockerignore {
	d := &Dockerignore{}
	for i, raw := range strings.Split(string(data), "\n") {
		text := strings.TrimSpace(raw)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		p := IgnorePattern{Text: text, Line: i + 1}
		if strings.HasPrefix(text, "!") {
			p.Negate, p.Text = true, strings.TrimSpace(text[1:])
		}
		d.Patterns = append(d.Patterns, p)
	}
	for _, p := range d.Patterns {
		if p.Negate {
			continue
		}
		if fix, ok := bytecodeFix(p.Text); ok && !d.Ignores(fix) {
			d.Unanchored = append(d.Unanchored, IgnoreFix{Pattern: p.Text, Suggest: fix, Line: p.Line})
		}
	}
	return d
}

// bytecodeFix returns the any-depth form of a root-only bytecode pattern.
func bytecodeFix(pattern string) (string, bool) {
	p := strings.TrimPrefix(pattern, "/")
	p = strings.TrimPrefix(p, "./")
	if strings.HasPrefix(p, "**/") || strings.Contains(strings.TrimSuffix(p, "/"), "/") && !strings.HasPrefix(p, "__pycache__/") {
		return "", false // already any-depth, or a specific subdirectory on purpose
	}
	switch base := strings.TrimSuffix(strings.TrimSuffix(p, "/*"), "/"); {
	case base == "__pycache__":
		return "**/__pycache__/", true
	case strings.HasPrefix(base, "*.py") && base != "*.py":
		// *.pyc, *.pyo, *.py[cod], *.py[co]
		return "**/" + base, true
	}
	return "", false
}
