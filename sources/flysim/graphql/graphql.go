// Package graphql serves a GraphQL API from resolvers over Fly's published
// schema (schema.graphql, the copy fly-go v0.5.0 ships): gqlparser parses
// and validates each request against it and coerces its variables; the
// executor here walks the validated selection set, asks the resolvers for
// what they know and completes every value by its schema type, so an
// answer always has the shape the schema promises. Fields no resolver
// knows answer null when they may, and their type's zero value when they
// must not be null.
package graphql

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sync"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

//go:embed schema.graphql
var schemaText string

var (
	schemaOnce sync.Once
	schema     *ast.Schema
	schemaErr  error
)

// Schema is Fly's schema, parsed once.
func Schema() (*ast.Schema, error) {
	schemaOnce.Do(func() {
		schema, schemaErr = gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: schemaText})
	})
	return schema, schemaErr
}

// Object is a resolved object: its fields by name. A value may be a Field
// to compute it from the field's arguments. Objects of an interface or
// union type name their concrete type under "__typename".
type Object map[string]any

// Field computes a field's value from its arguments.
type Field func(args map[string]any) (any, error)

// Error is a resolver's error with Fly's error code (NOT_FOUND,
// UNAUTHORIZED, …), which flyctl and fly-go read.
type Error struct {
	Message string
	Code    string
}

func (e *Error) Error() string { return e.Message }

// Request is a GraphQL request as clients send it.
type Request struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
}

// Response is a GraphQL answer.
type Response struct {
	Data   any             `json:"data"`
	Errors []responseError `json:"errors,omitempty"`
}

type responseError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
}

// Handler serves POST /graphql. Run executes one operation; it is given
// the query and mutation roots and runs them under whatever lock the
// resolvers need.
type Handler struct {
	Run func(fn func(query, mutation Object))
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req Request
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		writeJSON(w, http.StatusBadRequest, Response{Errors: []responseError{{Message: "invalid GraphQL request: " + err.Error()}}})
		return
	}
	writeJSON(w, http.StatusOK, h.Do(req))
}

// Do parses, validates and runs req.
func (h *Handler) Do(req Request) Response {
	s, err := Schema()
	if err != nil {
		return Response{Errors: []responseError{{Message: "schema: " + err.Error()}}}
	}
	doc, errs := gqlparser.LoadQueryWithRules(s, req.Query, rules.NewDefaultRules())
	if len(errs) > 0 {
		return Response{Errors: fromGQLErrors(errs)}
	}
	op := doc.Operations.ForName(req.OperationName)
	if op == nil {
		return Response{Errors: []responseError{{Message: fmt.Sprintf("no operation %q in the document", req.OperationName)}}}
	}
	vars, err := validator.VariableValues(s, op, req.Variables)
	if err != nil {
		var ge *gqlerror.Error
		if errors.As(err, &ge) {
			return Response{Errors: fromGQLErrors(gqlerror.List{ge})}
		}
		return Response{Errors: []responseError{{Message: err.Error()}}}
	}
	var out Response
	h.Run(func(query, mutation Object) {
		root, rootType := query, s.Query
		if op.Operation == ast.Mutation {
			root, rootType = mutation, s.Mutation
		}
		if rootType == nil {
			out.Errors = append(out.Errors, responseError{Message: "operation not served: " + string(op.Operation)})
			return
		}
		e := &executor{schema: s, doc: doc, vars: vars}
		data, _ := e.object(rootType, op.SelectionSet, root, nil)
		out.Data, out.Errors = data, e.errs
	})
	return out
}

