package machines

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"strings"

	"github.com/flywake/flywake/sources/flysim/graphql"
)

// The part of Fly's GraphQL API (POST /graphql) that flyctl's commands use
// — apps, organizations, releases, IP addresses, images — answered from
// the store. What a field's resolver does not model answers null or its
// type's zero (package graphql); a root field or mutation the store does
// not serve answers an error naming it, so nothing pretends to succeed.

// GraphQL serves /graphql over the store, each operation at one platform
// instant under the lock.
func (s *Store) GraphQL() *graphql.Handler {
	return &graphql.Handler{Run: func(fn func(query, mutation graphql.Object)) {
		s.sched.Lock()
		defer s.sched.Unlock()
		s.sched.Instant(func() { fn(s.gqlQuery(), graphql.Object{}) })
	}}
}

func notFound(what string) error {
	return &graphql.Error{Message: "Could not find " + what, Code: "NOT_FOUND"}
}

func argString(args map[string]any, name string) string {
	v, _ := args[name].(string)
	return v
}

func argInt(args map[string]any, name string, fallback int) int {
	switch v := args[name].(type) {
	case int:
		return v
	case int64:
		return int(v)
	case float64:
		return int(v)
	}
	return fallback
}

func (s *Store) gqlQuery() graphql.Object {
	return graphql.Object{
		"app": graphql.Field(func(args map[string]any) (any, error) {
			name := argString(args, "name")
			for _, a := range s.apps {
				if a.p.Name == name || (name == "" && (a.id == argString(args, "id") || fmt.Sprint(a.numericID()) == argString(args, "internalId"))) {
					return s.gqlApp(a), nil
				}
			}
			return nil, notFound(fmt.Sprintf("App %q", name))
		}),
		"apps": graphql.Field(func(args map[string]any) (any, error) {
			if org := argString(args, "organizationId"); org != "" && org != s.orgID() {
				return connection(nil), nil
			}
			var nodes []any
			for _, name := range s.appOrder {
				nodes = append(nodes, s.gqlApp(s.apps[name]))
			}
			return connection(nodes), nil
		}),
		"organization": graphql.Field(func(args map[string]any) (any, error) {
			if slug := argString(args, "slug"); slug != "" && slug != s.opts.Org && slug != "personal" {
				return nil, notFound(fmt.Sprintf("Organization %q", slug))
			}
			return s.gqlOrg(), nil
		}),
		"organizations": graphql.Field(func(map[string]any) (any, error) {
			return connection([]any{s.gqlOrg()}), nil
		}),
		"personalOrganization": s.gqlOrg(),
		"latestImageDetails": graphql.Field(func(args map[string]any) (any, error) {
			im := s.knownImage(argString(args, "image"))
			if im == nil {
				return nil, &graphql.Error{Message: "Unknown repository " + argString(args, "image")}
			}
			return graphql.Object{"registry": im.registry, "repository": im.repository, "tag": im.tag, "digest": im.digest,
				"version": nil}, nil
		}),
		"platform": graphql.Object{
			"requestRegion": s.opts.Region,
			"regions":       gqlRegions(),
		},
		"viewer":      s.gqlUser(),
		"currentUser": s.gqlUser(),
	}
}

// connection is a GraphQL connection of nodes on one page.
func connection(nodes []any) graphql.Object {
	if nodes == nil {
		nodes = []any{}
	}
	return graphql.Object{"nodes": nodes, "totalCount": len(nodes),
		"pageInfo": graphql.Object{"hasNextPage": false, "hasPreviousPage": false}}
}

func (s *Store) orgID() string {
	sum := sha256.Sum256([]byte("org/" + s.opts.Org))
	return hex.EncodeToString(sum[:6])
}

func (s *Store) gqlOrg() graphql.Object {
	o := s.wireOrg()
	return graphql.Object{"id": s.orgID(), "internalNumericId": o.InternalNumericID, "slug": o.Slug, "rawSlug": o.Slug,
		"name": o.Name, "type": "SHARED", "paidPlan": true, "billable": true, "viewerRole": "admin",
		"billingStatus": "CURRENT", "remoteBuilderImage": "docker-hub-mirror.fly.io/flyio/rchab:sha-9346699"}
}

