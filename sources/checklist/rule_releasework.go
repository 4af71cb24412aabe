package checklist

import (
	"fmt"
	"strings"

	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/words"
)

const releaseWorkFix = "Run migrations once per release with `[deploy] release_command = \"python manage.py migrate --noinput\"` and collect static files in the image build; or guard them with a release gate keyed on FLY_IMAGE_REF (else FLY_MACHINE_VERSION) whose every uncertain path (no Redis, no image ref, timeout) falls back to \"prepare\": a wrong skip serves an unmigrated database, a wrong prepare only repeats a no-op migration."

// releaseWorkRule: work that belongs to a release (migrations, static
// files, warm-up, index builds) must not run on every machine boot.
//
// The project's boot path decides the status when there is a Dockerfile;
// the logs tell what the deployed release does at boot. When the logs show
// release work on every boot that the project's boot path no longer runs,
// that is a warning: the deploy should end it, unless the work hides where
// this check does not look.
func releaseWorkRule(e Evidence) Item {
	b := newItem(IDReleaseWork)
	answered, ungated := false, 0
	if localFile(b, e, repo.DockerfileFile) {
		unread := unreadScripts(e)
		partial := len(unread)+len(e.Project.Missing) > 0
		// A boot path read in part does not answer for the logs.
		answered, ungated = !partial, releaseWorkLocal(b, e.Project, partial)
		// A script that could not be read may hold release work: never a pass.
		for _, fe := range unread {
			b.cannotRead(repo.Source(fe.File, fe.Line), "%s could not be read (%s): release work in it is unknown", fe.File, fe.Msg)
		}
		// Nor may one the directory lacks: the image brings it from
		// elsewhere, and what it runs at boot is unknown here.
		for _, m := range e.Project.Missing {
			b.cannotRead(m.Source(), "%s runs a script the project directory lacks (looked for %s): release work in it is unknown",
				m.Instruction, strings.Join(m.Looked, ", "))
		}
	}
	if l := e.ReleaseWork; l != nil {
		releaseWorkLogs(b, l, platformSource(e, l.Source), answered, ungated)
	} else if e.Project != nil {
		b.note("", "boot logs not read: cannot count boots with release work")
	}
	b.fix(releaseWorkFix)
	return b.done()
}

// releaseWorkLocal judges the boot path of the project as read and
// returns how much release work runs in it ungated; partial says a script
// it runs could not be read, so finding no work there proves nothing.
func releaseWorkLocal(b *itemBuilder, p *repo.Project, partial bool) (ungated int) {
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
		ungated++
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
		if partial {
			b.note(src, "no migrations, static collection, warm-up or index build in what could be read of ENTRYPOINT/CMD")
		} else {
			b.judge(Pass, src, "no migrations, static collection, warm-up or index build in ENTRYPOINT/CMD or the scripts they run")
		}
	}
	return ungated
}

// releaseWorkLogs judges the deployed release's boots; answered says the
// project's boot path was judged, ungated how much release work runs in it.
func releaseWorkLogs(b *itemBuilder, l *ReleaseWorkLogs, source string, answered bool, ungated int) {
	window := l.Window
	if window == "" {
		window = "the window"
	}
	if l.Boots == 0 {
		// With the project's boot path judged, logs without a boot to
		// count only say so; alone, they leave the item unknown.
		switch {
		case l.Resumes > 0:
			resumes := fmt.Sprintf("no cold boot in %s to count release work in: the logs hold %s, and a resume runs no entrypoint",
				window, words.Count(l.Resumes, "resume from suspend", "resumes from suspend"))
			if answered {
				b.note(source, "%s", resumes)
			} else {
				b.judge(Unknown, source, "%s", resumes)
			}
		case answered:
			b.note(source, "no boots in %s", window)
		default:
			b.judge(Unknown, source, "no boots in %s", window)
		}
		return
	}
	what := words.And(l.Kinds)
	if what == "" {
		what = "release work"
	}
	releases := fmt.Sprintf("%s in %s", words.Count(l.Releases, "release", "releases"), window)
	everyBoot := l.BootsWithWork > l.Releases
	ran := fmt.Sprintf("%s ran on %s of %s boots, %s", what, count(l.BootsWithWork), count(l.Boots), releases)
	if l.BootsWithWork == l.Boots {
		ran = fmt.Sprintf("%s run on every boot: %s boots, %s", what, count(l.Boots), releases)
	}
	switch {
	case everyBoot && answered && ungated == 0:
		b.judge(Warn, source, "%s, but this project's boot path runs none: the deploy should end it, unless the work hides where this check does not look (a Python module, an entry point of a package)", ran)
		b.fix("After the deploy, look at a cold boot's logs: the release work should be gone.")
	case everyBoot:
		b.judge(Fail, source, "%s", ran)
	case l.BootsWithWork == 0:
		b.judge(Pass, source, "no release work in the logs of %s boots (%s)", count(l.Boots), releases)
	default:
		b.judge(Pass, source, "%s ran on %s of %s boots, once per release (%s)", what, count(l.BootsWithWork), count(l.Boots), releases)
	}
}
