#!/usr/bin/env bash
# Verify throughput: N_CLAIMS generated claims over an N_ASSETS synthetic snapshot.
# Usage: bench/verify_throughput.sh [N_ASSETS=500] [N_CLAIMS=100000]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
C=${2:-100000}
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN/dossier-gen" --assets "$N" --claims "$C" --out "$tmp/syn" 2>/dev/null
"$BIN/dossier" --quiet --lake "$tmp/lake" snapshot --portfolio "$tmp/syn/portfolio.toml" --import "$tmp/syn/import" > /dev/null
t0=$(date +%s.%N)
set +e
/usr/bin/time -f '%M' -o "$tmp/rss" "$BIN/dossier" --lake "$tmp/lake" verify --snapshot latest --claims "$tmp/syn/claims.jsonl" > "$tmp/verdicts.jsonl" 2> "$tmp/err"
rc=$?
set -e
t1=$(date +%s.%N)
[ "$rc" -le 1 ] || { cat "$tmp/err"; exit 2; }
accepted=$(grep -c '"verdict":"accepted"' "$tmp/verdicts.jsonl" || true)
awk -v n="$N" -v c="$C" -v a="$t0" -v b="$t1" -v ok="$accepted" -v r="$(tail -1 "$tmp/rss")" 'BEGIN {
  d=b-a; printf "verify: %d claims over %s assets in %.3f s (whole command, incl. loading and indexing the snapshot) = %.0f claims/s; accepted %d; peak RSS %.0f MB\n", c, n, d, c/d, ok, r/1024 }'
