package flysim

import "net/http"

// Handler serves the Machines API (/v1), the logs API (/api/v1/apps/{app}/logs)
// and the Prometheus API (/prometheus/{org}/api/v1/query).
// (Skeleton: the full router lives here.)
func (s *Sim) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/apps/{app}/logs", s.serveLogs)
	mux.HandleFunc("GET /prometheus/{org}/api/v1/query", s.servePromQuery)
	return mux
}
