package textfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/flywake/flywake/sources/sanitize"
)

// Jail is a directory as flywake reads it (a project, the key file's).
// It is an os.Root, so no name and no symbolic link leads out of it (a link to /proc/self/environ
// would quote the process's environment, the API token with it, as a boot
// script), and its Open never blocks: a FIFO or a device named like a
// project file would hold a plain open until a writer came. A file on a
// kernel interface (/proc, /sys) is refused even when a mount puts one
// inside the directory.
type Jail struct{ root *os.Root }

// OpenJail resolves dir's own symbolic links and opens it as a jail; the
// caller closes it. anyRoot allows the root directory itself (a look for
// ./fly.toml from /, where only the files under /proc and /sys are the
// kernel's, and kernelFile refuses those).
func OpenJail(dir string, anyRoot bool) (Jail, error) {
	resolved, err := filepath.EvalSymlinks(dir)
	if err == nil {
		resolved, err = filepath.Abs(resolved)
	}
	if err != nil {
		return Jail{}, &FileError{File: sanitize.Line(dir), Msg: "directory " + Reason(err)}
	}
	if why := systemDir(resolved); why != "" && (resolved != "/" || !anyRoot) {
		return Jail{}, &FileError{File: sanitize.Line(dir), Msg: why}
	}
	root, err := os.OpenRoot(resolved)
	if err != nil {
		return Jail{}, &FileError{File: sanitize.Line(dir), Msg: "directory " + Reason(err)}
	}
	return Jail{root}, nil
}

// systemDir says why an absolute directory is no project directory: the
// root (it holds /proc, /dev and /sys) or a place under those.
func systemDir(abs string) string {
	if abs == "/" {
		return "is the root directory, which holds /proc, /dev and /sys; not read as a project"
	}
	for _, sys := range []string{"/proc", "/dev", "/sys"} {
		if abs == sys || strings.HasPrefix(abs, sys+"/") {
			return fmt.Sprintf("resolves to %s, under %s (the kernel's, not a project); not read", sanitize.Line(abs), sys)
		}
	}
	return ""
}

func (j Jail) Close() error { return j.root.Close() }

func (j Jail) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := j.root.OpenFile(filepath.FromSlash(name), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if sys := kernelFile(f); sys != "" {
		_ = f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("is on %s (the kernel's, not a project file); not read", sys)}
	}
	return f, nil
}

func (j Jail) Stat(name string) (fs.FileInfo, error)  { return j.root.Stat(filepath.FromSlash(name)) }
func (j Jail) Lstat(name string) (fs.FileInfo, error) { return j.root.Lstat(filepath.FromSlash(name)) }
func (j Jail) ReadLink(name string) (string, error)   { return j.root.Readlink(filepath.FromSlash(name)) }

// LinkProblem says why name, which could not be read, was not read when a
// symbolic link on its way is the cause: the link leads
// out of the project ("app" a link to /proc/self, for app/environ) or to
// nothing. "" when no link is to blame.
func LinkProblem(fsys fs.FS, name string) string {
	lfs, ok := fsys.(fs.ReadLinkFS)
	if !ok {
		return ""
	}
	parts := strings.Split(name, "/")
	for i := range parts {
		prefix := strings.Join(parts[:i+1], "/")
		info, lerr := lfs.Lstat(prefix)
		if lerr != nil {
			return ""
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, lerr := lfs.ReadLink(prefix)
		if lerr != nil {
			return ""
		}
		what := "is a symbolic link"
		if prefix != name {
			what = fmt.Sprintf("is under %s, a symbolic link", sanitize.Quote(prefix))
		}
		shown := sanitize.Quote(target)
		if path.IsAbs(target) || escapes(prefix, target) {
			return fmt.Sprintf("%s to %s, outside the project directory; not read", what, shown)
		}
		if _, serr := fs.Stat(fsys, prefix); errors.Is(serr, fs.ErrNotExist) {
			return fmt.Sprintf("%s to %s, which does not exist", what, shown)
		}
	}
	return ""
}

// escapes reports whether a relative link target, read from the link's
// own directory, climbs out of the project directory.
func escapes(name, target string) bool {
	p := path.Join(path.Dir(name), target)
	return p == ".." || strings.HasPrefix(p, "../")
}
