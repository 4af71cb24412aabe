package app

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/ui/panes/checklist"
)

// projectTimeout bounds reading the project directory: a slow disk or a
// stuck mount must not keep the checklist waiting for ever.
var projectTimeout = 10 * time.Second

// projectCmd reads app's project files under the deadline. A load that
// outlives it is left to finish on its own (the loader takes no context);
// the pane is told the files could not be read.
func projectCmd(ctx context.Context, load func(app string) (*repo.Project, []error), app string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, projectTimeout)
		defer cancel()
		done := make(chan checklist.ProjectMsg, 1)
		go func() {
			p, errs := load(app)
			done <- checklist.ProjectMsg{Project: p, Errs: errs}
		}()
		select {
		case msg := <-done:
			return msg
		case <-ctx.Done():
			return checklist.ProjectMsg{Err: fmt.Errorf("reading them took longer than %s", projectTimeout)}
		}
	}
}
