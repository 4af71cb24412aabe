package diagnose

import (
	"fmt"
	"maps"
	"net/netip"
	"os"
	"strings"
	"testing"
)

const procNetTCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode                                                     
   0: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1534 1 00000000f49660f8 100 0 0 10 0                      
   1: 0100007F:1F90 0100007F:C350 08 00000000:0000002A 00:00000000 00000000  1000        0 20567 1 0000000000000000 20 4 30 10 -1
   2: 0A00020F:1F90 0B0C0D0E:D431 01 00000010:00000000 01:00000012 00000000     0        0 20568 1 0000000000000000 20 4 30 10 -1
`

const procNetTCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1600 1 0000000000000000 100 0 0 10 0
   1: 0000000000000000FFFF00000100007F:1F90 0000000000000000FFFF00000100007F:C351 08 00000000:00000000 00:00000000 00000000     0        0 1601 1 0000000000000000 20 4 30 10 -1
   2: B80D0120000000000000000001000000:1F90 B80D0120000000000000000002000000:E000 06 00000000:00000000 03:00000AB1 00000000     0        0 0 3 0000000000000000
`

func TestParseProcNetTCP(t *testing.T) {
	ap := netip.MustParseAddrPort
	for _, tc := range []struct {
		name    string
		text    string
		want    []Socket
		wantErr string
	}{
		{"tcp", procNetTCP, []Socket{
			{Local: ap("0.0.0.0:8080"), Remote: ap("0.0.0.0:0"), StateCode: 0x0A, State: "LISTEN", Inode: 1534},
			{Local: ap("127.0.0.1:8080"), Remote: ap("127.0.0.1:50000"), StateCode: 0x08, State: "CLOSE_WAIT", RxQueue: 42, UID: 1000, Inode: 20567},
			{Local: ap("15.2.0.10:8080"), Remote: ap("14.13.12.11:54321"), StateCode: 0x01, State: "ESTABLISHED", TxQueue: 16, Inode: 20568},
		}, ""},
		{"tcp6", procNetTCP6, []Socket{
			{Local: ap("[::1]:8080"), Remote: ap("[::]:0"), StateCode: 0x0A, State: "LISTEN", Inode: 1600},
			{Local: ap("127.0.0.1:8080"), Remote: ap("127.0.0.1:50001"), StateCode: 0x08, State: "CLOSE_WAIT", Inode: 1601},
			{Local: ap("[2001:db8::1]:8080"), Remote: ap("[2001:db8::2]:57344"), StateCode: 0x06, State: "TIME_WAIT"},
		}, ""},
		{"header only", "  sl  local_address rem_address   st tx_queue\n", nil, ""},
		{"minimal row, no header", "0: 0100007F:0050 00000000:0000 0C", []Socket{
			{Local: ap("127.0.0.1:80"), Remote: ap("0.0.0.0:0"), StateCode: 0x0C, State: "NEW_SYN_RECV"}}, ""},
		{"unknown state code", "0: 0100007F:0050 00000000:0000 1F", []Socket{
			{Local: ap("127.0.0.1:80"), Remote: ap("0.0.0.0:0"), StateCode: 0x1F, State: "UNKNOWN_1F"}}, ""},
		{"empty", "", nil, "no header"},
		{"not found", "cat: /proc/net/tcp: No such file or directory\n", nil, "line 1"},
		{"short row", "  sl local\n 0: 0100007F:0050\n", nil, "line 2: want at least 4 fields"},
		{"bad slot", "x 0100007F:0050 00000000:0000 0A", nil, "bad slot"},
		{"bad address length", "0: 01007F:0050 00000000:0000 0A", nil, "local address"},
		{"bad port", "0: 0100007F:ZZ50 00000000:0000 0A", nil, "bad port"},
		{"bad state", "0: 0100007F:0050 00000000:0000 XYZ", nil, "bad state"},
	} {
		got, err := ParseProcNetTCP(tc.text)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err = %v, want containing %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s:\n got %v\nwant %v", tc.name, got, tc.want)
		}
	}
}

func TestParseProcNetTCPConcatenatedAndCounted(t *testing.T) {
	var b strings.Builder
	b.WriteString(procNetTCP)
	b.WriteString(procNetTCP6)
	// A backlog like backlog-web's: hundreds of CLOSE_WAIT rows.
	for i := range 466 {
		fmt.Fprintf(&b, "%4d: 0100007F:1F90 0100007F:%04X 08 00000000:00000000 00:00000000 00000000     0        0 %d 1\n", i+10, 40000+i, 30000+i)
	}
	socks, err := ParseProcNetTCP(b.String())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"LISTEN": 2, "CLOSE_WAIT": 468, "ESTABLISHED": 1, "TIME_WAIT": 1}
	if got := CountStates(socks); !maps.Equal(got, want) {
		t.Fatalf("CountStates = %v, want %v", got, want)
	}
}

func TestParseProcNetTCPThisHost(t *testing.T) {
	for _, path := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Skipf("%s: %v", path, err)
		}
		if _, err := ParseProcNetTCP(string(data)); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}
