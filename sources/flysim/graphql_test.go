package flysim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/graphql"
)

// flyctlGraphQL are the GraphQL operations each flyctl command of the
// brief sends (testdata/flyctl-graphql.txtar names their sources).
var flyctlGraphQL = map[string][]string{
	"status":                 {"GetAppCompact", "GetLatestImageDetails"},
	"status --json":          {"GetAppCompact", "StatusCurrentRelease"},
	"apps list":              {"AppsList"},
	"apps list --org":        {"GetOrganizationBySlug", "AppsList"},
	"orgs list":              {"GetOrganizations"},
	"releases":               {"GetAppReleasesMachines"},
	"volumes list":           {"GetAppBasic"},
	"ips list":               {"GetIPAddresses", "GetAppScopedEgressIPAddresses"},
	"image show":             {"GetAppCompact", "GetLatestImageDetails"},
	"machine run":            {"GetAppCompact", "GetAppNetwork", "ResolveImageForApp", "GetAppScopedEgressIPAddresses"},
	"machine create":         {"GetAppCompact", "GetAppNetwork", "ResolveImageForApp"},
	"machine destroy":        {"GetAppCompact"},
	"machine update --image": {"ResolveImageForApp"},
	"apps restart":           {"GetAppCompact"},
	"scale count":            {"FlyctlConfigCurrentRelease", "GetAppReleasesMachines"},
	"secrets set":            {"GetAppCompact", "FlyctlConfigCurrentRelease", "LatestImage"},
	"secrets unset":          {"GetAppCompact", "FlyctlConfigCurrentRelease", "LatestImage"},
	"secrets deploy":         {"GetAppCompact", "FlyctlConfigCurrentRelease", "LatestImage"},
	"deploy --image":         {"FlyctlConfigCurrentRelease", "ResolveImageForApp", "LatestImage"},
	"apps create":            {"GetOrganizations"},
	"apps destroy":           {"GetApp", "GetOrganizationBySlug", "ListOrganizationAddOns"},
}

type recordedOp struct {
	query, vars string
}

func loadFlyctlOps(t *testing.T) map[string]recordedOp {
	t.Helper()
	raw, err := os.ReadFile("testdata/flyctl-graphql.txtar")
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]recordedOp{}
	for _, f := range txtar.Parse(raw).Files {
		name, ext, _ := strings.Cut(f.Name, ".")
		op := ops[name]
		switch ext {
		case "graphql":
			op.query = string(f.Data)
		case "json":
			op.vars = string(f.Data)
		}
		ops[name] = op
	}
	return ops
}

// gqlDo posts one operation as fly-go does and decodes the answer.
func gqlDo(t *testing.T, s *Sim, query, opName string, vars map[string]any) (map[string]any, []map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars, "operationName": opName})
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/graphql", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.Token())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data   map[string]any   `json:"data"`
		Errors []map[string]any `json:"errors"`
	}
	dec := json.NewDecoder(resp.Body)
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: HTTP %d, %v", opName, resp.StatusCode, err)
	}
	return out.Data, out.Errors
}

