package checklist

import "github.com/flywake/flywake/sources/repo"

// Evaluate answers every checklist item, in the fixed order of IDs.
func Evaluate(e Evidence, opts Options) []Item {
	if opts.ProxyPatience <= 0 {
		opts.ProxyPatience = DefaultProxyPatience
	}
	items := []Item{
		coldStartRule(e, opts),
		releaseWorkRule(e),
		bytecodeRule(e),
		sleepWakeRule(e),
		edgeOriginRule(e),
		crashLoopRule(e),
		concurrencyRule(e),
		healthChecksRule(e),
	}
	rel := releaseName(e.Release)
	for i := range items {
		it := &items[i]
		it.Release = rel
		if it.Judges == "" {
			it.Judges = judges(it.ID, e)
		}
		if it.Changes == nil {
			it.Changes = []Change{}
		}
		*it = withUnread(*it, e)
	}
	return items
}

// judges is what an item's status rests on when its rule did not say: the
// project when it has the file the item reads, else the deployed release.
// Boot history, metrics and machine events only the platform holds.
func judges(id string, e Evidence) string {
	file := ""
	switch id {
	case IDReleaseWork, IDBytecode:
		file = repo.DockerfileFile
	case IDSleepWake, IDConcurrency, IDHealthChecks:
		file = repo.FlyTomlFile
	}
	if file != "" && e.Project.Has(file) {
		return JudgesProject
	}
	return JudgesDeployed
}
