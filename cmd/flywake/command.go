package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/watch"
)

// exitCoder is an error that ends the process with a code of its own.
type exitCoder interface {
	error
	ExitCode() int
}

// exitError carries a process exit code out of a command. A nil err means
// the command already said what it had to (check's report).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }
func (e *exitError) ExitCode() int { return e.code }

// exitWith ends the command with code after it printed its result.
func exitWith(code int) error { return &exitError{code: code} }

// usageError is a command line flywake cannot run as typed (an unknown
// flag, a --format it does not write): exit 1 with the command's usage,
// whatever the command's other exit codes mean.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }
func (e *usageError) ExitCode() int { return exitUsage }

// exitUsage is every command's exit status for a usage error.
const exitUsage = 1

// usage marks err as a usage error.
func usage(err error) error { return &usageError{err: err} }

// causedError is a failure that is not the platform's, with the cause a
// report names it by (a --dir check cannot read: could_not_read).
type causedError struct {
	cause diagnose.Cause
	err   error
}

func (e *causedError) Error() string { return e.err.Error() }
func (e *causedError) Unwrap() error { return e.err }

// causeOf names why a command could not run, for its report.
func causeOf(err error) diagnose.Cause {
	var ce *causedError
	if errors.As(err, &ce) {
		return ce.cause
	}
	return watch.CauseOf(err)
}

// needs says what a command needs from the platform.
type needs int

const (
	noPlatform needs = iota // the command brings its own (sim)
	anyApp                  // an app if one is named or found, else every app
	oneApp                  // an app, or the command cannot run
)

// command is one subcommand, described so that runE runs every command the
// same way: validate without touching a platform, connect, run, redact, and
// map every failure — panics included — to the command's "could not run"
// exit code.
type command struct {
	name      string        // as typed: "check", "" for the dashboard
	cannotRun int           // exit code when it could not run (the README gives each command's)
	needs     needs         // what to connect to
	timeout   time.Duration // 0: none
	tui       bool          // the dashboard: the program handles signals itself
	// oneLook: with --demo the platform's clock stands still at the end of
	// its history (status), so the same --seed prints the same figures
	// however long the calls take.
	oneLook bool
	// noOrg: the command needs no organization, so none is looked up (a
	// call) when the app is named: verdict and deploy talk to the app's
	// machines only.
	noOrg bool
	// validate refuses what needs no platform, before anything is touched.
	// An error it returns is the "could not run" exit unless it is a
	// usage error (usage) or carries a code of its own.
	validate func() error
	// run does the work; p is nil for noPlatform. An error it returns is the
	// "could not run" exit unless it carries a code of its own (exitWith).
	run func(ctx context.Context, cmd *cobra.Command, p *platform) error
	// report, when set, writes the command's report for a run that could
	// not do its work — validation, connecting, the run itself or a panic
	// failed — with the cause and the (redacted) reason, so stdout holds a
	// report on every exit but a usage error: check's and verdict's CI
	// contract. p is nil when no platform was reached. It returns the exit
	// status the report states (0: the command's "could not run").
	report func(out io.Writer, p *platform, cause diagnose.Cause, detail string) (code int, err error)
}

// runE turns c into a cobra RunE.
func (g *globalFlags) runE(c command) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) (err error) {
		s := &session{}
		var p *platform
		closeLog := func() {}
		defer func() {
			if r := recover(); r != nil {
				s.log.Printf("panic: %v\n%s", r, debug.Stack())
				err = &exitError{code: c.cannotRun, err: errors.New(panicReport(c.name, r))}
			}
			cause := causeOf(err)
			err = finish(err, c.cannotRun, s.secrets)
			if c.report != nil && reportDue(err) {
				if code := writeReport(c, cmd.OutOrStdout(), p, cause, err.Error(), s); code != 0 {
					err = &exitError{code: code, err: errors.New(err.Error())}
				}
			}
			switch {
			case err == nil:
				s.log.Printf("exit 0")
			case err.Error() == "":
				s.log.Printf("exit %d", exitCodeOf(err))
			default:
				s.log.Printf("exit %d: %v", exitCodeOf(err), err)
			}
			closeLog()
		}()
		dlog, closeDebugLog, err := g.openDebugLog()
		if err != nil {
			return err
		}
		s.log, closeLog = dlog, closeDebugLog
		// Tokens in the environment are the process's secrets whether or
		// not this command uses them (--demo does not): a project file
		// could still quote them.
		for _, name := range fly.TokenVariables {
			s.addSecret(g.env(name))
		}
		s.log.Printf("flywake %s (%s, %s/%s): %s", version, runtime.Version(), runtime.GOOS, runtime.GOARCH, commandLine(cmd))

		if c.needs != noPlatform {
			// Boot phase markers are flags: a bad one is a usage error.
			if _, err := g.markers(); err != nil {
				return usage(err)
			}
		}
		if err := g.checkReplay(c.name); err != nil {
			return usage(err)
		}
		if g.replay == demoReplay && c.needs != noPlatform {
			// Made once, before any deadline of the command's own.
			if g.replay, err = demoRecording(cmd.Context(), s); err != nil {
				return err
			}
		}
		if c.validate != nil {
			if err := c.validate(); err != nil {
				return err
			}
		}
		ctx := cmd.Context()
		if !c.tui {
			var stop context.CancelFunc
			ctx, stop = signal.NotifyContext(ctx, os.Interrupt)
			defer stop()
		}
		if c.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, c.timeout)
			defer cancel()
		}
		if c.needs != noPlatform {
			g.frozen, g.tui, g.command = c.oneLook, c.tui, c.name
			if p, err = connect(ctx, g, connectNeeds{app: c.needs == oneApp, org: !c.noOrg}, s); err != nil {
				return err
			}
			defer p.close()
		}
		return c.run(ctx, cmd, p)
	}
}

