package diagnose

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/flywake/flywake/sources/words"
)

// A Python image with PYTHONDONTWRITEBYTECODE=1 and no compileall step has no
// .pyc files, and a stopped Fly machine's rootfs is reset on every start, so
// every cold start compiles the whole dependency tree again.

// BytecodeTree is the probe's count for one directory tree.
type BytecodeTree struct {
	Dir         string   `json:"dir,omitempty"`
	Py          int      `json:"py"`
	Pyc         int      `json:"pyc"`         // .pyc in __pycache__, any tag
	ForeignPyc  int      `json:"foreign_pyc"` // of which built by another Python
	ForeignTags []string `json:"foreign_tags,omitempty"`
	Skipped     bool     `json:"skipped,omitempty"` // not walked (app dir was /, or the walk limit hit)
}

// Usable is the number of .pyc the running interpreter can use, capped at the
// .py count (stale .pyc of deleted sources do not cover anything).
func (t BytecodeTree) Usable() int {
	return max(0, min(t.Pyc-t.ForeignPyc, t.Py))
}

// BytecodeReport is the parsed probe result.
type BytecodeReport struct {
	// NotPython: the image has no python3; the other fields are empty.
	NotPython         bool         `json:"-"`
	Python            string       `json:"python"`
	CacheTag          string       `json:"cache_tag"`
	DontWriteBytecode bool         `json:"dont_write_bytecode"`
	SitePackages      BytecodeTree `json:"site_packages"`
	App               BytecodeTree `json:"app"`
	Truncated         bool         `json:"truncated,omitempty"`
}

// ParseBytecodeProbe reads the exec result of BytecodeProbeCommand. An image
// without python3 is a normal answer (NotPython), not an error.
func ParseBytecodeProbe(stdout string, exitCode int, stderr string) (BytecodeReport, error) {
	if exitCode == 127 || mentionsMissingPython(stderr) {
		return BytecodeReport{NotPython: true}, nil
	}
	if exitCode != 0 {
		return BytecodeReport{}, fmt.Errorf("bytecode probe exited %d: %s", exitCode, clip(firstLine(stderr), 200))
	}
	lines := strings.Split(stdout, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var r BytecodeReport
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return BytecodeReport{}, fmt.Errorf("bytecode probe: bad JSON: %w", err)
		}
		if err := r.validate(); err != nil {
			return BytecodeReport{}, err
		}
		return r, nil
	}
	return BytecodeReport{}, errors.New("bytecode probe: no JSON object in the output")
}

func mentionsMissingPython(stderr string) bool {
	s := strings.ToLower(stderr)
	return strings.Contains(s, "python3: not found") ||
		strings.Contains(s, "python3: no such file") ||
		(strings.Contains(s, "python3") && strings.Contains(s, "executable file not found"))
}

func (r BytecodeReport) validate() error {
	if r.Python == "" && r.CacheTag == "" {
		return errors.New("bytecode probe: no python version or cache tag in the output")
	}
	for name, t := range map[string]BytecodeTree{"site_packages": r.SitePackages, "app": r.App} {
		if t.Py < 0 || t.Pyc < 0 || t.ForeignPyc < 0 || t.ForeignPyc > t.Pyc {
			return fmt.Errorf("bytecode probe: impossible counts for %s: py=%d pyc=%d foreign=%d", name, t.Py, t.Pyc, t.ForeignPyc)
		}
	}
	return nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// Coverage thresholds for site-packages: below bytecodeFailShare nothing is
// really cached; between the two, part of the tree compiles on every start.
const (
	bytecodeFailShare = 0.10
	bytecodePassShare = 0.80
)

// BytecodeVerdict judges the report in one line.
func BytecodeVerdict(r BytecodeReport) Verdict {
	if r.NotPython {
		return Verdict{Unknown, "not a Python image: nothing to cache"}
	}
	sp, app := r.SitePackages, r.App
	if sp.Py == 0 && app.Py == 0 {
		return Verdict{Unknown, "no .py files found in site-packages or the app directory"}
	}
	v := bytecodeVerdict(r, sp, app)
	if r.Truncated {
		v.Line += " (walk stopped at 200,000 files)"
	}
	return v
}

func bytecodeVerdict(r BytecodeReport, sp, app BytecodeTree) Verdict {
	foreign := foreignLine(r)
	if sp.Py > 0 && share(sp) < bytecodeFailShare {
		line := fmt.Sprintf("%s of %s .py files in site-packages have bytecode", words.Thousands(sp.Usable()), words.Thousands(sp.Py))
		level := Fail
		if r.DontWriteBytecode {
			line += "; PYTHONDONTWRITEBYTECODE=1 and no compileall: every start compiles the dependency tree"
		} else {
			// Python writes .pyc at run time, but a stopped machine's rootfs is reset.
			level = Warn
			line += ": every cold start compiles the dependency tree again (no compileall in the image)"
		}
		if foreign != "" {
			line += "; also " + foreign
		}
		return Verdict{level, line}
	}
	if foreign != "" {
		return Verdict{Warn, foreign}
	}
	if sp.Py > 0 && share(sp) < bytecodePassShare {
		return Verdict{Warn, fmt.Sprintf("%s of %s .py files in site-packages have bytecode: the rest compile on every start",
			words.Thousands(sp.Usable()), words.Thousands(sp.Py))}
	}
	if app.Py > 0 && share(app) < bytecodeFailShare && r.DontWriteBytecode {
		return Verdict{Warn, fmt.Sprintf("site-packages compiled, but %s of %s app .py files have bytecode: add the app directories to compileall",
			words.Thousands(app.Usable()), words.Thousands(app.Py))}
	}
	line := "bytecode cached"
	if sp.Py > 0 {
		line += fmt.Sprintf(": %s of %s site-packages files", words.Thousands(sp.Usable()), words.Thousands(sp.Py))
	}
	if app.Py > 0 && !app.Skipped {
		sep := ","
		if sp.Py == 0 {
			sep = ":"
		}
		line += fmt.Sprintf("%s %s of %s app files", sep, words.Thousands(app.Usable()), words.Thousands(app.Py))
	}
	if r.CacheTag != "" {
		line += " (" + r.CacheTag + ")"
	}
	return Verdict{Pass, line}
}

func share(t BytecodeTree) float64 {
	if t.Py == 0 {
		return 1
	}
	return float64(t.Usable()) / float64(t.Py)
}

// foreignLine describes .pyc built by another interpreter, or "" if none.
func foreignLine(r BytecodeReport) string {
	n := r.SitePackages.ForeignPyc + r.App.ForeignPyc
	if n == 0 {
		return ""
	}
	var tags []string
	for _, t := range append(slices.Clone(r.SitePackages.ForeignTags), r.App.ForeignTags...) {
		if !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	slices.Sort(tags)
	built := "another Python"
	if len(tags) > 0 {
		built = strings.Join(tags, "/")
	}
	image := "this image"
	if r.CacheTag != "" {
		image = "a " + r.CacheTag + " image"
	}
	return fmt.Sprintf("%s .pyc built for %s in %s: ignored at run time", words.Thousands(n), built, image)
}
