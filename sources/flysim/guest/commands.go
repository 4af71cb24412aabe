package guest

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The commands of the simulated guest, each answered from the machine's
// state and its filesystem (fs.go) the way Debian's coreutils, procps
// and grep print them. Options beyond the common ones answer a usage error
// rather than a guess.

type command func(sh *shell, args []string, io stdio) int

var commands map[string]command

func init() {
	commands = map[string]command{
		"cat": cmdCat, "head": cmdHead, "tail": cmdTail, "grep": cmdGrep, "wc": cmdWc,
		"ls": cmdLs, "ps": cmdPs, "df": cmdDf, "free": cmdFree, "mount": cmdMount,
		"printenv": cmdPrintenv, "env": cmdPrintenv, "echo": cmdEcho,
		"true": func(*shell, []string, stdio) int { return 0 }, ":": func(*shell, []string, stdio) int { return 0 },
		"false":    func(*shell, []string, stdio) int { return 1 },
		"uname":    func(sh *shell, a []string, io stdio) int { io.out.WriteString(sh.g.uname(a[1:]) + "\n"); return 0 },
		"hostname": func(sh *shell, _ []string, io stdio) int { io.out.WriteString(sh.g.ID + "\n"); return 0 },
		"whoami":   func(_ *shell, _ []string, io stdio) int { io.out.WriteString("root\n"); return 0 },
		"id": func(_ *shell, _ []string, io stdio) int {
			io.out.WriteString("uid=0(root) gid=0(root) groups=0(root)\n")
			return 0
		},
		"pwd": func(sh *shell, _ []string, io stdio) int { io.out.WriteString(sh.cwd + "\n"); return 0 },
		"cd":  cmdCd, "exit": cmdExit, "uptime": cmdUptime, "which": cmdWhich, "command": cmdCommand,
		"sh": cmdSh, "bash": cmdSh, "dash": cmdSh,
		"python3": cmdPython, "python": cmdPython,
	}
}

// run looks a command up (by its base name, so /bin/cat is cat) and runs it.
func (sh *shell) run(args []string, io stdio) int {
	name := args[0]
	base := path.Base(name)
	if strings.Contains(name, "/") {
		if n := sh.fs.lookup(cleanPath(sh.cwd, name)); n == nil || n.dir {
			fmt.Fprintf(io.err, "sh: 1: %s: not found\n", name)
			return 127
		}
	}
	fn := commands[base]
	if fn == nil || (isPythonName(base) && (sh.g.Bytecode.NotPython || sh.g.Bytecode.Python == "")) {
		fmt.Fprintf(io.err, "sh: 1: %s: not found\n", name)
		return 127
	}
	return fn(sh, args, io)
}

func isPythonName(n string) bool { return n == "python3" || n == "python" }

// inputs reads the named files (or stdin for none or "-"), reporting
// missing ones on stderr as prog does.
func (sh *shell) inputs(prog string, files []string, io stdio, each func(name, text string)) int {
	if len(files) == 0 {
		each("-", io.in)
		return 0
	}
	code := 0
	for _, f := range files {
		if f == "-" {
			each("-", io.in)
			continue
		}
		text, err := sh.readFile(f)
		if err != nil {
			fmt.Fprintf(io.err, "%s: %s: %s\n", prog, f, errText(err))
			code = 1
			continue
		}
		each(f, text)
	}
	return code
}

func usage(io stdio, prog, opt string) int {
	fmt.Fprintf(io.err, "%s: invalid option -- '%s'\n", prog, strings.TrimLeft(opt, "-"))
	return 2
}

func cmdCat(sh *shell, args []string, io stdio) int {
	var files []string
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") && a != "-" {
			return usage(io, "cat", a)
		}
		files = append(files, a)
	}
	return sh.inputs("cat", files, io, func(_, text string) { io.out.WriteString(text) })
}

