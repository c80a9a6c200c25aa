#!/usr/bin/env bash
# BM25 index + query time per asset: dossier (Rust) next to the Python BM25Distiller of
# ../shared/seeds/004_6eb47fa31ca46851.txt on the same passages, in one run; and the token
# reduction of the distilled context against the full text of each bundle. Each side
# makes REPS passes over all assets; the figure of each is the median of its passes'
# means per asset (single passes of the 17 real assets vary by a quarter).
# Usage: bench/bm25_compare.sh [N_ASSETS=500] [BUDGET=2000] [REPS=7]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
BUDGET=${2:-2000}
REPS=${3:-7}
QUERY="primary endpoint hazard ratio response rate versus placebo"
SEED=../shared/seeds/004_6eb47fa31ca46851.txt
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN/dossier-gen" --assets "$N" --out "$tmp/syn" 2>/dev/null

compare() {
  local name=$1 portfolio=$2 import=$3
  "$BIN/dossier" --quiet --lake "$tmp/lake-$name" snapshot --portfolio "$portfolio" --import "$import" > /dev/null
  "$BIN/dossier" --lake "$tmp/lake-$name" distill --query "$QUERY" --budget "$BUDGET" --dump "$tmp/spans-$name" > /dev/null 2> "$tmp/rust-$name.txt"
  local rust py pyus passes=()
  passes+=("$(grep -o 'mean_index_query_us=[0-9.]*' "$tmp/rust-$name.txt" | cut -d= -f2)")
  for _ in $(seq 2 "$REPS"); do
    passes+=("$("$BIN/dossier" --lake "$tmp/lake-$name" distill --query "$QUERY" --budget "$BUDGET" 2>&1 > /dev/null | grep -o 'mean_index_query_us=[0-9.]*' | cut -d= -f2)")
  done
  rust=$(printf '%s\n' "${passes[@]}" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
  echo "[$name] rust passes (us per asset): ${passes[*]}"
  py=$(python3 bench/bm25_compare.py "$tmp/spans-$name" "$QUERY" "$SEED" "$REPS")
  pyus=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['mean_index_query_us'])" "$py")
  echo "[$name] rust:   $(cat "$tmp/rust-$name.txt")"
  echo "[$name] python: $py"
  awk -v n="$name" -v k="$REPS" -v r="$rust" -v p="$pyus" 'BEGIN { printf "[%s] BM25 index+query per asset, median of %d passes: dossier %.0f us, Python BM25Distiller %.0f us, speedup %.1fx\n", n, k, r, p, p/r }'
}

compare real ../shared/real-sources/portfolio.toml ../shared/real-sources/import
compare "synthetic-$N" "$tmp/syn/portfolio.toml" "$tmp/syn/import"
