package graphql

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// Conform checks an answer's data against the schema for the operation
// named opName of query: every selected field present under its alias,
// null only where the schema allows it, lists as lists, each leaf of its
// scalar or enum type. It returns what does not conform; the query must
// validate.
func Conform(query, opName string, data any) ([]string, error) {
	s, err := Schema()
	if err != nil {
		return nil, err
	}
	doc, errs := gqlparser.LoadQueryWithRules(s, query, rules.NewDefaultRules())
	if len(errs) > 0 {
		return nil, errs
	}
	op := doc.Operations.ForName(opName)
	if op == nil {
		return nil, fmt.Errorf("no operation %q", opName)
	}
	root := s.Query
	if op.Operation == ast.Mutation {
		root = s.Mutation
	}
	c := &conformer{schema: s, doc: doc}
	c.object(root, op.SelectionSet, data, "data")
	return c.bad, nil
}

type conformer struct {
	schema *ast.Schema
	doc    *ast.QueryDocument
	bad    []string
}

func (c *conformer) fail(path, format string, args ...any) {
	c.bad = append(c.bad, path+": "+fmt.Sprintf(format, args...))
}

func (c *conformer) object(def *ast.Definition, sel ast.SelectionSet, v any, path string) {
	obj, ok := v.(map[string]any)
	if !ok {
		c.fail(path, "want an object of %s, got %T", def.Name, v)
		return
	}
	e := &executor{schema: c.schema, doc: c.doc}
	for _, f := range e.collect(def, sel) {
		key := f.Alias
		if key == "" {
			key = f.Name
		}
		p := path + "." + key
		fv, present := obj[key]
		if !present {
			c.fail(p, "missing")
			continue
		}
		if f.Name == "__typename" {
			if name, _ := fv.(string); name != def.Name {
				c.fail(p, "__typename %v, want %s", fv, def.Name)
			}
			continue
		}
		c.value(f.Definition.Type, f.SelectionSet, fv, p)
	}
}

func (c *conformer) value(typ *ast.Type, sel ast.SelectionSet, v any, path string) {
	if v == nil {
		if typ.NonNull {
			c.fail(path, "null in a %s", typ.String())
		}
		return
	}
	if typ.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			c.fail(path, "want a list %s, got %T", typ.String(), v)
			return
		}
		for i, item := range list {
			c.value(typ.Elem, sel, item, fmt.Sprintf("%s[%d]", path, i))
		}
		return
	}
	def := c.schema.Types[typ.NamedType]
	switch def.Kind {
	case ast.Enum:
		name, _ := v.(string)
		if !slices.ContainsFunc(def.EnumValues, func(ev *ast.EnumValueDefinition) bool { return ev.Name == name }) {
			c.fail(path, "%v is not a %s", v, def.Name)
		}
	case ast.Scalar:
		if why := scalarProblem(def.Name, v); why != "" {
			c.fail(path, "%s", why)
		}
	case ast.Interface, ast.Union:
		obj, _ := v.(map[string]any)
		name, _ := obj["__typename"].(string)
		concrete := c.schema.Types[name]
		if concrete == nil || !slices.Contains(c.schema.GetPossibleTypes(def), concrete) {
			c.fail(path, "a %s needs the __typename of one of its types, got %q", def.Name, name)
			return
		}
		c.object(concrete, sel, v, path)
	default:
		c.object(def, sel, v, path)
	}
}

// scalarProblem says why v is not a JSON value of scalar name ("" when it is).
func scalarProblem(name string, v any) string {
	number := func() (float64, bool) {
		switch n := v.(type) {
		case float64:
			return n, true
		case json.Number:
			f, err := n.Float64()
			return f, err == nil
		}
		return 0, false
	}
	switch name {
	case "String", "ID":
		if _, ok := v.(string); !ok {
			return fmt.Sprintf("want a string, got %T", v)
		}
	case "Boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Sprintf("want a boolean, got %T", v)
		}
	case "Int":
		if f, ok := number(); !ok || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
			return fmt.Sprintf("want a 32-bit integer, got %v", v)
		}
	case "Float":
		if _, ok := number(); !ok {
			return fmt.Sprintf("want a number, got %v", v)
		}
	case "BigInt":
		if _, ok := number(); !ok {
			if s, isString := v.(string); !isString || strings.Trim(s, "0123456789") != "" {
				return fmt.Sprintf("want an integer, got %v", v)
			}
		}
	case "ISO8601DateTime":
		s, _ := v.(string)
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return fmt.Sprintf("want an ISO 8601 time, got %v", v)
		}
	}
	return "" // JSON and the schema's other custom scalars take any value
}
