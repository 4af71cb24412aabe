package swap

import (
	"fmt"
	"strconv"

	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// columns of the per-machine table; the probe status takes what is left.
// SwapFree and SwapTotal share a column so that the table fits 78 cells
// (an 80×24 terminal) with the OOM count; that cell also says why a machine
// has no numbers, so the status column is the first to go when narrow, and
// machine, state and the swap numbers the last.
// The columns, by index.
const (
	colMachine = iota
	colState
	colMemory
	colSwapCfg
	colSwapNow
	colAvail
	colUsed
	colOOM
	colStatus
)

var columns = []table.Column{
	{Title: "machine", Width: 14},
	{Title: "state", Width: 11},
	{Title: "memory", Width: 7, Align: table.AlignRight, Drop: 4},
	{Title: "swap cfg", Width: 8, Align: table.AlignRight, Drop: 1},
	{Title: "SwapFree/Tot", Width: 12, Align: table.AlignRight},
	{Title: "MemAvail", Width: 8, Align: table.AlignRight, Drop: 5},
	{Title: "used", Width: 6, Align: table.AlignRight, Drop: 2},
	{Title: "OOM", Width: 3, Align: table.AlignRight, Drop: 3},
	{Title: "meminfo", Width: 11, Flex: 1, Drop: 6, Live: true},
}

// notShown fills a meminfo cell the pane has no number for.
const notShown = "–"

// entry is one machine's row kept between refreshes, with what it was
// built from: while both hold, only the probe's age is written again. Its
// cells are formatted when the row is first drawn or searched (Format).
type entry struct {
	m      *snapshot.Machine // in the listing's slice, which a listing replaces and never writes
	cache  *rowCache
	hash   uint64
	probe  snapshot.Probe[diagnose.Meminfo]
	probed bool
	facts  diagnose.SwapFacts
	row    *table.Row // nil until drawn or searched
	age    bool       // the status cell is "probed … ago", written as drawn (see ages)
}

// rowCache keeps the rows by machine, in the listing's order (see buildRows).
type rowCache struct {
	kept   pane.Kept[entry]
	th     *theme.Theme
	states *table.StateStyles
	rows   []table.Row          // reused for the table's rows
	facts  []diagnose.SwapFacts // reused for the verdict
}

// buildRows turns the model into one table row per machine, and its swap
// facts (for the verdict), in machine order: rows the table formats as it
// draws them, plain cells and the styles the table applies to the rows on
// screen only. A machine whose row hash and meminfo probe did not change
// keeps its entry (its facts, and its row once formatted).
func buildRows(t *theme.Theme, states *table.StateStyles, a *snapshot.App, cache *rowCache) ([]table.Row, []diagnose.SwapFacts) {
	cache.th, cache.states = t, states
	probes := len(a.Meminfo) > 0
	entries := cache.kept.Refresh(len(a.Machines), func(i int) string { return a.Machines[i].ID }, func(i int, old, e *entry) {
		m := &a.Machines[i]
		var probe snapshot.Probe[diagnose.Meminfo]
		var probed bool
		if probes {
			probe, probed = a.Meminfo[m.ID]
		}
		if old != nil && old.probe == probe && old.probed == probed && (old.hash == m.Hash || sameSwap(old.m, m)) {
			*e = *old
			e.m, e.hash = m, m.Hash
			return
		}
		*e = entry{m: m, cache: cache, hash: m.Hash, probe: probe, probed: probed, facts: snapshot.SwapFactsOf(*m, probe, probed)}
	})
	cache.rows, cache.facts = cache.rows[:0], cache.facts[:0]
	for i := range entries {
		e := &entries[i]
		cache.rows = append(cache.rows, table.Row{ID: e.m.ID, Lazy: e})
		cache.facts = append(cache.facts, e.facts)
	}
	return cache.rows, cache.facts
}

// sameSwap reports whether x and y make the same facts and row, probed
// alike: the same machine, state and config (the converter hands an
// unchanged config again), and as many OOM kills among their events
// (false: perhaps not). A rename changes neither.
func sameSwap(x, y *snapshot.Machine) bool {
	return x.ID == y.ID && x.State == y.State && x.Config == y.Config &&
		(sameArray(x.Events, y.Events) || oomKills(x) == oomKills(y))
}

// sameArray reports whether x and y are one slice: a converter hands a
// machine's unchanged events again.
func sameArray[E any](x, y []E) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

func oomKills(m *snapshot.Machine) int {
	n := 0
	for i := range m.Events {
		if m.Events[i].OOMKilled {
			n++
		}
	}
	return n
}

// release lets the previous listing's machines go once the table holds
// the new rows.
func (cache *rowCache) release() { cache.kept.Release() }

// ages is the table's Live func: a probed machine's "probed … ago" as of now.
func (cache *rowCache) ages(now time.Time) table.Live {
	return func(r table.Row, col int) (string, bool) {
		e, ok := r.Lazy.(*entry)
		if !ok || col != colStatus {
			return "", false
		}
		if e.Format(); !e.age {
			return "", false
		}
		return "probed " + words.Duration(now.Sub(e.probe.At), words.Whole) + " ago", true
	}
}

// Format is the machine's row (table.Lazy), formatted once per entry.
func (e *entry) Format() table.Row {
	if e.row == nil {
		r := e.format(e.cache.th, e.cache.states)
		e.row = &r
	}
	return *e.row
}

func (e *entry) format(t *theme.Theme, states *table.StateStyles) table.Row {
	m, f := e.m, e.facts
	c, l := make([]string, len(columns)), make([]*lipgloss.Style, len(columns))
	c[colMemory], c[colSwapCfg] = "?", "?"
	if cfg := m.Config; cfg != nil {
		c[colSwapCfg], l[colSwapCfg] = "none", &t.Dim
		if cfg.SwapMB > 0 {
			c[colSwapCfg], l[colSwapCfg] = megabytes(cfg.SwapMB), nil
		}
		if cfg.MemoryMB > 0 {
			c[colMemory] = megabytes(cfg.MemoryMB)
		}
	}
	var reason string
	c[colStatus], l[colStatus], reason, e.age = probeStatus(t, m, e.probe, e.probed)
	c[colSwapNow], l[colSwapNow], c[colAvail], c[colUsed] = reason, &t.Dim, notShown, notShown
	if mi := f.Meminfo; mi != nil {
		c[colSwapNow], l[colSwapNow] = freeOfTotal(mi.SwapFreeKB, mi.SwapTotalKB), nil
		c[colAvail], c[colUsed] = formatKB(mi.MemAvailableKB), formatKB(mi.SwapUsedKB())
		if mi.SwapUsedKB() > 0 {
			l[colUsed] = &t.Warn
		}
	}
	c[colOOM] = "0"
	if f.OOMKills > 0 {
		c[colOOM], l[colOOM] = cell.Thousands(f.OOMKills), &t.Fail
	}
	c[colMachine] = m.ID
	c[colState], l[colState] = states.Look(m.State)
	return table.Row{Cells: c, Styles: l, Search: table.SearchText(c)}
}

func megabytes(mb int) string { return strconv.Itoa(mb) + " MB" }

// probeStatus says calmly why a machine has numbers or not (exec only runs
// on started machines, once per boot): the full status and its style, a
// short reason for a machine without numbers, and whether the status is the
// probe's age (written on every refresh).
func probeStatus(t *theme.Theme, m *snapshot.Machine, p snapshot.Probe[diagnose.Meminfo], probed bool) (status string, style *lipgloss.Style, reason string, age bool) {
	running := m.State == "started"
	switch {
	case probed && p.Err != "":
		return "probe failed: " + p.Err, &t.Unknown, "probe failed", false
	case probed && !running:
		return "not running · last boot's", &t.Dim, "", false
	case probed:
		return "", &t.Dim, "", true
	case !running:
		return "not running", &t.Dim, "not running", false
	default:
		return "not probed yet", &t.Dim, "not probed", false
	}
}

// freeOfTotal is "2048/2048 MB": swap free of swap total.
func freeOfTotal(freeKB, totalKB int64) string {
	if totalKB < 1024 {
		return fmt.Sprintf("%d/%d kB", freeKB, totalKB)
	}
	return fmt.Sprintf("%d/%d MB", (freeKB+512)/1024, (totalKB+512)/1024)
}

// formatKB shows meminfo amounts: small ones in kB, the rest in whole MB.
func formatKB(kb int64) string {
	if kb < 1024 {
		return fmt.Sprintf("%d kB", kb)
	}
	return fmt.Sprintf("%d MB", (kb+512)/1024)
}

// costLine names what swap costs: Fly cannot suspend a machine with swap,
// so autosuspend silently stops it and the next request waits a cold boot.
func costLine(a *snapshot.App) string {
	withSwap := 0
	var others []string
	for i := range a.Machines {
		m := &a.Machines[i]
		if m.Config == nil {
			continue
		}
		for _, b := range m.Config.SuspendBlockers {
			if strings.HasPrefix(b, "swap") {
				withSwap++
			} else if !slices.Contains(others, b) {
				others = append(others, b)
			}
		}
	}
	line := "no swap configured: swap does not block suspend"
	if len(a.Machines) == 0 {
		line = "no machines listed"
	}
	if withSwap > 0 {
		line = fmt.Sprintf("swap blocks suspend on %d/%d machines — autosuspend falls back to stop, so a wake is a cold boot",
			withSwap, len(a.Machines))
	}
	if len(others) > 0 {
		line += "; also blocking suspend: " + strings.Join(others, ", ")
	}
	return line
}
