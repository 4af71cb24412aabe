package checklist

import (
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
	p.evaluate()
}

// evaluate judges every item from the last model (or the local files alone
// before the first one), as `flywake check` does.
func (p *Pane) evaluate() {
	if p.app == nil {
		p.machines = machinesNotListed
		p.setReport(checklist.Run("", checklist.Evidence{Project: p.project, ProjectErrors: p.projectErrs}, p.opts))
		return
	}
	p.machines = startedState(p.app)
	p.setReport(checklist.Run(p.app.Name, p.app.Evidence(p.now, p.project, p.projectErrs), p.opts))
}
