// Command warmserver is a warm stand-in for an app behind the edge: it
// answers every request 200 after an optional fixed delay, echoes a machine
// id, and prints its base URL on the first line of stdout. Loopback only.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (must be loopback)")
	delay := flag.Duration("delay", 0, "fixed delay before each answer")
	flag.Parse()

	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		log.Fatalf("warmserver: %q is not a loopback address", *addr)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("warmserver: %v", err)
	}
	fmt.Fprintf(os.Stdout, "http://%s\n", ln.Addr())
	os.Stdout.Sync()

	srv := &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if *delay > 0 {
				time.Sleep(*delay)
			}
			w.Header().Set("Fly-Machine-Id", "warm-1")
			w.Header().Set("Fly-Request-Id", "01WARM-local")
			io.WriteString(w, "ok\n")
		}),
	}
	log.Fatal(srv.Serve(ln))
}
