package fly

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/flywake/flywake/sources/sanitize"
)

const (
	maxRetries      = 3                // for 408/429, on top of the first attempt
	MaxRetryAfter   = 60 * time.Second // cap on a server-requested wait (Retry-After)
	firstBackoff    = time.Second      // when the server gives no Retry-After
	maxBackoff      = 8 * time.Second
	maxBufferedBody = 8 << 20 // request bodies are small JSON; refuse absurd ones
	// maxErrorBody bounds what the client keeps of an answer that is not
	// a success (a 50 MB error page was read whole, and quoted whole into
	// every output): an API error message is a line; errors quote less
	// still (sanitize.Quote).
	maxErrorBody = 64 << 10
)

// shared is the state every transport of one Client uses: one set of
// buckets and one set of stats, whichever API a request goes to.
type shared struct {
	clock   clock
	limiter *limiter
	unpaced bool // Config.Unpaced
	stats   *recorder
	debug   *DebugLog  // nil: no debug log
	entries *entryMemo // the machine entries of the last answers (answer.go)
}

// apiTransport sits beneath fly-go (below its otelhttp and rehttp layers), so
// each attempt fly-go makes, retries of 502/503 included, passes here once.
type apiTransport struct {
	base  *url.URL // this API's base URL: scheme, host, optional path prefix
	api   api      // which API it is, for the stats
	next  http.RoundTripper
	state *shared
}

func (t *apiTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	rep := reportOf(ctx)
	body, err := bufferBody(req)
	if err != nil {
		return nil, err
	}
	r, lim, paced := routeOf(req.Method, req.URL.Path)
	paced = paced && !t.state.unpaced
	isWait := isWaitPath(req.URL.Path)
	call := callKey(req.Method, req.URL.Path)
	// A wait's 408 is an expired long-poll and an exec's 408 is a command
	// that outlived its timeout: neither is worth sending again (another
	// exec would hold the call as long again, past the caller's deadline).
	no408Retry := isWait || (req.Method == http.MethodPost && isExecPath(req.URL.Path))
	for attempt := 0; ; attempt++ {
		if paced {
			if err := t.state.limiter.wait(ctx, r, lim); err != nil {
				return nil, err
			}
		}
		out := t.outgoing(t.pacedResends(ctx, r, lim, paced), req, body)
		sent := t.state.clock.Now()
		t.state.stats.attempt(sent, t.api)
		rep.set(func(r *report) { r.request, r.call = req.Method+" "+req.URL.Path, call })
		resp, err := t.next.RoundTrip(out)
		if err != nil {
			t.state.debug.apiFailed(req.Method, req.URL.Path, err, t.state.clock.Now().Sub(sent))
			// A caller that gave up (a quit, an app switch, a newer request)
			// is nothing the API did, so not the header's last error.
			if !errors.Is(ctx.Err(), context.Canceled) {
				t.state.stats.failed(t.state.clock.Now(), call, fmt.Sprintf("%s %s: %s", req.Method, req.URL.Path, sanitize.Quote(err.Error())))
			}
			return nil, err
		}
		t.state.debug.apiCall(req.Method, req.URL.Path, resp.StatusCode, t.state.clock.Now().Sub(sent))
		if resp.StatusCode/100 != 2 {
			capBody(resp, maxErrorBody)
		}
		status := resp.StatusCode
		what := fmt.Sprintf("%s %s: ", req.Method, req.URL.Path)
		if status/100 == 2 && req.Method != http.MethodHead && status != http.StatusNoContent {
			bad, err := t.inspect(req, resp, rep)
			if err != nil {
				t.state.stats.failed(t.state.clock.Now(), call, what+err.Error())
				return nil, err
			}
			if bad != "" {
				t.state.stats.failed(t.state.clock.Now(), call, what+"the API answered "+bad)
				return resp, nil // fly-go's decoding fails, and the error names this
			}
		}
		if isWait && status == http.StatusRequestTimeout {
			status = http.StatusOK // an expired long-poll is a normal answer, not an API problem
		}
		if isNoneAnswer(ctx, resp) {
			status = http.StatusOK // "there is none", where the caller expects that answer
		}
		t.state.stats.answered(t.state.clock.Now(), call, status, what+resp.Status)
		retryable := resp.StatusCode == http.StatusTooManyRequests ||
			(resp.StatusCode == http.StatusRequestTimeout && !no408Retry)
		if !retryable {
			return resp, nil
		}
		now := t.state.clock.Now()
		delay, asked := retryDelay(resp.Header.Get("Retry-After"), attempt, now)
		if asked {
			rep.set(func(r *report) { r.retryAfter = delay })
		}
		t.state.stats.backoff(now.Add(delay))
		// A wait past the caller's deadline would only end in "no answer":
		// answer the 429 now, and the caller retries when it was asked to.
		if dl, ok := ctx.Deadline(); attempt >= maxRetries || (ok && time.Until(dl) < delay) {
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
		t.state.debug.apiRetry(req.Method, req.URL.Path, resp.StatusCode, attempt, delay)
		if err := t.state.clock.Sleep(ctx, delay); err != nil {
			return nil, err
		}
	}
}

// pacedResends makes a resend by Go's http.Transport wait for the bucket:
// it silently sends a GET again on a new connection when a reused one dies
// before the answer (a reset, a keep-alive race), and Fly counts that call
// like any other. Each connection after the first is one more call.
func (t *apiTransport) pacedResends(ctx context.Context, r route, lim limit, paced bool) context.Context {
	var conns atomic.Int32
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) {
		if conns.Add(1) == 1 {
			return
		}
		if paced {
			_ = t.state.limiter.wait(ctx, r, lim) // on error ctx is done and the attempt fails by itself
		}
		t.state.stats.attempt(t.state.clock.Now(), t.api)
	}})
}

