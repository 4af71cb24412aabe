package machines

import (
	"net/http"

	"github.com/flywake/flywake/sources/flysim/gate"
)

// Routes are the Machines API's endpoints (/v1), for the gate to serve.
func (s *Store) Routes() []gate.Route {
	org := func(*http.Request) string { return s.opts.Org }
	byApp, byMachine, byVolume := gate.ByPath("app"), gate.ByPath("id"), gate.ByPath("vol")
	perAction, getMachine := gate.PerAction, gate.GetMachine
	const (
		ms = "/v1/apps/{app}/machines"
		m  = ms + "/{id}"
		vs = "/v1/apps/{app}/volumes"
	)
	rt := gate.NewRoute
	return []gate.Route{
		rt("GET /v1/apps", "Apps_list", "apps", org, perAction, s.serveListApps),
		rt("GET /v1/apps/{app}", "Apps_show", "app", byApp, perAction, s.serveGetApp),
		rt("POST /v1/apps", "Apps_create", "app_create", org, perAction, s.serveCreateApp),
		rt("DELETE /v1/apps/{app}", "Apps_delete", "app_delete", byApp, perAction, s.serveDeleteApp),
		rt("GET "+ms, "Machines_list", "list", byApp, perAction, s.serveListMachines),
		rt("POST "+ms, "Machines_create", "create", byApp, perAction, s.serveCreate),
		rt("GET "+m, "Machines_show", "get", byMachine, getMachine, s.serveGetMachine),
		rt("POST "+m, "Machines_update", "update", byMachine, perAction, s.serveUpdate),
		rt("DELETE "+m, "Machines_delete", "destroy", byMachine, perAction, s.serveDestroy),
		rt("POST "+m+"/start", "Machines_start", "start", byMachine, perAction, s.serveStart),
		rt("POST "+m+"/stop", "Machines_stop", "stop", byMachine, perAction, s.serveStop),
		rt("POST "+m+"/suspend", "Machines_suspend", "suspend", byMachine, perAction, s.serveSuspend),
		rt("POST "+m+"/restart", "Machines_restart", "restart", byMachine, perAction, s.serveRestart),
		rt("POST "+m+"/signal", "Machines_signal", "signal", byMachine, perAction, s.serveSignal),
		rt("POST "+m+"/cordon", "Machines_cordon", "cordon", byMachine, perAction, s.serveCordon(true)),
		rt("POST "+m+"/uncordon", "Machines_uncordon", "uncordon", byMachine, perAction, s.serveCordon(false)),
		rt("GET "+m+"/wait", "Machines_wait", "wait", byMachine, perAction, s.serveWait),
		rt("POST "+m+"/exec", "Machines_exec", "exec", byMachine, perAction, s.serveExec),
		rt("GET "+m+"/lease", "Machines_show_lease", "lease_show", byMachine, perAction, s.serveGetLease),
		rt("POST "+m+"/lease", "Machines_create_lease", "lease_create", byMachine, perAction, s.serveAcquireLease),
		rt("DELETE "+m+"/lease", "Machines_release_lease", "lease_release", byMachine, perAction, s.serveReleaseLease),
		rt("GET "+m+"/events", "Machines_list_events", "events", byMachine, perAction, s.serveEvents),
		rt("GET "+m+"/versions", "Machines_list_versions", "versions", byMachine, perAction, s.serveVersions),
		rt("GET "+m+"/metadata", "Machines_show_metadata", "metadata_show", byMachine, perAction, s.serveGetMetadata),
		rt("POST "+m+"/metadata/{key}", "Machines_update_metadata", "metadata_update", byMachine, perAction, s.serveSetMetadata),
		rt("DELETE "+m+"/metadata/{key}", "Machines_delete_metadata", "metadata_delete", byMachine, perAction, s.serveDeleteMetadata),
		rt("GET "+m+"/ps", "Machines_list_processes", "ps", byMachine, perAction, s.servePs),
		rt("GET "+vs, "Volumes_list", "volumes", byApp, perAction, s.serveListVolumes),
		rt("GET "+vs+"/{vol}", "Volumes_get_by_id", "volume", byVolume, perAction, s.serveGetVolume),
		rt("GET "+vs+"/{vol}/snapshots", "Volumes_list_snapshots", "volume_snapshots", byVolume, perAction, s.serveVolumeSnapshots),
		rt("POST "+vs, "Volumes_create", "volume_create", byApp, perAction, s.serveCreateVolume),
		rt("POST "+vs+"/{vol}", "Volumes_update", "volume_update", byVolume, perAction, s.serveUpdateVolume),
		// fly-go sends the update as PUT; the spec names POST.
		rt("PUT "+vs+"/{vol}", "Volumes_update", "volume_update", byVolume, perAction, s.serveUpdateVolume),
		rt("PUT "+vs+"/{vol}/extend", "Volumes_extend", "volume_extend", byVolume, perAction, s.serveExtendVolume),
		rt("DELETE "+vs+"/{vol}", "Volume_delete", "volume_delete", byVolume, perAction, s.serveDeleteVolume),
		rt("POST "+vs+"/{vol}/snapshots", "createVolumeSnapshot", "volume_snapshot", byVolume, perAction, s.serveSnapshotVolume),
		// Not in the 2024 spec; named in its style.
		rt("GET /v1/apps/{app}/secrets", "Secrets_list", "secrets", byApp, perAction, s.serveListSecrets),
		rt("POST /v1/apps/{app}/secrets", "Secrets_update", "secrets_update", byApp, perAction, s.serveUpdateSecrets),
		rt("GET /v1/apps/{app}/secrets/{name}", "Secrets_get", "secret", byApp, perAction, s.serveGetSecret),
		rt("POST /v1/apps/{app}/secrets/{name}", "Secrets_set", "secret_set", byApp, perAction, s.serveSetSecret),
		rt("DELETE /v1/apps/{app}/secrets/{name}", "Secrets_delete", "secret_delete", byApp, perAction, s.serveDeleteSecret),
		rt("GET /v1/platform/regions", "Platform_regions", "regions", org, perAction, s.serveRegions),

		// Fly's GraphQL API, and its web API's few REST endpoints flyctl uses
		// (not the Machines API: no Machines API rate limits).
		rt("POST /graphql", "GraphQL", "graphql", org, nil, s.GraphQL().ServeHTTP),
		rt("GET /api/v1/organizations", "Orgs_list", "uiex_orgs", org, nil, s.serveUiexOrgs),
		rt("GET /api/v1/organizations/{slug}", "Orgs_show", "uiex_org", org, nil, s.serveUiexOrg),
		rt("POST /api/v1/builds", "Builds_create", "uiex_build", org, nil, s.serveCreateBuild),
		rt("POST /api/v1/builds/finish", "Builds_finish", "uiex_build_finish", org, nil, s.serveFinishBuild),
		rt("GET /api/v1/apps/{app}/releases", "Releases_list", "uiex_releases", byApp, nil, s.serveUiexReleases),
		rt("GET /api/v1/apps/{app}/releases/current", "Releases_current", "uiex_release_current", byApp, nil, s.serveUiexCurrentRelease),
		rt("POST /api/v1/releases", "Releases_create", "uiex_release_create", org, nil, s.serveCreateRelease),
		rt("PATCH /api/v1/releases/{id}", "Releases_update", "uiex_release_update", org, nil, s.serveUpdateRelease),
	}
}

