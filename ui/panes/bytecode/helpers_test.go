package bytecode

import (
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

const (
	digestA = "sha256:aaaa1111bbbb2222cccc3333dddd4444eeee5555ffff6666"
	digestB = "sha256:9999888877776666555544443333222211110000aaaabbbb"
)

// Probe outputs as flysim's guest writes them (sources/flysim/guest).
const (
	sleepyProbe = `{"python":"3.14.0","cache_tag":"cpython-314","dont_write_bytecode":true,` +
		`"site_packages":{"dir":"/usr/local/lib/python3.14/site-packages","py":5707,"pyc":0,"foreign_pyc":0},` +
		`"app":{"dir":"/app","py":412,"pyc":218,"foreign_pyc":218,"foreign_tags":["cpython-315"]}}`
	snappyProbe = `{"python":"3.14.0","cache_tag":"cpython-314","dont_write_bytecode":true,` +
		`"site_packages":{"py":5707,"pyc":5707,"foreign_pyc":0},"app":{"dir":"/app","py":412,"pyc":412,"foreign_pyc":0}}`
	noDirProbe = `{"python":"3.12.3","cache_tag":"cpython-312","dont_write_bytecode":false,` +
		`"site_packages":{"py":3000,"pyc":12,"foreign_pyc":0},"app":{"py":40,"pyc":0,"foreign_pyc":0}}`
)

// probe is one bytecode exec result for a digest; nil means not probed.
type probe *snapshot.ExecResult

func ok(stdout string) probe { return &snapshot.ExecResult{Stdout: stdout} }

var notPython probe = &snapshot.ExecResult{ExitCode: 127, Stderr: "sh: 1: python3: not found"}

// build makes an app of machines per digest (the first one started), and
// applies the given probes.
func build(machines map[string][]string, probes map[string]probe) *snapshot.App {
	a := snapshot.New("demo-org", "sleepy-api", nil)
	var ms []*fly.Machine
	for _, d := range []string{digestA, digestB} {
		for i, id := range machines[d] {
			state := "stopped"
			if i == 0 {
				state = "started"
			}
			ms = append(ms, &fly.Machine{ID: id, State: state, ImageRef: fly.MachineImageRef{Digest: d}})
		}
	}
	a.ApplyMachines(ms, t0)
	for d, p := range probes {
		if p == nil {
			continue
		}
		req := snapshot.ProbeRequest{Kind: snapshot.ProbeBytecode, Machine: machines[d][0], Key: d}
		a.ApplyProbe(req, *p, t0)
	}
	return a
}

func newPane(t *theme.Theme) *Pane {
	return New(pane.Context{Theme: t})
}
