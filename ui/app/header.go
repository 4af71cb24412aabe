package app

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/frame"
	"github.com/flywake/flywake/ui/theme"
)

// The header: on the left the org/app, DEMO or LIVE, READONLY, API health,
// failing feeds and the last error (with its age); on the right the
// machines by state, the current release, the calls a minute (Machines API
// and the rest said apart), back-off and how long ago the data came (wall
// time: at --speed 10 a listing every 12 s is not "2 min old").
//
// Segments have a priority: when the line is too narrow, long forms give
// way to short ones, then the least important segments go whole. A
// segment is never cut ("API ✓ · last error…" never shows).

// segment is one piece of the header.
type segment struct {
	kind        part
	text, short string // short: "" has no shorter form
	detail      string // the last error's words, which may be cut to the room left
	right       bool
}

// part names a header segment, for the order they give way in.
type part int

const (
	partName part = iota
	partMode
	partReadOnly
	partAPI
	partFeeds
	partError
	partStates
	partRelease
	partCalls
	partBackoff
	partFresh
)

// step is one way the header makes room: a part's short form, or the part
// gone.
type step struct {
	part part
	drop bool
}

// giveWay is the order the header makes room in: the least needed first;
// a failing API's words outlast the release and the machines by state,
// and its age outlasts the org. The name and the freshness never go.
var giveWay = []step{
	{partCalls, false}, {partRelease, false}, {partStates, false}, {partCalls, true},
	{partError, false}, {partRelease, true}, {partStates, true}, {partReadOnly, false}, {partName, false},
	{partFeeds, true}, {partError, true}, {partBackoff, true}, {partAPI, true}, {partMode, true}, {partReadOnly, true},
}

// headerLine draws the header at the screen's width.
func (m Model) headerLine() string {
	t := m.theme
	name := m.cfg.App
	if name == "" {
		name = "all apps" // the overview, before an app is chosen
	}
	full := name
	if m.app.Org != "" {
		full = m.app.Org + "/" + name
	}
	mode := frame.ModeBadge(t, m.cfg.Demo)
	if m.bar != nil {
		mode = t.Badge.Render(" REPLAY ")
	}
	segs := []segment{{kind: partName, text: full, short: name}, {kind: partMode, text: mode}}
	if m.cfg.ReadOnly || m.keys.IsReadOnly() {
		segs = append(segs, segment{kind: partReadOnly, text: t.Badge.Render(" READONLY "), short: t.Badge.Render(" RO ")})
	}
	wall := m.wall()
	var right []segment
	if len(m.states) > 0 && m.cfg.App != "" {
		var long, short []string
		for _, sc := range m.states {
			look := t.State(sc.State)
			long = append(long, look.Style.Render(strconv.Itoa(sc.N)+" "+look.Word))
			short = append(short, look.Style.Render(look.Glyph+strconv.Itoa(sc.N)))
		}
		right = append(right, segment{kind: partStates, text: strings.Join(long, " "), short: strings.Join(short, " ")})
	}
	if rel := m.crash.Release; rel != "" && m.cfg.App != "" { // CrashLoops names the current release
		right = append(right, segment{kind: partRelease, text: "release " + words.Release(rel), short: words.Release(rel)})
	}
	fail, listed := m.sched.Failure(), m.sched.ListedWall()
	if m.cfg.Source.Ready() {
		st := m.cfg.Source.Stats()
		if fail.Err != nil || watch.IsBadToken(m.fatal) {
			segs = append(segs, segment{kind: partAPI, text: t.Fail.Render("API " + theme.GlyphFail)})
		} else {
			segs = append(segs, segment{kind: partAPI, text: t.Pass.Render("API " + theme.GlyphPass)})
		}
		for _, name := range m.sched.FailingFeeds() {
			segs = append(segs, segment{kind: partFeeds, text: t.Warn.Render(name + " " + theme.GlyphFail)})
		}
		if m.ownsError(st) {
			ago := "last error " + words.Duration(wall.Sub(st.LastErrorAt), words.Whole) + " ago"
			segs = append(segs, segment{kind: partError, text: ago + ": " + cell.OneLine(st.LastError), short: ago, detail: cell.OneLine(st.LastError)})
		}
		other := st.CallsLastMinute - st.MachinesLastMinute
		right = append(right, segment{kind: partCalls,
			text:  strconv.Itoa(st.MachinesLastMinute) + " Machines API calls/min · " + strconv.Itoa(other) + " logs/metrics",
			short: strconv.Itoa(st.MachinesLastMinute) + " API calls/min"})
		if st.BackoffUntil.After(wall) {
			right = append(right, segment{kind: partBackoff, text: t.Warn.Render("back-off " + cell.DurationUp(st.BackoffUntil.Sub(wall)))})
		}
	}
	switch {
	case m.cfg.App == "", m.fatal != nil: // nothing is fetched: the body says why
	case fail.Err != nil && !listed.IsZero():
		right = append(right, segment{kind: partFresh, text: t.Warn.Render(frame.Stale(wall.Sub(listed), fail.RetryAt.Sub(wall)))})
	case fail.Err != nil:
		right = append(right, segment{kind: partFresh, text: t.Warn.Render("no data yet · retrying in " + cell.DurationUp(fail.RetryAt.Sub(wall)))})
	case listed.IsZero():
		right = append(right, segment{kind: partFresh, text: "loading…"})
	default:
		right = append(right, segment{kind: partFresh, text: frame.Ago(wall.Sub(listed))})
	}
	for i := range right {
		right[i].right = true
	}
	l, r := fitHeader(append(segs, right...), m.width)
	for i := range l {
		if strings.HasPrefix(l[i], "last error ") {
			l[i] = t.Dim.Render(l[i])
		}
	}
	return frame.Header(t, m.width, l, r)
}

