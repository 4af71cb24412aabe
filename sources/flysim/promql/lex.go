package promql

import (
	"fmt"
	"strconv"
	"strings"
)

type tokKind int

const (
	tkEOF    tokKind = iota
	tkIdent          // metric, label, function or keyword
	tkString         // a label value, unquoted
	tkOp             // = != =~ !~
	tkWindow         // the text inside [...]
	tkLParen
	tkRParen
	tkLBrace
	tkRBrace
	tkComma
)

type token struct {
	kind tokKind
	text string
	pos  int
}

func (t token) String() string {
	if t.kind == tkEOF {
		return "end of query"
	}
	return strconv.Quote(t.text)
}

var punct = map[byte]tokKind{'(': tkLParen, ')': tkRParen, '{': tkLBrace, '}': tkRBrace, ',': tkComma}

// maxQuery bounds what the lexer reads; real queries are far shorter.
const maxQuery = 16 << 10

// lex splits a query into tokens, ending with tkEOF.
func lex(q string) ([]token, error) {
	if len(q) > maxQuery {
		return nil, fmt.Errorf("query longer than %d bytes", maxQuery)
	}
	var toks []token
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#': // a comment runs to the end of the line
			for i < len(q) && q[i] != '\n' {
				i++
			}
		case isIdentStart(c):
			j := i + 1
			for j < len(q) && isIdentPart(q[j]) {
				j++
			}
			toks = append(toks, token{tkIdent, q[i:j], i})
			i = j
		case c == '"' || c == '\'' || c == '`':
			s, n, err := lexString(q[i:])
			if err != nil {
				return nil, fmt.Errorf("%v at position %d", err, i)
			}
			toks = append(toks, token{tkString, s, i})
			i += n
		case c == '[':
			j := strings.IndexByte(q[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("unclosed '[' at position %d", i)
			}
			toks = append(toks, token{tkWindow, strings.TrimSpace(q[i+1 : i+j]), i})
			i += j + 1
		case c == '=' || c == '!':
			op := string(c)
			if i+1 < len(q) && (q[i+1] == '~' || q[i+1] == '=') {
				op += string(q[i+1])
			}
			if op == "!" || op == "==" {
				return nil, fmt.Errorf("unsupported operator %q at position %d", op, i)
			}
			toks = append(toks, token{tkOp, op, i})
			i += len(op)
		default:
			kind, ok := punct[c]
			if !ok {
				return nil, fmt.Errorf("unexpected character %q at position %d", rune(c), i)
			}
			toks = append(toks, token{kind, string(c), i})
			i++
		}
	}
	return append(toks, token{kind: tkEOF, pos: len(q)}), nil
}

func isIdentStart(c byte) bool {
	return c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// lexString reads a quoted string at the start of s and returns its value
// and how many bytes it took. Double and single quotes take Go escapes;
// backticks are raw, as in PromQL.
func lexString(s string) (string, int, error) {
	quote := s[0]
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if quote != '`' {
				i++
			}
		case quote:
			body := s[1:i]
			if quote == '`' {
				return body, i + 1, nil
			}
			if quote == '\'' {
				// Re-quote for strconv: \' needs no escape, " does.
				body = strings.ReplaceAll(body, `\'`, `'`)
				body = strings.ReplaceAll(body, `"`, `\"`)
			}
			v, err := strconv.Unquote(`"` + body + `"`)
			if err != nil {
				return "", 0, fmt.Errorf("bad string %s", s[:i+1])
			}
			return v, i + 1, nil
		}
	}
	return "", 0, fmt.Errorf("unterminated string")
}
