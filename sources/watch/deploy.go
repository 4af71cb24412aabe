package watch

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	flygo "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/rollout"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/snapshot"
)

// A demo deploy rolls a new release out to a demo app the way `fly deploy`
// does after it pushed the image (its rolling strategy): machine by machine,
// each updated over the Machines API to a config naming the new image and
// the next fly_release_version, under the machine's lease, and waited for
// until it is back in the state it was in (a stopped machine stays
// stopped). It checks no health: judging the release is `flywake verdict`'s
// work. It only runs against an embedded platform (flysim), whose registry
// holds the two demo images under these tags (flysim.DemoHealthyTag and
// DemoCrashingTag; a test keeps them and rollout.CrashAfter equal to the
// simulator's, so the real path does not import the simulator).
const (
	demoHealthyTag  = "flywake-demo-healthy"
	demoCrashingTag = "flywake-demo-crashing"
)

// demoTag is the registry tag of release r's image.
func demoTag(r rollout.Release) string {
	if r == rollout.Crashing {
		return demoCrashingTag
	}
	return demoHealthyTag
}

// ErrNotEmbedded: the platform is not an embedded one, so there is no demo
// release to roll out. Nothing was changed.
var ErrNotEmbedded = errors.New("a demo release only rolls out to the embedded platform (--demo, or the environment `flywake sim` prints): " +
	"this Machines API is not on this computer — deploy a real app with `fly deploy`")

// PlanDemoDeploy lists app's machines once and plans the rollout of rel.
// It refuses, before any call, a platform that is not embedded.
func (s *Source) PlanDemoDeploy(ctx context.Context, app string, rel rollout.Release) (rollout.Plan, error) {
	if _, err := rollout.ParseRelease(string(rel)); err != nil {
		return rollout.Plan{}, err
	}
	if !onThisComputer(s.Client.FlapsURL()) {
		return rollout.Plan{}, ErrNotEmbedded
	}
	l, err := s.Client.List(ctx, app)
	if err != nil {
		return rollout.Plan{}, err
	}
	plan := rollout.Plan{App: app, Release: rel}
	var releases []string
	top := 0
	for _, m := range snapshot.Convert(l).Machines() {
		if m.Phase == diagnose.Gone || m.Config == nil {
			continue
		}
		releases = append(releases, m.Release)
		if n, err := strconv.Atoi(m.Release); err == nil {
			top = max(top, n)
		}
		if plan.Image == "" {
			plan.Image = retag(m.Config.Image, demoTag(rel))
		}
		plan.Machines = append(plan.Machines, rollout.Target{ID: m.ID, State: m.State, Release: m.Release})
	}
	if len(plan.Machines) == 0 {
		return rollout.Plan{}, fmt.Errorf("%s has no machines to deploy to", sanitize.Line(app))
	}
	plan.From = sanitize.Line(diagnose.CurrentRelease(releases))
	plan.To = strconv.Itoa(top + 1)
	return plan, nil
}

// DemoDeploy runs the plan, machine by machine, calling onStep when the
// API accepted a machine's update and again when it is done (nil: no
// progress). It stops at the first machine it could not update:
// the rest keep their release, as a halted `fly deploy` leaves them.
func (s *Source) DemoDeploy(ctx context.Context, plan rollout.Plan, onStep func(rollout.Step)) error {
	if !onThisComputer(s.Client.FlapsURL()) {
		return ErrNotEmbedded
	}
	for i, t := range plan.Machines {
		step := rollout.Step{Machine: t.ID, Index: i + 1, Total: len(plan.Machines), From: t.Release, To: plan.To}
		sent := func() {
			if onStep != nil {
				s := step
				s.Sent = true
				onStep(s)
			}
		}
		step.State, step.Err = s.deployOne(ctx, plan, t, sent)
		if onStep != nil {
			onStep(step)
		}
		if step.Err != nil {
			return fmt.Errorf("machine %s (%d of %d): %w", t.ID, i+1, len(plan.Machines), step.Err)
		}
	}
	return nil
}

// deployOne updates one machine and waits until it is back where it was.
// It reads fly-go's machine, not the model's: an update sends the whole
// config back, every field the model leaves out included.
func (s *Source) deployOne(ctx context.Context, plan rollout.Plan, t rollout.Target, sent func()) (string, error) {
	m, err := s.Client.GetMachine(ctx, plan.App, t.ID)
	if err != nil {
		return "", err
	}
	cfg := m.GetConfig()
	if cfg == nil {
		return "", errors.New("the API reported no config to update")
	}
	next := *cfg
	next.Image = plan.Image
	next.Metadata = maps.Clone(cfg.Metadata)
	if next.Metadata == nil {
		next.Metadata = map[string]string{}
	}
	next.Metadata[flygo.MachineConfigMetadataKeyFlyReleaseVersion] = plan.To
	next.Metadata["fly_release_id"] = "rel_" + plan.To
	running := m.State == flygo.MachineStateStarted || diagnose.Classify(m.State) == diagnose.Waking
	updated, err := s.Client.UpdateMachine(ctx, plan.App, t.ID, &next, !running)
	if err != nil {
		return "", err
	}
	sent()
	want := flygo.MachineStateStopped
	if running {
		want = flygo.MachineStateStarted
	} else if m.State == "created" {
		return sanitize.Line(updated.State), nil // nothing to wait for: it stays created
	}
	instance := ""
	if updated != nil {
		instance = updated.InstanceID
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		err := s.Client.Wait(ctx, plan.App, t.ID, instance, time.Minute, want)
		if err == nil {
			return want, nil
		}
		if !errors.Is(err, fly.ErrWaitTimeout{}) || time.Now().After(deadline) {
			return "", err
		}
	}
}

// retag names image with another tag: "registry.fly.io/app:deployment-1"
// becomes "registry.fly.io/app:<tag>" (a digest is dropped).
func retag(image, tag string) string {
	name, _, _ := strings.Cut(image, "@")
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		name = name[:i]
	}
	return name + ":" + tag
}

// onThisComputer reports whether a Machines API URL is on loopback, where
// the embedded platform listens. It is not how flywake tells the demo
// (that is the --demo flag, Config.Demo): it is the refusal that keeps a
// demo release, which only the embedded platform's registry holds, off a
// Machines API elsewhere, before any call.
func onThisComputer(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
