package textfile

import (
	"os"
	"syscall"
)

// Filesystem magic numbers (statfs(2)) of the kernel's own interfaces.
var kernelFilesystems = map[int64]string{
	0x9fa0:     "/proc", // procfs
	0x62656572: "/sys",  // sysfs
	0x27e0eb:   "/sys",  // cgroup
	0x63677270: "/sys",  // cgroup2
	0x64626720: "/sys",  // debugfs
	0x74726163: "/sys",  // tracefs
	0x73636673: "/sys",  // securityfs
	0xde5e81e4: "/sys",  // efivarfs
	0x6165676c: "/sys",  // pstore
	0xcafe4a11: "/sys",  // bpf
	0x1cd1:     "/dev",  // devpts
}

// kernelFile names the kernel interface f lives on ("/proc", "/sys",
// "/dev"), "" for an ordinary filesystem.
func kernelFile(f *os.File) string {
	rc, err := f.SyscallConn()
	if err != nil {
		return ""
	}
	var st syscall.Statfs_t
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.Fstatfs(int(fd), &st) }); err != nil || serr != nil {
		return ""
	}
	return kernelFilesystems[int64(st.Type)]
}
