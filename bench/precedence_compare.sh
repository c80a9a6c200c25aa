#!/usr/bin/env bash
# The precedence rules of sql/ over N synthetic candidate claims: DataFusion (`dossier
# rules`, release build) against DuckDB (from PyPI) running the same SQL files on the same
# Parquet inputs, in one run, best of RUNS each; both read the inputs, run the rules and
# write profile_cells and conflicts to Parquet. The outputs are compared row for row.
# Usage: bench/precedence_compare.sh [N=1000000] [RUNS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
RUNS=${2:-3}
python3 -c 'import duckdb' 2>/dev/null || pip install --quiet duckdb
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN/dossier-gen" --candidates "$N" --out "$tmp/in" 2>/dev/null
best() { sort -g | head -1; }
for i in $(seq "$RUNS"); do
  /usr/bin/time -f '%e %M' -o "$tmp/t" "$BIN/dossier" rules --accepted "$tmp/in/accepted.parquet" \
    --empty "$tmp/in/empty.parquet" --out "$tmp/df" 2>> "$tmp/df.err" || { cat "$tmp/df.err"; exit 2; }
  tail -1 "$tmp/t" >> "$tmp/df.times"
  /usr/bin/time -f '%e %M' -o "$tmp/t" python3 bench/precedence_duckdb.py "$tmp/in/accepted.parquet" \
    "$tmp/in/empty.parquet" jobs/family_rank.csv "$tmp/duck" >> "$tmp/duck.out"
  tail -1 "$tmp/t" >> "$tmp/duck.times"
done
echo "in-process times (read, rules, write), every run:"
grep rules "$tmp/df.err" | sed 's/^/  /'
sed 's/^/  /' "$tmp/duck.out"
# Once more, untimed, comparing the outputs row for row.
python3 bench/precedence_duckdb.py "$tmp/in/accepted.parquet" "$tmp/in/empty.parquet" \
  jobs/family_rank.csv "$tmp/duck" "$tmp/df" | sed 's/.*; outputs/outputs/'
df=$(cut -d' ' -f1 "$tmp/df.times" | best)
dk=$(cut -d' ' -f1 "$tmp/duck.times" | best)
dfm=$(cut -d' ' -f2 "$tmp/df.times" | sort -g | tail -1)
dkm=$(cut -d' ' -f2 "$tmp/duck.times" | sort -g | tail -1)
awk -v n="$N" -v a="$df" -v b="$dk" -v am="$dfm" -v bm="$dkm" 'BEGIN {
  printf "whole process, best of runs: DataFusion %.2f s = %.0f candidate rows/s (peak RSS %.0f MB); duckdb %.2f s = %.0f rows/s (peak RSS %.0f MB, python included); DataFusion/DuckDB time ratio %.2f\n", a, n/a, am/1024, b, n/b, bm/1024, a/b }'
