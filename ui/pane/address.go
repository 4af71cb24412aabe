package pane

import tea "github.com/charmbracelet/bubbletea"

// Address wraps cmd so that its reply arrives as a Msg to pane to, made in
// generation gen. Batches (tea.Batch) and sequences (Sequence) are wrapped
// command by command, the runtime still running them; a reply that is
// already addressed keeps its address, and tea.QuitMsg passes unwrapped.
//
// A pane's commands answer with the pane's own messages or with the
// requests of requests.go: the terminal is the root's, so a pane returns
// no other bubbletea runtime command, and it orders commands with
// Sequence, not tea.Sequence (whose message type Address cannot see into).
func Address(to ID, gen int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg { return address(to, gen, cmd()) }
}

// Sequence is tea.Sequence for a pane: cmds run one after another, and
// each reply is addressed back to the pane.
func Sequence(cmds ...tea.Cmd) tea.Cmd {
	return func() tea.Msg { return sequence(cmds) }
}

// sequence is Sequence's message: the commands, for Address to wrap.
type sequence []tea.Cmd

func address(to ID, gen int, msg tea.Msg) tea.Msg {
	switch msg := msg.(type) {
	case nil:
		return nil
	case Msg, tea.QuitMsg:
		return msg
	case tea.BatchMsg:
		return tea.BatchMsg(addressAll(to, gen, msg))
	case sequence:
		return tea.Sequence(addressAll(to, gen, msg)...)()
	}
	return Msg{To: to, Gen: gen, Msg: msg}
}

func addressAll(to ID, gen int, cmds []tea.Cmd) []tea.Cmd {
	out := make([]tea.Cmd, len(cmds))
	for i, c := range cmds {
		out[i] = Address(to, gen, c)
	}
	return out
}
