package diagnose

import "testing"

func TestCurrentRelease(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"", ""}, ""},
		{[]string{"7"}, "7"},
		// A rolling deploy: one machine on the new release, most on the old.
		{[]string{"19", "19", "19", "20"}, "20"},
		{[]string{"9", "10"}, "10"}, // numbers, not text
		{[]string{"beta", "3"}, "3"},
		{[]string{"a", "b", ""}, "b"},
	} {
		if got := CurrentRelease(tc.in); got != tc.want {
			t.Errorf("CurrentRelease(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
