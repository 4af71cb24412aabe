package flysim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	fly "github.com/superfly/fly-go"
	"github.com/superfly/fly-go/flaps"
	"github.com/superfly/fly-go/tokens"
)

// Every response flysim serves in a broad scenario (driven through fly-go
// and raw HTTP) is checked against the Machines API's Swagger 2.0 document
// (testdata/machines-api-swagger.json, a copy of the 2024 public spec):
// the body against its operation's response schema (ErrorResponse for an
// error status the operation does not list), and the query parameters
// against the operation's. kin-openapi converts the document to OpenAPI 3
// and validates; the deliberate exceptions are below, each used at least
// once or the test fails.

// violation is one thing the document and flysim disagree on.
type violation struct {
	op     string // operationId
	where  string // "response", "status", "query"
	status int
	path   string // JSON pointer into the body, or the parameter name
	value  any
	reason string
}

func (v violation) String() string {
	return fmt.Sprintf("%s %s %d %s = %v: %s", v.op, v.where, v.status, v.path, v.value, v.reason)
}

var indices = regexp.MustCompile(`/[0-9]+`)

func lastSegment(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// swaggerException is a place where real Fly is known to differ from the
// 2024 document, and flysim follows Fly.
type swaggerException struct {
	why   string
	match func(v violation) bool
}

var swaggerExceptions = []swaggerException{
	{
		// Swagger 2.0 cannot say "nullable"; Fly's server (Go, fly-go's
		// types) writes null for unset fields, as the docs' own update
		// example shows ("env": null, "metadata": null).
		"unset fields are null",
		func(v violation) bool {
			return v.where == "response" && v.value == nil && strings.Contains(v.reason, "not nullable")
		},
	},
	{
		// The document describes fly.Duration as the Go struct
		// {"time.Duration": <ns>}; Fly and fly-go send strings ("10s").
		"durations are strings",
		func(v violation) bool {
			_, isString := v.value.(string)
			return v.where == "response" && isString &&
				slices.Contains([]string{"timeout", "interval", "grace_period"}, lastSegment(v.path))
		},
	},
	{
		// The document says boolean; Fly sends false (off), true (stop) or
		// "suspend" (fly-go's MachineAutostop marshalling).
		"autostop is a string when it is suspend",
		func(v violation) bool {
			return v.where == "response" && lastSegment(v.path) == "autostop" && v.value == "suspend"
		},
	},
	{
		// The document says exec answers the raw output bytes; Fly answers
		// {"exit_code","exit_signal","stdout","stderr"}, which fly-go decodes.
		"exec answers JSON",
		func(v violation) bool {
			return v.op == "Machines_exec" && v.where == "response" && v.status == 200 && v.path == ""
		},
	},
	{
		// The document's state enum is started|stopped|destroyed; Fly also
		// waits for suspended (fly-go's WithWaitStates) and flyctl's settled.
		"/wait accepts suspended and settled",
		func(v violation) bool {
			return v.op == "Machines_wait" && v.where == "query" && v.path == "state" && (v.value == "suspended" || v.value == "settled")
		},
	},
	{
		// The docs' machines-resource page answers a new lease with 201
		// Created; the document lists only 200.
		"lease create answers 201",
		func(v violation) bool {
			return v.op == "Machines_create_lease" && v.where == "status" && v.status == 201
		},
	},
	{
		// A lease conflict is the docs' {"status":"error","message":…,"code":"invalid"},
		// whose status is outside ErrorResponse's main.statusCode enum.
		"lease conflicts carry status error",
		func(v violation) bool { return v.status == 409 && v.path == "/status" && v.value == "error" },
	},
}

// exchange is one recorded request and its answer.
type exchange struct {
	req    *http.Request
	status int
	header http.Header
	body   []byte
}

// recorder is an http.RoundTripper that keeps every exchange.
type recorder struct {
	mu   sync.Mutex
	next http.RoundTripper
	ex   []exchange
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	r.mu.Lock()
	r.ex = append(r.ex, exchange{req: req.Clone(context.Background()), status: resp.StatusCode, header: resp.Header.Clone(), body: body})
	r.mu.Unlock()
	return resp, nil
}

// loadSpec reads the document and routes it at the platform's address.
func loadSpec(t *testing.T, base string) (*openapi3.T, routers.Router) {
	t.Helper()
	raw, err := os.ReadFile("testdata/machines-api-swagger.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc2 openapi2.T
	if err := json.Unmarshal(raw, &doc2); err != nil {
		t.Fatal(err)
	}
	doc, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = openapi3.Servers{{URL: base + "/v1"}}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return doc, router
}

// notInSpec are the routes flysim serves that the 2024 document lacks
// (suspend came later; secrets and regions are documented elsewhere).
var notInSpec = []string{"POST /suspend", "GET /secrets", "GET /regions"}

func routeName(r *http.Request) string {
	return r.Method + " /" + lastSegment(strings.TrimSuffix(r.URL.Path, "/"))
}

// check validates one exchange and returns what disagrees.
func check(t *testing.T, doc *openapi3.T, router routers.Router, ex exchange) ([]violation, bool) {
	route, params, err := router.FindRoute(ex.req)
	if err != nil {
		return nil, false
	}
	op := route.Operation.OperationID
	var out []violation
	add := func(where, path string, value any, reason string) {
		out = append(out, violation{op: op, where: where, status: ex.status, path: path, value: value, reason: reason})
	}
	schemaErrors := func(where string, err error) {
		var me openapi3.MultiError
		if !errors.As(err, &me) {
			me = openapi3.MultiError{err}
		}
		for _, e := range me {
			var se *openapi3.SchemaError
			var re *openapi3filter.RequestError
			switch {
			case errors.As(e, &re) && re.Parameter != nil:
				add(where, re.Parameter.Name, ex.req.URL.Query().Get(re.Parameter.Name), re.Error())
			case errors.As(e, &se):
				p := "/" + strings.Join(se.JSONPointer(), "/")
				if len(se.JSONPointer()) == 0 {
					p = ""
				}
				add(where, p, se.Value, se.Reason)
			default:
				add(where, "", nil, e.Error())
			}
		}
	}

	in := &openapi3filter.RequestValidationInput{Request: ex.req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{ExcludeRequestBody: true, MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	// A request the API refused may break the document's rules on purpose.
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil && ex.status < 400 {
		schemaErrors("query", err)
	}

	var schema *openapi3.Schema
	if ref := route.Operation.Responses.Status(ex.status); ref != nil {
		if mt := ref.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil {
			schema = mt.Schema.Value
		}
	} else if ex.status/100 == 2 {
		add("status", "", ex.status, "status not listed for the operation")
		for _, st := range []int{200, 201} { // still check the body against the success schema
			if ref := route.Operation.Responses.Status(st); ref != nil {
				if mt := ref.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil {
					schema = mt.Schema.Value
				}
			}
		}
	} else {
		schema = doc.Components.Schemas["ErrorResponse"].Value
	}
	if schema == nil || len(bytes.TrimSpace(ex.body)) == 0 {
		return out, true
	}
	var v any
	if err := json.Unmarshal(ex.body, &v); err != nil {
		add("response", "", string(ex.body), "not JSON: "+err.Error())
		return out, true
	}
	if err := schema.VisitJSON(v, openapi3.MultiErrors()); err != nil {
		schemaErrors("response", err)
	}
	return out, true
}

func TestResponsesMatchTheSwaggerDocument(t *testing.T) {
	t.Parallel()
	s := New(Options{NoTraffic: true, Speed: 20, Seed: contractSeed})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	rec := &recorder{next: http.DefaultTransport}
	c, err := flaps.NewWithOptions(context.Background(), flaps.NewClientOpts{UserAgent: "flysim-swagger", Tokens: tokens.Parse(s.Token()), Transport: newToSim(t, s, rec)})
	if err != nil {
		t.Fatal(err)
	}
	raw := &http.Client{Transport: rec}
	do := func(method, path, body string, hdr map[string]string) {
		req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.Token())
		req.Header.Set("Content-Type", "application/json")
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := raw.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	scenario(t, s, c, do)

	doc, router := loadSpec(t, s.URL())
	used := make([]int, len(swaggerExceptions))
	reported := map[string]bool{} // one report per place, not per machine
	byOp, skipped := map[string]int{}, map[string]bool{}
	for _, ex := range rec.ex {
		vs, inSpec := check(t, doc, router, ex)
		if !inSpec {
			name := routeName(ex.req)
			if !slices.Contains(notInSpec, name) {
				t.Errorf("%s %s is not in the document and not listed as such", ex.req.Method, ex.req.URL.Path)
			}
			skipped[name] = true
			continue
		}
		route, _, _ := router.FindRoute(ex.req)
		byOp[route.Operation.OperationID]++
		for _, v := range vs {
			i := slices.IndexFunc(swaggerExceptions, func(e swaggerException) bool { return e.match(v) })
			if i >= 0 {
				used[i]++
				continue
			}
			if key := v.op + v.where + indices.ReplaceAllString(v.path, "/N") + v.reason; !reported[key] {
				reported[key] = true
				t.Errorf("%s\n\tbody: %.300s", v, ex.body)
			}
		}
	}
	for i, e := range swaggerExceptions {
		if used[i] == 0 {
			t.Errorf("exception %q was never needed: drop it", e.why)
		}
	}
	for _, name := range notInSpec {
		if !skipped[name] {
			t.Errorf("%s listed as outside the document but never called", name)
		}
	}
	// The scenario must reach (nearly) every operation the document has
	// that flysim serves, so a new endpoint cannot go unchecked.
	var missing []string
	for _, want := range servedOperations {
		if byOp[want] == 0 {
			missing = append(missing, want)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("the scenario never called %v", missing)
	}
	t.Logf("%d exchanges over %d operations checked", len(rec.ex), len(byOp))
}

// servedOperations are the document's operations flysim serves.
var servedOperations = []string{
	"Apps_list", "Apps_show", "Machines_list", "Machines_create", "Machines_show", "Machines_update",
	"Machines_delete", "Machines_start", "Machines_stop", "Machines_restart", "Machines_signal",
	"Machines_cordon", "Machines_uncordon", "Machines_wait", "Machines_exec", "Machines_show_lease",
	"Machines_create_lease", "Machines_release_lease", "Machines_list_events", "Machines_list_versions",
	"Machines_show_metadata", "Machines_update_metadata", "Machines_delete_metadata", "Machines_list_processes",
	"Volumes_list", "Volumes_get_by_id", "Volumes_list_snapshots",
	"Apps_create", "Apps_delete", "Volumes_create", "Volumes_update", "Volumes_extend", "Volume_delete", "createVolumeSnapshot",
}

// scenario drives the platform through every endpoint, through fly-go where
// it has a method and raw HTTP where it does not, errors included.
func scenario(t *testing.T, s *Sim, c *flaps.Client, do func(method, path, body string, hdr map[string]string)) {
	ctx := ctxT(t)
	s.SetRateLimits(false)
	ign := func(...any) {}
	apps := "/v1/apps/"
	for _, slug := range []string{DemoOrg, "personal", "nobody"} {
		ign(c.ListApps(ctx, flaps.ListAppsRequest{OrgSlug: slug}))
	}
	for _, app := range s.Apps() {
		ign(c.GetApp(ctx, app))
		ms, err := c.List(ctx, app, "")
		if err != nil {
			t.Fatal(err)
		}
		ign(c.List(ctx, app, "include_deleted=true&region=ams"))
		for _, m := range ms {
			ign(c.Get(ctx, app, m.ID))
		}
		do("GET", apps+app+"/machines/"+ms[0].ID+"/events?limit=3", "", nil)
		do("GET", apps+app+"/machines/"+ms[0].ID+"/versions", "", nil)
		ign(c.GetMetadata(ctx, app, ms[0].ID))
		ign(c.GetVolumes(ctx, app))
		ign(c.ListAppSecrets(ctx, app, nil, false))
	}
	ign(c.GetApp(ctx, "no-such-app"))
	ign(c.Get(ctx, DemoTuned, "0000000000dead"))
	ign(c.GetRegions(ctx))

	// The tuned app's started machine: exec, ps, metadata, lease, stop,
	// start, suspend, resume, restart, signal, cordon.
	up := machineIn(t, s, DemoTuned, "started")
	m := apps + DemoTuned + "/machines/" + up
	ign(c.Exec(ctx, DemoTuned, up, &fly.MachineExecRequest{Cmd: "cat /proc/meminfo", Timeout: 5}))
	do("POST", m+"/exec", `{"command":["printenv"],"timeout":5}`, nil)
	do("POST", m+"/exec", `{}`, nil)
	ign(c.GetProcesses(ctx, DemoTuned, up))
	ign(c.SetMetadata(ctx, DemoTuned, up, "k", "v"))
	ign(c.DeleteMetadata(ctx, DemoTuned, up, "k"))
	ign(c.FindLease(ctx, DemoTuned, up))
	ttl := 30
	l, err := c.AcquireLease(ctx, DemoTuned, up, &ttl)
	if err != nil {
		t.Fatal(err)
	}
	ign(c.FindLease(ctx, DemoTuned, up))
	do("POST", m+"/lease", `{"ttl":5,"description":"other"}`, nil) // 409
	ign(c.RefreshLease(ctx, DemoTuned, up, &ttl, l.Data.Nonce))
	ign(c.Stop(ctx, DemoTuned, fly.StopMachineInput{ID: up}, ""))                              // 409
	ign(c.Stop(ctx, DemoTuned, fly.StopMachineInput{ID: up, Signal: "SIGTERM"}, l.Data.Nonce)) // ok
	ign(c.Wait(ctx, DemoTuned, up, flaps.WithWaitStates("stopped"), flaps.WithWaitTimeout(10*time.Second)))
	ign(c.Start(ctx, DemoTuned, up, l.Data.Nonce))
	ign(c.ReleaseLease(ctx, DemoTuned, up, "wrong"))
	ign(c.ReleaseLease(ctx, DemoTuned, up, l.Data.Nonce))
	ign(c.ReleaseLease(ctx, DemoTuned, up, l.Data.Nonce)) // 404
	ign(c.Wait(ctx, DemoTuned, up, flaps.WithWaitStates("started"), flaps.WithWaitTimeout(10*time.Second)))
	ign(c.Suspend(ctx, DemoTuned, up, ""))
	ign(c.Start(ctx, DemoTuned, up, "")) // while suspending
	ign(c.Wait(ctx, DemoTuned, up, flaps.WithWaitStates("started", "suspended"), flaps.WithWaitTimeout(10*time.Second)))
	do("GET", m+"/wait?state=settled&timeout=5", "", nil)
	do("GET", m+"/wait?state=dancing", "", nil)
	ign(c.Restart(ctx, DemoTuned, fly.RestartMachineInput{ID: up, Signal: "SIGTERM", Timeout: 5 * time.Second}, ""))
	ign(c.Wait(ctx, DemoTuned, up, flaps.WithWaitStates("started"), flaps.WithWaitTimeout(10*time.Second)))
	do("POST", m+"/signal", `{"signal":"SIGHUP"}`, nil)
	do("POST", m+"/signal", `{"signal":"SIGNOPE"}`, nil)
	ign(c.Cordon(ctx, DemoTuned, up, ""))
	ign(c.Uncordon(ctx, DemoTuned, up, ""))
	ign(c.Kill(ctx, DemoTuned, up))
	do("POST", m+"/stop", `[]`, nil)

	// Swap blocks suspend (412); a stopped machine's exec (412); a wait
	// that times out (408).
	sleepy := machineIn(t, s, DemoScaleToZero, "stopped")
	ign(c.Suspend(ctx, DemoScaleToZero, machineIn(t, s, DemoScaleToZero, "started"), ""))
	ign(c.Exec(ctx, DemoScaleToZero, sleepy, &fly.MachineExecRequest{Cmd: "true"}))
	ign(c.Wait(ctx, DemoScaleToZero, sleepy, flaps.WithWaitStates("started"), flaps.WithWaitTimeout(time.Second)))

	// Create, update, destroy.
	tmpl, err := c.Get(ctx, DemoTuned, up)
	if err != nil {
		t.Fatal(err)
	}
	cfg := tmpl.GetConfig()
	nm, err := c.Launch(ctx, DemoTuned, fly.LaunchMachineInput{Config: cfg, LeaseTTL: 30})
	if err != nil {
		t.Fatal(err)
	}
	ign(c.Launch(ctx, DemoTuned, fly.LaunchMachineInput{Config: cfg, SkipLaunch: true, SkipServiceRegistration: true}))
	do("POST", apps+DemoTuned+"/machines", `{"config":{}}`, nil)
	ign(c.Wait(ctx, DemoTuned, nm.ID, flaps.WithWaitStates("started"), flaps.WithWaitTimeout(10*time.Second)))
	ref, err := s.PushImage(DemoTuned, "deployment-swagger", ImageBehavior{})
	if err != nil {
		t.Fatal(err)
	}
	next := *cfg
	next.Image = ref
	ign(c.Update(ctx, DemoTuned, fly.LaunchMachineInput{ID: nm.ID, Config: &next}, nm.LeaseNonce))
	ign(c.Get(ctx, DemoTuned, nm.ID))
	do("GET", apps+DemoTuned+"/machines/"+nm.ID+"/versions", "", nil)
	do("GET", apps+DemoTuned+"/machines/"+nm.ID+"?version="+nm.InstanceID, "", nil)
	ign(c.Destroy(ctx, DemoTuned, fly.RemoveMachineInput{ID: nm.ID}, nm.LeaseNonce)) // 412: running
	ign(c.Destroy(ctx, DemoTuned, fly.RemoveMachineInput{ID: nm.ID, Kill: true}, nm.LeaseNonce))
	ign(c.Wait(ctx, DemoTuned, nm.ID, flaps.WithWaitStates("destroyed"), flaps.WithWaitTimeout(10*time.Second)))
	ign(c.List(ctx, DemoTuned, "include_deleted=true"))

	// Volume reads.
	vols, err := c.GetVolumes(ctx, DemoBacklog)
	if err != nil || len(vols) == 0 {
		t.Fatalf("volumes: %v %v", vols, err)
	}
	ign(c.GetVolume(ctx, DemoBacklog, vols[0].ID))
	ign(c.GetVolumeSnapshots(ctx, DemoBacklog, vols[0].ID))
	ign(c.GetVolume(ctx, DemoBacklog, "vol_nope"))

	// Volume and app writes.
	size := 2
	nv, err := c.CreateVolume(ctx, DemoBacklog, fly.CreateVolumeRequest{Name: "scratch", Region: "iad", SizeGb: &size})
	if err != nil {
		t.Fatal(err)
	}
	ign(c.CreateVolume(ctx, DemoBacklog, fly.CreateVolumeRequest{Name: "Bad Name"})) // 400
	do("POST", apps+DemoBacklog+"/volumes/"+nv.ID, `{"snapshot_retention":7,"auto_backup_enabled":false}`, nil)
	ign(c.ExtendVolume(ctx, DemoBacklog, nv.ID, 3))
	ign(c.ExtendVolume(ctx, DemoBacklog, nv.ID, 1)) // 400
	ign(c.CreateVolumeSnapshot(ctx, DemoBacklog, nv.ID))
	ign(c.DeleteVolume(ctx, DemoBacklog, nv.ID))
	do("POST", "/v1/apps", `{"app_name":"swagger-app","org_slug":"`+DemoOrg+`"}`, nil)
	do("POST", "/v1/apps", `{"app_name":"swagger-app","org_slug":"`+DemoOrg+`"}`, nil) // taken
	do("DELETE", apps+"swagger-app", "", nil)

	// Rate limits and auth, last.
	s.SetRateLimits(true)
	for range 5 {
		ign(c.FindLease(ctx, DemoBacklog, machineIn(t, s, DemoBacklog, "started")))
	}
	do("GET", apps+DemoBacklog, "", map[string]string{"Authorization": "Bearer nope"})
}

// The checker itself can fail: a body of the wrong shape, a missing status
// and a bad query are all reported.
func TestSwaggerCheckerFlagsMismatches(t *testing.T) {
	t.Parallel()
	doc, router := loadSpec(t, "http://127.0.0.1:1")
	mk := func(method, path string, status int, body string) exchange {
		req, _ := http.NewRequest(method, "http://127.0.0.1:1"+path, nil)
		return exchange{req: req, status: status, body: []byte(body)}
	}
	tests := []struct {
		ex   exchange
		want string // in the violation's text
	}{
		{mk("GET", "/v1/apps/a/machines/m", 200, `{"id":5,"events":[{"timestamp":"soon"}]}`), "/id"},
		{mk("GET", "/v1/apps/a/machines/m", 200, `{"id":"m","events":[{"timestamp":"soon"}]}`), "/events/0/timestamp"},
		{mk("GET", "/v1/apps", 200, `{"total_apps":"four"}`), "/total_apps"},
		{mk("GET", "/v1/apps/a/machines/m", 404, `{"error":404}`), "/error"},
		{mk("POST", "/v1/apps/a/machines/m/start", 202, `{}`), "status not listed"},
		{mk("GET", "/v1/apps/a/machines/m/wait?state=sideways", 200, `{"ok":true}`), "state"},
	}
	for _, tt := range tests {
		vs, inSpec := check(t, doc, router, tt.ex)
		found := false
		for _, v := range vs {
			found = found || strings.Contains(v.String(), tt.want)
		}
		if !inSpec || !found {
			t.Errorf("%s %s: violations %v, want one about %q", tt.ex.req.Method, tt.ex.req.URL, vs, tt.want)
		}
	}
}
