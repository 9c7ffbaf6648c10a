#!/usr/bin/env bash
# specgen beside openapi-to-rust, whole processes as a user times them, on any specs given:
#
#   generate      `specgen generate --spec S --out NEW` vs `openapi-to-rust generate S
#                 --output-dir NEW` (release builds, a fresh output directory each run)
#   peak memory   the same runs' maximum resident set (GNU time's %M)
#   regenerate    `specgen generate` again on its own unchanged output, vs `load_only S`
#                 (generator/examples/load_only.rs: the document loaded the same way, nothing
#                 else): the difference is what a regeneration with nothing to do costs beyond
#                 loading
#
# Every run writes into a directory of its own, and no output is deleted before the script
# exits: for about a minute after ~1,400 files are deleted, ext4 creates files 5-10 times
# slower (its inode allocator scans past the recently deleted inodes; measured here: 1,000
# creates 0.7-1.0 s within a minute of a deletion, 0.09 s after), so deleting one run's output
# before the next would time the file system's recovery from the benchmark's own cleanup.
#
# The commands of one spec run interleaved (a, b, c, d, a, b, ...), REPS times each after a
# warm-up, so a change of load on a shared machine hits them alike; the table shows medians
# and ratios. Nothing is asserted.
#
# Usage: scripts/bench-peers.sh [SPEC...]
#   default SPECs: spec/openapi.yaml and, when ../shared is beside the clone, the Twilio API
#   v2010 and Box specs of ../shared/corpus/real (the ~1 MB size class)
#   O2R_ROOT=DIR   where openapi-to-rust is installed, outside the repository (default
#                  ~/.cache/openapi-to-rust; installed there with `cargo install --locked
#                  openapi-to-rust --root DIR` when missing)
#   O2R_VERSION=V  the version to install (default 0.23.0, the one measured in the README)
#   REPS=N         timed runs of each command (default 7)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
REPS=${REPS:-7}
O2R_ROOT=${O2R_ROOT:-$HOME/.cache/openapi-to-rust}
O2R_VERSION=${O2R_VERSION:-0.23.0}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}

if [ $# -eq 0 ]; then
    set -- spec/openapi.yaml
    for real in ../shared/corpus/real/twilio_api_v2010.yaml ../shared/corpus/real/box-openapi.json; do
        [ -f "$real" ] && set -- "$@" "$real"
    done
fi
[ -x /usr/bin/time ] || { echo "bench-peers: needs GNU time (apt-get install time)" >&2; exit 2; }

O2R=$O2R_ROOT/bin/openapi-to-rust
if [ ! -x "$O2R" ]; then
    echo "installing openapi-to-rust $O2R_VERSION into $O2R_ROOT..." >&2
    cargo install --quiet --locked openapi-to-rust --version "$O2R_VERSION" --root "$O2R_ROOT"
fi
echo "building specgen (release)..." >&2
cargo build --release --quiet -p specgen --bin specgen --example load_only
SPECGEN=$TARGET_DIR/release/specgen
LOAD_ONLY=$TARGET_DIR/release/examples/load_only

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run NAME CMD...: one timed run; appends "wall_ms rss_kib" to $TMP/NAME (wall time by
# bash's clock around GNU time, whose own figure has 10 ms steps).
run() {
    local name=$1
    shift
    local start end
    start=${EPOCHREALTIME/[.,]/}
    /usr/bin/time -f '%M' -o "$TMP/time" "$@" >/dev/null 2>"$TMP/stderr" || {
        echo "bench-peers: failed: $*" >&2
        cat "$TMP/stderr" >&2
        exit 1
    }
    end=${EPOCHREALTIME/[.,]/}
    echo "$(((end - start) / 1000)) $(tail -1 "$TMP/time")" >>"$TMP/$name"
}

# median FILE COLUMN
median() {
    cut -d' ' -f"$2" "$1" | sort -n | awk '{a[NR] = $1} END {
        print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf (b > 0 ? "%.2f" : "n/a"), (b > 0 ? a / b : 0) }'; }

printf '| spec | specgen generate | openapi-to-rust | time ratio | peak RSS specgen / o2r | memory ratio | regenerate unchanged | load only | beyond loading |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for spec in "$@"; do
    rm -f "$TMP"/sg "$TMP"/o2r "$TMP"/regen "$TMP"/load
    spec_number=$((${spec_number:-0} + 1))
    for ((i = 0; i <= REPS; i++)); do
        out=$TMP/runs/$spec_number-$i
        mkdir -p "$out"
        run sg "$SPECGEN" generate --spec "$spec" --out "$out/sg"
        run o2r "$O2R" generate "$spec" --output-dir "$out/o2r" --quiet
        run regen "$SPECGEN" generate --spec "$spec" --out "$out/sg"
        run load "$LOAD_ONLY" "$spec"
        if [ "$i" -eq 0 ]; then # the warm-up
            grep -q . "$out/sg/.specgen-fingerprint"
            rm -f "$TMP"/sg "$TMP"/o2r "$TMP"/regen "$TMP"/load
        fi
    done
    sg=$(median "$TMP/sg" 1) o2r=$(median "$TMP/o2r" 1)
    sg_rss=$(median "$TMP/sg" 2) o2r_rss=$(median "$TMP/o2r" 2)
    regen=$(median "$TMP/regen" 1) load=$(median "$TMP/load" 1)
    printf '| %s (%s KB) | %s ms | %s ms | %s× | %s / %s MiB | %s× | %s ms | %s ms | %s ms |\n' \
        "$(basename "$spec")" "$(($(wc -c <"$spec") / 1000))" "$sg" "$o2r" "$(ratio "$sg" "$o2r")" \
        "$((sg_rss / 1024))" "$((o2r_rss / 1024))" "$(ratio "$sg_rss" "$o2r_rss")" \
        "$regen" "$load" "$((regen - load))"
done
echo
echo "medians of $REPS interleaved runs each; time ratio and memory ratio are specgen ÷ openapi-to-rust"
