#!/usr/bin/env bash
# Import throughput of `dossier snapshot --import` next to `sha256sum` over the same
# raw bytes, in one run: the real corpus and a synthetic corpus from dossier-gen.
# Usage: bench/import_throughput.sh [N_ASSETS=500] [RUNS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
RUNS=${2:-3}
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
# The lake goes to tmpfs when there is one, so disk noise does not swamp parsing.
lakes=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'rm -rf "$tmp" "$lakes"' EXIT
"$BIN/dossier-gen" --assets "$N" --out "$tmp/syn" 2>/dev/null

now() { date +%s.%N; }

bench() {
  local name=$1 portfolio=$2 import=$3
  local list="$tmp/$name.files"
  find "$import" -type f ! -name '*.source.toml' -print0 | sort -z > "$list"
  local bytes
  bytes=$(xargs -0 stat -c %s < "$list" | awk '{s+=$1} END {print s}')
  local best_sha=999999 best_dos=999999 rss=0
  for _ in $(seq "$RUNS"); do
    local t0 t1
    t0=$(now); xargs -0 sha256sum < "$list" > /dev/null; t1=$(now)
    best_sha=$(awk -v a="$t0" -v b="$t1" -v m="$best_sha" 'BEGIN {d=b-a; print (d<m)?d:m}')
    rm -rf "$lakes/lake"
    t0=$(now)
    /usr/bin/time -f '%M' -o "$tmp/rss" "$BIN/dossier" --quiet --lake "$lakes/lake" snapshot \
      --portfolio "$portfolio" --import "$import" > /dev/null
    t1=$(now)
    best_dos=$(awk -v a="$t0" -v b="$t1" -v m="$best_dos" 'BEGIN {d=b-a; print (d<m)?d:m}')
    rss=$(awk -v r="$(cat "$tmp/rss")" -v m="$rss" 'BEGIN {print (r>m)?r:m}')
  done
  awk -v n="$name" -v b="$bytes" -v s="$best_sha" -v d="$best_dos" -v r="$rss" -v f="$(tr -cd '\0' < "$list" | wc -c)" 'BEGIN {
    mb=b/1e6;
    printf "%-10s %5d files %8.1f MB | dossier snapshot %7.3f s %8.1f MB/s | sha256sum %7.3f s %8.1f MB/s | ratio dossier/sha256sum %.2f | peak RSS %.0f MB\n",
      n, f, mb, d, mb/d, s, mb/s, (mb/d)/(mb/s), r/1024 }'
}

echo "best of $RUNS runs; dossier time is the whole command (parse, resolve, encode, write the lake)"
bench real ../shared/real-sources/portfolio.toml ../shared/real-sources/import
bench "synthetic-$N" "$tmp/syn/portfolio.toml" "$tmp/syn/import"
