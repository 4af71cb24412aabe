package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"
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
// SIGHUP, SIGQUIT and SIGTERM end it the same way, and so does the terminal
// going away (see watchTerminal).
func Run(ctx context.Context, cfg Config) error {
	if err := CheckTerminal(); err != nil {
		return err
	}
	if cfg.Clipboard == nil {
		out := termenv.NewOutput(os.Stdout)
		cfg.Clipboard = out.Copy
	}
	m := newModel(ctx, cfg)
	defer m.cancel()
	in := &ttyInput{File: os.Stdin, gone: make(chan struct{})}
	prog := tea.NewProgram(m, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx), tea.WithInput(in))
	stop := watchTerminal(prog, in.gone, os.Stdout)
	final, err := prog.Run()
	stop()
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

// quitGrace is how long a quit may take before the program is killed (both
// restore the terminal; a kill does not wait for the event loop).
const quitGrace = 2 * time.Second

// ttyCheckEvery is how often the terminal is checked for being gone.
const ttyCheckEvery = 2 * time.Second

// watchTerminal quits prog on SIGHUP, SIGQUIT or SIGTERM (bubbletea itself
// handles only SIGINT and SIGTERM; by default the others end the process
// with the alternate screen on and the cursor hidden), and when the
// terminal goes away without a SIGHUP: input at its end (gone) or out no
// longer answering as a terminal. A SIGHUP ignored at start (nohup) stays
// ignored; the terminal check still ends the dashboard when it is gone.
func watchTerminal(prog *tea.Program, gone <-chan struct{}, out *os.File) (stop func()) {
	sigs := make(chan os.Signal, 1)
	watched := []os.Signal{syscall.SIGQUIT, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		watched = append(watched, syscall.SIGHUP)
	}
	signal.Notify(sigs, watched...)
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(ttyCheckEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-sigs:
			case <-gone:
			case <-tick.C:
				if _, _, err := term.GetSize(out.Fd()); err == nil {
					continue
				}
			}
			prog.Quit()
			select {
			case <-done:
			case <-time.After(quitGrace):
				prog.Kill()
			}
			return
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}

// ttyInput is the terminal bubbletea reads keys from, noticing when it goes
// away: a hung-up terminal reads as end of input, which bubbletea's read
// loop takes silently (the dashboard then ran on for half an hour with no
// terminal), and a pseudo-terminal whose other end closed fails with EIO.
// It embeds *os.File so bubbletea still sees a terminal (raw mode, a
// cancelable read).
type ttyInput struct {
	*os.File
	gone chan struct{}
	once sync.Once
}

func (t *ttyInput) Read(p []byte) (int, error) {
	n, err := t.File.Read(p)
	if err != nil && (errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO)) {
		t.once.Do(func() { close(t.gone) })
	}
	return n, err
}
