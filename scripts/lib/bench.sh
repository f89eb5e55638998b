# Shared by the benchmark scripts (sourced, not run): the build they measure, the median of
# numbers on stdin, and one server at a time. The caller sets WORK (its scratch directory) and
# SERVER_PID=, and kills a server left running on exit.
#
# BENCH_PROFILE picks the build: `release` (the default, what the figures are measured on), or
# `debug`, the dev build `cargo test` already made: for a smoke run of the script itself (the
# docs check runs each benchmark that way, for a second), never for figures.

BENCH_PROFILE=${BENCH_PROFILE:-release}
case "$BENCH_PROFILE" in
    release) BENCH_CARGO_FLAGS=(--release) ;;
    debug) BENCH_CARGO_FLAGS=() ;;
    *) echo "BENCH_PROFILE is release or debug, not $BENCH_PROFILE" >&2; exit 2 ;;
esac
BENCH_BIN="${CARGO_TARGET_DIR:-target}/$BENCH_PROFILE"

build_bench() { # the server and the load generator, in BENCH_PROFILE
    echo "== building ($BENCH_PROFILE)"
    cargo build "${BENCH_CARGO_FLAGS[@]}" --quiet --bin catan-server --example loadgen
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

start_server() { # $1: port; $2: DATABASE_URL, or empty for SQLite in $WORK/data
    mkdir -p "$WORK/data"
    DATABASE_URL="${2:-}" CATAN_BIND="127.0.0.1:$1" CATAN_DATA_DIR="$WORK/data" JWT_SECRET=bench \
        RUST_LOG="${RUST_LOG:-warn}" "$BENCH_BIN/catan-server" >"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 100); do
        if curl -sf "http://127.0.0.1:$1/healthz" >/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "the server did not start:" >&2
    cat "$WORK/server.log" >&2
    exit 1
}

stop_server() {
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
}
