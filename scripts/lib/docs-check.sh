# Sourced by scripts/docs-check before the docs' shell blocks of a page (not run by itself):
# the few commands of the docs that do not end by themselves, or would build a second profile
# or run for minutes, are run bounded here, each in the way its comment says, so that every
# command a reader would type still runs. Expects DOCS_CHECK_TARGET (cargo's target directory)
# DOCS_CHECK_WORK (a scratch directory) and DOCS_CHECK_ROOT (the repository: the blocks run in
# a scratch directory of their own); everything it starts is stopped at exit.

__docs_pids=()
__docs_pg_dir=
__docs_pg_port=
__docs_pg_bin=

__docs_cleanup() {
    local pid
    for pid in "${__docs_pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    if [ -n "$__docs_pg_dir" ]; then
        __docs_as_postgres "$__docs_pg_bin/pg_ctl" -D "$__docs_pg_dir" -m fast -w stop >/dev/null 2>&1 || true
        rm -rf "$__docs_pg_dir"
    fi
}
trap __docs_cleanup EXIT

__docs_free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

__docs_as_postgres() { # PostgreSQL refuses to run as root
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# curl: a stream (`curl -N`) never ends by itself; it is read for 2 s, and must have sent the
# game's snapshot by then. Every other curl runs as written.
curl() {
    local arg streaming=
    for arg in "$@"; do [ "$arg" = -N ] && streaming=1; done
    if [ -z "$streaming" ]; then
        command curl "$@"
        return
    fi
    local out status=0
    out=$(command curl -s --max-time 2 "$@") || status=$?
    printf '%s\n' "$out"
    if [ "$status" != 0 ] && [ "$status" != 28 ]; then return "$status"; fi
    grep -q '^event: snapshot' <<<"$out" || { echo "docs-check: the stream sent no snapshot" >&2; return 1; }
}

# cargo run / cargo bench: the dev build `cargo test` made stands in for `--release` (the same
# code, unoptimised; a second profile would double CI's build). The server (`cargo run
# [--release] [-- serve]`) starts on a free port, must answer /healthz, and is stopped; its
# `migrate` runs to its end. An example runs with its `--games` cut to 3 (2 for the load
# generator) and its `--seconds` to 2. `cargo bench` runs the benchmarks in criterion's test
# mode (`cargo test --bench`: each benchmark once). Other subcommands run as written.
cargo() {
    local subcommand=$1
    shift
    case "$subcommand" in
        run) __docs_cargo_run "$@" ;;
        bench) (cd "$DOCS_CHECK_ROOT" && command cargo test -q "$@") ;;
        *) command cargo "$subcommand" "$@" ;;
    esac
}

__docs_cargo_run() {
    local example= args=()
    while [ "$#" -gt 0 ]; do
        case "$1" in
            --release) ;;
            -p | --package) shift ;;
            --example) example=$2; shift ;;
            --) shift; args=("$@"); break ;;
            *) echo "docs-check: cargo run $1 is not known to docs-check" >&2; return 2 ;;
        esac
        shift
    done
    if [ -n "$example" ]; then
        local bounded=() games_cap=3 value
        [ "$example" = loadgen ] && games_cap=2
        while [ "${#args[@]}" -gt 0 ]; do
            value=${args[1]:-}
            case "${args[0]}" in
                --games) bounded+=(--games "$((value < games_cap ? value : games_cap))"); args=("${args[@]:2}") ;;
                --seconds) bounded+=(--seconds "$((value < 2 ? value : 2))"); args=("${args[@]:2}") ;;
                *) bounded+=("${args[0]}"); args=("${args[@]:1}") ;;
            esac
        done
        "$DOCS_CHECK_TARGET/debug/examples/$example" "${bounded[@]}"
        return
    fi
    if [ "${args[0]:-serve}" != serve ]; then
        "$DOCS_CHECK_TARGET/debug/catan-server" "${args[@]}"
        return
    fi
    local port data
    port=$(__docs_free_port)
    data=$(mktemp -d -p "$DOCS_CHECK_WORK")
    CATAN_BIND="127.0.0.1:$port" CATAN_DATA_DIR="$data" "$DOCS_CHECK_TARGET/debug/catan-server" "${args[@]}" \
        >"$data/server.log" 2>&1 &
    local pid=$!
    __docs_pids+=("$pid")
    for _ in $(seq 150); do
        if command curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; then
            echo "docs-check: cargo run: the server answered /healthz on port $port" >&2
            kill "$pid"
            wait "$pid" 2>/dev/null || true
            return 0
        fi
        sleep 0.1
    done
    echo "docs-check: cargo run: the server did not answer:" >&2
    cat "$data/server.log" >&2
    return 1
}

# createdb: a throwaway PostgreSQL cluster is started for the page (on a free port, trust
# authentication for the `postgres` user), and scripts/docs-check writes the docs'
# `postgres://localhost/` as that cluster's address.
createdb() {
    if [ -z "$__docs_pg_dir" ]; then
        local initdb
        initdb=$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1)
        [ -n "$initdb" ] || initdb=$(command -v initdb) || { echo "docs-check: no initdb" >&2; return 1; }
        __docs_pg_bin=$(dirname "$initdb")
        __docs_pg_port=$(__docs_free_port)
        __docs_pg_dir=$(mktemp -d -p "${TMPDIR:-/tmp}" docs-check-pg.XXXXXX)
        [ "$(id -u)" = 0 ] && chown postgres "$__docs_pg_dir"
        __docs_as_postgres "$__docs_pg_bin/initdb" -D "$__docs_pg_dir" -U postgres --auth=trust -E UTF8 >/dev/null
        __docs_as_postgres "$__docs_pg_bin/pg_ctl" -D "$__docs_pg_dir" -w -l "$__docs_pg_dir/log" \
            -o "-p $__docs_pg_port -k $__docs_pg_dir -c listen_addresses=127.0.0.1" start >/dev/null
    fi
    "$__docs_pg_bin/createdb" -h 127.0.0.1 -p "$__docs_pg_port" -U postgres "$@"
}
__docs_pg_url() { echo "postgres://postgres@127.0.0.1:$__docs_pg_port/"; }

# The benchmark scripts: one round of one second on the dev build (BENCH_PROFILE=debug), with
# two games, whatever the docs' line sets; they still build, start and measure everything.
scripts/bench-server.sh() { BENCH_PROFILE=debug BENCH_ROUNDS=1 BENCH_SECONDS=1 BENCH_GAMES=2 "$DOCS_CHECK_ROOT/scripts/bench-server.sh" "$@"; }
# The cluster's benchmark brings two clusters up (about 20 s each); where patroni, etcd or
# haproxy is missing it says so and the block is not run (as the failover check skips).
scripts/bench-cluster.sh() {
    if ! command -v patroni >/dev/null || ! command -v etcd >/dev/null || ! command -v haproxy >/dev/null; then
        echo "bench-cluster: skipped, patroni, etcd or haproxy is missing"
        return 0
    fi
    BENCH_PROFILE=debug BENCH_ROUNDS=1 BENCH_SECONDS=1 BENCH_GAMES=2 "$DOCS_CHECK_ROOT/scripts/bench-cluster.sh" "$@"
}
scripts/bench-reads.sh() { BENCH_PROFILE=debug BENCH_ROUNDS=1 BENCH_SECONDS=1 BENCH_GAMES=2 BENCH_POLLERS=2 "$DOCS_CHECK_ROOT/scripts/bench-reads.sh" "$@"; }
