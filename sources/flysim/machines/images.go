package machines

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/flysim/guest"
	"github.com/flywake/flywake/sources/flysim/rng"
	fly "github.com/superfly/fly-go"
)

// image is one container image in the org's registry (registry.fly.io).
// What a machine runs decides how its app behaves, so updating a machine to
// another image changes the behaviour: a release that crashes after every
// start, a PID 1 that ignores SIGINT.
type image struct {
	registry, repository, tag, digest string
	crashAfter                        time.Duration
	crashTimes                        int
	crashLines                        []string
	ignores                           map[string]bool
	// public: not one of the org's builds (nginx, redis): it boots straight
	// to serving its configured port with its own page, from a plain
	// Debian filesystem (fs, built on the first exec).
	public bool
	fs     *guest.FS
}

// crashes is how long after a start the app crashes (0: never); nil-safe.
func (im *image) crashes() time.Duration {
	if im == nil {
		return 0
	}
	return im.crashAfter
}

// ignoresSignal reports whether the app's main process ignores sig; nil-safe.
func (im *image) ignoresSignal(sig string) bool { return im != nil && im.ignores[sig] }

// ref is the image's name as a machine config carries it.
func (im *image) ref() string {
	return im.registry + "/" + im.repository + ":" + im.tag
}

// ImageBehavior is how an app built from a pushed image behaves.
type ImageBehavior struct {
	// CrashAfter > 0: the app exits 1 this long after every start (the
	// restart policy then restarts it), as a bad release does.
	CrashAfter time.Duration
	// CrashTimes > 0 (with CrashAfter): only the first CrashTimes starts of
	// each machine's version crash; later ones stay up (a release that
	// crashed once on a cold cache, then ran).
	CrashTimes int
	// CrashLines are what the app prints as it crashes (a traceback);
	// nil prints the app profile's ServerLines.
	CrashLines []string
	// IgnoreSignals are signals its main process does not act on (a shell
	// entrypoint that does not forward SIGINT): a stop with one of them
	// waits out its timeout and kills the process.
	IgnoreSignals []string
}

const flyRegistry = "registry.fly.io"

func (a *App) push(tag, digest string, b ImageBehavior) *image {
	im := &image{registry: flyRegistry, repository: a.p.Image, tag: tag, digest: digest,
		crashAfter: b.CrashAfter, crashTimes: b.CrashTimes,
		crashLines: b.CrashLines, ignores: map[string]bool{}}
	for _, sig := range b.IgnoreSignals {
		im.ignores[strings.ToUpper(sig)] = true
	}
	a.images = append(a.images, im)
	return im
}

// releaseImage registers the image of one of the app's own releases (the
// profile's image and tag) and makes it current: the profile's crash belongs
// to its current release only.
func (a *App) releaseImage(release int, digest string) *image {
	b := ImageBehavior{}
	if release >= a.p.Release {
		b.CrashAfter = a.p.CrashAfter
	}
	a.current = a.push(a.p.Tag, digest, b)
	return a.current
}

// crashesNow reports whether a start of m on its image crashes: every one,
// or only the first CrashTimes of its version.
func (im *image) crashesNow(m *Machine) bool {
	return im != nil && im.crashAfter > 0 && (im.crashTimes == 0 || m.versionCrashes < im.crashTimes)
}

// Demo releases: every app's registry also holds two images a demo deploy
// (flywake's `deploy --demo-release`, its dashboard key) rolls out over the
// Machines API, as `fly deploy` would after pushing: one that runs like the
// app's own release, and one whose app exits 1 DemoCrashAfter after every
// start, as a bad release does. Their digests are derived from the app
// and tag, not drawn from the seeded generator, so a seed's history stays
// the same with or without them.
const (
	DemoHealthyTag  = "flywake-demo-healthy"
	DemoCrashingTag = "flywake-demo-crashing"
	DemoCrashAfter  = 2500 * time.Millisecond
)

// demoCrashLines are the crashing demo release's last words: a setting its
// code reads and the deploy forgot.
var demoCrashLines = []string{
	"Traceback (most recent call last):",
	`  File "/app/config/settings.py", line 31, in <module>`,
	`    SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]`,
	`KeyError: 'DJANGO_SECRET_KEY'`,
}

