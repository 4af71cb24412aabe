#!/usr/bin/env bash
# Compares the wake-test engine with hey against the same warm local server,
# in one run, rounds alternating, and prints the ratio of medians
# (engine/hey) plus the engine's start skew at 40, 200 and 1000 requests.
# Only ever talks to 127.0.0.1.
#
#   N=40 ROUNDS=5 DELAY=0ms sources/edge/bench/compare-hey.sh
set -euo pipefail

N=${N:-40}
ROUNDS=${ROUNDS:-5}
DELAY=${DELAY:-0ms}
SKEW_ROUNDS=${SKEW_ROUNDS:-5}

repo=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
server_pid=""
cleanup() {
	if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

# hey: install once (guarded), never fail the script over it.
gobin=$(go env GOBIN); [ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
hey_bin=$(command -v hey || true)
if [ -z "$hey_bin" ] && [ -x "$gobin/hey" ]; then hey_bin="$gobin/hey"; fi
if [ -z "$hey_bin" ]; then
	echo "installing hey (go install github.com/rakyll/hey@v0.1.5)..." >&2
	if (cd "$work" && go install github.com/rakyll/hey@v0.1.5) >&2 && [ -x "$gobin/hey" ]; then
		hey_bin="$gobin/hey"
	fi
fi

(cd "$repo" && go build -o "$work/" ./sources/edge/bench/warmserver ./sources/edge/bench/enginecli)

"$work/warmserver" -delay "$DELAY" >"$work/server.out" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/server.out" ] && break; sleep 0.1; done
url=$(head -n1 "$work/server.out")
case "$url" in http://127.0.0.1:*) ;; *) echo "warm server did not start" >&2; exit 1 ;; esac
echo "warm server $url (delay $DELAY), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

# Warm both sides once, untimed.
"$work/enginecli" -url "$url" -n "$N" >/dev/null

median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) {print "nan"; exit} m=int((NR+1)/2); print v[m]}'; }

engine_round() { "$work/enginecli" -url "$url" -n "$N" | sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p'; }
hey_round() {
	# hey -o csv: response-time (s) is the first column, one row per request.
	"$hey_bin" -n "$N" -c "$N" -o csv "$url/" | awk -F, 'NR>1 && $1 ~ /^[0-9.]+$/ {print $1*1000}' | median
}

if [ -n "$hey_bin" ]; then
	: >"$work/engine.ms"; : >"$work/hey.ms"
	printf '%-6s %-8s %12s %12s\n' round first engine_ms hey_ms
	for r in $(seq "$ROUNDS"); do
		if [ $((r % 2)) -eq 1 ]; then
			e=$(engine_round); h=$(hey_round); first=engine
		else
			h=$(hey_round); e=$(engine_round); first=hey
		fi
		echo "$e" >>"$work/engine.ms"; echo "$h" >>"$work/hey.ms"
		printf '%-6s %-8s %12s %12s\n' "$r" "$first" "$e" "$h"
	done
	em=$(median <"$work/engine.ms"); hm=$(median <"$work/hey.ms")
	ratio=$(awk -v e="$em" -v h="$hm" 'BEGIN { if (h > 0) printf "%.2f", e / h; else print "nan" }')
	echo "median of round medians, $N requests: engine ${em} ms, hey ${hm} ms, ratio engine/hey ${ratio}x (target <= 1.1x)"
else
	echo "hey unavailable: skipping the comparison"
fi

echo "engine start skew (last send - first send), $SKEW_ROUNDS rounds each; round 1 is a cold process:"
for n in 40 200 1000; do
	"$work/enginecli" -url "$url" -n "$n" -rounds "$SKEW_ROUNDS" >"$work/skew.$n"
	first=$(sed -n '1s/.*start_skew_ms=\([0-9.]*\).*/\1/p' "$work/skew.$n")
	med=$(sed -n 's/.*start_skew_ms=\([0-9.]*\).*/\1/p' "$work/skew.$n" | median)
	wire=$(sed -n 's/.*wire_skew_ms=\([0-9.]*\).*/\1/p' "$work/skew.$n" | median)
	ok=$(awk '{for (i=1;i<=NF;i++) if ($i ~ /^ok=/) {split($i,a,"="); s+=a[2]}} END {print s}' "$work/skew.$n")
	printf 'n=%-5s start skew: cold %8s ms, median %8s ms; wire skew median %8s ms; ok %s/%s\n' \
		"$n" "$first" "$med" "$wire" "$ok" $((n * SKEW_ROUNDS))
done
