#!/usr/bin/env bash
# Cross-family precedence on a synthetic portfolio with planted disagreements: each
# study's primary outcome (an objective response rate) is also stated by the asset's
# paper, label and press page; for a planted pattern of assets one of them states another
# value (dossier-gen --cross-family writes the plan to planted.csv). Runs the extractive
# reasoner and compares the `conflicts` table's efficacy.value rows with the plan:
# conflicts found against conflicts planted, and how many found were not planted. Also
# the mean reasoning time per asset (from the run manifest).
# Usage: bench/cross_family.sh [N_ASSETS=200]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN/dossier-gen" --assets "$N" --cross-family --out "$tmp/syn" 2>/dev/null
"$BIN/dossier" --quiet --lake "$tmp/lake" snapshot --portfolio "$tmp/syn/portfolio.toml" --import "$tmp/syn/import" > /dev/null
run=$("$BIN/dossier" --quiet --lake "$tmp/lake" run --all)
"$BIN/dossier" --lake "$tmp/lake" sql --format csv \
  "SELECT asset_id, arm, winner_family, other_family, resolution FROM conflicts WHERE field = 'efficacy.value' ORDER BY asset_id" > "$tmp/found.csv"
"$BIN/dossier" --lake "$tmp/lake" sql --format csv \
  "SELECT count(*) AS text_claims, sum(CASE WHEN accepted THEN 1 ELSE 0 END) AS accepted FROM claims WHERE field = 'efficacy.value' AND split_part(source_id, ':', 1) IN ('pubmed', 'fda_label', 'press')" > "$tmp/text.csv"
python3 - "$tmp/syn/planted.csv" "$tmp/found.csv" "$tmp/text.csv" "$tmp/lake/runs/$run/manifest.json" <<'PY'
import csv, json, sys
planted = {tuple(r.values()) for r in csv.DictReader(open(sys.argv[1]))}
found = {tuple(r.values()) for r in csv.DictReader(open(sys.argv[2]))}
text = next(csv.DictReader(open(sys.argv[3])))
m = json.load(open(sys.argv[4]))
ms = [a["reason_ms"] for a in m["assets"].values()]
hit = planted & found
print(f"conflicts planted {len(planted)}, found {len(found)}, found as planted {len(hit)} "
      f"(winner, loser and resolution all as planted), missed {len(planted - found)}, not planted {len(found - planted)}")
print(f"text efficacy claims {text['text_claims']}, accepted {text['accepted']}; "
      f"reasoning+gates per asset mean {sum(ms) / len(ms):.2f} ms over {len(ms)} assets")
for r in sorted(planted - found)[:5]:
    print("  missed:", ",".join(r))
for r in sorted(found - planted)[:5]:
    print("  not planted:", ",".join(r))
PY
