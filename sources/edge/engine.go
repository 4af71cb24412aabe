package edge

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// maxBodyBytes caps how much of a response is read; the rest is dropped with
// the connection. A wake test needs the timing, not the page.
const maxBodyBytes = 8 << 20

// Engine fires plans. The zero value uses a fresh NewTransport per run.
type Engine struct {
	// Transport, when set, replaces the default; the caller owns it (Run
	// does not close its idle connections).
	Transport http.RoundTripper
}

// Run fires p with the default engine; see Engine.Run.
func Run(ctx context.Context, p Plan, onResult func(Result)) ([]Result, error) {
	return (&Engine{}).Run(ctx, p, onResult)
}

// Run prepares every request, releases them together, and returns one
// Result per request sent, ordered by Index.
//
// onResult, if not nil, is called once per result as it arrives, always from
// the goroutine that called Run, so it needs no locking (keep it quick: it
// delays nothing on the wire, but Run returns only after the last call).
//
// Cancelling ctx aborts: requests not yet sent are not sent (and are absent
// from the results), requests in flight are recorded with ErrClass
// ErrAborted, completed ones are kept, and Run returns them with ctx.Err().
// Hitting p.MaxTotal does the same and returns ErrMaxTotal. Run returns only
// after every goroutine it started has ended.
func (e *Engine) Run(ctx context.Context, p Plan, onResult func(Result)) ([]Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	p = p.WithDefaults()
	target, _ := p.target() // Validate checked it

	runCtx, cancelRun := context.WithTimeoutCause(ctx, p.MaxTotal, ErrMaxTotal)
	defer cancelRun()

	rt := e.Transport
	if rt == nil {
		dial, err := resolveOnce(runCtx, target)
		if err != nil {
			return nil, err
		}
		t := NewTransport()
		t.DialContext = dial
		defer t.CloseIdleConnections()
		warmUp(t, target)
		rt = t
	}

	shots := make([]*shot, p.Requests)
	for i := range shots {
		s, err := prepare(runCtx, target.String(), p, i)
		if err != nil {
			return nil, err
		}
		shots[i] = s
	}

	outcomes := make(chan outcome, p.Requests) // buffered: workers never wait on onResult
	start := make(chan struct{})
	var ready, done sync.WaitGroup
	ready.Add(p.Requests)
	done.Add(p.Requests)
	for _, s := range shots {
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			outcomes <- s.fire(runCtx, rt, p.EchoHeader)
		}()
	}
	ready.Wait()
	close(start)

	results := make([]Result, 0, p.Requests)
	for range p.Requests {
		o := <-outcomes
		if !o.sent {
			continue
		}
		results = append(results, o.result)
		if onResult != nil {
			onResult(o.result)
		}
	}
	done.Wait()
	for _, s := range shots {
		s.cancel(nil)
	}
	sort.Slice(results, func(i, j int) bool { return results[i].Index < results[j].Index })
	return results, runError(ctx, runCtx, results)
}

// runError says why a run ended early, if it did.
func runError(ctx, runCtx context.Context, results []Result) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if errors.Is(context.Cause(runCtx), ErrMaxTotal) {
		for _, r := range results {
			if r.ErrClass == ErrAborted {
				return ErrMaxTotal
			}
		}
	}
	return nil
}

type outcome struct {
	result Result
	sent   bool
}

// shot is one request made ready before the barrier, so that the work left
// after release is a clock read, a timer and the round trip.
type shot struct {
	index  int
	req    *http.Request
	ctx    context.Context
	cancel context.CancelCauseFunc
	// Offsets from sent, in ns, written by transport goroutines.
	wrote, firstByte atomic.Int64
	sent             time.Time
	timeout          time.Duration
}

func prepare(runCtx context.Context, url string, p Plan, i int) (*shot, error) {
	s := &shot{index: i, timeout: p.Timeout}
	s.ctx, s.cancel = context.WithCancelCause(runCtx)
	trace := &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) {
			s.wrote.Store(int64(time.Since(s.sent)))
		},
		GotFirstResponseByte: func() {
			s.firstByte.Store(int64(time.Since(s.sent)))
		},
	}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(s.ctx, trace), http.MethodGet, url, nil)
	if err != nil {
		s.cancel(nil)
		return nil, err
	}
	for k, vs := range p.Header {
		req.Header[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "flywake-wake-test")
	}
	s.req = req
	return s, nil
}

// fire sends the request and records what happened.
func (s *shot) fire(runCtx context.Context, rt http.RoundTripper, echoHeader string) outcome {
	if runCtx.Err() != nil {
		return outcome{} // aborted before release reached us: stop sending
	}
	s.sent = time.Now()
	timer := time.AfterFunc(s.timeout, func() { s.cancel(errRequestTimeout) })
	defer timer.Stop()

	r := Result{Index: s.index, Sent: s.sent}
	resp, err := rt.RoundTrip(s.req)
	if err == nil {
		r.Status = resp.StatusCode
		r.Machine = resp.Header.Get(echoHeader)
		r.RequestID = resp.Header.Get("Fly-Request-Id")
		r.BodyBytes, err = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBodyBytes))
		resp.Body.Close()
	}
	r.Total = time.Since(s.sent)
	r.Wrote = time.Duration(s.wrote.Load())
	r.TTFB = time.Duration(s.firstByte.Load())
	if err != nil {
		r.ErrClass = classifyErr(err, context.Cause(s.ctx), runCtx.Err())
		r.Err = err.Error()
	} else {
		r.ErrClass = classifyStatus(r.Status)
	}
	return outcome{result: r, sent: true}
}
