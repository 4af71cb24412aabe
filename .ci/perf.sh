#!/usr/bin/env bash
# flywake's performance figures against its peers, from ONE run, all on
# 127.0.0.1 (README "Performance"). Prints each figure with the command that
# reproduces it, then a table.
#
#   .ci/perf.sh           # about 4 minutes
#   .ci/perf.sh --quick   # under 2 minutes: fewer rounds and transitions, no soak
#                         # (.ci/run's FLYWAKE_LONG=1 go test ./... runs the short soak); CI runs this
#
# What it runs:
#   - API economy: a ui/app test with FLYWAKE_PERF=1 (the root model's real
#     data flow against flysim at speed 1); detection: sources/watch's
#     outside changes against 5 s polling, side by side;
#   - soak (short variant) and in-process start-up: ui/app tests;
#   - wake engine vs hey on the same warm flysim edge (cmd/flywake-perf),
#     rounds alternating, and the engine's start skew at 40/200/1000;
#   - start-up of the real binary: `flywake --demo -a sleepy-api` in tmux until machine
#     rows show (skipped when tmux is missing).
# hey is installed if missing (go install github.com/rakyll/hey@v0.1.5);
# without it the comparison is skipped, never failed.
set -euo pipefail

quick=""
[ "${1:-}" = "--quick" ] && quick=1
ROUNDS=${ROUNDS:-$([ -n "$quick" ] && echo 3 || echo 7)}
SKEW_ROUNDS=${SKEW_ROUNDS:-$([ -n "$quick" ] && echo 2 || echo 5)}
STARTS=${STARTS:-$([ -n "$quick" ] && echo 3 || echo 5)}
N=${N:-40}

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
edge_pid=""
tmux_session="flywake-perf-$$"
cleanup() {
	if [ -n "$edge_pid" ]; then kill "$edge_pid" 2>/dev/null || true; wait "$edge_pid" 2>/dev/null || true; fi
	if command -v tmux >/dev/null; then tmux kill-session -t "$tmux_session" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
cd "$repo"

echo "flywake perf — $(date -u +%FT%TZ), $(nproc) CPUs, $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)${quick:+, --quick}"
table="$work/table"
: >"$table"
row() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$table"; }

# --- builds -------------------------------------------------------------------
go build -o "$work/" ./cmd/flywake ./cmd/flywake-perf ./sources/edge/bench/enginecli

gobin=$(go env GOBIN); [ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
hey_bin=$(command -v hey || true)
if [ -z "$hey_bin" ] && [ -x "$gobin/hey" ]; then hey_bin="$gobin/hey"; fi
if [ -z "$hey_bin" ]; then
	echo "installing hey (go install github.com/rakyll/hey@v0.1.5)..." >&2
	if (cd "$work" && go install github.com/rakyll/hey@v0.1.5) >&2 && [ -x "$gobin/hey" ]; then hey_bin="$gobin/hey"; fi
fi

# --- data flow: API economy ‖ detection latency (separate processes) -----------
export FLYWAKE_PERF=1 FLYWAKE_LONG=1 # the economy minute and the soak are long tests
[ -n "$quick" ] && export FLYWAKE_PERF_QUICK=1
echo "== API economy and detection latency (about a minute, both at speed 1)"
go test ./ui/app -run 'TestAPIEconomy' -count=1 -v >"$work/econ.out" 2>&1 &
econ_pid=$!
go test ./sources/watch -run 'TestDetectionAgainstPolling' -count=1 -v >"$work/detect.out" 2>&1 || { cat "$work/detect.out"; exit 1; }
wait "$econ_pid" || { cat "$work/econ.out"; exit 1; }
perf() { sed -n "s/^PERF $1 //p" "$2"; }
for n in 10 500; do
	v=$(perf "economy.$n" "$work/econ.out")
	echo "economy, steady $n machines: $v"
	row "API calls/min, steady $n machines (flywake vs fly machine list every 2 s)" \
		"$(sed -n 's/^\([0-9.]*\) Machines API calls\/min.*ratio calls \([0-9.]*x\), bytes \([0-9.]*x\).*/\1 vs 30 (calls \2, bytes \3)/p' <<<"$v")" \
		"FLYWAKE_PERF=1 FLYWAKE_LONG=1 go test ./ui/app -run TestAPIEconomy -v"
done
for k in flywake plain ratio stop suspend crash autostop start; do
	echo "detection, outside change → model holds it, $k: $(perf "detect.$k" "$work/detect.out")"
done
budget=$(perf detect.budget "$work/detect.out")
[ -z "$budget" ] || echo "detection, the Machines API budget while changes arrive: $budget"
row "detection median, p95 (flywake vs 5 s polling)" \
	"$(perf detect.flywake "$work/detect.out" | sed -n 's/^median \([^,]*\), p95 \([^;]*\);.*/\1, \2/p') vs $(perf detect.plain "$work/detect.out" | sed -n 's/^median \([^,]*\), p95 \([^;]*\);.*/\1, \2/p')" \
	"FLYWAKE_PERF=1 go test ./sources/watch -run TestDetectionAgainstPolling -v"

# --- soak (short) and in-process start-up ---------------------------------------
echo "== soak (short variant) and in-process start-up"
: >"$work/soak.out"
if [ -z "$quick" ]; then
	go test ./ui/app -run 'TestSoak' -count=1 -v >"$work/soak.out" 2>&1 || { cat "$work/soak.out"; exit 1; }
	v=$(perf soak "$work/soak.out"); echo "$v"
	row "soak: live heap median, middle → last third" "$(sed -n 's/.*heap MB median middle third \([0-9.]*\), last third \([0-9.]*\).*/\1 → \2 MB/p' <<<"$v")" \
		"FLYWAKE_LONG=1 go test ./ui/app -run TestSoak -v  (FLYWAKE_SOAK=long: 30 min)"
	row "soak: goroutines before → after; fds before → after" \
		"$(sed -n 's/.*before \([0-9]*\), after teardown \([0-9]*\); fds before \([0-9]*\), peak [0-9.]*, after \([0-9]*\).*/\1 → \2; \3 → \4/p' <<<"$v")" \
		"FLYWAKE_LONG=1 go test ./ui/app -run TestSoak -v"
fi
go test ./ui/app -run 'TestStartup|TestOrgFirstFrame' -count=1 -v >>"$work/soak.out" 2>&1 || { cat "$work/soak.out"; exit 1; }
v=$(perf startup.inprocess "$work/soak.out"); echo "start-up in process (flysim + model + first list/logs + frame): $v"
echo "org overview, 100 apps / 10,000 machines, first full frame: $(perf org.first_frame "$work/soak.out")"
row "start-up, in process (to first full frame)" "$(sed -n 's/^median \([^ ]*\).*/\1/p' <<<"$v")" \
	"FLYWAKE_PERF=1 go test ./ui/app -run TestStartup -v"
unset FLYWAKE_PERF FLYWAKE_PERF_QUICK FLYWAKE_LONG

# --- wake engine vs hey on one warm flysim edge ---------------------------------
echo "== wake engine vs hey, same warm flysim edge (cmd/flywake-perf: 10 warm machines, 2–4 ms per request)"
"$work/flywake-perf" >"$work/edge.out" &
edge_pid=$!
for _ in $(seq 50); do [ -s "$work/edge.out" ] && break; sleep 0.1; done
url=$(head -n1 "$work/edge.out")
case "$url" in http://127.0.0.1:*) ;; *) echo "warm edge did not start" >&2; exit 1 ;; esac
"$work/enginecli" -url "$url" -n "$N" >/dev/null # warm both sides once, untimed

median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) {print "nan"; exit} m=int((NR+1)/2); print v[m]}'; }
engine_round() { "$work/enginecli" -url "$url" -n "$N" | sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p'; }
hey_round() { "$hey_bin" -n "$N" -c "$N" -o csv "$url/" | awk -F, 'NR>1 && $1 ~ /^[0-9.]+$/ {print $1*1000}' | median; }
if [ -n "$hey_bin" ]; then
	: >"$work/engine.ms"; : >"$work/hey.ms"
	for r in $(seq "$ROUNDS"); do
		if [ $((r % 2)) -eq 1 ]; then e=$(engine_round); h=$(hey_round); else h=$(hey_round); e=$(engine_round); fi
		echo "$e" >>"$work/engine.ms"; echo "$h" >>"$work/hey.ms"
		printf '  round %d: engine %s ms, hey %s ms\n' "$r" "$e" "$h"
	done
	em=$(median <"$work/engine.ms"); hm=$(median <"$work/hey.ms")
	ratio=$(awk -v e="$em" -v h="$hm" 'BEGIN { if (h > 0) printf "%.2f", e / h; else print "nan" }')
	echo "median of $ROUNDS round medians, $N concurrent: engine $em ms, hey $hm ms, engine/hey ${ratio}x (target <= 1.1x)"
	row "wake engine / hey, median of round medians ($N concurrent)" "${ratio}x ($em vs $hm ms)" ".ci/perf.sh"
else
	echo "hey unavailable: comparison skipped"
	row "wake engine / hey" "skipped (no hey)" ".ci/perf.sh"
fi
for n in 40 200 1000; do
	"$work/enginecli" -url "$url" -n "$n" -rounds "$SKEW_ROUNDS" >"$work/skew.$n"
	skew=$(sed -n 's/.*start_skew_ms=\([0-9.]*\).*/\1/p' "$work/skew.$n" | median)
	p50=$(sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p' "$work/skew.$n" | median)
	ok=$(awk '{for (i=1;i<=NF;i++) if ($i ~ /^ok=/) {split($i,a,"="); s+=a[2]}} END {print s}' "$work/skew.$n")
	echo "engine, $n concurrent: start skew median ${skew} ms, latency median ${p50} ms, ok $ok/$((n * SKEW_ROUNDS))"
	row "engine start skew, $n concurrent" "${skew} ms" "flywake-perf & enginecli -url URL -n $n -rounds $SKEW_ROUNDS"
done
kill "$edge_pid" 2>/dev/null || true; wait "$edge_pid" 2>/dev/null || true; edge_pid=""

# --- start-up of the real binary ---------------------------------------------------
if command -v tmux >/dev/null; then
	echo "== start-up: flywake --demo -a sleepy-api in tmux (160x48) until machine rows show, $STARTS runs"
	: >"$work/start.ms"
	for _ in $(seq "$STARTS"); do
		t0=$(date +%s%N)
		tmux new-session -d -s "$tmux_session" -x 160 -y 48 "$work/flywake --demo -a sleepy-api"
		shown=""
		for _ in $(seq 1000); do
			if tmux capture-pane -p -t "$tmux_session" 2>/dev/null | grep -q "of 10"; then shown=1; break; fi
			sleep 0.01
		done
		t1=$(date +%s%N)
		tmux kill-session -t "$tmux_session" 2>/dev/null || true
		[ -n "$shown" ] && echo $(((t1 - t0) / 1000000)) >>"$work/start.ms"
	done
	sm=$(median <"$work/start.ms")
	echo "first full frame of flywake --demo: median $sm ms ($(tr '\n' ' ' <"$work/start.ms")ms)"
	row "start-up, flywake --demo -a sleepy-api to machine rows (tmux)" "$sm ms" ".ci/perf.sh (tmux)"
else
	echo "tmux missing: binary start-up skipped (the in-process figure stands)"
fi

echo
echo "== summary"
awk -F'\t' '{printf "%-72s %-40s %s\n", $1, $2, $3}' "$table"
