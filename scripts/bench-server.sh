#!/usr/bin/env bash
# Server benchmark: the load generator (examples/loadgen.rs) against the release server, and
# pgbench running the same transaction shape (bench/pgbench/move.sql) on the same throwaway
# PostgreSQL cluster, at the same concurrency, with durable commits (fsync=on,
# synchronous_commit=on). Runs each side BENCH_ROUNDS times, alternately, and prints the
# medians and the ratio server moves/s : pgbench TPS; for reference also pgbench running just
# the database work of a fast-path move (bench/pgbench/one-statement.sql). Then the same load against SQLite.
# Cleans up everything it started. Loopback only.
#
#   scripts/bench-server.sh                 # PostgreSQL (with pgbench) and SQLite
#   scripts/bench-server.sh postgres        # or: sqlite
#
# Environment: BENCH_GAMES (32), BENCH_SECONDS (15), BENCH_ROUNDS (3), PGBIN, BENCH_PROFILE (release; debug for a smoke run)
# (/usr/lib/postgresql/15/bin), CATAN_WORKERS / CATAN_POOL_SIZE (passed to the server).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/bench.sh
. scripts/lib/bench.sh

WHICH=${1:-both}
GAMES=${BENCH_GAMES:-32}
DURATION=${BENCH_SECONDS:-15}
ROUNDS=${BENCH_ROUNDS:-3}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
WORK=$(mktemp -d /tmp/catan-bench.XXXXXX)
chmod 755 "$WORK"
PGPORT=$(free_port)
APPPORT=$(free_port)
SERVER_PID=
PG_STARTED=

cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    if [ -n "$PG_STARTED" ]; then stop_postgres; fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# The load generator registers four users per game from one address and plays every seat at
# machine speed: the per-address registration and per-account move limits are for people.
export CATAN_RATE_REGISTER_PER_ADDRESS_PER_MIN=${CATAN_RATE_REGISTER_PER_ADDRESS_PER_MIN:-0}
export CATAN_RATE_MOVES_PER_SEC=${CATAN_RATE_MOVES_PER_SEC:-0}

build_bench

run_loadgen() { # prints the RESULT line
    "$BENCH_BIN/examples/loadgen" --url "http://127.0.0.1:$APPPORT" --games "$GAMES" --seconds "$DURATION" \
        2>>"$WORK/loadgen.err" | tee -a "$WORK/loadgen.out" | grep '^RESULT'
}

psql_q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PGPORT" -U postgres "$@"; }

bench_postgres() {
    echo "== PostgreSQL: throwaway cluster on 127.0.0.1:$PGPORT (fsync=on, synchronous_commit=on)"
    start_postgres -c shared_buffers=256MB
    psql_q -c "CREATE DATABASE catan_bench" -c "CREATE DATABASE pgbench_db" postgres
    start_server "$APPPORT" "postgres://postgres@127.0.0.1:$PGPORT/catan_bench"

    local server_rates=() server_p50=() server_p99=() pgbench_tps=() one_statement_tps=()
    for round in $(seq "$ROUNDS"); do
        local result
        result=$(run_loadgen)
        echo "round $round  server : $result"
        server_rates+=("$(echo "$result" | field moves_per_s)")
        server_p50+=("$(echo "$result" | field p50_ms)")
        server_p99+=("$(echo "$result" | field p99_ms)")
        if [ "$round" = 1 ]; then prepare_pgbench; fi
        local tps
        tps=$(run_pgbench bench/pgbench/move.sql)
        echo "round $round  pgbench: tps=$tps"
        pgbench_tps+=("$tps")
        tps=$(run_pgbench bench/pgbench/one-statement.sql)
        echo "round $round  pgbench (one statement): tps=$tps"
        one_statement_tps+=("$tps")
    done
    stop_server

    local rate p50 p99 tps one
    rate=$(printf '%s\n' "${server_rates[@]}" | median)
    p50=$(printf '%s\n' "${server_p50[@]}" | median)
    p99=$(printf '%s\n' "${server_p99[@]}" | median)
    tps=$(printf '%s\n' "${pgbench_tps[@]}" | median)
    one=$(printf '%s\n' "${one_statement_tps[@]}" | median)
    echo
    echo "PostgreSQL, $GAMES concurrent games/clients, ${DURATION}s x $ROUNDS rounds (medians):"
    echo "  server  : $rate moves/s, POST .../moves p50 ${p50} ms, p99 ${p99} ms"
    echo "  pgbench : $tps TPS (same transaction shape and payload sizes)"
    echo "  ratio   : $(awk -v a="$rate" -v b="$tps" 'BEGIN { printf "%.2f", a / b }') (server moves/s / pgbench TPS)"
    echo "  for reference, pgbench running just the database work of a fast-path move (the"
    echo "  legal-moves read and the one-statement append): $one TPS;"
    echo "  server moves/s / that: $(awk -v a="$rate" -v b="$one" 'BEGIN { printf "%.2f", a / b }') (the cost of HTTP, JSON and the rules)"
    echo
}

