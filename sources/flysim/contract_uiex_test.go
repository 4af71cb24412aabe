package flysim

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestContractUiexAndSecrets: the REST endpoints flyctl's deploy --image,
// machine update --image and secrets use: the organization, an image
// build's record, a release created, run and completed; and secrets set,
// listed (never a value), deployed against a release and unset.
func TestContractUiexAndSecrets(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 100)
	s.SetRateLimits(false)
	ctx := ctxT(t)
	jsonDo := func(method, path, body string, out any) int {
		t.Helper()
		resp, b := rawDo(t, s, method, path, body, map[string]string{"Content-Type": "application/json"})
		if out != nil && resp.StatusCode < 300 {
			if err := json.Unmarshal(b, out); err != nil {
				t.Fatalf("%s %s: %v in %s", method, path, err, b)
			}
		}
		return resp.StatusCode
	}
	var org struct {
		Organization struct {
			Slug              string `json:"slug"`
			InternalNumericID uint64 `json:"internal_numeric_id"`
		} `json:"organization"`
	}
	if code := jsonDo("GET", "/api/v1/organizations/"+DemoOrg, "", &org); code != 200 || org.Organization.Slug != DemoOrg || org.Organization.InternalNumericID == 0 {
		t.Errorf("organization: %d %+v", code, org)
	}
	if code := jsonDo("GET", "/api/v1/organizations/someone-else", "", nil); code != 404 {
		t.Errorf("another org: %d", code)
	}
	var build struct {
		ID int64 `json:"id"`
	}
	if code := jsonDo("POST", "/api/v1/builds", `{"app_name":"snappy-api","builder_type":"remote"}`, &build); code != 200 || build.ID == 0 {
		t.Errorf("build: %d %+v", code, build)
	}
	if code := jsonDo("POST", "/api/v1/builds/finish", `{"build_id":1,"status":"completed"}`, nil); code != 200 {
		t.Errorf("finish build: %d", code)
	}

	var created struct {
		Release struct {
			ID      string `json:"id"`
			Version int    `json:"version"`
			Status  string `json:"status"`
		} `json:"release"`
	}
	if code := jsonDo("POST", "/api/v1/releases", `{"app_name":"snappy-api","image":"registry.fly.io/snappy-api:next","strategy":"ROLLING","definition":{"app":"snappy-api"}}`, &created); code != 201 ||
		created.Release.Version != 58 || created.Release.Status != "created" {
		t.Fatalf("create release: %d %+v", code, created)
	}
	for _, st := range []string{"running", "complete"} {
		if code := jsonDo("PATCH", "/api/v1/releases/"+created.Release.ID, `{"status":"`+st+`"}`, nil); code != 200 {
			t.Errorf("release %s: %d", st, code)
		}
	}
	if code := jsonDo("PATCH", "/api/v1/releases/"+created.Release.ID, `{"status":"sideways"}`, nil); code != 422 {
		t.Errorf("an unknown status: %d", code)
	}
	var list struct {
		Releases []struct {
			Version  int    `json:"version"`
			Status   string `json:"status"`
			ImageRef string `json:"image_ref"`
		} `json:"releases"`
	}
	if code := jsonDo("GET", "/api/v1/apps/"+DemoTuned+"/releases?limit=3", "", &list); code != 200 || len(list.Releases) != 3 ||
		list.Releases[0].Version != 58 || list.Releases[0].Status != "complete" || list.Releases[1].Version != 57 {
		t.Errorf("releases: %d %+v", code, list)
	}
	// The new release is the current one, config definition included.
	data, errs := gqlDo(t, s, `query ($a: String!) { app(name: $a) { currentReleaseUnprocessed { version imageRef configDefinition } } }`, "", map[string]any{"a": DemoTuned})
	if len(errs) > 0 || !strings.Contains(mustJSON(data), `"version":"58"`) && !strings.Contains(mustJSON(data), `"version":58`) ||
		!strings.Contains(mustJSON(data), `"configDefinition":{"app":"snappy-api"}`) {
		t.Errorf("current release after the deploy: %s %v", mustJSON(data), errs)
	}

	// Secrets: set, listed without values, unset.
	value := "s3cr3t-value"
	resp, err := c.UpdateAppSecrets(ctx, DemoTuned, map[string]*string{"API_KEY": &value})
	if err != nil || resp.Version == 0 {
		t.Fatalf("set a secret: %+v, %v", resp, err)
	}
	secrets, err := c.ListAppSecrets(ctx, DemoTuned, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sec := range secrets {
		names = append(names, sec.Name)
		if sec.Value != nil || strings.Contains(mustJSON(sec), value) {
			t.Errorf("a secret's value was served: %+v", sec)
		}
	}
	if strings.Join(names, ",") != "API_KEY,DATABASE_URL,SECRET_KEY" {
		t.Errorf("secrets %v", names)
	}
	if del, err := c.DeleteAppSecret(ctx, DemoTuned, "API_KEY"); err != nil || del.Version <= resp.Version {
		t.Errorf("unset: %+v, %v", del, err)
	}
	if _, err := c.GetAppSecrets(ctx, DemoTuned, "API_KEY", nil, false); httpStatus(err) != 404 {
		t.Errorf("an unset secret: %v", err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
