package verdict

import "testing"

func TestParseRelease(t *testing.T) {
	for in, want := range map[string]string{"": "", "42": "42", "v42": "42", "v7": "7", "007": "7"} {
		if got, err := ParseRelease(in); err != nil || got != want {
			t.Errorf("ParseRelease(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"abc", "vv42", "v", "-1", "+4", "0", "v0", "4.2", "42 ", "V42", "99999999999"} {
		if got, err := ParseRelease(in); err == nil {
			t.Errorf("ParseRelease(%q) = %q, want an error", in, got)
		}
	}
}
