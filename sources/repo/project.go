package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/textfile"
)

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
// the whole load has textfile.Timeout.
func Load(dir string) (*Project, []error) {
	check, load := checkDir, loadFS // read here: the goroutine may outlive this call (and a test's swap)
	type loaded struct {
		p    *Project
		errs []error
	}
	l, ok := textfile.Within(func() loaded {
		if err := check(dir); err != nil {
			return loaded{nil, []error{err}}
		}
		j, err := textfile.OpenJail(dir, false)
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

// CheckDir returns a *textfile.FileError when dir is not a readable directory:
// missing, not a directory, or not listable, or not answering within
// textfile.Timeout.
func CheckDir(dir string) error {
	check := checkDir
	err, ok := textfile.Within(func() error { return check(dir) })
	if !ok {
		return tooSlow(dir)
	}
	return err
}

func tooSlow(dir string) error {
	return &textfile.FileError{File: sanitize.Line(dir), Msg: fmt.Sprintf("reading the project took longer than %s; not judged", textfile.Timeout)}
}

func readableDir(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case err != nil:
		return &textfile.FileError{File: sanitize.Line(dir), Msg: "project directory " + textfile.Reason(err)}
	case !info.IsDir():
		return &textfile.FileError{File: sanitize.Line(dir), Msg: "not a directory"}
	}
	if _, err := os.ReadDir(dir); err != nil {
		return &textfile.FileError{File: sanitize.Line(dir), Msg: "project directory " + textfile.Reason(err)}
	}
	j, err := textfile.OpenJail(dir, false) // refuses /proc, /dev, /sys and /
	if err != nil {
		return err
	}
	return j.Close()
}

// LoadFS reads fly.toml, Dockerfile, .dockerignore and the boot scripts
// from fsys. It returns whatever it could read plus one error per file that
// could not be read or parsed; it never stops at the first.
func LoadFS(fsys fs.FS) (*Project, []error) {
	p := &Project{Present: map[string]bool{}}
	var errs []error
	read := func(name string) ([]byte, bool) {
		data, err := textfile.ReadFS(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			why := textfile.LinkProblem(fsys, name)
			if why == "" {
				return nil, false // absent
			}
			// A dangling link is a file the project names and nobody can
			// read: unknown, never "no fly.toml".
			err = &textfile.FileError{File: name, Msg: why}
		}
		p.Present[name] = true
		if err != nil {
			errs = append(errs, textfile.Unreadable(fsys, name, err))
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
		var fe *textfile.FileError
		if errors.As(err, &fe) {
			fe.File, fe.Msg = sanitize.Line(fe.File), sanitize.Line(fe.Msg)
		}
	}
	return p, errs
}
