#!/usr/bin/env bash
# `specval proxy` beside Prism's proxy (`@stoplight/prism-cli`, from the npm registry) on the
# same traffic in front of the sandbox: per request, each tool's verdict; then throughput
# through each proxy as a ratio of going straight to the sandbox.
#
# Prism is installed with npm into ${PRISM_ROOT:-$HOME/.cache/prism} (outside the repo),
# pinned to PRISM_VERSION. The sandbox and specval are built in release mode. Everything
# listens on 127.0.0.1 only. Prism runs in report mode (no --errors): like specval proxy it
# forwards every request and reports what it sees, here in the `sl-violations` header of each
# response; with --errors it would answer an invalid request 422 itself instead of
# forwarding it, which changes the traffic the two tools are compared on.
#
# Prism matches requests against the spec's paths without the server's base path (`/v1`), so
# its clients send `/banking/...` and its upstream is `$SANDBOX/v1`; specval's clients send
# `/v1/banking/...` as the API documents, to the sandbox's origin.
#
# Usage: scripts/proxy-compare.sh
#   N=2000 requests per throughput run, CONCURRENCY=8 for the concurrent run;
#   JOBS=N cargo jobs (default 1); CARGO_TARGET_DIR is honoured; KEEP=dir keeps the outputs.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
PRISM_VERSION=${PRISM_VERSION:-5.16.0}
PRISM_ROOT=${PRISM_ROOT:-$HOME/.cache/prism}
N=${N:-2000}
CONCURRENCY=${CONCURRENCY:-8}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
DRIVER="python3 $ROOT/scripts/proxy-compare.py"

PRISM=$PRISM_ROOT/node_modules/.bin/prism
if ! [[ -x $PRISM ]] || [[ $("$PRISM" --version 2>/dev/null) != "$PRISM_VERSION" ]]; then
    echo "installing @stoplight/prism-cli@$PRISM_VERSION into $PRISM_ROOT..." >&2
    mkdir -p "$PRISM_ROOT"
    if ! npm install --prefix "$PRISM_ROOT" --no-audit --no-fund --loglevel=error \
        "@stoplight/prism-cli@$PRISM_VERSION" >&2; then
        echo "npm install of @stoplight/prism-cli failed: no comparison" >&2
        exit 1
    fi
fi

echo "building sandbox and specval (release)..." >&2
cargo build --release --quiet -j "${JOBS:-1}" -p sandbox -p specval
SANDBOX_BIN=$TARGET_DIR/release/sandbox
SPECVAL=$TARGET_DIR/release/specval

TMP=${KEEP:-$(mktemp -d)}
mkdir -p "$TMP"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [[ -n ${KEEP:-} ]] || rm -rf "$TMP"
}
trap cleanup EXIT

# Waits (at most 60 s) for a line matching $2 in file $1; prints what follows `on http://`.
address_in() {
    local i
    for i in $(seq 600); do
        if grep -q "$2" "$1" 2>/dev/null; then
            grep -m1 "$2" "$1" | sed -E 's|.*on (http://[0-9.:]+).*|\1|'
            return
        fi
        sleep 0.1
    done
    echo "no '$2' in $1:" >&2
    cat "$1" >&2
    exit 1
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

RUST_LOG=warn "$SANDBOX_BIN" --port 0 >"$TMP/sandbox.out" 2>"$TMP/sandbox.err" &
PIDS+=($!)
SANDBOX=$(address_in "$TMP/sandbox.out" "sandbox listening on")
COUNT=$($DRIVER count)

# Straight to the sandbox: the statuses without any proxy.
$DRIVER traffic "$SANDBOX" /v1 "$SANDBOX" "$TMP/direct.json"

# Through specval proxy, which stops after the traffic and writes its report.
"$SPECVAL" proxy --listen 127.0.0.1:0 --upstream "$SANDBOX" --max-exchanges "$COUNT" \
    --format json --output "$TMP/specval-report.json" --record "$TMP/specval.jsonl" \
    --quiet 2>"$TMP/specval.err" &
SPECVAL_PID=$!
PIDS+=($SPECVAL_PID)
SPECVAL_ORIGIN=$(address_in "$TMP/specval.err" "specval proxy: listening on")
$DRIVER traffic "$SPECVAL_ORIGIN" /v1 "$SANDBOX" "$TMP/specval.json"
status=0
wait "$SPECVAL_PID" || status=$?
echo "specval proxy exited $status (1: findings)" >&2

# Through Prism.
PRISM_PORT=$(free_port)
"$PRISM" proxy spec/openapi.yaml "$SANDBOX/v1" --host 127.0.0.1 --port "$PRISM_PORT" \
    >"$TMP/prism.out" 2>&1 &
PRISM_PID=$!
PIDS+=($PRISM_PID)
PRISM_ORIGIN=$(address_in "$TMP/prism.out" "Prism is listening on")
$DRIVER traffic "$PRISM_ORIGIN" "" "$SANDBOX" "$TMP/prism.json"

echo
echo "## Verdicts (prism-cli $PRISM_VERSION)"
echo
$DRIVER table "$TMP/specval-report.json" "$TMP/direct.json" "$TMP/specval.json" "$TMP/prism.json"

# Throughput: the account exists (the Prism traffic run seeded and created it last).
"$SPECVAL" proxy --listen 127.0.0.1:0 --upstream "$SANDBOX" --quiet --allow-empty \
    --output /dev/null 2>"$TMP/specval-bench.err" &
BENCH_PID=$!
PIDS+=($BENCH_PID)
BENCH_ORIGIN=$(address_in "$TMP/specval-bench.err" "specval proxy: listening on")

echo
echo "## Throughput: GET one account, $N requests, keep-alive (requests/s; ratio to direct)"
echo
echo "| clients | direct | specval proxy | Prism proxy |"
echo "|---|---|---|---|"
for c in 1 "$CONCURRENCY"; do
    direct=$($DRIVER bench "$SANDBOX" /v1 "$N" "$c")
    spec=$($DRIVER bench "$BENCH_ORIGIN" /v1 "$N" "$c")
    prism=$($DRIVER bench "$PRISM_ORIGIN" "" "$N" "$c")
    ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }
    echo "| $c | $direct | $spec ($(ratio "$spec" "$direct")) | $prism ($(ratio "$prism" "$direct")) |"
done
kill -INT "$BENCH_PID"
wait "$BENCH_PID" || true
echo
echo "machine: $(nproc) cores; client: python3 http.client (one process, threads)"
