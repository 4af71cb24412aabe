package diagnose

import (
	"encoding/base64"
	"fmt"
)

// BytecodeProbeScript runs on the machine (Python 3, standard library only)
// and prints one JSON object: the interpreter's cache tag, whether writing
// bytecode is disabled, and .py / .pyc counts for site-packages and the app
// directory. A .pyc counts only inside __pycache__ and without an "opt-"
// level (what compileall writes by default); a .pyc whose tag differs from the
// expected one is "foreign" (built by another Python and ignored at run time).
// The walk never follows symlinked directories and stops after 200,000 files.
const BytecodeProbeScript = `import json, os, re, site, sys

LIMIT = 200000
seen = [0]
truncated = [False]
impl = sys.implementation
TAG = impl.cache_tag or ""


def expected_tag(path):
    # A venv built for another CPython than the python3 on PATH has its own tag.
    m = re.search(r"python(\d)\.(\d+)", path)
    if m and impl.name == "cpython":
        return "cpython-%s%s" % (m.group(1), m.group(2))
    return TAG


def count(root, skip):
    out = {"py": 0, "pyc": 0, "foreign_pyc": 0}
    tags = set()
    want = expected_tag(root)
    for dirpath, dirnames, filenames in os.walk(root, onerror=lambda e: None):
        keep = []
        for d in dirnames:
            full = os.path.join(dirpath, d)
            if os.path.islink(full) or os.path.realpath(full) in skip:
                continue
            keep.append(d)
        dirnames[:] = keep
        in_cache = os.path.basename(dirpath) == "__pycache__"
        for name in filenames:
            seen[0] += 1
            if seen[0] > LIMIT:
                truncated[0] = True
                dirnames[:] = []
                break
            if name.endswith(".py"):
                out["py"] += 1
            elif in_cache and name.endswith(".pyc"):
                parts = name[:-4].split(".")
                if len(parts) < 2 or any(p.startswith("opt-") for p in parts[2:]):
                    continue
                out["pyc"] += 1
                if parts[1] != want:
                    out["foreign_pyc"] += 1
                    tags.add(parts[1])
        if truncated[0]:
            break
    if tags:
        out["foreign_tags"] = sorted(tags)
    return out


def site_dirs(app):
    found = []
    cands = []
    try:
        cands += site.getsitepackages()
    except Exception:
        pass
    cands += [p for p in sys.path if p.rstrip("/").endswith(("site-packages", "dist-packages"))]
    for base in (os.environ.get("VIRTUAL_ENV"), os.path.join(app, ".venv") if app else None):
        if base and os.path.isdir(os.path.join(base, "lib")):
            for d in sorted(os.listdir(os.path.join(base, "lib"))):
                cands.append(os.path.join(base, "lib", d, "site-packages"))
    for c in cands:
        if c and os.path.isdir(c):
            real = os.path.realpath(c)
            if real not in found:
                found.append(real)
    return found


def main():
    app = os.environ.get("APP_DIR") or ("/app" if os.path.isdir("/app") else os.getcwd())
    app = os.path.realpath(app)
    sites = site_dirs(app)
    total = {"py": 0, "pyc": 0, "foreign_pyc": 0}
    tags = set()
    for d in sites:
        if truncated[0]:
            break
        c = count(d, set())
        for k in total:
            total[k] += c[k]
        tags.update(c.get("foreign_tags", []))
    if tags:
        total["foreign_tags"] = sorted(tags)
    appc = {"dir": app}
    if app == "/" or truncated[0]:
        # Walking / would count the interpreter's own library as "app".
        appc.update({"py": 0, "pyc": 0, "foreign_pyc": 0, "skipped": True})
    else:
        appc.update(count(app, set(sites)))
    report = {
        "python": "%d.%d.%d" % sys.version_info[:3],
        "cache_tag": TAG,
        "dont_write_bytecode": bool(sys.dont_write_bytecode),
        "site_packages": total,
        "app": appc,
    }
    if truncated[0]:
        report["truncated"] = True
    print(json.dumps(report, separators=(",", ":")))


main()
`

// BytecodeProbeCommand is the exec command that runs BytecodeProbeScript.
// Base64 keeps the script clear of the shell quoting the exec API applies;
// flysim recognises the probe by this exact prefix.
func BytecodeProbeCommand() string {
	b64 := base64.StdEncoding.EncodeToString([]byte(BytecodeProbeScript))
	return fmt.Sprintf(`python3 -c "import base64;exec(base64.b64decode('%s'))"`, b64)
}
