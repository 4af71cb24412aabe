package repo

import (
	"embed"
	"io/fs"
)

// all: keeps the dot-files (.dockerignore) that go:embed skips by default.
//
//go:embed all:demoprojects
var demoProjects embed.FS

// DemoProjectNames are the demo apps that bring a project directory.
var DemoProjectNames = []string{"scale-to-zero", "tuned", "crash", "backlog"}

// DemoProject returns the project directory of a demo app, rooted at the
// project (so LoadFS reads "fly.toml", not "demoprojects/x/fly.toml").
func DemoProject(name string) (fs.FS, bool) {
	for _, n := range DemoProjectNames {
		if n == name {
			sub, err := fs.Sub(demoProjects, "demoprojects/"+name)
			return sub, err == nil
		}
	}
	return nil, false
}
