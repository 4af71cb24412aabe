package snapshot

import (
	"sort"
	"time"

	flyapi "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/sanitize"
)

// Volume is one of the app's volumes, every string inert.
type Volume struct {
	ID, Name, State, Region string
	SizeGB                  int
	Encrypted               bool
	Machine                 string // the machine it is attached to; "" none
	CreatedAt               time.Time
}

// Volumes is what the volumes feed read (sources/watch VolumesFeed).
type Volumes struct {
	List []Volume  // by machine (unattached last), then name
	At   time.Time // the last good fetch (zero: none yet)
	Err  string    // the last fetch failed: List is the last good one
}

// ConvertVolumes copies a volumes listing into plain, cleaned volumes, in
// the order Volumes.List keeps.
func ConvertVolumes(vs []flyapi.Volume) []Volume {
	line := sanitize.Line
	out := make([]Volume, 0, len(vs))
	for _, v := range vs {
		vol := Volume{ID: line(v.ID), Name: line(v.Name), State: line(v.State), Region: line(v.Region),
			SizeGB: v.SizeGb, Encrypted: v.Encrypted, CreatedAt: v.CreatedAt}
		if v.AttachedMachine != nil {
			vol.Machine = line(*v.AttachedMachine)
		}
		out = append(out, vol)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Machine == "") != (b.Machine == "") {
			return b.Machine == ""
		}
		if a.Machine != b.Machine {
			return a.Machine < b.Machine
		}
		return a.Name < b.Name
	})
	return out
}

var volumesSlot = slot[Volumes]{name: "volumes"}

// ApplyVolumes records a volumes fetch at platform time now; a failed one
// keeps the last good list and says why.
func (a *App) ApplyVolumes(vs []Volume, err error, now time.Time) {
	v := volumesSlot.get(a)
	if err != nil {
		v.Err = sanitize.Line(err.Error())
	} else {
		v = Volumes{List: vs, At: now}
	}
	volumesSlot.set(a, v)
}

// Volumes is what the last volumes fetch found.
func (a *App) Volumes() Volumes { return volumesSlot.get(a) }