// lineCount reads head/tail's -n N, -N and -nN forms.
func lineCount(prog string, args []string, io stdio) (n int, files []string, ok bool) {
	n = 10
	for i := 0; i < len(args); i++ {
		a := args[i]
		var v string
		switch {
		case a == "-n" && i+1 < len(args):
			i++
			v = args[i]
		case strings.HasPrefix(a, "-n"):
			v = a[2:]
		case len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9':
			v = a[1:]
		case strings.HasPrefix(a, "-") && a != "-":
			usage(io, prog, a)
			return 0, nil, false
		default:
			files = append(files, a)
			continue
		}
		x, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
		if err != nil || x < 0 {
			fmt.Fprintf(io.err, "%s: invalid number of lines: '%s'\n", prog, v)
			return 0, nil, false
		}
		n = x
	}
	return n, files, true
}

func splitLines(text string) []string {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func cmdHead(sh *shell, args []string, io stdio) int {
	n, files, ok := lineCount("head", args[1:], io)
	if !ok {
		return 1
	}
	return sh.inputs("head", files, io, func(name, text string) {
		if len(files) > 1 {
			fmt.Fprintf(io.out, "==> %s <==\n", name)
		}
		lines := splitLines(text)
		io.out.WriteString(strings.Join(lines[:min(n, len(lines))], ""))
	})
}

func cmdTail(sh *shell, args []string, io stdio) int {
	n, files, ok := lineCount("tail", args[1:], io)
	if !ok {
		return 1
	}
	return sh.inputs("tail", files, io, func(name, text string) {
		if len(files) > 1 {
			fmt.Fprintf(io.out, "==> %s <==\n", name)
		}
		lines := splitLines(text)
		io.out.WriteString(strings.Join(lines[max(0, len(lines)-n):], ""))
	})
}

// cmdGrep: -i -v -c -n -q -F -E (Go's RE2 syntax stands in for POSIX
// regular expressions; patterns are untrusted and RE2 runs in linear time).
func cmdGrep(sh *shell, args []string, io stdio) int {
	var ignoreCase, invert, count, number, quiet, fixed bool
	var pattern *string
	var files []string
	for _, a := range args[1:] {
		if pattern == nil && strings.HasPrefix(a, "-") && len(a) > 1 {
			for _, c := range a[1:] {
				switch c {
				case 'i':
					ignoreCase = true
				case 'v':
					invert = true
				case 'c':
					count = true
				case 'n':
					number = true
				case 'q':
					quiet = true
				case 'F':
					fixed = true
				case 'E':
				default:
					return usage(io, "grep", string(c))
				}
			}
			continue
		}
		if pattern == nil {
			p := a
			pattern = &p
			continue
		}
		files = append(files, a)
	}
	if pattern == nil {
		io.err.WriteString("Usage: grep [OPTION]... PATTERNS [FILE]...\n")
		return 2
	}
	expr := *pattern
	if fixed {
		expr = regexp.QuoteMeta(expr)
	}
	if ignoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		fmt.Fprintf(io.err, "grep: %s\n", err)
		return 2
	}
	matched := false
	code := sh.inputs("grep", files, io, func(name, text string) {
		n := 0
		for i, line := range splitLines(text) {
			if re.MatchString(strings.TrimSuffix(line, "\n")) == invert {
				continue
			}
			n++
			matched = true
			if quiet || count {
				continue
			}
			if len(files) > 1 {
				io.out.WriteString(name + ":")
			}
			if number {
				fmt.Fprintf(io.out, "%d:", i+1)
			}
			io.out.WriteString(strings.TrimSuffix(line, "\n") + "\n")
		}
		if count && !quiet {
			if len(files) > 1 {
				io.out.WriteString(name + ":")
			}
			fmt.Fprintf(io.out, "%d\n", n)
		}
	})
	switch {
	case code != 0:
		return 2
	case matched:
		return 0
	}
	return 1
}

