package repo

import (
	"io/fs"

	"github.com/flywake/flywake/sources/demoproject"
)

// DemoProjectNames are the demo apps that bring a project directory.
var DemoProjectNames = demoproject.Names

// DemoProject returns the project directory of a demo app, rooted at the
// project (so LoadFS reads "fly.toml", not "projects/x/fly.toml").
func DemoProject(name string) (fs.FS, bool) { return demoproject.FS(name) }
