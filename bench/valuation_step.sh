#!/usr/bin/env bash
# Time of the valuation step per asset (from the run manifest's valuation_ms), on the
# bundled fixtures and, when present, the real corpus; with the cells it modeled.
# Usage: bench/valuation_step.sh [ROUNDS=20]
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-20}
cargo build --release --quiet --bin dossier
BIN=${CARGO_TARGET_DIR:-target}/release/dossier
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
REAL=${DOSSIER_REAL_SOURCES:-../shared/real-sources}
sets=("fixtures fixtures/portfolio.toml fixtures/import")
[ -d "$REAL/import" ] && sets+=("real $REAL/portfolio.toml $REAL/import")
for s in "${sets[@]}"; do
  read -r name portfolio import <<<"$s"
  lake="$tmp/$name"
  "$BIN" --quiet --lake "$lake" snapshot --portfolio "$portfolio" --import "$import" > /dev/null
  for i in $(seq "$ROUNDS"); do
    "$BIN" --quiet --lake "$lake" run --all --run-id "v$i" > /dev/null
  done
  modeled=$("$BIN" --lake "$lake" sql "SELECT count(*) AS n FROM profile_cells WHERE run_id = 'v1' AND field = 'valuation.rnpv' AND status = 'value'" --format csv | tail -1)
  python3 - "$lake" "$ROUNDS" "$name" "$modeled" <<'PY'
import json, sys, statistics
lake, rounds, name, modeled = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
ms = []
for i in range(1, rounds + 1):
    m = json.load(open(f"{lake}/runs/v{i}/manifest.json"))
    ms += [a["valuation_ms"] for a in m["assets"].values()]
n = len(ms) // rounds
print(f"{name}: {n} assets x {rounds} runs, {modeled} modeled rNPV; valuation step per asset "
      f"median {1000 * statistics.median(ms):.1f} us, mean {1000 * statistics.mean(ms):.1f} us, max {1000 * max(ms):.1f} us")
PY
done
