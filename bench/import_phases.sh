#!/usr/bin/env bash
# Where the time of `dossier snapshot --import` goes, on the real corpus and on a
# synthetic corpus from dossier-gen: the median over runs of the whole command and of
# each phase the import logs at debug level (milliseconds). The phases overlap: the
# sources object encodes beside the asset bundles, and both are inside
# encode_and_write_bundles. What the whole command spends outside the logged phases is
# starting and exiting the process and loading the portfolio.
# Usage: bench/import_phases.sh [N_ASSETS=500] [RUNS=7]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
RUNS=${2:-7}
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
lakes=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'rm -rf "$tmp" "$lakes"' EXIT
"$BIN/dossier-gen" --assets "$N" --out "$tmp/syn" 2>/dev/null

phases() {
  local name=$1 portfolio=$2 import=$3
  : > "$tmp/$name.log"
  for _ in $(seq "$RUNS"); do
    rm -rf "$lakes/lake"
    local t0 t1
    t0=$(date +%s%N)
    DOSSIER_LOG=dossier=debug NO_COLOR=1 "$BIN/dossier" --lake "$lakes/lake" snapshot \
      --portfolio "$portfolio" --import "$import" 2> "$tmp/err" > /dev/null \
      || { cat "$tmp/err" >&2; exit 1; }
    t1=$(date +%s%N)
    echo "whole_command=$(( (t1 - t0) / 1000 ))e-6" >> "$tmp/$name.log"
    # the phase lines, colours stripped: key=seconds pairs
    sed 's/\x1b\[[0-9;]*m//g' "$tmp/err" | grep 'import phases' \
      | grep -o '[a-z_]*=[0-9.e-]*' >> "$tmp/$name.log"
  done
  awk -F= -v n="$name" '
    { v[$1] = v[$1] " " $2 * 1000; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
    END {
      printf "%-14s", n
      for (i = 1; i <= k; i++) {
        m = split(substr(v[order[i]], 2), a, " ")
        for (x = 1; x <= m; x++) for (y = x + 1; y <= m; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
        printf " | %s %.1f", order[i], (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
      }
      printf "\n"
    }' "$tmp/$name.log"
}

echo "medians of $RUNS runs, in ms"
phases real ../shared/real-sources/portfolio.toml ../shared/real-sources/import
phases "synthetic-$N" "$tmp/syn/portfolio.toml" "$tmp/syn/import"
