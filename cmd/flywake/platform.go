package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/replay"
	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/watch"
)

// platform is what a command talks to: real Fly, or a private embedded one.
type platform struct {
	source *watch.Source
	app    string // "" when none was named or found
	demo   bool
	sim    *flysim.Sim // nil unless demo
	token  string      // for redaction only; never printed
	// replay is the recording served as the platform (--replay); nil otherwise.
	replay *replay.Platform
}

func (p *platform) close() {
	if p.sim != nil {
		_ = p.sim.Close()
	}
	if p.replay != nil {
		_ = p.replay.Close()
		_ = p.replay.Recording().Close()
	}
}

// connectNeeds say what connect must find: an app (a missing one is an
// error), and the app's organization (looked up with a call unless
// --org or FLY_ORG names it).
type connectNeeds struct{ app, org bool }

// connect builds the platform a command runs against. With --demo it starts
// flysim on 127.0.0.1; otherwise it finds a token and an app like flyctl does.
// The token is handed to s before any call is made, so the session redacts
// it from everything.
func connect(ctx context.Context, g *globalFlags, needs connectNeeds, s *session) (*platform, error) {
	markers, err := g.markers()
	if err != nil {
		return nil, err
	}
	p, err := connectPlatform(ctx, g, needs, s)
	if err != nil {
		return nil, err
	}
	p.source.Markers = markers
	return p, nil
}

func connectPlatform(ctx context.Context, g *globalFlags, needs connectNeeds, s *session) (*platform, error) {
	if g.replaying() {
		return connectReplay(ctx, g, needs, s)
	}
	if g.demo {
		// FLYWAKE_DEMO_TOKEN, for tests and demos only, fixes the embedded
		// platform's API token (default: random per run), so a test can
		// look for a recognisable token in everything flywake prints.
		// FLYWAKE_DEMO_STILL=1, for tests only, stands the platform's clock
		// still, as status does: a screen then changes only when a key
		// changes it (e2e_everykey_test.go).
		frozen := g.frozen || g.env("FLYWAKE_DEMO_STILL") == "1"
		sim := flysim.New(flysim.Options{Speed: g.speed, Seed: g.seed, Frozen: frozen, Token: g.env("FLYWAKE_DEMO_TOKEN")})
		if err := sim.Start(); err != nil {
			return nil, err
		}
		s.addSecret(sim.Token())
		s.log.Printf("platform: the embedded demo (flysim) at %s, speed %g, seed %d", sim.URL(), g.speed, g.seed)
		c, err := fly.New(ctx, fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token(), UserAgent: userAgent, Debug: s.log})
		if err != nil {
			sim.Close()
			return nil, err
		}
		// The app as flyctl finds it (-a, FLY_APP, ./fly.toml). With none,
		// a command that needs one takes the demo's scale-to-zero app; the
		// dashboard opens the org overview instead.
		app := g.app
		if app == "" {
			dir := g.dir
			if dir == "" {
				dir, _ = os.Getwd()
			}
			app, _, _ = fly.DiscoverApp("", g.env, dir)
		}
		if app == "" && needs.app {
			app = flysim.DemoScaleToZero
		}
		src := &watch.Source{Client: c, Org: sim.Org(), Now: sim.Clock().Now}
		if g.frozen {
			src.AdvanceTo = sim.AdvanceTo // the looks a judgement needs, at fixed platform times
		}
		return &platform{source: src, app: app, demo: true, sim: sim, token: sim.Token()}, nil
	}
	token, source, err := fly.DiscoverToken(g.env, g.homeDir())
	if err != nil {
		return nil, err
	}
	s.addSecret(token)
	dir := g.dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	app, _, appErr := fly.DiscoverApp(g.app, g.env, dir)
	if appErr != nil && (needs.app || !errors.Is(appErr, fly.ErrNoApp{})) {
		return nil, appErr
	}
	c, err := fly.New(ctx, fly.Config{FlapsURL: g.env("FLY_FLAPS_BASE_URL"), APIURL: g.env("FLY_API_BASE_URL"), Token: token, UserAgent: userAgent, Debug: s.log})
	if err != nil {
		return nil, err
	}
	s.log.Printf("platform: Machines API %s, Fly API %s, token from %s, app %q", c.FlapsURL(), c.APIURL(), source, app)
	org := g.org
	if org == "" {
		org = g.env("FLY_ORG")
	}
	if org == "" && app != "" && needs.org {
		lookup, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		if a, err := c.GetApp(lookup, app); err == nil && a != nil {
			org = a.Organization.Slug
		} else if err != nil {
			return nil, fmt.Errorf("looking up app %q: %w", app, err)
		}
	}
	return &platform{source: &watch.Source{Client: c, Org: org, Now: time.Now}, app: app, token: token}, nil
}

var userAgent = "flywake/" + version

// loadProject reads the local project the checklist judges: dir when given,
// else with --demo the demo app's own project, else the current directory.
func loadProject(dir string, demo bool, app string) (*repo.Project, []error) {
	if dir == "" && demo {
		for _, prof := range flysim.DemoApps() {
			if prof.Name == app {
				if fsys, ok := repo.DemoProject(prof.Project); ok {
					return repo.LoadFS(fsys)
				}
			}
		}
		return nil, nil
	}
	if dir == "" {
		dir = "."
	}
	return repo.Load(dir)
}
