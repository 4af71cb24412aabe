package guest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The guest's shell. mvdan.cc/sh parses the command line and expands its
// words (quotes, $VARS, globs against the guest filesystem, $(…)); this file
// evaluates the tree: lists, && and ||, pipes, ( ) and { }, !, assignments
// and the redirections an operator types (2>&1, >/dev/null, < file). Every
// command is one of commands.go's, answered from the simulated machine:
// nothing on the host is read or run. It has no loops or functions, so every
// script ends; output is capped.

const (
	shellMaxOutput = 1 << 20 // bytes of stdout or stderr an exec answers
	shellMaxDepth  = 16      // nested $(…) and sh -c
)

// shell is one run of a command line in a guest.
type shell struct {
	g      View
	fs     *FS
	vars   map[string]string // the environment (no secrets) plus shell variables
	cwd    string
	status int
	depth  int
	exited bool // `exit` ran
}

// stdio is where one command reads and writes.
type stdio struct {
	in       string
	out, err *limitedBuffer
}

// limitedBuffer keeps the first shellMaxOutput bytes.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := shellMaxOutput - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *limitedBuffer) WriteString(s string) (int, error) { return b.Write([]byte(s)) }

func newShell(g View) *shell {
	if g.FS == nil { // a guest made up without an app (unit tests): its image from its bytecode alone
		g.FS = BuildFS(g.Bytecode, nil, g.BootedAt)
	}
	sh := &shell{g: g, fs: g.FS.withVolumes(g.Volumes), vars: g.environ(), cwd: "/app"}
	if sh.fs.lookup(sh.cwd) == nil {
		sh.cwd = "/"
	}
	sh.vars["PWD"] = sh.cwd
	return sh
}

// runScript parses and runs script as `sh -c script` would.
func (sh *shell) runScript(script string, io stdio) int {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(script), "")
	if err != nil {
		fmt.Fprintf(io.err, "sh: 1: %s\n", parseErrText(err))
		return 2
	}
	return sh.stmts(file.Stmts, io)
}

func parseErrText(err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return "Syntax error: " + pe.Text
	}
	return err.Error()
}

func (sh *shell) stmts(list []*syntax.Stmt, io stdio) int {
	for _, st := range list {
		if sh.exited {
			break
		}
		sh.status = sh.stmt(st, io)
	}
	return sh.status
}

func (sh *shell) stmt(st *syntax.Stmt, io stdio) int {
	if st.Background || st.Coprocess || st.Disown {
		fmt.Fprintln(io.err, "sh: 1: background jobs are not run by this simulated guest")
		return 2
	}
	io, err := sh.redirect(st.Redirs, io)
	if err != nil {
		fmt.Fprintf(io.err, "sh: 1: %s\n", err)
		return 2
	}
	code := sh.command(st.Cmd, io)
	if st.Negated {
		if code == 0 {
			return 1
		}
		return 0
	}
	return code
}

// redirect applies the redirections this guest supports.
func (sh *shell) redirect(rs []*syntax.Redirect, io stdio) (stdio, error) {
	for _, r := range rs {
		fd := ""
		if r.N != nil {
			fd = r.N.Value
		}
		target, err := expand.Literal(sh.config(), r.Word)
		if err != nil {
			return io, err
		}
		switch {
		case r.Op == syntax.DplOut && target == "1" && fd == "2":
			io.err = io.out
		case r.Op == syntax.DplOut && target == "2" && (fd == "" || fd == "1"):
			io.out = io.err
		case (r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrClob) && target == "/dev/null":
			switch fd {
			case "", "1":
				io.out = &limitedBuffer{}
			case "2":
				io.err = &limitedBuffer{}
			}
		case r.Op == syntax.RdrAll && target == "/dev/null":
			io.out, io.err = &limitedBuffer{}, &limitedBuffer{}
		case r.Op == syntax.RdrIn && (fd == "" || fd == "0"):
			text, err := sh.readFile(target)
			if err != nil {
				return io, fmt.Errorf("cannot open %s: %s", target, errText(err))
			}
			io.in = text
		case r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrClob:
			return io, fmt.Errorf("cannot create %s: this simulated guest writes no files", target)
		default:
			return io, fmt.Errorf("redirection %s is not supported by this simulated guest", r.Op)
		}
	}
	return io, nil
}

