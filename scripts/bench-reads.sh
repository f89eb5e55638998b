#!/usr/bin/env bash
# Read benchmark: wrk against the release server on SQLite, reading a finished 4-player game
# (four built-in bots) side by side with a static route of the same server (the Swagger UI
# page), alternately, BENCH_ROUNDS times each; prints the medians of req/s and p99 and each
# read's ratio to the static route. Then the load generator's read-heavy mix (moves with
# pollers). Cleans up everything it started. Loopback only; needs `wrk` (apt-get install wrk).
#
#   scripts/bench-reads.sh
#
# Environment: BENCH_ROUNDS (3), BENCH_SECONDS (10), BENCH_CONNECTIONS (64), BENCH_THREADS (2),
# BENCH_GAMES / BENCH_POLLERS (8 / 8) for the mix, CATAN_WORKERS (passed to the server), BENCH_PROFILE
# (release; debug for a smoke run).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/bench.sh
. scripts/lib/bench.sh

ROUNDS=${BENCH_ROUNDS:-3}
DURATION=${BENCH_SECONDS:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
THREADS=${BENCH_THREADS:-2}
GAMES=${BENCH_GAMES:-8}
POLLERS=${BENCH_POLLERS:-8}
WORK=$(mktemp -d /tmp/catan-reads.XXXXXX)
PORT=$(free_port)
BASE="http://127.0.0.1:$PORT"
API="$BASE/api/v1"
SERVER_PID=

cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
# The load generator registers four users per game from one address and plays every seat at
# machine speed: the per-address registration and per-account move limits are for people.
export CATAN_RATE_REGISTER_PER_ADDRESS_PER_MIN=${CATAN_RATE_REGISTER_PER_ADDRESS_PER_MIN:-0}
export CATAN_RATE_MOVES_PER_SEC=${CATAN_RATE_MOVES_PER_SEC:-0}

build_bench

fresh_server() { # on a new SQLite database
    rm -rf "$WORK/data"
    start_server "$PORT"
}

json() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"]*\).*/\1/p" | head -1; }

fresh_server
echo "== a finished 4-player game of bots"
TOKEN=$(curl -sf "$API/users" -H 'content-type: application/json' \
    -d '{"username":"bench","password":"bench-password"}' | json token)
GAME=$(curl -sf "$API/games" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
    -d '{"max_players": 4, "board": "random", "seed": 42, "seat_creator": false}' | json id)
for KIND in heuristic random heuristic random; do
    curl -sf "$API/games/$GAME/players" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
        -d "{\"bot\": \"$KIND\"}" >/dev/null
done
curl -sf -X POST "$API/games/$GAME/start" -H "authorization: Bearer $TOKEN" >/dev/null
for _ in $(seq 600); do
    if curl -sf "$API/games/$GAME" | grep -q '"status":"finished"'; then break; fi
    sleep 0.1
done
curl -sf "$API/games/$GAME" | grep -q '"status":"finished"' || { echo "the game did not finish" >&2; exit 1; }
TAG=$(curl -sfi "$API/games/$GAME" | tr -d '\r' | sed -n 's/^etag: //Ip')
echo "game $GAME, ETag $TAG, view $(curl -sf "$API/games/$GAME" | wc -c) B," \
    "log page $(curl -sf "$API/games/$GAME/moves?after=0&limit=100" | wc -c) B," \
    "static page $(curl -sf "$BASE/swagger-ui/" | wc -c) B"

# name|url|extra header
TARGETS=(
    "static|$BASE/swagger-ui/|"
    "game|$API/games/$GAME|"
    "not_modified|$API/games/$GAME|If-None-Match: $TAG"
    "log100|$API/games/$GAME/moves?after=0&limit=100|"
)

run_wrk() { # $1: url, $2: header (may be empty); prints "req/s p99_ms"
    local args=(-t "$THREADS" -c "$CONNECTIONS" -d "${DURATION}s" --latency)
    [ -n "$2" ] && args+=(-H "$2")
    local out
    out=$(wrk "${args[@]}" "$1")
    echo "$out" >>"$WORK/wrk.out"
    local rps p99
    rps=$(echo "$out" | awk '/^Requests\/sec:/ { print $2 }')
    p99=$(echo "$out" | awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 } print v }')
    local bad
    bad=$(echo "$out" | awk '/Non-2xx or 3xx responses/ { print $NF }')
    [ -n "$bad" ] && echo "  ($bad non-2xx/3xx answers)" >&2
    echo "$rps $p99"
}

echo "== wrk: $CONNECTIONS connections, $THREADS threads, ${DURATION} s, $ROUNDS alternating rounds"
for round in $(seq "$ROUNDS"); do
    for target in "${TARGETS[@]}"; do
        IFS='|' read -r name url header <<<"$target"
        result=$(run_wrk "$url" "$header")
        echo "round $round  $name: $result req/s, p99 ms"
        echo "$result" >>"$WORK/$name"
    done
done
static=$(cut -d' ' -f1 "$WORK/static" | median)
echo "== medians (req/s, p99 ms, ratio to the static route)"
for target in "${TARGETS[@]}"; do
    IFS='|' read -r name _ _ <<<"$target"
    rps=$(cut -d' ' -f1 "$WORK/$name" | median)
    p99=$(cut -d' ' -f2 "$WORK/$name" | median)
    printf '%-13s %10.0f req/s  p99 %6.2f ms  ratio %.2f\n' "$name" "$rps" "$p99" "$(echo "$rps $static" | awk '{ print $1 / $2 }')"
done
stop_server

echo "== load generator: $GAMES games, moves alone, then with $POLLERS pollers per game (SQLite, fresh database each)"
for round in $(seq "$ROUNDS"); do
    for pollers in 0 "$POLLERS"; do
        fresh_server
        line=$("$BENCH_BIN/examples/loadgen" --url "$BASE" --games "$GAMES" --seconds "$DURATION" \
            --pollers "$pollers" 2>>"$WORK/loadgen.err" | grep '^RESULT')
        echo "round $round, $pollers pollers: $line"
        stop_server
    done
done
