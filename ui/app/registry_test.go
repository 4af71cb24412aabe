package app

import "testing"

// Every feed the dashboard polls is complete and named once: the header
// names a failing one by its name.
func TestDashboardFeedsAreNamedOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range dashboardFeeds() {
		if f.Name == "" || f.Fetch == nil || f.Next == nil || f.Timeout <= 0 {
			t.Errorf("feed %q is incomplete", f.Name)
		}
		if seen[f.Name] {
			t.Errorf("two feeds named %q", f.Name)
		}
		seen[f.Name] = true
	}
}
