# Shared by the benchmark scripts (sourced, not run): the build they measure, the median of
# numbers on stdin, the fields of the load generator's RESULT line, one server at a time and a
# throwaway PostgreSQL. The caller sets WORK (its scratch directory) and SERVER_PID=, and kills
# a server left running on exit; for PostgreSQL also PGBIN, PGPORT (`free_port`) and
# PG_STARTED=, and calls stop_postgres on exit when PG_STARTED is set.
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

free_port() { # a TCP port nothing listens on now (the kernel's pick, released at once)
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
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

field() { # $1: key, stdin: RESULT line
    tr ' ' '\n' | sed -n "s/^$1=//p"
}

as_postgres() {
    # PostgreSQL refuses to run as root.
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() { # a fresh cluster in $WORK/pg on 127.0.0.1:$PGPORT, durable commits; $@: more `-c name=value`
    mkdir -p "$WORK/pg" "$WORK/sock"
    if [ "$(id -u)" = 0 ]; then chown postgres "$WORK/pg" "$WORK/sock"; fi
    as_postgres "$PGBIN/initdb" -D "$WORK/pg" -U postgres --auth=trust -E UTF8 >/dev/null
    # Once more on another free port if the first start fails (a port taken between its pick
    # and the start), showing why; a second failure ends the script with the log.
    local attempt
    for attempt in 1 2; do
        if as_postgres "$PGBIN/pg_ctl" -D "$WORK/pg" -l "$WORK/sock/pg.log" -w start -o \
            "-p $PGPORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$WORK/sock -c fsync=on \
             -c synchronous_commit=on -c max_connections=200 $*" >/dev/null; then
            PG_STARTED=1
            return 0
        fi
        echo "PostgreSQL did not start on port $PGPORT (attempt $attempt); its log:" >&2
        tail -n 20 "$WORK/sock/pg.log" >&2 || true
        PGPORT=$(free_port)
    done
    exit 1
}

stop_postgres() { # stops the cluster start_postgres made and removes it
    as_postgres "$PGBIN/pg_ctl" -D "$WORK/pg" -m fast -w stop >/dev/null 2>&1 || true
    PG_STARTED=
    rm -rf "$WORK/pg" "$WORK/sock"
}
