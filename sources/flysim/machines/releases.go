package machines

import (
	"fmt"
	"time"
)

// An app's releases, as Fly's release history (GraphQL releasesUnprocessed,
// the ui-ex /releases endpoints) lists them: a demo app has lived through
// a few, two days apart, the last one its current; a deploy adds one.
// Their ids are derived from the app and version, not drawn.

type release struct {
	id          string
	version     int
	status      string // created | running | complete | failed
	description string
	reason      string
	imageRef    string
	strategy    string
	definition  any // the fly.toml the deploy sent, when one did
	createdAt   time.Time
	updatedAt   time.Time
}

// releasesKept is how far back a demo app's history goes.
const releasesKept = 5

// seedReleases lays out a's history up to release current, deployed at
// deployed.
func (a *App) seedReleases(current int, deployed time.Time) {
	for v := max(1, current-releasesKept+1); v <= current; v++ {
		at := deployed.Add(-time.Duration(current-v) * 48 * time.Hour)
		a.addRelease(v, a.p.Tag, at)
	}
}

// addRelease records a complete release of version v running tag.
func (a *App) addRelease(v int, tag string, at time.Time) *release {
	r := &release{id: fmt.Sprintf("rel_%s%04d", a.id, v), version: v, status: "complete", description: "Deploy image",
		reason: "deploy", imageRef: flyRegistry + "/" + a.p.Image + ":" + tag, strategy: "ROLLING", createdAt: at, updatedAt: at}
	a.releases = append(a.releases, r)
	return r
}

// currentRelease is a's newest complete release, nil for none.
func (a *App) currentRelease() *release {
	for i := len(a.releases) - 1; i >= 0; i-- {
		if a.releases[i].status == "complete" {
			return a.releases[i]
		}
	}
	return nil
}

// releaseByID finds one of a's releases.
func (a *App) releaseByID(id string) *release {
	for _, r := range a.releases {
		if r.id == id {
			return r
		}
	}
	return nil
}