// fitHeader picks what fits in width: every segment whole if it can; else
// it makes room step by step (giveWay). The last error's words are cut to
// the room left rather than dropped, when a useful part of them fits; no
// other segment is ever cut (frame.Header cuts the name only when that
// alone is too wide).
func fitHeader(segs []segment, width int) (left, right []string) {
	long := make([]bool, len(segs))
	shown := make([]bool, len(segs))
	for i := range segs {
		long[i], shown[i] = true, true
	}
	errorText := map[int]string{}
	build := func() (l, r []string) {
		for i, s := range segs {
			if !shown[i] {
				continue
			}
			text := s.text
			if t, ok := errorText[i]; ok {
				text = t
			} else if !long[i] && s.short != "" {
				text = s.short
			}
			if s.right {
				r = append(r, text)
			} else {
				l = append(l, text)
			}
		}
		return l, r
	}
	used := func() int {
		l, r := build()
		w := joinedWidth(l) + joinedWidth(r)
		if len(r) > 0 && len(l) > 0 {
			w++
		}
		return w
	}
	for _, st := range giveWay {
		if used() <= width {
			break
		}
		for i, s := range segs {
			switch {
			case s.kind != st.part || !shown[i]:
			case st.drop:
				shown[i] = false
			case s.short != "" && long[i]:
				long[i] = false
				if s.kind == partError {
					// Cut the words to the room left, if enough of them fit.
					if room := width - used() - 2; room >= minErrorWords {
						errorText[i] = s.short + ": " + ansi.Truncate(s.detail, room, cell.Ellipsis)
					}
				}
			}
		}
	}
	return build()
}

// minErrorWords is the least of the last error's words worth showing.
const minErrorWords = 24

func joinedWidth(parts []string) int {
	if len(parts) == 0 {
		return 0
	}
	w := 3 * (len(parts) - 1) // " · "
	for _, p := range parts {
		w += ansi.StringWidth(p)
	}
	return w
}

// ownsError reports whether the client's last error is the shown app's:
// its call was about this app (or about none, the org's), and it came
// after the app was opened — an error of the app shown before never
// stays in the next one's header.
func (m *Model) ownsError(st watch.Stats) bool {
	if st.LastError == "" || st.LastErrorAt.Before(m.openedAt) {
		return false
	}
	return st.LastErrorApp == "" || m.cfg.App == "" || st.LastErrorApp == m.cfg.App
}
