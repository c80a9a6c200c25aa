//! `dossier diff`: what changed between two runs (per cell, by the `cell_changes` SQL) or
//! two snapshots (per asset and family: records added, removed or replaced by a new
//! version, status changes, fetch failures), as a table, CSV, JSON lines or a Markdown
//! digest. Nothing here writes to the lake.

use std::collections::{BTreeMap, BTreeSet};

use datafusion::arrow::array::RecordBatch;

use crate::Error;
use crate::domain::{FamilyStatus, Hash256};
use crate::lake::Lake;
use crate::lake::manifest::SnapshotManifest;
use crate::lake::tables::{CellChangeRow, Table};
use crate::run::history::RunRow;

use super::AccessError;

crate::lake::tables::table! {
    /// One change of a snapshot diff, per asset and family.
    pub struct SnapshotChangeRow in "snapshot_changes", nullable = false {
        pub asset_id: String,
        pub family: String,
        /// `record_added`, `record_removed`, `record_replaced`, `status_changed`,
        /// `fetch_failed`.
        pub change: String,
        pub record_key: Option<String>,
        pub old: Option<String>,
        pub new: Option<String>,
        pub detail: Option<String>,
    }
}

/// How `dossier diff` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Format {
    Table,
    Csv,
    Json,
    Md,
}

impl Changes {
    /// The diff as text in `format`.
    pub fn render(&self, format: Format) -> Result<String, Error> {
        let sql = match format {
            Format::Md => return Ok(self.markdown()),
            Format::Table => super::sql::Format::Table,
            Format::Csv => super::sql::Format::Csv,
            Format::Json => super::sql::Format::Json,
        };
        super::sql::render(&[self.batch()?], sql)
    }
}

/// One side of a diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Side {
    Run(String),
    Snapshot(Hash256),
}

/// What a diff found.
pub enum Changes {
    Cells {
        from: String,
        to: String,
        rows: Vec<CellChangeRow>,
    },
    Records {
        from: Hash256,
        to: Hash256,
        rows: Vec<SnapshotChangeRow>,
    },
}

fn run_at<'a>(runs: &'a [RunRow], back: usize, what: &str) -> Result<&'a RunRow, Error> {
    runs.iter().rev().nth(back).ok_or_else(|| {
        AccessError::NoSuchRun {
            id: what.to_string(),
            known: format!("{} finished run(s)", runs.len()),
        }
        .into()
    })
}

