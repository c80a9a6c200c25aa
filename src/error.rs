//! The crate-level error: the kinds callers branch on, with module errors inside.

use crate::domain::PortfolioError;
use crate::lake::LakeError;
use crate::lake::bundle::BundleError;
use crate::snapshot::import::ImportError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Portfolio(#[from] PortfolioError),
    #[error(transparent)]
    Import(#[from] ImportError),
    #[error(transparent)]
    Lake(#[from] LakeError),
    #[error(transparent)]
    Bundle(#[from] BundleError),
    #[error(transparent)]
    Http(#[from] crate::http::HttpError),
    /// The LLM endpoint gave no usable answer (the cause says which URL and why).
    #[error("LLM endpoint")]
    Llm(#[source] crate::http::HttpError),
    #[error(transparent)]
    Table(#[from] crate::lake::tables::TableError),
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error(transparent)]
    Rules(#[from] crate::run::precedence::RulesError),
    #[error(transparent)]
    Demo(#[from] crate::demo::DemoError),
    #[error(transparent)]
    Run(#[from] crate::run::RunError),
    #[error(transparent)]
    Snapshot(#[from] crate::snapshot::SnapshotError),
    #[error(transparent)]
    Live(#[from] crate::snapshot::fetch::LiveError),
    #[error(transparent)]
    Access(#[from] crate::access::AccessError),
    #[error("building a table")]
    Arrow(#[from] datafusion::arrow::error::ArrowError),
    #[error("encoding Parquet")]
    Parquet(#[from] datafusion::parquet::errors::ParquetError),
    #[error("query failed")]
    Sql(#[from] datafusion::error::DataFusionError),
    #[error("internal error (a bug): {0}")]
    Internal(String),
}

impl Error {
    /// Whether the error is a corrupt object (tampered or truncated).
    pub fn is_corrupt(&self) -> bool {
        matches!(self, Error::Lake(LakeError::Corrupt { .. }))
    }
}

/// An error with its causes, `outer: inner: innermost` (as `anyhow`'s `{:#}` prints).
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(s) = cur {
        out.push_str(": ");
        out.push_str(&s.to_string());
        cur = s.source();
    }
    out
}
