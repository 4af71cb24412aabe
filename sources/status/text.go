package status

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
)

// WriteText prints the report for people: per app a machines table, then
// the cold starts, swap, bytecode, crash-loop and edge-versus-origin lines.
func (r Report) WriteText(w io.Writer) {
	for i, a := range r.Apps {
		if i > 0 {
			fmt.Fprintln(w)
		}
		a.WriteText(w)
	}
}

// WriteText prints one app.
func (a App) WriteText(w io.Writer) {
	release := words.Missing
	if a.Release != nil {
		release = words.Release(*a.Release)
	}
	fmt.Fprintf(w, "%s  release %s  at %s\n", a.App, release, a.ObservedAt.Format(time.RFC3339))
	a.table.write(w, "  ")
	cs := a.ColdStarts
	crashes := ""
	if cs.CrashRestarts24h > 0 {
		crashes = "; " + words.Count(cs.CrashRestarts24h, "crash restart", "crash restarts") + " (not counted as boots)"
	}
	fmt.Fprintf(w, "  cold starts (24 h, from logs): %s, %d in the last hour, p50 %s p95 %s max %s; %s%s; %d booting now\n",
		words.Count(cs.Boots24h, "boot", "boots"), cs.BootsLastHour, secs(cs.P50Seconds), secs(cs.P95Seconds), secs(cs.MaxSeconds),
		words.Count(cs.Resumes24h, "resume", "resumes"), crashes, cs.BootingNow)
	if cs.Summary != "" {
		fmt.Fprintf(w, "    %s\n", cs.Summary)
	}
	if p := a.Probes; p != nil {
		fmt.Fprintf(w, "  probes: %s\n", probesLine(*p))
	}
	fmt.Fprintf(w, "  swap     [%s] %s\n", a.Swap.Level, a.Swap.Line)
	fmt.Fprintf(w, "  bytecode [%s] %s\n", a.Bytecode.Level, a.Bytecode.Line)
	fmt.Fprintf(w, "  backlog  [%s] %s\n", a.Backlog.Level, a.Backlog.Line)
	for _, m := range a.Machines {
		if b := m.Backlog; b != nil && (b.Level == diagnose.Warn || b.Level == diagnose.Fail) {
			fmt.Fprintf(w, "    %s: %s\n", m.ID, b.Reason)
		}
	}
	if a.CrashLoop != nil {
		fmt.Fprintf(w, "  CRASH LOOP: %s\n", *a.CrashLoop)
	} else {
		fmt.Fprintf(w, "  crash    [%s] %s\n", a.Crash.Level, a.Crash.Line)
	}
	if a.Malformed > 0 {
		fmt.Fprintf(w, "  ! %s skipped in the API's answer (a null machine, check or event)\n", words.Count(a.Malformed, "malformed entry", "malformed entries"))
	}
	if e := a.EdgeOrigin; e != nil {
		if e.Error != nil {
			fmt.Fprintf(w, "  edge vs origin: unavailable (%s)\n", strings.TrimSpace(*e.Error))
		} else {
			for _, v := range e.Verdicts24h {
				line := v.Line
				if strings.HasSuffix(line, "a backlog") {
					line += " (see backlog above)"
				}
				fmt.Fprintf(w, "  edge/app [%s] %s\n", v.Level, line)
			}
			fmt.Fprintf(w, "    24 h: edge %s · app %s, %s lost in between, %s answered too late; last hour: edge %s · app %s, %s lost, %s too late\n",
				count(e.Edge24h), count(e.App24h), count(e.Died24h), count(e.TooLate24h),
				count(e.Edge1h), count(e.App1h), count(e.Died1h), count(e.TooLate1h))
		}
	}
}

// probesLine says which machines the probes behind the swap, backlog and
// bytecode lines ran on.
func probesLine(p snapshot.ProbeSample) string {
	if p.Started == 0 {
		return "none: no started machine to probe"
	}
	s := fmt.Sprintf("%d of %s (up to %d per process group and image), %s",
		p.Probed, words.Count(p.Started, "started machine", "started machines"), p.PerGroup, words.Count(p.Execs, "exec call", "exec calls"))
	if p.Capped {
		s += fmt.Sprintf("; the sample was cut at %s", words.Count(p.Limit, "exec call", "exec calls"))
	}
	return s
}

// secs spells the report's seconds as every measured time is spelled.
func secs(f *float64) string {
	if f == nil {
		return words.Missing
	}
	return words.Duration(time.Duration(*f*float64(time.Second)), words.Tenths)
}

func count(f *float64) string {
	if f == nil {
		return words.Missing
	}
	return words.Thousands(int(*f + 0.5))
}
