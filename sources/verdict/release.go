package verdict

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseRelease reads a release as the user types it: 42, or v42 as every
// screen prints it. It returns the fly_release_version to judge ("42");
// anything else is an error ("" judges the highest release, as before).
func ParseRelease(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	digits := strings.TrimPrefix(s, "v")
	n, err := strconv.ParseUint(digits, 10, 31)
	if err != nil || digits == "" || digits[0] == '+' || n == 0 {
		return "", fmt.Errorf("--release is a release number such as 42 or v42, not %q", s)
	}
	return strconv.FormatUint(n, 10), nil
}
