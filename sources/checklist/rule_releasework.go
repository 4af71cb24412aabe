package checklist

import (
	"fmt"

	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/words"
)

const releaseWorkFix = "Run migrations once per release with `[deploy] release_command = \"python manage.py migrate --noinput\"` and collect static files in the image build; or guard them with a release gate keyed on FLY_IMAGE_REF (else FLY_MACHINE_VERSION) whose every uncertain path (no Redis, no image ref, timeout) falls back to \"prepare\": a wrong skip serves an unmigrated database, a wrong prepare only repeats a no-op migration."

// releaseWorkRule: work that belongs to a release (migrations, static
// files, warm-up, index builds) must not run on every machine boot.
func releaseWorkRule(e Evidence) Item {
	b := newItem(IDReleaseWork)
	if localFile(b, e, repo.DockerfileFile) {
		releaseWorkLocal(b, e.Project)
		// A script that could not be read may hold release work: never a pass.
		for _, fe := range unreadScripts(e) {
			b.cannotRead(repo.Source(fe.File, fe.Line), "%s could not be read (%s): release work in it is unknown", fe.File, fe.Msg)
		}
	}
	if l := e.ReleaseWork; l != nil {
		releaseWorkLogs(b, l)
	} else if e.Project != nil {
		b.note("", "boot logs not read: cannot count boots with release work")
	}
	b.fix(releaseWorkFix)
	return b.done()
}

func releaseWorkLocal(b *itemBuilder, p *repo.Project) {
	f := p.FlyToml
	if f != nil && f.ReleaseCommand != "" {
		b.judge(Pass, f.Source("deploy.release_command"), "[deploy] release_command runs `%s` once per release", f.ReleaseCommand)
	}
	work := p.ReleaseWork()
	for _, w := range work {
		if w.Gated {
			gate := ""
			for _, s := range p.Scripts {
				if s.File == w.File && s.Gate != nil {
					gate = fmt.Sprintf(" (%s)", repo.Source(s.File, s.Gate.Line))
				}
			}
			b.judge(Pass, w.Source(), "%s: `%s` runs behind a release gate%s", w.Kind, w.Command, gate)
			continue
		}
		extra := ""
		if w.Background {
			extra = ", in the background, competing with the server for the CPU"
		}
		b.judge(Fail, w.Source(), "%s: `%s` runs before the server on every boot%s", w.Kind, w.Command, extra)
	}
	for _, s := range p.Scripts {
		if s.Exec != nil && s.File != repo.DockerfileFile {
			b.note(repo.Source(s.File, s.Exec.Line), "then `exec %s` replaces the shell", s.Server)
		} else if s.Exec == nil && s.File != repo.DockerfileFile {
			b.note(s.File, "the script never `exec`s the server: the shell stays PID 1 and may not pass signals on")
		}
	}
	if len(work) == 0 && (f == nil || f.ReleaseCommand == "") {
		src := repo.DockerfileFile
		if d := p.Dockerfile; d != nil && d.Entrypoint != nil {
			src = repo.Source(repo.DockerfileFile, d.Entrypoint.Line)
		} else if d != nil && d.Cmd != nil {
			src = repo.Source(repo.DockerfileFile, d.Cmd.Line)
		}
		b.judge(Pass, src, "no migrations, static collection, warm-up or index build in ENTRYPOINT/CMD or the scripts they run")
	}
}

func releaseWorkLogs(b *itemBuilder, l *ReleaseWorkLogs) {
	window := l.Window
	if window == "" {
		window = "the window"
	}
	if l.Boots == 0 && l.Resumes > 0 {
		b.judge(Unknown, l.Source, "no cold boot in %s to count release work in: the logs hold %s, and a resume runs no entrypoint",
			window, words.Count(l.Resumes, "resume from suspend", "resumes from suspend"))
		return
	}
	if l.Boots == 0 {
		b.judge(Unknown, l.Source, "no boots in %s", window)
		return
	}
	what := andList(l.Kinds)
	if what == "" {
		what = "release work"
	}
	releases := fmt.Sprintf("%s in %s", words.Count(l.Releases, "release", "releases"), window)
	switch {
	case l.BootsWithWork > l.Releases && l.BootsWithWork == l.Boots:
		b.judge(Fail, l.Source, "%s run on every boot: %s boots, %s", what, count(l.Boots), releases)
	case l.BootsWithWork > l.Releases:
		b.judge(Fail, l.Source, "%s ran on %s of %s boots, %s", what, count(l.BootsWithWork), count(l.Boots), releases)
	case l.BootsWithWork == 0:
		b.judge(Pass, l.Source, "no release work in the logs of %s boots (%s)", count(l.Boots), releases)
	default:
		b.judge(Pass, l.Source, "%s ran on %s of %s boots, once per release (%s)", what, count(l.BootsWithWork), count(l.Boots), releases)
	}
}
