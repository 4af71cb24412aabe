package guest

import (
	"fmt"
	"maps"
	"path"
	"strings"
	"time"
)

// What the guest has mounted: the root filesystem (the image), the kernel's
// own filesystems, and each volume the machine's config mounts. df,
// /proc/mounts, mount and the directory tree (ls /) all read this one list,
// so none of them can show a mount the others do not.

// mount is one mounted filesystem; a size of 0 is a pseudo
// filesystem (proc, sysfs), which df leaves out as the real one does.
type mount struct {
	device, path, fstype, options string
	sizeKB, usedKB, availKB       int64
}

// Volume is a volume the machine's config mounts (config.mounts).
type Volume struct {
	Path    string
	SizeGB  int
	Created time.Time
	Files   []VolumeFile // what the app keeps on it
}

// Bytecode describes what the bytecode probe finds in the image.
// NotPython makes `python3` missing, as in a Go or Node image.
type Bytecode struct {
	NotPython         bool
	Python            string // "3.14.0"
	CacheTag          string // "cpython-314"
	DontWriteBytecode bool
	SitePy, SitePyc   int
	SiteForeignPyc    int
	AppDir            string
	AppPy, AppPyc     int
	AppForeignPyc     int
	ForeignTags       []string
}

// VolumeFile is one file an app keeps on its volume.
type VolumeFile struct {
	Name string
	Size int64 // bytes; 0: what the app's other files leave of the volume's used part
}

// VolumeBlockSize is the block size of a volume's ext4, as the Volumes
// API reports it.
const VolumeBlockSize = 4096

// rootfsKB is the root filesystem's size (an 8 GB rootfs as Fly gives).
const rootfsKB = 8154588

// rootfsBaseKB is the Debian base system and the Python runtime under the
// app's own files.
const rootfsBaseKB = 148_412

// VolumeBlocks is a volume's size and its used part in blocks of
// VolumeBlockSize, for the API's record and the guest's df alike: the app's
// files take a seventh of it.
func VolumeBlocks(sizeGB int) (blocks, used int) {
	blocks = sizeGB << 30 / VolumeBlockSize
	return blocks, blocks / 7
}

// mounts lists what the guest has mounted, in /proc/mounts order.
func (g View) mounts() []mount {
	memKB := int64(g.memTotalKB())
	rootUsed := int64(rootfsBaseKB)
	if g.FS != nil {
		rootUsed += g.FS.bytes / 1024
	}
	out := []mount{
		// ext4 keeps 5 % of the root filesystem for root.
		{"/dev/vda", "/", "ext4", "rw,relatime", rootfsKB, rootUsed, rootfsKB - rootUsed - rootfsKB/20},
		{"devtmpfs", "/dev", "devtmpfs", fmt.Sprintf("rw,relatime,size=%dk,nr_inodes=%d,mode=755", memKB/2, memKB/8), memKB / 2, 0, memKB / 2},
		{"proc", "/proc", "proc", "rw,nosuid,nodev,noexec,relatime", 0, 0, 0},
		{"sysfs", "/sys", "sysfs", "rw,nosuid,nodev,noexec,relatime", 0, 0, 0},
		{"shm", "/dev/shm", "tmpfs", "rw,nosuid,nodev", memKB / 2, 0, memKB / 2},
		{"tmpfs", "/run", "tmpfs", "rw,nosuid,nodev,size=" + fmt.Sprint(memKB/10) + "k,mode=755", memKB / 10, 76, memKB/10 - 76},
	}
	for i, v := range g.Volumes {
		blocks, used := VolumeBlocks(v.SizeGB)
		kb := int64(VolumeBlockSize / 1024)
		out = append(out, mount{fmt.Sprintf("/dev/vd%c", 'b'+i), v.Path, "ext4", "rw,relatime",
			int64(blocks) * kb, int64(used) * kb, int64(blocks-used) * kb})
	}
	return out
}

// mountOf is the mount holding the absolute, clean path p.
func (g View) mountOf(p string) mount {
	var best mount
	for _, m := range g.mounts() {
		if (p == m.path || strings.HasPrefix(p, strings.TrimSuffix(m.path, "/")+"/")) && len(m.path) >= len(best.path) {
			best = m
		}
	}
	return best
}

// procMounts renders /proc/mounts.
func (g View) procMounts() string {
	var b strings.Builder
	for _, m := range g.mounts() {
		fmt.Fprintf(&b, "%s %s %s %s 0 0\n", m.device, m.path, m.fstype, m.options)
	}
	return b.String()
}

// volumeDir is a volume's tree as mounted: ext4's lost+found and the app's
// files, which together fill the volume's used blocks.
func volumeDir(v Volume) *vnode {
	dir := &vnode{dir: true, mtime: v.Created, kids: map[string]*vnode{
		"lost+found": {name: "lost+found", dir: true, mtime: v.Created, kids: map[string]*vnode{}},
	}}
	_, used := VolumeBlocks(v.SizeGB)
	left := int64(used)*VolumeBlockSize - 16<<10 // lost+found's blocks
	for _, f := range v.Files {
		left -= f.Size
	}
	for _, f := range v.Files {
		size := f.Size
		if size == 0 {
			size = max(left, 0)
		}
		dir.kids[f.Name] = &vnode{name: f.Name, size: size, mtime: v.Created}
	}
	return dir
}

// withVolumes is f with each volume's tree at its mount point: the nodes
// along the way are copied, so the image every machine of the app shares is
// left as it was. Its bytes stay the image's (df counts volumes apart).
func (f *FS) withVolumes(vols []Volume) *FS {
	if len(vols) == 0 {
		return f
	}
	root := *f.root
	root.kids = maps.Clone(f.root.kids)
	out := &FS{root: &root, bytes: f.bytes}
	for _, v := range vols {
		parts := strings.Split(strings.Trim(path.Clean(v.Path), "/"), "/")
		if parts[0] == "" {
			continue // a volume over / is not something Fly mounts
		}
		n := out.root
		for _, part := range parts[:len(parts)-1] {
			var c vnode
			if k := n.kids[part]; k != nil && k.dir {
				c = *k
				c.kids = maps.Clone(k.kids)
			} else {
				c = vnode{name: part, dir: true, mtime: v.Created, kids: map[string]*vnode{}}
			}
			n.kids[part] = &c
			n = &c
		}
		d := volumeDir(v)
		d.name = parts[len(parts)-1]
		n.kids[d.name] = d
	}
	return out
}
