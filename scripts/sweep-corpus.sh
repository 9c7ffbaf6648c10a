#!/usr/bin/env bash
# The generality sweep: every OpenAPI document given (files, or directories of *.yaml, *.yml
# and *.json) is generated with specgen, checked with every feature by clippy (warnings
# counted), and its example round trips are run. One line per document, then a total.
#
#   scripts/sweep-corpus.sh                      # ../shared/corpus and ../shared/corpus/real
#   scripts/sweep-corpus.sh DIR_OR_FILE...       # any documents
#
# Environment:
#   SWEEP_WORK=DIR        where crates and reports go (default: a temporary directory, kept)
#   CARGO_TARGET_DIR      shared by every document, so dependencies build once
#                         (default: ~/.cache/orchestration-toolkit/sweep-target)
#   SWEEP_SKIP_TESTS=1    generate and compile only
#
# Besides the table, SWEEP_WORK/unions.md lists, per document and union, how many example
# values landed in each alternative (from the generated tests' SPECGEN_UNION_REPORT).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

work=${SWEEP_WORK:-$(mktemp -d -t specgen-sweep.XXXXXX)}
mkdir -p "$work"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/orchestration-toolkit/sweep-target}
export CARGO_TERM_COLOR=never
# One-shot builds: incremental data would only fill the disk (gigabytes for megabyte specs).
export CARGO_INCREMENTAL=0
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS

if [ $# -eq 0 ]; then
  set -- ../shared/corpus ../shared/corpus/real
fi
documents=()
for arg in "$@"; do
  if [ -d "$arg" ]; then
    while IFS= read -r file; do documents+=("$file"); done < <(
      find "$arg" -maxdepth 1 -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) | sort)
  elif [ -f "$arg" ]; then
    documents+=("$arg")
  else
    echo "sweep-corpus: no such file or directory: $arg" >&2
    exit 2
  fi
done
if [ ${#documents[@]} -eq 0 ]; then
  echo "sweep-corpus: no documents found in $*" >&2
  exit 2
fi

echo "building specgen (release)…" >&2
cargo build -q --release -p specgen || exit 2
specgen="$CARGO_TARGET_DIR/release/specgen"

printf '%-44s %-12s %-22s %-26s %8s\n' document generate "compile (all features)" "round trips (pass/total)" seconds
total=0 generated=0 compiled=0 clean=0 tested_ok=0 examples_passed=0 examples_total=0
: > "$work/unions.jsonl"
for doc in "${documents[@]}"; do
  total=$((total + 1))
  name=$(basename "$doc"); name=${name%.*}
  crate="sweep-$(echo "$name" | tr -c 'a-zA-Z0-9\n' '-' | tr 'A-Z' 'a-z' | sed 's/--*/-/g; s/-$//')"
  # crates.io allows 64 characters: a longer name keeps its start and a digest of the path.
  if [ ${#crate} -gt 64 ]; then
    crate="${crate:0:55}-$(printf '%s' "$doc" | sha256sum | cut -c1-8)"
  fi
  dir="$work/$crate"
  start=$(date +%s.%N)
  rm -rf "$dir"
  gen_status="ok" compile_status="-" trips="-"
  if ! "$specgen" generate --spec "$doc" --out "$dir/crate" --crate-name "$crate" \
      >"$work/$crate.generate.log" 2>&1; then
    gen_status="FAIL"
  else
    generated=$((generated + 1))
    warnings=$(grep -c '^warning: ' "$work/$crate.generate.log")
    [ "$warnings" -gt 0 ] && gen_status="ok ($warnings w)"
    printf '[workspace]\nresolver = "3"\nmembers = ["crate"]\n' > "$dir/Cargo.toml"
    cp "$root/Cargo.lock" "$dir/Cargo.lock"
    if (cd "$dir" && cargo clippy --workspace --all-targets --all-features --message-format=short \
          >"$work/$crate.clippy.log" 2>&1); then
      lints=$(grep -cE '^crate/.*: warning' "$work/$crate.clippy.log")
      compiled=$((compiled + 1))
      compile_status="ok"
      if [ "$lints" -gt 0 ]; then compile_status="ok ($lints warnings)"; else clean=$((clean + 1)); fi
    else
      errors=$(grep -cE '^crate/.*: error' "$work/$crate.clippy.log")
      compile_status="FAIL ($errors errors)"
    fi
    if [ "$compile_status" != "${compile_status#ok}" ] && [ -z "${SWEEP_SKIP_TESTS:-}" ]; then
      if [ ! -f "$dir/crate/src/example_tests.rs" ]; then
        trips="no examples"
        tested_ok=$((tested_ok + 1))
      else
        report="$work/$crate.unions.jsonl"
        rm -f "$report"
        test_status=0
        (cd "$dir" && SPECGEN_UNION_REPORT="$report" cargo test --lib -- --show-output \
            >"$work/$crate.test.log" 2>&1) || test_status=$?
        passed=$(sed -n 's/.*specgen examples: \([0-9]*\) round-tripped.*/\1/p' "$work/$crate.test.log" | head -1)
        count=$(grep -o 'round_trip::<' "$dir/crate/src/example_tests.rs" | wc -l)
        # The verdict is cargo's exit status; the counts only say how far it got.
        if [ "$test_status" -ne 0 ]; then
          passed=${passed:-0}
          failed=$(sed -n 's/^\([0-9]*\) failure(s) among the \([0-9]*\) examples.*/\1/p' "$work/$crate.test.log" | head -1)
          [ -n "$failed" ] && passed=$((count - failed))
          trips="$passed/$count FAIL"
        elif [ -z "$passed" ]; then
          failed=$(sed -n 's/^\([0-9]*\) failure(s) among the \([0-9]*\) examples.*/\1/p' "$work/$crate.test.log" | head -1)
          passed=$((count - ${failed:-$count}))
          trips="$passed/$count FAIL"
        else
          trips="$passed/$count"
          tested_ok=$((tested_ok + 1))
        fi
        examples_passed=$((examples_passed + passed))
        examples_total=$((examples_total + count))
        [ -f "$report" ] && sed "s/^{/{\"document\":\"$name\",/" "$report" >> "$work/unions.jsonl"
      fi
    fi
  fi
  seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  printf '%-44s %-12s %-22s %-26s %8.1f\n' "$name" "$gen_status" "$compile_status" "$trips" "$seconds"
done
echo
echo "total: $total documents; $generated generate; $compiled compile with all features, $clean of them clippy-clean; $tested_ok pass every round trip; examples $examples_passed/$examples_total round-trip into their schema's alternative"
python3 - "$work/unions.jsonl" > "$work/unions.md" <<'PY'
import collections, json, sys
counts = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1]):
    row = json.loads(line)
    counts[(row["document"], row["union"])][row["variant"]] += 1
print("| document | union | examples per alternative |")
print("|---|---|---|")
for (document, union), variants in sorted(counts.items()):
    landed = ", ".join(f"{v} {n}" for v, n in sorted(variants.items()))
    print(f"| {document} | `{union}` | {landed} |")
PY
echo "logs, crates and the union table (unions.md) in $work"
[ "$generated" -eq "$total" ] && [ "$clean" -eq "$generated" ] && { [ -n "${SWEEP_SKIP_TESTS:-}" ] || [ "$tested_ok" -eq "$compiled" ]; }
