package verdict

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/words"
)

// Cause says why the gate could not judge: the words check uses too.
type Cause = diagnose.Cause

const (
	CauseTimeout        = diagnose.CauseTimeout
	CauseAuth           = diagnose.CauseAuth
	CauseAPIDown        = diagnose.CauseAPIDown
	CauseRateLimited    = diagnose.CauseRateLimited
	CauseUnknownApp     = diagnose.CauseUnknownApp
	CauseBadAnswer      = diagnose.CauseBadAnswer
	CauseInterrupted    = diagnose.CauseInterrupted
	CauseNothingToJudge = diagnose.CauseNothingToJudge
	CauseError          = diagnose.CauseError
)

// Report is one run of the gate: the last judgement and how it was reached.
type Report struct {
	App    string
	Result Result
	// Cause and Detail say why it could not judge (Cause "" otherwise).
	Cause  Cause
	Detail string
	// Logs are the first crash's log lines, when it failed on a crash.
	Logs *CrashLogs
	// Settle and Timeout are the run's; Calls counts its API calls and
	// Took its wall time.
	Settle, Timeout time.Duration
	Calls           int
	Took            time.Duration
}

// CrashLogs are a machine's log lines up to its first crash since the
// release began.
type CrashLogs struct {
	Machine string
	At      time.Time
	Lines   []string // inert
	Err     string   // why none could be read
}

// Outcome is the run's: a judgement the time ran out on could not judge.
func (r Report) Outcome() Outcome {
	if r.Cause != "" || r.Result.Outcome == Undecided {
		return CannotJudge
	}
	return r.Result.Outcome
}

// ExitCode is the command's exit status.
func (r Report) ExitCode() int { return r.Outcome().ExitCode() }

// Reason is the run's one sentence.
func (r Report) Reason() string {
	if r.Cause != "" {
		return r.Detail
	}
	return r.Result.Reason
}

func (r Report) headline() string {
	app := sanitize.Line(r.App)
	rel := r.Result.ReleaseName()
	switch r.Outcome() {
	case Live:
		return "✓ " + app + " " + rel + ": LIVE"
	case Failed:
		return "✗ " + app + " " + rel + ": FAILED — roll back"
	}
	cause := r.Cause
	if cause == "" {
		cause = CauseTimeout
	}
	return "? " + app + " " + rel + ": COULD NOT JUDGE (" + cause.Words() + ")"
}

// Text is the report for a terminal or a CI log.
func Text(r Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n  %s\n", r.headline(), r.Reason())
	if rows := r.machineRows(); len(rows) > 0 {
		b.WriteString("\n")
		widths := make([]int, len(rows[0]))
		for _, row := range rows {
			for i, c := range row {
				widths[i] = max(widths[i], len([]rune(c)))
			}
		}
		for _, row := range rows {
			b.WriteString(" ")
			for i, c := range row {
				if i == len(row)-1 {
					b.WriteString(" " + c)
					continue
				}
				b.WriteString(" " + c + strings.Repeat(" ", widths[i]-len([]rune(c))))
			}
			b.WriteString("\n")
		}
	}
	if n := r.Result.Count(StatusOld); n > 0 {
		fmt.Fprintf(&b, "  (%s of older releases not judged)\n", words.Count(n, "machine", "machines"))
	}
	if l := r.Logs; l != nil {
		fmt.Fprintf(&b, "\n  earliest crash seen: %s at %s — the app's last lines before it:\n", l.Machine, clock(l.At))
		if l.Err != "" {
			fmt.Fprintf(&b, "    (could not read them: %s)\n", l.Err)
		} else if len(l.Lines) == 0 {
			b.WriteString("    (none found in the app's logs)\n")
		}
		for _, line := range l.Lines {
			b.WriteString("    " + line + "\n")
		}
	}
	fmt.Fprintf(&b, "\n  %s\n", r.footer())
	return b.String()
}

