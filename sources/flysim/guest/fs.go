package guest

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// The guest's filesystem: what `ls`, `cat`, `df` and the bytecode probe see.
// It is built once per app from its profile: the demo project's own files
// under /app (so `cat /app/entrypoint.sh` shows what the checklist reads),
// synthetic modules and __pycache__ files up to the counts the profile's
// Bytecode gives, a site-packages tree from requirements.txt, and /proc
// files rendered from the machine's state when read. Nothing on the host is
// ever read or run.

// vnode is one file or directory.
type vnode struct {
	name  string
	dir   bool
	exec  bool
	size  int64
	text  string              // a regular file's content, when it has any
	gen   func(g View) string // a /proc file: rendered on read
	mtime time.Time
	kids  map[string]*vnode
}

type FS struct {
	root  *vnode
	bytes int64 // regular files' sizes, for df
}

func newFS(t time.Time) *FS {
	return &FS{root: &vnode{name: "/", dir: true, mtime: t, kids: map[string]*vnode{}}}
}

// cleanPath makes p absolute against cwd and removes . and .. parts.
func cleanPath(cwd, p string) string {
	if !strings.HasPrefix(p, "/") {
		p = cwd + "/" + p
	}
	return path.Clean(p)
}

// lookup finds an absolute, clean path.
func (f *FS) lookup(p string) *vnode {
	n := f.root
	for _, part := range strings.Split(strings.Trim(p, "/"), "/") {
		if part == "" {
			continue
		}
		if !n.dir {
			return nil
		}
		if n = n.kids[part]; n == nil {
			return nil
		}
	}
	return n
}

// mkdirAll returns the directory at p, creating it and its parents.
func (f *FS) mkdirAll(p string, t time.Time) *vnode {
	n := f.root
	for _, part := range strings.Split(strings.Trim(p, "/"), "/") {
		if part == "" {
			continue
		}
		k := n.kids[part]
		if k == nil {
			k = &vnode{name: part, dir: true, mtime: t, kids: map[string]*vnode{}}
			n.kids[part] = k
		}
		n = k
	}
	return n
}

// put adds a regular file (its parents made as needed).
func (f *FS) put(p string, n *vnode) {
	dir := f.mkdirAll(path.Dir(p), n.mtime)
	n.name = path.Base(p)
	if n.text != "" {
		n.size = int64(len(n.text))
	}
	if old := dir.kids[n.name]; old != nil {
		f.bytes -= old.size
	}
	dir.kids[n.name] = n
	f.bytes += n.size
}

