#!/usr/bin/env bash
# Extractive reasoning over synthetic portfolios: the snapshot that feeds it (wall time,
# peak RSS, manifest and lake size), then wall time of `dossier run --all` on it, mean
# reasoning time per asset (from the run manifest), peak RSS. With
# several sizes, each is measured in turn and the last line gives the peak of the largest
# against the peak of the smallest (memory flat in portfolio size is a ratio near 1).
# Usage: bench/run_throughput.sh [N_ASSETS=500 ...]
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- 500
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
peaks=()
for N in "$@"; do
  rm -rf "$tmp/syn" "$tmp/lake"
  "$BIN/dossier-gen" --assets "$N" --out "$tmp/syn" 2>/dev/null
  /usr/bin/time -f '%e %M' -o "$tmp/snap" "$BIN/dossier" --quiet --lake "$tmp/lake" snapshot \
    --portfolio "$tmp/syn/portfolio.toml" --import "$tmp/syn/import" > /dev/null
  read -r snap_s snap_kb < <(tail -1 "$tmp/snap")
  manifest_mb=$(find "$tmp/lake/snapshots" -name '*.json' ! -name '*.diagnostics.json' -printf '%s\n' | awk '{s+=$1} END {printf "%.1f", s/1e6}')
  echo "snapshot: $N assets in $snap_s s wall; peak RSS $((snap_kb / 1024)) MB; manifest $manifest_mb MB; lake $(du -sm "$tmp/lake" | cut -f1) MB"
  t0=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$tmp/rss" "$BIN/dossier" --lake "$tmp/lake" run --all > "$tmp/run_id" 2> "$tmp/err"
  t1=$(date +%s.%N)
  cat "$tmp/err"
  rss=$(tail -1 "$tmp/rss")
  peaks+=("$rss")
  python3 - "$tmp/lake/runs/$(cat "$tmp/run_id")/manifest.json" "$t0" "$t1" "$rss" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
a = m["assets"].values()
n = len(m["assets"])
wall = float(sys.argv[3]) - float(sys.argv[2])
ms = sorted(x["reason_ms"] for x in a)
claims = sum(x["claims"] for x in a)
print(f"run: {n} assets, {claims} claims ({claims / n:.0f} per asset) in {wall:.2f} s wall ({1000 * wall / n:.1f} ms/asset incl. I/O and writing tables); "
      f"reasoning+gates per asset mean {sum(ms) / n:.2f} ms, median {ms[n // 2]:.2f} ms, max {ms[-1]:.2f} ms; peak RSS {int(sys.argv[4]) / 1024:.0f} MB")
PY
done
if [ ${#peaks[@]} -gt 1 ]; then
  awk -v a="${peaks[0]}" -v b="${peaks[-1]}" -v na="$1" -v nb="${*: -1}" \
    'BEGIN {printf "peak RSS at %d assets / at %d assets: %.2f\n", nb, na, b / a}'
fi
