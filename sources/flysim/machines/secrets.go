package machines

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// An app's secrets (GET/POST /v1/apps/{app}/secrets, …/secrets/{name}):
// names, digests and times, never values — whatever show_secrets says. A
// digest is derived from the name and the version that set it, not the
// value, so it leaks nothing. Every change bumps the app's secrets
// version, which flyctl keeps as its minimum for the next deploy.

type secret struct {
	name, digest     string
	created, updated time.Time
}

// secretJSON is one secret as the API lists it.
type secretJSON struct {
	Name      string `json:"name"`
	Digest    string `json:"digest"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// seedSecrets names the profile's secrets, set when the app was deployed.
func (a *App) seedSecrets(at time.Time) {
	for _, name := range sortedKeys(a.p.SecretEnv) {
		sum := sha256.Sum256([]byte(a.id + "/" + name))
		a.secrets = append(a.secrets, &secret{name: name, digest: hex.EncodeToString(sum[:8]), created: at, updated: at})
	}
}

func (a *App) secret(name string) *secret {
	for _, sec := range a.secrets {
		if sec.name == name {
			return sec
		}
	}
	return nil
}

// setSecret sets name (now, by version v); unset removes it.
func (a *App) setSecret(name string, unset bool, v uint64, now time.Time) {
	if unset {
		a.secrets = slices.DeleteFunc(a.secrets, func(sec *secret) bool { return sec.name == name })
		return
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%s/%d", a.id, name, v)))
	if sec := a.secret(name); sec != nil {
		sec.digest, sec.updated = hex.EncodeToString(sum[:8]), now
		return
	}
	a.secrets = append(a.secrets, &secret{name: name, digest: hex.EncodeToString(sum[:8]), created: now, updated: now})
	slices.SortFunc(a.secrets, func(x, y *secret) int { return strings.Compare(x.name, y.name) })
}

func (sec *secret) wire() secretJSON {
	return secretJSON{Name: sec.name, Digest: sec.digest, CreatedAt: rfc3339s(sec.created), UpdatedAt: rfc3339s(sec.updated)}
}

// withApp runs fn on {app} at one platform instant.
func (s *Store) withApp(w http.ResponseWriter, r *http.Request, fn func(a *App) reply) {
	s.sched.Lock()
	rp := errReply(http.StatusNotFound, "app not found")
	if a := s.apps[r.PathValue("app")]; a != nil {
		s.sched.Instant(func() { rp = fn(a) })
	}
	s.sched.Unlock()
	rp.write(w)
}

// serveListSecrets answers GET /v1/apps/{app}/secrets with the names of the
// app's secrets.
func (s *Store) serveListSecrets(w http.ResponseWriter, r *http.Request) {
	s.withApp(w, r, func(a *App) reply {
		out := struct {
			Secrets []secretJSON `json:"secrets"`
		}{Secrets: []secretJSON{}}
		for _, sec := range a.secrets {
			out.Secrets = append(out.Secrets, sec.wire())
		}
		return reply{http.StatusOK, out}
	})
}

// serveGetSecret answers GET /v1/apps/{app}/secrets/{name}.
func (s *Store) serveGetSecret(w http.ResponseWriter, r *http.Request) {
	s.withApp(w, r, func(a *App) reply {
		if sec := a.secret(r.PathValue("name")); sec != nil {
			return reply{http.StatusOK, sec.wire()}
		}
		return errReply(http.StatusNotFound, "secret not found")
	})
}

// serveUpdateSecrets answers POST /v1/apps/{app}/secrets {"values":{name:
// value or null}}: sets and unsets in one version.
func (s *Store) serveUpdateSecrets(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Values map[string]*string `json:"values"`
	}
	if rp := decodeBody(r, &in); rp != nil {
		rp.write(w)
		return
	}
	s.withApp(w, r, func(a *App) reply {
		for _, name := range sortedKeys(in.Values) {
			if !validSecretName(name) {
				return errReply(http.StatusBadRequest, "invalid secret name "+name)
			}
		}
		a.secretsVersion++
		for _, name := range sortedKeys(in.Values) {
			a.setSecret(name, in.Values[name] == nil, a.secretsVersion, s.now())
		}
		out := struct {
			Secrets []secretJSON `json:"secrets"`
			Version uint64       `json:"version"`
		}{Secrets: []secretJSON{}, Version: a.secretsVersion}
		for _, sec := range a.secrets {
			out.Secrets = append(out.Secrets, sec.wire())
		}
		return reply{http.StatusOK, out}
	})
}

// serveSetSecret answers POST /v1/apps/{app}/secrets/{name} {"value":…}.
func (s *Store) serveSetSecret(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Value string `json:"value"`
	}
	if rp := decodeBody(r, &in); rp != nil {
		rp.write(w)
		return
	}
	name := r.PathValue("name")
	s.withApp(w, r, func(a *App) reply {
		if !validSecretName(name) {
			return errReply(http.StatusBadRequest, "invalid secret name "+name)
		}
		a.secretsVersion++
		a.setSecret(name, false, a.secretsVersion, s.now())
		return reply{http.StatusOK, struct {
			secretJSON
			Version uint64 `json:"version"`
		}{a.secret(name).wire(), a.secretsVersion}}
	})
}

// serveDeleteSecret answers DELETE /v1/apps/{app}/secrets/{name}.
func (s *Store) serveDeleteSecret(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	s.withApp(w, r, func(a *App) reply {
		if a.secret(name) == nil {
			return errReply(http.StatusNotFound, "secret not found")
		}
		a.secretsVersion++
		a.setSecret(name, true, a.secretsVersion, s.now())
		return reply{http.StatusOK, struct {
			Version uint64 `json:"version"`
		}{a.secretsVersion}}
	})
}

// validSecretName: what a shell accepts as a variable name.
func validSecretName(name string) bool {
	if name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
