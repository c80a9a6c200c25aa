//! Configuration from files and the environment, in one place: the only module of the
//! library that reads environment variables. Order: defaults < the file named on the
//! command line < the environment < flags (which the command line applies on top).
//!
//! | variable | what it sets |
//! |---|---|
//! | `DOSSIER_USER_AGENT` | the live fetchers' User-Agent (name and contact email) |
//! | `OPENFDA_API_KEY`, `NCBI_API_KEY`, `NCBI_EMAIL` | API keys and contact for live fetches |
//! | `DOSSIER_HISTORY` | the prompt's history file (default `~/.dossier_history`) |
//! | `DATAFUSION_*` | DataFusion session options of the precedence rules |
//!
//! The flags' own variables (`DOSSIER_LAKE`, `DOSSIER_LLM_*`, `DOSSIER_FAMILY_RANKS`) are
//! read by the command line with the flags; `DOSSIER_LOG` by the log filter.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::Error;
use crate::run::precedence::Ranks;
use crate::snapshot::fetch::LiveConfig;

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
pub fn live(path: Option<&Path>) -> Result<LiveConfig, Error> {
    let mut c = match path {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| Error::Invalid(format!("reading {}: {e}", p.display())))?;
            toml::from_str::<LiveFile>(&text)
                .map_err(|e| Error::Invalid(format!("{}: {e}", p.display())))?
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
pub fn ranks(path: Option<&Path>) -> Result<Ranks, Error> {
    match path {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| Error::Invalid(format!("reading {}: {e}", p.display())))?;
            Ranks::parse(&text, &p.display().to_string())
        }
        None => Ok(Ranks::default_ranks()),
    }
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
pub fn rules_session() -> Result<datafusion::prelude::SessionConfig, Error> {
    let mut cfg = datafusion::prelude::SessionConfig::from_env()?;
    if std::env::var_os("DATAFUSION_EXECUTION_TARGET_PARTITIONS").is_none() {
        cfg = cfg.with_target_partitions((2 * cores()).max(8));
    }
    Ok(cfg)
}

/// The machine's cores (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