func (s *Store) gqlUser() graphql.Object {
	return graphql.Object{"__typename": "User", "id": "user_" + s.orgID(), "email": s.leaseOwner(), "name": "You",
		"username": "you", "internalNumericId": numericID("user/" + s.opts.Org)}
}

func gqlRegions() []any {
	var out []any
	for _, r := range platformRegions {
		if !r.Deprecated {
			out = append(out, graphql.Object{"code": r.Code, "name": r.Name, "latitude": r.Latitude, "longitude": r.Longitude,
				"gatewayAvailable": r.GatewayAvailable, "requiresPaidPlan": r.RequiresPaidPlan})
		}
	}
	return out
}

// gqlApp is a as Fly's App type.
func (s *Store) gqlApp(a *App) graphql.Object {
	host := a.p.Name + ".fly.dev"
	return graphql.Object{
		"id": a.id, "internalNumericId": a.numericID(), "internalId": fmt.Sprint(a.numericID()), "name": a.p.Name,
		"hostname": host, "appUrl": "https://" + host, "cnameTarget": a.id + "." + host, "key": a.p.Name,
		"deployed": a.liveMachines() > 0, "status": a.status(), "state": gqlAppState(a), "network": "default",
		"platformVersion": "machines", "organization": s.gqlOrg(), "role": nil, "createdAt": a.createdAt,
		"currentRelease":            gqlRelease(a, a.currentRelease()),
		"currentReleaseUnprocessed": gqlRelease(a, a.currentRelease()),
		"releasesUnprocessed": graphql.Field(func(args map[string]any) (any, error) {
			return gqlReleases(a, argInt(args, "first", 25)), nil
		}),
		"releases": graphql.Field(func(args map[string]any) (any, error) {
			return gqlReleases(a, argInt(args, "first", 25)), nil
		}),
		"ipAddresses":       connection(s.gqlIPs(a)),
		"sharedIpAddress":   sharedIPv4(a),
		"egressIpAddresses": connection(nil),
		"image": graphql.Field(func(args map[string]any) (any, error) {
			im := s.resolveImage(argString(args, "ref"))
			if im == nil {
				return nil, nil
			}
			return gqlImage(im), nil
		}),
		"regions":      []any{},
		"machines":     connection(s.gqlMachines(a)),
		"config":       graphql.Object{"definition": gqlDefinition(a)},
		"services":     s.gqlServices(a),
		"imageDetails": gqlImageDetails(a),
		"version":      gqlVersion(a),
	}
}

// gqlMachines are a's machines that are not destroyed.
func (s *Store) gqlMachines(a *App) []any {
	var out []any
	for _, m := range a.machines {
		if m.state == "destroyed" {
			continue
		}
		out = append(out, graphql.Object{"id": m.id, "name": m.name, "state": m.state, "region": m.region,
			"createdAt": m.createdAt, "updatedAt": m.updatedAt, "config": m.cfg, "instanceId": m.instanceID,
			"app": graphql.Object{"name": a.p.Name}, "ips": connection([]any{graphql.Object{"family": "v6", "kind": "privatenet",
				"ip": m.privateIP, "maskSize": 112}}),
			"host": graphql.Object{"id": "host_" + m.region}})
	}
	return out
}

// gqlServices are the services of a's first live machine, as Fly lists an
// app's.
func (s *Store) gqlServices(a *App) []any {
	var out []any
	for _, m := range a.machines {
		if m.state == "destroyed" || m.cfg == nil {
			continue
		}
		for _, svc := range m.cfg.Services {
			var ports []any
			for _, p := range svc.Ports {
				if p.Port != nil {
					var handlers []any
					for _, h := range p.Handlers {
						handlers = append(handlers, strings.ToUpper(h)) // the schema's ServiceHandlerType
					}
					ports = append(ports, graphql.Object{"port": *p.Port, "handlers": handlers})
				}
			}
			out = append(out, graphql.Object{"description": "", "protocol": strings.ToUpper(svc.Protocol),
				"internalPort": svc.InternalPort, "ports": ports})
		}
		break
	}
	return out
}

