#!/usr/bin/env bash
# Live snapshot of N synthetic assets from the loopback replay server: the request rate
# each API achieved against its configured limit (from the arrival times the server saw:
# rate between first and last arrival, and the most requests in any 1 s and 60 s window),
# then the wall time of an unchanged nightly rerun (conditional requests, 304s) next to
# the first run's.
# Usage: [LOAD=K] bench/live_rates.sh [N_ASSETS=500] [SCALE=1]
#   SCALE multiplies every documented limit (openFDA 240/min, SEC 10/s, NCBI 3/s, CT.gov
#   and NLM 10/s, web hosts 1/s), to measure the same pacing in less time.
#   LOAD=K keeps K busy loops running beside the snapshots (a loaded machine sends late).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
SCALE=${2:-1}
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
"$BIN/dossier-gen" --assets "$N" --out "$tmp/syn" 2>/dev/null
"$BIN/dossier-gen" --replay --out "$tmp/syn" > "$tmp/addr" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do [ -s "$tmp/addr" ] && break; sleep 0.1; done
addr=$(cat "$tmp/addr")
python3 - "$addr" "$SCALE" > "$tmp/live.toml" <<'PY'
import sys
addr, scale = sys.argv[1], float(sys.argv[2])
limits = {"ctgov": 600, "openfda": 240, "sec": 600, "ncbi": 180, "icd10": 600, "web": 60}
print("[live]")
print('user_agent = "dossier-bench (bench@example.com)"')
for api in ["ctgov", "openfda", "sec", "ncbi", "icd10"]:
    print(f'{api}_base = "{addr}/{api}"')
print(f'web_mirror = "{addr}/web"')
print("[live.per_minute]")
for api, per_min in limits.items():
    print(f"{api} = {per_min * scale}")
PY
burners=()
for _ in $(seq "${LOAD:-0}"); do
  (while :; do :; done) &
  burners+=($!)
done
trap 'kill "$server" "${burners[@]}" 2>/dev/null || true; rm -rf "$tmp"' EXIT
run() {
  local t0 t1
  t0=$(date +%s.%N)
  "$BIN/dossier" --lake "$tmp/lake" snapshot --portfolio "$tmp/syn/portfolio.toml" --live --live-config "$tmp/live.toml" > "$tmp/id$1" 2> "$tmp/err$1"
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc > "$tmp/wall$1"
}
run 1
curl -s "$addr/__stats" > "$tmp/stats1"
run 2
curl -s "$addr/__stats" > "$tmp/stats2"
if [ ${#burners[@]} -gt 0 ]; then kill "${burners[@]}" 2>/dev/null || true; fi
grep -E '^  (fetched|[a-z]+(:[^ ]+)?: )' "$tmp/err1" | sed 's/^/first run: /'
grep -E '^  fetched' "$tmp/err2" | sed 's/^/rerun:     /'
python3 - "$tmp" "$SCALE" "$N" <<'PY'
import json, os, sys
tmp, scale, n = sys.argv[1], float(sys.argv[2]), sys.argv[3]
limits = {"ctgov": 10, "openfda": 4, "sec": 10, "ncbi": 3, "icd10": 10, "web": 1}
s1 = json.load(open(f"{tmp}/stats1"))
load = os.environ.get("LOAD", "0")
print(f"{n} assets, limits x{scale:g}, {load} busy loops beside; server-side arrivals of the first run")
print(f"{'api':<8}{'requests':>9}{'limit/s':>9}{'rate/s':>9}{'of limit':>9}{'max 1s':>8}{'max 60s':>9}")
for api, st in sorted(s1.items()):
    if api.startswith("__"):
        continue
    lim = limits.get(api, limits["web"]) * scale
    # a rate over a handful of arrivals is mostly connection jitter; the windows still hold
    if st["requests"] >= 20:
        rate = f"{st['rate_per_sec']:>9.2f}{100 * st['rate_per_sec'] / lim:>8.1f}%"
    else:
        rate = f"{'-':>9}{'-':>9}"
    print(f"{api:<8}{st['requests']:>9}{lim:>9.2f}{rate}{st['max_in_1s']:>8}{st['max_in_60s']:>9}")
w1, w2 = float(open(f"{tmp}/wall1").read()), float(open(f"{tmp}/wall2").read())
same = open(f"{tmp}/id1").read() == open(f"{tmp}/id2").read()
print(f"wall time: first run {w1:.1f} s, unchanged rerun {w2:.1f} s ({w2 / w1:.2f}x); same snapshot id: {same}")
PY
