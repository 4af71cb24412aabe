package machines

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/theme"
)

type timeNow = time.Time

// detailLogLines is how many of the machine's log lines the detail shows.
const detailLogLines = 30

// EventsNote explains why flywake never counts crashes in the event list.
func EventsNote(n int) string {
	return fmt.Sprintf("the platform keeps only the newest %d events per machine — "+
		"flywake judges crash loops by the newest crash's time, not a count", n)
}

// detailLines is everything the drill-down shows about machine id.
func detailLines(a *snapshot.App, id string, th *theme.Theme, now time.Time) []string {
	if a == nil {
		return []string{th.Dim.Render("no data yet")}
	}
	m, ok := a.Machine(id)
	if !ok {
		return []string{th.Warn.Render("machine " + id + " is no longer in the listing (destroyed or replaced)")}
	}
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	head := func(s string) { add("", th.TableHeader.Render(s)) }

	add(summaryLine(m, th))
	if m.HostDown() {
		add(th.Warn.Render(fmt.Sprintf("! host unreachable (host_status %q): config below is the platform's incomplete_config and the state may be old", m.HostStatus)))
	}
	if m.Crash.Kind != diagnose.CrashUnknown {
		look := th.Level(m.Crash.Kind.Level())
		add(look.Style.Render(look.Glyph+" "+m.Crash.Kind.String()) + "  " + m.Crash.Reason)
	}
	if m.Rollout != 0 {
		if jm, ok := a.Rollout.Machine(m.ID); ok {
			moved := words.Moved(m.FromRelease, m.Release)
			add(fmt.Sprintf("rollout %s: %s — %s", moved, jm.Status, jm.Reason))
		}
	}

	head("Config")
	add(configLines(m.Config)...)

	head("Checks")
	add(checkLines(m, th)...)

	head("Probes")
	add(probeLines(a, m, th, now)...)

	head("Events (newest first)")
	add(th.Dim.Render(EventsNote(maxEvents(a))))
	add(eventLines(m, now)...)

	head("Recent logs")
	logs := a.MachineLogs(id, detailLogLines)
	if len(logs) == 0 {
		add(th.Dim.Render("no log lines for this machine in the fetched window"))
	}
	for _, l := range logs {
		add(fmt.Sprintf("%s %s %s", words.Clock(l.Time, now), th.Dim.Render("["+l.Provider+"]"), l.Message))
	}
	return out
}

func summaryLine(m snapshot.Machine, th *theme.Theme) string {
	parts := []string{th.State(m.State).Render(), m.ID}
	if m.Name != "" {
		parts = append(parts, m.Name)
	}
	parts = append(parts, "region "+words.OrMissing(m.Region))
	if m.Config != nil {
		parts = append(parts, "group "+words.OrMissing(m.ProcessGroup))
		if m.Release != "" {
			parts = append(parts, "release "+words.Release(m.Release))
		}
	}
	if d := snapshot.ShortDigest(m.ImageDigest); d != "" {
		parts = append(parts, "image "+d)
	}
	return strings.Join(parts, " · ")
}

// configLines summarises what matters for cold starts, suspend and load.
func configLines(cfg *snapshot.Config) []string {
	if cfg == nil {
		return []string{"  no config reported"}
	}
	row := func(k, v string) string { return fmt.Sprintf("  %-12s %s", k, v) }
	var out []string
	if cfg.CPUKind != "" || cfg.CPUs > 0 || cfg.MemoryMB > 0 {
		out = append(out, row("guest", fmt.Sprintf("%s · %d CPU · %d MB", words.OrMissing(cfg.CPUKind), cfg.CPUs, cfg.MemoryMB)))
	} else {
		out = append(out, row("guest", "–"))
	}
	swap := "none"
	if cfg.SwapMB > 0 {
		swap = fmt.Sprintf("%d MB", cfg.SwapMB)
	}
	out = append(out, row("swap", swap))
	auto := cfg.Autostop + " · autostart " + onOff(cfg.Autostart)
	if mr := cfg.MinRunning; mr != nil {
		auto += fmt.Sprintf(" · min running %d", *mr)
	}
	out = append(out, row("autostop", auto))
	if b := cfg.SuspendBlockers; len(b) > 0 {
		out = append(out, row("suspend", "blocked by "+strings.Join(b, ", ")))
	}
	for _, s := range cfg.Services {
		if c := s.Concurrency; c != nil {
			out = append(out, row("concurrency", fmt.Sprintf("%s · soft %d · hard %d", words.OrMissing(c.Type), c.SoftLimit, c.HardLimit)))
		}
	}
	for _, s := range cfg.Services {
		for _, c := range s.Checks {
			out = append(out, row("check", describeCheck(c)))
		}
	}
	for _, c := range cfg.Checks {
		out = append(out, row("check", c.Name+": "+describeCheck(c)))
	}
	if cfg.RestartPolicy != "" || cfg.RestartRetries > 0 {
		p := words.OrMissing(cfg.RestartPolicy)
		if cfg.RestartRetries > 0 {
			p += fmt.Sprintf(" (max %d retries)", cfg.RestartRetries)
		}
		out = append(out, row("restart", p))
	}
	out = append(out, row("image", words.OrMissing(cfg.Image)))
	return out
}

