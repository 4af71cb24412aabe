package checklist

import (
	"strings"

	"github.com/flywake/flywake/sources/repo"
)

const bytecodeFix = "Compile once at build time: `RUN python -m compileall -q /app/.venv/lib /app/<project dirs> || true` after installing dependencies (cacheable, runs once); in .dockerignore write `**/__pycache__/` and `**/*.pyc`, since docker matches unanchored patterns only at the context root."

// bytecodeRule: is anything caching the bytecode of every import? The
// project's Dockerfile decides when there is one; the image probe tells
// what the deployed image holds. An image without .pyc that the project's
// Dockerfile now compiles is a warning: the deploy should fix it.
func bytecodeRule(e Evidence) Item {
	b := newItem(IDBytecode)
	if bc := e.Bytecode; bc != nil && bc.NotPython && !e.Project.Has(repo.DockerfileFile) {
		b.judge(NA, platformSource(e, bc.Source), "the image has no python3: no bytecode to cache")
		return b.done()
	}
	compiles := false
	if localFile(b, e, repo.DockerfileFile) {
		d := e.Project.Dockerfile
		if !d.Python {
			b.judge(NA, repo.DockerfileFile, "the Dockerfile does not look like a Python image")
			return b.done()
		}
		_, compiles = d.Compileall()
		bytecodeDockerfile(b, d)
	}
	if p := e.Project; p != nil && p.Dockerignore != nil && (p.Dockerfile == nil || p.Dockerfile.Python) {
		for _, u := range p.Dockerignore.Unanchored {
			b.judge(Warn, repo.Source(repo.DockerignoreFile, u.Line),
				"`%s` only matches at the context root: nested copies reach the image (use `%s`)", u.Pattern, u.Suggest)
		}
	}
	switch bc := e.Bytecode; {
	case bc != nil && bc.NotPython:
		b.note(platformSource(e, bc.Source), "the deployed image has no python3; this project's Dockerfile builds a Python one")
	case bc != nil:
		bytecodeProbe(b, bc, platformSource(e, bc.Source), compiles)
	default:
		b.item.NeedsRunningMachine = true
		b.note("", "the image probe (count of .py and .pyc files) needs a running machine")
	}
	b.fix(bytecodeFix)
	return b.done()
}

func bytecodeDockerfile(b *itemBuilder, d *repo.Dockerfile) {
	dwb, hasDWB := d.DontWriteBytecode()
	ca, hasCA := d.Compileall()
	switch {
	case hasCA:
		b.judge(Pass, repo.Source(repo.DockerfileFile, ca.Line), "bytecode compiled at build time: `RUN %s`", firstLine(ca.Text))
	case hasDWB:
		b.judge(Fail, repo.Source(repo.DockerfileFile, dwb.Line),
			"ENV PYTHONDONTWRITEBYTECODE=%s and no compileall: nothing caches bytecode, every process start compiles every import", dwb.Value)
	default:
		b.judge(Warn, repo.DockerfileFile,
			"no compileall: .pyc files are written at run time and lost at every cold boot (a stopped machine starts from a fresh root filesystem)")
	}
}

// bytecodeProbe judges the deployed image; compiles says the project's
// Dockerfile compiles bytecode at build time, so a missing cache is the
// deployed image's and the deploy should fix it.
func bytecodeProbe(b *itemBuilder, bc *Bytecode, source string, compiles bool) {
	py := ""
	if bc.Python != "" {
		py = " (Python " + bc.Python + ")"
	}
	missing := bc.SitePy > 0 && bc.SitePyc*2 < bc.SitePy
	switch {
	case missing && compiles:
		b.judge(Warn, source, "site-packages holds %s .py files and %s .pyc%s in the deployed image; this Dockerfile compiles at build time, so the deploy should fix it",
			count(bc.SitePy), count(bc.SitePyc), py)
		b.fix("After the deploy, run the image probe again: site-packages should hold a .pyc for every .py.")
	case bc.SitePy > 0 && bc.SitePyc == 0:
		b.judge(Fail, source, "site-packages holds %s .py files and 0 .pyc%s: every process start compiles the whole dependency tree", count(bc.SitePy), py)
	case missing:
		b.judge(Warn, source, "site-packages holds %s .py files and only %s .pyc%s", count(bc.SitePy), count(bc.SitePyc), py)
	default:
		b.judge(Pass, source, "site-packages holds %s .py files and %s .pyc%s", count(bc.SitePy), count(bc.SitePyc), py)
	}
	if bc.ForeignPyc > 0 {
		tags := strings.Join(bc.ForeignTags, ", ")
		if tags == "" {
			tags = "another version"
		}
		b.judge(Warn, source, "%s .pyc compiled by another Python (%s) sit in the image, silently ignored", count(bc.ForeignPyc), tags)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 100 {
		line = line[:97] + "..."
	}
	return line
}
