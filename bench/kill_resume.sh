#!/usr/bin/env bash
# Durability: a run of an N-asset synthetic portfolio on a pinned snapshot is killed with
# SIGKILL at KILLS random moments, each time resumed under the same run id, and every
# table file of the run is compared byte for byte with an uninterrupted run's.
# Usage: bench/kill_resume.sh [N_ASSETS=500] [KILLS=20]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
K=${2:-20}
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN/dossier-gen" --assets "$N" --out "$tmp/syn" 2>/dev/null
"$BIN/dossier" --quiet --lake "$tmp/base" snapshot --portfolio "$tmp/syn/portfolio.toml" --import "$tmp/syn/import" > /dev/null
tables() { (cd "$1" && find tables -path '*run_id=nightly*' -name '*.parquet' -type f | sort | xargs sha256sum); }
cp -r "$tmp/base" "$tmp/ref"
t0=$(date +%s.%N)
/usr/bin/time -f '%M' -o "$tmp/rss" "$BIN/dossier" --quiet --lake "$tmp/ref" run --all --run-id nightly > /dev/null
t1=$(date +%s.%N)
T=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
tables "$tmp/ref" > "$tmp/ref.sums"
files=$(wc -l < "$tmp/ref.sums")
awk -v n="$N" -v t="$T" -v r="$(tail -1 "$tmp/rss")" -v f="$files" 'BEGIN {
  printf "uninterrupted: %d assets in %.2f s (%.1f ms/asset), peak RSS %.0f MB, %d table files\n", n, t, 1000*t/n, r/1024, f }'
# The same run again: every step comes from the journal.
t0=$(date +%s.%N)
/usr/bin/time -f '%M' -o "$tmp/rss" "$BIN/dossier" --quiet --lake "$tmp/ref" run --all --run-id nightly > /dev/null
t1=$(date +%s.%N)
tables "$tmp/ref" | cmp -s - "$tmp/ref.sums" || { echo "a rerun changed the tables" >&2; exit 1; }
awk -v n="$N" -v a="$t0" -v b="$t1" -v r="$(tail -1 "$tmp/rss")" 'BEGIN {
  printf "rerun of the finished run (all steps from the journal): %.2f s (%.1f ms/asset), peak RSS %.0f MB, tables unchanged\n", b-a, 1000*(b-a)/n, r/1024 }'
same=0
for i in $(seq "$K"); do
  rm -rf "$tmp/trial"; cp -r "$tmp/base" "$tmp/trial"
  at=$(awk -v t="$T" -v s="$RANDOM" 'BEGIN { srand(s); printf "%.3f", rand() * t }')
  "$BIN/dossier" --quiet --lake "$tmp/trial" run --all --run-id nightly > /dev/null 2>&1 &
  pid=$!
  sleep "$at"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  # (a kill before the first step finishes leaves no journal folder at all)
  before=$( (find "$tmp/trial/runs/nightly/journal/asset" -name '*.json' 2>/dev/null || true) | wc -l)
  "$BIN/dossier" --lake "$tmp/trial" run --all --run-id nightly > /dev/null 2> "$tmp/resume.err" ||
    { echo "kill $i at $at s: the resume FAILED:" >&2; cat "$tmp/resume.err" >&2; exit 1; }
  resumed=$(grep -o 'resumed from the journal: [0-9]*' "$tmp/resume.err" | grep -o '[0-9]*$' || echo 0)
  if tables "$tmp/trial" | cmp -s - "$tmp/ref.sums"; then
    same=$((same + 1)); verdict=identical
  else
    verdict=DIFFERENT
  fi
  printf "kill %2d at %6.3f s: %3d asset steps journaled before the kill, %3d resumed (none recomputed: %s), tables %s\n" \
    "$i" "$at" "$before" "${resumed:-0}" "$([ "$before" = "${resumed:-0}" ] && echo yes || echo NO)" "$verdict"
done
echo "identical to the uninterrupted run: $same of $K"
