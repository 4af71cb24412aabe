package machines

import (
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strconv"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/gate"
	"github.com/flywake/flywake/sources/flysim/profile"
)

// serveListApps answers GET /v1/apps?org_slug=. The platform hosts one org,
// the token's own: its slug, "personal" (Fly's alias for the token user's
// personal org) or none list its apps; another org's slug lists nothing.
func (s *Store) serveListApps(w http.ResponseWriter, r *http.Request) {
	out := appsJSON{Apps: []appJSON{}}
	s.sched.Lock()
	if slug := r.URL.Query().Get("org_slug"); slug == "" || slug == s.opts.Org || slug == "personal" {
		for _, name := range s.appOrder {
			out.Apps = append(out.Apps, s.wireApp(s.apps[name], false))
		}
	}
	s.sched.Unlock()
	out.TotalApps = len(out.Apps)
	gate.WriteJSON(w, http.StatusOK, out)
}

// serveGetApp answers GET /v1/apps/{app}.
func (s *Store) serveGetApp(w http.ResponseWriter, r *http.Request) {
	s.sched.Lock()
	a := s.apps[r.PathValue("app")]
	var out appJSON
	if a != nil {
		out = s.wireApp(a, true)
	}
	s.sched.Unlock()
	if a == nil {
		gate.WriteError(w, http.StatusNotFound, "app not found")
		return
	}
	gate.WriteJSON(w, http.StatusOK, out)
}

type regionsJSON struct {
	Regions []fly.Region `json:"Regions"`
	Nearest string       `json:"Nearest"`
}

// serveRegions answers GET /v1/platform/regions.
func (s *Store) serveRegions(w http.ResponseWriter, r *http.Request) {
	gate.WriteJSON(w, http.StatusOK, regionsJSON{Regions: platformRegions, Nearest: s.opts.Region})
}

// appNames is what Fly accepts as an app name.
var appNames = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$`)

// serveCreateApp answers POST /v1/apps {"app_name"|"name", "org_slug",
// "network"} with 201 and the new app: nothing deployed yet, its machines
// to come (primary region: the API's nearest).
func (s *Store) serveCreateApp(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name    string `json:"name"`
		AppName string `json:"app_name"`
		Org     string `json:"org_slug"`
		Network string `json:"network"`
	}
	if rp := decodeBody(r, &in); rp != nil {
		rp.write(w)
		return
	}
	if in.AppName != "" {
		in.Name = in.AppName
	}
	s.sched.Lock()
	var rp reply
	s.sched.Instant(func() { rp = s.createApp(in.Name, in.Org) })
	s.sched.Unlock()
	rp.write(w)
}

// CreateApp creates an empty app in the org, as POST /v1/apps does; the
// error's text is the API's. It takes the lock.
func (s *Store) CreateApp(name, org string) error {
	s.sched.Lock()
	defer s.sched.Unlock()
	var rp reply
	s.sched.Instant(func() { rp = s.createApp(name, org) })
	if e, ok := rp.body.(errorJSON); ok {
		return errors.New(e.Error)
	}
	return nil
}

func (s *Store) createApp(name, org string) reply {
	switch {
	case !appNames.MatchString(name):
		return errReply(http.StatusUnprocessableEntity, "invalid app name "+strconv.Quote(name)+
			": 2 to 63 lowercase letters, digits and dashes, not starting or ending with a dash")
	case org != "" && org != s.opts.Org && org != "personal":
		return errReply(http.StatusNotFound, "organization not found")
	case s.apps[name] != nil:
		return errReply(http.StatusUnprocessableEntity, "Name has already been taken")
	}
	now := s.now()
	s.AddApp(profile.Blank(name, s.opts.Region), now, now)
	a := s.apps[name]
	s.edge.AppAdded(a)
	return reply{http.StatusCreated, s.wireApp(a, true)}
}

// serveDeleteApp answers DELETE /v1/apps/{app} with 202: its machines and
// volumes are destroyed with it.
func (s *Store) serveDeleteApp(w http.ResponseWriter, r *http.Request) {
	s.sched.Lock()
	var rp reply
	s.sched.Instant(func() { rp = s.deleteApp(r.PathValue("app")) })
	s.sched.Unlock()
	rp.write(w)
}

func (s *Store) deleteApp(name string) reply {
	a := s.apps[name]
	if a == nil {
		return errReply(http.StatusNotFound, "app not found")
	}
	for _, m := range a.machines {
		if m.state != "destroyed" {
			s.destroyed(m)
		}
	}
	for _, v := range a.volumes {
		v.destroyed = true
	}
	delete(s.apps, name)
	s.appOrder = slices.DeleteFunc(s.appOrder, func(n string) bool { return n == name })
	s.edge.AppRemoved(a)
	return reply{status: http.StatusAccepted}
}
