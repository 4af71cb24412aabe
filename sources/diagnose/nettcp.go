package diagnose

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// Sockets in CLOSE_WAIT are connections the client already closed while the
// app has not answered yet: a backlog of work nobody is waiting for. Without
// a hard limit the proxy keeps sending more (hundreds of them).

// Socket is one row of /proc/net/tcp or /proc/net/tcp6.
type Socket struct {
	Local, Remote netip.AddrPort
	StateCode     uint8
	State         string
	TxQueue       uint64
	RxQueue       uint64
	UID           uint64
	Inode         uint64
}

var tcpStates = map[uint8]string{
	0x01: "ESTABLISHED", 0x02: "SYN_SENT", 0x03: "SYN_RECV", 0x04: "FIN_WAIT1",
	0x05: "FIN_WAIT2", 0x06: "TIME_WAIT", 0x07: "CLOSE", 0x08: "CLOSE_WAIT",
	0x09: "LAST_ACK", 0x0A: "LISTEN", 0x0B: "CLOSING", 0x0C: "NEW_SYN_RECV",
}

// TCPStateName names a kernel TCP state code, e.g. 0x08 → "CLOSE_WAIT".
func TCPStateName(code uint8) string {
	if s, ok := tcpStates[code]; ok {
		return s
	}
	return fmt.Sprintf("UNKNOWN_%02X", code)
}

// ParseProcNetTCP reads /proc/net/tcp, /proc/net/tcp6, or both concatenated
// (each with its own header line). Addresses are in the kernel's host byte
// order, which is little-endian on every machine Fly runs.
func ParseProcNetTCP(text string) ([]Socket, error) {
	var out []Socket
	headers := 0
	for n, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		if strings.HasPrefix(trimmed, "sl ") || trimmed == "sl" {
			headers++
			continue
		}
		s, err := parseTCPRow(trimmed)
		if err != nil {
			return nil, fmt.Errorf("proc net tcp line %d: %w", n+1, err)
		}
		out = append(out, s)
	}
	if headers == 0 && len(out) == 0 {
		return nil, errors.New("proc net tcp: no header and no rows")
	}
	return out, nil
}

func parseTCPRow(line string) (Socket, error) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return Socket{}, fmt.Errorf("want at least 4 fields, got %d", len(f))
	}
	if !strings.HasSuffix(f[0], ":") {
		return Socket{}, fmt.Errorf("bad slot %q", clip(f[0], 20))
	}
	if _, err := strconv.ParseUint(strings.TrimSuffix(f[0], ":"), 10, 64); err != nil {
		return Socket{}, fmt.Errorf("bad slot %q", clip(f[0], 20))
	}
	var s Socket
	var err error
	if s.Local, err = parseHexAddrPort(f[1]); err != nil {
		return Socket{}, fmt.Errorf("local address: %w", err)
	}
	if s.Remote, err = parseHexAddrPort(f[2]); err != nil {
		return Socket{}, fmt.Errorf("remote address: %w", err)
	}
	st, err := strconv.ParseUint(f[3], 16, 8)
	if err != nil || len(f[3]) != 2 {
		return Socket{}, fmt.Errorf("bad state %q", clip(f[3], 20))
	}
	s.StateCode = uint8(st)
	s.State = TCPStateName(s.StateCode)
	// The remaining columns are informative; read them when they parse.
	if len(f) > 4 {
		if tx, rx, ok := strings.Cut(f[4], ":"); ok {
			s.TxQueue, _ = strconv.ParseUint(tx, 16, 64)
			s.RxQueue, _ = strconv.ParseUint(rx, 16, 64)
		}
	}
	if len(f) > 7 {
		s.UID, _ = strconv.ParseUint(f[7], 10, 64)
	}
	if len(f) > 9 {
		s.Inode, _ = strconv.ParseUint(f[9], 10, 64)
	}
	return s, nil
}

// parseHexAddrPort reads "0100007F:1F90" (IPv4) or a 32-hex-digit IPv6 address.
// The kernel prints the address as 32-bit words in host order; the port is big-endian.
func parseHexAddrPort(s string) (netip.AddrPort, error) {
	addrHex, portHex, ok := strings.Cut(s, ":")
	if !ok || len(portHex) != 4 {
		return netip.AddrPort{}, fmt.Errorf("bad address %q", clip(s, 50))
	}
	port, err := strconv.ParseUint(portHex, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("bad port %q", clip(portHex, 10))
	}
	raw, err := hex.DecodeString(addrHex)
	if err != nil || (len(raw) != 4 && len(raw) != 16) {
		return netip.AddrPort{}, fmt.Errorf("bad address %q", clip(addrHex, 40))
	}
	for w := 0; w < len(raw); w += 4 {
		raw[w], raw[w+1], raw[w+2], raw[w+3] = raw[w+3], raw[w+2], raw[w+1], raw[w]
	}
	addr, _ := netip.AddrFromSlice(raw)
	return netip.AddrPortFrom(addr.Unmap(), uint16(port)), nil
}

// CountStates counts sockets per state name.
func CountStates(sockets []Socket) map[string]int {
	counts := map[string]int{}
	for _, s := range sockets {
		counts[s.State]++
	}
	return counts
}
