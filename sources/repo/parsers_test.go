package repo

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/textfile"
)

func TestParseFlyTomlErrors(t *testing.T) {
	cases := []struct {
		doc      string
		line     int
		contains string
	}{
		{"app = 'x'\n[http_service]\nauto_stop_machines = 3\n", 3, `expected "off", "stop", "suspend" or a boolean for auto_stop_machines, got 3`},
		{"[[services]]\n[[services]]\nauto_stop_machines = 'maybe'\n", 3, `got "maybe"`},
		{"app = 'x'\n[http_service]\ninternal_port = 'abc'\n", 3, "expected an integer for http_service.internal_port, got a string"},
		{"app = 'x'\nhttp_service = 3\n", 2, "expected a table for http_service, got an integer"},
		{"app = 'x'\n\n[http_service\n", 3, "expected ']'"},
		{"a = 'unterminated\n", 1, "expected a closing quote"},
		{"[http_service]\n[[http_service.checks]]\ninterval = 'soon'\n", 3, `expected a duration like "15s" for interval, got "soon"`},
		{"[http_service.concurrency]\ntype = 'packets'\n", 2, `expected "connections" or "requests"`},
		{"[[vm]]\nmemory = 'lots'\n", 2, `expected a memory size`},
		{"swap_size_mb = -1\n", 1, "expected a size in MB"},
	}
	for _, tc := range cases {
		f, problems := ParseFlyToml([]byte(tc.doc))
		var fe *textfile.FileError
		if f != nil || len(problems) == 0 || !errors.As(problems[0], &fe) {
			t.Errorf("%q: got %v, %v; want a textfile.FileError", tc.doc, f, problems)
			continue
		}
		if fe.Line != tc.line || !strings.Contains(fe.Error(), tc.contains) || !strings.HasPrefix(fe.Error(), "fly.toml:") {
			t.Errorf("%q: %q, want line %d containing %q", tc.doc, fe.Error(), tc.line, tc.contains)
		}
	}
}

