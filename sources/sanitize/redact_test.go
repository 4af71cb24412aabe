package sanitize

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// withSecrets makes the held secrets exactly secrets for one test.
func withSecrets(t *testing.T, secrets ...string) {
	t.Helper()
	heldMu.Lock()
	old := held.Load()
	held.Store(nil)
	heldMu.Unlock()
	t.Cleanup(func() { held.Store(old) })
	for _, s := range secrets {
		AddSecret(s)
	}
}

func TestRedact(t *testing.T) {
	withSecrets(t)
	tests := []struct {
		s, token, want string
	}{
		{"auth fo1_abcdefgh failed", "fo1_abcdefgh", "auth [REDACTED] failed"},
		{"FlyV1 fm2_aaaaaaa,fm2_bbbbbbb", "FlyV1 fm2_aaaaaaa,fm2_bbbbbbb", "[REDACTED]"},
		{"only fm2_bbbbbbb here", "FlyV1 fm2_aaaaaaa,fm2_bbbbbbb", "only [REDACTED] here"},
		{"the macaroon aaaaaaa alone", "FlyV1 fm2_aaaaaaa,fm2_bbbbbbb", "the macaroon [REDACTED] alone"},
		{"Bearer fo1_abcdefgh", "Bearer fo1_abcdefgh", "[REDACTED]"},
		{"nothing secret", "", "nothing secret"},
		{"a b c", "a", "a b c"}, // too short to redact safely
		// A secret as JSON escapes it.
		{`{"w":"tok fm2_ab\u003ccd\u003eef"}`, "fm2_ab<cd>ef", `{"w":"tok [REDACTED]"}`},
		{`{"w":"fm2_ab\/cd+ef=="}`, "fm2_ab/cd+ef==", `{"w":"[REDACTED]"}`},
	}
	for _, tt := range tests {
		if got := Redact(tt.s, tt.token); got != tt.want {
			t.Errorf("Redact(%q, %q) = %q, want %q", tt.s, tt.token, got, tt.want)
		}
	}
	if got := Redact("a fo1_first and a fo1_second", "fo1_first", "", "fo1_second"); got != "a [REDACTED] and a [REDACTED]" {
		t.Errorf("several secrets: %q", got)
	}
}

// A secret the process holds leaves every Line, Text and Redact, without
// being named again.
func TestHeldSecretsLeaveEveryText(t *testing.T) {
	const token = "FlyV1 fm2_lJPECAAAAAAAAaGx,fm2_lJPEtZXJuYWwKdHlwZQ=="
	withSecrets(t, token, "")
	for name, got := range map[string]string{
		"Line":   Line("env FLY_API_TOKEN=" + token + " \x1b[2J"),
		"Text":   Text("line one\nFLY_API_TOKEN=fm2_lJPEtZXJuYWwKdHlwZQ==\n"),
		"Redact": Redact("Authorization: " + token),
		"Quote":  Quote("fm2_lJPECAAAAAAAAaGx"),
	} {
		if strings.Contains(got, "fm2_") || strings.Contains(got, "lJPE") || !strings.Contains(got, Redacted) {
			t.Errorf("%s kept the token: %q", name, got)
		}
	}
	type entry struct {
		Message string
		Meta    map[string]string
		List    []*string
	}
	var e entry
	// A log line whose JSON wrote one character of the token as an escape:
	// the raw bytes never held the token, the decoded string does.
	raw := `{"Message":"token=fm2_lJPE\u0074ZXJuYWwKdHlwZQ==","Meta":{"k":"fm2_lJPECAAAAAAAAaGx"},"List":["FlyV1 fm2_lJPECAAAAAAAAaGx"]}`
	if strings.Contains(raw, "fm2_lJPEtZXJuYWwKdHlwZQ==") {
		t.Fatal("the escape is not in the test")
	}
	if err := json.Unmarshal([]byte(raw), &e); err != nil {
		t.Fatal(err)
	}
	RedactAll(&e)
	if e.Message != "token="+Redacted || e.Meta["k"] != Redacted || *e.List[0] != "FlyV1 "+Redacted {
		t.Errorf("RedactAll left %+v (%q)", e, *e.List[0])
	}
}

// The property: the token written with any mix of JSON escapes, anywhere in
// a JSON string, decodes into text in which Line, Text and RedactAll find
// and remove it.
func TestEscapedTokenNeverSurvives(t *testing.T) {
	const token = "fm2_lJPECAAAAAAAAaGx/+9tZXJuYWw="
	withSecrets(t, "FlyV1 "+token)
	rng := rand.New(rand.NewPCG(25, 1))
	for range 2000 {
		var b strings.Builder
		for _, r := range token {
			switch rng.IntN(3) {
			case 0:
				b.WriteString(`\u00` + strings.ToLower(string("0123456789abcdef"[r>>4])+string("0123456789abcdef"[r&15])))
			case 1:
				if r == '/' {
					b.WriteString(`\/`)
					continue
				}
				fallthrough
			default:
				b.WriteRune(r)
			}
		}
		raw := `{"s":"before ` + b.String() + ` after\n` + b.String() + `"}`
		var v struct{ S string }
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		line, text := Line(v.S), Text(v.S)
		RedactAll(&v)
		for name, got := range map[string]string{"Line": line, "Text": text, "RedactAll": v.S} {
			if strings.Contains(got, token) || strings.Count(got, Redacted) != 2 {
				t.Fatalf("%s of %s = %q", name, raw, got)
			}
		}
	}
}

func BenchmarkLineWithSecrets(b *testing.B) {
	heldMu.Lock()
	old := held.Load()
	held.Store(nil)
	heldMu.Unlock()
	defer held.Store(old)
	AddSecret("FlyV1 fm2_lJPECAAAAAAAAaGx,fm2_lJPEtZXJuYWwKdHlwZQ==")
	s := strings.Repeat("GET /health 200 ", 16)
	for b.Loop() {
		_ = Line(s)
	}
}

func BenchmarkLineNoSecrets(b *testing.B) {
	heldMu.Lock()
	old := held.Load()
	held.Store(nil)
	heldMu.Unlock()
	defer held.Store(old)
	s := strings.Repeat("GET /health 200 ", 16)
	for b.Loop() {
		_ = Line(s)
	}
}
