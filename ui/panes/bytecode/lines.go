package bytecode

import (
	"fmt"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/theme"
)

// The fixes the pane offers, word for word.
const (
	compileFix     = "RUN python -m compileall -q %s %s"
	dockerignoreFx = ".dockerignore: use **/__pycache__/ and **/*.pyc — unanchored patterns only match at the context root"
	notProbedLine  = "not probed yet: the probe runs on a started machine, once per image"
	notRunningNote = "no machine of this image is running; flywake never wakes one to look"
)

// wellCovered is the share of .py files with usable bytecode above which a
// tree needs no compileall (the verdict's pass threshold).
const wellCovered = 0.8

// image is one digest the app's machines run.
type image struct {
	Digest   string
	Machines int
	Running  int
	Probe    snapshot.Probe[diagnose.BytecodeReport]
	Probed   bool
}

// images lists the digests, most machines first, with their probes.
func images(a *snapshot.App) []image {
	var out []image
	for _, d := range a.CurrentDigests() {
		img := image{Digest: d}
		for i := range a.Machines {
			if m := &a.Machines[i]; m.ImageDigest == d {
				img.Machines++
				if m.State == "started" {
					img.Running++
				}
			}
		}
		img.Probe, img.Probed = a.Bytecode[d]
		out = append(out, img)
	}
	return out
}

// lookFor is the verdict's look; an image without Python is n/a, not unknown.
func lookFor(t *theme.Theme, v diagnose.Verdict, notPython bool) theme.StateLook {
	if notPython {
		return t.Level(diagnose.NA)
	}
	return t.Level(v.Level)
}

// imageLines describes one image. withVerdict adds the image's own verdict
// (when several images run, the pane's head verdict covers only the main one).
func imageLines(t *theme.Theme, img image, withVerdict bool) []line {
	head := fmt.Sprintf("image %s · %s, %d running", snapshot.ShortDigest(img.Digest), words.Count(img.Machines, "machine", "machines"), img.Running)
	out := []line{{text: t.TableHeader.Render(head)}}
	wrapped := func(s string) line { return line{text: "  " + s, wrap: true} }
	switch {
	case !img.Probed:
		out = append(out, wrapped(t.Level(diagnose.Unknown).Render()+" "+notProbedLine))
		if img.Running == 0 {
			out = append(out, wrapped(t.Dim.Render(notRunningNote)))
		}
		return out
	case img.Probe.Err != "":
		return append(out, wrapped(t.Level(diagnose.Unknown).Render()+" probe failed: "+img.Probe.Err))
	}
	r := img.Probe.Value
	v := diagnose.BytecodeVerdict(r)
	if r.NotPython {
		return append(out, wrapped(lookFor(t, v, true).Render()+" not a Python image: no bytecode to cache"))
	}
	out = append(out, line{text: "  " + fmt.Sprintf("Python %s · cache tag %s", orUnknown(r.Python), orUnknown(r.CacheTag))})
	out = append(out, treeLines(t, r)...)
	for _, tr := range []struct {
		name string
		tree diagnose.BytecodeTree
	}{{"site-packages", r.SitePackages}, {"the app", r.App}} {
		if tr.tree.ForeignPyc > 0 {
			out = append(out, wrapped(t.Warn.Render(fmt.Sprintf("%s .pyc in %s %s — ignored at run time",
				cell.Thousands(tr.tree.ForeignPyc), tr.name, foreignTags(tr.tree)))))
		}
	}
	out = append(out, wrapped(dontWriteLine(r)))
	if withVerdict {
		out = append(out, wrapped(lookFor(t, v, false).Render()+" "+v.Line))
	}
	for _, fix := range fixes(r, v) {
		out = append(out, wrapped(t.Warn.Render("fix")+" "+fix))
	}
	return out
}

// treeLines is the .py / .pyc table for site-packages and the app. Each
// row has a narrow form without the foreign column (its count is also said
// in words below the table), so a narrow pane drops the column, not digits.
func treeLines(t *theme.Theme, r diagnose.BytecodeReport) []line {
	// cell.Fit pads by cells, so styled numbers line up (fmt pads by bytes).
	cols := func(name, py, pyc, usable string) string {
		return "  " + cell.Fit(name, 18, cell.Left) + " " + cell.Fit(py, 8, cell.Right) + " " + cell.Fit(pyc, 8, cell.Right) +
			" " + cell.Fit(usable, 8, cell.Right)
	}
	row := func(name, py, pyc, usable, foreign, note string) line {
		tail := ""
		if note != "" {
			tail = " " + note
		}
		return line{
			text:   cols(name, py, pyc, usable) + " " + cell.Fit(foreign, 8, cell.Right) + tail,
			narrow: cols(name, py, pyc, usable) + tail,
		}
	}
	head := row("", ".py", ".pyc", "usable", "foreign", "")
	out := []line{{text: t.Dim.Render(head.text), narrow: t.Dim.Render(head.narrow)}}
	trees := []struct {
		name string
		tree diagnose.BytecodeTree
	}{{"site-packages", r.SitePackages}, {"app " + r.App.Dir, r.App}}
	for _, tr := range trees {
		tree := tr.tree
		name := strings.TrimSpace(tr.name)
		if tree.Skipped {
			out = append(out, row(name, "", "", "", "", t.Dim.Render("not walked (app dir is /, or the walk hit its limit)")))
			continue
		}
		usable := cell.Thousands(tree.Usable())
		if tree.Py > 0 && coverage(tree) < wellCovered {
			usable = t.Warn.Render(usable)
		}
		out = append(out, row(name, cell.Thousands(tree.Py), cell.Thousands(tree.Pyc), usable, cell.Thousands(tree.ForeignPyc), ""))
	}
	return out
}

func foreignTags(t diagnose.BytecodeTree) string {
	if len(t.ForeignTags) == 0 {
		return "built for another Python"
	}
	return "built for " + strings.Join(t.ForeignTags, ", ")
}

func dontWriteLine(r diagnose.BytecodeReport) string {
	if r.DontWriteBytecode {
		return "PYTHONDONTWRITEBYTECODE=1: Python never writes .pyc at run time"
	}
	return "PYTHONDONTWRITEBYTECODE not set: .pyc written at run time are lost when a stopped machine's rootfs resets"
}

// fixes are the Dockerfile lines that answer a failing or warning verdict.
func fixes(r diagnose.BytecodeReport, v diagnose.Verdict) []string {
	if v.Level != diagnose.Fail && v.Level != diagnose.Warn {
		return nil
	}
	var out []string
	sp, app := r.SitePackages, r.App
	spLow := sp.Py > 0 && coverage(sp) < wellCovered
	appLow := app.Py > 0 && !app.Skipped && coverage(app) < wellCovered
	if spLow || appLow {
		spDir, appDir := "<site-packages>", "<app dir>"
		if sp.Dir != "" {
			spDir = sp.Dir
		}
		if app.Dir != "" {
			appDir = app.Dir
		}
		out = append(out, fmt.Sprintf(compileFix, spDir, appDir))
	}
	if sp.ForeignPyc+app.ForeignPyc > 0 {
		out = append(out, dockerignoreFx)
	}
	return out
}

func coverage(t diagnose.BytecodeTree) float64 {
	if t.Py == 0 {
		return 1
	}
	return float64(t.Usable()) / float64(t.Py)
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}
