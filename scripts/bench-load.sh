#!/usr/bin/env bash
# Load benchmark of the generated router (sandbox/benches/load.rs): requests per second and
# p50/p99 latency of `GET /v1/banking/accounts/{account_id}` and `POST /v1/banking/entities`
# on loopback, for a bare axum handler answering the same bytes, a typed axum handler, the
# generated router over a stub, and the sandbox; each figure also as a ratio to the bare
# handler measured in the same repeat. Target: the generated router keeps at least 0.75 of
# the bare handler's throughput. Nothing is asserted: the machine may be shared, so read the
# ratios (and the CPU ratio, which other load disturbs less).
#
# Then, if `wrk` is installed (this script does not install it), the same two routes of `bare`,
# `bare-json` (POST only), `generated` and the sandbox under wrk (1 thread, the same
# connections, 10 s each), served by the bench binary in its serving mode (LOAD_SERVE_SECS).
#
# Usage: scripts/bench-load.sh [--quick] [--pin] [--no-wrk]
#   --quick      5000 requests, 1 repeat (a smoke run)
#   --pin        server on core 0, load generator on core 1 (LOAD_PIN=1; wrk under taskset)
#   --no-wrk     skip wrk even if installed
#   LOAD_*       every variable of sandbox/benches/load.rs (LOAD_REQUESTS, LOAD_CONNECTIONS,
#                LOAD_REPEATS, LOAD_SERVER_THREADS, ...) passes through
#   WRK_SECS=N   duration of each wrk run (default 10)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
WRK=1
for arg in "$@"; do
    case $arg in
        --quick) export LOAD_REQUESTS=${LOAD_REQUESTS:-5000} LOAD_REPEATS=${LOAD_REPEATS:-1} ;;
        --pin) export LOAD_PIN=1 ;;
        --no-wrk) WRK=0 ;;
        -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "unknown argument: $arg" >&2; exit 2 ;;
    esac
done

echo "building the load bench (release)..." >&2
BIN=$(cargo bench -p sandbox --bench load --no-run --message-format=json 2>/dev/null \
    | grep -o '"executable":"[^"]*load-[^"]*"' | tail -n 1 | cut -d'"' -f4)
if [[ -z $BIN || ! -x $BIN ]]; then
    # Show the build error.
    cargo bench -p sandbox --bench load --no-run
    echo "could not find the bench executable" >&2
    exit 1
fi

"$BIN" --bench

if [[ $WRK == 0 ]]; then
    exit 0
fi
if ! command -v wrk >/dev/null; then
    echo
    echo "wrk is not installed: no wrk figures (apt-get install wrk to have them)"
    exit 0
fi

# ---------------------------------------------------------------------------------------------
# wrk against `bare` and the sandbox, served by the bench binary
# ---------------------------------------------------------------------------------------------
WRK_SECS=${WRK_SECS:-10}
CONNECTIONS=${LOAD_CONNECTIONS:-32}
TMP=$(mktemp -d)
SERVE_PID=
cleanup() {
    if [[ -n $SERVE_PID ]]; then
        kill "$SERVE_PID" 2>/dev/null || true
        wait "$SERVE_PID" 2>/dev/null || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT

WRK_CMD=(wrk)
if [[ ${LOAD_PIN:-0} == 1 ]] && command -v taskset >/dev/null; then
    WRK_CMD=(taskset -c 1 wrk)
fi

# Each request a fresh merchant_entity_id and idempotency key (a UUID built from the thread
# and a counter), so every POST is a 201.
cat >"$TMP/post.lua" <<'LUA'
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local n = 0
request = function()
  n = n + 1
  local key = string.format("%08x-0000-4000-8000-%012x", tid, n)
  local body = string.format(
    '{"account_id":"2d3e4f50-6172-4839-9a4b-5c6d7e8f9012","merchant_entity_id":"wrk-%d-%d",'
    .. '"national_entity":"INDIVIDUAL","phone":{"country_code":"+1","number":"4155550134"},'
    .. '"address":{"address_line_1":"Market Street","city":"San Francisco","country":"US"},'
    .. '"entity_detail":{"individual":{"first_name":"Jane","last_name":"Doe"}}}', tid, n)
  return wrk.format("POST", "/v1/banking/entities", {
    ["public-api-key"] = "pk_bench",
    ["private-secret-key"] = "sk_bench",
    ["content-type"] = "application/json",
    ["x-idempotency-key"] = key,
  }, body)
end
LUA

mkfifo "$TMP/in"
LOAD_SERVE_SECS=$((WRK_SECS * 8 + 60)) "$BIN" --bench <"$TMP/in" >"$TMP/serve.out" &
SERVE_PID=$!
exec 3>"$TMP/in" # held open: the server stops when it closes
for _ in $(seq 100); do
    grep -q '^ready$' "$TMP/serve.out" 2>/dev/null && break
    sleep 0.2
done
grep -q '^ready$' "$TMP/serve.out" || { echo "the bench server did not start" >&2; exit 1; }
url() { sed -n "s/^$1 //p" "$TMP/serve.out"; }
GET_PATH=$(url get_path)

# run_wrk NAME ARGS...: prints "rps p50_us p99_us non2xx"
run_wrk() {
    local out
    out=$("${WRK_CMD[@]}" -t1 -c"$CONNECTIONS" -d"${WRK_SECS}s" --latency \
        -H 'public-api-key: pk_bench' -H 'private-secret-key: sk_bench' "$@")
    echo "$out" >>"$TMP/wrk.log"
    awk '
        function us(v) {
            if (v ~ /us$/) return v + 0
            if (v ~ /ms$/) return v * 1000
            if (v ~ /s$/) return v * 1000000
            return v
        }
        /Requests\/sec:/ { rps = $2 }
        $1 == "50%" { p50 = us($2) }
        $1 == "99%" { p99 = us($2) }
        /Non-2xx or 3xx responses:/ { bad = $5 }
        END { printf "%.0f %.0f %.0f %d\n", rps, p50, p99, bad }
    ' <<<"$out"
}

ratio() { awk -v s="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", s / b; else print "-" }'; }

echo
echo "wrk: 1 thread, $CONNECTIONS connections, ${WRK_SECS} s per run (the sandbox's entities accumulate over its POST run)"
echo "| route | server | req/s | p50 µs | p99 µs | non-2xx | ratio to bare | ratio to bare-json |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for route in GET POST; do
    # On GET, bare-json is bare (there is no body to read).
    servers=(bare generated sandbox)
    [[ $route == POST ]] && servers=(bare bare-json generated sandbox)
    declare -A rps=()
    for server in "${servers[@]}"; do
        if [[ $route == GET ]]; then
            read -r r p50 p99 bad < <(run_wrk "$(url "$server")$GET_PATH")
        else
            read -r r p50 p99 bad < <(run_wrk -s "$TMP/post.lua" "$(url "$server")")
        fi
        rps[$server]=$r
        to_json=-
        [[ $route == POST ]] && to_json=$(ratio "$r" "${rps[bare-json]:-0}")
        echo "| $route | $server | $r | $p50 | $p99 | $bad | $(ratio "$r" "${rps[bare]}") | $to_json |"
    done
done
exec 3>&-
wait "$SERVE_PID" || true
SERVE_PID=
