package app

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/ui/components/cell"
)

// A notice is a line above the footer that says what just happened (an
// action sent, refused or failed) and goes away by itself.

type noticeKind int

const (
	noticeInfo noticeKind = iota
	noticeWarn
	noticeFail
)

type notice struct {
	kind noticeKind
	text string
	id   int // of the timer that clears it; 0: stays until replaced
}

// How long a notice stays: long enough to read a refusal or the API's text.
const (
	noticeShort = 5 * time.Second
	noticeLong  = 15 * time.Second
	// maxStatusLines bounds a wrapped notice, so the body keeps its room.
	maxStatusLines = 3
	// maxPromptLines bounds a question with its warnings.
	maxPromptLines = 6
)

// nextReq is a request id of the current generation for the root's own
// timers (the notice's).
func (m *Model) nextReq() req {
	m.seq++
	return req{gen: m.gen, id: m.seq}
}

// setNotice shows text and returns the timer that clears it.
func (m *Model) setNotice(kind noticeKind, text string) tea.Cmd {
	d := noticeShort
	if kind != noticeInfo {
		d = noticeLong
	}
	r := m.nextReq()
	m.notice = notice{kind: kind, text: text, id: r.id}
	return m.after(d, noticeMsg{req: r})
}

// onNoticeTimer clears the notice its timer belongs to (not a newer one).
func (m *Model) onNoticeTimer(msg noticeMsg) {
	if msg.gen == m.gen && msg.id == m.notice.id {
		m.notice = notice{}
	}
}

// statusLines are the prompt or the notice, wrapped to the width; both
// name machines and apps in full, and the API's text must not be cut.
func (m *Model) statusLines() []string {
	var text string
	style := m.theme.Renderer().NewStyle()
	if m.width <= 1 {
		return nil
	}
	switch {
	case m.confirm != nil:
		// The question whole, warnings first: what the answer costs is read
		// before it is given.
		lines := m.confirm.question.Lines(m.theme, m.width-1)
		if len(lines) > maxPromptLines {
			lines = lines[len(lines)-maxPromptLines:]
		}
		for i, l := range lines {
			lines[i] = cell.Fit(" "+l, m.width, cell.Left)
		}
		return lines
	case m.notice.text != "":
		text = m.notice.text
		switch m.notice.kind {
		case noticeWarn:
			style = m.theme.Warn
		case noticeFail:
			style = m.theme.Fail
		}
	default:
		return nil
	}
	lines := cell.WrapText(text, m.width-1)
	if len(lines) > maxStatusLines {
		lines = lines[:maxStatusLines]
	}
	for i, l := range lines {
		lines[i] = cell.Fit(" "+style.Render(l), m.width, cell.Left)
	}
	return lines
}
