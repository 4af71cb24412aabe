// Package textfile reads the small text files a person writes for flywake
// (a project's fly.toml, Dockerfile and boot scripts; the key file) and
// words their problems: one bounded read (inside a directory after its
// symbolic links, never blocking, regular files only, a size limit, made
// inert, within Timeout) and the TOML helpers both TOML files share
// (errors with their line, the line of each key, "did you mean").
package textfile
