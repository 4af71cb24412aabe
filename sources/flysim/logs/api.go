package logs

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Fly's documented default for a logs request without next_token: the most
// recent 100 lines of the last 24 hours (monitoring/logs-api-options).
const (
	logsTailLines  = 100
	logsTailWindow = 24 * time.Hour
)

// Doc is the JSON:API document fly-go's GetAppLogs decodes.
type Doc struct {
	Data []logsResource `json:"data"`
	Meta struct {
		NextToken string `json:"next_token"`
	} `json:"meta"`
}

type logsResource struct {
	ID         string    `json:"id"`
	Type       string    `json:"type"`
	Attributes logsAttrs `json:"attributes"`
}

type logsAttrs struct {
	Timestamp string   `json:"timestamp"`
	Message   string   `json:"message"`
	Level     string   `json:"level"`
	Instance  string   `json:"instance"`
	Region    string   `json:"region"`
	Meta      logsMeta `json:"meta"`
}

// logsMeta mirrors fly.LogEntry.Meta. fly-go decodes error.code as an int,
// so the proxy's PM/PR code travels in the message text instead.
type logsMeta struct {
	Instance string `json:"instance"`
	Region   string `json:"region"`
	Event    struct {
		Provider string `json:"provider"`
	} `json:"event"`
	HTTP struct {
		Request struct {
			ID      string `json:"id"`
			Method  string `json:"method"`
			Version string `json:"version"`
		} `json:"request"`
		Response struct {
			StatusCode int `json:"status_code"`
		} `json:"response"`
	} `json:"http"`
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	URL struct {
		Full string `json:"full"`
	} `json:"url"`
}

// Lines is where the API reads lines: a Store, or anything else that
// keeps them (a recording replayed: sources/replay).
type Lines interface {
	// Query returns up to limit lines of app after (exclusive) the given
	// time that match the filters, in time order.
	Query(app string, after time.Time, instance, region string, limit int) []Line
	// Tail returns the newest limit lines of app since the given time, in
	// time order.
	Tail(app string, since time.Time, instance, region string, limit int) []Line
}

// API serves GET /api/v1/apps/{app}/logs from a Store.
type API struct {
	Store *Store
	// Lines, when set, is read instead of Store.
	Lines Lines
	Now   func() time.Time
	// PageSize is the most lines one page returns after a next_token.
	PageSize int
	// Known reports whether the platform has the app.
	Known func(app string) bool
}

// ServeHTTP answers Fly's logs API (JSON:API, nanosecond next_token).
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	appName := r.PathValue("app")
	q := r.URL.Query()
	after, hasToken, err := parseNextToken(q.Get("next_token"))
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	instance, region := q.Get("instance"), q.Get("region")
	if !a.Known(appName) {
		writeError(w, http.StatusNotFound, "Could not find App")
		return
	}
	now := a.Now()
	var lines []Line
	switch {
	case hasToken && a.Lines != nil:
		lines = page(a.Lines.Query, appName, after, instance, region, a.PageSize)
	case hasToken:
		lines = a.Store.page(appName, after, instance, region, a.PageSize)
	case a.Lines != nil:
		lines = a.Lines.Tail(appName, now.Add(-logsTailWindow), instance, region, logsTailLines)
	default:
		lines = a.Store.Tail(appName, now.Add(-logsTailWindow), instance, region, logsTailLines)
	}

	var doc Doc
	doc.Data = make([]logsResource, 0, len(lines))
	for _, ln := range lines {
		doc.Data = append(doc.Data, logsResourceOf(ln))
	}
	switch {
	case len(lines) > 0:
		doc.Meta.NextToken = NextToken(lines[len(lines)-1].Time)
	case hasToken:
		// An empty page hands back the same cursor so pollers can continue.
		doc.Meta.NextToken = NextToken(after)
	default:
		doc.Meta.NextToken = NextToken(now)
	}
	writeJSON(w, http.StatusOK, doc)
}

// page returns the lines strictly after the cursor, oldest first, at most
// limit of them — except that a page never ends between two lines sharing a
// nanosecond: the virtual clock stamps every line of one event alike, and a
// cursor that fell between them would lose the rest of the group.
func (l *Store) page(app string, after time.Time, instance, region string, limit int) []Line {
	l.mu.Lock()
	defer l.mu.Unlock()
	return page(l.query, app, after, instance, region, limit)
}

// page is Store.page over any query.
func page(query func(app string, after time.Time, instance, region string, limit int) []Line,
	app string, after time.Time, instance, region string, limit int) []Line {
	if limit < 1 {
		limit = 1
	}
	lines := query(app, after, instance, region, limit)
	if len(lines) < limit {
		return lines
	}
	last := lines[len(lines)-1].Time
	inPage := 0
	for i := len(lines) - 1; i >= 0 && lines[i].Time.Equal(last); i-- {
		inPage++
	}
	// Everything at `last` or later, in order: its first inPage lines at
	// `last` are the ones this page already holds.
	for batch := limit + inPage; ; batch *= 2 {
		more := query(app, last.Add(-time.Nanosecond), instance, region, batch)
		same := 0
		for same < len(more) && more[same].Time.Equal(last) {
			same++
		}
		if same < len(more) || len(more) < batch {
			return append(lines, more[inPage:same]...)
		}
	}
}

func logsResourceOf(ln Line) logsResource {
	a := logsAttrs{
		Timestamp: ln.Time.UTC().Format(time.RFC3339Nano),
		Message:   ln.Message,
		Level:     ln.Level,
		Instance:  ln.Machine,
		Region:    ln.Region,
	}
	if a.Level == "" {
		a.Level = "info"
	}
	m := &a.Meta
	m.Instance, m.Region = ln.Machine, ln.Region
	m.Event.Provider = ln.Provider
	if ln.Method != "" {
		m.HTTP.Request.Method = ln.Method
		m.HTTP.Request.Version = "HTTP/1.1"
	}
	m.HTTP.Response.StatusCode = ln.Status
	if ln.Path != "" {
		m.URL.Full = "https://" + ln.App + ".fly.dev" + ln.Path
	}
	if ln.ErrorCode != "" || ln.ErrorMsg != "" {
		m.Error.Code = ln.Status
		m.Error.Message = proxyErrorMessage(ln.ErrorCode, ln.ErrorMsg)
	}
	return logsResource{ID: ln.ID, Type: "logs", Attributes: a}
}

// proxyErrorMessage puts the PM/PR code in front of the message as Fly's
// proxy does ("[PM03] could not wake up machine …"), unless it already is.
func proxyErrorMessage(code, msg string) string {
	if code == "" || strings.HasPrefix(msg, "["+code+"]") {
		return msg
	}
	if msg == "" {
		return "[" + code + "]"
	}
	return "[" + code + "] " + msg
}

// parseNextToken reads the logs cursor: a unix time in nanoseconds. An empty
// token means "no cursor" (the default tail).
func parseNextToken(tok string) (after time.Time, ok bool, err error) {
	if tok == "" {
		return time.Time{}, false, nil
	}
	ns, err := strconv.ParseInt(tok, 10, 64)
	if err != nil || ns < 0 {
		return time.Time{}, false, errors.New("invalid next_token: want a unix time in nanoseconds")
	}
	return time.Unix(0, ns), true, nil
}

// NextToken is the cursor of a page ending at t: t in unix nanoseconds.
func NextToken(t time.Time) string { return strconv.FormatInt(t.UnixNano(), 10) }

func writeError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
