#!/usr/bin/env bash
# The tower layer's cost in instructions per exchange, counted by callgrind: a figure that a
# shared machine's load does not move, unlike the load bench's requests per second.
#
# Runs validator/examples/layer_overhead.rs (oneshot calls of getAccount, a 700-byte account,
# on a small axum router) under `valgrind --tool=callgrind` for each mode, at two call counts,
# and divides the difference by the calls between them, so that loading the contract and
# compiling its schemas (once per process) drop out. Prints instructions per call for the bare
# router, report mode and enforce mode, and each mode's overhead over bare.
#
# Usage: scripts/bench-layer-instructions.sh [REV]
#   REV   also build and count a git revision (a commit, `HEAD~1`, a branch) in a worktree,
#         and print the ratio of this tree's overhead to REV's.
# Needs valgrind (apt-get install valgrind). About a minute per mode and revision after the
# release build.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }

SMALL=500
LARGE=1500
# layer_overhead makes N/10 warm-up calls and 5 rounds of N.
CALLS=$(( (LARGE - SMALL) * 51 / 10 ))

# Builds the example in $1 and copies it to $2.
build() {
    (cd "$1" && cargo build --quiet --release -p specval --features tower --example layer_overhead)
    cp "$CARGO_TARGET_DIR/release/examples/layer_overhead" "$2"
}

# Instructions a run of binary $1 with N=$2 in mode $3 executes.
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9,]*\).*/\1/p' | tr -d ,
}

# Prints the per-call figures of binary $1 labelled $2; sets OVERHEAD to report's overhead.
measure() {
    local bare=0
    for mode in bare report enforce; do
        local per=$(( ($(count "$1" $LARGE $mode) - $(count "$1" $SMALL $mode)) / CALLS ))
        if [ "$mode" = bare ]; then
            bare=$per
            printf '%-10s %-8s %7d instructions per call\n' "$2" "$mode" "$per"
        else
            printf '%-10s %-8s %7d instructions per call, %7d over bare\n' "$2" "$mode" "$per" $((per - bare))
        fi
        if [ "$mode" = report ]; then OVERHEAD=$((per - bare)); fi
    done
}

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"; git -C "$ROOT" worktree prune' EXIT
build "$ROOT" "$WORK/this"
measure "$WORK/this" "this tree"
THIS=$OVERHEAD
if [ $# -ge 1 ]; then
    git -C "$ROOT" worktree add --quiet --detach "$WORK/rev" "$1"
    # The same driver for both, whatever REV's example can do.
    cp "$ROOT/validator/examples/layer_overhead.rs" "$WORK/rev/validator/examples/"
    build "$WORK/rev" "$WORK/rev.bin"
    measure "$WORK/rev.bin" "$1"
    echo "report mode's overhead: $(awk -v a="$THIS" -v b="$OVERHEAD" 'BEGIN { printf "%.2f", a / b }') of $1's"
fi