/// Reads a side: `latest` and `previous` (runs, by finish time), a run id,
/// `snapshot:latest`, `snapshot:previous` (the newest snapshot a finished run pinned
/// other than the latest), or a snapshot id.
pub async fn resolve(lake: &Lake, runs: &[RunRow], r: &str) -> Result<Side, Error> {
    Ok(match r {
        "latest" => Side::Run(run_at(runs, 0, r)?.run_id.clone()),
        "previous" => Side::Run(run_at(runs, 1, r)?.run_id.clone()),
        "snapshot:latest" => Side::Snapshot(crate::snapshot::load(lake, "latest").await?.0),
        "snapshot:previous" => {
            let (latest, _) = crate::snapshot::load(lake, "latest").await?;
            let prev = runs
                .iter()
                .rev()
                .find(|x| x.snapshot_id != latest.as_str())
                .ok_or_else(|| AccessError::NoSuchRun {
                    id: r.to_string(),
                    known: "no finished run pinned another snapshot".into(),
                })?;
            Side::Snapshot(Hash256::try_from(prev.snapshot_id.clone()).map_err(|e| {
                crate::snapshot::SnapshotError::BadId {
                    what: "a run manifest's snapshot_id",
                    message: e.to_string(),
                }
            })?)
        }
        id if runs.iter().any(|x| x.run_id == id) => Side::Run(id.to_string()),
        id => match Hash256::try_from(id.to_string()) {
            Ok(h) => Side::Snapshot(crate::snapshot::load(lake, h.as_str()).await?.0),
            Err(_) => {
                return Err(AccessError::NoSuchRun {
                    id: id.to_string(),
                    known: runs
                        .iter()
                        .map(|x| x.run_id.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                }
                .into());
            }
        },
    })
}

/// The diff of two sides of the same kind, for one asset or all.
pub async fn diff(
    lake: &Lake,
    from: &Side,
    to: &Side,
    asset: Option<&str>,
) -> Result<Changes, Error> {
    let assets: Vec<String> = asset.into_iter().map(str::to_string).collect();
    match (from, to) {
        (Side::Run(a), Side::Run(b)) => Ok(Changes::Cells {
            from: a.clone(),
            to: b.clone(),
            rows: crate::run::changes::between(lake, a, b, &assets).await?,
        }),
        (Side::Snapshot(a), Side::Snapshot(b)) => {
            let (_, old) = crate::snapshot::load(lake, a.as_str()).await?;
            let (_, new) = crate::snapshot::load(lake, b.as_str()).await?;
            Ok(Changes::Records {
                from: a.clone(),
                to: b.clone(),
                rows: snapshot_changes(&old, &new, asset),
            })
        }
        _ => Err(AccessError::MixedDiff.into()),
    }
}

/// `family:record_key@hash` → ((family, record_key), hash).
fn split_source(id: &str) -> Option<((String, String), String)> {
    let (head, hash) = id.rsplit_once('@')?;
    let (family, key) = head.split_once(':')?;
    Some(((family.to_string(), key.to_string()), hash.to_string()))
}

/// Per asset and family: records added, removed or replaced by another version, and
/// status changes (a newly failed fetch as `fetch_failed`).
pub fn snapshot_changes(
    old: &SnapshotManifest,
    new: &SnapshotManifest,
    only: Option<&str>,
) -> Vec<SnapshotChangeRow> {
    let mut out = Vec::new();
    let assets: BTreeSet<&String> = old.assets.keys().chain(new.assets.keys()).collect();
    for asset in assets
        .into_iter()
        .filter(|a| only.is_none_or(|o| o == a.as_str()))
    {
        let members = |m: &SnapshotManifest| -> BTreeMap<(String, String), String> {
            m.assets
                .get(asset)
                .into_iter()
                .flat_map(|e| e.members.iter())
                .filter_map(|mem| split_source(&mem.source_id))
                .collect()
        };
        let (was, is) = (members(old), members(new));
        let keys: BTreeSet<&(String, String)> = was.keys().chain(is.keys()).collect();
        for k in keys {
            let (o, n) = (was.get(k), is.get(k));
            let change = match (o, n) {
                (None, Some(_)) => "record_added",
                (Some(_), None) => "record_removed",
                (Some(a), Some(b)) if a != b => "record_replaced",
                _ => continue,
            };
            out.push(SnapshotChangeRow {
                asset_id: asset.clone(),
                family: k.0.clone(),
                change: change.into(),
                record_key: Some(k.1.clone()),
                old: o.map(|h| format!("{}:{}@{h}", k.0, k.1)),
                new: n.map(|h| format!("{}:{}@{h}", k.0, k.1)),
                detail: None,
            });
        }
        let fams = |m: &SnapshotManifest| {
            m.assets
                .get(asset)
                .map(|e| e.families.clone())
                .unwrap_or_default()
        };
        let (fo, fnew) = (fams(old), fams(new));
        for (family, n) in &fnew {
            let o = fo.get(family);
            if o.is_some_and(|o| o.status == n.status) {
                continue;
            }
            let change = if n.status == FamilyStatus::FetchFailed {
                "fetch_failed"
            } else {
                "status_changed"
            };
            out.push(SnapshotChangeRow {
                asset_id: asset.clone(),
                family: family.to_string(),
                change: change.into(),
                record_key: None,
                old: o.map(|o| o.status.as_str().to_string()),
                new: Some(n.status.as_str().to_string()),
                detail: Some(n.detail.clone()).filter(|d| !d.is_empty()),
            });
        }
    }
    out
}

impl Changes {
    pub fn len(&self) -> usize {
        match self {
            Changes::Cells { rows, .. } => rows.len(),
            Changes::Records { rows, .. } => rows.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn batch(&self) -> Result<RecordBatch, Error> {
        Ok(match self {
            Changes::Cells { rows, .. } => CellChangeRow::to_batch(rows)?,
            Changes::Records { rows, .. } => SnapshotChangeRow::to_batch(rows)?,
        })
    }

    /// The Markdown digest: fetch failures first (a failed night is failures, not
    /// vanished values), then each asset's changes.
    pub fn markdown(&self) -> String {
        let esc = super::report::md_escape;
        let opt = |s: &Option<String>| s.as_deref().map(esc).unwrap_or_default();
        let mut out = String::new();
        match self {
            Changes::Cells { from, to, rows } => {
                let assets: BTreeSet<&str> = rows.iter().map(|r| r.asset_id.as_str()).collect();
                out.push_str(&format!(
                    "# Changes from run {from} to run {to}\n\n{} changed cells in {} assets.\n",
                    rows.len(),
                    assets.len()
                ));
                let failed: Vec<&CellChangeRow> =
                    rows.iter().filter(|r| r.change == "fetch_failed").collect();
                if !failed.is_empty() {
                    out.push_str("\n## Fetch failures\n\n");
                    let mut by: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
                    let mut cells: BTreeMap<&str, usize> = BTreeMap::new();
                    for r in &failed {
                        let fam = r.family.as_deref().unwrap_or("unknown family");
                        by.entry(fam).or_default().insert(&r.asset_id);
                        *cells.entry(fam).or_default() += 1;
                    }
                    for (fam, a) in by {
                        out.push_str(&format!(
                            "- {fam}: could not be fetched for {} ({}); {} cells are `fetch_failed`, their last values stay in run {from}\n",
                            a.iter().copied().collect::<Vec<_>>().join(", "),
                            if a.len() == 1 { "1 asset".to_string() } else { format!("{} assets", a.len()) },
                            cells[fam]
                        ));
                    }
                }
                for asset in assets {
                    // same value, newer record version: counted, not listed
                    let recited = rows
                        .iter()
                        .filter(|r| r.asset_id == asset && r.change == "recited")
                        .count();
                    let mine: Vec<&CellChangeRow> = rows
                        .iter()
                        .filter(|r| {
                            r.asset_id == asset
                                && r.change != "fetch_failed"
                                && r.change != "recited"
                        })
                        .collect();
                    if mine.is_empty() && recited == 0 {
                        continue;
                    }
                    out.push_str(&format!("\n## {}\n", esc(asset)));
                    if recited > 0 {
                        out.push_str(&format!(
                            "\n{recited} cells keep their value and now cite a newer version of their record.\n"
                        ));
                    }
                    if mine.is_empty() {
                        continue;
                    }
                    out.push_str(
                        "\n| field | endpoint | population | arm | change | was | now | source |\n|---|---|---|---|---|---|---|---|\n",
                    );
                    for r in mine {
                        let side =
                            |v: &Option<String>, u: &Option<String>, s: &Option<String>| match (
                                v, s,
                            ) {
                                (Some(v), _) => format!(
                                    "{}{}",
                                    esc(v),
                                    u.as_deref()
                                        .map(|u| format!(" {}", esc(u)))
                                        .unwrap_or_default()
                                ),
                                (None, Some(s)) => format!("*{}*", esc(s)),
                                (None, None) => String::new(),
                            };
                        out.push_str(&format!(
                            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                            esc(&r.field),
                            opt(&r.endpoint),
                            opt(&r.population),
                            opt(&r.arm),
                            r.change,
                            side(&r.old_value, &r.old_unit, &r.old_status),
                            side(&r.new_value, &r.new_unit, &r.new_status),
                            opt(&r.new_source_id.clone().or(r.old_source_id.clone())),
                        ));
                    }
                }
            }
            Changes::Records { from, to, rows } => {
                out.push_str(&format!(
                    "# Changes from snapshot {} to snapshot {}\n\n{} changes.\n",
                    &from.as_str()[..12],
                    &to.as_str()[..12],
                    rows.len()
                ));
                let mut failed: Vec<&SnapshotChangeRow> =
                    rows.iter().filter(|r| r.change == "fetch_failed").collect();
                failed.sort_by(|a, b| (&a.family, &a.asset_id).cmp(&(&b.family, &b.asset_id)));
                if !failed.is_empty() {
                    out.push_str("\n## Fetch failures\n\n");
                    for r in failed {
                        out.push_str(&format!(
                            "- {} / {}: {}\n",
                            r.family,
                            esc(&r.asset_id),
                            opt(&r.detail)
                        ));
                    }
                }
                let assets: BTreeSet<&str> = rows.iter().map(|r| r.asset_id.as_str()).collect();
                for asset in assets {
                    out.push_str(&format!("\n## {}\n\n| family | change | record | was | now |\n|---|---|---|---|---|\n", esc(asset)));
                    for r in rows
                        .iter()
                        .filter(|r| r.asset_id == asset && r.change != "fetch_failed")
                    {
                        out.push_str(&format!(
                            "| {} | {} | {} | {} | {} |\n",
                            r.family,
                            r.change,
                            opt(&r.record_key),
                            opt(&r.old),
                            opt(&r.new)
                        ));
                    }
                }
            }
        }
        out
    }
}
