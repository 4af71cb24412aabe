//go:build !linux

package textfile

import "os"

// kernelFile: only Linux mounts its kernel interfaces as filesystems a
// project could reach; elsewhere the jail's path checks are the guard.
func kernelFile(*os.File) string { return "" }
