//! Analyst access to the lake: a DataFusion session over the tables and views (`sql`),
//! the interactive prompt (`shell`), the read-only Arrow Flight SQL server (`flight`)
//! and the HTML/Markdown pages of a run (`report`). Nothing here writes to the lake.

use std::path::PathBuf;

mod bounded;
pub mod comparison;
pub mod diff;
pub mod flight;
mod parts;
mod prefix_cache;
pub mod present;
pub mod report;
pub mod shell;
pub mod sql;

#[derive(Debug, thiserror::Error)]
pub enum AccessError {
    #[error("dossier diff compares two runs or two snapshots, not a run with a snapshot")]
    MixedDiff,
    #[error("run {id} has no manifest in the lake (runs: {known})")]
    NoSuchRun { id: String, known: String },
    #[error(
        "the result is larger than the query memory limit ({:.1} MiB; set DOSSIER_SQL_MEMORY_LIMIT, e.g. 8G)",
        *limit as f64 / 1048576.0
    )]
    ResultTooLarge { limit: usize },
    /// A statement too deep or too large to plan in reasonable time.
    #[error("statement too large: {0} (split it, or build it from views)")]
    TooLarge(String),
    /// An analyst's statement that would write, or read files outside the lake.
    #[error("dossier sql is read-only over the lake: {0}")]
    ReadOnly(String),
    #[error("{}: inside the lake; export results to a file outside it", path.display())]
    ExportIntoLake { path: PathBuf },
    #[error("no table or view named {0}")]
    NoSuchTable(String),
    /// A statement naming a table the session does not have, with what it has.
    #[error("no table or view named {name} (this session has: {known})")]
    UnknownTable { name: String, known: String },
    /// An analyst view named on a lake with no finished run.
    #[error(
        "the view {name} shows a run, and the lake has no finished run: run `dossier run` first"
    )]
    NoRunForView { name: String },
    #[error("asset {asset} has no cells in run {run}; its assets are {known}")]
    NoCells {
        asset: String,
        run: String,
        known: String,
    },
    #[error("writing {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("terminal")]
    Terminal(#[from] rustyline::error::ReadlineError),
    #[error("binding {addr}")]
    Bind {
        addr: std::net::SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("serving on {addr}")]
    Serve {
        addr: std::net::SocketAddr,
        #[source]
        source: tonic::transport::Error,
    },
    #[error("opening the session: {0}")]
    Session(String),
}
