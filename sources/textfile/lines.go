package textfile

import (
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// TOMLLines maps each dotted key path in a TOML document to the line where
// it is written, so errors and evidence can say "fly.toml:7". Array tables
// get their index as a path part: the second [[services]] is "services.1".
func TOMLLines(data []byte) (map[string]int, error) {
	w := lineWalker{lines: map[string]int{}, arrays: map[string]int{}}
	w.p.Reset(data)
	table := ""
	for w.p.NextExpression() {
		expr := w.p.Expression()
		switch expr.Kind {
		case unstable.Table:
			table = w.resolve(keyParts(expr))
			w.record(table, expr)
		case unstable.ArrayTable:
			parts := keyParts(expr)
			if len(parts) == 0 {
				continue
			}
			parent := w.resolve(parts[:len(parts)-1])
			base := join(parent, parts[len(parts)-1])
			idx := w.arrays[base]
			w.arrays[base] = idx + 1
			w.record(base, expr)
			table = fmt.Sprintf("%s.%d", base, idx)
			w.record(table, expr)
		case unstable.KeyValue:
			w.keyValue(table, expr)
		}
	}
	return w.lines, w.p.Error()
}

type lineWalker struct {
	p      unstable.Parser
	lines  map[string]int
	arrays map[string]int // array-table path -> number of elements seen
}

// resolve turns header key parts into a path, stepping into the newest
// element of any array table on the way ([[services.ports]] after the
// second [[services]] lives under "services.1").
func (w *lineWalker) resolve(parts []string) string {
	path := ""
	for _, part := range parts {
		path = join(path, part)
		if n, ok := w.arrays[path]; ok && n > 0 {
			path = fmt.Sprintf("%s.%d", path, n-1)
		}
	}
	return path
}

func (w *lineWalker) keyValue(table string, kv *unstable.Node) {
	path := join(table, strings.Join(keyParts(kv), "."))
	w.record(path, kv)
	w.value(path, kv.Value())
}

// value descends into inline tables and arrays so that
// `concurrency = { hard_limit = 25 }` still gets a line for hard_limit.
func (w *lineWalker) value(path string, v *unstable.Node) {
	if v == nil {
		return
	}
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if n := it.Node(); n.Kind == unstable.KeyValue {
				w.keyValue(path, n)
			}
		}
	case unstable.Array:
		it := v.Children()
		for i := 0; it.Next(); i++ {
			w.value(fmt.Sprintf("%s.%d", path, i), it.Node())
		}
	}
}

func (w *lineWalker) record(path string, n *unstable.Node) {
	if _, seen := w.lines[path]; seen {
		return
	}
	if line := w.line(n); line > 0 {
		w.lines[path] = line
	}
}

// line is the line of the node's first key part, or of the node itself.
func (w *lineWalker) line(n *unstable.Node) int {
	if n.Kind == unstable.KeyValue || n.Kind == unstable.Table || n.Kind == unstable.ArrayTable {
		it := n.Key()
		if it.Next() && it.Node().Raw.Length > 0 {
			return w.p.Shape(it.Node().Raw).Start.Line
		}
	}
	if n.Raw.Length > 0 {
		return w.p.Shape(n.Raw).Start.Line
	}
	return 0
}

func keyParts(n *unstable.Node) []string {
	var parts []string
	it := n.Key()
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

func join(prefix, part string) string {
	if prefix == "" {
		return part
	}
	return prefix + "." + part
}