// children lists a directory's entries by name.
func (n *vnode) children() []*vnode {
	out := make([]*vnode, 0, len(n.kids))
	for _, k := range n.kids {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// read returns a regular file's content: its text, its rendering for a /proc
// file, or for a file whose bytes the simulator does not keep (bytecode, a
// library) a placeholder of the same kind a real cat would show nothing
// useful of.
func (n *vnode) read(g View) string {
	switch {
	case n.gen != nil:
		return n.gen(g)
	case n.text != "":
		return n.text
	case n.size == 0:
		return ""
	}
	return fmt.Sprintf("flysim: %s holds %d bytes the simulator does not keep\n", n.name, n.size)
}

// sizeOf is a stable, plausible size for a synthetic file.
func sizeOf(p string, lo, hi int64) int64 {
	h := fnv.New32a()
	h.Write([]byte(p))
	return lo + int64(h.Sum32())%(hi-lo+1)
}

// Commands the guest answers, as files in its PATH (see commands.go).
var binaries = []string{"cat", "df", "echo", "env", "false", "free", "grep", "head", "hostname", "id", "ls",
	"mount", "printenv", "ps", "pwd", "sh", "tail", "true", "uname", "uptime", "wc", "which", "whoami"}

// BuildFS lays out an app's image: Debian's base, Python as b says, the
// project's files (nil for none) under the app directory, and the modules
// and bytecode b counts. built is when the image was built (file times).
func BuildFS(b Bytecode, project fs.FS, built time.Time) *FS {
	f := baseFS(built)
	if !b.NotPython && b.Python != "" {
		f.put("/usr/local/bin/python3", &vnode{exec: true, size: 15_264, mtime: built})
		f.put("/usr/local/bin/python", &vnode{exec: true, size: 15_264, mtime: built})
	}
	appDir := b.AppDir
	if appDir == "" {
		appDir = "/app"
	}
	requirements := putProject(f, project, appDir, built)
	if !b.NotPython && b.Python != "" {
		putSitePackages(f, &b, appDir, requirements, built)
		putAppModules(f, &b, appDir, built)
	}
	return f
}

// PlainFS is a public image's filesystem: Debian's base and nothing else.
func PlainFS(built time.Time) *FS { return baseFS(built) }

// baseFS is the Debian base every image has, with /proc and Fly's init.
func baseFS(built time.Time) *FS {
	f := newFS(built)
	for _, d := range []string{"bin", "boot", "dev", "etc", "home", "lib", "lib64", "media", "mnt", "opt", "proc",
		"root", "run", "sbin", "srv", "sys", "tmp", "usr/bin", "usr/lib", "usr/local/bin", "usr/local/lib", "usr/sbin",
		"usr/share", "var/log", "var/tmp", ".fly"} {
		f.mkdirAll("/"+d, built)
	}
	for _, c := range binaries {
		f.put("/usr/bin/"+c, &vnode{exec: true, size: sizeOf(c, 30_000, 160_000), mtime: built})
	}
	f.put("/.fly/init", &vnode{exec: true, size: 9_437_184, mtime: built})
	f.put("/.fly/hallpass", &vnode{exec: true, size: 11_534_336, mtime: built})
	f.put("/etc/os-release", &vnode{text: osRelease, mtime: built})
	f.put("/etc/hostname", &vnode{gen: func(g View) string { return g.ID + "\n" }, mtime: built})
	f.put("/etc/passwd", &vnode{text: "root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n", mtime: built})
	proc := []struct {
		name string
		gen  func(g View) string
	}{
		{"meminfo", View.meminfo}, {"net/tcp", View.netTCP}, {"net/tcp6", View.netTCP6},
		{"uptime", View.procUptime}, {"loadavg", View.procLoadavg}, {"mounts", View.procMounts},
		{"version", func(g View) string { return g.uname([]string{"-a"}) + "\n" }},
	}
	for _, pf := range proc {
		f.put("/proc/"+pf.name, &vnode{gen: pf.gen, mtime: built})
	}
	return f
}

// putProject copies the project into the app directory, as the
// Dockerfile's COPY . . does, and returns its requirements.txt.
func putProject(f *FS, fsys fs.FS, appDir string, t time.Time) string {
	f.mkdirAll(appDir, t)
	if fsys == nil {
		return ""
	}
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil
		}
		f.put(appDir+"/"+p, &vnode{text: string(data), exec: strings.HasSuffix(p, ".sh"), mtime: t})
		return nil
	})
	if n := f.lookup(appDir + "/requirements.txt"); n != nil {
		return n.text
	}
	return ""
}

// venvIn reports whether the project installs into /app/.venv.
func venvIn(f *FS, appDir string) bool {
	n := f.lookup(appDir + "/Dockerfile")
	return n != nil && strings.Contains(n.text, appDir+"/.venv")
}

// sitePackagesDir is where pip put the app's dependencies.
func sitePackagesDir(f *FS, b *Bytecode, appDir string) string {
	minor := b.Python
	if parts := strings.Split(b.Python, "."); len(parts) >= 2 {
		minor = parts[0] + "." + parts[1]
	}
	if venvIn(f, appDir) {
		return appDir + "/.venv/lib/python" + minor + "/site-packages"
	}
	return "/usr/local/lib/python" + minor + "/site-packages"
}

// putSitePackages spreads SitePy modules (SitePyc of them compiled, the
// first SiteForeignPyc by a foreign tag) over the packages requirements.txt
// names, plus pip's own.
func putSitePackages(f *FS, b *Bytecode, appDir, requirements string, t time.Time) {
	dir := sitePackagesDir(f, b, appDir)
	f.mkdirAll(dir, t)
	var pkgs []string
	sc := bufio.NewScanner(strings.NewReader(requirements))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "-") {
			continue
		}
		name, version, _ := strings.Cut(line, "==")
		name = strings.TrimSpace(strings.FieldsFunc(name, func(r rune) bool { return strings.ContainsRune("<>=!~[; ", r) })[0])
		pkg := strings.ReplaceAll(strings.ToLower(name), "-", "_")
		pkgs = append(pkgs, pkg)
		if version == "" {
			version = "1.0"
		}
		f.put(dir+"/"+pkg+"-"+strings.TrimSpace(version)+".dist-info/METADATA",
			&vnode{text: "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + strings.TrimSpace(version) + "\n", mtime: t})
	}
	pkgs = append(pkgs, "pip")
	subs := []string{"", "core", "utils", "backends", "contrib", "internal", "db", "http"}
	foreign := b.CacheTag
	if len(b.ForeignTags) > 0 {
		foreign = b.ForeignTags[0]
	}
	for i := 0; i < b.SitePy; i++ {
		pkg := pkgs[i%len(pkgs)]
		k := i / len(pkgs)
		sub := subs[(k/40)%len(subs)]
		mod := fmt.Sprintf("m%03d", k%40)
		if k%40 == 0 {
			mod = "__init__"
		}
		if k >= 40*len(subs) { // deeper trees for the biggest packages
			sub = fmt.Sprintf("%s/x%02d", subs[(k/40)%len(subs)], k/(40*len(subs)))
		}
		d := path.Join(dir, pkg, sub)
		f.put(d+"/"+mod+".py", &vnode{size: sizeOf(d+mod, 600, 24_000), mtime: t})
		if i < b.SitePyc {
			tag := b.CacheTag
			if i < b.SiteForeignPyc {
				tag = foreign
			}
			f.put(d+"/__pycache__/"+mod+"."+tag+".pyc", &vnode{size: sizeOf(d+mod+tag, 700, 30_000), mtime: t})
		}
	}
}

