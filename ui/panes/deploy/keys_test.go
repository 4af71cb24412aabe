package deploy

import (
	"testing"

	"github.com/flywake/flywake/sources/rollout"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// The choice of release comes from the key map: a rebound key plans, its
// old key does not, and the view names the new one.
func TestReleaseKeysRebind(t *testing.T) {
	km := keys.Default()
	if err := km.Rebind([]byte("deploy_crashing = \"C\"\n"), "keys.toml"); err != nil {
		t.Fatal(err)
	}
	d := &fakeDeployer{}
	p := New(pane.Context{Theme: theme.New(true), Keys: &km}, "sleepy-api", d)
	drain(p, p.Open())
	uitest.AssertMentions(t, view(p), []string{"C  crashing"}, []string{"c  crashing"})
	press(p, "c")
	if p.Stage() != StageChoose || len(d.planned) != 0 {
		t.Fatalf("c still plans: stage %v, planned %v", p.Stage(), d.planned)
	}
	press(p, "C")
	if p.Stage() != StageConfirm || len(d.planned) != 1 || d.planned[0] != rollout.Crashing {
		t.Fatalf("C: stage %v, planned %v", p.Stage(), d.planned)
	}
}