func cmdWc(sh *shell, args []string, io stdio) int {
	var l, w, c bool
	var files []string
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") && a != "-" {
			for _, ch := range a[1:] {
				switch ch {
				case 'l':
					l = true
				case 'w':
					w = true
				case 'c', 'm':
					c = true
				default:
					return usage(io, "wc", string(ch))
				}
			}
			continue
		}
		files = append(files, a)
	}
	if !l && !w && !c {
		l, w, c = true, true, true
	}
	var tl, tw, tc int
	line := func(nl, nw, nc int, name string) {
		var parts []string
		for _, x := range []struct {
			on bool
			v  int
		}{{l, nl}, {w, nw}, {c, nc}} {
			if x.on {
				parts = append(parts, fmt.Sprintf("%7d", x.v))
			}
		}
		out := strings.Join(parts, " ")
		if len(parts) == 1 && len(files) <= 1 {
			out = strings.TrimSpace(out) // one count of one input: no padding, as GNU wc
		}
		if name != "-" {
			out += " " + name
		}
		io.out.WriteString(out + "\n")
	}
	code := sh.inputs("wc", files, io, func(name, text string) {
		nl, nw, nc := strings.Count(text, "\n"), len(strings.Fields(text)), len(text)
		tl, tw, tc = tl+nl, tw+nw, tc+nc
		line(nl, nw, nc, name)
	})
	if len(files) > 1 {
		line(tl, tw, tc, "total")
	}
	return code
}

// cmdLs: -l -a -A -h -1 -d, one name per line (exec has no terminal).
func cmdLs(sh *shell, args []string, io stdio) int {
	var long, all, almost, human, dirOnly bool
	var paths []string
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			for _, c := range a[1:] {
				switch c {
				case 'l':
					long = true
				case 'a':
					all = true
				case 'A':
					almost = true
				case 'h':
					human = true
				case 'd':
					dirOnly = true
				case '1':
				default:
					return usage(io, "ls", string(c))
				}
			}
			continue
		}
		paths = append(paths, a)
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	entry := func(n *vnode, name string) {
		if !long {
			io.out.WriteString(name + "\n")
			return
		}
		size := strconv.FormatInt(n.size, 10)
		if n.dir {
			size = "4096"
		}
		if human {
			size = humanSize(n.size, n.dir)
		}
		links := 1
		if n.dir {
			links = 2
			for _, k := range n.kids {
				if k.dir {
					links++
				}
			}
		}
		fmt.Fprintf(io.out, "%s %d root root %s %s %s\n", modeString(n), links, size, lsTime(n.mtime, sh.g.Now), name)
	}
	code := 0
	var files, dirs []string
	for _, p := range paths {
		n := sh.fs.lookup(cleanPath(sh.cwd, p))
		switch {
		case n == nil:
			fmt.Fprintf(io.err, "ls: cannot access '%s': No such file or directory\n", p)
			code = 2
		case n.dir && !dirOnly:
			dirs = append(dirs, p)
		default:
			files = append(files, p)
		}
	}
	for _, p := range files {
		entry(sh.fs.lookup(cleanPath(sh.cwd, p)), p)
	}
	for i, p := range dirs {
		n := sh.fs.lookup(cleanPath(sh.cwd, p))
		if len(paths) > 1 {
			if i > 0 || len(files) > 0 {
				io.out.WriteString("\n")
			}
			io.out.WriteString(p + ":\n")
		}
		kids := n.children()
		if long {
			var blocks int64
			for _, k := range kids {
				if all || almost || !strings.HasPrefix(k.name, ".") {
					blocks += (max(k.size, 4096) + 4095) / 4096 * 4
				}
			}
			fmt.Fprintf(io.out, "total %d\n", blocks)
		}
		if all {
			entry(n, ".")
			entry(n, "..")
		}
		for _, k := range kids {
			if strings.HasPrefix(k.name, ".") && !all && !almost {
				continue
			}
			entry(k, k.name)
		}
	}
	return code
}

func modeString(n *vnode) string {
	m := n.mode()
	b := []byte("-rwxrwxrwx")
	if n.dir {
		b[0] = 'd'
	}
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) == 0 {
			b[i+1] = '-'
		}
	}
	return string(b)
}

// lsTime is ls's date column: month day HH:MM within six months, else the year.
func lsTime(t, now time.Time) string {
	if now.Sub(t) < 182*24*time.Hour && !t.After(now) {
		return t.UTC().Format("Jan _2 15:04")
	}
	return t.UTC().Format("Jan _2  2006")
}

func humanSize(n int64, dir bool) string {
	if dir {
		return "4.0K"
	}
	if n < 1024 {
		return strconv.FormatInt(n, 10)
	}
	v := float64(n)
	for _, u := range []string{"K", "M", "G", "T"} {
		v /= 1024
		if v < 1024 {
			if v < 10 {
				return fmt.Sprintf("%.1f%s", v, u)
			}
			return fmt.Sprintf("%.0f%s", v, u)
		}
	}
	return fmt.Sprintf("%.0fP", v/1024)
}