// TestContractFlyctlGraphQL runs every GraphQL operation the listed flyctl
// commands send against the demo platform: each validates against Fly's
// schema (gqlparser), answers without errors, conforms to the schema in
// every field it selects, and says what the platform holds.
func TestContractFlyctlGraphQL(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 100)
	s.SetRateLimits(false)
	ctx := ctxT(t)
	// A public image the platform has pulled, for latestImageDetails.
	port, on := 80, true
	m, err := c.Launch(ctx, DemoTuned, fly.LaunchMachineInput{Config: &fly.MachineConfig{Image: "nginx",
		Services: []fly.MachineService{{Protocol: "tcp", InternalPort: 80, Autostart: &on, Ports: []fly.MachinePort{{Port: &port}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, c, DemoTuned, m.ID, "started")

	ops := loadFlyctlOps(t)
	answers := map[string]map[string]any{}
	for cmd, names := range flyctlGraphQL {
		for _, name := range names {
			op, ok := ops[name]
			if !ok || op.query == "" {
				t.Fatalf("%s: no recorded operation %s", cmd, name)
			}
			var vars map[string]any
			if err := json.Unmarshal([]byte(strings.NewReplacer("APP", DemoTuned, "ORG", DemoOrg).Replace(op.vars)), &vars); err != nil {
				t.Fatalf("%s variables: %v", name, err)
			}
			opName := ""
			if strings.Contains(op.query, "query "+name+" ") {
				opName = name // genqlient names its operations
			}
			data, errs := gqlDo(t, s, op.query, opName, vars)
			if len(errs) > 0 {
				t.Errorf("%s (%s): errors %v", name, cmd, errs)
				continue
			}
			bad, err := graphql.Conform(op.query, opName, data)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, b := range bad {
				t.Errorf("%s (%s): %s", name, cmd, b)
			}
			answers[name] = data
		}
	}
	for name := range ops {
		if answers[name] == nil && !t.Failed() {
			t.Errorf("recorded operation %s is sent by no listed command", name)
		}
	}

	// What the answers say is the platform's.
	get := func(v any, path ...string) any {
		for _, p := range path {
			m, _ := v.(map[string]any)
			v = m[p]
		}
		return v
	}
	if get(answers["GetAppCompact"], "appcompact", "name") != DemoTuned || get(answers["GetAppCompact"], "appcompact", "organization", "slug") != DemoOrg ||
		get(answers["GetAppCompact"], "appcompact", "deployed") != true {
		t.Errorf("GetAppCompact: %v", answers["GetAppCompact"])
	}
	if nodes, _ := get(answers["AppsList"], "apps", "nodes").([]any); len(nodes) != len(s.Apps()) {
		t.Errorf("apps list: %d apps, the platform has %d", len(nodes), len(s.Apps()))
	}
	rels, _ := get(answers["GetAppReleasesMachines"], "app", "releases", "nodes").([]any)
	if len(rels) == 0 || get(rels[0], "version") != json.Number("57") || get(rels[0], "status") != "complete" {
		t.Errorf("releases %v, want snappy-api's v57 first", rels)
	}
	if img := get(answers["ResolveImageForApp"], "app", "image", "ref"); img != "docker-hub-mirror.fly.io/library/nginx:latest" {
		t.Errorf("resolved nginx to %v", img)
	}
	if got := get(answers["LatestImage"], "app", "currentReleaseUnprocessed", "imageRef"); got != "registry.fly.io/snappy-api:deployment-01KB2C0XG4V9R" {
		t.Errorf("latest image %v", got)
	}
	if ips, _ := get(answers["GetIPAddresses"], "app", "ipAddresses", "nodes").([]any); len(ips) != 1 || get(ips[0], "type") != "v6" {
		t.Errorf("ips %v", ips)
	}
	if ms, _ := get(answers["GetApp"], "app", "machines", "nodes").([]any); len(ms) != 7 || get(ms[0], "config", "image") == nil {
		t.Errorf("GetApp's machines: %d, want snappy-api's 6 and nginx", len(ms))
	}

	// fly-go's own methods decode the same answers.
	client := fly.NewClientFromOptions(fly.ClientOptions{BaseURL: s.URL(), AccessToken: s.Token(), Name: "flysim-test", Version: "0"})
	if app, err := client.GetAppCompact(ctx, DemoTuned); err != nil || app.Name != DemoTuned || app.Organization.Slug != DemoOrg {
		t.Errorf("fly-go GetAppCompact: %+v, %v", app, err)
	}
	if orgs, err := client.GetOrganizations(ctx); err != nil || len(orgs) != 1 || orgs[0].Slug != DemoOrg {
		t.Errorf("fly-go GetOrganizations: %+v, %v", orgs, err)
	}
	if img, err := client.ResolveImageForApp(ctx, DemoTuned, "nginx"); err != nil || img == nil || img.CompressedSize == "" {
		t.Errorf("fly-go ResolveImageForApp: %+v, %v", img, err)
	}
	if ref, err := client.LatestImage(ctx, DemoTuned); err != nil || ref == "" {
		t.Errorf("fly-go LatestImage: %q, %v", ref, err)
	}
	if _, err := client.GetAppCompact(ctx, "no-such-app"); err == nil || !strings.Contains(err.Error(), "Could not find App") {
		t.Errorf("an unknown app: %v", err)
	}
}

// TestContractGraphQLRefuses: a query the schema does not allow fails
// validation, a field the platform does not serve says so, and a mutation
// never pretends to succeed.
func TestContractGraphQLRefuses(t *testing.T) {
	t.Parallel()
	s, _ := contractSim(t, 100)
	if _, errs := gqlDo(t, s, `{ app(name: "snappy-api") { nope } }`, "", nil); len(errs) != 1 || !strings.Contains(errs[0]["message"].(string), "nope") {
		t.Errorf("an unknown field: %v", errs)
	}
	if _, errs := gqlDo(t, s, `{ addOns { nodes { id } } }`, "", nil); len(errs) != 1 || !strings.Contains(errs[0]["message"].(string), "not served") {
		t.Errorf("an unserved root field: %v", errs)
	}
	data, errs := gqlDo(t, s, `mutation { deleteApp(appId: "snappy-api") { organization { id } } }`, "", nil)
	if len(errs) != 1 || !strings.Contains(errs[0]["message"].(string), "not served") || data["deleteApp"] != nil {
		t.Errorf("a mutation: %v %v", data, errs)
	}
	if len(s.Apps()) != len(DemoApps()) {
		t.Error("an unserved mutation changed the platform")
	}
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/graphql", strings.NewReader(`{"query":"{ viewer { email } }"}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GraphQL without a token: %d", resp.StatusCode)
	}
}
