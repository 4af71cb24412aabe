package fly

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	flygo "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/sanitize"
)

// maxAnswerBody bounds one answer the transport reads (a listing of a few
// thousand machines is a few MB).
const maxAnswerBody = 32 << 20

// report is what the transport saw while serving one call, for the call's
// error and its result: kept in the call's context (see withDeadline).
type report struct {
	mu sync.Mutex
	answerFacts
}

// answerFacts are a report's contents.
type answerFacts struct {
	badAnswer  string        // what a 2xx answer was instead of JSON; "" when it was JSON
	retryAfter time.Duration // the newest Retry-After asked for (capped), 0 none
	machines   cleaned       // what a machines answer held that fly-go could not take
	escaped    bool          // the answer holds \u escapes: decoded, it may spell a secret its bytes hid
	request    string        // the last attempt's method and path
	call       callID        // its callKey
}

type reportKey struct{}

// withReport gives ctx a report unless it already has one.
func withReport(ctx context.Context) (context.Context, *report) {
	if r := reportOf(ctx); r != nil {
		return ctx, r
	}
	r := &report{}
	return context.WithValue(ctx, reportKey{}, r), r
}

// noneKey marks a call for which a 404 carrying a given message is the API's
// normal "there is none" answer (a lease lookup when nobody holds the
// lease): the transport counts it as answered, not as the last error. Only
// that call's context carries it, so the action that follows does not.
type noneKey struct{}

func expectingNone(ctx context.Context, message string) context.Context {
	return context.WithValue(ctx, noneKey{}, message)
}

// isNoneAnswer says whether resp, a 404, is the normal "there is none"
// answer ctx expects; it reads the (small) body and leaves a copy for fly-go.
func isNoneAnswer(ctx context.Context, resp *http.Response) bool {
	message, _ := ctx.Value(noneKey{}).(string)
	if message == "" || resp.StatusCode != http.StatusNotFound {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return err == nil && bytes.Contains(body, []byte(message))
}

func reportOf(ctx context.Context) *report {
	r, _ := ctx.Value(reportKey{}).(*report)
	return r
}

func (r *report) set(f func(r *report)) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	f(r)
}

func (r *report) get() answerFacts {
	if r == nil {
		return answerFacts{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.answerFacts
}

// inspect reads a 2xx answer whole and hands fly-go a copy it can decode
// without crashing: the token is redacted from it, null entries of a
// machines answer are dropped (fly-go v0.5.0 panics on them), and an answer
// that is not JSON is named in the report so the error can say so. It
// returns a description of a bad answer, "" when the answer is fine.
func (t *apiTransport) inspect(req *http.Request, resp *http.Response, rep *report) (string, error) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBody+1))
	_ = resp.Body.Close()
	if err != nil {
		return "", err
	}
	bad := ""
	switch {
	case len(body) > maxAnswerBody:
		bad = fmt.Sprintf("an answer over %d MB", maxAnswerBody>>20)
	case len(bytes.TrimSpace(body)) == 0:
		bad = "an empty body"
	case !json.Valid(body):
		bad = "something that is not JSON: " + quoteStart(body, resp.Header.Get("Content-Type"), t.state.stats.token)
	default:
		redacted := redactBody(body, t.state.stats.token)
		valid := len(redacted) == len(body) && (len(body) == 0 || &redacted[0] == &body[0]) // the bytes json.Valid saw
		body = redacted
		escaped := bytes.Contains(body, []byte(`\u`))
		rep.set(func(r *report) { r.escaped = escaped })
		if kind := machinesAnswer(req); kind != noMachines {
			var c cleaned
			body, c = t.state.entries.cleanMachines(body, kind == machineList, valid)
			rep.set(func(r *report) { r.machines = c })
		}
	}
	if bad != "" {
		// fly-go's decoder would read a valid prefix ("[null]" of
		// "[null]0") and crash on it: it gets nothing, and fails cleanly.
		body = nil
	}
	rep.set(func(r *report) { r.badAnswer = bad })
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return bad, nil
}

// redactDecoded redacts what an answer decoded into (see
// sanitize.RedactAll) when its bytes held JSON escapes: without them, the
// redaction of the bytes (redactBody) saw every string as decoded.
func redactDecoded(ctx context.Context, decoded any) {
	if reportOf(ctx).get().escaped {
		sanitize.RedactAll(decoded)
	}
}

// quoteStart shows the first bytes of a bad answer, inert and redacted.
func quoteStart(body []byte, contentType, token string) string {
	const show = 60
	s := string(body)
	cut := len(s) > show
	if cut {
		s = s[:show]
	}
	s = strings.Join(strings.Fields(sanitize.Line(sanitize.Redact(s, token))), " ")
	q := fmt.Sprintf("%q", s)
	if cut {
		q += "…"
	}
	if ct := sanitize.Line(contentType); ct != "" {
		q += " (" + ct + ")"
	}
	return q
}

