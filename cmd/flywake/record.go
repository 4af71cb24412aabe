package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/recorder"
	"github.com/flywake/flywake/sources/replay"
	"github.com/flywake/flywake/sources/words"
)

// recordStatusEvery is how often record says on stderr what it has kept.
const recordStatusEvery = 30 * time.Second

func newRecordCmd(g *globalFlags) *cobra.Command {
	var (
		db, keepFlag, export, out string
		runFor                    time.Duration
		org                       bool
	)
	var keep time.Duration
	rec := command{
		name: "record", cannotRun: 1, needs: anyApp,
		validate: func() (err error) {
			if keep, err = replay.ParseDuration(keepFlag); err != nil {
				return usage(fmt.Errorf("--keep: %w", err))
			}
			if out != "" {
				return usage(errors.New("--out names the file --export writes: add --export FROM..TO"))
			}
			if db, err = recordPath(db); err != nil {
				return err
			}
			// Refused now, not after a platform (a whole demo's) is built.
			return record.Check(db)
		},
		run: func(ctx context.Context, cmd *cobra.Command, p *platform) error {
			var apps []string
			if g.app != "" || (p.app != "" && !org) {
				apps = []string{p.app}
			}
			scope := "org " + p.source.Org
			if len(apps) > 0 {
				scope = "app " + apps[0]
				if org {
					scope += " and org " + p.source.Org
				}
			}
			w, err := record.Create(db, record.Options{Org: p.source.Org, Scope: scope, Now: p.source.Now, Keep: keep})
			if err != nil {
				return err
			}
			p.source.Client.SetTap(&recorder.Tap{W: w, Now: p.source.Now})
			stderr := cmd.ErrOrStderr()
			fmt.Fprintf(stderr, "flywake: recording %s into %s (ctrl+c stops; a restart resumes)\n", scope, db)
			if runFor > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, runFor)
				defer cancel()
			}
			speed := 1.0
			if p.demo {
				speed = g.speed
			}
			done := make(chan struct{})
			go reportRecording(stderr, w, db, done)
			err = recorder.Run(ctx, recorder.Config{Source: p.source, Apps: apps, Org: len(apps) == 0 || org, Writer: w, Speed: speed})
			close(done)
			p.source.Client.SetTap(nil)
			if cerr := w.Close(); err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				err = cerr
			}
			fmt.Fprintln(stderr, recordSummary(w.Stats(), db))
			return err
		},
	}
	exp := command{
		name: "record", cannotRun: 1, needs: noPlatform,
		run: func(ctx context.Context, cmd *cobra.Command, _ *platform) error {
			src, err := recordPath(db)
			if err != nil {
				return err
			}
			r, err := record.Open(src)
			if err != nil {
				return err
			}
			from, to := r.Span()
			r.Close()
			f, t, err := replay.ParseRange(export, from, to)
			if err != nil {
				return usage(fmt.Errorf("--export: %w", err))
			}
			if out == "" {
				out = fmt.Sprintf("flywake-%s-%s.db", f.UTC().Format("20060102T1504"), t.UTC().Format("20060102T1504"))
			}
			if err := record.Export(src, out, f, t); err != nil {
				return err
			}
			if st, err := os.Stat(out); err == nil {
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %s to %s, %s (replay it: flywake --replay %s)\n", out,
					f.UTC().Format(time.RFC3339), t.UTC().Format(time.RFC3339), sizeOf(st.Size()), out)
			}
			return nil
		},
	}
	cmd := &cobra.Command{
		Use:   "record",
		Short: "Keep what the platform forgets: record an app or the org into a file, to replay any instant",
		Long: `record watches an app (-a) or every app of the org (the default without an
app; --org adds the org to -a) as the dashboard does — the same calls at the
same pace, plus two Prometheus queries a minute for the response counters —
and keeps what it reads in one SQLite file: every machine state change and
event with its exit code, config versions and releases, the log lines (boots
and their phases, proxy errors, access lines), exec probes (memory, sockets,
bytecode), each app's volumes, the edge's and the app's responses per minute, and the crash-loop
judgements. Fly keeps five events per machine and a short window of logs; the
file keeps all of them, for --keep. Changes are stored, not snapshots; a
second of facts at most is lost to a kill -9, and a restart resumes without
duplicates (the time it was not running is named in the replay). Tokens are
never stored.

Replay with: flywake --replay FILE [--at TIME]   (and status, verdict, check)

--export FROM..TO writes the part of the recording between two instants into
a new file (--out), with the day before FROM that the panes read, for a
post-mortem or a demo.

Exit status: 0 when it stopped because it was asked to (ctrl+c, --for), 1
when it could not record: the file is not a recording, damaged, from a newer
flywake, read-only, locked by another recorder, or the disk filled up (each
said in words).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if export != "" {
				return g.runE(exp)(cmd, args)
			}
			return g.runE(rec)(cmd, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&db, "db", "", "the recording's file (default: $XDG_STATE_HOME/flywake/record.db, else ~/.local/state/flywake/record.db)")
	f.StringVar(&keepFlag, "keep", "14d", "history kept: older facts are dropped (14d, 36h; 0 keeps everything)")
	f.BoolVar(&org, "org", false, "record every app of the org too (the default when no app is named)")
	f.DurationVar(&runFor, "for", 0, "stop after this long (wall time; 0: until ctrl+c)")
	f.StringVar(&export, "export", "", "write the part FROM..TO of --db into a new file instead of recording (03:00..04:30, -2h..end, 2026-03-01T03:00:00Z..start)")
	f.StringVar(&out, "out", "", "with --export: the file to write (default: flywake-FROM-TO.db here)")
	return cmd
}

// recordPath is --db, or the default path (its directory made).
func recordPath(db string) (string, error) {
	if db == "" {
		home, _ := os.UserHomeDir()
		db = record.DefaultPath(os.Getenv, home)
		if !filepath.IsAbs(db) {
			return "", errors.New("no place for the recording: set --db, XDG_STATE_HOME or HOME")
		}
		if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
			return "", err
		}
	}
	return db, nil
}

// reportRecording says what has been kept every recordStatusEvery, until done.
func reportRecording(w io.Writer, rw *record.Writer, db string, done <-chan struct{}) {
	t := time.NewTicker(recordStatusEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			fmt.Fprintln(w, recordSummary(rw.Stats(), db))
		}
	}
}

func recordSummary(st record.Stats, db string) string {
	size := ""
	if fi, err := os.Stat(db); err == nil {
		size = ", " + sizeOf(fi.Size())
		if wal, err := os.Stat(db + "-wal"); err == nil {
			size = ", " + sizeOf(fi.Size()+wal.Size())
		}
	}
	return fmt.Sprintf("flywake: kept %s state changes, %s events, %s log lines, %s probe answers, %s counter minutes%s",
		words.Thousands(st.States), words.Thousands(st.Events), words.Thousands(st.Logs), words.Thousands(st.Probes), words.Thousands(st.Counts), size)
}

func sizeOf(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	default:
		return fmt.Sprintf("%d KB", (n+1023)/1024)
	}
}
