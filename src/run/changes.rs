//! Phase 3 (`changes`): what changed in each cell since a baseline run, by the SQL of
//! `sql/changes/cell_changes.sql` over both runs' `profile_cells` and `conflicts`. A run
//! writes its `cell_changes` partitions against the previous finished run of the same
//! portfolio (or the baseline it is given); `dossier diff` runs the same SQL between any
//! two runs.

use datafusion::prelude::{ParquetReadOptions, SessionContext};

use crate::Error;
use crate::domain::Portfolio;
use crate::lake::Lake;
use crate::lake::tables::{CellChangeRow, CellRow, ConflictRow, Table};
use crate::run::history::RunRow;

pub const SQL: &str = include_str!("../../sql/changes/cell_changes.sql");

/// The SQL file's statements, in order (comments and blank chunks left out).
fn statements() -> impl Iterator<Item = &'static str> {
    SQL.split(";\n").filter(|chunk| {
        chunk
            .lines()
            .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with("--"))
    })
}

/// `asset_id IN ('a', 'b')`, or nothing for every asset. The ids are checked to be
/// asset ids (`[a-z0-9_-]`), as they are written into the SQL.
fn asset_filter(assets: &[String]) -> Result<String, Error> {
    if assets.is_empty() {
        return Ok(String::new());
    }
    let mut list = Vec::with_capacity(assets.len());
    for a in assets {
        let id = crate::domain::AssetId::try_from(a.clone())
            .map_err(|_| super::RunError::BadAssetId(a.clone()))?;
        list.push(format!("'{}'", id.as_str()));
    }
    Ok(format!(" AND asset_id IN ({})", list.join(", ")))
}

/// Every changed cell from `baseline` to `run` (both valid run ids), for `assets` (all
/// when empty), ordered by asset, cell and change.
pub async fn between(
    lake: &Lake,
    baseline: &str,
    run: &str,
    assets: &[String],
) -> Result<Vec<CellChangeRow>, Error> {
    // the ids are written into the SQL: only run ids pass
    for id in [baseline, run] {
        if !super::valid_run_id(id) {
            return Err(super::RunError::BadRunId(id.to_string()).into());
        }
    }
    let ctx = SessionContext::new();
    ctx.register_object_store(lake.store_url(), lake.store());
    // each side reads only its own run's partitions
    let only = asset_filter(assets)?;
    for (view, table, schema, id) in [
        ("old_cells", "profile_cells", CellRow::schema(), baseline),
        ("new_cells", "profile_cells", CellRow::schema(), run),
        (
            "old_conflicts",
            "conflicts",
            ConflictRow::schema(),
            baseline,
        ),
        ("new_conflicts", "conflicts", ConflictRow::schema(), run),
    ] {
        let url = lake.table_url(&format!("tables/{table}/run_id={id}"));
        let raw = format!("{view}_parts");
        ctx.register_parquet(&raw, &url, ParquetReadOptions::default().schema(&schema))
            .await?;
        let sql = format!("CREATE VIEW {view} AS SELECT * FROM {raw} WHERE run_id = '{id}'{only}");
        ctx.sql(&sql).await?.collect().await?;
    }
    for stmt in statements() {
        ctx.sql(stmt).await?.collect().await?;
    }
    let batches = ctx
        .sql(&format!(
            "SELECT '{run}' AS run_id, '{baseline}' AS baseline_run_id, * FROM cell_changes_out \
             ORDER BY asset_id, section NULLS LAST, field, endpoint, population, arm, change, \
             old_source_id, old_value"
        ))
        .await?
        .collect()
        .await?;
    Ok(CellChangeRow::from_batches(&batches)?)
}

/// The run a run is compared with: the newest other finished run whose snapshot holds
/// the same portfolio (the same asset ids), finished before `started_at`.
pub async fn baseline(
    lake: &Lake,
    runs: &[RunRow],
    run_id: &str,
    portfolio: &Portfolio,
    started_at: &str,
) -> Result<Option<String>, Error> {
    let ids = |p: &Portfolio| -> Vec<String> {
        let mut v: Vec<String> = p.asset.iter().map(|a| a.id.to_string()).collect();
        v.sort();
        v
    };
    let want = ids(portfolio);
    for r in runs.iter().rev() {
        if r.run_id == run_id || r.finished_at.as_str() > started_at {
            continue;
        }
        let Ok((_, m)) = crate::snapshot::load_without_members(lake, &r.snapshot_id).await else {
            continue;
        };
        if ids(&m.portfolio) == want {
            return Ok(Some(r.run_id.clone()));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use crate::lake::Lake;

    /// Ids are written into the SQL, so anything but a run id or an asset id is refused
    /// before a statement is built.
    #[tokio::test]
    async fn only_run_and_asset_ids_reach_the_sql() {
        let lake = Lake::open("memory://").unwrap();
        let e = super::between(&lake, "r1' OR '1'='1", "r2", &[])
            .await
            .unwrap_err();
        assert!(e.to_string().contains("run id"), "{e}");
        let e = super::between(&lake, "r1", "r2", &["a') OR ('1".into()])
            .await
            .unwrap_err();
        assert!(e.to_string().contains("is not an asset id"), "{e}");
    }

    #[test]
    fn the_sql_file_splits_into_its_statements() {
        let stmts: Vec<&str> = super::statements().collect();
        assert_eq!(stmts.len(), 10);
        assert!(stmts.iter().all(|s| s.contains("CREATE VIEW")));
        assert!(stmts.last().unwrap().contains("cell_changes_out"));
    }
}