// redactBody removes the token from an answer, in its plain form and as a
// JSON encoder that escapes "/" writes it.
func redactBody(body []byte, token string) []byte {
	if token == "" {
		return body
	}
	s := string(body)
	out := sanitize.Redact(s, token)
	if strings.Contains(token, "/") {
		out = sanitize.Redact(out, strings.ReplaceAll(token, "/", `\/`))
	}
	if out == s {
		return body
	}
	return []byte(out)
}

type machinesKind int

const (
	noMachines machinesKind = iota
	machineList
	oneMachine
)

// machinesAnswer says whether req's answer is a machines list or one machine.
func machinesAnswer(req *http.Request) machinesKind {
	if req.Method != http.MethodGet {
		return noMachines
	}
	rest, ok := strings.CutPrefix(req.URL.Path, "/v1/apps/")
	if !ok {
		return noMachines
	}
	seg := strings.Split(strings.Trim(rest, "/"), "/")
	switch {
	case len(seg) == 2 && seg[1] == "machines":
		return machineList
	case len(seg) == 3 && seg[1] == "machines":
		return oneMachine
	}
	return noMachines
}

// wireMachine is one machine as fly-go decodes it, plus "cordoned", which
// fly-go v0.5.0 does not know.
type wireMachine struct {
	flygo.Machine
	Cordoned bool `json:"cordoned"`
}

// cleaned is what cleanMachines dropped from a machines answer, and the
// "cordoned" flags fly-go does not decode.
type cleaned struct {
	// skipped are the machine entries dropped whole (null, or undecodable),
	// one each: the id when the entry names one readably, else "".
	skipped []string
	// partial counts, by machine id, the null checks, events and
	// containers dropped from a machine that was kept.
	partial  map[string]int
	cordoned map[string]bool
	// hashes are, by machine id, a hash of the entry's bytes as the API
	// sent them (the first entry of an id listed twice).
	hashes map[string]uint64
	// order are the kept entries' hashes, in the answer's order (what
	// fly-go decodes, entry for entry); hash is the last one read's.
	order []uint64
	hash  uint64
}

// cleanMachines drops what would crash fly-go or flywake from a machines
// answer (a list, or one machine): a null or undecodable machine, and null
// checks, events and containers. It returns the answer to decode and what
// it dropped.
// valid says body is known to be valid JSON (its elements are then split
// without decoding the list).
func (memo *entryMemo) cleanMachines(body []byte, list, valid bool) ([]byte, cleaned) {
	c := cleaned{partial: map[string]int{}, cordoned: map[string]bool{}}
	if !list {
		out, ok := memo.cleanMachine(body, &c)
		if !ok {
			return body, cleaned{partial: map[string]int{}, cordoned: map[string]bool{}} // not a machine: fly-go's own error says so
		}
		return out, c
	}
	elems, ok := []json.RawMessage(nil), false
	if valid {
		elems, ok = splitArray(body)
	}
	if !ok {
		if err := json.Unmarshal(body, &elems); err != nil {
			return body, c // not a list: fly-go's own error says so
		}
	}
	changed := false
	kept := elems[:0]
	c.hashes = make(map[string]uint64, len(elems))
	c.order = make([]uint64, 0, len(elems))
	for _, e := range elems {
		out, ok := memo.cleanMachine(e, &c)
		if !ok {
			c.skipped = append(c.skipped, entryID(e))
			changed = true
			continue
		}
		changed = changed || !bytes.Equal(out, e)
		kept = append(kept, out)
		c.order = append(c.order, c.hash)
	}
	if !changed {
		return body, c
	}
	out, err := json.Marshal(kept)
	if err != nil {
		return body, c
	}
	return out, c
}

