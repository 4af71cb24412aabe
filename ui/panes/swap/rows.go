package swap

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/theme"
)

// columns of the per-machine table; the probe status takes what is left.
// SwapFree and SwapTotal share a column so that the table fits 78 cells
// (an 80×24 terminal) with the OOM count; that cell also says why a machine
// has no numbers, so the status column is the first to go when narrow, and
// machine, state and the swap numbers the last.
var columns = []table.Column{
	{Title: "machine", Width: 14},
	{Title: "state", Width: 11},
	{Title: "memory", Width: 7, Align: table.AlignRight, Drop: 4},
	{Title: "swap cfg", Width: 8, Align: table.AlignRight, Drop: 1},
	{Title: "SwapFree/Tot", Width: 12, Align: table.AlignRight},
	{Title: "MemAvail", Width: 8, Align: table.AlignRight, Drop: 5},
	{Title: "used", Width: 6, Align: table.AlignRight, Drop: 2},
	{Title: "OOM", Width: 3, Align: table.AlignRight, Drop: 3},
	{Title: "meminfo", Width: 11, Flex: 1, Drop: 6},
}

// notShown fills a meminfo cell the pane has no number for.
const notShown = "–"

// buildRows turns the model into one table row per machine.
func buildRows(t *theme.Theme, a *snapshot.App, now time.Time) []table.Row {
	facts := map[string]diagnose.SwapFacts{}
	for _, f := range a.SwapFacts() {
		facts[f.Machine] = f
	}
	rows := make([]table.Row, 0, len(a.Machines))
	for _, m := range a.Machines {
		f := facts[m.ID]
		memory, swapCfg := "?", "?"
		if cfg := m.Config; cfg != nil {
			swapCfg = t.Dim.Render("none")
			if cfg.SwapMB > 0 {
				swapCfg = fmt.Sprintf("%d MB", cfg.SwapMB)
			}
			if cfg.MemoryMB > 0 {
				memory = fmt.Sprintf("%d MB", cfg.MemoryMB)
			}
		}
		status, reason := probeStatus(t, a, m, now)
		swapNow, avail, used := t.Dim.Render(reason), notShown, notShown
		if mi := f.Meminfo; mi != nil {
			swapNow, avail = freeOfTotal(mi.SwapFreeKB, mi.SwapTotalKB), formatKB(mi.MemAvailableKB)
			used = formatKB(mi.SwapUsedKB())
			if mi.SwapUsedKB() > 0 {
				used = t.Warn.Render(used)
			}
		}
		oom := "0"
		if f.OOMKills > 0 {
			oom = t.Fail.Render(cell.Thousands(f.OOMKills))
		}
		rows = append(rows, table.Row{ID: m.ID, Cells: []string{
			m.ID, t.State(m.State).Render(), memory, swapCfg, swapNow, avail, used, oom, status,
		}})
	}
	return rows
}

// probeStatus says calmly why a machine has numbers or not (exec only runs
// on started machines, once per boot): the full status, and a short reason
// for a machine without numbers.
func probeStatus(t *theme.Theme, a *snapshot.App, m snapshot.Machine, now time.Time) (status, reason string) {
	p, probed := a.Meminfo[m.ID]
	running := m.State == "started"
	switch {
	case probed && p.Err != "":
		return t.Unknown.Render("probe failed: " + p.Err), "probe failed"
	case probed && !running:
		return t.Dim.Render("not running · last boot's"), ""
	case probed:
		return t.Dim.Render("probed " + cell.Duration(now.Sub(p.At)) + " ago"), ""
	case !running:
		return t.Dim.Render("not running"), "not running"
	default:
		return t.Dim.Render("not probed yet"), "not probed"
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
	for _, m := range a.Machines {
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
	if withSwap > 0 {
		line = fmt.Sprintf("swap blocks suspend on %d/%d machines — autosuspend falls back to stop, so a wake is a cold boot",
			withSwap, len(a.Machines))
	}
	if len(others) > 0 {
		line += "; also blocking suspend: " + strings.Join(others, ", ")
	}
	return line
}
