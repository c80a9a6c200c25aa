#!/usr/bin/env bash
# Precision and recall of rejection, per kind of error, of the gates (entailment
# included) on the analyst-labelled (claim, quote) sets in tests/entailment/.
# Usage: bench/entailment_score.sh [-v]     (-v lists the lines judged otherwise)
# The fixture set always runs; the real-corpus sets need $DOSSIER_REAL_SOURCES or
# ../shared/real-sources.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --bin dossier
BIN=${CARGO_TARGET_DIR:-target}/debug/dossier
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
score() { # SET LAKE
  python3 -c 'import json,sys
for l in open(sys.argv[1]):
    if l.strip(): print(json.dumps(json.loads(l)["claim"]))' "$1" > "$tmp/claims.jsonl"
  "$BIN" --quiet --lake "$2" verify --snapshot latest --claims "$tmp/claims.jsonl" > "$tmp/verdicts.jsonl" || [ $? -eq 1 ]
  local set=$1; shift 2; python3 bench/entailment_score.py "$set" "$tmp/verdicts.jsonl" "$@"
}
"$BIN" --quiet --lake "$tmp/fixtures" snapshot --portfolio fixtures/portfolio.toml --import fixtures/import > /dev/null
echo "== fixtures (tests/entailment/fixtures.jsonl)"
score tests/entailment/fixtures.jsonl "$tmp/fixtures" "$@"
echo "== fixtures, second set (tests/entailment/second_fixtures.jsonl)"
score tests/entailment/second_fixtures.jsonl "$tmp/fixtures" "$@"
REAL=${DOSSIER_REAL_SOURCES:-../shared/real-sources}
if [ -f "$REAL/portfolio.toml" ]; then
  "$BIN" --quiet --lake "$tmp/real" snapshot --portfolio "$REAL/portfolio.toml" --import "$REAL/import" > /dev/null
  cat tests/entailment/real_*.jsonl > "$tmp/real.jsonl"
  echo "== real corpus (tests/entailment/real_*.jsonl)"
  score "$tmp/real.jsonl" "$tmp/real" "$@"
  echo "== real corpus, second set (tests/entailment/second_real.jsonl)"
  score tests/entailment/second_real.jsonl "$tmp/real" "$@"
  # written apart from the rules, after most of them: the closest this repository has to
  # a held-out set. Its figures are reported, not asserted in the tests.
  echo "== real corpus, third set (tests/entailment/third_real.jsonl)"
  score tests/entailment/third_real.jsonl "$tmp/real" "$@"
  # more sets of every kind written apart from the rules: the fourth was then used to find
  # rules (the tests assert it); the fifth was first scored after them, then used too
  echo "== real corpus, fourth set (tests/entailment/fourth_real.jsonl)"
  score tests/entailment/fourth_real.jsonl "$tmp/real" "$@"
  echo "== real corpus, fifth set (tests/entailment/fifth_real.jsonl)"
  score tests/entailment/fifth_real.jsonl "$tmp/real" "$@"
  # written apart from the rules after the fifth was used, avoiding every data point the
  # earlier sets quote; first scored at 33.3% wrong accepted, 6.7% true rejected, then used
  echo "== real corpus, sixth set (tests/entailment/sixth_real.jsonl)"
  score tests/entailment/sixth_real.jsonl "$tmp/real" "$@"
  # written the same way after the sixth was used; first scored at 23.3% wrong accepted,
  # 13.3% true rejected, then used
  echo "== real corpus, seventh set (tests/entailment/seventh_real.jsonl)"
  score tests/entailment/seventh_real.jsonl "$tmp/real" "$@"
  # the same again after the seventh was used; first scored at 20% wrong accepted, 13.3%
  # true rejected
  echo "== real corpus, eighth set (tests/entailment/eighth_real.jsonl)"
  score tests/entailment/eighth_real.jsonl "$tmp/real" "$@"
else
  echo "(real corpus not found at $REAL: its sets skipped)"
fi