// Markdown is the report for a pull-request or deploy-log comment. What it
// quotes (the app's and machines' names, the reasons, the app's log lines)
// stays text: sources/sanitize escapes it for Markdown.
func Markdown(r Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n%s\n\n", sanitize.MarkdownText(r.headline()), sanitize.MarkdownText(r.Reason()))
	if rows := r.machineRows(); len(rows) > 0 {
		for i, row := range rows {
			cells := make([]string, len(row))
			for k, c := range row {
				cells[k] = sanitize.MarkdownText(c)
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
			if i == 0 {
				b.WriteString("|" + strings.Repeat(" --- |", len(row)) + "\n")
			}
		}
		b.WriteString("\n")
	}
	if n := r.Result.Count(StatusOld); n > 0 {
		fmt.Fprintf(&b, "%s of older releases not judged.\n\n", words.Count(n, "machine", "machines"))
	}
	if l := r.Logs; l != nil {
		lines := l.Lines
		if l.Err != "" {
			lines = append([]string{"(could not read its log lines: " + l.Err + ")"}, lines...)
		}
		fmt.Fprintf(&b, "Earliest crash seen: %s at %s; the app's last lines before it:\n\n%s\n\n",
			sanitize.MarkdownCode(l.Machine), clock(l.At), sanitize.MarkdownBlock(lines))
	}
	b.WriteString(r.footer() + "\n")
	return b.String()
}

func (r Report) footer() string {
	return fmt.Sprintf("looks at least %s apart · timeout %s · %s · %s", r.Settle, r.Timeout,
		words.Count(r.Calls, "API call", "API calls"), r.Took.Round(100*time.Millisecond))
}

// machineRows is the table of the judged machines: a header, then a row each.
func (r Report) machineRows() [][]string {
	ms := r.Result.Judged()
	if len(ms) == 0 {
		return nil
	}
	rows := [][]string{{"MACHINE", "REGION", "STATE", "STATUS", "LOOKS", "CRASHES IN LIST", "EXIT CODES", "NEWEST CRASH", "WHY"}}
	for _, m := range ms {
		seen := make([]string, 0, len(m.Looks))
		for _, l := range m.Looks {
			seen = append(seen, strconv.Itoa(l.VisibleCrashes))
		}
		codes := make([]string, 0, len(m.Crashes))
		for _, c := range m.ExitCodes() {
			codes = append(codes, strconv.Itoa(c))
		}
		newest := "–"
		if !m.Crash.NewestCrash.IsZero() {
			newest = clock(m.Crash.NewestCrash)
		}
		status := m.Status.String()
		if m.Status == StatusFailed {
			status += " (" + m.Crash.Kind.String() + ")"
		}
		why := m.Reason
		if m.Unread != "" {
			status += ", unread"
			why += " — could not read: " + m.Unread
		}
		rows = append(rows, []string{m.ID, m.Region, m.State, status, strconv.Itoa(m.LookCount),
			dash(strings.Join(seen, ", ")), dash(strings.Join(codes, ", ")), newest, why})
	}
	return rows
}

func dash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// JSON is the report as the documented shape (see the package doc).
func JSON(r Report) ([]byte, error) {
	type look struct {
		At             string  `json:"at"`
		State          string  `json:"state"`
		NewestCrash    *string `json:"newest_crash"`
		VisibleCrashes int     `json:"visible_crashes"`
		Kind           string  `json:"kind"`
	}
	type checks struct {
		Passing int `json:"passing"`
		Total   int `json:"total"`
	}
	type machine struct {
		ID          string  `json:"id"`
		Name        string  `json:"name"`
		Region      string  `json:"region"`
		State       string  `json:"state"`
		Release     string  `json:"release"`
		From        string  `json:"from_release"`
		Status      Status  `json:"status"`
		Crash       string  `json:"crash"`
		Reason      string  `json:"reason"`
		NewestCrash *string `json:"newest_crash"`
		FirstCrash  *string `json:"first_crash"`
		ExitCodes   []int   `json:"exit_codes"`
		Checks      checks  `json:"checks"`
		Looks       []look  `json:"looks"`
		Unread      string  `json:"unread"`
	}
	type unread struct {
		Machine string `json:"machine"`
		Why     string `json:"why"`
	}
	type cannot struct {
		Cause  Cause  `json:"cause"`
		Detail string `json:"detail"`
	}
	type logs struct {
		Machine string   `json:"machine"`
		At      string   `json:"at"`
		Lines   []string `json:"lines"`
		Error   string   `json:"error"`
	}
	type doc struct {
		App         string    `json:"app"`
		Release     string    `json:"release"`
		Verdict     Outcome   `json:"verdict"`
		ExitCode    int       `json:"exit_code"`
		Reason      string    `json:"reason"`
		CannotJudge *cannot   `json:"cannot_judge"`
		Machines    []machine `json:"machines"`
		Unread      []unread  `json:"unread"`
		Logs        *logs     `json:"first_crash_logs"`
		Settle      float64   `json:"settle_seconds"`
		Timeout     float64   `json:"timeout_seconds"`
		Calls       int       `json:"api_calls"`
		Elapsed     float64   `json:"elapsed_seconds"`
	}
	opt := func(t time.Time) *string {
		if t.IsZero() {
			return nil
		}
		s := clock(t)
		return &s
	}
	d := doc{App: sanitize.Line(r.App), Release: r.Result.Release, Verdict: r.Outcome(), ExitCode: r.ExitCode(),
		Reason: r.Reason(), Machines: []machine{}, Unread: []unread{}, Settle: r.Settle.Seconds(), Timeout: r.Timeout.Seconds(),
		Calls: r.Calls, Elapsed: r.Took.Round(100 * time.Millisecond).Seconds()}
	if r.Cause != "" || r.Result.Outcome == Undecided {
		c := r.Cause
		if c == "" {
			c = CauseTimeout
		}
		d.CannotJudge = &cannot{Cause: c, Detail: r.Reason()}
	}
	for _, m := range r.Result.Machines {
		jm := machine{ID: m.ID, Name: m.Name, Region: m.Region, State: m.State, Release: m.Release, From: m.From,
			Status: m.Status, Crash: m.Crash.Kind.String(), Reason: m.Reason, NewestCrash: opt(m.Crash.NewestCrash),
			FirstCrash: opt(m.FirstCrash), ExitCodes: m.ExitCodes(), Checks: checks{m.ChecksPassing, m.Checks},
			Looks: []look{}, Unread: m.Unread}
		for _, l := range m.Looks {
			jm.Looks = append(jm.Looks, look{At: clock(l.At), State: l.State, NewestCrash: opt(l.NewestCrash),
				VisibleCrashes: l.VisibleCrashes, Kind: l.Kind.String()})
		}
		d.Machines = append(d.Machines, jm)
	}
	for _, u := range r.Result.Unread {
		d.Unread = append(d.Unread, unread{Machine: u.ID, Why: u.Why})
	}
	if l := r.Logs; l != nil {
		d.Logs = &logs{Machine: l.Machine, At: clock(l.At), Lines: append([]string{}, l.Lines...), Error: l.Err}
	}
	return json.MarshalIndent(d, "", "  ")
}
