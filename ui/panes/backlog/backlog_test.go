package backlog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

func plain(p *Pane, w, h int) string { return uitest.PlainView(p, w, h, true, t0) }

// The backlog story on screen: the verdict with its numbers, "none" for the missing
// hard limit (never 0), CLOSE_WAIT per machine with the probe's age.
func TestBacklogSeed003(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(backlogWeb), t0)
	out := plain(p, 120, 20)
	uitest.AssertMentions(t, out, []string{
		"✗ fail no hard limit: the proxy keeps feeding machines that are drowning — 926 sockets in CLOSE_WAIT on 2 machines",
		"concurrency of every machine: connections · soft limit 25 · hard limit none",
		"10 on a machine warns; 50 with",
		"9a303e34bdcd91 ● started        ✗ 465  20s ago ESTABLISHED 1 · LISTEN 1",
		"1d2b0600ac7bd4 ○ stopped            –        – not running",
	}, []string{"hard limit 0", "hard 0", "…"})
}

// Different limits per machine: each row has its own; a hard limit keeps a
// big backlog at warn, and a worker without a service has no limits.
func TestBacklogPerMachineLimits(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build([]spec{
		{id: "aaaaaaaaaaaaaa", state: "started", soft: 20, hard: 25, closeWait: 200, service: true},
		{id: "bbbbbbbbbbbbbb", state: "started", soft: 30, closeWait: 3, service: true},
		{id: "cccccccccccccc", state: "started", closeWait: 0, service: false},
	}), t0)
	out := plain(p, 140, 20)
	uitest.AssertMentions(t, out, []string{
		"! warn 200 sockets in CLOSE_WAIT despite a hard limit on 1 machine: clients give up before the app answers",
		"aaaaaaaaaaaaaa ● started        ! 200    25    20 connections  20s ago",
		"bbbbbbbbbbbbbb ● started            3  none    30 connections",
		"cccccccccccccc ● started            0     –     – no service",
	}, []string{"concurrency of every machine", "hard limit 0"})
}

func TestBacklogNotProbed(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build([]spec{{id: "aaaaaaaaaaaaaa", state: "started", soft: 25, closeWait: -1, service: true}}), t0)
	uitest.AssertMentions(t, plain(p, 160, 10), []string{
		"? unknown no hard limit, so a burst queues on the machines; sockets not probed yet",
		"not probed yet"}, nil)
}

// The verdict and the legend wrap at every width a person tiles the pane to.
func TestBacklogWrapsInsteadOfCutting(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(backlogWeb), t0)
	for _, w := range []int{38, 52, 78, 158, 218} {
		for _, l := range p.headLines(w) {
			if s := strings.TrimRight(ansi.Strip(l), " "); strings.HasSuffix(s, "…") || ansi.StringWidth(l) > w {
				t.Errorf("width %d: %q", w, s)
			}
		}
	}
	if h := p.Height(78); h != len(p.headLines(78))+3+2 {
		t.Errorf("height %d at 78 columns", h)
	}
}

func TestBacklogViewIsExactAtEverySize(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		for name, a := range map[string]*snapshot.App{"never loaded": nil, "empty": snapshot.New("o", "a", nil), "backlogWeb": build(backlogWeb)} {
			p := newPane(theme.New(noColor))
			if a != nil {
				p.SetData(a, t0)
			}
			for _, sz := range uitest.Sizes {
				t.Run(fmt.Sprintf("%s/%dx%d/nocolor=%v", name, sz[0], sz[1], noColor), func(t *testing.T) {
					uitest.AssertSize(t, uitest.View(p, sz[0], sz[1], false, t0), sz[0], sz[1])
				})
			}
		}
	}
}

func golden3(t *testing.T, noColor bool, w, h int) {
	uitest.PinColorProfile(t)
	p := newPane(theme.New(noColor))
	p.SetData(build(backlogWeb), t0)
	out := uitest.View(p, w, h, true, t0)
	uitest.AssertSize(t, out, w, h)
	golden.RequireEqual(t, []byte(out))
}

// Goldens of backlog-web: the pane's inside at 80×24 and 160×48, with and
// without colour.
func TestBacklogGolden80x24(t *testing.T)         { golden3(t, false, 78, 22) }
func TestBacklogGolden160x48(t *testing.T)        { golden3(t, false, 158, 46) }
func TestBacklogGolden80x24NoColor(t *testing.T)  { golden3(t, true, 78, 22) }
func TestBacklogGolden160x48NoColor(t *testing.T) { golden3(t, true, 158, 46) }
