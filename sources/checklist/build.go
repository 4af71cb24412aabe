package checklist

import (
	"errors"
	"fmt"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
)

// itemBuilder collects facts and lets each one raise the item's status.
type itemBuilder struct {
	item  Item
	fixes []string
	set   bool
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
	b.item.Evidence = append(b.item.Evidence, Fact{Text: fmt.Sprintf(format, args...), Source: source})
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
	if b.item.Status == Warn || b.item.Status == Fail {
		b.item.Fix = strings.Join(b.fixes, " ")
	}
	if b.item.Evidence == nil {
		b.item.Evidence = []Fact{}
	}
	return b.item
}

// localFile says how a rule may use one project file: the parsed value is
// the caller's; this reports absent (n/a), unreadable (unknown) or no
// project at all (unknown).
func localFile(b *itemBuilder, e Evidence, file string) (present bool) {
	switch {
	case e.Project == nil:
		b.raise(Unknown)
		return false
	case !e.Project.Has(file):
		b.judge(NA, "", "no %s in the project directory", file)
		return false
	}
	if err := fileError(e, file); err != nil {
		var fe *repo.FileError
		errors.As(err, &fe)
		b.judge(Unknown, repo.Source(fe.File, fe.Line), "%s could not be read: %s", file, fe.Msg)
		return false
	}
	return true
}

func fileError(e Evidence, file string) error {
	for _, err := range e.ProjectErrors {
		var fe *repo.FileError
		if errors.As(err, &fe) && fe.File == file {
			return err
		}
	}
	return nil
}