// cmdPs prints the guest's process table (the same one GET …/ps answers):
// `ps` alone shows the exec's own processes; aux, -ef and -e show them all.
func cmdPs(sh *shell, args []string, io stdio) int {
	format := "default"
	all := false
	for _, a := range args[1:] {
		switch a {
		case "aux", "-aux", "auxww", "axu":
			format, all = "aux", true
		case "-ef", "-eF", "-e", "-A", "ax", "-ax":
			if format == "default" {
				format = "ef"
				if a == "-e" || a == "-A" || a == "ax" || a == "-ax" {
					format = "default"
				}
			}
			all = true
		default:
			fmt.Fprintf(io.err, "error: unsupported option (BSD syntax)\n\nUsage:\n ps [options]\n")
			return 1
		}
	}
	procs := sh.g.procs(strings.Join(args, " "))
	if !all {
		var own []proc
		for _, p := range procs {
			if p.pid >= execPID {
				own = append(own, p)
			}
		}
		procs = own
	}
	totalKB := sh.g.memTotalKB()
	up := sh.g.uptime()
	switch format {
	case "aux":
		io.out.WriteString("USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n")
		for _, p := range procs {
			pct := float64(p.cpuSec) / max(up.Seconds(), 1) * 100
			fmt.Fprintf(io.out, "root  %10d %4.1f %4.1f %6d %5d ?        %-4s %5s %3d:%02d %s\n", p.pid, pct,
				float64(p.rssKB)*100/float64(max(totalKB, 1)), p.rssKB*3, p.rssKB, p.stat,
				sh.g.BootedAt.Add(p.startedAfter).UTC().Format("15:04"), p.cpuSec/60, p.cpuSec%60, p.cmd)
		}
	case "ef":
		io.out.WriteString("UID          PID    PPID  C STIME TTY          TIME CMD\n")
		for _, p := range procs {
			fmt.Fprintf(io.out, "root  %10d %7d  0 %s ?        %s %s\n", p.pid, p.ppid,
				sh.g.BootedAt.Add(p.startedAfter).UTC().Format("15:04"), psTime(p.cpuSec), p.cmd)
		}
	default:
		io.out.WriteString("    PID TTY          TIME CMD\n")
		for _, p := range procs {
			fmt.Fprintf(io.out, "%7d ?        %s %s\n", p.pid, psTime(p.cpuSec), path.Base(strings.Fields(p.cmd)[0]))
		}
	}
	return 0
}

func psTime(sec int) string { return fmt.Sprintf("%02d:%02d:%02d", sec/3600, sec/60%60, sec%60) }

// cmdDf: every mount with a size (mounts.go), or the one holding each
// path named.
func cmdDf(sh *shell, args []string, io stdio) int {
	human := false
	var paths []string
	for _, a := range args[1:] {
		switch {
		case a == "-h" || a == "-H":
			human = true
		case a == "-k" || a == "-P":
		case strings.HasPrefix(a, "-"):
			return usage(io, "df", a)
		default:
			paths = append(paths, a)
		}
	}
	var rows []mount
	code := 0
	if len(paths) == 0 {
		for _, m := range sh.g.mounts() {
			if m.sizeKB > 0 {
				rows = append(rows, m)
			}
		}
	}
	for _, p := range paths {
		full := cleanPath(sh.cwd, p)
		if sh.fs.lookup(full) == nil {
			fmt.Fprintf(io.err, "df: %s: No such file or directory\n", p)
			code = 1
			continue
		}
		rows = append(rows, sh.g.mountOf(full))
	}
	if len(rows) == 0 {
		return code
	}
	if human {
		io.out.WriteString("Filesystem      Size  Used Avail Use% Mounted on\n")
	} else {
		io.out.WriteString("Filesystem     1K-blocks    Used Available Use% Mounted on\n")
	}
	for _, m := range rows {
		pct := (m.usedKB*100 + m.sizeKB - 1) / max(m.sizeKB, 1)
		if human {
			fmt.Fprintf(io.out, "%-15s %4s %5s %5s %3d%% %s\n", m.device, humanSize(m.sizeKB*1024, false),
				humanSize(m.usedKB*1024, false), humanSize(m.availKB*1024, false), pct, m.path)
		} else {
			fmt.Fprintf(io.out, "%-14s %10d %7d %9d %3d%% %s\n", m.device, m.sizeKB, m.usedKB, m.availKB, pct, m.path)
		}
	}
	return code
}

