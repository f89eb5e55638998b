#!/usr/bin/env bash
# What the cluster's guarantee costs (issue 33): the load generator (examples/loadgen.rs)
# against three set-ups, in one run, alternately, BENCH_ROUNDS times each:
#
#   single  one PostgreSQL (no replication, fsync and synchronous_commit on, as the cluster's
#           nodes) and one catan-server, the load generator straight at it;
#   async   scripts/cluster with CATAN_CLUSTER_SYNC=0: the front (HAProxy), three servers,
#           HAProxy's write port, a leader streaming to two replicas without waiting for them;
#   sync    scripts/cluster as it is meant to run: the same, with synchronous_mode_strict (a
#           commit waits for the synchronous standby).
#
# It prints each set-up's median moves/s and p99 of POST .../moves, and the ratios: sync against
# async is the price of never losing an acknowledged move (the same processes, only the wait
# for the standby differs); sync against single adds the proxies and the replication traffic.
# Every process shares this machine's cores: on a small machine the cluster's nine processes
# (three PostgreSQL, three Patroni, three servers) compete with the load generator, so the
# ratios are for this machine's size. Loopback only; cleans up what it started.
#
#   scripts/bench-cluster.sh
#
# Environment: BENCH_GAMES (32), BENCH_SECONDS (20), BENCH_ROUNDS (1), BENCH_PROFILE (release;
# debug for a smoke run), PGBIN (/usr/lib/postgresql/15/bin), CATAN_CLUSTER_PORT_BASE.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${BENCH_GAMES:-32}
DURATION=${BENCH_SECONDS:-20}
ROUNDS=${BENCH_ROUNDS:-1}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
WORK=$(mktemp -d /tmp/catan-bench-cluster.XXXXXX)
chmod 755 "$WORK"
PGPORT=$((20000 + RANDOM % 5000))
APPPORT=$((PGPORT + 1))
SERVER_PID=
PG_STARTED=
CLUSTER_UP=

for tool in patroni etcd haproxy; do
    command -v "$tool" >/dev/null || { echo "bench-cluster: needs $tool (apt-get install patroni etcd-server haproxy)" >&2; exit 1; }
done

cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    if [ -n "$PG_STARTED" ]; then stop_postgres; fi
    if [ -n "$CLUSTER_UP" ]; then CATAN_CLUSTER_DIR="$WORK/cluster" scripts/cluster down >/dev/null 2>&1 || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# shellcheck source=scripts/lib/bench.sh
. scripts/lib/bench.sh
build_bench
case $BENCH_BIN in /*) export CATAN_SERVER_BIN="$BENCH_BIN/catan-server" ;; *) export CATAN_SERVER_BIN="$PWD/$BENCH_BIN/catan-server" ;; esac
# The load generator registers four users per game from one address and plays every seat at
# machine speed (the cluster's servers run with these limits off too).
export CATAN_RATE_REGISTER_PER_ADDRESS_PER_MIN=0 CATAN_RATE_MOVES_PER_SEC=0 CATAN_RATE_READS_PER_SEC=0

run_loadgen() { # $1: the URL; writes the RESULT line to $WORK/result
    "$BENCH_BIN/examples/loadgen" --url "$1" --games "$GAMES" --seconds "$DURATION" \
        2>>"$WORK/loadgen.err" | tee -a "$WORK/loadgen.out" | grep '^RESULT' >"$WORK/result"
}

single() { # one PostgreSQL, one server
    start_postgres
    "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U postgres catan
    start_server "$APPPORT" "postgres://postgres@127.0.0.1:$PGPORT/catan"
    run_loadgen "http://127.0.0.1:$APPPORT"
    stop_server
    stop_postgres
}

cluster() { # $1: 1 synchronous, 0 asynchronous
    CLUSTER_UP=1
    CATAN_CLUSTER_DIR="$WORK/cluster" CATAN_CLUSTER_SYNC=$1 scripts/cluster up >>"$WORK/cluster.log" 2>&1 ||
        { tail -30 "$WORK/cluster.log" >&2; exit 1; }
    local front
    front=$(CATAN_CLUSTER_DIR="$WORK/cluster" scripts/cluster env | sed -n 's/^export CATAN_CLUSTER_FRONT=//p' | tr -d "'\"")
    run_loadgen "$front"
    CATAN_CLUSTER_DIR="$WORK/cluster" scripts/cluster down >>"$WORK/cluster.log" 2>&1
    CLUSTER_UP=
}

declare -A RATES P99S
for round in $(seq "$ROUNDS"); do
    for setup in single async sync; do
        echo "== round $round: $setup ($GAMES games, ${DURATION}s)"
        # Not in a $(...) subshell: the processes it starts must be known to the cleanup.
        case $setup in
            single) single ;;
            async) cluster 0 ;;
            sync) cluster 1 ;;
        esac
        line=$(cat "$WORK/result")
        echo "$line"
        RATES[$setup]+="$(echo "$line" | field moves_per_s) "
        P99S[$setup]+="$(echo "$line" | field p99_ms) "
    done
done

echo "== medians over $ROUNDS round(s), $GAMES games, ${DURATION}s each, $BENCH_PROFILE build, $(nproc) cores"
for setup in single async sync; do
    rate=$(echo "${RATES[$setup]}" | tr ' ' '\n' | grep . | median)
    p99=$(echo "${P99S[$setup]}" | tr ' ' '\n' | grep . | median)
    printf '%-7s %8.1f moves/s   p99 %7.2f ms\n' "$setup" "$rate" "$p99"
    eval "RATE_$setup=$rate; P99_$setup=$p99"
done
# shellcheck disable=SC2154
awk -v s="$RATE_sync" -v a="$RATE_async" -v o="$RATE_single" -v ps="$P99_sync" -v pa="$P99_async" -v po="$P99_single" 'BEGIN {
    printf "sync : async  = %.2f of the moves/s, p99 x%.2f (the price of the synchronous standby)\n", s / a, ps / pa
    printf "sync : single = %.2f of the moves/s, p99 x%.2f (the whole cluster against one PostgreSQL)\n", s / o, ps / po
}'