func TestParseFlyTomlValues(t *testing.T) {
	doc := `app = "x"
swap_size_mb = 512
[http_service]
  internal_port = 8000
  auto_stop_machines = true
  concurrency = { type = "requests", soft_limit = 5, hard_limit = 8 }
[[services]]
  internal_port = 9000
  auto_stop_machines = false
  [[services.ports]]
    port = 443
  [[services.http_checks]]
    path = "/up"
    interval = 10000
[checks.db]
  type = "tcp"
  port = 5432
  interval = "1m"
[[vm]]
  memory = "2gb"
`
	f, err := ParseFlyToml([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	hs := f.HTTPService()
	if hs == nil || hs.AutoStop != AutoStopStop || hs.Concurrency.HardLimit != 8 || f.Line("http_service.concurrency.hard_limit") != 6 {
		t.Errorf("http_service %+v line %d", hs, f.Line("http_service.concurrency.hard_limit"))
	}
	svc := f.Services[1]
	if svc.AutoStop != AutoStopOff || len(svc.Ports) != 1 || svc.Ports[0] != 443 || svc.Checks[0].Interval != 10*time.Second || svc.Checks[0].Port != 9000 {
		t.Errorf("services %+v", svc)
	}
	if f.Source("services.0.http_checks.0.path") != "fly.toml:13" {
		t.Errorf("source %q", f.Source("services.0.http_checks.0.path"))
	}
	if len(f.Checks) != 1 || f.Checks[0].Name != "db" || f.Checks[0].Kind != "tcp" || f.Checks[0].Interval != time.Minute {
		t.Errorf("checks %+v", f.Checks)
	}
	if f.VMMemoryMB != 2048 || f.SwapSizeMB != 512 || f.Line("swap_size_mb") != 2 {
		t.Errorf("vm %d swap %d", f.VMMemoryMB, f.SwapSizeMB)
	}
}

func TestParseDockerfile(t *testing.T) {
	cases := []struct {
		name       string
		src        string
		entrypoint string // Args joined by "|"
		cmd        string
		exec       bool
		env        map[string]string
		dwb        bool
		compileAt  int
	}{
		{"env both forms and continuation", "FROM python:3.14\nENV A=1 \\\n    B=\"two words\"\nENV LEGACY some value\nENV PYTHONDONTWRITEBYTECODE 1\nCMD [\"gunicorn\", \"app\"]\n",
			"", "gunicorn|app", true, map[string]string{"A": "1", "B": "two words", "LEGACY": "some value"}, true, 0},
		{"last CMD wins, shell form", "FROM python:3.14\nCMD [\"a\"]\nCMD gunicorn app:app --bind 0.0.0.0\n",
			"", "gunicorn|app:app|--bind|0.0.0.0", false, nil, false, 0},
		{"zero is off", "FROM python:3.14\nENV PYTHONDONTWRITEBYTECODE=0\n", "", "", false, nil, false, 0},
		{"compileall over continuations and comments", "FROM python:3.14\nRUN pip install x \\\n# a comment\n && python -m compileall -q /app\n",
			"", "", false, nil, false, 2},
		{"final stage only; builder compiles", "FROM python:3.14 AS build\nENV PYTHONDONTWRITEBYTECODE=1\nRUN python -m compileall /venv\nENTRYPOINT [\"/bin/old\"]\nFROM python:3.14-slim\nENTRYPOINT [\"/app/entrypoint.sh\"]\n",
			"/app/entrypoint.sh", "", true, nil, false, 3},
		{"stage inherits env", "FROM python:3.14 AS base\nENV PYTHONDONTWRITEBYTECODE=1\nFROM base\nCMD [\"x.py\"]\n", "", "x.py", true, nil, true, 0},
		{"broken JSON falls back to shell form", "FROM python:3.14\nENTRYPOINT [\"a\", b]\n", "[\"a\",|b]", "", false, nil, false, 0},
		{"heredoc", "FROM python:3.14\nRUN <<EOF\npip install x\npython -m compileall /app\nEOF\nCMD [\"y\"]\n", "", "y", true, nil, false, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := ParseDockerfile([]byte(tc.src))
			args := func(c *Command) string {
				if c == nil {
					return ""
				}
				return strings.Join(c.Args, "|")
			}
			if got := args(d.Entrypoint); got != tc.entrypoint {
				t.Errorf("entrypoint %q, want %q", got, tc.entrypoint)
			}
			if got := args(d.Cmd); got != tc.cmd {
				t.Errorf("cmd %q, want %q", got, tc.cmd)
			}
			if c := d.Cmd; c != nil && c.Exec != tc.exec {
				t.Errorf("cmd exec form %v, want %v", c.Exec, tc.exec)
			}
			for k, v := range tc.env {
				if got, ok := d.Lookup(k); !ok || got.Value != v {
					t.Errorf("env %s = %q, want %q", k, got.Value, v)
				}
			}
			if _, ok := d.DontWriteBytecode(); ok != tc.dwb {
				t.Errorf("dontwritebytecode %v, want %v", ok, tc.dwb)
			}
			ca, ok := d.Compileall()
			if (tc.compileAt > 0) != ok || ca.Line != tc.compileAt {
				t.Errorf("compileall %+v (%v), want line %d", ca, ok, tc.compileAt)
			}
		})
	}
}

func TestParseDockerignore(t *testing.T) {
	cases := []struct {
		src  string
		want []string // suggestions
	}{
		{"__pycache__/\n*.pyc\n", []string{"**/__pycache__/", "**/*.pyc"}},
		{"**/__pycache__/\n**/*.pyc\n", nil},
		{"/__pycache__\n__pycache__/*\n*.py[cod]\n", []string{"**/__pycache__/", "**/__pycache__/", "**/*.py[cod]"}},
		{"__pycache__/\n**/__pycache__\n", nil},
		{"# comment\n!*.pyc\n*.py\nsrc/__pycache__/\n", nil},
	}
	for _, tc := range cases {
		d := ParseDockerignore([]byte(tc.src))
		var got []string
		for _, u := range d.Unanchored {
			got = append(got, u.Suggest)
			if u.Line == 0 {
				t.Errorf("%q: suggestion without a line", tc.src)
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%q: suggestions %v, want %v", tc.src, got, tc.want)
		}
	}
}

func TestAnalyzeScript(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		kinds  string // kind@line[g] joined by ","
		server string
	}{
		{"a release-work entrypoint", "#!/bin/sh\necho \"entrypoint: python manage.py migrate\"\npython manage.py migrate --noinput\npython manage.py collectstatic --noinput &\nexec granian config.wsgi:application\n",
			"migrations@3,static-file collection@4", "granian"},
		{"gate before work", "#!/bin/sh\nif [ -z \"$(redis-cli GET release:$FLY_IMAGE_REF:done)\" ]; then\n  alembic -c alembic.ini upgrade head\nfi\nexec uvicorn app:app\n",
			"migrations@3g", "uvicorn"},
		{"function called after gate", "migrate() {\n  bundle exec rails db:migrate\n}\n# release gate\npython -m release_gate && migrate\nexec bin/rails server\n",
			"migrations@2g", "rails"},
		{"comment does not gate", "# TODO: release gate\nnpx prisma migrate deploy\nexec node server.js\n", "migrations@2", "node"},
		{"work after exec never runs", "exec gunicorn app\nflask db upgrade\n", "", "gunicorn"},
		{"uncalled function", "warm() {\n  python manage.py warm_cache\n}\nexec python -m granian app\n", "", "granian"},
		{"warm-up and index", "python manage.py warm_cache\npython manage.py rebuild_index --noinput\nbin/rake assets:precompile\n", "cache warm-up@1,index build@2,static-file collection@3", ""},
		{"conservative: words that merely contain warm", "export WARMTH=1\npython manage.py showmigrations\n", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := AnalyzeScript("entrypoint.sh", []byte(tc.src))
			var got []string
			for _, w := range s.Work {
				k := string(w.Kind) + "@" + strconv.Itoa(w.Line)
				if w.Gated {
					k += "g"
				}
				got = append(got, k)
			}
			if strings.Join(got, ",") != tc.kinds {
				t.Errorf("work %q, want %q", strings.Join(got, ","), tc.kinds)
			}
			if s.Server != tc.server {
				t.Errorf("server %q, want %q", s.Server, tc.server)
			}
		})
	}
}

