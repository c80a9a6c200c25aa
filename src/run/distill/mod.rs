//! `dossier distill`: for each asset of a snapshot, spans of its bundle, a BM25 index,
//! and the best spans for a query under a token budget. Reads bundles through the
//! verifying lake; the index and query are timed apart from I/O for benchmarks.

pub mod bm25;
pub mod spans;

use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::Error;
use crate::lake::Lake;
use crate::lake::bundle;
use crate::run::distill::bm25::Bm25;
use crate::run::distill::spans::Span;

/// One selected passage, as printed.
#[derive(Debug, Serialize)]
pub struct Distilled {
    pub asset: String,
    pub span_id: String,
    pub source_id: String,
    pub url: String,
    pub locator: String,
    pub start: usize,
    pub end: usize,
    pub score: f64,
    pub tokens: usize,
    pub text: String,
}

/// Per-asset figures for the summary.
#[derive(Debug, Default, Serialize)]
pub struct AssetStats {
    pub asset: String,
    pub spans: usize,
    /// Building the index and ranking every span for the query (token counting and
    /// budget selection come after and are not included).
    pub index_query_us: u128,
    pub tokens_full: usize,
    pub tokens_distilled: usize,
}

/// Distills one asset's bundle (its competitor rows made whole from the snapshot's
/// `competitors`); `dump` receives all its spans (for comparisons).
pub fn distill_bundle(
    asset: &str,
    batches: &[datafusion::arrow::array::RecordBatch],
    competitors: &bundle::Competitors,
    query: &str,
    budget: usize,
    dump: Option<&Path>,
) -> Result<(Vec<Distilled>, AssetStats), Error> {
    let rows = bundle::rows_with(batches, competitors)?;
    let all: Vec<Span> = rows
        .iter()
        .flat_map(|r| spans::spans_of(&r.source_id, &r.url, &r.fields))
        .collect();
    let t = Instant::now();
    let index = Bm25::build(all.iter().map(|s| s.text.as_str()));
    let built_us = t.elapsed().as_micros();
    let ranked = index.search(query);
    let index_query_us = t.elapsed().as_micros();
    tracing::debug!(
        asset,
        spans = all.len(),
        text_bytes = all.iter().map(|s| s.text.len()).sum::<usize>(),
        built_us,
        index_query_us,
        "distill"
    );
    let picks = bm25::distill(&ranked, &all, budget);
    let full: String = rows
        .iter()
        .flat_map(|r| r.fields.iter().map(|x| x.2.as_str()))
        .collect::<Vec<_>>()
        .join("\n");
    if let Some(dir) = dump {
        let mut text = String::new();
        for s in &all {
            let line = serde_json::json!({"span_id": s.id, "source_url": s.url, "text": s.text});
            text.push_str(&line.to_string());
            text.push('\n');
        }
        let path = dir.join(format!("{asset}.jsonl"));
        std::fs::write(&path, text).map_err(|source| crate::run::RunError::Write {
            path: path.clone(),
            source,
        })?;
    }
    let out: Vec<Distilled> = picks
        .iter()
        .map(|p| {
            let s = &all[p.span];
            Distilled {
                asset: asset.to_string(),
                span_id: s.id.clone(),
                source_id: s.source_id.clone(),
                url: s.url.clone(),
                locator: s.locator.clone(),
                start: s.start,
                end: s.end,
                score: p.score,
                tokens: p.tokens,
                text: s.text.clone(),
            }
        })
        .collect();
    let stats = AssetStats {
        asset: asset.to_string(),
        spans: all.len(),
        index_query_us,
        tokens_full: bm25::count_tokens(&full),
        tokens_distilled: picks.iter().map(|p| p.tokens).sum(),
    };
    Ok((out, stats))
}

/// Distills the named assets (all when empty) of a snapshot.
pub async fn run(
    lake: &Lake,
    snapshot_ref: &str,
    assets: &[String],
    query: &str,
    budget: usize,
    dump: Option<&Path>,
) -> Result<Vec<(Vec<Distilled>, AssetStats)>, Error> {
    let (_, manifest) = crate::snapshot::load(lake, snapshot_ref).await?;
    if let Some(a) = assets.iter().find(|a| !manifest.assets.contains_key(*a)) {
        return Err(crate::run::RunError::unknown_asset(a, manifest.assets.keys()).into());
    }
    // Every bundle is read and distilled in turn on one thread (reads go through the
    // runtime): an index leaves its storage to the next one built on its thread
    // (`bm25::Bm25`), and with a task per bundle the blocking pool spread the real
    // corpus's seventeen bundles over four threads, each starting cold. That thread is
    // one of rayon's, which a large index shares out in runs to the pool's other threads
    // without waiting for them to wake.
    let competitors = crate::snapshot::competitors(lake, &manifest).await?;
    let (lake, runtime) = (lake.clone(), tokio::runtime::Handle::current());
    let (assets, query) = (assets.to_vec(), query.to_string());
    let dump = dump.map(Path::to_path_buf);
    crate::blocking(move || {
        rayon::scope(|_| {
            let mut out = Vec::new();
            for (asset, entry) in &manifest.assets {
                if !assets.is_empty() && !assets.contains(asset) {
                    continue;
                }
                let label = format!("asset {asset}");
                let batches =
                    runtime.block_on(crate::snapshot::read_bundle(&lake, &entry.bundle, &label))?;
                out.push(distill_bundle(
                    asset,
                    &batches,
                    &competitors,
                    &query,
                    budget,
                    dump.as_deref(),
                )?);
            }
            Ok(out)
        })
    })
    .await
}
