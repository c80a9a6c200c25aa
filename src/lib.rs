//! dossier: drug-asset profiles an analyst can trust cell by cell.
//!
//! Layer 1 (`import`, `resolve`, `bundle`, `manifest`, `snapshot`) freezes source
//! records into content-addressed Parquet bundles in a `lake`; the `sql` module reads
//! the lake's tables with DataFusion. Layer 2 (`reason`, `gates`, `profile`, `run`)
//! turns one pinned snapshot into gated claims and profile cells. See README.md, "Architecture".

pub mod bm25;
pub mod bundle;
pub mod claims;
pub mod demo;
pub mod distill;
pub mod error;
pub mod evidence;
pub mod fetch;
pub mod gates;
pub mod import;
pub mod lake;
pub mod manifest;
pub mod model;
pub mod portfolio;
pub mod precedence;
pub mod profile;
pub mod reason;
pub mod replay;
pub mod report;
pub mod resolve;
pub mod run;
pub mod serve;
pub mod shell;
pub mod snapshot;
pub mod spans;
pub mod sql;
pub mod tables;
pub mod text;
pub mod verify;

pub use error::Error;

/// Runs CPU-heavy work (parsing, hashing, Parquet encoding) on the blocking pool.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Error::Internal(format!("blocking task failed: {e}")))?
}
