//! Configuration from files and the environment, in one place: the only module of the
//! library that reads environment variables. Order: defaults < the file named on the
//! command line < the environment < flags (which the command line applies on top).
//!
//! | variable | what it sets |
//! |---|---|
//! | `DOSSIER_USER_AGENT` | the live fetchers' User-Agent (name and contact email) |
//! | `OPENFDA_API_KEY`, `NCBI_API_KEY`, `NCBI_EMAIL` | API keys and contact for live fetches |
//! | `DOSSIER_HISTORY` | the prompt's history file (default `~/.dossier_history`) |
//! | `DOSSIER_SQL_MEMORY_LIMIT` | the memory one SQL query may use (default 1G) |
//! | `DATAFUSION_*` | DataFusion session options of the precedence rules |
//! | `AWS_*`, `GOOGLE_*`, `SERVICE_ACCOUNT`, `AZURE_*`, `IDENTITY_ENDPOINT` | an `s3://`, `gs://` or `az://` lake's credentials and settings |
//!
//! The flags' own variables (`DOSSIER_LAKE`, `DOSSIER_LLM_*`, `DOSSIER_FAMILY_RANKS`) are
//! read by the command line with the flags; `DOSSIER_LOG` by the log filter.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::run::precedence::{Ranks, RulesError};
use crate::snapshot::fetch::LiveConfig;

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("reading {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}", path.display())]
    Parse {
        path: PathBuf,
        #[source]
        source: toml::de::Error,
    },
    #[error(transparent)]
    Ranks(#[from] RulesError),
    #[error("assumptions {}: {message}", path.display())]
    Assumptions { path: PathBuf, message: String },
    #[error("--entailment-tables {}: {message}", path.display())]
    EntailmentTables { path: PathBuf, message: String },
    #[error("DataFusion settings from the environment")]
    DataFusion(#[from] datafusion::error::DataFusionError),
    #[error("{var}={value:?}: use a size in bytes, or with K, M or G (e.g. 4G)")]
    BadSize { var: &'static str, value: String },
    #[error("{var}={value:?} is not a positive count")]
    BadCount { var: &'static str, value: String },
}

fn read(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_owned(),
        source,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LiveFile {
    live: LiveConfig,
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The live fetchers' settings: `[live]` of a TOML file (or the defaults), then
/// `DOSSIER_USER_AGENT`, `OPENFDA_API_KEY`, `NCBI_API_KEY` and `NCBI_EMAIL` where the
/// file leaves them unset (the user agent: where set at all).
pub fn live(path: Option<&Path>) -> Result<LiveConfig, ConfigError> {
    let mut c = match path {
        Some(p) => {
            toml::from_str::<LiveFile>(&read(p)?)
                .map_err(|source| ConfigError::Parse {
                    path: p.to_owned(),
                    source,
                })?
                .live
        }
        None => LiveConfig::default(),
    };
    if let Some(v) = var("DOSSIER_USER_AGENT") {
        c.user_agent = v;
    }
    c.openfda_api_key = c.openfda_api_key.or(var("OPENFDA_API_KEY"));
    c.ncbi_api_key = c.ncbi_api_key.or(var("NCBI_API_KEY"));
    c.ncbi_email = c.ncbi_email.or(var("NCBI_EMAIL"));
    Ok(c)
}

/// The family ranks of the precedence rules from a CSV file (`family,rank`), or the
/// shipped `jobs/family_rank.csv`.
pub fn ranks(path: Option<&Path>) -> Result<Ranks, ConfigError> {
    Ok(match path {
        Some(p) => Ranks::parse(&read(p)?, &p.display().to_string())?,
        None => Ranks::default_ranks(),
    })
}

/// Puts the entailment tables of a directory in force (each file there replaces the
/// shipped one of its name); without one the shipped tables stay.
pub fn entailment_tables(dir: Option<&Path>) -> Result<(), ConfigError> {
    use crate::run::gates::entailment::tables::Tables;
    if let Some(d) = dir {
        let t = Tables::load(d).map_err(|message| ConfigError::EntailmentTables {
            path: d.to_owned(),
            message,
        })?;
        Tables::install(t);
    }
    Ok(())
}

/// The valuation assumptions: the file given, else the shipped jobs/valuation.toml.
pub fn assumptions(
    path: Option<&Path>,
) -> Result<std::sync::Arc<crate::run::reason::valuation::Book>, ConfigError> {
    use crate::run::reason::valuation::Book;
    Ok(match path {
        Some(p) => std::sync::Arc::new(Book::parse(&read(p)?, &p.display().to_string()).map_err(
            |message| ConfigError::Assumptions {
                path: p.to_owned(),
                message,
            },
        )?),
        None => Book::shipped_arc(),
    })
}

/// Where the prompt keeps its history: `$DOSSIER_HISTORY`, else `~/.dossier_history`.
pub fn history_path() -> Option<PathBuf> {
    std::env::var_os("DOSSIER_HISTORY")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".dossier_history")))
}

/// The session config of the precedence rules: `DATAFUSION_*` variables where set.
/// Without `DATAFUSION_EXECUTION_TARGET_PARTITIONS`, 8 partitions (at least twice the
/// cores): the rules' window functions sort per partition, and on the 2-core bench
/// machine 1M candidates took 104 s with 1 partition, 7.8 s with 2 and 5.9 s with 8.
pub fn rules_session() -> Result<datafusion::prelude::SessionConfig, ConfigError> {
    let mut cfg = datafusion::prelude::SessionConfig::from_env()?;
    if std::env::var_os("DATAFUSION_EXECUTION_TARGET_PARTITIONS").is_none() {
        cfg = cfg.with_target_partitions((2 * cores()).max(8));
    }
    Ok(cfg)
}

/// The session config of `dossier sql` and the analyst services: `DATAFUSION_*`
/// variables where set, else these defaults, measured with `bench/analyst_queries.sh`
/// at 500 assets (one Parquet part per asset and table):
/// - 4 partitions at least: opening many small parts waits on I/O, and 4 readers
///   overlap it (q2 warm 113 → 72 ms on 2 cores);
/// - no statistics gathered while a statement is planned: the planner read and decoded
///   every part's footer, one after another on one thread, before the scan began (q3
///   first 126 → 104 ms, medians of nine). A filter on an asset or a run chooses its
///   parts by their directories instead (`access/parts.rs`);
/// - hash joins that do not repartition their inputs: without statistics the planner
///   cannot tell that the catalog side of a view's join is small, and hashed both sides
///   into partitions (q2 first 70 → 62 ms);
/// - no bloom filters, page indexes or row-group statistics on read: every part of
///   `profile_cells` or `conflicts` holds one asset's every section and resolution, so
///   none of them ever skips a part for the analysts' filters, and evaluating them cost
///   40, 14 and 45 ms of a 500-part scan (q3 first 279 → 232 ms, warm 190 → 126 ms).
pub fn sql_session() -> Result<datafusion::prelude::SessionConfig, ConfigError> {
    let mut cfg = datafusion::prelude::SessionConfig::from_env()?;
    let unset = |k: &str| std::env::var_os(k).is_none();
    if unset("DATAFUSION_EXECUTION_TARGET_PARTITIONS") {
        cfg = cfg.with_target_partitions((2 * cores()).max(4));
    }
    if unset("DATAFUSION_EXECUTION_COLLECT_STATISTICS") {
        cfg.options_mut().execution.collect_statistics = false;
    }
    if unset("DATAFUSION_OPTIMIZER_REPARTITION_JOINS") {
        cfg.options_mut().optimizer.repartition_joins = false;
    }
    let parquet = &mut cfg.options_mut().execution.parquet;
    if unset("DATAFUSION_EXECUTION_PARQUET_BLOOM_FILTER_ON_READ") {
        parquet.bloom_filter_on_read = false;
    }
    if unset("DATAFUSION_EXECUTION_PARQUET_ENABLE_PAGE_INDEX") {
        parquet.enable_page_index = false;
    }
    if unset("DATAFUSION_EXECUTION_PARQUET_PRUNING") {
        parquet.pruning = false;
    }
    Ok(cfg)
}

/// The object-store settings of a cloud lake from the environment, as each provider's
/// `from_env` reads them (`AWS_*`, `GOOGLE_*` and `SERVICE_ACCOUNT`, `AZURE_*` and
/// `IDENTITY_ENDPOINT`), as keys for `object_store::parse_url_opts`; a key a store does not
/// know is ignored by it.
pub fn object_store_options() -> Vec<(String, String)> {
    std::env::vars()
        .filter(|(k, _)| {
            ["AWS_", "GOOGLE_", "AZURE_"]
                .iter()
                .any(|p| k.starts_with(p))
                || k == "SERVICE_ACCOUNT"
                || k == "IDENTITY_ENDPOINT"
        })
        .collect()
}

/// The default memory of one SQL query: its operators (sorts, joins, aggregates) and
/// its collected result.
pub const SQL_MEMORY_DEFAULT: usize = 1 << 30;

/// `DOSSIER_SQL_MEMORY_LIMIT` (bytes, or a number with K, M or G: binary multiples),
/// else [`SQL_MEMORY_DEFAULT`].
pub fn sql_memory_limit() -> Result<usize, ConfigError> {
    const VAR: &str = "DOSSIER_SQL_MEMORY_LIMIT";
    let Some(v) = var(VAR) else {
        return Ok(SQL_MEMORY_DEFAULT);
    };
    let t = v.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 10),
        Some((i, 'm' | 'M')) => (&t[..i], 20),
        Some((i, 'g' | 'G')) => (&t[..i], 30),
        _ => (t, 0),
    };
    digits
        .trim()
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1usize << shift))
        .filter(|&n| n > 0)
        .ok_or(ConfigError::BadSize {
            var: VAR,
            value: v.clone(),
        })
}