// reportDue says whether a command's failure still owes its report: not
// for a usage error (the usage is printed instead), nor when the command
// already wrote its report and only carries its exit code out.
func reportDue(err error) bool {
	var ue *usageError
	return err != nil && err.Error() != "" && !errors.As(err, &ue)
}

// writeReport runs c.report and returns the exit status it states. A
// report that fails or panics is told in the debug log only: the
// command's own error is already the message, and its exit code stands.
func writeReport(c command, out io.Writer, p *platform, cause diagnose.Cause, detail string, s *session) (code int) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("panic while writing the report: %v\n%s", r, debug.Stack())
			code = 0
		}
	}()
	code, err := c.report(out, p, cause, detail)
	if err != nil {
		s.log.Printf("writing the report: %v", err)
		return 0
	}
	return code
}

// session is one command's run: its debug log (nil: none) and the secrets
// every message is redacted of.
type session struct {
	log     *fly.DebugLog
	secrets []string
}

// addSecret redacts s from the command's errors, its debug log and every
// text sources/sanitize makes inert from now on.
func (s *session) addSecret(secret string) {
	if strings.TrimSpace(secret) == "" {
		return
	}
	s.secrets = append(s.secrets, secret)
	s.log.AddSecret(secret)
	sanitize.AddSecret(secret)
}

// finish gives err the command's exit code and redacts its text: the one
// place a command's failure becomes what the user reads.
func finish(err error, cannotRun int, secrets []string) error {
	if err == nil {
		return nil
	}
	code := cannotRun
	var ec exitCoder
	if errors.As(err, &ec) {
		code = ec.ExitCode()
	}
	if err.Error() == "" {
		return &exitError{code: code}
	}
	msg := errors.New(sanitize.Redact(err.Error(), secrets...))
	var ue *usageError
	if errors.As(err, &ue) {
		return &usageError{err: msg}
	}
	return &exitError{code: code, err: msg}
}

// execute runs root and prints its error once: the process's exit code.
// Errors cobra raises before a command runs (an unknown flag, a flag value
// it cannot parse) are usage errors, as are those a command marks so: exit
// 1 with the command's usage.
func execute(root *cobra.Command, stderr io.Writer) (code int) {
	defer func() {
		// A panic outside any command's run (flag parsing, help): still no
		// raw stack on the user's terminal.
		if r := recover(); r != nil {
			fmt.Fprintln(stderr, "flywake:", panicReport("", r))
			code = 1
		}
	}()
	cmd, err := root.ExecuteC()
	if err == nil {
		return 0
	}
	var ec exitCoder
	var ue *usageError
	isUsage := !errors.As(err, &ec) || errors.As(err, &ue)
	if msg := err.Error(); msg != "" {
		// Inert, whatever it quotes: an app name or a path from the
		// command line reaches the terminal as text, never as a sequence.
		fmt.Fprintln(stderr, "flywake:", sanitize.Text(msg))
	}
	if isUsage {
		if cmd != nil {
			fmt.Fprintln(stderr)
			fmt.Fprint(stderr, cmd.UsageString())
		}
		return exitUsage
	}
	return ec.ExitCode()
}

func exitCodeOf(err error) int {
	var ec exitCoder
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	return 1
}

// panicReport is what a user sees of a crash: short, with what a bug report
// needs and nothing more (the stack goes to the debug log).
func panicReport(name string, r any) string {
	what := "flywake"
	if name != "" {
		what += " " + name
	}
	where := ""
	if frame := panicSite(); frame != "" {
		where = " at " + frame
	}
	return fmt.Sprintf("internal error: %s (version %s) crashed%s: %s\n"+
		"  Nothing else was attempted after the crash. Please report it with the output of the same command run with --debug FILE.",
		what, version, where, oneLine(fmt.Sprint(r)))
}

// panicSite is the flywake function that panicked: the first of ours on
// the stack below runtime.gopanic (called from the deferred recover).
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case panicking && strings.HasPrefix(f.Function, "github.com/flywake/flywake/"):
			return fmt.Sprintf("%s (%s:%d)", strings.TrimPrefix(f.Function, "github.com/flywake/flywake/"), baseName(f.File), f.Line)
		case panicking && strings.HasPrefix(f.Function, "main."): // this command, in the built binary
			return fmt.Sprintf("cmd/flywake.%s (%s:%d)", strings.TrimPrefix(f.Function, "main."), baseName(f.File), f.Line)
		}
		if !more {
			return ""
		}
	}
}

func baseName(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return path
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// commandLine is the command and the flags it was given, for the debug log.
func commandLine(cmd *cobra.Command) string {
	parts := []string{cmd.CommandPath()}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		parts = append(parts, "--"+f.Name+"="+f.Value.String())
	})
	return strings.Join(parts, " ")
}

// openDebugLog opens --debug FILE for appending (0600: it names apps and
// machines), or returns a nil log when there is none.
func (g *globalFlags) openDebugLog() (*fly.DebugLog, func(), error) {
	if g.debug == "" {
		return nil, func() {}, nil
	}
	f, err := os.OpenFile(g.debug, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("--debug: %w", err)
	}
	return fly.NewDebugLog(f), func() { _ = f.Close() }, nil
}