// outgoing builds one attempt: a copy of req aimed at this API's base URL,
// with a fresh body reader and no credential-less Authorization header.
func (t *apiTransport) outgoing(ctx context.Context, req *http.Request, body []byte) *http.Request {
	out := req.Clone(ctx)
	out.URL = rebase(req.URL, t.base)
	out.Host = ""
	if body != nil {
		out.Body = io.NopCloser(bytes.NewReader(body))
		out.ContentLength = int64(len(body))
	}
	// fly-go sends "Bearer " when it has no token (tokens.Parse("")); send
	// nothing instead so the server answers 401 cleanly.
	if a := strings.TrimSpace(out.Header.Get("Authorization")); a == "Bearer" || a == "FlyV1" {
		out.Header.Del("Authorization")
	}
	return out
}

// rebase keeps u's path and query and takes scheme and host from base. fly-go
// builds URLs from process-global settings (FLY_FLAPS_BASE_URL,
// fly.SetBaseURL), or from no base at all for logs, so every request passing
// through this transport is pointed at this client's own API.
func rebase(u, base *url.URL) *url.URL {
	out := *u
	out.Scheme, out.Host, out.User = base.Scheme, base.Host, nil
	if prefix := strings.TrimSuffix(base.Path, "/"); prefix != "" && !strings.HasPrefix(u.Path, prefix+"/") {
		out.Path = prefix + u.Path
		out.RawPath = ""
	}
	return &out
}

// capBody replaces resp's body with at most its first limit bytes, read
// now, and lets the rest go with the connection.
func capBody(resp *http.Response, limit int64) {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, limit))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
}

func bufferBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	b, err := io.ReadAll(io.LimitReader(req.Body, maxBufferedBody+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxBufferedBody {
		return nil, fmt.Errorf("request body over %d bytes", maxBufferedBody)
	}
	return b, nil
}

// retryDelay honours Retry-After (seconds or an HTTP date) up to
// MaxRetryAfter, else doubles from firstBackoff; asked says the server set it.
func retryDelay(retryAfter string, attempt int, now time.Time) (delay time.Duration, asked bool) {
	if d, ok := parseRetryAfter(retryAfter, now); ok {
		return min(d, MaxRetryAfter), true
	}
	return min(firstBackoff<<attempt, maxBackoff), false
}

func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(v); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, 3600)) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}
