package flysim

import "net/http"

// serveLogs answers Fly's logs API (JSON:API, nanosecond next_token).
func (s *Sim) serveLogs(w http.ResponseWriter, r *http.Request) {
	http.Error(w, `{"error":"not implemented"}`, http.StatusNotImplemented)
}
