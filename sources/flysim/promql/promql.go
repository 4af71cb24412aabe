// Package promql evaluates the PromQL subset flysim's Prometheus API
// serves, enough for the queries Fly's docs and flywake use:
//
//	metric{label="v", l2!="v", l3=~"re", l4!~"re"}
//	increase(metric{…}[1h])  rate(metric{…}[5m])
//	sum(…)  sum by (a, b) (…)  sum(…) by (a, b)  (also without; count, min, max, avg)
//
// The parser and evaluator are pure: series come through a Source and the
// evaluation time is given. API serves /api/v1/query and query_range over
// them.
package promql

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Expr is a parsed query.
type Expr interface{ exprNode() }

type matcher struct {
	label, op, value string
	re               *regexp.Regexp // for =~ and !~, anchored like Prometheus
}

// selectorExpr picks series by name and labels; window > 0 makes it a range
// selector (`[1h]`).
type selectorExpr struct {
	name     string
	matchers []matcher
	window   time.Duration
}

// callExpr is increase() or rate() over a range selector.
type callExpr struct {
	fn  string
	arg *selectorExpr
}

// aggExpr is an aggregation (sum, count, min, max, avg) with optional
// by/without grouping.
type aggExpr struct {
	op      string
	labels  []string
	without bool
	arg     Expr
}

func (*selectorExpr) exprNode() {}
func (*callExpr) exprNode()     {}
func (*aggExpr) exprNode()      {}

var (
	aggOps = map[string]bool{"sum": true, "count": true, "min": true, "max": true, "avg": true}
	funcs  = map[string]bool{"increase": true, "rate": true}
)

// maxDepth bounds nesting so hostile queries cannot exhaust the stack.
const maxDepth = 32

// Parse parses a query of the supported subset.
func Parse(query string) (Expr, error) {
	toks, err := lex(query)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	e, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tkEOF {
		return nil, fmt.Errorf("unexpected %s at position %d", t, t.pos)
	}
	return e, nil
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }

