package checklist

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
)

// Report is one run of the checklist, as `flywake check` prints it and the
// dashboard shows it: what was judged, the project files' own findings,
// the items and their counts.
type Report struct {
	App     string  `json:"app"`
	Subject Subject `json:"subject"`
	// Findings are problems of a project file that belong to no one item
	// (a key Fly does not know, most likely a typo), each listed once.
	Findings []Finding `json:"findings"`
	Items    []Item    `json:"items"`
	Summary  Summary   `json:"summary"`
	// Exit is ExitCode(): the command's exit status.
	Exit int `json:"exit_code"`
	// CouldNotCheck says what could not be checked (nil: everything was
	// read): the first cause a user has to fix, and each distinct reason.
	CouldNotCheck *CouldNotCheck `json:"could_not_check"`
}

// CouldNotCheck is why some items could not be checked.
type CouldNotCheck struct {
	Cause  diagnose.Cause `json:"cause"`
	Detail string         `json:"detail"`
	Items  []string       `json:"items"` // their ids, in checklist order
}

// couldNotCheck gathers the items' causes (nil when every item was read).
func couldNotCheck(items []Item) *CouldNotCheck {
	var c *CouldNotCheck
	var details []string
	seen := map[string]bool{}
	for _, it := range items {
		if !it.CouldNotRead {
			continue
		}
		if c == nil {
			c = &CouldNotCheck{Items: []string{}}
		}
		c.Cause = diagnose.FirstCause(c.Cause, it.Cause)
		c.Items = append(c.Items, it.ID)
		for _, why := range it.unread {
			if !seen[why] {
				seen[why] = true
				details = append(details, why)
			}
		}
	}
	if c != nil {
		if c.Cause == "" {
			c.Cause = diagnose.CauseCouldNotRead
		}
		c.Detail = strings.Join(details, "; ")
	}
	return c
}

// Subject says what the items judge.
type Subject struct {
	// Project: project files were read, and the items they answer judge
	// them as Fly will apply them. False: no project (no --dir and no
	// fly.toml in the working directory), so every item judges the
	// deployed release.
	Project bool `json:"project"`
	// Files are the project files read, in a fixed order.
	Files []string `json:"files"`
	// Release is the deployed release the platform's evidence is about
	// ("v57"); "" when no machine names one.
	Release string `json:"release"`
}

// Finding is one problem of a project file, with its line.
type Finding struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Status Status `json:"status"`
	Text   string `json:"text"`
	// Key is the unknown key as written, dotted ("http_service.concurrncy"),
	// and Nearest the known key it is probably a typo of ("" when none).
	Key     string `json:"key,omitempty"`
	Nearest string `json:"nearest,omitempty"`
}

// Source is the finding's "fly.toml:4".
func (f Finding) Source() string { return repo.Source(f.File, f.Line) }

// Summary counts items by status, and the findings.
type Summary struct {
	Pass     int `json:"pass"`
	Warn     int `json:"warn"`
	Fail     int `json:"fail"`
	Unknown  int `json:"unknown"`
	NA       int `json:"n/a"`
	Findings int `json:"findings"`
}

// Summarize counts items by status.
func Summarize(items []Item) Summary {
	var s Summary
	for _, it := range items {
		switch it.Status {
		case Pass:
			s.Pass++
		case Warn:
			s.Warn++
		case Fail:
			s.Fail++
		case Unknown:
			s.Unknown++
		default:
			s.NA++
		}
	}
	return s
}

// Run answers every item and gathers the project's findings: the report
// `flywake check` prints and the dashboard's checklist shows.
func Run(app string, e Evidence, opts Options) Report {
	r := Report{App: app, Subject: subjectOf(e), Findings: findings(e), Items: Evaluate(e, opts)}
	r.Summary = Summarize(r.Items)
	r.Summary.Findings = len(r.Findings)
	r.Exit, r.CouldNotCheck = r.ExitCode(), couldNotCheck(r.Items)
	return r
}

// ExitCode is the CLI's exit status for the report: ExitCode of its items,
// where each finding counts as a warning.
func (r Report) ExitCode() int {
	code := ExitCode(r.Items)
	if code == ExitOK && len(r.Findings) > 0 {
		return ExitWarnings
	}
	return code
}

// JSON renders the report, indented, with a trailing newline.
func (r Report) JSON() ([]byte, error) {
	if r.Items == nil {
		r.Items = []Item{}
	}
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	if r.Subject.Files == nil {
		r.Subject.Files = []string{}
	}
	out, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// projectFiles is the order Subject.Files lists the files in: the ones
// the items read first, then the boot scripts by name.
var projectFiles = []string{repo.FlyTomlFile, repo.DockerfileFile, repo.DockerignoreFile}

func subjectOf(e Evidence) Subject {
	s := Subject{Release: releaseName(e.Release)}
	if e.Project == nil {
		return s
	}
	var scripts []string
	for f, ok := range e.Project.Present {
		if ok && !slices.Contains(projectFiles, f) {
			scripts = append(scripts, f)
		}
	}
	slices.Sort(scripts)
	for _, f := range append(slices.Clone(projectFiles), scripts...) {
		if e.Project.Has(f) {
			s.Files = append(s.Files, f)
		}
	}
	s.Project = len(s.Files) > 0
	return s
}

// releaseName is "v57" for the release "57" (and for "v57").
func releaseName(rel string) string {
	if rel == "" {
		return ""
	}
	return "v" + strings.TrimPrefix(rel, "v")
}

// findings are the project's warnings (unknown keys), in file and line
// order. The errors that make a file unreadable are not findings: each
// item that needs the file says it could not judge it.
func findings(e Evidence) []Finding {
	var out []Finding
	for _, fe := range fileErrors(e, "") {
		if fe.Warning {
			out = append(out, Finding{File: fe.File, Line: fe.Line, Status: Warn, Text: fe.Msg, Key: fe.Key, Nearest: fe.Nearest})
		}
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		if a.File != b.File {
			return strings.Compare(a.File, b.File)
		}
		return a.Line - b.Line
	})
	return out
}
