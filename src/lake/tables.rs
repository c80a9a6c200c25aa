//! Snapshot-level result tables as Arrow batches: `catalog` (one row per source
//! record) and `asset_families` (one row per asset and family, with its status).
//! Written by the snapshot stage under `tables/<table>/snapshot_id=<id>/`. Pure.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, RecordBatch, StringArray, UInt64Array};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::arrow::error::ArrowError;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::errors::ParquetError;
use datafusion::parquet::file::properties::WriterProperties;

use crate::lake::manifest::SnapshotManifest;
use crate::domain::model::Hash256;

pub(crate) fn strings(v: Vec<Option<String>>) -> ArrayRef {
    Arc::new(StringArray::from(v))
}

fn batch(cols: Vec<(&str, ArrayRef)>) -> Result<RecordBatch, ArrowError> {
    let fields: Vec<Field> = cols
        .iter()
        .map(|(n, a)| {
            Field::new(
                *n,
                a.data_type().clone(),
                a.null_count() > 0 || *a.data_type() == DataType::Null,
            )
        })
        .collect();
    RecordBatch::try_new(
        Arc::new(Schema::new(fields)),
        cols.into_iter().map(|(_, a)| a).collect(),
    )
}

/// `catalog`: snapshot_id, source_id, family, record_key, url, retrieved_at,
/// content_sha256, fetch_status, cutoff_date, title, error.
pub fn catalog(id: &Hash256, m: &SnapshotManifest) -> Result<RecordBatch, ArrowError> {
    // every record, then one row per failed request (live snapshots), so the catalog says
    // what the snapshot could not fetch and why
    let mut failed: Vec<crate::lake::manifest::CatalogEntry> = Vec::new();
    for f in &m.fetch_failures {
        let source_id = format!(
            "{}:fetch-failed@{}",
            f.family,
            &crate::domain::model::sha256_hex(f.url.as_bytes())[..16]
        );
        if failed.iter().any(|e| e.source_id == source_id) {
            continue;
        }
        failed.push(crate::lake::manifest::CatalogEntry {
            source_id,
            family: f.family,
            record_key: f.asset.clone(),
            url: f.url.clone(),
            retrieved_at: None,
            content_sha256: String::new(),
            cutoff_date: None,
            title: None,
            fetch_status: "fetch_failed".into(),
            error: Some(f.error.clone()),
        });
    }
    let s: Vec<&crate::lake::manifest::CatalogEntry> = m.sources.iter().chain(&failed).collect();
    let col = |f: &dyn Fn(&crate::lake::manifest::CatalogEntry) -> Option<String>| {
        strings(s.iter().map(|e| f(e)).collect())
    };
    batch(vec![
        ("snapshot_id", col(&|_| Some(id.to_string()))),
        ("source_id", col(&|e| Some(e.source_id.clone()))),
        ("family", col(&|e| Some(e.family.to_string()))),
        ("record_key", col(&|e| Some(e.record_key.clone()))),
        ("url", col(&|e| Some(e.url.clone()))),
        ("retrieved_at", col(&|e| e.retrieved_at.clone())),
        ("content_sha256", col(&|e| Some(e.content_sha256.clone()))),
        ("fetch_status", col(&|e| Some(e.fetch_status.clone()))),
        ("cutoff_date", col(&|e| e.cutoff_date.clone())),
        ("title", col(&|e| e.title.clone())),
        ("error", col(&|e| e.error.clone())),
    ])
}

/// One (asset, family) pair with its bundle and outcome.
type Row<'a> = (
    &'a String,
    &'a crate::lake::manifest::AssetEntry,
    crate::domain::model::Family,
    &'a crate::snapshot::resolve::FamilyOutcome,
);

/// `asset_families`: snapshot_id, asset_id, family, status, records, detail, bundle_sha256.
pub fn asset_families(id: &Hash256, m: &SnapshotManifest) -> Result<RecordBatch, ArrowError> {
    let rows: Vec<Row<'_>> = m
        .assets
        .iter()
        .flat_map(|(a, e)| e.families.iter().map(move |(f, o)| (a, e, *f, o)))
        .collect();
    let col = |f: &dyn Fn(&Row<'_>) -> Option<String>| strings(rows.iter().map(f).collect());
    batch(vec![
        ("snapshot_id", col(&|_| Some(id.to_string()))),
        ("asset_id", col(&|r| Some(r.0.clone()))),
        ("family", col(&|r| Some(r.2.to_string()))),
        ("status", col(&|r| Some(r.3.status.as_str().to_string()))),
        (
            "records",
            Arc::new(UInt64Array::from_iter_values(
                rows.iter().map(|r| r.3.records as u64),
            )),
        ),
        ("detail", col(&|r| Some(r.3.detail.clone()))),
        ("bundle_sha256", col(&|r| Some(r.1.bundle.to_string()))),
    ])
}

/// Deterministic Parquet bytes of one batch.
pub fn to_parquet(batch: &RecordBatch) -> Result<Vec<u8>, ParquetError> {
    let props = WriterProperties::builder()
        .set_created_by("dossier table v1".to_string())
        .build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, batch.schema(), Some(props))?;
    w.write(batch)?;
    w.close()?;
    Ok(out)
}
