package machines

import (
	"net/http"
	"strconv"
	"time"
)

// The few REST endpoints of Fly's web API ("ui-ex", FLY_UIEX_BASE_URL) that
// flyctl's deploy --image, machine run/update --image and secrets use:
// an organization, image builds' bookkeeping, and releases. Builds are
// numbered and acknowledged (nothing is built); releases are the app's
// history, a deploy adding one.

// orgJSONUiex is an organization as ui-ex answers it.
type orgJSONUiex struct {
	ID                string `json:"id"`
	InternalNumericID int64  `json:"internal_numeric_id"`
	Slug              string `json:"slug"`
	RawSlug           string `json:"raw_slug"`
	Name              string `json:"name"`
	PaidPlan          bool   `json:"paid_plan"`
	Personal          bool   `json:"personal"`
	Billable          bool   `json:"billable"`
	BillingStatus     string `json:"billing_status"`
}

func (s *Store) uiexOrg() orgJSONUiex {
	o := s.wireOrg()
	return orgJSONUiex{ID: s.orgID(), InternalNumericID: o.InternalNumericID, Slug: o.Slug, RawSlug: o.Slug, Name: o.Name,
		PaidPlan: true, Billable: true, BillingStatus: "CURRENT"}
}

// serveUiexOrg answers GET /api/v1/organizations/{slug}.
func (s *Store) serveUiexOrg(w http.ResponseWriter, r *http.Request) {
	if slug := r.PathValue("slug"); slug != s.opts.Org && slug != "personal" {
		errReply(http.StatusNotFound, "organization not found").write(w)
		return
	}
	reply{http.StatusOK, struct {
		Organization orgJSONUiex `json:"organization"`
	}{s.uiexOrg()}}.write(w)
}

// serveUiexOrgs answers GET /api/v1/organizations.
func (s *Store) serveUiexOrgs(w http.ResponseWriter, r *http.Request) {
	reply{http.StatusOK, struct {
		Organizations []orgJSONUiex `json:"organizations"`
	}{[]orgJSONUiex{s.uiexOrg()}}}.write(w)
}

type buildJSON struct {
	ID              int64  `json:"id"`
	Status          string `json:"status"`
	WallclockTimeMs int    `json:"wallclock_time_ms"`
}

// serveCreateBuild answers POST /api/v1/builds: a build record for an
// image flyctl builds or resolves itself.
func (s *Store) serveCreateBuild(w http.ResponseWriter, r *http.Request) {
	s.sched.Lock()
	s.builds++
	id := s.builds
	s.sched.Unlock()
	reply{http.StatusOK, buildJSON{ID: id, Status: "started"}}.write(w)
}

// serveFinishBuild answers POST /api/v1/builds/finish.
func (s *Store) serveFinishBuild(w http.ResponseWriter, r *http.Request) {
	var in struct {
		BuildID int64  `json:"build_id"`
		Status  string `json:"status"`
	}
	if rp := decodeBody(r, &in); rp != nil {
		rp.write(w)
		return
	}
	reply{http.StatusOK, buildJSON{ID: in.BuildID, Status: in.Status}}.write(w)
}

// releaseJSON is a release as ui-ex answers it.
type releaseJSON struct {
	ID         string    `json:"id"`
	Version    int       `json:"version"`
	Stable     bool      `json:"stable"`
	InProgress bool      `json:"in_progress"`
	Status     string    `json:"status"`
	Strategy   string    `json:"strategy"`
	User       string    `json:"user"`
	CreatedAt  time.Time `json:"created_at"`
	ImageRef   string    `json:"image_ref"`
}

func (s *Store) wireRelease(r *release) releaseJSON {
	return releaseJSON{ID: r.id, Version: r.version, Stable: r.status == "complete", InProgress: r.status == "running",
		Status: r.status, Strategy: r.strategy, User: s.leaseOwner(), CreatedAt: r.createdAt.UTC(), ImageRef: r.imageRef}
}

// serveUiexReleases answers GET /api/v1/apps/{app}/releases[?limit=N],
// newest first.
func (s *Store) serveUiexReleases(w http.ResponseWriter, r *http.Request) {
	limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil || limit <= 0 {
		limit = 25
	}
	s.withApp(w, r, func(a *App) reply {
		out := struct {
			Releases []releaseJSON `json:"releases"`
		}{Releases: []releaseJSON{}}
		for i := len(a.releases) - 1; i >= 0 && len(out.Releases) < limit; i-- {
			out.Releases = append(out.Releases, s.wireRelease(a.releases[i]))
		}
		return reply{http.StatusOK, out}
	})
}

// serveUiexCurrentRelease answers GET /api/v1/apps/{app}/releases/current
// (404 for an app that never deployed).
func (s *Store) serveUiexCurrentRelease(w http.ResponseWriter, r *http.Request) {
	s.withApp(w, r, func(a *App) reply {
		if cur := a.currentRelease(); cur != nil {
			return reply{http.StatusOK, s.wireRelease(cur)}
		}
		return errReply(http.StatusNotFound, "no current release")
	})
}

// serveCreateRelease answers POST /api/v1/releases {"app_name", "image",
// "strategy", "definition", "build_id"}: the next version, created.
func (s *Store) serveCreateRelease(w http.ResponseWriter, r *http.Request) {
	var in struct {
		AppName    string `json:"app_name"`
		Image      string `json:"image"`
		Strategy   string `json:"strategy"`
		Definition any    `json:"definition"`
	}
	if rp := decodeBody(r, &in); rp != nil {
		rp.write(w)
		return
	}
	s.sched.Lock()
	rp := errReply(http.StatusNotFound, "app not found")
	if a := s.apps[in.AppName]; a != nil {
		s.sched.Instant(func() {
			v := 1
			if n := len(a.releases); n > 0 {
				v = a.releases[n-1].version + 1
			}
			rel := a.addRelease(v, "", s.now())
			rel.status, rel.imageRef, rel.definition, rel.strategy = "created", in.Image, in.Definition, in.Strategy
			rp = reply{http.StatusCreated, struct {
				Release releaseJSON `json:"release"`
			}{s.wireRelease(rel)}}
		})
	}
	s.sched.Unlock()
	rp.write(w)
}

// serveUpdateRelease answers PATCH /api/v1/releases/{id} {"status"}.
func (s *Store) serveUpdateRelease(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Status string `json:"status"`
	}
	if rp := decodeBody(r, &in); rp != nil {
		rp.write(w)
		return
	}
	s.sched.Lock()
	rp := errReply(http.StatusNotFound, "release not found")
	for _, a := range s.apps {
		if rel := a.releaseByID(r.PathValue("id")); rel != nil {
			switch in.Status {
			case "created", "running", "complete", "failed", "interrupted":
				rel.status, rel.updatedAt = in.Status, s.now()
				if in.Status == "complete" {
					a.deployedAt = s.now()
				}
				rp = reply{http.StatusOK, s.wireRelease(rel)}
			default:
				rp = errReply(http.StatusUnprocessableEntity, "invalid status "+strconv.Quote(in.Status))
			}
		}
	}
	s.sched.Unlock()
	rp.write(w)
}
