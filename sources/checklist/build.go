package checklist

import (
	"errors"
	"fmt"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/textfile"
)

// itemBuilder collects facts and lets each one raise the item's status.
type itemBuilder struct {
	item  Item
	fixes []string
	set   bool
	// unread: an input the item needs could not be read, so it cannot pass
	// (what was read may still warn or fail); cause says why ("": a
	// project file).
	unread bool
	cause  diagnose.Cause
}

func newItem(id string) *itemBuilder {
	return &itemBuilder{item: Item{ID: id, Title: Titles[id], Status: NA}}
}

// judge adds a fact that decides (part of) the status.
func (b *itemBuilder) judge(s Status, source, format string, args ...any) {
	b.note(source, format, args...)
	b.raise(s)
}

// note adds a fact that does not change the status.
func (b *itemBuilder) note(source, format string, args ...any) {
	b.item.Evidence = append(b.item.Evidence, Fact{Text: fmt.Sprintf(format, args...), Source: source,
		markdown: sanitize.MarkdownSprintf(format, args...)})
}

// cannotRead adds a fact about an input that could not be read: the item
// is then unknown unless something read makes it warn or fail.
func (b *itemBuilder) cannotRead(source, format string, args ...any) {
	b.judge(Unknown, source, format, args...)
	b.unread = true
	b.item.unread = append(b.item.unread, fmt.Sprintf(format, args...))
}

// cannotReadAnswer is cannotRead for a platform answer, with its cause.
func (b *itemBuilder) cannotReadAnswer(cause diagnose.Cause, source, format string, args ...any) {
	b.cannotRead(source, format, args...)
	b.cause = diagnose.FirstCause(b.cause, cause)
}

func (b *itemBuilder) raise(s Status) {
	if !b.set {
		b.item.Status, b.set = s, true
		return
	}
	b.item.Status = diagnose.Worse(b.item.Status, s)
}

func (b *itemBuilder) fix(text string) {
	for _, f := range b.fixes {
		if f == text {
			return
		}
	}
	b.fixes = append(b.fixes, text)
}

// done returns the item; fixes are kept only when something needs fixing.
func (b *itemBuilder) done() Item {
	if b.unread && b.item.Status != Warn && b.item.Status != Fail {
		b.item.Status = Unknown
	}
	b.item.CouldNotRead = b.unread
	if b.unread {
		b.item.Cause = b.cause
		if b.item.Cause == "" {
			b.item.Cause = diagnose.CauseCouldNotRead
		}
	}
	if b.item.Status == Warn || b.item.Status == Fail {
		b.item.Fix = strings.Join(b.fixes, " ")
	}
	if b.item.Evidence == nil {
		b.item.Evidence = []Fact{}
	}
	return b.item
}

// localFile says how a rule may use one project file: the parsed value is
// the caller's; this reports absent (n/a), unreadable (unknown, with every
// error the file has) or no project at all (unknown, with why). The file's
// warnings (unknown keys) are the report's findings, listed once there.
func localFile(b *itemBuilder, e Evidence, file string) (present bool) {
	switch {
	case e.Project == nil:
		for _, fe := range fileErrors(e, "") {
			b.cannotRead(fe.File, "the project could not be read: %s", fe.Msg)
		}
		b.raise(Unknown)
		return false
	case !e.Project.Has(file):
		b.judge(NA, "", "no %s in the project directory", file)
		return false
	}
	unreadable := false
	for _, fe := range fileErrors(e, file) {
		if fe.Warning {
			continue
		}
		unreadable = true
		b.cannotRead(repo.Source(fe.File, fe.Line), "%s could not be read: %s", file, fe.Msg)
	}
	return !unreadable
}

// fileErrors are the project errors about file ("": every one).
func fileErrors(e Evidence, file string) []*textfile.FileError {
	var out []*textfile.FileError
	for _, err := range e.ProjectErrors {
		var fe *textfile.FileError
		if errors.As(err, &fe) && (file == "" || fe.File == file) {
			out = append(out, fe)
		}
	}
	return out
}

// unreadScripts are the errors of project files other than fly.toml, the
// Dockerfile and .dockerignore: boot scripts ENTRYPOINT/CMD name that exist
// but could not be read.
func unreadScripts(e Evidence) []*textfile.FileError {
	var out []*textfile.FileError
	for _, fe := range fileErrors(e, "") {
		switch fe.File {
		case repo.FlyTomlFile, repo.DockerfileFile, repo.DockerignoreFile:
			continue
		}
		if !fe.Warning && e.Project != nil && e.Project.Has(fe.File) {
			out = append(out, fe)
		}
	}
	return out
}
