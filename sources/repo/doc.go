// Package repo reads a local project directory (fly.toml, Dockerfile,
// .dockerignore and the entrypoint scripts the image runs) and reports what
// the pre-deploy checklist needs to know about it.
//
// The only I/O is reading files from an fs.FS: Load opens the directory as
// a jail (textfile.Jail: an os.Root, so nothing outside it is read, and nothing
// from /proc, /dev or /sys). Every parser is a pure function over bytes, so
// each can be fuzzed and tested without a disk. A missing file is not an
// error: its field stays nil and the checklist turns the items that depend
// on it into "n/a"; a link out of the directory or to nothing, and a
// script the Dockerfile runs that the directory lacks, are (see
// Project.Missing) what cannot be read, never absent. A malformed file
// yields a *textfile.FileError naming the file, the line and what was
// expected; Load keeps going and returns every error it met, never only the first.
//
// DemoProject serves the project directories of the four demo apps
// (scale-to-zero, tuned, crash, backlog), kept in sources/demoproject.
package repo
