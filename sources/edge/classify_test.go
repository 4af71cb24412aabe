package edge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
)

type fakeNetTimeout struct{}

func (fakeNetTimeout) Error() string   { return "i/o timeout" }
func (fakeNetTimeout) Timeout() bool   { return true }
func (fakeNetTimeout) Temporary() bool { return true }

func TestClassifyErr(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	reset := &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	tests := []struct {
		name     string
		err      error
		reqCause error
		runErr   error
		want     ErrClass
	}{
		{"own timeout wins", context.Canceled, errRequestTimeout, nil, ErrTimeout},
		{"run cancelled", context.Canceled, context.Canceled, context.Canceled, ErrAborted},
		{"refused", refused, nil, nil, ErrRefused},
		{"reset", reset, nil, nil, ErrReset},
		{"eof is a closed connection", fmt.Errorf("read: %w", io.EOF), nil, nil, ErrReset},
		{"unexpected eof", io.ErrUnexpectedEOF, nil, nil, ErrReset},
		{"net timeout", fakeNetTimeout{}, nil, nil, ErrTimeout},
		{"deadline", context.DeadlineExceeded, nil, nil, ErrTimeout},
		{"dns or tls", errors.New("x509: certificate signed by unknown authority"), nil, nil, ErrOther},
	}
	for _, tt := range tests {
		if got := classifyErr(tt.err, tt.reqCause, tt.runErr); got != tt.want {
			t.Errorf("%s: classifyErr = %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestClassifyStatus(t *testing.T) {
	tests := map[int]ErrClass{
		200: ErrNone, 204: ErrNone, 301: ErrHTTPStatus, 404: ErrHTTPStatus, 500: ErrHTTPStatus,
		502: ErrProxy5xx, 503: ErrProxy5xx, 504: ErrProxy5xx, 505: ErrHTTPStatus,
	}
	for status, want := range tests {
		if got := classifyStatus(status); got != want {
			t.Errorf("classifyStatus(%d) = %s, want %s", status, got, want)
		}
	}
}
