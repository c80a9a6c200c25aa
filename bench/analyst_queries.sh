#!/usr/bin/env bash
# Latency of three analyst queries over a synthetic N-asset run, through `dossier sql`
# and through DuckDB on the same Parquet files and the same view SQL, in one run.
#   q1  one asset's profile
#   q2  every unresolved conflict of the run
#   q3  efficacy values across the portfolio
# For each engine, over REPS fresh sessions: the session setup (registering the lake's
# tables and the views) and the first execution of the query, each a median, and the
# median of their sums (a fresh session's answer: DuckDB defers file reads to the query,
# DataFusion reads a footer per table at setup); then, in one session, the best of the
# executions after the first (REPS in all); and for dossier the whole command as an
# analyst runs it (process start, setup, query, CSV output; best of REPS). Ratios are
# dossier / DuckDB (above 1: dossier is slower).
# Usage: bench/analyst_queries.sh [N_ASSETS=500] [REPS=5]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
REPS=${2:-5}
cargo build --release --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN/dossier-gen" --assets "$N" --revisions --out "$tmp/syn" 2>/dev/null
"$BIN/dossier" --quiet --lake "$tmp/lake" snapshot --portfolio "$tmp/syn/portfolio.toml" --import "$tmp/syn/import" > /dev/null
run=$("$BIN/dossier" --quiet --lake "$tmp/lake" run --all)
asset=$(grep -m1 '^id = ' "$tmp/syn/portfolio.toml" | cut -d'"' -f2)
q1="SELECT * FROM profile WHERE asset_id = '$asset' ORDER BY section, field, endpoint, population, arm, value"
q2="SELECT * FROM profile_conflicts WHERE resolution = 'unresolved' ORDER BY asset_id, field, endpoint, population, arm, other_value"
q3="SELECT asset_id, endpoint, arm, field, value, unit FROM efficacy WHERE status = 'value' ORDER BY asset_id, endpoint, arm, field"
for i in 1 2 3; do
  eval "q=\$q$i"
  repeated=$(for _ in $(seq "$REPS"); do printf '%s;\n' "$q"; done)
  # the whole command, best of REPS; each is also a fresh session, timed inside
  best=""
  : > "$tmp/cold$i"
  for _ in $(seq "$REPS"); do
    t0=$(date +%s%N)
    "$BIN/dossier" --lake "$tmp/lake" sql "$q" --format csv --timing > "$tmp/out.csv" 2>> "$tmp/cold$i"
    t=$(( ($(date +%s%N) - t0) / 1000 ))
    if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
  done
  "$BIN/dossier" --lake "$tmp/lake" sql "$repeated" --format csv --timing 2> "$tmp/timing$i" > /dev/null
  echo "$best" > "$tmp/whole$i"
done
python3 bench/analyst_duckdb.py "$tmp/lake" "$run" "$REPS" "$q1" "$q2" "$q3" > "$tmp/duck"
python3 - "$tmp" "$N" "$REPS" <<'PY'
import json, re, statistics, sys
tmp, n, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
duck = [json.loads(l) for l in open(f"{tmp}/duck")]
names = ["q1 one asset's profile", "q2 unresolved conflicts", "q3 portfolio efficacy"]
print(f"{n} assets; session, first and session+first: medians of {reps} fresh sessions; warm: best of {reps} executions in one session after the first; times in ms; ratio = dossier / DuckDB")
print(f"{'query':<26}{'rows':>7} | {'session':>17} {'ratio':>6} | {'first':>17} {'ratio':>6} | {'session+first':>17} {'ratio':>6} | {'warm':>17} {'ratio':>6} | dossier command")
for i, d in enumerate(duck, 1):
    text = open(f"{tmp}/timing{i}").read()
    stmts = [(float(a), int(b)) for a, b in re.findall(r"statement \d+ ([\d.]+) ms (\d+) rows", text)]
    rows = stmts[0][1]
    warm = min(t for t, _ in stmts[1:]) if len(stmts) > 1 else stmts[0][0]
    cold_text = open(f"{tmp}/cold{i}").read()
    setups = [float(x) for x in re.findall(r"session ([\d.]+) ms", cold_text)]
    firsts = [float(x) for x in re.findall(r"statement 1 ([\d.]+) ms", cold_text)]
    assert len(setups) == len(firsts) == reps, f"q{i}: {len(setups)} sessions timed"
    session, first = statistics.median(setups), statistics.median(firsts)
    cold_sum = statistics.median(a + b for a, b in zip(setups, firsts))
    assert rows == d["rows"], f"q{i}: dossier {rows} rows, DuckDB {d['rows']}"
    whole = int(open(f"{tmp}/whole{i}").read()) / 1000
    cell = lambda a, b: f"{a:>8.1f} / {b:<7.1f} {a / b:>6.2f}"
    cold = cell(cold_sum, d["cold_ms"])
    print(f"{names[i-1]:<26}{rows:>7} | {cell(session, d['session_ms'])} | {cell(first, d['first_ms'])} | {cold} | {cell(warm, d['warm_ms'])} | {whole:.1f}")
PY
