#!/usr/bin/env python3
"""DuckDB's side of bench/analyst_queries.sh: the lake's Parquet tables as views, the
analyst views of sql/views/analyst.sql over them, then each query REPS times.

Usage: bench/analyst_duckdb.py LAKE RUN_ID REPS QUERY...
Prints one JSON line per query, over REPS fresh sessions: session_ms (connect, views; the
same work as dossier's session setup) and first_ms (its first execution, fetched as Arrow),
each a median, and cold_ms, the median of their sums; then, in one session, warm_ms (the
best execution after the first) and rows.
"""
import json
import os
import statistics
import sys
import time

import duckdb


def main():
    lake, run_id, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    views = open(os.path.join(root, "sql", "views", "analyst.sql")).read()
    with open(os.path.join(lake, "runs", run_id, "manifest.json")) as f:
        snapshot_id = json.load(f)["snapshot_id"]
    def session():
        con = duckdb.connect()
        for t in ["profile_cells", "conflicts", "catalog"]:
            glob = os.path.join(lake, "tables", t, "**", "*.parquet")
            con.execute(
                f"CREATE VIEW {t} AS SELECT * FROM read_parquet('{glob}', hive_partitioning = false)"
            )
        con.execute(
            "CREATE TABLE current_run AS SELECT ? AS run_id, ? AS snapshot_id",
            [run_id, snapshot_id],
        )
        con.execute(views)
        return con

    for q in sys.argv[4:]:
        # REPS fresh sessions, each timed at setup and at its first execution
        setups, firsts = [], []
        for _ in range(reps):
            t0 = time.perf_counter()
            con = session()
            t1 = time.perf_counter()
            con.sql(q).to_arrow_table()
            setups.append(t1 - t0)
            firsts.append(time.perf_counter() - t1)
            con.close()
        # then REPS executions in one session, the first of them not counted as warm
        con = session()
        times = []
        rows = None
        for _ in range(reps):
            t = time.perf_counter()
            rows = con.sql(q).to_arrow_table().num_rows
            times.append(time.perf_counter() - t)
        con.close()
        print(json.dumps({
            "session_ms": statistics.median(setups) * 1e3,
            "first_ms": statistics.median(firsts) * 1e3,
            "cold_ms": statistics.median(a + b for a, b in zip(setups, firsts)) * 1e3,
            "warm_ms": min(times[1:] or times) * 1e3,
            "rows": rows,
        }))


if __name__ == "__main__":
    main()
