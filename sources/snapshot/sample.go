package snapshot

import "sort"

// A headless look (watch.Source.Collect) probes a sample of the started
// machines, not each one: `status` ran 1,001 exec calls on an app of 500
// machines. Machines of one process group and image run the same code with
// the same config, so the first SamplePerGroup of each group, by id, stand
// for it; the dashboard instead probes every machine over time, within its
// own rate budget.
const SamplePerGroup = 2

// ProbeSample says what one look's probes covered, for its output to say.
type ProbeSample struct {
	Started  int  `json:"started"`    // started machines: the only ones a probe runs on
	Probed   int  `json:"probed"`     // of them, machines the look ran a probe on
	Groups   int  `json:"groups"`     // process group and image pairs among the started machines
	PerGroup int  `json:"per_group"`  // machines probed per group, at most
	Execs    int  `json:"exec_calls"` // exec calls the look made
	Limit    int  `json:"exec_limit"` // the most it could make (its own cap, or what its command had left)
	Capped   bool `json:"capped"`     // the limit ran out before the sample did
}

// SampleProbes picks, from due (ProbesDue), the probes one look runs: each
// image's bytecode probe first, then the probes of each group's first
// perGroup started machines by id, taking the groups' first machines before
// any second one, at most limit in all; and says what they cover.
func (a *App) SampleProbes(due []ProbeRequest, perGroup, limit int) ([]ProbeRequest, ProbeSample) {
	limit = max(limit, 0)
	s := ProbeSample{PerGroup: perGroup, Limit: limit}
	group := map[string]string{}     // machine id -> its group
	members := map[string][]string{} // group -> its started machines, by id
	for _, m := range a.Machines {
		if m.State != "started" {
			continue
		}
		s.Started++
		g := m.ProcessGroup + "\x00" + m.imageKey()
		if _, ok := members[g]; !ok {
			s.Groups++
		}
		group[m.ID] = g
		members[g] = append(members[g], m.ID)
	}
	rank := map[string]int{} // machine id -> its place in its group
	for _, ids := range members {
		sort.Strings(ids)
		for i, id := range ids {
			rank[id] = i
		}
	}
	byMachine := map[string][]ProbeRequest{}
	var out []ProbeRequest
	for _, p := range due {
		switch {
		case p.Kind == ProbeBytecode:
			out = append(out, p) // once per image: already a sample
		case rank[p.Machine] < perGroup && group[p.Machine] != "":
			byMachine[p.Machine] = append(byMachine[p.Machine], p)
		}
	}
	sampled := make([]string, 0, len(byMachine))
	for id := range byMachine {
		sampled = append(sampled, id)
	}
	sort.Slice(sampled, func(i, j int) bool {
		x, y := sampled[i], sampled[j]
		if rank[x] != rank[y] {
			return rank[x] < rank[y] // every group's first machine before any second one
		}
		return x < y
	})
	for _, id := range sampled {
		out = append(out, byMachine[id]...)
	}
	if len(out) > limit {
		out, s.Capped = out[:limit], true
	}
	probed := map[string]bool{}
	for _, p := range out {
		probed[p.Machine] = true
	}
	s.Probed, s.Execs = len(probed), len(out)
	return out, s
}

// imageKey is what tells the machine's image from another's: its digest,
// else the image it names.
func (m Machine) imageKey() string {
	switch {
	case m.ImageDigest != "":
		return m.ImageDigest
	case m.Image != "":
		return m.Image
	case m.Config != nil:
		return m.Config.Image
	}
	return ""
}
