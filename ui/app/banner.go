package app

import (
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
)

// crashBanner is the crash-loop banner's lines, none when no machine of
// the current release is crash-looping.
func crashBanner(a *snapshot.App) []string {
	if b := a.CrashBanner(); b != "" {
		return []string{b}
	}
	return nil
}

// bannerLines draws the banner across the screen.
func (m *Model) bannerLines() []string {
	out := make([]string, len(m.banner))
	for i, l := range m.banner {
		out[i] = m.theme.Banner.Render(cell.Fit(" "+l, m.width, cell.Left))
	}
	return out
}
