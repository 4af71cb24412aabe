package app

import (
	"io"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// stuckModel blocks in Update on the message "stick" until release closes:
// a dashboard whose event loop hangs.
type stuckModel struct{ release <-chan struct{} }

func (m stuckModel) Init() tea.Cmd { return nil }
func (m stuckModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if msg == "stick" {
		<-m.release
	}
	return m, nil
}
func (m stuckModel) View() string { return "" }

// runNoTerminal runs a program without a terminal and closes done when Run
// returns.
func runNoTerminal(t *testing.T, m tea.Model) (*tea.Program, <-chan struct{}) {
	t.Helper()
	prog := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignalHandler())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = prog.Run()
	}()
	return prog, done
}

// A program asked to stop ends; nothing is given up.
func TestEndProgramStops(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	prog, done := runNoTerminal(t, stuckModel{release})
	var gaveUp atomic.Bool
	endProgram(prog, done, func() { gaveUp.Store(true) }, 10*time.Second)
	select {
	case <-done:
	default:
		t.Fatal("endProgram returned while the program still runs")
	}
	if gaveUp.Load() {
		t.Error("a program that stopped was given up on")
	}
}

// A program whose event loop hangs does not end when killed: endProgram gives
// up on it (in Run: restores the terminal and exits the process) once the
// wait ran out, and not before.
func TestEndProgramGivesUpOnAHungProgram(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	prog, done := runNoTerminal(t, stuckModel{release})
	prog.Send("stick") // blocks until the event loop took it
	began := time.Now()
	gaveUp := make(chan time.Duration, 1)
	endProgram(prog, done, func() { gaveUp <- time.Since(began) }, 300*time.Millisecond)
	select {
	case after := <-gaveUp:
		if after < 300*time.Millisecond {
			t.Errorf("gave up after %s, before the 300 ms wait ran out", after)
		}
	default:
		t.Fatal("endProgram returned without giving up on a program that never ended")
	}
	select {
	case <-done:
		t.Fatal("the program ended after all: the test proves nothing")
	default:
	}
}