func gqlDefinition(a *App) any {
	if r := a.currentRelease(); r != nil {
		return r.definition
	}
	return nil
}

func gqlVersion(a *App) int {
	if r := a.currentRelease(); r != nil {
		return r.version
	}
	return 0
}

// gqlImageDetails is what the current release runs.
func gqlImageDetails(a *App) any {
	if a.current == nil {
		return nil
	}
	im := a.current
	return graphql.Object{"registry": im.registry, "repository": im.repository, "tag": im.tag, "digest": im.digest}
}

func gqlAppState(a *App) string {
	if a.liveMachines() == 0 {
		return "PENDING"
	}
	return "DEPLOYED"
}

// gqlReleases are a's newest first, at most first of them.
func gqlReleases(a *App, first int) graphql.Object {
	var nodes []any
	for i := len(a.releases) - 1; i >= 0 && len(nodes) < first; i-- {
		nodes = append(nodes, gqlRelease(a, a.releases[i]))
	}
	return connection(nodes)
}

func gqlRelease(a *App, r *release) any {
	if r == nil {
		return nil
	}
	return graphql.Object{"id": r.id, "version": r.version, "status": r.status, "description": r.description,
		"reason": r.reason, "imageRef": r.imageRef, "stable": r.status == "complete", "inProgress": r.status == "running",
		"deploymentStrategy": r.strategy, "createdAt": r.createdAt, "updatedAt": r.updatedAt,
		"configDefinition": r.definition, "user": graphql.Object{"id": "user_" + a.id, "email": "you@" + a.p.Name + ".example", "name": "You"}}
}

func gqlImage(im *image) graphql.Object {
	return graphql.Object{"id": "img_" + strings.TrimPrefix(im.digest, "sha256:")[:16], "digest": im.digest, "ref": im.ref(),
		"absoluteRef": im.registry + "/" + im.repository + "@" + im.digest, "registry": im.registry,
		"repository": im.repository, "tag": im.tag, "compressedSizeFull": imageSize(im), "compressedSize": imageSize(im),
		"manifest": map[string]any{"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json"},
		"config":   map[string]any{}, "configDigest": map[string]any{}}
}

// imageSize is a stable, plausible compressed size.
func imageSize(im *image) string {
	sum := sha256.Sum256([]byte(im.digest))
	return fmt.Sprint(40<<20 + int(sum[0])<<18)
}

// knownImage is an image the platform has pulled or built, by "repo:tag".
func (s *Store) knownImage(ref string) *image {
	registry, repo, tag := splitRef(ref)
	for _, im := range s.public {
		if (registry == "" || registry == im.registry) && (im.repository == repo || im.repository == "library/"+repo) && im.tag == tag {
			return im
		}
	}
	return nil
}

// sharedIPv4 is the app's address on Fly's shared IPv4 (a documentation
// address here), and gqlIPs its dedicated IPv6.
func sharedIPv4(a *App) string {
	sum := sha256.Sum256([]byte(a.id))
	return fmt.Sprintf("192.0.2.%d", 1+int(sum[0])%250)
}

func (s *Store) gqlIPs(a *App) []any {
	sum := sha256.Sum256([]byte(a.id))
	ip := net.IP(append([]byte{0x20, 0x01, 0x0d, 0xb8, 0, 0x18, 0, 0}, sum[:8]...)) // under 2001:db8::/32
	return []any{graphql.Object{"id": "ip_" + hex.EncodeToString(sum[:6]), "address": ip.String(), "type": "v6",
		"region": "global", "createdAt": a.createdAt, "serviceName": nil,
		"network": graphql.Object{"name": "default", "organization": graphql.Object{"slug": s.opts.Org}}}}
}
