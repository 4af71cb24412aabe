package textfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/flywake/flywake/sources/sanitize"
)

// MaxSize bounds what is read: these files are small, and a huge one is
// a mistake that should not stall the checklist or the dashboard.
const MaxSize = 1 << 20

// Timeout bounds a read: a stuck mount must not stall the checklist, nor
// the dashboard before its first frame.
var Timeout = 10 * time.Second

// Within runs f with Timeout; ok is false when it took longer (f's
// goroutine is left to finish on its own: a stuck read cannot be stopped).
func Within[T any](f func() T) (v T, ok bool) {
	done := make(chan T, 1)
	go func() { done <- f() }()
	t := time.NewTimer(Timeout)
	defer t.Stop()
	select {
	case v := <-done:
		return v, true
	case <-t.C:
		return v, false
	}
}

// ReadFile reads the file name of directory dir: in the jail, without
// blocking, regular files only, up to MaxSize, made inert, within Timeout.
// An absent file is fs.ErrNotExist; any other problem is a *FileError
// saying why.
func ReadFile(dir, name string) ([]byte, error) {
	return read(dir, func() (string, string, error) { return dir, name, nil })
}

// ReadLinked is ReadFile of the file at path, in the directory the file
// really is in: a file linked from a dotfiles checkout is read where the
// link leads. The link is followed within Timeout too. A link that leads
// nowhere is a *FileError naming where it leads: it is not in a project
// directory, so the jail's "outside the project directory" would mislead.
func ReadLinked(path string) ([]byte, error) {
	return read(path, func() (string, string, error) {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			if target, lerr := os.Readlink(path); lerr == nil && errors.Is(err, fs.ErrNotExist) {
				return "", "", &FileError{File: sanitize.Line(path),
					Msg: fmt.Sprintf("is a symbolic link to %s, which does not exist", sanitize.Quote(target))}
			}
			real = path
		}
		return filepath.Dir(real), filepath.Base(real), nil
	})
}

// read reads the file where names, all of it within Timeout; shown is
// what a read that took too long names.
func read(shown string, where func() (dir, name string, err error)) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	r, ok := Within(func() result {
		d, name, err := where()
		if err != nil {
			return result{nil, err}
		}
		if _, err := os.Stat(d); errors.Is(err, fs.ErrNotExist) {
			return result{nil, err} // no directory holds no file
		}
		j, err := OpenJail(d, true)
		if err != nil {
			return result{nil, err}
		}
		defer j.Close()
		data, err := ReadFS(j, name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if why := LinkProblem(j, name); why != "" {
				return result{nil, &FileError{File: name, Msg: why}}
			}
			return result{nil, err}
		case err != nil:
			return result{nil, Unreadable(j, name, err)}
		}
		return result{data, nil}
	})
	if !ok {
		return nil, &FileError{File: sanitize.Line(shown), Msg: fmt.Sprintf("not read: reading it took longer than %s", Timeout)}
	}
	return r.data, r.err
}

// Reason is why a file could not be opened, without the path.
func Reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case errors.Is(err, fs.ErrPermission):
		return "is not readable (permission denied)"
	}
	return err.Error()
}

// Unreadable is the FileError for name, which could not be read (err):
// the link on its way to blame when there is one, else err's own words
// without the path (the FileError names the file).
func Unreadable(fsys fs.FS, name string, err error) *FileError {
	var fe *FileError
	if errors.As(err, &fe) {
		return fe
	}
	if why := LinkProblem(fsys, name); why != "" {
		return &FileError{File: name, Msg: why}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &FileError{File: name, Msg: err.Error()}
}

// ReadFS reads one file of fsys: regular files only, at most MaxSize, and
// made inert (sources/sanitize) with its lines kept.
func ReadFS(fsys fs.FS, name string) ([]byte, error) {
	if info, err := fs.Stat(fsys, name); err != nil {
		return nil, err
	} else if why := notRegular(info); why != "" {
		return nil, errors.New(why)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat() // again: it may have been replaced since
	if err != nil {
		return nil, err
	}
	if why := notRegular(info); why != "" {
		return nil, errors.New(why)
	}
	if info.Size() > MaxSize {
		return nil, fmt.Errorf("%s, over the %s read limit; not read", sizeText(info.Size()), sizeText(MaxSize))
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("over the %s read limit; not read", sizeText(MaxSize))
	}
	return []byte(sanitize.Text(string(data))), nil
}

// notRegular says why a file is not one flywake reads, "" for a regular file.
func notRegular(info fs.FileInfo) string {
	m := info.Mode()
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "is a directory, not a file"
	case m&fs.ModeNamedPipe != 0:
		return "is a named pipe (FIFO), not a regular file; not read"
	case m&fs.ModeSocket != 0:
		return "is a socket, not a regular file; not read"
	case m&fs.ModeDevice != 0:
		return "is a device, not a regular file; not read"
	}
	return "is not a regular file; not read"
}

func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}
