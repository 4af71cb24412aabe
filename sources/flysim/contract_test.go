package flysim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"
	"github.com/superfly/fly-go/flaps"
	"github.com/superfly/fly-go/tokens"

	"github.com/flywake/flywake/sources/flysim/guest"
	"github.com/flywake/flywake/sources/flysim/machines"
)

// Contract tests: the unmodified fly-go v0.5.0 client against flysim,
// asserting what the real Machines API answers (Fly's docs
// §1–3, fly-go.md §3–6). fly-go takes its base URL only from
// FLY_FLAPS_BASE_URL; the client's transport (toSim) aims it at the test's
// own platform instead, so the tests run in parallel.

const contractSeed = 42

// contractSim starts a quiet platform at speed and a fly-go client for it.
func contractSim(t *testing.T, speed float64) (*Sim, *flaps.Client) {
	t.Helper()
	s := New(Options{NoTraffic: true, Speed: speed, Seed: contractSeed})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, clientFor(t, s, s.Token())
}

func clientFor(t *testing.T, s *Sim, token string) *flaps.Client {
	t.Helper()
	c, err := flaps.NewWithOptions(context.Background(), flaps.NewClientOpts{UserAgent: "flysim-test", Tokens: tokens.Parse(token),
		Transport: newToSim(t, s, http.DefaultTransport)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// toSim sends every request to the test's platform, whatever host fly-go
// aimed it at (its default, api.machines.dev): nothing leaves 127.0.0.1.
type toSim struct {
	base *url.URL
	next http.RoundTripper
}

func newToSim(t *testing.T, s *Sim, next http.RoundTripper) toSim {
	t.Helper()
	base, err := url.Parse(s.URL())
	if err != nil || base.Hostname() != "127.0.0.1" {
		t.Fatalf("the platform is at %q (%v), not on 127.0.0.1", s.URL(), err)
	}
	return toSim{base: base, next: next}
}

func (r toSim) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host, out.Host = r.base.Scheme, r.base.Host, ""
	return r.next.RoundTrip(out)
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// machineIn picks a machine of app in state straight from the platform, so
// tests don't spend their API budget looking for one.
func machineIn(t *testing.T, s *Sim, app, state string) string {
	t.Helper()
	s.sched.Lock()
	defer s.sched.Unlock()
	for _, m := range s.store.App(app).Machines() {
		if m.State() == state {
			return m.ID()
		}
	}
	t.Fatalf("%s has no %s machine", app, state)
	return ""
}

// apiErr asserts err is a FlapsError with status and a message containing want.
func apiErr(t *testing.T, err error, status int, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want HTTP %d %q, got success", status, want)
	}
	var fe *flaps.FlapsError
	if !errors.As(err, &fe) {
		t.Fatalf("want a FlapsError, got %T: %v", err, err)
	}
	if fe.ResponseStatusCode != status || !strings.Contains(err.Error(), want) {
		t.Fatalf("want HTTP %d containing %q, got %d: %v", status, want, fe.ResponseStatusCode, err)
	}
	if fe.FlyRequestId == "" {
		t.Errorf("error response carries no fly-request-id")
	}
}

// httpStatus is the HTTP status of a fly-go error; 0 for success.
func httpStatus(err error) int {
	var fe *flaps.FlapsError
	if errors.As(err, &fe) {
		return fe.ResponseStatusCode
	}
	if err != nil {
		return -1
	}
	return 0
}

func rawDo(t *testing.T, s *Sim, method, path, body string, hdr map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.Token())
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func TestContractAppsAndMachines(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50)
	ctx := ctxT(t)

	apps, err := c.ListApps(ctx, flaps.ListAppsRequest{OrgSlug: DemoOrg})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range apps {
		names = append(names, a.Name)
		if a.Organization.Slug != DemoOrg || a.MachineCount == 0 || a.Network != "default" {
			t.Errorf("app %+v lacks org/machine_count/network", a)
		}
	}
	if got := strings.Join(names, ","); got != "sleepy-api,snappy-api,crashy-api,backlog-web" {
		t.Errorf("apps = %s", got)
	}

	app, err := c.GetApp(ctx, DemoScaleToZero)
	if err != nil {
		t.Fatal(err)
	}
	if app.Organization.Slug != DemoOrg || app.Status != "deployed" || !app.Deployed() || app.MachineCount != 10 {
		t.Errorf("GetApp = %+v", app)
	}
	_, err = c.GetApp(ctx, "no-such-app")
	apiErr(t, err, 404, "app not found")

	ms, err := c.List(ctx, DemoScaleToZero, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 10 {
		t.Fatalf("listed %d machines, want 10", len(ms))
	}
	started := 0
	for _, m := range ms {
		if len(m.InstanceID) != 26 || m.Version != m.InstanceID || m.HostStatus != fly.HostStatusOk ||
			m.PrivateIP == "" || m.Name == "" || m.ImageRef.Digest == "" || m.ImageRef.Registry != "registry.fly.io" {
			t.Errorf("machine %s misses identity fields: %+v", m.ID, m)
		}
		if _, err := time.Parse(time.RFC3339, m.CreatedAt); err != nil || !strings.HasSuffix(m.UpdatedAt, "Z") {
			t.Errorf("created_at %q / updated_at %q not RFC3339 UTC", m.CreatedAt, m.UpdatedAt)
		}
		cfg := m.Config
		if cfg.Init.SwapSizeMB == nil || *cfg.Init.SwapSizeMB != 2048 || cfg.Guest.MemoryMB != 1024 ||
			cfg.Metadata["fly_platform_version"] != "v2" || m.ProcessGroup() != "app" || cfg.Metadata["fly_release_version"] == "" {
			t.Errorf("machine %s config incomplete", m.ID)
		}
		svc := cfg.Services[0]
		if *svc.Autostop != fly.MachineAutostopStop || !*svc.Autostart || *svc.MinMachinesRunning != 1 ||
			svc.Concurrency.HardLimit != 25 || *svc.Checks[0].HTTPPath != "/api/health/" {
			t.Errorf("machine %s service config = %+v", m.ID, svc)
		}
		for i := 1; i < len(m.Events); i++ {
			if m.Events[i].Timestamp > m.Events[i-1].Timestamp {
				t.Errorf("machine %s events not newest first", m.ID)
			}
		}
		if m.State == "started" {
			started++
			if len(m.Checks) != 1 || m.Checks[0].Status != "passing" || m.Checks[0].UpdatedAt == nil {
				t.Errorf("serving machine %s checks = %+v", m.ID, m.Checks)
			}
		} else if len(m.Checks) != 1 || m.Checks[0].Status != "warning" || m.Checks[0].UpdatedAt == nil {
			// flyctl's restart waits on these checks; a sleeping machine keeps them.
			t.Errorf("%s machine %s checks = %+v, want one in warning", m.State, m.ID, m.Checks)
		}
	}
	if started != 1 {
		t.Errorf("%d started machines, want min_machines_running = 1", started)
	}

	tests := []struct {
		query string
		want  int
	}{
		{"region=ams", 10},
		{"region=fra", 0},
		{"metadata.fly_process_group=app", 10},
		{"metadata.fly_process_group=worker", 0},
		{"include_deleted=true&summary=true", 10},
	}
	s.SetRateLimits(false) // list is 1/s, burst 3, per app
	defer s.SetRateLimits(true)
	for _, tt := range tests {
		got, err := c.List(ctx, DemoScaleToZero, tt.query)
		if err != nil {
			t.Fatalf("%s: %v", tt.query, err)
		}
		if len(got) != tt.want {
			t.Errorf("List(%q) = %d machines, want %d", tt.query, len(got), tt.want)
		}
	}

	id := ms[0].ID
	m, err := c.Get(ctx, DemoScaleToZero, id)
	if err != nil || m.ID != id {
		t.Fatalf("Get = %v, %v", m, err)
	}
	_, err = c.Get(ctx, DemoScaleToZero, "0000000000dead")
	apiErr(t, err, 404, "machine not found")
	if !errors.Is(err, flaps.ErrFlapsNotFound) {
		t.Errorf("404 is not ErrFlapsNotFound")
	}
	_, err = c.Get(ctx, "no-such-app", id)
	apiErr(t, err, 404, "app not found")
	if _, err := c.Start(ctx, DemoScaleToZero, "0000000000dead", ""); err == nil {
		t.Errorf("start of an unknown machine succeeded")
	}

	regions, err := c.GetRegions(ctx)
	if err != nil || len(regions.Regions) == 0 || regions.Nearest == "" {
		t.Errorf("GetRegions = %+v, %v", regions, err)
	}
}

func TestContractAuth(t *testing.T) {
	t.Parallel()
	s, _ := contractSim(t, 50)
	ctx := ctxT(t)
	bad := clientFor(t, s, "flysim_not-the-token")
	_, err := bad.List(ctx, DemoScaleToZero, "")
	apiErr(t, err, 401, "unauthorized")
	if strings.Contains(err.Error(), s.Token()) || strings.Contains(err.Error(), "not-the-token") {
		t.Errorf("401 echoes a token: %v", err)
	}

	tests := []struct {
		name, header string
		want         int
	}{
		{"bearer", "Bearer " + s.Token(), 200},
		{"flyv1 with extras", "FlyV1 fm2_abc, " + s.Token() + ",fm2_def", 200},
		{"no scheme", s.Token(), 401},
		{"empty", "", 401},
		{"wrong token", "Bearer nope", 401},
		{"other scheme", "Basic " + s.Token(), 401},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("GET", s.URL()+"/v1/apps/"+DemoBacklog, nil)
		if tt.header != "" {
			req.Header.Set("Authorization", tt.header)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: HTTP %d, want %d (%s)", tt.name, resp.StatusCode, tt.want, body)
		}
		if tt.want == 401 && string(body) != `{"error":"unauthorized"}` {
			t.Errorf("%s: body %s", tt.name, body)
		}
	}
}

func TestContractLifecycle(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 20)
	ctx := ctxT(t)

	// Swap blocks suspend, with the reason in the text.
	sleepy := machineIn(t, s, DemoScaleToZero, "started")
	err := c.Suspend(ctx, DemoScaleToZero, sleepy, "")
	apiErr(t, err, 412, "failed_precondition: Machines with swap cannot be suspended")
	if !strings.Contains(err.Error(), "failed to suspend VM "+sleepy) {
		t.Errorf("fly-go wraps as %q", err)
	}

	// Stop, start while still stopping, wait for stopped, start again.
	if err := c.Stop(ctx, DemoScaleToZero, fly.StopMachineInput{ID: sleepy, Signal: "SIGTERM", Timeout: fly.Duration{Duration: 5 * time.Second}}, ""); err != nil {
		t.Fatal(err)
	}
	_, err = c.Start(ctx, DemoScaleToZero, sleepy, "")
	apiErr(t, err, 412, "failed_precondition: machine still active, refusing to start")
	if err := c.Wait(ctx, DemoScaleToZero, sleepy, flaps.WithWaitStates("stopped"), flaps.WithWaitTimeout(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	res, err := c.Start(ctx, DemoScaleToZero, sleepy, "")
	if err != nil || res.PreviousState != "stopped" {
		t.Fatalf("Start after stop = %+v, %v", res, err)
	}
	if err := c.Wait(ctx, DemoScaleToZero, sleepy, flaps.WithWaitStates("started"), flaps.WithWaitTimeout(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	m, err := c.Get(ctx, DemoScaleToZero, sleepy)
	if err != nil {
		t.Fatal(err)
	}
	if m.State != "started" || len(m.Checks) != 1 || m.Checks[0].Status != "critical" ||
		!strings.Contains(m.Checks[0].Output, "connection refused") {
		t.Errorf("a booting machine: state %s checks %+v", m.State, m.Checks)
	}
	if exit := m.GetLatestEventOfType("exit"); exit == nil || exit.Request == nil || exit.Request.ExitEvent == nil ||
		!exit.Request.ExitEvent.RequestedStop || exit.Request.ExitEvent.ExitedAt.IsZero() {
		t.Errorf("stop left no requested-stop exit event: %+v", exit)
	}
	if start := m.GetLatestEventOfType("start"); start == nil || start.Source != "flyd" || start.Status != "started" {
		t.Errorf("newest start event = %+v", start)
	}

	// Resume: the tuned app's suspended machine.
	snappy := machineIn(t, s, DemoTuned, "suspended")
	res, err = c.Start(ctx, DemoTuned, snappy, "")
	if err != nil || res.PreviousState != "suspended" {
		t.Fatalf("Start of a suspended machine = %+v, %v", res, err)
	}
	if err := c.Wait(ctx, DemoTuned, snappy, flaps.WithWaitTimeout(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	// And back to suspended through the API.
	if err := c.Suspend(ctx, DemoTuned, snappy, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(ctx, DemoTuned, snappy, flaps.WithWaitStates("suspended"), flaps.WithWaitTimeout(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	m, err = c.Get(ctx, DemoTuned, snappy)
	if err != nil || m.State != "suspended" || m.Events[0].Type != "suspend" || m.Events[0].Status != "suspended" {
		t.Fatalf("after suspend: %+v, %v", m, err)
	}

	// A wait that cannot succeed times out with 408.
	stopped := machineIn(t, s, DemoScaleToZero, "stopped")
	begin := time.Now()
	err = c.Wait(ctx, DemoScaleToZero, stopped, flaps.WithWaitStates("started"), flaps.WithWaitTimeout(time.Second))
	apiErr(t, err, 408, "deadline_exceeded: machine failed to reach desired state, started, currently stopped")
	if took := time.Since(begin); took < 900*time.Millisecond || took > 3*time.Second {
		t.Errorf("a 1 s wait took %s of wall time", took)
	}
	// A wait naming a replaced version for stopped returns at once.
	if err := c.Wait(ctx, DemoScaleToZero, stopped, flaps.WithWaitStates("stopped"), flaps.WithWaitVersion("01AAAAAAAAAAAAAAAAAAAAAAAA")); err != nil {
		t.Errorf("wait for stopped with an old version: %v", err)
	}
}

func TestContractExec(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50)
	ctx := ctxT(t)
	s.SetRateLimits(false) // exec is 1/s per machine; TestContractRateLimit covers limits
	sleepy := machineIn(t, s, DemoScaleToZero, "started")
	run := func(cmd string) *fly.MachineExecResponse {
		t.Helper()
		out, err := c.Exec(ctx, DemoScaleToZero, sleepy, &fly.MachineExecRequest{Cmd: cmd, Timeout: 5})
		if err != nil {
			t.Fatalf("exec %q: %v", cmd, err)
		}
		return out
	}

	mem := run("cat /proc/meminfo")
	for _, want := range []string{"MemTotal:         985220 kB\n", "SwapTotal:       2097148 kB\n", "MemAvailable:"} {
		if !strings.Contains(mem.StdOut, want) {
			t.Errorf("meminfo lacks %q:\n%s", want, mem.StdOut)
		}
	}
	env := run("printenv")
	if !strings.Contains(env.StdOut, "FLY_APP_NAME=sleepy-api\n") || !strings.Contains(env.StdOut, "PYTHONDONTWRITEBYTECODE=1\n") ||
		strings.Contains(env.StdOut, "flysim-secret") || strings.Contains(env.StdOut, "DATABASE_URL") {
		t.Errorf("printenv:\n%s", env.StdOut)
	}
	probe := run(BytecodeProbePrefix + "aW1wb3J0IHN5cw=='))\"")
	var rep struct {
		Python string `json:"python"`
		App    struct {
			Pyc         int      `json:"pyc"`
			ForeignTags []string `json:"foreign_tags"`
		} `json:"app"`
	}
	if err := json.Unmarshal([]byte(probe.StdOut), &rep); err != nil || rep.Python != "3.14.0" || rep.App.Pyc != 218 ||
		len(rep.App.ForeignTags) != 1 {
		t.Errorf("probe = %q (%v)", probe.StdOut, err)
	}
	unknown := run("vim /app/manage.py")
	if unknown.ExitCode != 127 || unknown.StdErr != "sh: 1: vim: not found\n" {
		t.Errorf("unknown command = %+v", unknown)
	}

	// The argv form, over raw HTTP (fly-go v0.5.0 cannot send it).
	resp, body := rawDo(t, s, "POST", "/v1/apps/"+DemoScaleToZero+"/machines/"+sleepy+"/exec",
		`{"command":["cat","/proc/net/tcp"],"timeout":5}`, nil)
	var ex guest.Result
	if err := json.Unmarshal(body, &ex); err != nil || resp.StatusCode != 200 ||
		!regexp.MustCompile(`(?m)^\s+0: 00000000:1F40 00000000:0000 0A `).MatchString(ex.StdOut) {
		t.Errorf("argv exec: %d %s", resp.StatusCode, body)
	}

	stopped := machineIn(t, s, DemoScaleToZero, "stopped")
	_, err := c.Exec(ctx, DemoScaleToZero, stopped, &fly.MachineExecRequest{Cmd: "cat /proc/meminfo"})
	apiErr(t, err, 412, "failed_precondition: machine not running")

	s.SetFault("exec", Fault{ExecTimeout: true})
	_, err = c.Exec(ctx, DemoTuned, machineIn(t, s, DemoTuned, "started"), &fly.MachineExecRequest{Cmd: "printenv", Timeout: 1})
	apiErr(t, err, 408, "deadline_exceeded: exec timed out")
}

func TestContractRateLimit(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50)
	ctx := ctxT(t)
	id := machineIn(t, s, DemoScaleToZero, "stopped")
	s.ResetAPICalls()
	// The five calls go out at the start of a wall second, so they fall in
	// one (MaxPerSecond counts per second); a loaded machine that spreads
	// them over two skips only that figure.
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second + 10*time.Millisecond)))
	began := time.Now()
	var statuses []int
	for i := 0; i < 5; i++ {
		_, err := c.Start(ctx, DemoScaleToZero, id, "")
		statuses = append(statuses, httpStatus(err))
		if i == 4 {
			apiErr(t, err, 429, "rate limit exceeded")
		}
	}
	// 0 = success; the 2nd and 3rd are refused (412) but take a token too.
	if statuses[0] != 0 || statuses[1] == 429 || statuses[2] == 429 || statuses[3] != 429 || statuses[4] != 429 {
		t.Errorf("5 rapid starts answered %v, want 3 accepted then 429s", statuses)
	}
	if got := s.APICalls()["start:"+id]; got != 5 {
		t.Errorf("APICalls start = %d, want 5", got)
	}
	oneSecond := time.Now().Truncate(time.Second).Equal(began.Truncate(time.Second))
	if st := s.APIStats()["start:"+id]; st.Limited != 2 || (oneSecond && st.MaxPerSecond < 5) {
		t.Errorf("APIStats = %+v", st)
	}
	resp, _ := rawDo(t, s, "POST", "/v1/apps/"+DemoScaleToZero+"/machines/"+id+"/start", "", nil)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("429 without Retry-After: %d %v", resp.StatusCode, resp.Header)
	}
	// Get machine allows bursts of 10.
	ok := 0
	for i := 0; i < 12; i++ {
		if _, err := c.Get(ctx, DemoScaleToZero, id); err == nil {
			ok++
		}
	}
	if ok < 10 || ok > 11 {
		t.Errorf("%d of 12 rapid gets succeeded, want the burst of 10", ok)
	}
}

func TestContractLeases(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50)
	ctx := ctxT(t)
	s.SetRateLimits(false)
	id := machineIn(t, s, DemoBacklog, "started")
	ttl := 30
	lease, err := c.AcquireLease(ctx, DemoBacklog, id, &ttl)
	if err != nil {
		t.Fatal(err)
	}
	if lease.Status != "success" || lease.Data == nil || lease.Data.Nonce == "" || lease.Data.Version == "" ||
		lease.Data.ExpiresAt <= s.Clock().Now().Unix() || !strings.Contains(lease.Data.Owner, "@") {
		t.Fatalf("lease = %+v", lease)
	}
	nonce := lease.Data.Nonce

	err = c.Stop(ctx, DemoBacklog, fly.StopMachineInput{ID: id}, "")
	apiErr(t, err, 409, "is currently leased by "+lease.Data.Owner+" until ")
	err = c.Stop(ctx, DemoBacklog, fly.StopMachineInput{ID: id}, "wrong-nonce")
	apiErr(t, err, 409, "lease nonce invalid")

	// Anyone of the org sees the lease with its nonce: `fly machine leases
	// clear` reads it, then releases with it.
	found, err := c.FindLease(ctx, DemoBacklog, id)
	if err != nil || found.Data == nil || found.Data.Nonce != nonce || found.Data.Owner != lease.Data.Owner {
		t.Errorf("FindLease = %+v, %v (want the holder's nonce)", found, err)
	}
	resp, body := rawDo(t, s, "POST", "/v1/apps/"+DemoBacklog+"/machines/"+id+"/lease", `{"ttl":10,"description":"other"}`, nil)
	var conflict map[string]any
	if err := json.Unmarshal(body, &conflict); err != nil || resp.StatusCode != 409 || conflict["status"] != "error" ||
		conflict["code"] != "invalid" || !strings.Contains(fmt.Sprint(conflict["message"]), "currently leased by") {
		t.Errorf("second acquire: %d %s", resp.StatusCode, body)
	}

	if err := c.Stop(ctx, DemoBacklog, fly.StopMachineInput{ID: id}, nonce); err != nil {
		t.Fatalf("stop with the nonce: %v", err)
	}
	if err := c.Wait(ctx, DemoBacklog, id, flaps.WithWaitStates("stopped"), flaps.WithWaitTimeout(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Start(ctx, DemoBacklog, id, nonce); err != nil {
		t.Fatalf("start with the nonce: %v", err)
	}
	if err := c.ReleaseLease(ctx, DemoBacklog, id, "wrong"); err == nil {
		t.Errorf("release with a wrong nonce succeeded")
	}
	resp, body = rawDo(t, s, "DELETE", "/v1/apps/"+DemoBacklog+"/machines/"+id+"/lease", "", map[string]string{machines.LeaseNonceHeader: nonce})
	if resp.StatusCode != 200 || string(body) != `{"status":"success","data":{"ok":true}}` {
		t.Errorf("release: %d %s", resp.StatusCode, body)
	}
	_, err = c.FindLease(ctx, DemoBacklog, id)
	apiErr(t, err, 404, "lease not found")
	if _, err := c.Start(ctx, DemoBacklog, id, ""); err != nil && httpStatus(err) == 409 {
		t.Errorf("start after release still blocked: %v", err)
	}

	// Create answers 201 and keeps the description; GET shows both.
	resp, body = rawDo(t, s, "POST", "/v1/apps/"+DemoBacklog+"/machines/"+id+"/lease", `{"ttl":10,"description":"fly deploy"}`, nil)
	var created fly.MachineLease
	if err := json.Unmarshal(body, &created); err != nil || resp.StatusCode != 201 || created.Data == nil {
		t.Fatalf("create with a description: %d %s", resp.StatusCode, body)
	}
	resp, body = rawDo(t, s, "GET", "/v1/apps/"+DemoBacklog+"/machines/"+id+"/lease", "", nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"description":"fly deploy"`) ||
		!strings.Contains(string(body), `"nonce":"`+created.Data.Nonce+`"`) {
		t.Errorf("GET lease: %d %s", resp.StatusCode, body)
	}
}

func TestContractCrashLoopKeepsFiveEvents(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 20)
	ctx := ctxT(t)
	s.sched.Lock()
	id := s.store.App(DemoCrash).Machines()[0].ID()
	state := s.store.App(DemoCrash).Machines()[0].State()
	s.sched.Unlock()
	if state == "stopped" {
		if _, err := c.Start(ctx, DemoCrash, id, ""); err != nil {
			t.Fatal(err)
		}
	}
	var crashTimes []int64
	sawRestarting := false
	for look := 0; look < 6; look++ {
		time.Sleep(300 * time.Millisecond)
		m, err := c.Get(ctx, DemoCrash, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Events) != 5 {
			t.Fatalf("look %d: %d events, want exactly 5", look, len(m.Events))
		}
		exit := m.GetLatestEventOfType("exit")
		if exit == nil {
			continue
		}
		crashTimes = append(crashTimes, exit.Timestamp)
		if ev := exit.Request.ExitEvent; ev != nil && ev.Restarting {
			sawRestarting = true
			if ev.ExitCode != 1 || ev.RequestedStop || ev.ExitedAt.IsZero() || exit.Request.RestartCount < 1 {
				t.Errorf("crash exit event = %+v restart_count %d", ev, exit.Request.RestartCount)
			}
			if d := ev.ExitedAt.UnixMilli() - exit.Timestamp; d < -1000 || d > 1000 {
				t.Errorf("exited_at %s far from the event time %d", ev.ExitedAt, exit.Timestamp)
			}
		}
	}
	if !sawRestarting {
		t.Errorf("never saw a restarting exit event")
	}
	advanced := false
	for i := 1; i < len(crashTimes); i++ {
		if crashTimes[i] < crashTimes[i-1] {
			t.Errorf("newest crash went back in time: %v", crashTimes)
		}
		if crashTimes[i] > crashTimes[i-1] {
			advanced = true
		}
	}
	if !advanced {
		t.Errorf("newest crash never advanced across looks: %v", crashTimes)
	}
}

func TestContractSmallEndpoints(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50)
	ctx := ctxT(t)
	s.SetRateLimits(false)
	id := machineIn(t, s, DemoBacklog, "started")

	resp, body := rawDo(t, s, "GET", "/v1/apps/"+DemoBacklog+"/machines/"+id+"/events?limit=2", "", nil)
	var evs []map[string]any
	if err := json.Unmarshal(body, &evs); err != nil || resp.StatusCode != 200 || len(evs) != 2 || evs[0]["id"] == "" {
		t.Errorf("events?limit=2: %d %s", resp.StatusCode, body)
	}

	md, err := c.GetMetadata(ctx, DemoBacklog, id)
	if err != nil || md["fly_platform_version"] != "v2" || md["fly_process_group"] != "app" {
		t.Fatalf("GetMetadata = %v, %v", md, err)
	}
	if err := c.SetMetadata(ctx, DemoBacklog, id, "owner", "team-a"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteMetadata(ctx, DemoBacklog, id, "fly_flyctl_version"); err != nil {
		t.Fatal(err)
	}
	md, err = c.GetMetadata(ctx, DemoBacklog, id)
	if err != nil || md["owner"] != "team-a" || md["fly_flyctl_version"] != "" {
		t.Errorf("metadata after set/delete = %v, %v", md, err)
	}

	ps, err := c.GetProcesses(ctx, DemoBacklog, id)
	if err != nil || len(ps) == 0 || ps[0].Pid != 1 {
		t.Errorf("GetProcesses = %+v, %v", ps, err)
	}

	t0 := s.Clock().Now().UnixMilli()
	if err := c.Restart(ctx, DemoBacklog, fly.RestartMachineInput{ID: id, Signal: "SIGTERM"}, ""); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		time.Sleep(250 * time.Millisecond)
		m, err := c.Get(ctx, DemoBacklog, id)
		if err != nil {
			t.Fatal(err)
		}
		restart, start := m.GetLatestEventOfType("restart"), m.GetLatestEventOfType("start")
		if m.State == "started" && restart != nil && start != nil && restart.Timestamp >= t0 &&
			restart.Status == "restarting" && start.Timestamp > restart.Timestamp {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("restart never came back: state %s events %+v", m.State, m.Events)
		}
	}
}

func TestContractRawShapes(t *testing.T) {
	t.Parallel()
	s, _ := contractSim(t, 50)
	tests := []struct {
		app, autostop string
	}{
		{DemoScaleToZero, "true"},
		{DemoTuned, `"suspend"`},
		{DemoBacklog, "false"},
	}
	idPattern := regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{26}-[a-z]{3}$`)
	for _, tt := range tests {
		before := s.Clock().Now()
		resp, body := rawDo(t, s, "GET", "/v1/apps/"+tt.app+"/machines", "", nil)
		after := s.Clock().Now()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" ||
			!idPattern.MatchString(resp.Header.Get("fly-request-id")) {
			t.Fatalf("%s: %d %v", tt.app, resp.StatusCode, resp.Header)
		}
		// Platform time between the request's send and its answer (the
		// header has whole seconds), however long a loaded machine took.
		date, err := http.ParseTime(resp.Header.Get("Date"))
		if err != nil || date.Before(before.Truncate(time.Second)) || date.After(after) {
			t.Errorf("Date %q is not platform time between %s and %s", resp.Header.Get("Date"), before, after)
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var ms []map[string]any
		if err := dec.Decode(&ms); err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			svc := m["config"].(map[string]any)["services"].([]any)[0].(map[string]any)
			got, _ := json.Marshal(svc["autostop"])
			if string(got) != tt.autostop {
				t.Errorf("%s autostop = %s, want %s", tt.app, got, tt.autostop)
			}
			if m["cordoned"] != false || m["host_status"] != "ok" || m["version"] != m["instance_id"] {
				t.Errorf("%s: cordoned/host_status/version = %v %v %v", tt.app, m["cordoned"], m["host_status"], m["version"])
			}
			if _, leaked := m["nonce"]; leaked {
				t.Errorf("machine JSON carries a nonce")
			}
			for _, e := range m["events"].([]any) {
				ts, ok := e.(map[string]any)["timestamp"].(json.Number)
				if _, err := ts.Int64(); !ok || err != nil {
					t.Errorf("%s: event timestamp %v is not an integer", tt.app, e.(map[string]any)["timestamp"])
				}
			}
		}
	}

	tests2 := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"stop with an array body", "POST", "/v1/apps/" + DemoBacklog + "/machines/" + machineIn(t, s, DemoBacklog, "started") + "/stop", "[]",
			400, `{"error":"json: cannot unmarshal array into Go value of type main.stopRequest"}`},
		{"unknown machine", "GET", "/v1/apps/" + DemoBacklog + "/machines/ffffffffffffff", "", 404, `{"error":"machine not found"}`},
		{"unknown app", "GET", "/v1/apps/nope/machines", "", 404, `{"error":"app not found"}`},
		{"wait bad state", "GET", "/v1/apps/" + DemoBacklog + "/machines/" + machineIn(t, s, DemoBacklog, "started") + "/wait?state=dancing", "", 400, `{"error":"invalid state \"dancing\""}`},
		{"unknown path", "GET", "/v1/nothing", "", 404, `{"error":"not found"}`},
	}
	for _, tt := range tests2 {
		resp, body := rawDo(t, s, tt.method, tt.path, tt.body, nil)
		if resp.StatusCode != tt.status || string(body) != tt.want {
			t.Errorf("%s: %d %s, want %d %s", tt.name, resp.StatusCode, body, tt.status, tt.want)
		}
	}
}

func TestContractFaults(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50)
	ctx := ctxT(t)
	s.SetRateLimits(false)
	id := machineIn(t, s, DemoBacklog, "started")
	tests := []struct {
		name    string
		fault   Fault
		wantErr string
	}{
		{"malformed", Fault{Malformed: true}, "failed decoding response"},
		{"500", Fault{Rate5xx: 1, Status5xx: 500}, "internal error"},
		{"429", Fault{Rate429: 1}, "rate limit exceeded"},
		{"reset", Fault{Reset: true}, "EOF|reset"},
		{"latency only", Fault{Latency: 150 * time.Millisecond}, ""},
	}
	for _, tt := range tests {
		s.ClearFaults()
		s.SetFault("get", tt.fault)
		begin := time.Now()
		_, err := c.Get(ctx, DemoBacklog, id)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.wantErr != "" && (err == nil || !regexp.MustCompile(tt.wantErr).MatchString(err.Error())):
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.wantErr)
		}
		if tt.fault.Latency > 0 && time.Since(begin) < tt.fault.Latency {
			t.Errorf("%s: answered in %s", tt.name, time.Since(begin))
		}
		if _, err := c.List(ctx, DemoBacklog, ""); err != nil {
			t.Errorf("%s: a fault on get broke list: %v", tt.name, err)
		}
	}
	s.ClearFaults()
	s.SetFault("*", Fault{Rate5xx: 1, Status5xx: 503})
	if _, err := c.List(ctx, DemoBacklog, ""); httpStatus(err) != 503 {
		t.Errorf("wildcard 503 fault: %v", err)
	}
	s.ClearFaults()
	if _, err := c.Get(ctx, DemoBacklog, id); err != nil {
		t.Errorf("after ClearFaults: %v", err)
	}

	// Body with a Status of its own: an error page of any size.
	s.SetFault("get", Fault{Body: strings.Repeat("<p>down</p>", 1000), Status: 500})
	if _, err := c.Get(ctx, DemoBacklog, id); httpStatus(err) != 500 || !strings.Contains(err.Error(), "<p>down</p><p>down</p>") {
		t.Errorf("Body with Status 500: %.200v", err)
	}
	// EscapeHostile: the raw answer never holds Hostile, the decoded one does.
	s.ClearFaults()
	s.SetFault("get", Fault{Hostile: "-hidden/word", EscapeHostile: true})
	resp, body := rawDo(t, s, "GET", "/v1/apps/"+DemoBacklog+"/machines/"+id, "", nil)
	m, err := c.Get(ctx, DemoBacklog, id)
	if resp.StatusCode != 200 || strings.Contains(string(body), "hidden") || !strings.Contains(string(body), `\u0068\u0069`) ||
		err != nil || !strings.HasSuffix(m.Name, "-hidden/word") {
		t.Errorf("EscapeHostile: raw %.300s; decoded name %q, %v", body, m.Name, err)
	}
	s.ClearFaults()
}
