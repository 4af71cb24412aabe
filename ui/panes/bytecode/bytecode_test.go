package bytecode

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

var ten = map[string][]string{digestA: {"e82d0000000000", "e82d0000000001", "e82d0000000002", "e82d0000000003",
	"e82d0000000004", "e82d0000000005", "e82d0000000006", "e82d0000000007", "e82d0000000008", "e82d0000000009"}}

func TestBytecodePane(t *testing.T) {
	two := map[string][]string{digestA: {"e82d0000000000", "e82d0000000001"}, digestB: {"d8900000000000"}}
	cases := []struct {
		name    string
		ms      map[string][]string
		probes  map[string]probe
		want    []string
		notWant []string
	}{
		{"0 .pyc fails with the fix", ten, map[string]probe{digestA: ok(sleepyProbe)}, []string{
			"✗ fail 0 of 5,707 .py files in site-packages have bytecode; PYTHONDONTWRITEBYTECODE=1 and no compileall",
			"image aaaa1111bbbb · 10 machines, 1 running",
			"Python 3.14.0 · cache tag cpython-314",
			"site-packages         5,707        0        0        0",
			"app /app                412      218        0      218",
			"218 .pyc in the app built for cpython-315 — ignored at run time",
			"PYTHONDONTWRITEBYTECODE=1",
			"fix RUN python -m compileall -q /usr/local/lib/python3.14/site-packages /app",
			"fix .dockerignore: use **/__pycache__/ and **/*.pyc — unanchored patterns only match at the context root",
		}, []string{notProbedLine}},
		{"compiled image passes without a fix", ten, map[string]probe{digestA: ok(snappyProbe)}, []string{
			"✓ pass bytecode cached: 5,707 of 5,707 site-packages files, 412 of 412 app files (cpython-314)",
			"app /app                412      412      412        0",
		}, []string{"fix", "✗", "ignored at run time"}},
		{"unknown paths become placeholders", ten, map[string]probe{digestA: ok(noDirProbe)}, []string{
			"! warn 12 of 3,000 .py files in site-packages have bytecode",
			"PYTHONDONTWRITEBYTECODE not set",
			"fix RUN python -m compileall -q <site-packages> <app dir>",
		}, []string{".dockerignore"}},
		{"not a Python image is calm", ten, map[string]probe{digestA: notPython}, []string{
			"– n/a not a Python image: no bytecode to cache",
		}, []string{"✗", "fail", "fix", "?"}},
		{"not probed yet", ten, nil, []string{
			"? unknown " + notProbedLine,
		}, []string{"✗", "fix", notRunningNote}},
		{"probe failure is what it is", ten, map[string]probe{digestA: {ExitCode: 1, Stderr: "Traceback: boom"}}, []string{
			"? unknown probe failed: bytecode probe exited 1: Traceback: boom",
		}, []string{"✗"}},
		{"one section per image digest", two, map[string]probe{digestA: ok(sleepyProbe)}, []string{
			"image aaaa1111bbbb · 2 machines, 1 running",
			"image 999988887777 · 1 machine, 1 running",
			"  ✗ fail 0 of 5,707",
			"  ? unknown " + notProbedLine,
		}, nil},
		{"no machines", nil, nil, []string{"no machines: no image to probe"}, []string{"?"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPane(theme.New(true))
			p.SetData(build(c.ms, c.probes), t0)
			out := uitest.PlainView(p, 160, 48, true, t0)
			uitest.AssertMentions(t, out, c.want, c.notWant)
		})
	}
}

func TestNotProbedWithoutRunningMachine(t *testing.T) {
	a := build(ten, nil)
	for i := range a.Machines {
		a.Machines[i].State = "stopped"
	}
	p := newPane(theme.New(true))
	p.SetData(a, t0)
	if out := uitest.PlainView(p, 160, 20, false, t0); !strings.Contains(out, notRunningNote) {
		t.Errorf("no note that nothing runs:\n%s", out)
	}
}

