#!/usr/bin/env bash
# Times whole `specgen diff` release processes on the two largest real pairs: Box (1.7 MB JSON)
# and Twilio API v2010 (1.5 MB YAML), each corpus spec against its hand-made next version
# (generator/tests/diff/real/<file>.patch, applied with `patch`). Beside the full diff, in the
# same rounds (one run of each variant per round, so load on the machine falls on all alike):
#   cat        `cat OLD NEW > /dev/null`: starting a process and reading both files
#   self       `specgen diff OLD OLD`: loading, IR and crate API of both sides, nothing found
#   wire       `specgen diff OLD NEW --side clients --side servers`: no Rust API comparison
#   full       `specgen diff OLD NEW`: everything (text output to /dev/null)
# Prints the median and the fastest of REPS runs, the full diff's median as a ratio to each
# baseline's median, and the peak RSS of the full diff. Nothing is asserted (the machine may be
# shared); the goal is under a second per pair, whole process.
#
# Usage: scripts/bench-diff.sh   (REPS=N timed rounds per pair, default 11;
#                                 CARGO_TARGET_DIR is honoured; JOBS=N cargo jobs, default 1)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
REPS=${REPS:-11}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
CORPUS=$ROOT/../shared/corpus/real

echo "building specgen (release)..." >&2
cargo build --release --quiet -j "${JOBS:-1}" -p specgen --bin specgen
SPECGEN=$TARGET_DIR/release/specgen

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

now_us() {
    local t=${EPOCHREALTIME/[.,]/}
    echo "$t"
}

# Runs one variant once; exit code 1 (breaking changes found) is expected from a diff.
variant() {
    case $1 in
        cat) cat "$old" "$new" > /dev/null ;;
        self) "$SPECGEN" diff "$old" "$old" > /dev/null || [[ $? -eq 1 ]] ;;
        wire) "$SPECGEN" diff "$old" "$new" --side clients --side servers > /dev/null || [[ $? -eq 1 ]] ;;
        full) "$SPECGEN" diff "$old" "$new" > /dev/null || [[ $? -eq 1 ]] ;;
    esac
}

VARIANTS=(cat self wire full)
printf '%-22s %-5s %9s %9s %s\n' pair run median fastest 'full median / this median'
for file in box-openapi.json twilio_api_v2010.yaml; do
    ext=${file##*.}
    old=$TMP/old.$ext
    new=$TMP/new.$ext
    cp "$CORPUS/$file" "$old"
    patch -s -p1 -o "$new" "$CORPUS/$file" "generator/tests/diff/real/$file.patch"
    declare -A times=()
    for v in "${VARIANTS[@]}"; do
        variant "$v" # warm-up (page cache)
        times[$v]=""
    done
    for _ in $(seq "$REPS"); do
        for v in "${VARIANTS[@]}"; do
            start=$(now_us)
            variant "$v"
            times[$v]+="$(( $(now_us) - start )) "
        done
    done
    declare -A median=() fastest=()
    for v in "${VARIANTS[@]}"; do
        sorted=($(printf '%s\n' ${times[$v]} | sort -n))
        median[$v]=${sorted[$(( REPS / 2 ))]}
        fastest[$v]=${sorted[0]}
    done
    echo "$file: $(wc -c < "$old") + $(wc -c < "$new") bytes"
    for v in "${VARIANTS[@]}"; do
        ratio=$(awk -v a="${median[full]}" -v b="${median[$v]}" 'BEGIN { printf "%.1f", a / b }')
        printf '%-22s %-5s %6.1f ms %6.1f ms %s\n' '' "$v" \
            "$(awk -v t="${median[$v]}" 'BEGIN { print t / 1000 }')" \
            "$(awk -v t="${fastest[$v]}" 'BEGIN { print t / 1000 }')" "$ratio"
    done
    rss=$( { /usr/bin/time -f '%M' "$SPECGEN" diff "$old" "$new" > /dev/null; } 2>&1 | tail -n 1 || true)
    printf '%-22s full peak RSS %s KB\n' '' "$rss"
    unset times median fastest
done
