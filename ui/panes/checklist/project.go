package checklist

import (
	"reflect"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/repo"
)

// ProjectMsg hands the pane the app's project files (fly.toml, Dockerfile,
// …), read outside Update in a command with a deadline. Err says why they
// could not be read at all (the deadline passed); Errs are repo.Load's
// per-file errors.
type ProjectMsg struct {
	Project *repo.Project
	Errs    []error
	Err     error
}

// ReadingProject marks the project files as on their way: the local items
// stay unknown, and the header says why, until a ProjectMsg arrives.
func (p *Pane) ReadingProject() { p.projectNote = "reading the project files…" }

// onProject takes the files in and judges every item again.
func (p *Pane) onProject(msg ProjectMsg) {
	p.project, p.projectErrs, p.projectNote = msg.Project, msg.Errs, ""
	if msg.Err != nil {
		p.projectNote = "project files not read: " + msg.Err.Error()
	}
	p.judged = false // the note moved: lay the report out again
	p.evaluate()
}

// evaluate judges every item from the last model (or the local files alone
// before the first one), as `flywake check` does.
func (p *Pane) evaluate() {
	if p.app == nil {
		p.judged = false
		p.machines = machinesNotListed
		p.setReport(checklist.Run("", checklist.Evidence{Project: p.project, ProjectErrors: p.projectErrs}, p.opts))
		return
	}
	machines := startedState(p.app)
	ev := p.app.Evidence(p.now, p.project, p.projectErrs)
	if p.judged && machines == p.machines && p.app.Name == p.judgedApp && reflect.DeepEqual(ev, p.evidence) {
		// The items are worked out from the evidence alone: the same
		// evidence, the same report (a listing of 10,000 machines where
		// one was renamed changes none of it).
		return
	}
	p.machines = machines
	p.judged, p.judgedApp, p.evidence = true, p.app.Name, ev
	p.setReport(checklist.Run(p.app.Name, ev, p.opts))
}
