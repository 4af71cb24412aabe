package flysim

import (
	"net/http"

	"github.com/flywake/flywake/sources/flysim/gate"
	"github.com/flywake/flywake/sources/flysim/logs"
)

// Handler serves the Machines API (/v1), the logs API (/api/v1/apps/{app}/logs)
// and the Prometheus API (/prometheus/{org}/api/v1/query and query_range).
func (s *Sim) Handler() http.Handler {
	prom := s.promAPI()
	logsAPI := &logs.API{Store: s.logs, Now: s.now, PageSize: s.opts.LogsPageSize, Known: s.store.Has}
	rt := gate.NewRoute
	routes := append(s.store.Routes(),
		// The logs and Prometheus APIs share auth, headers, counters and faults
		// but not the Machines API's rate limits.
		rt("GET /api/v1/apps/{app}/logs", "Logs_list", "logs", gate.ByPath("app"), nil, logsAPI.ServeHTTP),
		rt("GET /prometheus/{org}/api/v1/query", "Prometheus_query", "prom", gate.ByPath("org"), nil, prom.Query),
		rt("GET /prometheus/{org}/api/v1/query_range", "Prometheus_query_range", "prom", gate.ByPath("org"), nil, prom.QueryRange),
	)
	return s.gate.Handler(routes)
}

// apiRegion is where the simulated API "runs": the first app's region.
func (s *Sim) apiRegion() string {
	if len(s.opts.Apps) > 0 && s.opts.Apps[0].Region != "" {
		return s.opts.Apps[0].Region
	}
	return "iad"
}