func TestScriptCandidatesAndInlineCommand(t *testing.T) {
	c := &Command{Exec: true, Args: []string{"/bin/sh", "/app/bin/entrypoint.sh"}}
	got := ScriptCandidates(c)
	if len(got) != 1 || strings.Join(got[0], ",") != "app/bin/entrypoint.sh,bin/entrypoint.sh,entrypoint.sh,scripts/entrypoint.sh" {
		t.Errorf("candidates %v", got)
	}
	s := AnalyzeCommand("Dockerfile", &Command{Exec: true, Args: []string{"sh", "-c", "python manage.py migrate && exec gunicorn app"}, Line: 9})
	if len(s.Work) != 1 || s.Work[0].Line != 9 || s.Server != "gunicorn" {
		t.Errorf("inline %+v", s)
	}
}

// Every problem of a fly.toml is reported with its line, not just the first;
// unknown keys are warnings naming the nearest known key, and leave the
// config usable.
func TestParseFlyTomlReportsEveryProblem(t *testing.T) {
	doc := `app = "x"
swap_size_mb = "big"
[http_service]
  internal_port = "8080"
  auto_stop_machine = "suspend"
  auto_start_machines = "yes"
  [http_service.concurrency]
    type = "packets"
    soft_limt = 5
[[vm]]
  memory = "lots"
[checks.db]
  interval = "soon"
  prot = 5432
`
	f, problems := ParseFlyToml([]byte(doc))
	if f != nil {
		t.Fatal("a config with errors was returned")
	}
	want := []struct {
		line    int
		warning bool
		text    string
	}{
		{2, false, "expected an integer for swap_size_mb, got a string"},
		{4, false, "expected an integer for http_service.internal_port, got a string"},
		{6, false, "expected a boolean for http_service.auto_start_machines, got a string"},
		{8, false, `expected "connections" or "requests" for concurrency type, got "packets"`},
		{11, false, "expected a memory size"},
		{13, false, `expected a duration like "15s" for interval, got "soon"`},
		{5, true, `unknown key "auto_stop_machine" in [http_service], ignored — did you mean auto_stop_machines?`},
		{9, true, `unknown key "soft_limt" in [http_service.concurrency], ignored — did you mean soft_limit?`},
		{14, true, `unknown key "prot" in [checks.db], ignored — did you mean port?`},
	}
	if len(problems) != len(want) {
		t.Errorf("%d problems, want %d:\n%v", len(problems), len(want), problems)
	}
	for _, w := range want {
		found := false
		for _, p := range problems {
			var fe *textfile.FileError
			if errors.As(p, &fe) && fe.Line == w.line && fe.Warning == w.warning && strings.Contains(fe.Msg, w.text) {
				found = true
			}
		}
		if !found {
			t.Errorf("no problem on line %d (warning %v) saying %q in:\n%v", w.line, w.warning, w.text, problems)
		}
	}

	// Warnings alone leave the config usable.
	f, problems = ParseFlyToml([]byte("app = 'x'\nkill_signal = 'SIGINT'\n[http_service]\ninternal_port = 8080\nauto_stop_machine = 'suspend'\n[env]\nANYTHING = '1'\n"))
	if f == nil || len(problems) != 1 || !strings.Contains(problems[0].Error(), "fly.toml:5: warning: unknown key") {
		t.Fatalf("config %v, problems %v", f, problems)
	}
	if f.Services[0].AutoStop != AutoStopUnset {
		t.Errorf("the misspelt key was read: %q", f.Services[0].AutoStop)
	}
}