// cmdMount lists the mounts as util-linux's mount does; it mounts nothing.
func cmdMount(sh *shell, args []string, io stdio) int {
	for _, a := range args[1:] {
		if a != "-l" {
			fmt.Fprintf(io.err, "mount: this simulated guest mounts nothing\n")
			return 32
		}
	}
	for _, m := range sh.g.mounts() {
		fmt.Fprintf(io.out, "%s on %s type %s (%s)\n", m.device, m.path, m.fstype, m.options)
	}
	return 0
}

// cmdFree prints /proc/meminfo's figures the way procps does.
func cmdFree(sh *shell, args []string, io stdio) int {
	div, human := int64(1), false
	for _, a := range args[1:] {
		switch a {
		case "-k", "--kibi":
		case "-m", "--mebi":
			div = 1024
		case "-g", "--gibi":
			div = 1024 * 1024
		case "-h", "--human":
			human = true
		case "-b", "--bytes":
			div = -1
		case "-w", "--wide", "-t", "--total":
		default:
			return usage(io, "free", a)
		}
	}
	mi := sh.g.meminfoValues()
	total, free, avail := mi["MemTotal"], mi["MemFree"], mi["MemAvailable"]
	buffcache := mi["Buffers"] + mi["Cached"] + mi["SReclaimable"]
	used := total - free - buffcache
	swapTotal, swapFree := mi["SwapTotal"], mi["SwapFree"]
	f := func(kb int64) string {
		switch {
		case human:
			return humanSize(kb*1024, false) + "i"
		case div == -1:
			return strconv.FormatInt(kb*1024, 10)
		}
		return strconv.FormatInt(kb/div, 10)
	}
	fmt.Fprintf(io.out, "%15s %11s %11s %11s %11s %11s\n", "total", "used", "free", "shared", "buff/cache", "available")
	fmt.Fprintf(io.out, "Mem:    %11s %11s %11s %11s %11s %11s\n", f(total), f(used), f(free), f(mi["Shmem"]), f(buffcache), f(avail))
	fmt.Fprintf(io.out, "Swap:   %11s %11s %11s\n", f(swapTotal), f(swapTotal-swapFree), f(swapFree))
	return 0
}

// cmdPrintenv: the environment (never a secret), sorted; with names, their
// values.
func cmdPrintenv(sh *shell, args []string, io stdio) int {
	if len(args) > 1 {
		if path.Base(args[0]) == "env" {
			// env NAME=x cmd …: run cmd with more variables.
			i := 1
			vars := copyVars(sh.vars)
			for ; i < len(args) && strings.Contains(args[i], "=") && !strings.HasPrefix(args[i], "-"); i++ {
				k, v, _ := strings.Cut(args[i], "=")
				vars[k] = v
			}
			if i < len(args) {
				sub := *sh
				sub.vars = vars
				return sub.run(args[i:], io)
			}
			sh = &shell{g: sh.g, fs: sh.fs, vars: vars, cwd: sh.cwd}
		} else {
			code := 0
			for _, n := range args[1:] {
				if v, ok := sh.vars[n]; ok {
					io.out.WriteString(v + "\n")
				} else {
					code = 1
				}
			}
			return code
		}
	}
	keys := make([]string, 0, len(sh.vars))
	for k := range sh.vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		io.out.WriteString(k + "=" + sh.vars[k] + "\n")
	}
	return 0
}

func cmdEcho(_ *shell, args []string, io stdio) int {
	a := args[1:]
	newline := true
	if len(a) > 0 && a[0] == "-n" {
		newline, a = false, a[1:]
	}
	io.out.WriteString(strings.Join(a, " "))
	if newline {
		io.out.WriteString("\n")
	}
	return 0
}

