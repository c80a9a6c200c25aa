"""Reads dossier's lake with other engines, for tests/engines.rs.

  engines.py duckdb LAKE RUN_ID   the `profile` view of sql/views/analyst.sql, run by DuckDB
                                  over the lake's Parquet files, as JSON lines
  engines.py pyarrow LAKE         every profile_cells row through pyarrow.dataset, as JSON lines
  engines.py flight URI QUERY     QUERY through the ADBC Flight SQL driver, plain and prepared;
                                  prints {"plain": rows, "prepared": rows, "tables": [...],
                                  "refused": message of a refused CREATE TABLE}
"""
import json
import pathlib
import sys

KEY = ["asset_id", "field", "endpoint", "population", "arm", "value", "unit", "status", "dedup_key"]


def rows_of(table):
    return [{k: r.get(k) for k in KEY} for r in table.to_pylist()]


def emit(rows):
    for r in sorted(rows, key=lambda r: json.dumps(r, sort_keys=True)):
        print(json.dumps(r, sort_keys=True))


def duckdb_profile(lake, run_id):
    import duckdb

    con = duckdb.connect()
    for t in ["profile_cells", "conflicts", "catalog"]:
        glob = str(pathlib.Path(lake) / "tables" / t / "**" / "*.parquet")
        con.execute(
            f"CREATE VIEW {t} AS SELECT * FROM read_parquet('{glob}', hive_partitioning = false, union_by_name = true)"
        )
    con.execute(
        "CREATE TABLE current_run AS SELECT DISTINCT run_id, snapshot_id FROM profile_cells WHERE run_id = ?",
        [run_id],
    )
    root = pathlib.Path(__file__).resolve().parents[2]
    con.execute((root / "sql" / "views" / "analyst.sql").read_text())
    emit(rows_of(con.execute("SELECT * FROM profile").to_arrow_table()))


def pyarrow_cells(lake):
    import pyarrow.dataset as ds

    d = ds.dataset(str(pathlib.Path(lake) / "tables" / "profile_cells"), format="parquet")
    emit(rows_of(d.to_table()))


def flight(uri, query):
    import adbc_driver_flightsql.dbapi as flightsql

    out = {}
    with flightsql.connect(uri) as conn:
        with conn.cursor() as cur:
            cur.execute(query)
            out["plain"] = rows_of(cur.fetch_arrow_table())
            cur.adbc_prepare(query)
            cur.execute(query)
            out["prepared"] = rows_of(cur.fetch_arrow_table())
            try:
                cur.execute("CREATE TABLE x AS SELECT 1 AS one")
                cur.fetchall()
                out["refused"] = None
            except Exception as e:  # the driver raises its own error types
                out["refused"] = str(e)
        objects = conn.adbc_get_objects(depth="tables").read_all().to_pylist()
        out["tables"] = sorted(
            t["table_name"] + ":" + t["table_type"]
            for c in objects
            for s in c["catalog_db_schemas"] or []
            for t in s["db_schema_tables"] or []
        )
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "duckdb":
        duckdb_profile(sys.argv[2], sys.argv[3])
    elif cmd == "pyarrow":
        pyarrow_cells(sys.argv[2])
    elif cmd == "flight":
        flight(sys.argv[2], sys.argv[3])
    else:
        sys.exit(f"unknown command {cmd}")
