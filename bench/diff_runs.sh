#!/usr/bin/env bash
# `dossier diff` between two runs of an N-asset synthetic portfolio, the second over a
# snapshot in which a tenth of the studies moved one number: wall time and peak RSS of the
# diff (JSON lines to /dev/null), and of the Markdown digest, next to the second run's own
# time (which writes cell_changes), with the count of changed cells.
# Usage: bench/diff_runs.sh [N_ASSETS=500]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN/dossier-gen" --assets "$N" --out "$tmp/syn" 2>/dev/null
D() { "$BIN/dossier" --quiet --lake "$tmp/lake" "$@"; }
D snapshot --portfolio "$tmp/syn/portfolio.toml" --import "$tmp/syn/import" > /dev/null
D run --all --run-id night1 > /dev/null
# a tenth of the studies post a new version with one measurement moved
python3 - "$tmp/syn/import/ctgov" <<'PY'
import os, re, sys
d = sys.argv[1]
files = sorted(f for f in os.listdir(d) if f.endswith(".json"))
moved = 0
for f in files[::10]:
    p = os.path.join(d, f)
    t = open(p).read()
    m = re.search(r'"value": ?"(\d+\.\d+)"', t)
    if m:
        t = t[:m.start(1)] + f"{float(m.group(1)) + 0.1:.1f}" + t[m.end(1):]
        open(p, "w").write(t)
        moved += 1
print(f"{moved} of {len(files)} studies moved one number", file=sys.stderr)
PY
D snapshot --portfolio "$tmp/syn/portfolio.toml" --import "$tmp/syn/import" > /dev/null
timed() { # label, command...
  local label=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$tmp/rss" "$@" > "$tmp/out" 2> "$tmp/err" || [ $? -eq 1 ]
  t1=$(date +%s.%N)
  printf '%-34s %7.2f s  peak RSS %5d MB  %s\n' "$label" "$(echo "$t1 - $t0" | bc)" \
    "$(( $(tail -1 "$tmp/rss") / 1024 ))" "$(wc -l < "$tmp/out") lines"
}
timed "run night2 (writes cell_changes)" "$BIN/dossier" --quiet --lake "$tmp/lake" run --all --run-id night2
timed "diff night1 -> night2, json" "$BIN/dossier" --quiet --lake "$tmp/lake" diff --from night1 --to night2 --format json
timed "diff night1 -> night2, md digest" "$BIN/dossier" --quiet --lake "$tmp/lake" diff --from night1 --to night2 --format md
timed "diff snapshots, json" "$BIN/dossier" --quiet --lake "$tmp/lake" diff --from snapshot:previous --to snapshot:latest --format json
"$BIN/dossier" --lake "$tmp/lake" sql "SELECT change, count(*) AS cells FROM cell_changes WHERE run_id = 'night2' GROUP BY change ORDER BY change"
