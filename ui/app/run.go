package app

import (
	"context"
	"errors"
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
)

// ErrNoTerminal is returned by Run when stdout is not a terminal.
var ErrNoTerminal = errors.New("flywake needs a terminal; for a one-shot snapshot use `flywake status`")

// CheckTerminal returns ErrNoTerminal when stdout is not a terminal, so a
// caller can refuse before connecting to anything.
func CheckTerminal() error {
	if !term.IsTerminal(os.Stdout.Fd()) {
		return ErrNoTerminal
	}
	return nil
}

// Run shows the dashboard until the user quits or ctx ends. bubbletea
// restores the terminal on every exit, panics in Update, View and commands
// included (its panic catching stays on); Run then returns an error.
func Run(ctx context.Context, cfg Config) error {
	if err := CheckTerminal(); err != nil {
		return err
	}
	m := newModel(ctx, cfg)
	defer m.cancel()
	final, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithContext(ctx)).Run()
	switch {
	case errors.Is(err, tea.ErrProgramPanic):
		return fmt.Errorf("flywake hit an internal error and stopped (the terminal was restored): %w", err)
	case err != nil && ctx.Err() != nil:
		return nil // interrupted from outside: not a failure of the dashboard
	case err != nil:
		return err
	}
	if fm, ok := final.(Model); ok && fm.fatal != nil {
		return fm.fatal
	}
	return nil
}