// putAppModules adds the app's own modules until /app holds AppPy .py files
// (the project's count first), AppPyc of them compiled in __pycache__ (the
// first AppForeignPyc by the foreign tag, as a laptop's stray caches are).
func putAppModules(f *FS, b *Bytecode, appDir string, t time.Time) {
	var existing []string
	walkFiles(f, appDir, func(p string, n *vnode) {
		if strings.HasSuffix(p, ".py") && !strings.Contains(p, "/.venv/") {
			existing = append(existing, p)
		}
	})
	pkgs := []string{"notifications", "users", "core", "billing", "search"}
	mods := []string{"__init__", "admin", "apps", "models", "serializers", "signals", "tasks", "tests", "urls",
		"views", "permissions", "filters", "managers", "services", "utils"}
	all := existing
	for k := 0; len(all) < b.AppPy; k++ {
		pkg, idx := pkgs[k%len(pkgs)], k/len(pkgs)
		var p string
		switch {
		case idx < len(mods):
			p = fmt.Sprintf("%s/%s/%s.py", appDir, pkg, mods[idx])
		case idx == len(mods):
			p = fmt.Sprintf("%s/%s/migrations/__init__.py", appDir, pkg)
		default:
			p = fmt.Sprintf("%s/%s/migrations/%04d_auto.py", appDir, pkg, idx-len(mods))
		}
		f.put(p, &vnode{size: sizeOf(p, 300, 9_000), mtime: t})
		all = append(all, p)
	}
	foreign := b.CacheTag
	if len(b.ForeignTags) > 0 {
		foreign = b.ForeignTags[0]
	}
	for i := 0; i < b.AppPyc && i < len(all); i++ {
		tag := b.CacheTag
		if i < b.AppForeignPyc {
			tag = foreign
		}
		d, base := path.Split(all[i])
		mod := strings.TrimSuffix(base, ".py")
		f.put(d+"__pycache__/"+mod+"."+tag+".pyc", &vnode{size: sizeOf(all[i]+tag, 400, 12_000), mtime: t})
	}
}

// walkFiles visits every regular file under dir, in name order.
func walkFiles(f *FS, dir string, fn func(p string, n *vnode)) {
	n := f.lookup(dir)
	if n == nil || !n.dir {
		return
	}
	var walk func(p string, n *vnode)
	walk = func(p string, n *vnode) {
		for _, k := range n.children() {
			kp := p + "/" + k.name
			if k.dir {
				walk(kp, k)
			} else {
				fn(kp, k)
			}
		}
	}
	walk(strings.TrimSuffix(dir, "/"), n)
}

// bytecodeCount counts like the probe script (diagnose.BytecodeProbeScript):
// .py files, and .pyc inside __pycache__ without an opt- level; a .pyc whose
// tag is not want is foreign. skip are directories left out (site-packages
// inside the app directory).
func bytecodeCount(f *FS, root, want string, skip map[string]bool) (c bytecodeCounts, tags []string) {
	seen := map[string]bool{}
	walkFiles(f, root, func(p string, n *vnode) {
		for s := range skip {
			if strings.HasPrefix(p, s+"/") {
				return
			}
		}
		name := n.name
		switch {
		case strings.HasSuffix(name, ".py"):
			c.Py++
		case strings.HasSuffix(name, ".pyc") && path.Base(path.Dir(p)) == "__pycache__":
			parts := strings.Split(strings.TrimSuffix(name, ".pyc"), ".")
			if len(parts) < 2 {
				return
			}
			for _, x := range parts[2:] {
				if strings.HasPrefix(x, "opt-") {
					return
				}
			}
			c.Pyc++
			if parts[1] != want {
				c.ForeignPyc++
				if !seen[parts[1]] {
					seen[parts[1]] = true
					tags = append(tags, parts[1])
				}
			}
		}
	})
	sort.Strings(tags)
	return c, tags
}
