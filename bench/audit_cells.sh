#!/usr/bin/env bash
# Audits the real corpus's efficacy, serious-event and financial cells one by one against
# the source files (bench/audit_cells.py reads them independently of dossier).
# The real portfolio has no biotech SEC filer, so one probe asset is added whose
# sponsor_cik is the recorded companyfacts filer (Snowflake), to audit the XBRL step.
# Meaning checks (field kind, whole sentences, typed values, identity) and the hand-checked
# gold set bench/gold_cells.jsonl run over the same cells (see bench/audit_cells.py).
# Usage: bench/audit_cells.sh [REAL_SOURCES=../shared/real-sources]
set -euo pipefail
cd "$(dirname "$0")/.."
REAL=${1:-../shared/real-sources}
cargo build --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/debug/dossier
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$REAL/portfolio.toml" "$tmp/portfolio.toml"
cat >> "$tmp/portfolio.toml" <<'EOF'

[[asset]]
id = "xbrl-probe"
names = ["xbrl probe asset"]
sponsor_cik = "0001640147"
EOF
"$BIN" --quiet --lake "$tmp/lake" snapshot --portfolio "$tmp/portfolio.toml" --import "$REAL/import" > /dev/null
"$BIN" --lake "$tmp/lake" run --all > /dev/null
"$BIN" --lake "$tmp/lake" sql --format json \
  "SELECT asset_id, field, endpoint, population, arm, value, value_num, CAST(value_date AS VARCHAR) AS value_date, unit, source_id, cutoff_date FROM profile WHERE status IN ('value', 'conflicting')" \
  > "$tmp/cells.jsonl"
python3 bench/audit_cells.py "$tmp/cells.jsonl" "$REAL"
