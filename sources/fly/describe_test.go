package fly

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// The describe view's lines read as the API meant them (& < > not escaped
// to \u0026…), with the token redacted and control sequences made inert.
func TestDescribeMachineReadsAsWritten(t *testing.T) {
	const token = "fm2_DescribeSecret123"
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"id":"m1","state":"started","name":"x\u001b]0;owned\u0007",
			"config":{"init":{"cmd":["sh","-c","migrate && serve <in >out"]},"env":{"T":"`+token+`"}}}`)
	}))
	c, _ := newTestClient(t, srv.URL, token)
	lines, err := c.DescribeMachine(context.Background(), "app1", "m1")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{`"migrate && serve <in >out"`, `"id": "m1"`} {
		if !strings.Contains(all, want) {
			t.Errorf("describe lacks %q:\n%s", want, all)
		}
	}
	for _, bad := range []string{`\u0026`, token, "\x1b", "\x07"} {
		if strings.Contains(all, bad) {
			t.Errorf("describe holds %q:\n%s", bad, all)
		}
	}
	if strings.HasSuffix(all, "\n") {
		t.Error("describe ends in an empty line")
	}
}
