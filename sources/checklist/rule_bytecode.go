package checklist

import (
	"strings"

	"github.com/flywake/flywake/sources/repo"
)

const bytecodeFix = "Compile once at build time: `RUN python -m compileall -q /app/.venv/lib /app/<project dirs> || true` after installing dependencies (cacheable, runs once); in .dockerignore write `**/__pycache__/` and `**/*.pyc`, since docker matches unanchored patterns only at the context root."

// bytecodeRule: is anything caching the bytecode of every import?
func bytecodeRule(e Evidence) Item {
	b := newItem(IDBytecode)
	if bc := e.Bytecode; bc != nil && bc.NotPython {
		b.judge(NA, bc.Source, "the image has no python3: no bytecode to cache")
		return b.done()
	}
	if localFile(b, e, repo.DockerfileFile) {
		bytecodeDockerfile(b, e.Project.Dockerfile)
	}
	if p := e.Project; p != nil && p.Dockerignore != nil && (p.Dockerfile == nil || p.Dockerfile.Python) {
		for _, u := range p.Dockerignore.Unanchored {
			b.judge(Warn, repo.Source(repo.DockerignoreFile, u.Line),
				"`%s` only matches at the context root: nested copies reach the image (use `%s`)", u.Pattern, u.Suggest)
		}
	}
	if bc := e.Bytecode; bc != nil {
		bytecodeProbe(b, bc)
	} else {
		b.item.NeedsRunningMachine = true
		b.note("", "the image probe (count of .py and .pyc files) needs a running machine")
	}
	b.fix(bytecodeFix)
	return b.done()
}

func bytecodeDockerfile(b *itemBuilder, d *repo.Dockerfile) {
	if !d.Python {
		b.judge(NA, repo.DockerfileFile, "the Dockerfile does not look like a Python image")
		return
	}
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

func bytecodeProbe(b *itemBuilder, bc *Bytecode) {
	py := ""
	if bc.Python != "" {
		py = " (Python " + bc.Python + ")"
	}
	switch {
	case bc.SitePy > 0 && bc.SitePyc == 0:
		b.judge(Fail, bc.Source, "site-packages holds %s .py files and 0 .pyc%s: every process start compiles the whole dependency tree", count(bc.SitePy), py)
	case bc.SitePy > 0 && bc.SitePyc*2 < bc.SitePy:
		b.judge(Warn, bc.Source, "site-packages holds %s .py files and only %s .pyc%s", count(bc.SitePy), count(bc.SitePyc), py)
	default:
		b.judge(Pass, bc.Source, "site-packages holds %s .py files and %s .pyc%s", count(bc.SitePy), count(bc.SitePyc), py)
	}
	if bc.ForeignPyc > 0 {
		tags := strings.Join(bc.ForeignTags, ", ")
		if tags == "" {
			tags = "another version"
		}
		b.judge(Warn, bc.Source, "%s .pyc compiled by another Python (%s) sit in the image, silently ignored", count(bc.ForeignPyc), tags)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 100 {
		line = line[:97] + "..."
	}
	return line
}
