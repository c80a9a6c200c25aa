#!/usr/bin/env python3
"""Runs the precedence rules of sql/ in DuckDB over the same Parquet inputs that
`dossier rules` reads, writes the same two outputs, and checks that both engines' outputs
hold the same rows.

Usage: bench/precedence_duckdb.py ACCEPTED.parquet EMPTY.parquet RANKS.csv OUT_DIR [DATAFUSION_OUT_DIR]
Prints one line: candidates, output rows, seconds (reading, rules and writing, as timed
for dossier), and the comparison with DataFusion's outputs when their directory is given.
"""
import glob
import os
import sys
import time

import duckdb


def main():
    accepted, empty, ranks, out = sys.argv[1:5]
    df_out = sys.argv[5] if len(sys.argv) > 5 else None
    os.makedirs(out, exist_ok=True)
    sql_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sql")
    rules = sorted(glob.glob(os.path.join(sql_dir, "[0-9][0-9]_*.sql")))
    con = duckdb.connect()
    t0 = time.perf_counter()
    con.execute(f"CREATE VIEW accepted AS SELECT * FROM read_parquet('{accepted}')")
    con.execute(f"CREATE VIEW empty_cells AS SELECT * FROM read_parquet('{empty}')")
    con.execute(
        f"CREATE TABLE family_rank AS SELECT family, CAST(rank AS BIGINT) AS rank FROM read_csv('{ranks}', header = true)"
    )
    for path in rules:
        con.execute(open(path, encoding="utf-8").read())
    rows = {}
    for table in ("profile_cells", "conflicts"):
        target = os.path.join(out, f"{table}.parquet")
        con.execute(f"COPY (SELECT * FROM {table}) TO '{target}' (FORMAT parquet)")
        rows[table] = con.execute(f"SELECT count(*) FROM read_parquet('{target}')").fetchone()[0]
    secs = time.perf_counter() - t0
    n = con.execute("SELECT count(*) FROM accepted").fetchone()[0]
    line = (f"duckdb {duckdb.__version__}: {n} candidate claims -> {rows['profile_cells']} profile cells, "
            f"{rows['conflicts']} conflicts in {secs:.3f} s ({n / secs:.0f} candidates/s)")
    if df_out:
        same = []
        for table in ("profile_cells", "conflicts"):
            a = f"read_parquet('{os.path.join(out, table + '.parquet')}')"
            b = f"read_parquet('{os.path.join(df_out, table + '.parquet')}')"
            # Compare as text, NULL and '' alike (dossier casts its outputs to text).
            cols = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {a}").fetchall()]
            proj = ", ".join(f"COALESCE(CAST({c} AS VARCHAR), '') AS {c}" for c in cols)
            diff = con.execute(
                f"SELECT (SELECT count(*) FROM (SELECT {proj} FROM {a} EXCEPT ALL SELECT {proj} FROM {b})) + "
                f"(SELECT count(*) FROM (SELECT {proj} FROM {b} EXCEPT ALL SELECT {proj} FROM {a}))"
            ).fetchone()[0]
            same.append(f"{table} {'identical' if diff == 0 else f'{diff} rows differ'}")
        line += "; outputs vs DataFusion: " + ", ".join(same)
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