// peek2 is the token after the next one (EOF at the end).
func (p *parser) peek2() token {
	if p.i+1 < len(p.toks) {
		return p.toks[p.i+1]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tkEOF {
		p.i++
	}
	return t
}

func (p *parser) expect(kind tokKind, what string) (token, error) {
	t := p.next()
	if t.kind != kind {
		return t, fmt.Errorf("expected %s at position %d, got %s", what, t.pos, t)
	}
	return t, nil
}

func (p *parser) expr(depth int) (Expr, error) {
	if depth > maxDepth {
		return nil, errors.New("query nested too deeply")
	}
	t := p.peek()
	switch {
	case t.kind == tkIdent && aggOps[t.text] && p.followedByAggregation():
		return p.aggregation(depth)
	case t.kind == tkIdent && funcs[t.text] && p.peek2().kind == tkLParen:
		return p.call()
	case t.kind == tkIdent || t.kind == tkLBrace:
		return p.selector()
	case t.kind == tkEOF:
		return nil, errors.New("empty query")
	}
	return nil, fmt.Errorf("unexpected %s at position %d", t, t.pos)
}

func (p *parser) followedByAggregation() bool {
	n := p.peek2()
	return n.kind == tkLParen || (n.kind == tkIdent && (n.text == "by" || n.text == "without"))
}

func (p *parser) aggregation(depth int) (Expr, error) {
	agg := &aggExpr{op: p.next().text}
	grouped := false
	if t := p.peek(); t.kind == tkIdent && (t.text == "by" || t.text == "without") {
		if err := p.grouping(agg); err != nil {
			return nil, err
		}
		grouped = true
	}
	if _, err := p.expect(tkLParen, "'('"); err != nil {
		return nil, err
	}
	arg, err := p.expr(depth + 1)
	if err != nil {
		return nil, err
	}
	agg.arg = arg
	if _, err := p.expect(tkRParen, "')'"); err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tkIdent && (t.text == "by" || t.text == "without") {
		if grouped {
			return nil, fmt.Errorf("second grouping at position %d", t.pos)
		}
		if err := p.grouping(agg); err != nil {
			return nil, err
		}
	}
	return agg, nil
}

// grouping reads `by (a, b)` or `without (a)`; a trailing comma is allowed.
func (p *parser) grouping(agg *aggExpr) error {
	agg.without = p.next().text == "without"
	if _, err := p.expect(tkLParen, "'(' after by/without"); err != nil {
		return err
	}
	agg.labels = []string{}
	for p.peek().kind != tkRParen {
		t, err := p.expect(tkIdent, "a label name")
		if err != nil {
			return err
		}
		if !validLabelName(t.text) {
			return fmt.Errorf("invalid label name %q", t.text)
		}
		agg.labels = append(agg.labels, t.text)
		if p.peek().kind != tkComma {
			break
		}
		p.next()
	}
	_, err := p.expect(tkRParen, "')' after label list")
	return err
}

func (p *parser) call() (Expr, error) {
	c := &callExpr{fn: p.next().text}
	p.next() // '('
	sel, err := p.selector()
	if err != nil {
		return nil, err
	}
	c.arg = sel
	if _, err := p.expect(tkRParen, "')'"); err != nil {
		return nil, err
	}
	return c, nil
}

func (p *parser) selector() (*selectorExpr, error) {
	sel := &selectorExpr{}
	if t := p.peek(); t.kind == tkIdent {
		if aggOps[t.text] || funcs[t.text] || t.text == "by" || t.text == "without" {
			return nil, fmt.Errorf("expected a metric name at position %d, got %s", t.pos, t)
		}
		sel.name = p.next().text
	}
	if p.peek().kind == tkLBrace {
		p.next()
		for p.peek().kind != tkRBrace {
			m, err := p.matcher()
			if err != nil {
				return nil, err
			}
			if m.label == "__name__" && m.op == "=" && sel.name == "" {
				sel.name = m.value
			} else {
				sel.matchers = append(sel.matchers, m)
			}
			if p.peek().kind != tkComma {
				break
			}
			p.next()
		}
		if _, err := p.expect(tkRBrace, "'}'"); err != nil {
			return nil, err
		}
	}
	if sel.name == "" && !selectsSomething(sel.matchers) {
		return nil, errors.New("a selector needs a metric name or a matcher that does not match the empty string")
	}
	if p.peek().kind == tkWindow {
		d, err := ParseDuration(p.next().text)
		if err != nil {
			return nil, err
		}
		sel.window = d
	}
	return sel, nil
}

func selectsSomething(ms []matcher) bool {
	for _, m := range ms {
		if !m.matches("") {
			return true
		}
	}
	return false
}

func (p *parser) matcher() (matcher, error) {
	name, err := p.expect(tkIdent, "a label name")
	if err != nil {
		return matcher{}, err
	}
	if !validLabelName(name.text) {
		return matcher{}, fmt.Errorf("invalid label name %q", name.text)
	}
	op := p.next()
	if op.kind != tkOp {
		return matcher{}, fmt.Errorf("expected =, !=, =~ or !~ at position %d, got %s", op.pos, op)
	}
	val, err := p.expect(tkString, "a quoted label value")
	if err != nil {
		return matcher{}, err
	}
	m := matcher{label: name.text, op: op.text, value: val.text}
	if m.op == "=~" || m.op == "!~" {
		re, err := regexp.Compile("^(?:" + m.value + ")$")
		if err != nil {
			return matcher{}, fmt.Errorf("bad regex %q: %v", m.value, err)
		}
		m.re = re
	}
	return m, nil
}

func (m matcher) matches(v string) bool {
	switch m.op {
	case "=":
		return v == m.value
	case "!=":
		return v != m.value
	case "=~":
		return m.re.MatchString(v)
	default: // "!~"
		return !m.re.MatchString(v)
	}
}

func validLabelName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// ParseDuration reads a Prometheus duration: unit-suffixed numbers in
// decreasing unit order ("1h30m", "24h", "7d", "90s"); zero is rejected.
func ParseDuration(s string) (time.Duration, error) {
	units := []struct {
		suffix string
		d      time.Duration
	}{
		{"y", 365 * 24 * time.Hour}, {"w", 7 * 24 * time.Hour}, {"d", 24 * time.Hour},
		{"h", time.Hour}, {"ms", time.Millisecond}, {"m", time.Minute}, {"s", time.Second},
	}
	rank := map[string]int{"y": 0, "w": 1, "d": 2, "h": 3, "m": 4, "s": 5, "ms": 6}
	rest, total, last := s, time.Duration(0), -1
	for rest != "" {
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 0 || n > 9 {
			return 0, fmt.Errorf("bad duration %q", s)
		}
		num, _ := strconv.Atoi(rest[:n])
		rest = rest[n:]
		var unit time.Duration
		var suffix string
		for _, u := range units {
			if strings.HasPrefix(rest, u.suffix) {
				unit, suffix = u.d, u.suffix
				break
			}
		}
		if unit == 0 || rank[suffix] <= last {
			return 0, fmt.Errorf("bad duration %q", s)
		}
		last = rank[suffix]
		rest = rest[len(suffix):]
		add := time.Duration(num) * unit
		if add/unit != time.Duration(num) || total > math.MaxInt64-add {
			return 0, fmt.Errorf("duration %q too long", s)
		}
		total += add
	}
	if total <= 0 {
		return 0, fmt.Errorf("bad duration %q", s)
	}
	return total, nil
}

// Series is one labelled series as the evaluator sees it.
type Series struct {
	Labels map[string]string // without __name__
	// ValueAt is the sample at t: a counter's cumulative total or a gauge.
	ValueAt func(t time.Time) float64
	// Increase is a counter's growth over (from, to]; nil for gauges, whose
	// simulated values are constant (so they never increase).
	Increase func(from, to time.Time) float64
}

// Source lists the series of a metric name; "" asks for every metric.
// The returned map is keyed by metric name.
type Source func(name string) map[string][]Series

// Sample is one element of an instant vector.
type Sample struct {
	Labels map[string]string
	Value  float64
}

// defaultWindow is the lookbehind of increase()/rate() written without
// a [range], as VictoriaMetrics (Fly's backend) allows: its default step.
const defaultWindow = 5 * time.Minute

// Eval evaluates e at time at, samples in label order.
func Eval(e Expr, at time.Time, src Source) ([]Sample, error) {
	out, err := evalNode(e, at, src)
	if err != nil {
		return nil, err
	}
	sortSamples(out)
	return out, nil
}

// RangeSeries is one series of a range query's matrix.
type RangeSeries struct {
	Labels map[string]string
	Times  []time.Time
	Values []float64
}

// EvalRange evaluates e at each of times (oldest first) and gathers
// the samples into series by label set, in label order. src is asked once
// per metric, not once per step.
func EvalRange(e Expr, times []time.Time, src Source) ([]RangeSeries, error) {
	memo := map[string]map[string][]Series{}
	cached := func(name string) map[string][]Series {
		if m, ok := memo[name]; ok {
			return m
		}
		m := src(name)
		memo[name] = m
		return m
	}
	byKey := map[string]*RangeSeries{}
	var keys []string
	for _, at := range times {
		samples, err := evalNode(e, at, cached)
		if err != nil {
			return nil, err
		}
		for _, smp := range samples {
			k := LabelKey(smp.Labels)
			rs := byKey[k]
			if rs == nil {
				rs = &RangeSeries{Labels: smp.Labels}
				byKey[k] = rs
				keys = append(keys, k)
			}
			rs.Times = append(rs.Times, at)
			rs.Values = append(rs.Values, smp.Value)
		}
	}
	sort.Strings(keys)
	out := make([]RangeSeries, 0, len(keys))
	for _, k := range keys {
		out = append(out, *byKey[k])
	}
	return out, nil
}

// evalNode evaluates e at time at, in no particular order.
func evalNode(e Expr, at time.Time, src Source) ([]Sample, error) {
	var out []Sample
	switch e := e.(type) {
	case *selectorExpr:
		if e.window > 0 {
			return nil, errors.New("a range selector needs a function such as increase() in an instant query")
		}
		for name, series := range src(e.name) {
			for _, s := range series {
				if e.selects(name, s.Labels) {
					l := copyLabels(s.Labels)
					l["__name__"] = name
					out = append(out, Sample{l, s.ValueAt(at)})
				}
			}
		}
	case *callExpr:
		w := e.arg.window
		if w == 0 {
			w = defaultWindow
		}
		for name, series := range src(e.arg.name) {
			for _, s := range series {
				if !e.arg.selects(name, s.Labels) {
					continue
				}
				v := 0.0
				if s.Increase != nil {
					v = s.Increase(at.Add(-w), at)
				}
				if e.fn == "rate" {
					v /= w.Seconds()
				}
				out = append(out, Sample{copyLabels(s.Labels), v})
			}
		}
	case *aggExpr:
		in, err := evalNode(e.arg, at, src)
		if err != nil {
			return nil, err
		}
		out = aggregate(e, in)
	default:
		return nil, errors.New("unsupported expression")
	}
	return out, nil
}

func (sel *selectorExpr) selects(name string, labels map[string]string) bool {
	if sel.name != "" && name != sel.name {
		return false
	}
	for _, m := range sel.matchers {
		v := labels[m.label]
		if m.label == "__name__" {
			v = name
		}
		if !m.matches(v) {
			return false
		}
	}
	return true
}

func aggregate(a *aggExpr, in []Sample) []Sample {
	type group struct {
		labels map[string]string
		sum    float64
		min    float64
		max    float64
		n      int
	}
	groups := map[string]*group{}
	var order []string
	for _, s := range in {
		l := groupLabels(a, s.Labels)
		key := LabelKey(l)
		g := groups[key]
		if g == nil {
			g = &group{labels: l, min: s.Value, max: s.Value}
			groups[key] = g
			order = append(order, key)
		}
		g.sum += s.Value
		g.min = math.Min(g.min, s.Value)
		g.max = math.Max(g.max, s.Value)
		g.n++
	}
	out := make([]Sample, 0, len(order))
	for _, key := range order {
		g := groups[key]
		v := g.sum
		switch a.op {
		case "count":
			v = float64(g.n)
		case "min":
			v = g.min
		case "max":
			v = g.max
		case "avg":
			v = g.sum / float64(g.n)
		}
		out = append(out, Sample{g.labels, v})
	}
	return out
}

func groupLabels(a *aggExpr, l map[string]string) map[string]string {
	out := map[string]string{}
	if a.without {
		drop := map[string]bool{"__name__": true}
		for _, n := range a.labels {
			drop[n] = true
		}
		for k, v := range l {
			if !drop[k] {
				out[k] = v
			}
		}
		return out
	}
	for _, n := range a.labels {
		if v, ok := l[n]; ok && v != "" {
			out[n] = v
		}
	}
	return out
}

func copyLabels(l map[string]string) map[string]string {
	out := make(map[string]string, len(l)+1)
	for k, v := range l {
		out[k] = v
	}
	return out
}

// LabelKey is a canonical, unambiguous encoding of a label set.
func LabelKey(l map[string]string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(strconv.Quote(l[k]))
		b.WriteByte(',')
	}
	return b.String()
}

func sortSamples(s []Sample) {
	sort.Slice(s, func(i, j int) bool { return LabelKey(s[i].Labels) < LabelKey(s[j].Labels) })
}
