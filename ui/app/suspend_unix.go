//go:build unix

package app

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"golang.org/x/sys/unix"
)

// suspender lets a SIGTSTP from outside (kill -TSTP, a shell's suspend)
// suspend the dashboard the way bubbletea's tea.Suspend does: the terminal
// released (normal screen, cooked mode), the process stopped, and on SIGCONT
// raw mode, the alternate screen and a redraw back, then tea.ResumeMsg (the
// model turns the mouse back on, which bubbletea v1.3.10 leaves off). Left
// to its default a SIGTSTP stopped the process with the terminal as the
// dashboard had it, and `fg` brought it back in cooked mode, deaf to q.
//
// bubbletea stops the process by sending its group SIGTSTP, which cannot
// stop a Go process that ever asked for SIGTSTP (the runtime keeps its
// handler after signal.Stop, and drops the signal): while a suspend runs,
// the SIGTSTP that arrives is bubbletea's, and the watcher stops the group
// with SIGSTOP in its place. Only a process group a job-control shell made
// asks for SIGTSTP at all: elsewhere nobody could continue a stopped
// dashboard, and the kernel discards SIGTSTP itself (an orphaned process
// group is never stopped by it).
type suspender struct {
	tstp       chan os.Signal
	pending    atomic.Bool // a suspend was asked for and has not resumed yet
	suspending atomic.Bool // bubbletea is suspending: between SuspendMsg and ResumeMsg
}

func newSuspender() *suspender { return &suspender{tstp: make(chan os.Signal, 1)} }

// arm asks for SIGTSTP where a shell can continue the stopped dashboard:
// in a process group of its own, not its session's first (which is
// orphaned: it has no shell above it).
func (s *suspender) arm() {
	if sid, err := unix.Getsid(0); err == nil && unix.Getpgrp() != sid {
		signal.Notify(s.tstp, syscall.SIGTSTP)
	}
}

func (s *suspender) disarm() { signal.Stop(s.tstp) }

// onTSTP suspends prog, once however many SIGTSTPs come; during the
// suspend the SIGTSTP is bubbletea's own, and stops the process group
// (Send returns when the program ends, whatever its state).
func (s *suspender) onTSTP(prog *tea.Program) {
	switch {
	case s.suspending.Load():
		_ = syscall.Kill(0, syscall.SIGSTOP)
	case s.pending.CompareAndSwap(false, true):
		go prog.Send(tea.SuspendMsg{})
	}
}

// filter runs in bubbletea's event loop, just before it acts on msg: it
// must not block.
func (s *suspender) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch msg.(type) {
	case tea.SuspendMsg:
		s.suspending.Store(true)
	case tea.ResumeMsg:
		s.suspending.Store(false)
		s.pending.Store(false)
	}
	return msg
}
