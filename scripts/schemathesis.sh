#!/usr/bin/env bash
# Runs Schemathesis (pinned) against the sandbox: every operation of spec/openapi.yaml, every
# default check, all four phases (examples, coverage, fuzzing, stateful), and exits with
# Schemathesis's status. Quiet unless something fails; works with CI=true, no stdin, no TTY.
#
#   1. Schemathesis $ST_VERSION and its dependencies, pinned by
#      scripts/schemathesis-requirements.txt, in a virtualenv outside the clone:
#      ${XDG_CACHE_HOME:-$HOME/.cache}/orchestration-toolkit/schemathesis-$ST_VERSION, created
#      (from PyPI) when missing or when the requirements changed, reused otherwise.
#   2. Builds the sandbox (debug, in CARGO_TARGET_DIR) and starts it on a free port
#      (`--port 0`, address read from its first line of output), with `--idempotency-ttl 0s`:
#      Schemathesis sends the spec's one example x-idempotency-key with many different bodies,
#      which the sandbox (rightly) refuses as a key reused with a different body; with keys
#      not remembered, every request is judged on its own. Idempotency has its own tests
#      (sandbox/tests/api.rs).
#   3. Seeds, through the control API, the records the spec's examples name (the account and
#      transfer of the path examples, the payments of the example merchant_order_id, the
#      reverse-transfer result of the example transfer_id), so that the examples and coverage
#      phases reach the 200 answers and their schemas, not only 404s. The sandbox keeps each
#      merchant's records apart, so they are seeded for the credentials Schemathesis sends.
#   4. schemathesis --config-file scripts/schemathesis.toml run spec/openapi.yaml
#        --url http://127.0.0.1:PORT/v1 -H 'public-api-key: ...' -H 'private-secret-key: ...'
#        --max-examples N --seed S --generation-database none
#      The seed is fixed (SCHEMATHESIS_SEED), no example database or crash cache is kept, and
#      one worker runs, so a run is reproducible: the same seed generates the same requests.
#   5. Stops the sandbox (trap on EXIT, whatever happens) and exits with Schemathesis's status,
#      or 1 when the sandbox's own contract check (specval's layer, on by default) logged a
#      finding about one of its answers.
#
# Usage: scripts/schemathesis.sh [EXTRA SCHEMATHESIS RUN OPTIONS...]
#   SCHEMATHESIS_SEED=N          Hypothesis seed (default 20240514)
#   SCHEMATHESIS_MAX_EXAMPLES=N  test cases per operation and phase (default 25)
#   SCHEMATHESIS_VENV=DIR        the virtualenv (default above)
#   SCHEMATHESIS_VERBOSE=1       print Schemathesis's whole report even when it passes
#   PYTHON=python3               the interpreter that creates the virtualenv (>= 3.10)
# Extra arguments go to `schemathesis run`, e.g. `--phases fuzzing` or `--max-examples 200`.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

ST_VERSION=4.32.5
REQUIREMENTS=$ROOT/scripts/schemathesis-requirements.txt
CONFIG=$ROOT/scripts/schemathesis.toml
SEED=${SCHEMATHESIS_SEED:-20240514}
MAX_EXAMPLES=${SCHEMATHESIS_MAX_EXAMPLES:-25}
VENV=${SCHEMATHESIS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/orchestration-toolkit/schemathesis-$ST_VERSION}
PYTHON=${PYTHON:-python3}
# The merchant Schemathesis acts as; the seeds below are made for it.
PUBLIC_KEY=pk_schemathesis
SECRET_KEY=sk_schemathesis

say() { printf 'schemathesis.sh: %s\n' "$*" >&2; }

# ------------------------------------------------------------------------------- virtualenv
# Reused when its stamp names the same requirements (so the same Schemathesis version and the
# same dependency pins); otherwise made anew. A lock keeps two runs from building it at once.
if ! grep -qx "schemathesis==$ST_VERSION" "$REQUIREMENTS"; then
  say "$REQUIREMENTS does not pin schemathesis==$ST_VERSION"
  exit 2
