package repo

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/flywake/flywake/sources/sanitize"
)

// maxFileSize bounds what Load reads: project config files are small, and a
// huge one is a mistake that should not stall the checklist.
const maxFileSize = 1 << 20

// Project is what Load could read from a project directory. A nil field
// means the file is absent (or unreadable: see the errors Load returned).
type Project struct {
	FlyToml      *FlyToml
	Dockerfile   *Dockerfile
	Dockerignore *Dockerignore
	// Scripts are the boot scripts ENTRYPOINT/CMD run that exist in the
	// project, then the inline commands themselves (File "Dockerfile").
	Scripts []Script
	// Present lists the files that exist, malformed or not, so callers can
	// tell "absent" (n/a) from "unreadable" (unknown).
	Present map[string]bool
	// Missing are the scripts ENTRYPOINT/CMD run that the project
	// directory does not hold: what they do at boot is unknown.
	Missing []MissingScript
}

// MissingScript is a file ENTRYPOINT or CMD runs, looked for in the
// project directory and not found there.
type MissingScript struct {
	Instruction string   // "ENTRYPOINT" or "CMD"
	Line        int      // its line in the Dockerfile
	Looked      []string // the project paths looked at, the likeliest first
}

// Source is the instruction's "Dockerfile:line".
func (m MissingScript) Source() string { return Source(DockerfileFile, m.Line) }

// Has reports whether the named file exists in the project.
func (p *Project) Has(file string) bool { return p != nil && p.Present[file] }

// ReleaseWork lists release work in every boot path, in file order.
func (p *Project) ReleaseWork() []ReleaseWork {
	if p == nil {
		return nil
	}
	var out []ReleaseWork
	for _, s := range p.Scripts {
		out = append(out, s.Work...)
	}
	return out
}

// LoadTimeout bounds Load and CheckDir: a stuck mount must not stall the
// checklist.
var LoadTimeout = 10 * time.Second

// loadFS is LoadFS and checkDir is what CheckDir does (a test replaces
// them with ones that hang).
var (
	loadFS   = LoadFS
	checkDir = readableDir
)

// Load reads a project directory on disk. A directory that does not exist
// or cannot be read is an error (never an empty project: "no fly.toml"
// would pass items it could not judge); files are read only inside dir,
// its own symbolic links resolved (see jail), never from /proc, /dev or
// /sys; they are opened without blocking and only regular files are read;
// the whole load has LoadTimeout.
func Load(dir string) (*Project, []error) {
	check, load := checkDir, loadFS // read here: the goroutine may outlive this call (and a test's swap)
	type loaded struct {
		p    *Project
		errs []error
	}
	l, ok := within(func() loaded {
		if err := check(dir); err != nil {
			return loaded{nil, []error{err}}
		}
		j, err := openJail(dir, false)
		if err != nil {
			return loaded{nil, []error{err}}
		}
		defer j.Close()
		p, errs := load(j)
		return loaded{p, errs}
	})
	if !ok {
		return nil, []error{tooSlow(dir)}
	}
	return l.p, l.errs
}

// ReadFile reads one file of the project directory dir as Load does (in
// the jail, without blocking, regular files only, up to the read limit,
// made inert, within LoadTimeout): for a caller that needs one file, not
// the project (the app's name in fly.toml). An absent file is
// fs.ErrNotExist; any other problem is a *FileError saying why.
func ReadFile(dir, name string) ([]byte, error) {
	type read struct {
		data []byte
		err  error
	}
	r, ok := within(func() read {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return read{nil, err} // no directory holds no file
		}
		j, err := openJail(dir, true)
		if err != nil {
			return read{nil, err}
		}
		defer j.Close()
		data, err := readFile(j, name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if why := linkProblem(j, name); why != "" {
				return read{nil, &FileError{File: name, Msg: why}}
			}
			return read{nil, err}
		case err != nil:
			return read{nil, fileError(j, name, err)}
		}
		return read{data, nil}
	})
	if !ok {
		return nil, tooSlow(dir)
	}
	return r.data, r.err
}

// CheckDir returns a *FileError when dir is not a readable directory:
// missing, not a directory, or not listable, or not answering within
// LoadTimeout.
func CheckDir(dir string) error {
	check := checkDir
	err, ok := within(func() error { return check(dir) })
	if !ok {
		return tooSlow(dir)
	}
	return err
}