func fromGQLErrors(errs gqlerror.List) []responseError {
	out := make([]responseError, 0, len(errs))
	for _, e := range errs {
		re := responseError{Message: e.Message}
		for _, p := range e.Path {
			re.Path = append(re.Path, p)
		}
		out = append(out, re)
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"errors":[{"message":"internal error"}]}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// executor runs one operation.
type executor struct {
	schema *ast.Schema
	doc    *ast.QueryDocument
	vars   map[string]any
	errs   []responseError
}

// errNull propagates a null that a non-null field may not hold.
var errNull = errors.New("null in a non-null field")

// object completes obj as an object of type def with selections sel.
func (e *executor) object(def *ast.Definition, sel ast.SelectionSet, obj Object, path []any) (map[string]any, error) {
	out := map[string]any{}
	for _, f := range e.collect(def, sel) {
		key := f.Alias
		if key == "" {
			key = f.Name
		}
		p := append(append([]any(nil), path...), key)
		if f.Name == "__typename" {
			out[key] = def.Name
			continue
		}
		if f.Definition == nil {
			continue
		}
		if _, ok := obj[f.Name]; !ok && len(path) == 0 { // a root field the resolvers lack
			e.fail(p, &Error{Message: f.Name + " is not served by this simulator", Code: "NOT_SERVED"})
			if f.Definition.Type.NonNull {
				return nil, errNull
			}
			out[key] = nil
			continue
		}
		raw, err := e.resolve(obj, f)
		if err != nil {
			e.fail(p, err)
			raw = nil
			if f.Definition.Type.NonNull {
				return nil, errNull
			}
		}
		v, err := e.complete(f.Definition.Type, f.SelectionSet, raw, p, err != nil)
		if err != nil {
			if f.Definition.Type.NonNull {
				return nil, errNull
			}
			v = nil
		}
		out[key] = v
	}
	return out, nil
}

func (e *executor) fail(path []any, err error) {
	re := responseError{Message: err.Error(), Path: path}
	var fe *Error
	if errors.As(err, &fe) && fe.Code != "" {
		re.Extensions = map[string]any{"code": fe.Code}
	}
	e.errs = append(e.errs, re)
}

func (e *executor) resolve(obj Object, f *ast.Field) (any, error) {
	v, ok := obj[f.Name]
	if !ok {
		return nil, nil
	}
	if fn, ok := v.(Field); ok {
		return fn(f.ArgumentMap(e.vars))
	}
	return v, nil
}

// collect flattens sel's fields for an object of type def: fragments whose
// type condition def satisfies, @skip and @include applied.
func (e *executor) collect(def *ast.Definition, sel ast.SelectionSet) []*ast.Field {
	var out []*ast.Field
	var walk func(ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, s := range set {
			switch s := s.(type) {
			case *ast.Field:
				if e.included(s.Directives) {
					out = append(out, s)
				}
			case *ast.InlineFragment:
				if e.included(s.Directives) && e.applies(def, s.TypeCondition) {
					walk(s.SelectionSet)
				}
			case *ast.FragmentSpread:
				if fd := e.doc.Fragments.ForName(s.Name); fd != nil && e.included(s.Directives) && e.applies(def, fd.TypeCondition) {
					walk(fd.SelectionSet)
				}
			}
		}
	}
	walk(sel)
	return out
}

func (e *executor) included(ds ast.DirectiveList) bool {
	if d := ds.ForName("skip"); d != nil && d.ArgumentMap(e.vars)["if"] == true {
		return false
	}
	if d := ds.ForName("include"); d != nil && d.ArgumentMap(e.vars)["if"] == false {
		return false
	}
	return true
}

func (e *executor) applies(def *ast.Definition, cond string) bool {
	if cond == "" || cond == def.Name {
		return true
	}
	for _, t := range def.Interfaces {
		if t == cond {
			return true
		}
	}
	if c := e.schema.Types[cond]; c != nil && c.Kind == ast.Union {
		for _, t := range c.Types {
			if t == def.Name {
				return true
			}
		}
	}
	return false
}

// complete turns a resolver's value into the JSON of typ. A missing value
// of a non-null type becomes its zero (failed: the resolver erred, so the
// null propagates instead).
func (e *executor) complete(typ *ast.Type, sel ast.SelectionSet, v any, path []any, failed bool) (any, error) {
	if v == nil || isNilValue(v) {
		if !typ.NonNull {
			return nil, nil
		}
		if failed {
			return nil, errNull
		}
		return e.zero(typ, sel, path)
	}
	if typ.Elem != nil {
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Slice {
			return nil, fmt.Errorf("graphql: %v is not a list", path)
		}
		out := make([]any, rv.Len())
		for i := range out {
			item, err := e.complete(typ.Elem, sel, rv.Index(i).Interface(), append(append([]any(nil), path...), i), false)
			if err != nil {
				return nil, err
			}
			out[i] = item
		}
		return out, nil
	}
	def := e.schema.Types[typ.NamedType]
	switch def.Kind {
	case ast.Scalar, ast.Enum:
		return scalar(def, v), nil
	case ast.Interface, ast.Union:
		obj, _ := v.(Object)
		name, _ := obj["__typename"].(string)
		concrete := e.schema.Types[name]
		if concrete == nil {
			return nil, fmt.Errorf("graphql: no concrete type for %s at %v", def.Name, path)
		}
		return e.object(concrete, sel, obj, path)
	default:
		obj, ok := v.(Object)
		if !ok {
			return nil, fmt.Errorf("graphql: %v is not an object", path)
		}
		return e.object(def, sel, obj, path)
	}
}

func isNilValue(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil() && rv.Kind() != reflect.Slice
	}
	return false
}

// zero is the value of a non-null typ that nothing resolved.
func (e *executor) zero(typ *ast.Type, sel ast.SelectionSet, path []any) (any, error) {
	if typ.Elem != nil {
		return []any{}, nil
	}
	def := e.schema.Types[typ.NamedType]
	switch def.Kind {
	case ast.Enum:
		return def.EnumValues[0].Name, nil
	case ast.Scalar:
		switch def.Name {
		case "Int", "Float":
			return 0, nil
		case "BigInt":
			return "0", nil
		case "Boolean":
			return false, nil
		case "ISO8601DateTime":
			return time.Unix(0, 0).UTC().Format(time.RFC3339), nil
		case "JSON":
			return map[string]any{}, nil
		}
		return "", nil
	case ast.Interface, ast.Union:
		if types := e.schema.GetPossibleTypes(def); len(types) > 0 {
			return e.object(types[0], sel, Object{}, path)
		}
		return nil, errNull
	}
	return e.object(def, sel, Object{}, path)
}

// scalar serializes a leaf value.
func scalar(def *ast.Definition, v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format(time.RFC3339)
	case fmt.Stringer:
		if def.Kind == ast.Enum || def.Name == "String" || def.Name == "ID" {
			return x.String()
		}
	}
	switch def.Name {
	case "String", "ID":
		switch x := v.(type) {
		case string:
			return x
		case int, int64, int32, uint64:
			return fmt.Sprint(x)
		}
	case "BigInt":
		return fmt.Sprint(v) // Fly writes its big integers as strings
	}
	return v
}
