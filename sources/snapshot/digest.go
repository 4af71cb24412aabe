package snapshot

import "strings"

// ShortDigest is how every pane and report names an image: the first 12
// hex digits of its digest, without the algorithm ("sha256:597c3f…" →
// "597c3f2a1b0c"), as docker shows image ids. Only letters and digits are
// kept: the value comes from the platform, and a digest has no others.
func ShortDigest(d string) string {
	if _, hex, ok := strings.Cut(d, ":"); ok {
		d = hex
	}
	out := make([]byte, 0, 12)
	for i := 0; i < len(d) && len(out) < 12; i++ {
		if c := d[i]; c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			out = append(out, c)
		}
	}
	return string(out)
}