// splitArray splits valid JSON that is an array into its elements' bytes
// (as json.Unmarshal into []json.RawMessage would, without decoding each
// one on the way). ok is false when b is not an array.
func splitArray(b []byte) (elems []json.RawMessage, ok bool) {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i == len(b) || b[i] != '[' {
		return nil, false
	}
	i++
	elems = []json.RawMessage{}
	for {
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i == len(b) {
			return nil, false
		}
		if b[i] == ']' && len(elems) == 0 {
			i++
			break
		}
		start, depth, inString := i, 0, false
		for ; i < len(b); i++ {
			c := b[i]
			if inString {
				switch c {
				case '\\':
					i++
				case '"':
					inString = false
				}
				continue
			}
			switch c {
			case '"':
				inString = true
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			if depth < 0 || (depth == 0 && c == ',') {
				break
			}
		}
		if i == len(b) {
			return nil, false
		}
		end := i
		for end > start && isSpace(b[end-1]) {
			end--
		}
		if end == start {
			return nil, false
		}
		elems = append(elems, b[start:end])
		c := b[i]
		i++
		if c == ']' {
			break
		}
	}
	for ; i < len(b); i++ {
		if !isSpace(b[i]) {
			return nil, false
		}
	}
	return elems, true
}

// entryID is the id an entry fly-go cannot decode still names, when it
// names one as a string: so a machine seen before is known to be the one
// that could not be read, not one that went away.
func entryID(raw json.RawMessage) string {
	var e struct {
		ID json.RawMessage `json:"id"`
	}
	var id string
	if json.Unmarshal(raw, &e) != nil || json.Unmarshal(e.ID, &id) != nil {
		return ""
	}
	return id
}

// entryFacts is what cleanMachine learns of one machine entry: a pure
// function of its bytes.
type entryFacts struct {
	ok       bool
	id       string
	cordoned bool
	hash     uint64
	nulls    int
	out      json.RawMessage // the entry without its nulls (nil when nulls is 0: the bytes themselves)
}

// entryMemo remembers the facts of the machine entries of the last
// answers, by the hash of their bytes (EntryHash, which the listing
// carries anyway) and their length: a listing repeats most entries byte
// for byte (a machine at rest), and decoding each as a machine to check
// it was most of a listing's cost. Two generations of at most memoEntries
// each (an org overview lists every app's machines) bound it, a few
// dozen bytes an entry; a nil memo remembers nothing.
type entryMemo struct {
	mu        sync.Mutex
	cur, prev map[memoKey]entryFacts
}

type memoKey struct {
	hash uint64
	size int
}

const memoEntries = 16384

func (memo *entryMemo) facts(raw json.RawMessage) entryFacts {
	if memo == nil {
		return readEntry(raw)
	}
	k := memoKey{EntryHash(raw), len(raw)}
	memo.mu.Lock()
	f, ok := memo.cur[k]
	if !ok {
		f, ok = memo.prev[k]
	}
	memo.mu.Unlock()
	if ok {
		return f
	}
	f = readEntry(raw)
	memo.mu.Lock()
	if len(memo.cur) >= memoEntries {
		memo.prev, memo.cur = memo.cur, nil
	}
	if memo.cur == nil {
		memo.cur = make(map[memoKey]entryFacts)
	}
	memo.cur[k] = f
	memo.mu.Unlock()
	return f
}

// readEntry decodes raw as fly-go would, to learn its facts.
func readEntry(raw json.RawMessage) entryFacts {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return entryFacts{}
	}
	var m wireMachine
	if err := json.Unmarshal(raw, &m); err != nil {
		return entryFacts{}
	}
	f := entryFacts{ok: true, id: m.ID, cordoned: m.Cordoned, hash: EntryHash(raw),
		nulls: countNil(m.Checks) + countNil(m.Events) + countNil(m.ContainerStatuses)}
	if f.nulls == 0 {
		return f
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return entryFacts{}
	}
	for _, k := range []string{"checks", "events", "containers"} {
		if v, ok := fields[k]; ok {
			fields[k] = dropNulls(v)
		}
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return entryFacts{}
	}
	f.out = out
	return f
}

// cleanMachine checks that raw decodes as a machine and drops its null
// checks, events and containers (counted in c). ok is false for null or
// anything fly-go cannot decode as a machine.
func (memo *entryMemo) cleanMachine(raw json.RawMessage, c *cleaned) (json.RawMessage, bool) {
	f := memo.facts(raw)
	if !f.ok {
		return nil, false
	}
	if f.cordoned && f.id != "" {
		c.cordoned[f.id] = true
	}
	if c.hashes != nil {
		c.hash = f.hash
		if _, seen := c.hashes[f.id]; !seen && f.id != "" {
			c.hashes[f.id] = f.hash
		}
	}
	if f.nulls == 0 {
		return raw, true
	}
	c.partial[f.id] += f.nulls
	return f.out, true
}

func countNil[T any](ps []*T) int {
	n := 0
	for _, p := range ps {
		if p == nil {
			n++
		}
	}
	return n
}

func dropNulls(list json.RawMessage) json.RawMessage {
	var elems []json.RawMessage
	if err := json.Unmarshal(list, &elems); err != nil {
		return list
	}
	kept := elems[:0]
	for _, e := range elems {
		if !bytes.Equal(bytes.TrimSpace(e), []byte("null")) {
			kept = append(kept, e)
		}
	}
	out, err := json.Marshal(kept)
	if err != nil {
		return list
	}
	return out
}
