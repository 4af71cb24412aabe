package flysim

import "net/http"

// servePromQuery answers Prometheus instant queries for the org.
func (s *Sim) servePromQuery(w http.ResponseWriter, r *http.Request) {
	http.Error(w, `{"status":"error","error":"not implemented"}`, http.StatusNotImplemented)
}
