#!/usr/bin/env bash
# Times whole `specgen generate` release processes, each against baselines measured in the
# same run, and prints medians, ratios and peak RSS. Nothing is asserted: absolute times
# depend on the machine, so read the ratios.
#
#   (a) specgen generate --spec spec/openapi.yaml
#   (b) specgen generate --spec <synthetic ~1 MB spec built from spec/openapi.yaml>
#   (c) baselines: `specgen --version` (process start-up), `cat SPEC > /dev/null` (reading the
#       spec) and `cp -r` of the tree that generate writes (creating the same files: on some
#       file systems that, not generation, is most of (b))
#
# Output goes to a temporary directory (mktemp -d, so TMPDIR=/dev/shm measures on tmpfs),
# never to generated/.
#
# Usage: scripts/bench-generate.sh        (REPS=N for N timed runs each, default 11;
#                                          SYNTH_BYTES=N for the synthetic size, default 1000000)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
REPS=${REPS:-11}
SYNTH_BYTES=${SYNTH_BYTES:-1000000}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}

echo "building specgen (release)..." >&2
cargo build --release --quiet -p specgen --bin specgen --example synth_spec
SPECGEN=$TARGET_DIR/release/specgen
SYNTH=$TARGET_DIR/release/examples/synth_spec

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SPEC=spec/openapi.yaml
BIG=$TMP/synthetic.yaml
"$SYNTH" "$BIG" "$SYNTH_BYTES" "$SPEC"

# Microseconds since the epoch, without forking where bash has EPOCHREALTIME.
now_us() {
    if [[ -n ${EPOCHREALTIME:-} ]]; then
        local t=${EPOCHREALTIME/[.,]/}
        echo "$t"
    else
        echo $(($(date +%s%N) / 1000))
    fi
}

# median_ms CMD...: runs CMD once to warm up, then REPS times (after removing $TMP/gen each
# time, so every generate starts from the same state); prints the median wall time in ms.
median_ms() {
    local times=() start end i
    rm -rf "$TMP/gen"
    "$@" >/dev/null 2>&1
    for ((i = 0; i < REPS; i++)); do
        rm -rf "$TMP/gen"
        start=$(now_us)
        "$@" >/dev/null 2>&1
        end=$(now_us)
        times+=($((end - start)))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR] = $1} END {
        m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
        printf "%.2f\n", m / 1000 }'
}

# median_ms_hyperfine CMD...: the same with hyperfine, when it is installed.
median_ms_hyperfine() {
    local json=$TMP/hyperfine.json
    hyperfine --shell=none --warmup 1 --runs "$REPS" --prepare "rm -rf $TMP/gen" \
        --export-json "$json" --style none -- "$(printf '%q ' "$@")" >/dev/null 2>&1
    grep -o '"median": *[0-9.eE+-]*' "$json" | head -1 | awk '{printf "%.2f\n", $2 * 1000}'
}

measure() {
    if command -v hyperfine >/dev/null; then
        median_ms_hyperfine "$@"
    else
        median_ms "$@"
    fi
}

# peak_rss_kb CMD...: maximum resident set size of one run, if GNU time is there.
peak_rss_kb() {
    if [[ -x /usr/bin/time ]] && /usr/bin/time -v true >/dev/null 2>&1; then
        rm -rf "$TMP/gen"
        /usr/bin/time -v "$@" 2>&1 >/dev/null |
            awk -F': ' '/Maximum resident set size/ {print $2}'
    else
        echo "n/a"
    fi
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }'; }

spec_bytes=$(wc -c <"$SPEC")
big_bytes=$(wc -c <"$BIG")
timer=$(command -v hyperfine >/dev/null && echo hyperfine || echo "bash loop")
echo "timing with $timer, $REPS runs each, median wall time" >&2

version_ms=$(measure "$SPECGEN" --version)
cat_spec_ms=$(measure cat "$SPEC")
cat_big_ms=$(measure cat "$BIG")
gen_spec_ms=$(measure "$SPECGEN" generate --spec "$SPEC" --out "$TMP/gen")
gen_big_ms=$(measure "$SPECGEN" generate --spec "$BIG" --out "$TMP/gen")

# The trees generate writes, to copy as the file-creation baseline.
"$SPECGEN" generate --spec "$SPEC" --out "$TMP/ref-spec" 2>/dev/null
"$SPECGEN" generate --spec "$BIG" --out "$TMP/ref-big" 2>/dev/null
spec_files=$(find "$TMP/ref-spec" -type f | wc -l)
big_files=$(find "$TMP/ref-big" -type f | wc -l)
cp_spec_ms=$(measure cp -r "$TMP/ref-spec" "$TMP/gen")
cp_big_ms=$(measure cp -r "$TMP/ref-big" "$TMP/gen")

version_rss=$(peak_rss_kb "$SPECGEN" --version)
gen_spec_rss=$(peak_rss_kb "$SPECGEN" generate --spec "$SPEC" --out "$TMP/gen")
gen_big_rss=$(peak_rss_kb "$SPECGEN" generate --spec "$BIG" --out "$TMP/gen")

printf '\n%-44s %10s %10s %14s\n' "process" "median ms" "÷ --version" "peak RSS KiB"
printf '%-44s %10s %10s %14s\n' "(c) specgen --version" "$version_ms" "1.0" "$version_rss"
printf '%-44s %10s %10s %14s\n' "(c) cat $SPEC ($spec_bytes B)" "$cat_spec_ms" \
    "$(ratio "$cat_spec_ms" "$version_ms")" ""
printf '%-44s %10s %10s %14s\n' "(c) cat synthetic ($big_bytes B)" "$cat_big_ms" \
    "$(ratio "$cat_big_ms" "$version_ms")" ""
printf '%-44s %10s %10s %14s\n' "(c) cp -r its output ($spec_files files)" "$cp_spec_ms" \
    "$(ratio "$cp_spec_ms" "$version_ms")" ""
printf '%-44s %10s %10s %14s\n' "(c) cp -r synthetic output ($big_files files)" "$cp_big_ms" \
    "$(ratio "$cp_big_ms" "$version_ms")" ""
printf '%-44s %10s %10s %14s\n' "(a) generate $SPEC" "$gen_spec_ms" \
    "$(ratio "$gen_spec_ms" "$version_ms")" "$gen_spec_rss"
printf '%-44s %10s %10s %14s\n' "(b) generate synthetic" "$gen_big_ms" \
    "$(ratio "$gen_big_ms" "$version_ms")" "$gen_big_rss"

echo
echo "synthetic vs $SPEC: $(ratio "$big_bytes" "$spec_bytes")x the bytes," \
    "$(ratio "$gen_big_ms" "$gen_spec_ms")x the generate time," \
    "$(ratio "$gen_big_rss" "$gen_spec_rss")x the peak RSS"
echo "generate ÷ cp -r of its output: (a) $(ratio "$gen_spec_ms" "$cp_spec_ms")x," \
    "(b) $(ratio "$gen_big_ms" "$cp_big_ms")x"
echo "generate above start-up: (a) $(awk -v a="$gen_spec_ms" -v b="$version_ms" 'BEGIN {printf "%.2f", a - b}') ms," \
    "(b) $(awk -v a="$gen_big_ms" -v b="$version_ms" 'BEGIN {printf "%.2f", a - b}') ms"
echo "issue's targets, for reading the figures above (not checked): (a) under 100 ms," \
    "(b) a ~1 MB spec under 500 ms"
echo "temporary directory: $TMP ($(df -T "$TMP" | awk 'NR == 2 {print $2}'))"