func cmdCd(sh *shell, args []string, io stdio) int {
	dir := sh.vars["HOME"]
	if len(args) > 1 {
		dir = args[1]
	}
	p := cleanPath(sh.cwd, dir)
	if n := sh.fs.lookup(p); n == nil || !n.dir {
		fmt.Fprintf(io.err, "sh: 1: cd: can't cd to %s\n", dir)
		return 2
	}
	sh.cwd = p
	sh.vars["PWD"] = p
	return 0
}

func cmdExit(sh *shell, args []string, io stdio) int {
	code := sh.status
	if len(args) > 1 {
		n, err := strconv.Atoi(args[1])
		if err != nil {
			fmt.Fprintf(io.err, "sh: 1: exit: Illegal number: %s\n", args[1])
			return 2
		}
		code = n & 0xff
	}
	sh.exited = true
	return code
}

func cmdUptime(sh *shell, _ []string, io stdio) int {
	up := sh.g.uptime()
	fmt.Fprintf(io.out, " %s up %s,  0 users,  load average: %s\n", sh.g.Now.UTC().Format("15:04:05"),
		uptimeText(up), strings.Join(strings.Fields(sh.g.procLoadavg())[:3], ", "))
	return 0
}

func uptimeText(d time.Duration) string {
	days := int(d.Hours()) / 24
	hm := fmt.Sprintf("%2d:%02d", int(d.Hours())%24, int(d.Minutes())%60)
	if d < time.Hour {
		hm = fmt.Sprintf("%d min", int(d.Minutes()))
	}
	if days > 0 {
		return fmt.Sprintf("%d day%s, %s", days, map[bool]string{true: "", false: "s"}[days == 1], hm)
	}
	return hm
}

// binPath is where a command lives in the guest's PATH.
func (sh *shell) binPath(name string) string {
	for _, dir := range strings.Split(sh.vars["PATH"], ":") {
		if n := sh.fs.lookup(path.Join(dir, name)); n != nil && !n.dir && n.exec {
			return path.Join(dir, name)
		}
	}
	return ""
}

func cmdWhich(sh *shell, args []string, io stdio) int {
	code := 0
	for _, n := range args[1:] {
		if p := sh.binPath(n); p != "" {
			io.out.WriteString(p + "\n")
		} else {
			code = 1
		}
	}
	return code
}

func cmdCommand(sh *shell, args []string, io stdio) int {
	if len(args) > 2 && args[1] == "-v" {
		return cmdWhich(sh, append([]string{"which"}, args[2:]...), io)
	}
	if len(args) > 1 {
		return sh.run(args[1:], io)
	}
	return 0
}

// cmdSh runs `sh -c script` (a nested shell) or reads a script on stdin.
func cmdSh(sh *shell, args []string, io stdio) int {
	if sh.depth >= shellMaxDepth {
		io.err.WriteString("sh: 1: too many nested shells\n")
		return 2
	}
	sub := newShell(sh.g)
	sub.vars, sub.cwd, sub.depth = copyVars(sh.vars), sh.cwd, sh.depth+1
	switch {
	case len(args) >= 3 && args[1] == "-c":
		return sub.runScript(args[2], io)
	case len(args) == 1:
		return sub.runScript(io.in, stdio{out: io.out, err: io.err})
	case len(args) == 2 && args[1] != "-c":
		text, err := sh.readFile(args[1])
		if err != nil {
			fmt.Fprintf(io.err, "sh: 0: cannot open %s: %s\n", args[1], errText(err))
			return 2
		}
		return sub.runScript(text, io)
	}
	io.err.WriteString("sh: 0: -c requires an argument\n")
	return 2
}

// probeCode is the bytecode probe's python3 -c argument, up to its payload.
var probeCode = strings.TrimPrefix(BytecodeProbePrefix, `python3 -c "`)

func cmdPython(sh *shell, args []string, io stdio) int {
	b := sh.g.Bytecode
	switch {
	case len(args) == 3 && args[1] == "-c" && strings.HasPrefix(args[2], probeCode):
		io.out.WriteString(sh.g.bytecodeProbe() + "\n")
		return 0
	case len(args) == 2 && (args[1] == "--version" || args[1] == "-V"):
		io.out.WriteString("Python " + b.Python + "\n")
		return 0
	}
	// Anything else would need a real interpreter.
	io.err.WriteString("flysim: this simulated python3 only answers --version and the bytecode probe\n")
	return 1
}
