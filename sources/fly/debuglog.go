package fly

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/flywake/flywake/sources/sanitize"
)

// DebugLog is the opt-in log a user attaches to a problem report
// (`--debug FILE`): one line per API attempt (method, path, status,
// duration), per retry and per failure, plus whatever the command adds.
// Every line passes through sanitize.Redact with every secret the log was told of,
// so the token never reaches the file. A nil *DebugLog logs nothing. Safe
// for concurrent use.
type DebugLog struct {
	mu      sync.Mutex
	w       io.Writer
	secrets []string
	now     func() time.Time
}

// maxDebugEntry bounds one entry: enough for a panic's stack, never a
// whole answer someone passed in.
const maxDebugEntry = 16 << 10

// NewDebugLog logs to w, redacting secrets.
func NewDebugLog(w io.Writer, secrets ...string) *DebugLog {
	return &DebugLog{w: w, secrets: secrets, now: time.Now}
}

// AddSecret makes the log redact s from now on (the token, once known).
func (d *DebugLog) AddSecret(s string) {
	if d == nil || s == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.secrets = append(d.secrets, s)
}

// Printf writes one line: the wall time, then the formatted text, redacted,
// each embedded newline indented so one entry stays one block.
func (d *DebugLog) Printf(format string, args ...any) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	text := sanitize.Clip(sanitize.Redact(fmt.Sprintf(format, args...), d.secrets...), maxDebugEntry)
	text = strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", "\n    ")
	_, _ = fmt.Fprintf(d.w, "%s %s\n", d.now().UTC().Format("2006-01-02T15:04:05.000Z"), text)
}

// apiCall logs one answered attempt.
func (d *DebugLog) apiCall(method, path string, status int, took time.Duration) {
	d.Printf("api %s %s → %d in %s", method, path, status, took.Round(time.Microsecond))
}

// apiFailed logs an attempt that got no answer.
func (d *DebugLog) apiFailed(method, path string, err error, took time.Duration) {
	d.Printf("api %s %s failed after %s: %v", method, path, took.Round(time.Microsecond), err)
}

// apiRetry logs a retry about to wait.
func (d *DebugLog) apiRetry(method, path string, status, attempt int, delay time.Duration) {
	d.Printf("api %s %s → %d: retry %d of %d in %s", method, path, status, attempt+1, maxRetries, delay)
}
