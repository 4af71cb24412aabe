// Package demoproject holds the project directories of the four demo apps
// (fly.toml, Dockerfile, .dockerignore, entrypoint and code): the checklist
// reads them as a user's project, and the simulated platform builds its
// demo images from them, so both tell the same story.
package demoproject

import (
	"embed"
	"io/fs"
)

// all: keeps the dot-files (.dockerignore) that go:embed skips by default.
//
//go:embed all:projects
var projects embed.FS

// Names are the demo apps' project directories.
var Names = []string{"scale-to-zero", "tuned", "crash", "backlog"}

// FS returns a demo project, rooted at the project (so a reader sees
// "fly.toml", not "projects/x/fly.toml").
func FS(name string) (fs.FS, bool) {
	for _, n := range Names {
		if n == name {
			sub, err := fs.Sub(projects, "projects/"+name)
			return sub, err == nil
		}
	}
	return nil, false
}