// An unknown table is named as a table, at its header's line, with the
// nearest known one; the key and its nearest name are kept apart for the
// checklist's JSON.
func TestUnknownTablesAndKeys(t *testing.T) {
	doc := "app = 'x'\nkill_timout = 5\n\n[http_servic]\n  internal_port = 8000\n\n[[servics]]\n  internal_port = 1\n\n[http_service]\n  [http_service.concurrncy]\n    hard_limit = 25\n"
	f, problems := ParseFlyToml([]byte(doc))
	if f == nil {
		t.Fatalf("warnings alone made the config unusable: %v", problems)
	}
	want := []textfile.FileError{
		{Line: 2, Key: "kill_timout", Nearest: "kill_timeout", Msg: `unknown key "kill_timout" at the top level, ignored — did you mean kill_timeout?`},
		{Line: 4, Key: "http_servic", Nearest: "http_service", Msg: "unknown table [http_servic], ignored — did you mean [http_service]?"},
		{Line: 7, Key: "servics", Nearest: "services", Msg: "unknown table [[servics]], ignored — did you mean [[services]]?"},
		{Line: 11, Key: "http_service.concurrncy", Nearest: "http_service.concurrency", Msg: "unknown table [http_service.concurrncy], ignored — did you mean [http_service.concurrency]?"},
	}
	if len(problems) != len(want) {
		t.Fatalf("%d problems, want %d: %v", len(problems), len(want), problems)
	}
	for _, w := range want {
		found := false
		for _, p := range problems {
			var fe *textfile.FileError
			if errors.As(p, &fe) && fe.Warning && fe.Line == w.Line && fe.Key == w.Key && fe.Nearest == w.Nearest && fe.Msg == w.Msg {
				found = true
			}
		}
		if !found {
			t.Errorf("no warning %+v in %v", w, problems)
		}
	}
	// A name close to nothing has no suggestion.
	_, problems = ParseFlyToml([]byte("zzzzzzzz = 1\n"))
	var fe *textfile.FileError
	if len(problems) != 1 || !errors.As(problems[0], &fe) || fe.Nearest != "" || strings.Contains(fe.Msg, "did you mean") {
		t.Errorf("problems %v", problems)
	}
}

// Process groups as flyctl applies them: a service or check that names no
// processes goes to the default group ("app", else the first by name); one
// naming a group the app lacks goes to no machine, and says so.
func TestProcessGroups(t *testing.T) {
	cases := []struct {
		name        string
		doc         string
		groups      []string
		def         string
		serviceGets [][]string
		warning     string
	}{
		{"no processes", "[http_service]\ninternal_port = 8080\n", []string{"app"}, "app", [][]string{{"app"}}, ""},
		{"old empty list", "processes = []\n[http_service]\ninternal_port = 8080\nprocesses = ['app']\n", []string{"app"}, "app", [][]string{{"app"}}, ""},
		{"web and worker", "[processes]\nweb = 'gunicorn'\nworker = 'celery'\n[http_service]\ninternal_port = 8080\n[[services]]\ninternal_port = 9000\nprocesses = ['worker', 'web']\n",
			[]string{"web", "worker"}, "web", [][]string{{"web"}, {"worker", "web"}}, ""},
		{"app among them", "[processes]\napp = 'gunicorn'\nworker = 'celery'\n[http_service]\ninternal_port = 8080\n", []string{"app", "worker"}, "app", [][]string{{"app"}}, ""},
		{"a typo'd group", "[processes]\nweb = 'gunicorn'\n[http_service]\ninternal_port = 8080\nprocesses = ['wbe']\n", []string{"web"}, "web", [][]string{nil},
			`processes of [http_service] names "wbe", which is no process group of this app (web): no machine gets it from that name — did you mean web?`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, problems := ParseFlyToml([]byte(tc.doc))
			if f == nil {
				t.Fatalf("not parsed: %v", problems)
			}
			if !slices.Equal(f.ProcessGroups(), tc.groups) || f.DefaultProcessGroup() != tc.def {
				t.Errorf("groups %v default %q, want %v %q", f.ProcessGroups(), f.DefaultProcessGroup(), tc.groups, tc.def)
			}
			for i, s := range f.Services {
				if got := f.Groups(s.Processes); !slices.Equal(got, tc.serviceGets[i]) {
					t.Errorf("service %d goes to %v, want %v", i, got, tc.serviceGets[i])
				}
			}
			var msgs []string
			for _, p := range problems {
				var fe *textfile.FileError
				if errors.As(p, &fe) && fe.Warning {
					msgs = append(msgs, fe.Msg)
				}
			}
			if tc.warning == "" && len(msgs) > 0 || tc.warning != "" && (len(msgs) != 1 || msgs[0] != tc.warning) {
				t.Errorf("warnings %q, want %q", msgs, tc.warning)
			}
		})
	}
	if _, problems := ParseFlyToml([]byte("processes = 'web'\n")); len(problems) != 1 || !strings.Contains(problems[0].Error(), "fly.toml:1: expected a table of process group = command") {
		t.Errorf("a string for [processes]: %v", problems)
	}
}