func (a *App) pushDemoReleases() {
	for _, r := range []struct {
		tag string
		b   ImageBehavior
	}{{DemoHealthyTag, ImageBehavior{}}, {DemoCrashingTag, ImageBehavior{CrashAfter: DemoCrashAfter, CrashLines: demoCrashLines}}} {
		sum := sha256.Sum256([]byte(a.p.Name + "/" + a.p.Image + ":" + r.tag))
		a.push(r.tag, "sha256:"+hex.EncodeToString(sum[:]), r.b)
	}
}

// PushImage adds an image tagged tag to app's repository, as `fly deploy`
// pushes one before it updates the machines, and returns its reference for
// a machine config ("registry.fly.io/<image>:<tag>"). A later push of the
// same tag replaces what the tag points to.
func (s *Store) PushImage(app, tag string, b ImageBehavior) (string, error) {
	if tag == "" || strings.ContainsAny(tag, "/:@ ") {
		return "", fmt.Errorf("flysim: invalid image tag %q", tag)
	}
	s.sched.Lock()
	defer s.sched.Unlock()
	a := s.apps[app]
	if a == nil {
		return "", fmt.Errorf("flysim: no app %q", app)
	}
	return a.push(tag, "sha256:"+rng.Hex(s.rng, 64), b).ref(), nil
}

// resolveImage finds the image a config names. One in the org's registry
// ("registry.fly.io/repo:tag", "repo:tag" or "…@sha256:…", in any app of
// the org, the newest push of a tag winning) runs as that app's release;
// any other ("nginx", "docker.io/library/redis:7", "ghcr.io/o/r:t") is a
// public image Fly pulls through its mirror and runs as a generic server.
// nil means the org's registry has no such image (the pull fails).
// Callers hold the lock.
func (s *Store) resolveImage(ref string) *image {
	name, digest, _ := strings.Cut(ref, "@")
	registry, repo, tag := splitRef(name)
	var found *image
	for _, appName := range s.appOrder {
		for _, im := range s.apps[appName].images {
			switch {
			case digest != "" && im.digest == digest:
				return im
			case digest == "" && im.repository == repo && im.tag == tag:
				found = im // keep looking: a newer push of the tag wins
			}
		}
	}
	if found != nil || registry == flyRegistry {
		return found
	}
	return s.publicImage(registry, repo, tag, digest)
}

// dockerHubMirror is where Fly pulls Docker Hub images from, as image_ref
// names it.
const dockerHubMirror = "docker-hub-mirror.fly.io"

// splitRef reads "[registry/]repository[:tag]". Without a registry (a first
// part with no dot or port, as Docker reads it) the repository is the org's
// own or Docker Hub's, whose single names live under library/.
func splitRef(name string) (registry, repo, tag string) {
	tag = "latest"
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		name, tag = name[:i], name[i+1:]
	}
	first, rest, ok := strings.Cut(name, "/")
	switch {
	case ok && (strings.ContainsAny(first, ".:") || first == "localhost"):
		registry, repo = first, rest
	default:
		repo = name
	}
	if registry == "docker.io" || registry == "index.docker.io" {
		registry = ""
	}
	return registry, repo, tag
}

// publicImage is the image a public reference names, the same one each
// time. Its digest is derived from the reference, not drawn, so pulling
// one shifts no seeded draw.
func (s *Store) publicImage(registry, repo, tag, digest string) *image {
	if registry == "" {
		registry = dockerHubMirror
		if !strings.Contains(repo, "/") {
			repo = "library/" + repo
		}
	}
	key := registry + "/" + repo + ":" + tag + "@" + digest
	if im := s.public[key]; im != nil {
		return im
	}
	if digest == "" {
		sum := sha256.Sum256([]byte(key))
		digest = "sha256:" + hex.EncodeToString(sum[:])
	}
	im := &image{registry: registry, repository: repo, tag: tag, digest: digest, public: true, ignores: map[string]bool{}}
	s.public[key] = im
	return im
}

// command is what a public image runs: the config's init, else the
// image's name (nginx runs nginx).
func (im *image) command(cfg *fly.MachineConfig) string {
	if cfg != nil {
		if argv := append(append([]string(nil), cfg.Init.Entrypoint...), cfg.Init.Cmd...); len(argv) > 0 {
			return strings.Join(argv, " ")
		}
	}
	return path.Base(im.repository)
}
