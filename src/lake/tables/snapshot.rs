//! The snapshot's tables: `catalog` (one row per source record, and one per failed
//! request of a live snapshot) and `asset_families` (one row per asset and family, with
//! its status). Written by the snapshot stage under `tables/<table>/snapshot_id=<id>/`.

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::error::ArrowError;

use super::{Table, table};
use crate::domain::{Hash256, sha256_hex};
use crate::lake::manifest::SnapshotManifest;

table! {
    /// One source record of a snapshot, or one request that failed.
    pub struct CatalogRow in "catalog", nullable = false {
        pub snapshot_id: String,
        pub source_id: String,
        pub family: String,
        pub record_key: String,
        pub url: String,
        pub retrieved_at: Option<String>,
        pub content_sha256: String,
        /// `ok`, or `fetch_failed` with the `error`.
        pub fetch_status: String,
        pub cutoff_date: Option<String>,
        pub title: Option<String>,
        pub error: Option<String>,
    }
}

table! {
    /// What one snapshot knows of one family for one asset.
    pub struct AssetFamilyRow in "asset_families", nullable = false {
        pub snapshot_id: String,
        pub asset_id: String,
        pub family: String,
        pub status: String,
        pub records: u64,
        pub detail: String,
        pub bundle_sha256: String,
    }
}

/// The `catalog` batch of a snapshot: every record, then one row per failed request
/// (live snapshots), so the catalog says what the snapshot could not fetch and why.
pub fn catalog(id: &Hash256, m: &SnapshotManifest) -> Result<RecordBatch, ArrowError> {
    let mut rows: Vec<CatalogRow> = m
        .sources
        .iter()
        .map(|e| CatalogRow {
            snapshot_id: id.to_string(),
            source_id: e.source_id.clone(),
            family: e.family.to_string(),
            record_key: e.record_key.clone(),
            url: e.url.clone(),
            retrieved_at: e.retrieved_at.clone(),
            content_sha256: e.content_sha256.clone(),
            fetch_status: e.fetch_status.clone(),
            cutoff_date: e.cutoff_date.clone(),
            title: e.title.clone(),
            error: e.error.clone(),
        })
        .collect();
    // one row per asset and failed URL: a URL that several assets needed names each of
    // them (the record key is the asset, as the record itself was never had)
    let mut seen = std::collections::BTreeSet::new();
    for f in &m.fetch_failures {
        let source_id = format!(
            "{}:fetch-failed@{}:{}",
            f.family,
            &sha256_hex(f.url.as_bytes())[..16],
            f.asset
        );
        if !seen.insert(source_id.clone()) {
            continue;
        }
        rows.push(CatalogRow {
            snapshot_id: id.to_string(),
            source_id,
            family: f.family.to_string(),
            record_key: f.asset.clone(),
            url: f.url.clone(),
            fetch_status: "fetch_failed".into(),
            error: Some(f.error.clone()),
            ..CatalogRow::default()
        });
    }
    CatalogRow::to_batch(&rows)
}

/// The `asset_families` batch of a snapshot.
pub fn asset_families(id: &Hash256, m: &SnapshotManifest) -> Result<RecordBatch, ArrowError> {
    let rows: Vec<AssetFamilyRow> = m
        .assets
        .iter()
        .flat_map(|(asset, e)| {
            e.families.iter().map(move |(family, o)| AssetFamilyRow {
                snapshot_id: id.to_string(),
                asset_id: asset.clone(),
                family: family.to_string(),
                status: o.status.as_str().to_string(),
                records: o.records as u64,
                detail: o.detail.clone(),
                bundle_sha256: e.bundle.to_string(),
            })
        })
        .collect();
    AssetFamilyRow::to_batch(&rows)
}
