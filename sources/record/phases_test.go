package record

import (
	"testing"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
)

// The phases memo reuses an unchanged boot's encoding and holds only the
// boots of each app's last handover.
func TestPhasesMemoKeepsOnlyTheLastHandover(t *testing.T) {
	var pm phasesMemo
	span := []diagnose.PhaseSpan{{Name: "migrations", Start: time.Unix(0, 0), End: time.Unix(1, 0)}}
	handover := func(app string, began ...int64) {
		enc := pm.forApp(app)
		for _, b := range began {
			enc.json(bootKey{app: app, machine: "m1", began: b}, span)
		}
		enc.keep()
	}
	handover("a", 1, 2, 3)
	handover("b", 1)
	first := pm.byApp["a"][bootKey{app: "a", machine: "m1", began: 2}].json
	handover("a", 2, 4)
	if n := len(pm.byApp["a"]); n != 2 {
		t.Errorf("app a's memo holds %d boots after a handover of 2", n)
	}
	if n := len(pm.byApp["b"]); n != 1 {
		t.Errorf("app b's memo holds %d boots, want its own 1", n)
	}
	again := pm.byApp["a"][bootKey{app: "a", machine: "m1", began: 2}].json
	if again != first || again == "" {
		t.Errorf("an unchanged boot encoded again: %q vs %q", again, first)
	}
}
