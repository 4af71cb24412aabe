package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
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
// SIGINT, SIGHUP, SIGQUIT and SIGTERM end it the same way, and so does the
// terminal going away (see watchTerminal); Run then returns a *StoppedError,
// so the process exits non-zero. SIGTSTP suspends it (see suspender).
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
	sus := newSuspender()
	// bubbletea's own signal handler is off: in v1.3.10 it sends its quit
	// with a blocking send that ignores the program's end, so a SIGTERM that
	// also reached watchTerminal (or came as the program was quitting) left
	// that send, and with it bubbletea's shutdown, waiting forever — a
	// dashboard that outlived its terminal, ignoring every later signal
	// (charmbracelet/bubbletea#1806). watchTerminal handles all of them.
	prog := tea.NewProgram(m, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx), tea.WithInput(in),
		tea.WithoutSignalHandler(), tea.WithFilter(sus.filter))
	stop := watchTerminal(prog, in.gone, os.Stdout, sus, giveUp(os.Stdin, os.Stdout, os.Stderr))
	final, err := prog.Run()
	stopped := stop()
	switch {
	case errors.Is(err, tea.ErrProgramPanic):
		return fmt.Errorf("flywake hit an internal error and stopped (the terminal was restored): %w", err)
	case err != nil && ctx.Err() != nil:
		return nil // interrupted from outside: not a failure of the dashboard
	case err != nil && errors.Is(err, tea.ErrProgramKilled) && stopped != nil:
		return stopped // by watchTerminal: a signal, or the terminal went away
	case err != nil:
		return err
	}
	if fm, ok := final.(Model); ok && fm.fatal != nil {
		return fm.fatal
	}
	return nil
}

// StoppedError is how the dashboard ended when it was stopped rather than
// quit: by a signal, or by its terminal going away. Its exit code is the
// shell's for a process ended by that signal, 128+signal (a terminal gone
// without a SIGHUP counts as one), so a script can tell it from a quit.
type StoppedError struct {
	Signal syscall.Signal // 0: the terminal went away without one
}

func (e *StoppedError) Error() string {
	if e.Signal == 0 {
		return "the dashboard's terminal went away; it stopped"
	}
	return fmt.Sprintf("the dashboard was stopped by %s", signalName(e.Signal))
}

// ExitCode is 128 plus the signal's number.
func (e *StoppedError) ExitCode() int {
	if e.Signal == 0 {
		return 128 + int(syscall.SIGHUP)
	}
	return 128 + int(e.Signal)
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return fmt.Sprintf("signal %d", int(s))
}

// stopGrace is how long a stopped program may take to end before the
// process gives up on it and exits on its own.
const stopGrace = 2 * time.Second

// ttyCheckEvery is how often the terminal is checked for being gone.
const ttyCheckEvery = 2 * time.Second

// watchTerminal stops prog on SIGINT, SIGHUP, SIGQUIT or SIGTERM (by default
// SIGHUP and SIGQUIT end the process with the alternate screen on and the
// cursor hidden), and when the terminal goes away without a SIGHUP: input at
// its end (gone) or out no longer answering as a terminal. A SIGHUP ignored
// at start (nohup) stays ignored; the terminal check still ends the
// dashboard when it is gone. See endProgram for how it stops. It also runs
// sus: a SIGTSTP suspends prog. stop ends the watch and says why prog was
// stopped (nil: it was not).
func watchTerminal(prog *tea.Program, gone <-chan struct{}, out *os.File, sus *suspender, giveUp func(code int)) (stop func() *StoppedError) {
	sigs := make(chan os.Signal, 1)
	watched := []os.Signal{os.Interrupt, syscall.SIGQUIT, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		watched = append(watched, syscall.SIGHUP)
	}
	signal.Notify(sigs, watched...)
	sus.arm()
	done := make(chan struct{})
	var why atomic.Pointer[StoppedError]
	go func() {
		tick := time.NewTicker(ttyCheckEvery)
		defer tick.Stop()
		for {
			var stopped StoppedError
			select {
			case <-done:
				return
			case s := <-sigs:
				stopped.Signal, _ = s.(syscall.Signal)
			case <-gone:
			case <-tick.C:
				if _, _, err := term.GetSize(out.Fd()); err == nil {
					continue
				}
			case <-sus.tstp:
				sus.onTSTP(prog)
				continue
			}
			why.Store(&stopped)
			endProgram(prog, done, func() { giveUp(stopped.ExitCode()) }, stopGrace)
			return
		}
	}()
	return func() *StoppedError {
		signal.Stop(sigs)
		sus.disarm()
		close(done)
		return why.Load()
	}
}

// endProgram stops prog at once and, should it not end within wait, gives
// up on it: giveUp ends the process, so no path leaves a dashboard running
// without its terminal or deaf to signals. done closes once prog.Run has
// returned. A kill, not a quit: both restore the terminal, but a quit waits
// its turn behind every command result queued for the event loop (on a
// loaded machine, seconds) only to draw a last frame nobody will see.
func endProgram(prog *tea.Program, done <-chan struct{}, giveUp func(), wait time.Duration) {
	prog.Kill()
	select {
	case <-done:
	case <-time.After(wait):
		giveUp()
	}
}

// giveUp ends the process when the program could not be stopped: it puts the
// terminal back as bubbletea would have (alternate screen off, cursor shown,
// mouse and bracketed paste off, the input's mode restored) — a write that
// does not finish in a moment is abandoned — and exits with code.
func giveUp(in, out, errOut *os.File) func(code int) {
	state, stateErr := term.GetState(in.Fd())
	return func(code int) {
		wrote := make(chan struct{})
		go func() {
			defer close(wrote)
			_, _ = io.WriteString(out, ansi.ResetModeMouseAnyEvent+ansi.ResetModeMouseButtonEvent+ansi.ResetModeMouseNormal+
				ansi.ResetModeMouseExtSgr+ansi.ResetModeBracketedPaste+ansi.ResetModeFocusEvent+
				ansi.ResetModeAltScreenSaveCursor+ansi.ShowCursor)
			if stateErr == nil {
				_ = term.Restore(in.Fd(), state)
			}
			fmt.Fprintln(errOut, "flywake: the dashboard did not stop when asked; exiting")
		}()
		select {
		case <-wrote:
		case <-time.After(200 * time.Millisecond):
		}
		os.Exit(code)
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
