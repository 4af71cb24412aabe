package snapshot

import "testing"

func TestShortDigest(t *testing.T) {
	for in, want := range map[string]string{
		"sha256:597c3f2a1b0c9d8e7f6a":  "597c3f2a1b0c",
		"597c3f2a1b0c9d8e7f6a":         "597c3f2a1b0c",
		"sha256:abc":                   "abc",
		"":                             "",
		"sha256:59\x1b[31m7c3f2a1b0c9": "5931m7c3f2a1", // control bytes dropped
	} {
		if got := ShortDigest(in); got != want {
			t.Errorf("ShortDigest(%q) = %q, want %q", in, got, want)
		}
	}
}
