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
    /// Shown by its innermost message only: DataFusion's wrappers repeat it.
    #[error("query failed: {}", sql_message(.0))]
    Sql(datafusion::error::DataFusionError),
    #[error("internal error (a bug): {0}")]
    Internal(String),
}

impl From<datafusion::error::DataFusionError> for Error {
    fn from(e: datafusion::error::DataFusionError) -> Self {
        Error::Sql(e)
    }
}

/// The message of a DataFusion error's innermost cause, once, on one line.
pub fn sql_message(e: &datafusion::error::DataFusionError) -> String {
    use datafusion::error::DataFusionError as E;
    let text = match e.find_root() {
        E::SQL(p, _) => p.to_string(),
        E::SchemaError(s, _) => s.to_string(),
        E::External(x) => chain(x.as_ref()),
        root => root.to_string(),
    };
    text.replace("\\n", " ").replace('\n', " ")
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
        // wrappers that repeat their source's message (DataFusion's do) add nothing
        let text = s.to_string();
        if !out.contains(text.as_str()) {
            out.push_str(": ");
            out.push_str(&text);
        }
        cur = s.source();
    }
    out
}

/// Up to `max` names joined with ", " (then "and N more"), or "none".
pub fn listing<'a>(names: impl Iterator<Item = &'a String>, max: usize) -> String {
    let all: Vec<&String> = names.collect();
    if all.is_empty() {
        return "none".into();
    }
    let shown: Vec<&str> = all.iter().take(max).map(|s| s.as_str()).collect();
    let mut out = shown.join(", ");
    if all.len() > max {
        out.push_str(&format!(" and {} more", all.len() - max));
    }
    out
}
