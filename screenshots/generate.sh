#!/usr/bin/env bash
# Regenerates every screenshot in this directory from the real TUI running on
# the embedded demo platform: tmux at a fixed size → capture with colours →
# freeze → PNG and SVG. Run from anywhere: bash screenshots/generate.sh
# (bash screenshots/generate.sh overview: only the shots whose names hold it).
# Needs tmux and python3 (on the machine image); installs freeze, pngquant and
# rsvg-convert if missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
export PATH="$PATH:$(go env GOPATH)/bin"
command -v freeze >/dev/null || go install github.com/charmbracelet/freeze@v0.2.2
command -v tmux >/dev/null || { echo "tmux is needed" >&2; exit 1; }
# pngquant makes the PNGs several times smaller, looking the same.
command -v pngquant >/dev/null || apt-get install -y pngquant >/dev/null 2>&1 || true
command -v rsvg-convert >/dev/null || apt-get install -y librsvg2-bin >/dev/null 2>&1 || true

only=${1:-}
bin=$(mktemp -d)/flywake
(cd "$root" && go build -o "$bin" ./cmd/flywake)
sock=""
trap '[ -n "$sock" ] && tmux -L "$sock" kill-server 2>/dev/null || true' EXIT

# svg_fonts SVG: rsvg-convert ignores the font freeze embeds in its SVG, so
# the embedded font is written out once and handed to fontconfig.
fonts=""
svg_fonts() {
  [ -n "$fonts" ] && return 0
  fonts=$(mktemp -d)
  python3 - "$1" "$fonts/embedded.ttf" <<'PY'
import base64, re, sys
m = re.search(r"base64,([A-Za-z0-9+/=]+)", open(sys.argv[1]).read())
open(sys.argv[2], "wb").write(base64.b64decode(m.group(1)))
PY
  printf '<?xml version="1.0"?><fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include><dir>%s</dir></fontconfig>\n' "$fonts" > "$fonts/fonts.conf"
}

# shot NAME COLS ROWS "ENV" "ARGS" WAIT_FOR KEY...: run flywake, wait until
# WAIT_FOR shows, type the keys (one per send-keys: bubbletea reads a burst
# as one key), capture.
shot() {
  local name=$1 cols=$2 rows=$3 env=$4 args=$5 wait_for=$6
  shift 6
  [[ -n $only && $name != *"$only"* ]] && return 0
  [ -n "$sock" ] && tmux -L "$sock" kill-server 2>/dev/null || true
  sock="flywake-shots-$$-$name" # a server per shot: reusing one races its shutdown
  tmux -L "$sock" new-session -d -s s -x "$cols" -y "$rows" \
    "env TERM=xterm-256color COLORTERM=truecolor $env $bin $args"
  for _ in $(seq 1 100); do
    tmux -L "$sock" capture-pane -p -t s | grep -q -- "$wait_for" && break
    sleep 0.1
  done
  sleep 2 # let the first probes and logs land
  for k in "$@"; do
    if [[ $k == sleep:* ]]; then sleep "${k#sleep:}"; continue; fi
    if [[ $k == until:* ]]; then # wait (up to 90 s) for text on screen
      for _ in $(seq 1 900); do
        tmux -L "$sock" capture-pane -p -t s | grep -q -- "${k#until:}" && break
        sleep 0.1
      done
      continue
    fi
    tmux -L "$sock" send-keys -t s "$k"
    sleep 0.4
  done
  sleep 0.5
  tmux -L "$sock" capture-pane -e -p -t s | python3 "$here/sgr_lines.py" > "$here/$name.ansi"
  freeze --language ansi --window=false --padding 16 --font.size 14 \
    --background "#171421" -o "$here/$name.svg" < "$here/$name.ansi" >/dev/null
  # freeze's own PNG renderer crashes when built with Go 1.26 (SIGSEGV in
  # its rasteriser); rsvg-convert draws the same SVG.
  if command -v rsvg-convert >/dev/null; then
    svg_fonts "$here/$name.svg"
    FONTCONFIG_FILE="$fonts/fonts.conf" rsvg-convert --zoom 2 -o "$here/$name.png" "$here/$name.svg"
  else
    freeze --language ansi --window=false --padding 16 --font.size 14 \
      --background "#171421" -o "$here/$name.png" < "$here/$name.ansi" >/dev/null
  fi
  if command -v pngquant >/dev/null; then
    pngquant --quality 70-95 --speed 1 --force --output "$here/$name.png" "$here/$name.png"
  fi
  rm -f "$here/$name.ansi"
  echo "screenshots/$name.{png,svg}"
}

demo="--demo --seed 1 -a sleepy-api"
# The tab order: Machines, Cold starts, Traffic, Swap, Bytecode, Volumes, Backlog.
shot dashboard-160x48      160 48 "" "$demo"                 "started" "until:cold boots (24 h)"
shot machines-80x24         80 24 "" "$demo"                 "started"
shot coldstarts-80x24       80 24 "" "$demo"                 "started" Tab
shot traffic-120x40        120 40 "" "$demo"                 "started" Tab Tab f "until:scanner"
shot swap-80x24             80 24 "" "$demo"                 "started" Tab Tab Tab
shot bytecode-80x24         80 24 "" "$demo"                 "started" Tab Tab Tab Tab
shot volumes-120x40        120 40 "" "--demo --seed 1 -a backlog-web" "started" Tab Tab Tab Tab Tab f "until:attached to"
shot backlog-120x40        120 40 "" "--demo --seed 1 -a backlog-web" "started" Tab Tab Tab Tab Tab Tab f "until:CLOSE_WAIT"
shot drilldown-80x24        80 24 "" "$demo"                 "started" Enter
shot describe-120x40       120 40 "" "$demo"                 "started" d "until:config"
shot crashloop-160x48      160 48 "" "--demo --seed 1 -a crashy-api" "crash"
shot rollout-160x48        160 48 "" "$demo"                 "started" D c y "until:Rolled out" Escape "until:crash-loop" sleep:2
shot overview-120x36       120 36 "FLY_APP=" "--demo --seed 1" "Apps of demo-org" sleep:8
shot logs-120x36           120 36 "" "$demo"                 "started" l "until:following"
shot checklist-120x36      120 36 "" "$demo"                 "started" c n Enter
shot nocolor-80x24          80 24 "NO_COLOR=1" "$demo"       "started"
shot wake-both-120x40      120 40 "XDG_STATE_HOME=$(mktemp -d)" "--demo --seed 1 --speed 10 -a snappy-api" "started" w sleep:1 3 sleep:1 Enter y "until:saved" sleep:1
# The replay of the demo's recorded day (made once into a cache of its own,
# so the shot does not wait for it), at 09:43 with the time bar.
replay_cache=$(mktemp -d)
if [[ -z $only || replay-160x48 == *"$only"* ]]; then
  XDG_CACHE_HOME=$replay_cache "$bin" status --replay --demo >/dev/null
fi
shot replay-160x48         160 48 "XDG_CACHE_HOME=$replay_cache" "--replay --demo -a sleepy-api --at 09:43" "paused" "until:cold boots"
