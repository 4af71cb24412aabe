package traffic

import (
	"testing"
	"time"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// A refresh that leaves the app's summary as it was keeps the lines drawn
// from it; one that changes it draws them again.
func TestLinesFollowTheSummary(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetSize(120, 10)
	a := snapshot.New("o", "a", nil)
	a.ApplyEdgeOrigin(snapshot.EdgeOrigin{At: t0, Err: "query metrics: 503"})
	p.SetData(a, t0)
	lines := p.lines
	p.SetData(a, t0.Add(time.Second)) // the same minute: the summary the app keeps
	if len(lines) == 0 || &p.lines[0] != &lines[0] {
		t.Error("the same summary drew the lines again")
	}
	a.ApplyEdgeOrigin(snapshot.EdgeOrigin{At: t0.Add(time.Second), Err: "query metrics: 429"})
	p.SetData(a, t0.Add(2*time.Second))
	uitest.AssertMentions(t, uitest.PlainView(p, 120, 10, true, t0), []string{"query metrics: 429"}, []string{"503"})
}
