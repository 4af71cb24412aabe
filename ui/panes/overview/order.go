package overview

import (
	"cmp"
	"slices"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
)

// sorting is the rows' order: by column col (ascending, or descending),
// or worst first as the org model gives them (col < 0).
type sorting struct {
	col  int
	desc bool
}

var worstFirst = sorting{col: -1}

// figure is a row's value in one column, for sorting: known false sorts
// last whichever the direction (a cell still "…" or "?" says nothing).
type figure struct {
	known bool
	n     float64
	s     string
}

func num(known bool, n float64) figure { return figure{known: known, n: n} }

// figureOf is r's value in column col.
func figureOf(r snapshot.OrgRow, col int) figure {
	switch col {
	case colApp:
		return figure{known: true, s: strings.ToLower(r.App)}
	case colMachines:
		return num(r.Listed, float64(r.Machines))
	case colCrash:
		return num(r.Listed, float64(r.Looping+r.GaveUp)*1000+float64(r.Watching))
	case colBoots:
		return num(r.BootsKnown, float64(r.Boots24h))
	case colP95:
		return num(r.BootsKnown && r.ColdLevel != diagnose.NA, r.P95.Seconds())
	case colLost1h:
		return num(r.LossKnown && r.Edge1h >= 0.5, share(r.Lost1h, r.Edge1h))
	case colLost24h:
		return num(r.LossKnown && r.Edge24h >= 0.5, share(r.Lost24h, r.Edge24h))
	case colBacklog:
		return num(r.BacklogKnown && r.Backlog != diagnose.NA, float64(r.CloseWait))
	case colListed:
		return num(r.Listed, -float64(r.ListedAt.UnixNano())) // the freshest first
	case colWhy:
		return num(true, float64(r.Level.Attention()))
	}
	return figure{}
}

func share(lost, edge float64) float64 {
	if edge <= 0 {
		return 0
	}
	return lost / edge
}

// order sorts rows (as the org model gave them, worst first) by s; rows
// that compare equal keep that order.
func order(rows []snapshot.OrgRow, s sorting) []snapshot.OrgRow {
	out := slices.Clone(rows)
	if s.col < 0 {
		return out
	}
	slices.SortStableFunc(out, func(a, b snapshot.OrgRow) int {
		fa, fb := figureOf(a, s.col), figureOf(b, s.col)
		switch {
		case fa.known != fb.known:
			if fa.known {
				return -1
			}
			return 1
		case !fa.known:
			return 0
		}
		c := cmp.Compare(fa.n, fb.n)
		if c == 0 {
			c = strings.Compare(fa.s, fb.s)
		}
		if s.desc {
			c = -c
		}
		return c
	})
	return out
}
