//! `dossier sql`: registers the lake's tables with DataFusion and renders results.
//! Every directory under `tables/` is a Parquet table (hive-style partitions); the
//! bundles of one snapshot (default `latest`) are read through the verifying lake and
//! exposed as `records` (one row per asset and member record), `text_fields` (one row
//! per text leaf, what the quote gate searches) and `sources` (every record of the
//! snapshot once, in full, from its sources object).

use std::collections::BTreeSet;
use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{Field, Schema};
use datafusion::datasource::MemTable;
use datafusion::prelude::{ParquetReadOptions, SessionContext};

use crate::Error;
use crate::bundle;
use crate::lake::Lake;
use crate::snapshot;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Table,
    Csv,
    Json,
}

/// Builds a session over the lake. Bundles are loaded only when `with_bundles`.
pub async fn context(
    lake: &Lake,
    snapshot_ref: &str,
    with_bundles: bool,
) -> Result<SessionContext, Error> {
    let ctx = SessionContext::new();
    ctx.register_object_store(lake.store_url(), lake.store());
    let mut names = BTreeSet::new();
    for key in lake.list("tables/").await? {
        if let Some(name) = key
            .strip_prefix("tables/")
            .and_then(|k| k.split('/').next())
            && key.ends_with(".parquet")
        {
            names.insert(name.to_string());
        }
    }
    for name in &names {
        let url = lake.table_url(&format!("tables/{name}"));
        ctx.register_parquet(name.as_str(), &url, ParquetReadOptions::default())
            .await?;
    }
    if with_bundles {
        register_bundles(&ctx, lake, snapshot_ref).await?;
    }
    Ok(ctx)
}

async fn register_bundles(
    ctx: &SessionContext,
    lake: &Lake,
    snapshot_ref: &str,
) -> Result<(), Error> {
    let (id, manifest) = snapshot::load(lake, snapshot_ref).await?;
    let mut batches = Vec::new();
    for (asset, entry) in &manifest.assets {
        batches
            .extend(snapshot::read_bundle(lake, &entry.bundle, &format!("asset {asset}")).await?);
    }
    let fields = bundle::text_field_rows(&bundle::rows(&batches))?;
    let records: Vec<RecordBatch> = batches
        .iter()
        .map(|b| with_snapshot_column(&id.to_string(), b, &["fields"]))
        .collect::<Result<_, _>>()?;
    let records_schema = match records.first() {
        Some(b) => b.schema(),
        None => with_snapshot_column(
            &id.to_string(),
            &RecordBatch::new_empty(bundle::schema()),
            &["fields"],
        )?
        .schema(),
    };
    ctx.register_table(
        "records",
        Arc::new(MemTable::try_new(records_schema, vec![records])?),
    )?;
    let fields = with_snapshot_column(&id.to_string(), &fields, &[])?;
    ctx.register_table(
        "text_fields",
        Arc::new(MemTable::try_new(fields.schema(), vec![vec![fields]])?),
    )?;
    let sources: Vec<RecordBatch> =
        snapshot::read_bundle(lake, &manifest.sources_bundle, "sources")
            .await?
            .iter()
            .map(|b| with_snapshot_column(&id.to_string(), b, &["fields", "asset_id", "role"]))
            .collect::<Result<_, _>>()?;
    if let Some(first) = sources.first() {
        ctx.register_table(
            "sources",
            Arc::new(MemTable::try_new(first.schema(), vec![sources])?),
        )?;
    }
    Ok(())
}

/// Prepends a constant `snapshot_id` column and drops the named columns.
fn with_snapshot_column(id: &str, b: &RecordBatch, drop: &[&str]) -> Result<RecordBatch, Error> {
    let mut fields = vec![Field::new(
        "snapshot_id",
        datafusion::arrow::datatypes::DataType::Utf8,
        false,
    )];
    let mut cols: Vec<ArrayRef> = vec![Arc::new(StringArray::from(vec![id; b.num_rows()]))];
    for (f, c) in b.schema().fields().iter().zip(b.columns()) {
        if !drop.contains(&f.name().as_str()) {
            fields.push(f.as_ref().clone());
            cols.push(c.clone());
        }
    }
    Ok(RecordBatch::try_new(Arc::new(Schema::new(fields)), cols)?)
}

/// Whether a query mentions the bundle tables (loading bundles costs a full read).
pub fn needs_bundles(query: &str) -> bool {
    let q = query.to_ascii_lowercase();
    q.contains("records") || q.contains("text_fields") || q.contains("sources")
}

pub async fn run(ctx: &SessionContext, query: &str) -> Result<Vec<RecordBatch>, Error> {
    Ok(ctx.sql(query).await?.collect().await?)
}

pub fn render(batches: &[RecordBatch], format: Format) -> Result<String, Error> {
    match format {
        Format::Table => {
            Ok(datafusion::arrow::util::pretty::pretty_format_batches(batches)?.to_string())
        }
        Format::Csv => {
            let mut out = Vec::new();
            {
                let mut w = datafusion::arrow::csv::WriterBuilder::new()
                    .with_header(true)
                    .build(&mut out);
                for b in batches {
                    w.write(b)?;
                }
            }
            Ok(String::from_utf8_lossy(&out).into_owned())
        }
        Format::Json => {
            let mut out = Vec::new();
            {
                let mut w = datafusion::arrow::json::LineDelimitedWriter::new(&mut out);
                for b in batches {
                    w.write(b)?;
                }
                w.finish()?;
            }
            Ok(String::from_utf8_lossy(&out).into_owned())
        }
    }
}