func (sh *shell) command(cmd syntax.Command, io stdio) int {
	switch c := cmd.(type) {
	case nil:
		return 0
	case *syntax.CallExpr:
		return sh.call(c, io)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt:
			if code := sh.stmt(c.X, io); code != 0 || sh.exited {
				return code
			}
			return sh.stmt(c.Y, io)
		case syntax.OrStmt:
			if code := sh.stmt(c.X, io); code == 0 || sh.exited {
				return code
			}
			return sh.stmt(c.Y, io)
		case syntax.Pipe, syntax.PipeAll:
			// The left side runs to the end first: no command here streams
			// forever, so a pipe is its output handed on.
			mid := stdio{in: io.in, out: &limitedBuffer{}, err: io.err}
			if c.Op == syntax.PipeAll {
				mid.err = mid.out
			}
			// Each side runs in a subshell, as in dash.
			left, right := *sh, *sh
			left.vars, right.vars = copyVars(sh.vars), copyVars(sh.vars)
			left.stmt(c.X, mid)
			return right.stmt(c.Y, stdio{in: mid.out.String(), out: io.out, err: io.err})
		}
	case *syntax.Subshell:
		sub := *sh
		sub.vars = copyVars(sh.vars)
		sub.exited = false
		return sub.stmts(c.Stmts, io)
	case *syntax.Block:
		return sh.stmts(c.Stmts, io)
	}
	fmt.Fprintf(io.err, "sh: 1: %s is not supported by this simulated guest (it runs commands, pipes, && || ; and ( ))\n", nodeName(cmd))
	return 2
}

