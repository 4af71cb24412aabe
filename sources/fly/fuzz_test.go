package fly

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Prometheus answers come from outside: parsePromQuery returns an error for
// anything it cannot read, never panics, and what it accepts is consistent.
func FuzzParsePromQuery(f *testing.F) {
	for _, s := range []string{
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"status":"200"},"value":[1764504000.5,"42"]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1764504000,"NaN"]},{"value":[0,"+Inf"]}]}}`,
		`{"status":"success","data":{"resultType":"scalar","result":[1764504000.123,"1e3"]}}`,
		`{"status":"error","errorType":"bad_data","error":"parse error at char 5"}`,
		`{"status":"success","data":{"resultType":"matrix","result":[]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"value":[1e400,"1"]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"value":["x",1]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":null}}`,
		`{"id": `, ``, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		res, err := parsePromQuery(body)
		if err != nil {
			if len(err.Error()) > 400 {
				t.Errorf("error text of %d bytes: an answer is quoted whole", len(err.Error()))
			}
			return
		}
		switch res.ResultType {
		case "vector":
		case "scalar":
			if len(res.Samples) != 1 {
				t.Errorf("scalar with %d samples", len(res.Samples))
			}
		default:
			t.Errorf("accepted result type %q", res.ResultType)
		}
		for _, s := range res.Samples {
			if s.Labels == nil {
				t.Error("a sample without a label map")
			}
		}
	})
}

// ~/.fly/config.yml is the user's file, and it holds the token: whatever it
// contains, DiscoverToken never panics and never quotes the file in an error.
func FuzzDiscoverTokenConfig(f *testing.F) {
	for _, s := range []string{
		"access_token: fo1_CANARY_abcdefghijklmnopqrstuvwxyz\n",
		"access_token: \"FlyV1 fm2_lJPE,fm2_abcdef\"\nlast_login: 2025-11-30\nwire_guard_state: {}\n",
		"access_token: [1, 2]\n",
		"access_token: fo1_CANARY_unclosed \"quote\n\t- : :\n",
		"---\n...\n", "", "access_token:\n", "\xff\xfe", "{access_token: fo1_x", "- a\n- b\n",
	} {
		f.Add([]byte(s))
	}
	env := func(string) string { return "" }
	f.Fuzz(func(t *testing.T, data []byte) {
		home := t.TempDir()
		if err := os.MkdirAll(filepath.Join(home, ".fly"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".fly", "config.yml"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		token, source, err := DiscoverToken(env, home)
		if err != nil {
			text := strings.TrimSpace(string(data))
			if len(text) >= 12 && strings.Contains(err.Error(), text) {
				t.Errorf("the error quotes the config file: %v", err)
			}
			return
		}
		if token == "" || token != strings.TrimSpace(token) || source != "~/.fly/config.yml" {
			t.Errorf("DiscoverToken = %q from %q", token, source)
		}
	})
}
