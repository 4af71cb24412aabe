package words

import (
	"math"
	"testing"
)

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", 5707: "5,707", 1234567: "1,234,567",
		-1: "-1", -1000: "-1,000", -123456: "-123,456",
		math.MinInt64: "-9,223,372,036,854,775,808",
	} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 machines"}, {1, "1 machine"}, {2, "2 machines"}, {5707, "5,707 machines"}} {
		if got := Count(tc.n, "machine", "machines"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if OrMissing("") != Missing || OrMissing("x") != "x" {
		t.Error("OrMissing")
	}
}
