package diagnose

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/flywake/flywake/sources/sanitize"
)

// ParseMarker reads a user's phase marker, "NAME=REGEX": a line of the app's
// own log matching REGEX begins the phase NAME. releaseWork marks phases that
// belong to a deploy (migrations, asset builds), so the cold-start pane and
// the checklist call them out when they run on every boot.
func ParseMarker(spec string, releaseWork bool) (Marker, error) {
	name, expr, ok := strings.Cut(spec, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || expr == "" {
		return Marker{}, fmt.Errorf("phase marker %q: want NAME=REGEX, e.g. 'warm cache=warming .* cache'", spec)
	}
	if sanitize.Line(name) != name {
		// The name is drawn in the cold-start pane and written in reports.
		return Marker{}, fmt.Errorf("phase marker %q: the name has characters that are not plain text", sanitize.Line(name))
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return Marker{}, fmt.Errorf("phase marker %q: %v", name, err)
	}
	return Marker{Name: name, Kind: PhaseStart, Pattern: re, Provider: "app", ReleaseWork: releaseWork}, nil
}

// WithMarkers puts the user's markers before the defaults, so a user's
// pattern wins when both match the same line.
func WithMarkers(user []Marker) []Marker {
	return append(append([]Marker{}, user...), DefaultMarkers()...)
}
