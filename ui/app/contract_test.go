package app

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// The root–pane contract, checked over every registered pane and overlay,
// so a pane added later is covered without touching these tests.

// spy stands in for a registered pane: it records what reaches it and
// answers "ping" with a command whose reply is "pong".
type spy struct {
	pane.Pane
	got *[]string
}

type ping struct{}
type pong struct{ from pane.ID }

func (s spy) Update(msg tea.Msg) tea.Cmd {
	*s.got = append(*s.got, fmt.Sprintf("%s:%T", s.ID(), msg))
	if _, ok := msg.(ping); ok {
		id := s.ID()
		// A batch of two: each reply must come back addressed.
		return tea.Batch(func() tea.Msg { return pong{id} }, func() tea.Msg { return pong{id} })
	}
	return nil
}

// spied replaces every tile and overlay of m by a spy around it.
func spied(m Model) (Model, *[]string) {
	got := &[]string{}
	for i, p := range m.panes {
		m.panes[i] = spy{p, got}
	}
	for i, o := range m.overlays {
		m.overlays[i].pane = spyOverlay{spy{o.pane, got}, o.pane}
	}
	return m, got
}

type spyOverlay struct {
	spy
	o pane.Overlay
}

func (s spyOverlay) Open() tea.Cmd  { return s.o.Open() }
func (s spyOverlay) CanClose() bool { return s.o.CanClose() }

// run executes cmd as the runtime would, batches included, and returns
// the messages it produced.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, run(c)...)
		}
		return out
	case nil:
		return nil
	default:
		return []tea.Msg{msg}
	}
}

func TestAddressedMessagesReachOnlyTheirPane(t *testing.T) {
	m, got := spied(offline(t, false))
	all := m.allPanes()
	if len(all) < 2 {
		t.Fatalf("%d panes registered", len(all))
	}
	for _, target := range all {
		id := target.ID()
		*got = nil
		next, cmd := m.Update(pane.Msg{To: id, Gen: m.gen, Msg: ping{}})
		m = next.(Model)
		if want := []string{string(id) + ":app.ping"}; !reflect.DeepEqual(*got, want) {
			t.Errorf("ping to %s reached %v, want only %v", id, *got, want)
		}
		// The pane's replies come back addressed to it, and only it sees them.
		replies := run(cmd)
		if len(replies) != 2 {
			t.Fatalf("ping to %s: %d replies, want 2 (%v)", id, len(replies), replies)
		}
		*got = nil
		for _, r := range replies {
			pm, ok := r.(pane.Msg)
			if !ok || pm.To != id || pm.Gen != m.gen || pm.Msg != (pong{id}) {
				t.Fatalf("reply of %s is %#v, want pong addressed to it", id, r)
			}
			m = send(m, r)
		}
		if want := []string{string(id) + ":app.pong", string(id) + ":app.pong"}; !reflect.DeepEqual(*got, want) {
			t.Errorf("replies of %s reached %v, want %v", id, *got, want)
		}
	}

	// A message for the previous app's panes, and one nobody asked for,
	// reach no pane.
	*got = nil
	m = send(m, pane.Msg{To: all[0].ID(), Gen: m.gen - 1, Msg: ping{}})
	m = send(m, ping{})
	_ = send(m, pane.Msg{To: "no-such-pane", Gen: m.gen, Msg: ping{}})
	if len(*got) != 0 {
		t.Errorf("stale or unaddressed messages reached %v", *got)
	}
}

// replies is a program that runs one command and keeps what reached it,
// until it has want messages.
type replies struct {
	cmd  tea.Cmd
	want int
	got  []tea.Msg
}

func (r *replies) Init() tea.Cmd { return r.cmd }
func (r *replies) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		return r, nil
	}
	r.got = append(r.got, msg)
	if len(r.got) == r.want {
		return r, tea.Quit
	}
	return r, nil
}
func (r *replies) View() string { return "" }