fi
wanted=$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)
mkdir -p "$(dirname "$VENV")"
exec 9>"$VENV.lock"
flock 9
if [ "$(cat "$VENV/.requirements.sha256" 2>/dev/null)" != "$wanted" ] ||
   ! "$VENV/bin/schemathesis" --version >/dev/null 2>&1; then
  say "installing Schemathesis $ST_VERSION into $VENV"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  if ! "$VENV/bin/python" -m pip install --quiet --no-input --disable-pip-version-check \
       --require-virtualenv -r "$REQUIREMENTS" >"$VENV.install.log" 2>&1; then
    cat "$VENV.install.log" >&2
    rm -rf "$VENV"
    say "pip install failed"
    exit 2
  fi
  rm -f "$VENV.install.log"
  echo "$wanted" >"$VENV/.requirements.sha256"
fi
flock -u 9
exec 9>&-
ST="$VENV/bin/schemathesis"
installed=$("$ST" --version)
if [ "$installed" != "schemathesis, version $ST_VERSION" ]; then
  say "$VENV has '$installed', not Schemathesis $ST_VERSION"
  exit 2
fi

# ---------------------------------------------------------------------------------- sandbox
cargo build --quiet -p sandbox
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps |
  "$VENV/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
SANDBOX=$TARGET_DIR/debug/sandbox

TMP=$(mktemp -d)
SANDBOX_PID=
stop_sandbox() {
  if [ -n "$SANDBOX_PID" ] && kill -0 "$SANDBOX_PID" 2>/dev/null; then
    kill -TERM "$SANDBOX_PID" 2>/dev/null || true
    wait "$SANDBOX_PID" 2>/dev/null || true
  fi
  SANDBOX_PID=
}
ST_PID=
stop_schemathesis() {
  if [ -n "$ST_PID" ] && kill -0 "$ST_PID" 2>/dev/null; then
    kill -TERM "$ST_PID" 2>/dev/null || true
    wait "$ST_PID" 2>/dev/null || true
  fi
  ST_PID=
}
trap 'stop_schemathesis; stop_sandbox; rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

: >"$TMP/sandbox.out"
RUST_LOG=${RUST_LOG:-warn} "$SANDBOX" --port 0 --idempotency-ttl 0s \
  </dev/null >"$TMP/sandbox.out" 2>"$TMP/sandbox.log" &
