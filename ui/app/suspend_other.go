//go:build !unix

package app

import (
	"os"

	tea "github.com/charmbracelet/bubbletea"
)

// suspender does nothing where there is no SIGTSTP.
type suspender struct{ tstp chan os.Signal }

func newSuspender() *suspender                               { return &suspender{} }
func (s *suspender) arm()                                    {}
func (s *suspender) disarm()                                 {}
func (s *suspender) onTSTP(*tea.Program)                     {}
func (s *suspender) filter(_ tea.Model, msg tea.Msg) tea.Msg { return msg }