// reply is what a handler answers: a status and a JSON body (nil for none).
type reply struct {
	status int
	body   any
}

func errReply(status int, msg string) reply { return reply{status, errorJSON{Error: msg}} }

func (rp reply) write(w http.ResponseWriter) {
	if rp.body == nil {
		w.WriteHeader(rp.status)
		return
	}
	gate.WriteJSON(w, rp.status, rp.body)
}

// withMachine looks the request's machine up and runs fn on it under s.mu;
// the reply is encoded after the lock is released. fn runs at one platform
// instant (what it stamps and what it schedules start at the same time).
func (s *Store) withMachine(w http.ResponseWriter, r *http.Request, fn func(m *Machine) reply) {
	s.sched.Lock()
	m, rp := s.lookupMachine(r)
	if m != nil {
		s.sched.Instant(func() { rp = fn(m) })
	}
	s.sched.Unlock()
	rp.write(w)
}

// lookupMachine finds {app}/{id}. Callers hold the lock.
func (s *Store) lookupMachine(r *http.Request) (*Machine, reply) {
	a := s.apps[r.PathValue("app")]
	if a == nil {
		return nil, errReply(http.StatusNotFound, "app not found")
	}
	m := a.byID[r.PathValue("id")]
	if m == nil {
		return nil, errReply(http.StatusNotFound, "machine not found")
	}
	return m, reply{}
}
