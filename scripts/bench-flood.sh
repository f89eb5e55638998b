#!/usr/bin/env bash
# Login flood benchmark (issue 15): a few players keep playing over HTTP while 48 clients post
# wrong passwords as fast as they can. On a fresh release server (SQLite) per phase, measures
# the p99 of the players' `POST .../moves` unloaded, then during the flood, and the server's
# peak resident memory (VmHWM) and its memory once the flood is over (VmRSS). Phases:
#
#   limits    the default limits (the flood meets the per-address login limit: 429s)
#   hashing   login limits off (CATAN_RATE_LOGIN_*=0): every attempt reaches the password
#             hashing pool, which is what bounds the damage
#
# Targets: moves p99 during the flood < 3x unloaded; peak RSS < 150 MiB. Cleans up everything
# it started. Loopback only; needs `wrk` (apt-get install wrk).
#
#   scripts/bench-flood.sh              # both phases
#   scripts/bench-flood.sh limits       # or: hashing
#
# Environment: BENCH_SECONDS (10), BENCH_CLIENTS (48), BENCH_GAMES (4) and BENCH_PLAYERS (2):
# the players, BENCH_PACE (10: moves per second per game, spread over its players, so each
# account stays within the per-account move limit), CATAN_* (passed to the server).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/bench.sh
. scripts/lib/bench.sh

WHICH=${1:-both}
DURATION=${BENCH_SECONDS:-10}
CLIENTS=${BENCH_CLIENTS:-48}
GAMES=${BENCH_GAMES:-4}
PLAYERS=${BENCH_PLAYERS:-2}
PACE=${BENCH_PACE:-10}
WORK=$(mktemp -d /tmp/catan-flood.XXXXXX)
PORT=$(free_port)
BASE="http://127.0.0.1:$PORT"
TARGET=${CARGO_TARGET_DIR:-target}
SERVER_PID=
FLOOD_PID=
SAMPLER_PID=

cleanup() {
    for pid in "$FLOOD_PID" "$SAMPLER_PID"; do
        if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    done
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }

echo "== building (release)"
cargo build --release --quiet --bin catan-server --example loadgen

# Each request a wrong password for one of 1,000 names (most of which do not exist); the
# statuses are counted per thread and summed at the end.
cat >"$WORK/flood.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) n = 0; s401 = 0; s429 = 0; s503 = 0; other = 0 end
function request()
    n = n + 1
    local body = string.format('{"username":"flood-%d","password":"wrong-password"}', n % 1000)
    return wrk.format(nil, "/api/v1/tokens", nil, body)
end
function response(status, headers, body)
    if status == 401 then s401 = s401 + 1
    elseif status == 429 then s429 = s429 + 1
    elseif status == 503 then s503 = s503 + 1
    else other = other + 1 end
end
function done(summary, latency, requests)
    local a, b, c, d = 0, 0, 0, 0
    for _, t in ipairs(threads) do
        a = a + t:get("s401"); b = b + t:get("s429"); c = c + t:get("s503"); d = d + t:get("other")
    end
    io.write(string.format("FLOOD 401=%d 429=%d 503=%d other=%d\n", a, b, c, d))
end
LUA

players() { # $1: seconds between registering and playing; prints the load generator's RESULT line
    "$TARGET/release/examples/loadgen" --url "$BASE" --games "$GAMES" --players "$PLAYERS" \
        --seconds "$DURATION" --pace "$PACE" --delay "$1" 2>>"$WORK/loadgen.err" | grep '^RESULT'
}

kib() { # $1: field of /proc/<server>/status, in KiB
    sed -n "s/^$1:[[:space:]]*\([0-9]*\) kB/\1/p" "/proc/$SERVER_PID/status"
}

phase() { # $1: name; the rest: VAR=value for the server
    local name=$1
    shift
    rm -rf "$WORK/data"
    local setting
    for setting in "$@"; do export "${setting?}"; done
    start_server "$PORT"
    for setting in "$@"; do unset "${setting%%=*}"; done
    local idle_rss
    idle_rss=$(kib VmRSS)

    local unloaded flooded flood p99_u p99_f
    unloaded=$(players 0)
    # The players register first (a flood without login limits would crowd them out of the
    # hashing pool), then the flood starts, then their measured window.
    players 2 >"$WORK/flooded" &
    local players_pid=$!
    sleep 1
    wrk -t 2 -c "$CLIENTS" -d "$((DURATION + 2))s" -s "$WORK/flood.lua" "$BASE" >"$WORK/flood.out" 2>&1 &
    FLOOD_PID=$!
    wait "$players_pid" || true
    flooded=$(cat "$WORK/flooded")
    wait "$FLOOD_PID" || true
    FLOOD_PID=
    flood=$(grep '^FLOOD' "$WORK/flood.out" || echo "FLOOD (wrk failed: $(tail -1 "$WORK/flood.out"))")
    local peak after
    peak=$(kib VmHWM)
    sleep 5
    after=$(kib VmRSS)
    stop_server

    p99_u=$(echo "$unloaded" | field p99_ms)
    p99_f=$(echo "$flooded" | field p99_ms)
    echo "== $name ($*)"
    echo "players unloaded:  $(echo "$unloaded" | field moves) moves, p50 $(echo "$unloaded" | field p50_ms) ms, p99 $p99_u ms, errors $(echo "$unloaded" | field errors), retried after Retry-After $(echo "$unloaded" | field retried)"
    echo "players in flood:  $(echo "$flooded" | field moves) moves, p50 $(echo "$flooded" | field p50_ms) ms, p99 $p99_f ms, errors $(echo "$flooded" | field errors), retried after Retry-After $(echo "$flooded" | field retried)"
    echo "flood ($CLIENTS clients, $((DURATION + 2)) s): $flood"
    awk -v u="$p99_u" -v f="$p99_f" -v i="$idle_rss" -v p="$peak" -v a="$after" 'BEGIN {
        printf "moves p99 in flood / unloaded: %.2fx (target < 3x)\n", (u > 0 ? f / u : 0)
        printf "server RSS: idle %.1f MiB, peak %.1f MiB (target < 150 MiB), 5 s after the flood %.1f MiB\n", i / 1024, p / 1024, a / 1024
    }'
    echo "RESULT phase=$name p99_unloaded_ms=$p99_u p99_flood_ms=$p99_f peak_rss_kib=$peak after_rss_kib=$after"
}

case "$WHICH" in
    both | limits) phase limits RUST_LOG=error ;;
esac
case "$WHICH" in
    both | hashing) phase hashing RUST_LOG=error CATAN_RATE_LOGIN_PER_MIN=0 CATAN_RATE_LOGIN_PER_ADDRESS_PER_MIN=0 ;;
esac
if [ -s "$WORK/loadgen.err" ]; then
    echo "load generator errors (first 5):"
    head -5 "$WORK/loadgen.err"
fi
