package repo

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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
}

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

// Load reads a project directory on disk.
func Load(dir string) (*Project, []error) { return LoadFS(os.DirFS(dir)) }

// LoadFS reads fly.toml, Dockerfile, .dockerignore and the boot scripts
// from fsys. It returns whatever it could read plus one error per file that
// could not be read or parsed; it never stops at the first.
func LoadFS(fsys fs.FS) (*Project, []error) {
	p := &Project{Present: map[string]bool{}}
	var errs []error
	read := func(name string) ([]byte, bool) {
		data, err := readFile(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false
		}
		p.Present[name] = true
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path is already in the FileError
			}
			errs = append(errs, &FileError{File: name, Msg: err.Error()})
			return nil, false
		}
		return data, true
	}
	if data, ok := read(FlyTomlFile); ok {
		f, err := ParseFlyToml(data)
		if err != nil {
			errs = append(errs, err)
		}
		p.FlyToml = f
	}
	if data, ok := read(DockerignoreFile); ok {
		p.Dockerignore = ParseDockerignore(data)
	}
	if data, ok := read(DockerfileFile); ok {
		p.Dockerfile = ParseDockerfile(data)
	}
	if d := p.Dockerfile; d != nil {
		for _, c := range []*Command{d.Entrypoint, d.Cmd} {
			for _, candidates := range ScriptCandidates(c) {
				for _, name := range candidates {
					if !fs.ValidPath(name) || p.Present[name] {
						continue
					}
					if data, ok := read(name); ok {
						p.Scripts = append(p.Scripts, AnalyzeScript(name, data))
						break
					}
				}
			}
		}
		for _, c := range []*Command{d.Entrypoint, d.Cmd} {
			if s := AnalyzeCommand(DockerfileFile, c); len(s.Work) > 0 {
				p.Scripts = append(p.Scripts, s)
			}
		}
	}
	return p, errs
}

func readFile(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return nil, fmt.Errorf("is a directory")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes; not read", maxFileSize)
	}
	return data, nil
}