func TestBytecodeScrolls(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(ten, map[string]probe{digestA: ok(sleepyProbe)}), t0)
	first := func() string {
		return strings.TrimSpace(strings.SplitN(uitest.PlainView(p, 120, 4, true, t0), "\n", 2)[0])
	}
	top := first()
	p.Update(tea.KeyMsg{Type: tea.KeyDown})
	p.Update(tea.KeyMsg{Type: tea.KeyDown})
	if got := first(); got != strings.TrimSpace(ansi.Strip(layoutLines(p.lines, 120)[2])) || got == top {
		t.Errorf("after two downs first line %q", got)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyEnd})
	last := strings.Split(uitest.PlainView(p, 120, 4, true, t0), "\n")[3]
	if !strings.Contains(last, ".dockerignore") {
		t.Errorf("end does not show the last line: %q", last)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyHome})
	if first() != top {
		t.Error("home does not return to the top")
	}
}

func TestBytecodeViewIsExactAtEverySize(t *testing.T) {
	fixtures := []*snapshot.App{
		nil,
		build(nil, nil),
		build(ten, map[string]probe{digestA: ok(sleepyProbe)}),
		build(ten, map[string]probe{digestA: notPython}),
		build(map[string][]string{digestA: {"a"}, digestB: {"b"}}, map[string]probe{digestB: ok(snappyProbe)}),
	}
	for i, a := range fixtures {
		for _, noColor := range []bool{false, true} {
			p := newPane(theme.New(noColor))
			if a != nil {
				p.SetData(a, t0)
			}
			for _, sz := range uitest.Sizes {
				for _, focused := range []bool{false, true} {
					uitest.AssertSize(t, uitest.View(p, sz[0], sz[1], focused, t0), sz[0], sz[1])
				}
			}
			if out := uitest.View(p, -1, 3, true, t0); out != "" {
				t.Errorf("fixture %d: negative width gave %q", i, out)
			}
		}
	}
}

func TestBytecodeLevelLooks(t *testing.T) {
	uitest.PinColorProfile(t)
	t.Run("colour: fail is red, not-Python is not", func(t *testing.T) {
		th := theme.New(false)
		p := newPane(th)
		p.SetData(build(ten, map[string]probe{digestA: ok(sleepyProbe)}), t0)
		if out := uitest.View(p, 160, 30, false, t0); !strings.Contains(out, th.Level(diagnose.Fail).Render()) {
			t.Error("0 .pyc not drawn in the fail look")
		}
		p.SetData(build(ten, map[string]probe{digestA: notPython}), t0)
		out := uitest.View(p, 160, 30, false, t0)
		if !strings.Contains(out, th.Level(diagnose.NA).Render()) {
			t.Error("not-Python not drawn in the n/a look")
		}
		if red := th.Fail.Render("x"); strings.Contains(out, red[:strings.Index(red, "x")]) {
			t.Error("not-Python drawn in red")
		}
	})
	t.Run("NO_COLOR", func(t *testing.T) {
		p := newPane(theme.New(true))
		p.SetData(build(ten, map[string]probe{digestA: ok(sleepyProbe)}), t0)
		out := uitest.View(p, 160, 30, false, t0)
		if !strings.HasPrefix(ansi.Strip(out), "✗ fail ") {
			t.Errorf("level glyph and word lost: %q", strings.SplitN(ansi.Strip(out), "\n", 2)[0])
		}
		uitest.AssertNoColour(t, out)
	})
}

// At 80×24 the verdict and the fixes wrap rather than lose their ends.
func TestBytecodeWrapsAtEightyColumns(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(ten, map[string]probe{digestA: ok(sleepyProbe)}), t0)
	out := uitest.PlainView(p, 78, 22, true, t0)
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"every start compiles the dependency tree; also 218 .pyc built for cpython-315 in a cpython-314 image: ignored at run time",
		"unanchored patterns only match at the context root",
		"RUN python -m compileall -q /usr/local/lib/python3.14/site-packages /app",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("78 wide lost %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "…") {
			t.Errorf("a line was cut: %q", l)
		}
	}
}
