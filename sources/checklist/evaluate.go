package checklist

// Evaluate answers every checklist item, in the fixed order of IDs.
func Evaluate(e Evidence, opts Options) []Item {
	if opts.ProxyPatience <= 0 {
		opts.ProxyPatience = DefaultProxyPatience
	}
	return []Item{
		coldStartRule(e, opts),
		releaseWorkRule(e),
		bytecodeRule(e),
		sleepWakeRule(e),
		edgeOriginRule(e),
		crashLoopRule(e),
		concurrencyRule(e),
		healthChecksRule(e),
	}
}