// TestAddressWrapsBatchesAndSequences runs addressed batches and sequences
// in bubbletea's own runtime: every reply comes back addressed, a
// sequence's in order.
func TestAddressWrapsBatchesAndSequences(t *testing.T) {
	say := func(n int) tea.Cmd { return func() tea.Msg { return n } }
	for name, cmd := range map[string]tea.Cmd{
		"batch":    tea.Batch(say(1), say(2)),
		"sequence": pane.Sequence(say(1), say(2)),
	} {
		r := &replies{cmd: pane.Address("x", 7, cmd), want: 2}
		p := tea.NewProgram(r, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(), tea.WithoutRenderer())
		done := make(chan error, 1)
		go func() { _, err := p.Run(); done <- err }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		case <-time.After(10 * time.Second):
			p.Kill()
			t.Fatalf("%s: replies %v, want 2", name, r.got)
		}
		var got []pane.Msg
		for _, msg := range r.got {
			pm, ok := msg.(pane.Msg)
			if !ok || pm.To != "x" || pm.Gen != 7 {
				t.Errorf("%s: reply %#v is not addressed to x in generation 7", name, msg)
				continue
			}
			got = append(got, pm)
		}
		if name == "sequence" && (len(got) != 2 || got[0].Msg != 1 || got[1].Msg != 2) {
			t.Errorf("sequence: replies %v, want 1 then 2", got)
		}
	}
	if msg := pane.Address("x", 7, tea.Quit)(); msg != (tea.QuitMsg{}) {
		t.Errorf("tea.Quit became %#v: the runtime's own messages must pass unwrapped", msg)
	}
}

// fingerprint hashes everything reachable from v (unexported fields,
// pointers, maps, slices), except the shared theme and renderer, whose
// caches may legitimately fill on a first render, and funcs and channels.
// It writes values' bits to the hash directly (no fmt), as TestViewIsPure
// takes hundreds of fingerprints of panes holding thousands of log lines.
func fingerprint(v any) uint64 {
	var h maphash.Hash
	h.SetSeed(fingerprintSeed)
	fields := map[reflect.Type][]string{}
	walk(&h, reflect.ValueOf(v), map[uintptr]bool{}, fields, 0)
	return h.Sum64()
}

var fingerprintSeed = maphash.MakeSeed()

var skipTypes = map[reflect.Type]bool{
	reflect.TypeOf(&theme.Theme{}):       true,
	reflect.TypeOf(&lipgloss.Renderer{}): true,
}

// walk hashes v into h; fields caches each struct type's field names.
func walk(h *maphash.Hash, v reflect.Value, seen map[uintptr]bool, fields map[reflect.Type][]string, depth int) {
	if !v.IsValid() || depth > 64 {
		return
	}
	if skipTypes[v.Type()] {
		return
	}
	// The kind first, so that values of different shapes never hash alike.
	_ = h.WriteByte(byte(v.Kind()))
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			_ = h.WriteByte(0)
			return
		}
		if seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		walk(h, v.Elem(), seen, fields, depth+1)
	case reflect.Interface:
		if v.IsNil() {
			_ = h.WriteByte(0)
			return
		}
		_, _ = h.WriteString(v.Elem().Type().String())
		walk(h, v.Elem(), seen, fields, depth+1)
	case reflect.Struct:
		if v.Type().PkgPath() == "context" || v.Type().PkgPath() == "sync" || strings.HasPrefix(v.Type().PkgPath(), "sync/") {
			return
		}
		names, ok := fields[v.Type()]
		if !ok {
			for i := range v.NumField() {
				names = append(names, v.Type().Field(i).Name)
			}
			fields[v.Type()] = names
		}
		for i, name := range names {
			_, _ = h.WriteString(name)
			walk(h, v.Field(i), seen, fields, depth+1)
		}
	case reflect.Slice, reflect.Array:
		writeUint(h, uint64(v.Len()))
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			_, _ = h.Write(v.Bytes())
			return
		}
		for i := range v.Len() {
			walk(h, v.Index(i), seen, fields, depth+1)
		}
	case reflect.Map:
		// Each entry hashed alone (with its own seen set) and the sums
		// added: the map's order does not count.
		var sum uint64
		iter := v.MapRange()
		for iter.Next() {
			var e maphash.Hash
			e.SetSeed(fingerprintSeed)
			walk(&e, iter.Key(), map[uintptr]bool{}, fields, depth+1)
			_ = e.WriteByte(':')
			walk(&e, iter.Value(), map[uintptr]bool{}, fields, depth+1)
			sum += e.Sum64()
		}
		writeUint(h, uint64(v.Len()))
		writeUint(h, sum)
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
	case reflect.Bool:
		if v.Bool() {
			_ = h.WriteByte(1)
		} else {
			_ = h.WriteByte(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		writeUint(h, uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		writeUint(h, v.Uint())
	case reflect.Float32, reflect.Float64:
		writeUint(h, math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		writeUint(h, math.Float64bits(real(v.Complex())))
		writeUint(h, math.Float64bits(imag(v.Complex())))
	case reflect.String:
		writeUint(h, uint64(v.Len()))
		_, _ = h.WriteString(v.String())
	}
}

func writeUint(h *maphash.Hash, n uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], n)
	_, _ = h.Write(b[:])
}