SANDBOX_PID=$!
origin=
for _ in $(seq 1 300); do
  IFS= read -r line <"$TMP/sandbox.out" || true
  case ${line:-} in
    "sandbox listening on "*) origin=${line#sandbox listening on }; break ;;
  esac
  if ! kill -0 "$SANDBOX_PID" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$origin" ]; then
  say "the sandbox did not print its address"
  cat "$TMP/sandbox.log" >&2
  exit 2
fi

# ------------------------------------------------------------------------------------- seed
# The ids come from the spec's own examples, so the examples and coverage phases (which start
# from them) meet existing records. The account is created through the API from an onboarding
# of its own: the create-account example's onboarding (onb_4e6a8c0b2d4f) stays unknown, so
# the create-account example meets the documented 404 ONBOARDING_NOT_FOUND rather than the
# 400 of an account_id that already has an account. (The state-dependent 400s that
# Schemathesis can still meet are listed, with their reasons, in scripts/schemathesis.toml.)
"$VENV/bin/python" - "$origin" "$ROOT/spec/openapi.yaml" "$PUBLIC_KEY" "$SECRET_KEY" <<'PY'
import sys, uuid, requests, yaml

origin, spec_path, public_key, secret_key = sys.argv[1:5]
merchant = {"public-api-key": public_key, "private-secret-key": secret_key}
with open(spec_path, encoding="utf-8") as f:
    spec = yaml.safe_load(f)
params = spec["components"]["parameters"]
paths = spec["paths"]
account_id = params["AccountId"]["example"]
transfer_id = params["TransferId"]["example"]
order_id = params["MerchantOrderId"]["example"]
reverse_op = paths["/recipients/onboardings/reverse-transfer/{transfer_id}"]["post"]
reverse_id = next(p for p in reverse_op["parameters"] if p.get("name") == "transfer_id")["example"]
transfer_example = paths["/banking/accounts/{account_id}/transfers/{transfer_id}"]["get"][
    "responses"]["200"]["content"]["application/json"]["examples"]["outgoing"]["value"]
payments_example = paths["/payments"]["get"]["responses"]["200"]["content"][
    "application/json"]["examples"]["bankTransfer"]["value"]

def call(method, path, body, headers=None, want=(200, 201)):
    headers = dict(merchant, **(headers or {}))
    r = requests.request(method, origin + path, json=body, headers=headers, timeout=10)
    if r.status_code not in want:
        sys.exit(f"seeding: {method} {path} answered {r.status_code}: {r.text}")

onboarding = "onb_schemathesis_seed"
call("POST", "/_sandbox/onboardings", {"id": onboarding, "status": "SUCCEEDED"})
call("POST", "/v1/banking/accounts",
     {"account_id": account_id, "onboarding_id": onboarding,
      "account_type": "CHECKING", "currency": "USD"},
     headers={"x-idempotency-key": str(uuid.uuid4())})
transfer = dict(transfer_example, account_id=account_id, status="PENDING", transfer_id=transfer_id)
call("POST", f"/_sandbox/accounts/{account_id}/transfers", transfer)
for payment in payments_example:
    call("POST", "/_sandbox/payments", dict(payment, merchant_order_id=order_id))
call("POST", "/_sandbox/reverse-transfers", {"transfer_id": reverse_id})
PY

# ------------------------------------------------------------------------------ Schemathesis
echo "Schemathesis $ST_VERSION, seed $SEED, max examples $MAX_EXAMPLES, against $origin/v1"
report=$TMP/schemathesis.txt
started=$SECONDS
status=0
# Run from the temporary directory: whatever Schemathesis might write stays out of the clone.
# In the background, with `wait`, so that SIGINT/SIGTERM reach the traps at once.
(
  cd "$TMP"
  exec "$ST" --config-file "$CONFIG" --no-color run "$ROOT/spec/openapi.yaml" \
    --url "$origin/v1" \
    --header "public-api-key: $PUBLIC_KEY" \
    --header "private-secret-key: $SECRET_KEY" \
    --max-examples "$MAX_EXAMPLES" \
    --seed "$SEED" \
    --workers 1 \
    --generation-database none \
    --request-timeout 10 \
    "$@"
) </dev/null >"$report" 2>&1 &
ST_PID=$!
wait "$ST_PID" || status=$?
ST_PID=
elapsed=$((SECONDS - started))
stop_sandbox

# The sandbox checks its own exchanges against the contract (specval's layer, report mode):
# a finding about one of its answers is a defect of the sandbox, whatever Schemathesis sent.
# (Findings about requests are Schemathesis's deliberate negative cases.)
if grep -E 'specval::layer.*part=(Response|Reply)' "$TMP/sandbox.log" >"$TMP/own-findings.log"; then
  echo "the sandbox answered outside its contract ($(wc -l <"$TMP/own-findings.log") findings):"
  head -n 20 "$TMP/own-findings.log"
  [ "$status" -ne 0 ] || status=1
fi

if [ "$status" -ne 0 ] || [ "${SCHEMATHESIS_VERBOSE:-0}" = 1 ]; then
  cat "$report"
  if [ "$status" -ne 0 ]; then
    echo "--- sandbox log (standard error) ---"
    tail -n 50 "$TMP/sandbox.log"
  fi
else
  # The summary's count line, e.g. "1078 generated, 1078 passed, 27 skipped".
  summary=$(grep -A1 '^Test cases:' "$report" | tail -n 1 | sed 's/^ *//')
  echo "Schemathesis passed in ${elapsed}s: ${summary:-see the report}"
fi
if [ "$status" -ne 0 ]; then
  say "Schemathesis failed (exit status $status, ${elapsed}s); reproduce with SCHEMATHESIS_SEED=$SEED scripts/schemathesis.sh"
fi
exit "$status"