func nodeName(cmd syntax.Command) string {
	switch cmd.(type) {
	case *syntax.IfClause:
		return "if"
	case *syntax.WhileClause:
		return "while/until"
	case *syntax.ForClause:
		return "for"
	case *syntax.CaseClause:
		return "case"
	case *syntax.FuncDecl:
		return "a function"
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", cmd), "*syntax.")
}

func copyVars(v map[string]string) map[string]string {
	out := make(map[string]string, len(v))
	for k, x := range v {
		out[k] = x
	}
	return out
}

// call runs a simple command: assignments, then the expanded words.
func (sh *shell) call(c *syntax.CallExpr, io stdio) int {
	cfg := sh.config()
	env := sh.vars
	if len(c.Args) > 0 && len(c.Assigns) > 0 {
		env = copyVars(sh.vars) // FOO=x cmd: for cmd only
	}
	for _, as := range c.Assigns {
		if as.Name == nil || as.Array != nil || as.Index != nil {
			fmt.Fprintln(io.err, "sh: 1: only NAME=value assignments are supported by this simulated guest")
			return 2
		}
		val := ""
		if as.Value != nil {
			v, err := expand.Literal(cfg, as.Value)
			if err != nil {
				fmt.Fprintf(io.err, "sh: 1: %s\n", err)
				return 2
			}
			val = v
		}
		env[as.Name.Value] = val
	}
	args, err := expand.Fields(cfg, c.Args...)
	if err != nil {
		fmt.Fprintf(io.err, "sh: 1: %s\n", err)
		return 2
	}
	if len(args) == 0 {
		return 0
	}
	saved := sh.vars
	sh.vars = env
	defer func() {
		if len(c.Assigns) > 0 && len(c.Args) > 0 {
			sh.vars = saved
		}
	}()
	return sh.run(args, io)
}

// config is the expansion of words against the guest: its variables, its
// filesystem for globs, $(…) run by this shell.
func (sh *shell) config() *expand.Config {
	return &expand.Config{
		Env:      shellEnv{sh},
		NullGlob: false,
		ReadDir2: func(dir string) ([]fs.DirEntry, error) {
			n := sh.fs.lookup(cleanPath(sh.cwd, dir))
			if n == nil || !n.dir {
				return nil, fs.ErrNotExist
			}
			var out []fs.DirEntry
			for _, k := range n.children() {
				out = append(out, dirEntry{k})
			}
			return out, nil
		},
		CmdSubst: func(w io.Writer, cs *syntax.CmdSubst) error {
			if sh.depth >= shellMaxDepth {
				return errors.New("too many nested command substitutions")
			}
			sub := *sh
			sub.vars, sub.depth = copyVars(sh.vars), sh.depth+1
			out := &limitedBuffer{}
			sub.stmts(cs.Stmts, stdio{out: out, err: &limitedBuffer{}})
			_, err := w.Write(out.Bytes())
			return err
		},
	}
}

// shellEnv is expand's view of the shell's variables.
type shellEnv struct{ sh *shell }

func (e shellEnv) Get(name string) expand.Variable {
	switch {
	case name == "?":
		return expand.Variable{Set: true, Kind: expand.String, Str: fmt.Sprint(e.sh.status)}
	case name == "$":
		return expand.Variable{Set: true, Kind: expand.String, Str: "712"}
	case strings.HasPrefix(name, "HOME "):
		// ~user: answered here, so expansion never asks the host's user
		// database. Only root has a home in this image.
		if strings.TrimPrefix(name, "HOME ") == "root" {
			return expand.Variable{Set: true, Kind: expand.String, Str: "/root"}
		}
		return expand.Variable{Set: true, Kind: expand.String, Str: "~" + strings.TrimPrefix(name, "HOME ")}
	}
	if v, ok := e.sh.vars[name]; ok {
		return expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}
	}
	return expand.Variable{}
}

func (e shellEnv) Each(fn func(name string, vr expand.Variable) bool) {
	for k, v := range e.sh.vars {
		if !fn(k, expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}) {
			return
		}
	}
}

type dirEntry struct{ n *vnode }

func (d dirEntry) Name() string { return d.n.name }
func (d dirEntry) IsDir() bool  { return d.n.dir }
func (d dirEntry) Type() fs.FileMode {
	if d.n.dir {
		return fs.ModeDir
	}
	return 0
}
func (d dirEntry) Info() (fs.FileInfo, error) { return fileInfo(d), nil }

type fileInfo struct{ n *vnode }

func (f fileInfo) Name() string       { return f.n.name }
func (f fileInfo) Size() int64        { return f.n.size }
func (f fileInfo) Mode() fs.FileMode  { return f.n.mode() }
func (f fileInfo) ModTime() time.Time { return f.n.mtime }
func (f fileInfo) IsDir() bool        { return f.n.dir }
func (f fileInfo) Sys() any           { return nil }

func (n *vnode) mode() fs.FileMode {
	switch {
	case n.dir:
		return fs.ModeDir | 0o755
	case n.exec:
		return 0o755
	case n.gen != nil:
		return 0o444
	}
	return 0o644
}

var (
	errNoEntry = errors.New("no such file or directory")
	errIsDir   = errors.New("is a directory")
)

// errText is an error as coreutils print it ("No such file or directory").
func errText(err error) string {
	s := err.Error()
	return strings.ToUpper(s[:1]) + s[1:]
}

// readFile reads a regular file of the guest by path.
func (sh *shell) readFile(p string) (string, error) {
	n := sh.fs.lookup(cleanPath(sh.cwd, p))
	switch {
	case n == nil:
		return "", errNoEntry
	case n.dir:
		return "", errIsDir
	}
	return n.read(sh.g), nil
}
