package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/recorder"
	"github.com/flywake/flywake/sources/replay"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/snapshot/machine"
	"github.com/flywake/flywake/sources/verdict"
	"github.com/flywake/flywake/sources/watch"
)

// demoReplay is --replay's value for the demo's recorded day. pflag reads
// `--replay --demo` as --replay="--demo"; that is the spelling taken.
const demoReplay = "--demo"

func (g *globalFlags) replaying() bool { return g.replay != "" }

// checkReplay refuses flags that make no sense with --replay.
func (g *globalFlags) checkReplay(command string) error {
	if !g.replaying() {
		if g.at != "" {
			return fmt.Errorf("--at picks an instant of a recording: add --replay FILE")
		}
		return nil
	}
	switch command {
	case "wake", "deploy", "sim", "record":
		return fmt.Errorf("--replay: a recording cannot be changed or served as a platform to %s; it replays in the dashboard, status, verdict and check", command)
	}
	if g.demo {
		return fmt.Errorf("--demo and --replay FILE: choose one (flywake --replay --demo opens the demo's recorded day)")
	}
	return nil
}

// connectReplay serves the recording as the platform: the same client, on
// 127.0.0.1, at the instant --at names. The dashboard's time bar moves the
// clock; for status, verdict and check it stands at that instant and moves
// forward only for the looks a judgement needs (AdvanceTo), as on the
// frozen demo platform.
func connectReplay(ctx context.Context, g *globalFlags, needs connectNeeds, s *session) (*platform, error) {
	path := g.replay // the demo's recording was made by then (runE)
	rec, err := record.Open(path)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			rec.Close()
		}
	}()
	from, to := rec.Span()
	if from.IsZero() {
		return nil, fmt.Errorf("recording %s holds nothing yet", path)
	}
	at, err := replay.ParseAt(g.at, from, to)
	if err != nil {
		return nil, usage(fmt.Errorf("--at: %w", err))
	}
	clock := replay.NewClock(at, to, g.tui)
	pl := replay.New(rec, clock, replay.Options{Token: g.env("FLYWAKE_DEMO_TOKEN")})
	if err := pl.Start(); err != nil {
		return nil, err
	}
	s.addSecret(pl.Token())
	s.log.Printf("platform: the recording %s at %s, served at %s", path, at.Format(time.RFC3339), pl.URL())
	c, err := fly.New(ctx, fly.Config{FlapsURL: pl.URL(), APIURL: pl.URL(), Token: pl.Token(), UserAgent: userAgent, Debug: s.log})
	if err != nil {
		pl.Close()
		return nil, err
	}
	app := g.app
	if app == "" && needs.app {
		app = recordedApp(rec, at)
	}
	if app != "" && !rec.HasApp(app) {
		pl.Close()
		return nil, fmt.Errorf("the recording holds no app %q (it holds %s)", app, strings.Join(rec.Apps(to), ", "))
	}
	src := &watch.Source{Client: c, Org: rec.Org(), Now: clock.Now}
	if !g.tui {
		src.AdvanceTo = func(t time.Time) error {
			if t.After(to) && g.command == "verdict" {
				return fmt.Errorf("the recording ends at %s: the verdict's look at %s needs what was not recorded", to.UTC().Format(time.RFC3339), t.UTC().Format(time.RFC3339))
			}
			// status and check take their extra looks at the end at most:
			// a judgement those looks cannot reach stays undecided.
			t = clampEnd(t, to)
			if t.After(clock.Now()) {
				clock.Seek(t)
			}
			return nil
		}
	}
	ok = true
	return &platform{source: src, app: app, replay: pl, token: pl.Token()}, nil
}

func clampEnd(t, end time.Time) time.Time {
	if t.After(end) {
		return end
	}
	return t
}

// recordedApp is the app a command that needs one replays when none is
// named: the recording's only app, or the demo's scale-to-zero one.
func recordedApp(rec *record.Recording, at time.Time) string {
	apps := rec.Apps(at)
	for _, a := range apps {
		if a == "sleepy-api" {
			return a
		}
	}
	if len(apps) > 0 {
		return apps[0]
	}
	return ""
}

// demoRecording is the demo's recorded day, made on first use into the
// user's cache directory (about 90 s of CPU; later runs open it at once).
func demoRecording(ctx context.Context, s *session) (string, error) {
	path, err := record.DemoPath(1)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(path); err == nil {
		return path, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "flywake: recording the demo's day into %s (once; it takes a few minutes; ctrl+c stops it)…\n", path)
	s.log.Printf("recording the demo's day into %s", path)
	// Not the command's own deadline (status has two minutes): the day
	// takes what it takes, once; ctrl+c still stops it.
	gctx, stop := signal.NotifyContext(context.WithoutCancel(ctx), os.Interrupt)
	defer stop()
	if err := recorder.RecordDemo(gctx, path, recorder.DemoOptions{}); err != nil {
		return "", fmt.Errorf("recording the demo's day: %w", err)
	}
	return path, nil
}

// crashHistory writes, under a verdict on a recording, every crash of the
// judged release the recording holds up to the replayed instant — the
// platform's event list keeps five per machine; the recording keeps all.
func crashHistory(w io.Writer, p *platform, rep verdict.Report, markdown bool) {
	if p == nil || p.replay == nil || rep.Result.Release == "" {
		return
	}
	rec := p.replay.Recording()
	since, ok := rec.ReleaseSince(p.app, rep.Result.Release)
	if !ok {
		return
	}
	crashes, err := rec.Crashes(p.app, since, p.source.Now())
	if err != nil { // the verdict stands; the history could not be read
		fmt.Fprintf(w, "\nthe recording's crash history could not be read: %s\n", sanitize.Line(err.Error()))
		return
	}
	title := fmt.Sprintf("Every crash of %s the recording holds since %s: %d", rep.Result.ReleaseName(), since.UTC().Format(time.RFC3339), len(crashes))
	if markdown {
		fmt.Fprintf(w, "\n#### %s\n\n", sanitize.MarkdownText(title))
	} else {
		fmt.Fprintf(w, "\n%s\n", title)
	}
	const most = 50
	for i, c := range crashes {
		if i == most {
			fmt.Fprintf(w, "  … and %d older\n", len(crashes)-most)
			break
		}
		ev := machine.EventFromFly(&c.Event)
		line := fmt.Sprintf("%s  %s  %s", c.At.UTC().Format(time.RFC3339), sanitize.Line(c.Machine), verdict.DescribeExit(&ev))
		if markdown {
			fmt.Fprintf(w, "- %s\n", sanitize.MarkdownText(line))
		} else {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
}
