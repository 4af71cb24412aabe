package machines

import (
	"net/http"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/gate"
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