/// The rules run once per chunk of a run's assets, a chunk closing once its accepted
/// claims and empty cells reach this many rows: the memory of a run holds one chunk.
pub const RULES_CHUNK_DEFAULT: usize = 5_000;

/// `DOSSIER_RULES_CHUNK_ROWS` (a positive count), else [`RULES_CHUNK_DEFAULT`]. The
/// chunks change neither the cells nor the conflicts, only memory and how often the rules
/// start.
pub fn rules_chunk_rows() -> Result<usize, ConfigError> {
    const VAR: &str = "DOSSIER_RULES_CHUNK_ROWS";
    let Some(v) = var(VAR) else {
        return Ok(RULES_CHUNK_DEFAULT);
    };
    v.trim()
        .parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or(ConfigError::BadCount { var: VAR, value: v })
}

/// The machine's cores (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sql_session_reads_many_small_parts_without_per_part_pruning() {
        let cfg = sql_session().unwrap();
        let o = cfg.options();
        let unset = |k: &str| std::env::var_os(k).is_none();
        if unset("DATAFUSION_EXECUTION_TARGET_PARTITIONS") {
            assert!(o.execution.target_partitions >= 4);
        }
        if unset("DATAFUSION_EXECUTION_PARQUET_PRUNING") {
            assert!(!o.execution.parquet.pruning);
        }
        if unset("DATAFUSION_EXECUTION_PARQUET_BLOOM_FILTER_ON_READ") {
            assert!(!o.execution.parquet.bloom_filter_on_read);
        }
        if unset("DATAFUSION_EXECUTION_PARQUET_ENABLE_PAGE_INDEX") {
            assert!(!o.execution.parquet.enable_page_index);
        }
        if unset("DATAFUSION_EXECUTION_COLLECT_STATISTICS") {
            assert!(!o.execution.collect_statistics);
        }
        if unset("DATAFUSION_OPTIMIZER_REPARTITION_JOINS") {
            assert!(!o.optimizer.repartition_joins);
        }
    }
}