run_pgbench() { # $1: script; prints the TPS
    "$PGBIN/pgbench" -n -h 127.0.0.1 -p "$PGPORT" -U postgres -c "$GAMES" -j 2 -T "$DURATION" \
        -f "$1" pgbench_db 2>/dev/null | sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | tail -1
}

# Real payloads: a snapshot and a log entry of average size from the games just played.
prepare_pgbench() {
    local sizes
    sizes=$(psql_q -At catan_bench -c "SELECT
        (SELECT round(avg(length(snapshot))) FROM games WHERE snapshot IS NOT NULL),
        (SELECT round(avg(length(events))) FROM game_moves WHERE seq > 1),
        (SELECT round(avg(length(move_body))) FROM game_moves WHERE seq > 1)")
    echo "payload sizes (avg chars: snapshot|events|move): $sizes"
    psql_q pgbench_db -f bench/pgbench/setup.sql
    psql_q -At catan_bench -c "COPY (
        SELECT (SELECT snapshot FROM games WHERE snapshot IS NOT NULL
                ORDER BY abs(length(snapshot) - (SELECT avg(length(snapshot)) FROM games WHERE snapshot IS NOT NULL)) LIMIT 1),
               m.events, m.move_body
        FROM game_moves m WHERE m.seq > 1
        ORDER BY abs(length(m.events) - (SELECT avg(length(events)) FROM game_moves WHERE seq > 1)) LIMIT 1
    ) TO STDOUT" | psql_q pgbench_db -c "COPY bench_payload FROM STDIN"
    psql_q pgbench_db -c "INSERT INTO bench_games (id, created_by, status, max_players, config, seed, version, snapshot, created_at, updated_at)
        SELECT md5(i::text)::uuid::text, 'bench', 'playing', 4, '{}', i, 1, (SELECT snapshot FROM bench_payload), now(), now()
        FROM generate_series(0, $GAMES - 1) AS i" \
        -c "INSERT INTO bench_players (game_id, seat, user_id)
        SELECT md5(i::text)::uuid::text, 0, 'bench' FROM generate_series(0, $GAMES - 1) AS i"
}

bench_sqlite() {
    echo "== SQLite (WAL, synchronous=NORMAL) in $WORK/data"
    rm -rf "$WORK/data"
    start_server "$APPPORT"
    local rates=() p50s=() p99s=()
    for round in $(seq "$ROUNDS"); do
        local result
        result=$(run_loadgen)
        echo "round $round  server : $result"
        rates+=("$(echo "$result" | field moves_per_s)")
        p50s+=("$(echo "$result" | field p50_ms)")
        p99s+=("$(echo "$result" | field p99_ms)")
    done
    stop_server
    echo
    echo "SQLite, $GAMES concurrent games, ${DURATION}s x $ROUNDS rounds (medians):"
    echo "  server  : $(printf '%s\n' "${rates[@]}" | median) moves/s, POST .../moves p50 $(printf '%s\n' "${p50s[@]}" | median) ms, p99 $(printf '%s\n' "${p99s[@]}" | median) ms"
    echo
}

case "$WHICH" in
    both) bench_postgres; bench_sqlite ;;
    postgres) bench_postgres ;;
    sqlite) bench_sqlite ;;
    *) echo "usage: $0 [both|postgres|sqlite]" >&2; exit 2 ;;
esac
total() { # $1: key; its sum over every round's RESULT line
    grep '^RESULT' "$WORK/loadgen.out" | while read -r line; do echo "$line" | field "$1"; done |
        awk '{ n += $1 } END { print n + 0 }'
}
echo "load generator: $(total errors) errors over all rounds; $(total retried) requests sent again after Retry-After (429/503)"
if [ -s "$WORK/loadgen.err" ]; then
    echo "load generator errors (first lines):"
    head -5 "$WORK/loadgen.err"
fi
