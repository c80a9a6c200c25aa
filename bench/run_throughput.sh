#!/usr/bin/env bash
# Extractive reasoning over a synthetic portfolio: wall time of `dossier run --all` on a
# pinned snapshot, mean reasoning time per asset (from the run manifest), peak RSS.
# Usage: bench/run_throughput.sh [N_ASSETS=500]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN/dossier-gen" --assets "$N" --out "$tmp/syn" 2>/dev/null
"$BIN/dossier" --quiet --lake "$tmp/lake" snapshot --portfolio "$tmp/syn/portfolio.toml" --import "$tmp/syn/import" > /dev/null
t0=$(date +%s.%N)
/usr/bin/time -f '%M' -o "$tmp/rss" "$BIN/dossier" --lake "$tmp/lake" run --all > "$tmp/run_id" 2> "$tmp/err"
t1=$(date +%s.%N)
cat "$tmp/err"
python3 - "$tmp/lake/runs/$(cat "$tmp/run_id")/manifest.json" "$t0" "$t1" "$(tail -1 "$tmp/rss")" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
a = m["assets"].values()
n = len(m["assets"])
wall = float(sys.argv[3]) - float(sys.argv[2])
ms = sorted(x["reason_ms"] for x in a)
claims = sum(x["claims"] for x in a)
print(f"run: {n} assets, {claims} claims in {wall:.2f} s wall ({1000 * wall / n:.1f} ms/asset incl. I/O and writing tables); "
      f"reasoning+gates per asset mean {sum(ms) / n:.2f} ms, median {ms[n // 2]:.2f} ms, max {ms[-1]:.2f} ms; peak RSS {int(sys.argv[4]) / 1024:.0f} MB")
PY
