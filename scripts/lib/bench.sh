# Shared by the benchmark scripts (sourced, not run): the median of numbers on stdin, and one
# release server at a time. The caller sets WORK (its scratch directory) and SERVER_PID=,
# builds $CARGO_TARGET_DIR (or target)/release/catan-server, and kills a server left running on exit.

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

start_server() { # $1: port; $2: DATABASE_URL, or empty for SQLite in $WORK/data
    mkdir -p "$WORK/data"
    DATABASE_URL="${2:-}" CATAN_BIND="127.0.0.1:$1" CATAN_DATA_DIR="$WORK/data" JWT_SECRET=bench \
        RUST_LOG="${RUST_LOG:-warn}" "${CARGO_TARGET_DIR:-target}/release/catan-server" >"$WORK/server.log" 2>&1 &
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