// within runs f with LoadTimeout; ok is false when it took longer (f's
// goroutine is left to finish on its own: a stuck read cannot be stopped).
func within[T any](f func() T) (v T, ok bool) {
	done := make(chan T, 1)
	go func() { done <- f() }()
	t := time.NewTimer(LoadTimeout)
	defer t.Stop()
	select {
	case v := <-done:
		return v, true
	case <-t.C:
		return v, false
	}
}

func tooSlow(dir string) error {
	return &FileError{File: sanitize.Line(dir), Msg: fmt.Sprintf("reading the project took longer than %s; not judged", LoadTimeout)}
}

func readableDir(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case err != nil:
		return &FileError{File: sanitize.Line(dir), Msg: "project directory " + reason(err)}
	case !info.IsDir():
		return &FileError{File: sanitize.Line(dir), Msg: "not a directory"}
	}
	if _, err := os.ReadDir(dir); err != nil {
		return &FileError{File: sanitize.Line(dir), Msg: "project directory " + reason(err)}
	}
	j, err := openJail(dir, false) // refuses /proc, /dev, /sys and /
	if err != nil {
		return err
	}
	return j.Close()
}

// reason is why a file could not be opened, without the path.
func reason(err error) string {
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

// LoadFS reads fly.toml, Dockerfile, .dockerignore and the boot scripts
// from fsys. It returns whatever it could read plus one error per file that
// could not be read or parsed; it never stops at the first.
func LoadFS(fsys fs.FS) (*Project, []error) {
	p := &Project{Present: map[string]bool{}}
	var errs []error
	read := func(name string) ([]byte, bool) {
		data, err := readFile(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			why := linkProblem(fsys, name)
			if why == "" {
				return nil, false // absent
			}
			// A dangling link is a file the project names and nobody can
			// read: unknown, never "no fly.toml".
			err = &FileError{File: name, Msg: why}
		}
		p.Present[name] = true
		if err != nil {
			errs = append(errs, fileError(fsys, name, err))
			return nil, false
		}
		return data, true
	}
	if data, ok := read(FlyTomlFile); ok {
		f, problems := ParseFlyToml(data)
		errs = append(errs, problems...)
		p.FlyToml = f
	}
	if data, ok := read(DockerignoreFile); ok {
		p.Dockerignore = ParseDockerignore(data)
	}
	if data, ok := read(DockerfileFile); ok {
		p.Dockerfile = ParseDockerfile(data)
	}
	if d := p.Dockerfile; d != nil {
		for _, ins := range []struct {
			name string
			c    *Command
		}{{"ENTRYPOINT", d.Entrypoint}, {"CMD", d.Cmd}} {
			for _, candidates := range ScriptCandidates(ins.c) {
				found := false
				for _, name := range candidates {
					if !fs.ValidPath(name) {
						continue
					}
					if p.Present[name] {
						found = true // read already (ENTRYPOINT and CMD name it both)
						break
					}
					if data, ok := read(name); ok {
						p.Scripts = append(p.Scripts, AnalyzeScript(name, data))
					}
					if p.Present[name] {
						found = true // read, or there and unreadable (an error says why)
						break
					}
				}
				if !found {
					p.Missing = append(p.Missing, MissingScript{Instruction: ins.name, Line: ins.c.Line, Looked: candidates})
				}
			}
		}
		for _, c := range []*Command{d.Entrypoint, d.Cmd} {
			if s := AnalyzeCommand(DockerfileFile, c); len(s.Work) > 0 {
				p.Scripts = append(p.Scripts, s)
			}
		}
	}
	for _, err := range errs {
		// A TOML escape ("\u001b") decodes into a control character that
		// the file's bytes did not carry: errors quote keys and values.
		var fe *FileError
		if errors.As(err, &fe) {
			fe.File, fe.Msg = sanitize.Line(fe.File), sanitize.Line(fe.Msg)
		}
	}
	return p, errs
}

// fileError is the FileError for name, which could not be read (err):
// the link on its way to blame when there is one, else err's own words
// without the path (the FileError names the file).
func fileError(fsys fs.FS, name string, err error) *FileError {
	var fe *FileError
	if errors.As(err, &fe) {
		return fe
	}
	if why := linkProblem(fsys, name); why != "" {
		return &FileError{File: name, Msg: why}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &FileError{File: name, Msg: err.Error()}
}

// readFile reads one project file: regular files only, at most
// maxFileSize, and made inert (sources/sanitize) with its lines kept.
func readFile(fsys fs.FS, name string) ([]byte, error) {
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
	if info.Size() > maxFileSize {
		return nil, fmt.Errorf("%s, over the %s read limit; not read", sizeText(info.Size()), sizeText(maxFileSize))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("over the %s read limit; not read", sizeText(maxFileSize))
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