func describeCheck(c snapshot.ConfigCheck) string {
	s := words.OrMissing(c.Type)
	if c.Port != 0 {
		s += fmt.Sprintf(" :%d", c.Port)
	}
	if c.Path != "" {
		s += " " + c.Path
	}
	if c.Interval != 0 {
		s += " every " + words.Duration(c.Interval, words.Whole)
	}
	if c.GracePeriod != 0 {
		s += " · grace " + words.Duration(c.GracePeriod, words.Whole)
	}
	return s
}

func checkLines(m snapshot.Machine, th *theme.Theme) []string {
	var out []string
	for _, c := range m.Checks {
		look := th.Level(diagnose.CheckLevel(c.Status))
		line := "  " + look.Style.Render(look.Glyph+" "+c.Status) + " " + c.Name
		if o := strings.TrimSpace(c.Output); o != "" {
			line += th.Dim.Render(" — " + o)
		}
		out = append(out, line)
	}
	if len(out) == 0 {
		out = append(out, th.Dim.Render("  no checks reported"))
	}
	return out
}

func probeLines(a *snapshot.App, m snapshot.Machine, th *theme.Theme, now time.Time) []string {
	var out []string
	if p, ok := a.Meminfo[m.ID]; ok {
		if p.Err != "" {
			out = append(out, "  meminfo  "+th.Warn.Render("failed: "+p.Err))
		} else {
			v := p.Value
			out = append(out,
				fmt.Sprintf("  meminfo  MemTotal %s kB · MemAvailable %s kB  %s", kb(v.MemTotalKB), kb(v.MemAvailableKB), th.Dim.Render("at "+words.Clock(p.At, now))),
				fmt.Sprintf("           SwapTotal %s kB · SwapFree %s kB · used %s kB", kb(v.SwapTotalKB), kb(v.SwapFreeKB), kb(v.SwapUsedKB())))
		}
	} else {
		out = append(out, th.Dim.Render("  meminfo  not probed (exec runs only on started machines)"))
	}
	if p, ok := a.Sockets[m.ID]; ok {
		if p.Err != "" {
			out = append(out, "  sockets  "+th.Warn.Render("failed: "+p.Err))
		} else {
			out = append(out, "  sockets  "+socketCounts(p.Value)+"  "+th.Dim.Render("at "+words.Clock(p.At, now)))
		}
	} else {
		out = append(out, th.Dim.Render("  sockets  not probed"))
	}
	return out
}

func socketCounts(by map[string]int) string {
	if len(by) == 0 {
		return "none open"
	}
	states := make([]string, 0, len(by))
	for s := range by {
		states = append(states, s)
	}
	sort.Strings(states)
	parts := make([]string, len(states))
	for i, s := range states {
		parts[i] = fmt.Sprintf("%s %d", s, by[s])
	}
	return strings.Join(parts, " · ")
}

func eventLines(m snapshot.Machine, now time.Time) []string {
	var out []string
	for _, e := range m.Events {
		ago := words.Missing // no time, or none that is a date (words.Datable)
		if words.Datable(e.At) {
			ago = words.Duration(now.Sub(e.At), words.Whole) + " ago"
		}
		line := fmt.Sprintf("  %s  %s/%s/%s  %s", words.Clock(e.At, now), e.Type, e.Status, e.Source, ago)
		if e.ExitCode != 0 || e.OOMKilled {
			line += fmt.Sprintf("  exit %d", e.ExitCode)
			if e.OOMKilled {
				line += " (OOM killed)"
			}
		}
		if e.Crash {
			line += "  crash"
		}
		out = append(out, line)
	}
	if len(out) == 0 {
		out = append(out, "  no events reported")
	}
	return out
}

// maxEvents is the longest event list of the app: the platform's cap as far
// as the listing shows it.
func maxEvents(a *snapshot.App) int {
	n := 0
	for i := range a.Machines {
		n = max(n, len(a.Machines[i].Events))
	}
	return n
}

func kb(v int64) string { return cell.Thousands(int(v)) }

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