// TestViewIsPure draws every registered pane and overlay, in several
// states (scrolled, drilled in, expanded) and sizes, and checks View
// changed nothing: the pane's whole state hashes the same before and after,
// and a second View draws the same frame.
func TestViewIsPure(t *testing.T) {
	t.Parallel()
	fx := newFixture(10, t0)
	m := fedRoot(t, fx, quietClient(t), false, 160, 48)
	steps := []tea.KeyMsg{uitest.Key("down"), uitest.Key("down"), uitest.Key("enter"), uitest.Key("pgdown"), uitest.Key("end")}
	for _, p := range m.allPanes() {
		for _, sz := range [][2]int{{78, 20}, {158, 12}, {40, 6}} {
			p.SetSize(sz[0], sz[1])
			for i := 0; i <= len(steps); i++ {
				for _, focused := range []bool{true, false} {
					before := fingerprint(p)
					first := p.View(focused, t0)
					if after := fingerprint(p); after != before {
						t.Errorf("%s at %dx%d after %d keys: View(focused=%v) changed the pane's state", p.ID(), sz[0], sz[1], i, focused)
					}
					if second := p.View(focused, t0); second != first {
						t.Errorf("%s at %dx%d after %d keys: a second View drew another frame", p.ID(), sz[0], sz[1], i)
					}
					uitest.AssertSize(t, first, sz[0], sz[1])
				}
				if i < len(steps) && !p.Capturing() {
					p.Update(steps[i])
				}
			}
			p.Update(uitest.Key("esc"))
		}
	}
}

var faint = regexp.MustCompile(`\x1b\[(?:[0-9]+;)*2(?:;[0-9]+)*m`)

// TestEveryPaneDimsStaleData: with the API down, every tile and overlay
// draws its last good data dimmed, not as fresh.
func TestEveryPaneDimsStaleData(t *testing.T) {
	uitest.PinColorProfile(t)
	fx := newFixture(10, t0)
	// Without colour, faint (SGR 2) is the one mark of dimmed text.
	m := fedRoot(t, fx, quietClient(t), true, 160, 48)
	fresh := map[pane.ID]string{}
	for _, p := range m.allPanes() {
		fresh[p.ID()] = p.View(false, t0)
	}
	m.setStale(true)
	for _, p := range m.allPanes() {
		if p.ID() == "wake" {
			continue // it shows no platform data: it reads the machines itself when it runs
		}
		stale := p.View(false, t0)
		if stale == fresh[p.ID()] {
			t.Errorf("%s draws stale data exactly as fresh", p.ID())
		}
		for i, l := range strings.Split(stale, "\n") {
			if strings.TrimSpace(ansi.Strip(l)) != "" && !faint.MatchString(l) {
				t.Errorf("%s line %d is not dimmed: %q", p.ID(), i, l)
				break
			}
		}
	}
}

// TestEveryPaneEmbedsTheSharedBase: the size, the stale flag and the
// default Capturing are pane.Base's, in every tile and overlay, so none
// keeps a copy of them that could drift.
func TestEveryPaneEmbedsTheSharedBase(t *testing.T) {
	m := New(Config{App: fixtureApp, Theme: theme.New(true)})
	base := reflect.TypeOf(pane.Base{})
	for _, p := range m.allPanes() {
		typ := reflect.TypeOf(p)
		for typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		f, ok := typ.FieldByName("Base")
		if !ok || !f.Anonymous || f.Type != base {
			t.Errorf("%s (%s) does not embed pane.Base", p.ID(), typ)
		}
	}
}
