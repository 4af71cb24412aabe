package coldstart

import (
	"strconv"
	"time"

	"github.com/flywake/flywake/ui/components/cell"
)

// seconds formats a boot-sized duration with the precision that matters for
// it: "284ms" for resumes, "28.4s" for cold boots, "3m05s" beyond a minute.
func seconds(d time.Duration) string {
	switch {
	case d < 0:
		return "0ms"
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	default:
		return cell.Duration(d)
	}
}
