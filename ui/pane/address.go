package pane

import (
	"reflect"

	tea "github.com/charmbracelet/bubbletea"
)

// Address wraps cmd so that its reply arrives as a Msg to pane to, made in
// generation gen. Batches and sequences are wrapped command by command (the
// runtime still runs them), bubbletea's own runtime messages (tea.Quit, …)
// pass unwrapped, and a reply that is already addressed keeps its address.
func Address(to ID, gen int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg { return address(to, gen, cmd()) }
}

var (
	cmdType  = reflect.TypeOf(tea.Cmd(nil))
	teaPkg   = reflect.TypeOf(tea.QuitMsg{}).PkgPath()
	batchTyp = reflect.TypeOf(tea.BatchMsg(nil))
)

func address(to ID, gen int, msg tea.Msg) tea.Msg {
	switch msg := msg.(type) {
	case nil:
		return nil
	case Msg:
		return msg
	case tea.BatchMsg:
		return tea.BatchMsg(addressAll(to, gen, msg))
	}
	t := reflect.TypeOf(msg)
	if t.PkgPath() == teaPkg {
		// tea.Sequence's message type is unexported: rebuild it from its
		// commands, addressed. Any other runtime message is for bubbletea.
		if t.Kind() == reflect.Slice && t.Elem() == cmdType && t != batchTyp {
			v := reflect.ValueOf(msg)
			cmds := make([]tea.Cmd, v.Len())
			for i := range cmds {
				cmds[i], _ = v.Index(i).Interface().(tea.Cmd)
			}
			return tea.Sequence(addressAll(to, gen, cmds)...)()
		}
		return msg
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
