//! The runs a lake holds: each run id with its manifests merged (a sharded run writes one
//! per shard), oldest first by finish time. The `runs` table, `--run` pins, `latest` and
//! `previous`, and a run's baseline for `cell_changes` all read this one list.

use crate::Error;
use crate::lake::Lake;
use crate::run::{RunError, RunManifest};

/// One row of the `runs` table: a run id with its manifests merged (a sharded run has
/// one manifest per shard).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRow {
    pub run_id: String,
    pub snapshot_id: String,
    pub reasoner: String,
    pub model: Option<String>,
    pub started_at: String,
    pub finished_at: String,
    pub assets: u64,
    pub manifests: u64,
}

/// Every run of the lake that wrote a manifest, oldest first by finish time.
pub async fn runs(lake: &Lake) -> Result<Vec<RunRow>, Error> {
    let (ids, _) = lake.list_level("runs/").await?;
    let mut rows = Vec::new();
    for id in ids {
        let (_, files) = lake.list_level(&format!("runs/{id}/")).await?;
        let mut row: Option<RunRow> = None;
        for file in files.iter().filter(|f| {
            f.as_str() == "manifest.json"
                || (f.starts_with("manifest-shard-") && f.ends_with(".json"))
        }) {
            let key = format!("runs/{id}/{file}");
            let m: RunManifest =
                serde_json::from_slice(&lake.get(&key).await?).map_err(|source| {
                    RunError::Manifest {
                        key: key.clone(),
                        source,
                    }
                })?;
            match row.as_mut() {
                None => {
                    row = Some(RunRow {
                        run_id: m.run_id,
                        snapshot_id: m.snapshot_id,
                        reasoner: m.reasoner,
                        model: m.model,
                        started_at: m.started_at,
                        finished_at: m.finished_at,
                        assets: m.assets.len() as u64,
                        manifests: 1,
                    })
                }
                Some(r) => {
                    r.started_at = r.started_at.clone().min(m.started_at);
                    r.finished_at = r.finished_at.clone().max(m.finished_at);
                    r.assets += m.assets.len() as u64;
                    r.manifests += 1;
                }
            }
        }
        rows.extend(row);
    }
    rows.sort_by(|a, b| (&a.finished_at, &a.run_id).cmp(&(&b.finished_at, &b.run_id)));
    Ok(rows)
}
