//! dossier: drug-asset profiles an analyst can trust cell by cell.
//!
//! Layer 1 (`import`, `resolve`, `bundle`, `manifest`, `snapshot`) freezes source
//! records into content-addressed Parquet bundles in a `lake`; the `sql` module reads
//! the lake's tables with DataFusion. Layer 2 (`reason`, `gates`, `profile`, `run`)
//! turns one pinned snapshot into gated claims and profile cells. See README.md, "Architecture".

pub mod access;
pub mod config;
pub mod demo;
pub mod domain;
pub mod error;
pub mod http;
pub mod lake;
pub mod run;
pub mod snapshot;

pub use error::Error;

/// Runs CPU-heavy work (parsing, hashing, Parquet encoding) on the blocking pool.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Error::Internal(format!("blocking task failed: {e}")))?
}
