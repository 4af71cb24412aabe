package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
)

func newStatusCmd(g *globalFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Print one snapshot of what the dashboard shows, without a terminal",
		Long: `status takes one look at an app (or, without -a and without a fly.toml, at
every app the token can see) and prints what the panes show: machine states,
cold starts from a day of logs, swap, bytecode cache, crash-loop verdicts and
edge-versus-origin errors. It never changes a machine; probes run only on
machines that are already started. With --json, stdout holds only JSON.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), 2*time.Minute)
			defer cancel()
			p, err := connect(ctx, g, false)
			if err != nil {
				return &exitError{code: 1, err: err}
			}
			defer p.close()
			apps := []string{p.app}
			if g.app == "" && (p.demo || p.app == "") {
				list, err := p.source.Client.ListApps(ctx, p.source.Org)
				if err != nil {
					return &exitError{code: 1, err: fmt.Errorf("listing apps: %w", err)}
				}
				apps = apps[:0]
				for _, a := range list {
					apps = append(apps, a.Name)
				}
				sort.Strings(apps)
			}
			var reports []statusReport
			for _, app := range apps {
				a, err := p.source.Collect(ctx, app)
				if err != nil {
					return &exitError{code: 1, err: fmt.Errorf("%s: %s", app, fly.Redact(err.Error(), p.token))}
				}
				reports = append(reports, newStatusReport(a, p.source.Now()))
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(map[string]any{"org": p.source.Org, "demo": p.demo, "apps": reports})
			}
			for i, r := range reports {
				if i > 0 {
					fmt.Fprintln(out)
				}
				r.writeText(out)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON only (diagnostics go to stderr)")
	return cmd
}

// statusReport is the stable JSON shape of `flywake status --json`.
type statusReport struct {
	App        string          `json:"app"`
	Release    string          `json:"release"`
	At         time.Time       `json:"at"`
	Machines   []statusMachine `json:"machines"`
	ColdStarts statusColdStart `json:"cold_starts"`
	Swap       statusVerdict   `json:"swap"`
	Bytecode   statusVerdict   `json:"bytecode"`
	CrashLoop  string          `json:"crash_loop"` // "" when no machine of the current release is crash-looping
	Malformed  int             `json:"malformed_entries_skipped,omitempty"`
	EdgeOrigin *statusEdge     `json:"edge_origin,omitempty"`
}

type statusMachine struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	State       string `json:"state"`
	Region      string `json:"region"`
	Release     string `json:"release"`
	Checks      string `json:"checks"`
	Autostop    string `json:"autostop"`
	NewestEvent string `json:"newest_event"`
	Crash       string `json:"crash"`
}

type statusColdStart struct {
	Boots24h   int     `json:"boots_24h"`
	BootsHour  int     `json:"boots_last_hour"`
	P50Seconds float64 `json:"p50_s"`
	P95Seconds float64 `json:"p95_s"`
	MaxSeconds float64 `json:"max_s"`
	Resumes    int     `json:"resumes_24h"`
	Dominant   string  `json:"dominant"`
	Live       int     `json:"booting_now"`
}

type statusVerdict struct {
	Level string `json:"level"`
	Line  string `json:"line"`
}

type statusEdge struct {
	Died1h  float64 `json:"died_1h"`
	Edge1h  float64 `json:"edge_1h"`
	Died24h float64 `json:"died_24h"`
	Edge24h float64 `json:"edge_24h"`
	Error   string  `json:"error,omitempty"`
}

func verdictOf(v diagnose.Verdict) statusVerdict {
	return statusVerdict{Level: v.Level.String(), Line: v.Line}
}

func newStatusReport(a *snapshot.App, now time.Time) statusReport {
	cs := a.ColdStarts(now)
	r := statusReport{
		App: a.Name, Release: a.CurrentRelease(), At: now.UTC(),
		ColdStarts: statusColdStart{
			Boots24h: cs.PerDay, BootsHour: cs.PerHour,
			P50Seconds: cs.P50.Seconds(), P95Seconds: cs.P95.Seconds(), MaxSeconds: cs.Max.Seconds(),
			Resumes: cs.Resumes.Count, Dominant: cs.DominantSentence(), Live: len(a.LiveBoots()),
		},
		Swap: verdictOf(a.Swap()), Bytecode: verdictOf(a.BytecodeVerdict()), CrashLoop: a.CrashBanner(),
		Malformed: a.Malformed,
		Machines:  []statusMachine{},
	}
	for _, m := range a.Machines {
		sm := statusMachine{ID: m.ID, Name: m.Name, State: m.State, Region: m.Region, Autostop: "off", Release: m.Release}
		if m.Config != nil {
			sm.Autostop = m.Config.Autostop
		}
		passing, total := m.CheckCounts()
		sm.Checks = fmt.Sprintf("%d/%d", passing, total)
		if e, ok := m.NewestEvent(); ok {
			sm.NewestEvent = fmt.Sprintf("%s/%s/%s %s ago", e.Type, e.Status, e.Source, now.Sub(e.At).Round(time.Second))
		}
		if m.Crash.Kind == diagnose.CrashLooping || m.Crash.Kind == diagnose.GaveUp {
			sm.Crash = m.Crash.Kind.String()
		}
		r.Machines = append(r.Machines, sm)
	}
	if eo := a.Metrics; eo != nil {
		se := &statusEdge{Error: eo.Err}
		se.Died1h, se.Edge1h = snapshot.Died(eo.Edge1h, eo.App1h)
		se.Died24h, se.Edge24h = snapshot.Died(eo.Edge24h, eo.App24h)
		r.EdgeOrigin = se
	}
	return r
}

func (r statusReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "%s  release v%s  at %s\n", r.App, r.Release, r.At.Format(time.RFC3339))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  MACHINE\tSTATE\tREGION\tREL\tCHECKS\tAUTOSTOP\tNEWEST EVENT\tCRASH")
	for _, m := range r.Machines {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.ID, m.State, m.Region, m.Release, m.Checks, m.Autostop, m.NewestEvent, m.Crash)
	}
	tw.Flush()
	cs := r.ColdStarts
	fmt.Fprintf(w, "  cold starts (24 h, from logs): %d boots, %d in the last hour, p50 %.1fs p95 %.1fs max %.1fs; %d resumes; %d booting now\n",
		cs.Boots24h, cs.BootsHour, cs.P50Seconds, cs.P95Seconds, cs.MaxSeconds, cs.Resumes, cs.Live)
	if cs.Dominant != "" {
		fmt.Fprintf(w, "    %s\n", cs.Dominant)
	}
	fmt.Fprintf(w, "  swap     [%s] %s\n", r.Swap.Level, r.Swap.Line)
	fmt.Fprintf(w, "  bytecode [%s] %s\n", r.Bytecode.Level, r.Bytecode.Line)
	if r.CrashLoop != "" {
		fmt.Fprintf(w, "  CRASH LOOP: %s\n", r.CrashLoop)
	}
	if r.Malformed > 0 {
		fmt.Fprintf(w, "  ! %d malformed entries skipped in the API's answer (a null machine, check or event)\n", r.Malformed)
	}
	if e := r.EdgeOrigin; e != nil {
		if e.Error != "" {
			fmt.Fprintf(w, "  edge vs origin: unavailable (%s)\n", strings.TrimSpace(e.Error))
		} else {
			fmt.Fprintf(w, "  edge vs origin: %s of %s requests died between the edge and the app in 24 h (%s in the last hour)\n",
				count(e.Died24h), count(e.Edge24h), count(e.Died1h))
		}
	}
}

func count(f float64) string { return fmt.Sprintf("%.0f", f) }
