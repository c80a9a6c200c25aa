//! The command line as clap sees it: one `Cli`, one variant per command. Nothing here
//! runs anything; `plan` turns these into a validated plan.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use strum::VariantNames;

use dossier::access::report;
use dossier::access::sql::Format;
use dossier::run::Reasoner;

/// A value parser for a library enum: its names (strum's) as the possible values.
fn choice<T>() -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr + VariantNames + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(T::VARIANTS).map(|s| match s.parse::<T>() {
        Ok(v) => v,
        Err(_) => unreachable!("clap passes only the listed names"),
    })
}

#[derive(Parser)]
#[command(
    name = "dossier",
    version,
    about = "Drug-asset profiles an analyst can trust cell by cell"
)]
pub struct Cli {
    /// The lake: a directory, file://, memory://, s3://, gs:// or az:// URL [default:
    /// ./lake, and ./demo-lake for `demo`].
    #[arg(long, global = true, env = "DOSSIER_LAKE")]
    pub lake: Option<String>,
    /// No summary on stderr.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Layer 1: freeze source records into bundles and a snapshot manifest; prints the id.
    Snapshot {
        #[arg(long)]
        portfolio: PathBuf,
        /// Import raw files laid out as DIR/<family>/...
        #[arg(long, conflicts_with = "live", required_unless_present = "live")]
        import: Option<PathBuf>,
        /// Fetch from the public APIs (politely; conditional requests against the lake's
        /// fetch cache).
        #[arg(long)]
        live: bool,
        /// `[live]` settings: user agent, API keys, base URLs, limits, retries.
        #[arg(long, requires = "live")]
        live_config: Option<PathBuf>,
        /// Also write every response fetched as an import directory (what --import reads).
        #[arg(long, requires = "live")]
        save_responses: Option<PathBuf>,
    },
    /// SQL over the lake's tables. With no query: an interactive prompt on a terminal,
    /// else the statements on stdin.
    Sql {
        /// One or more statements separated by `;`.
        query: Option<String>,
        #[arg(long, default_value = "table", value_parser = choice::<Format>())]
        format: Format,
        /// Which snapshot's bundles back `records` and `text_fields`: an id or `latest`.
        #[arg(long, default_value = "latest")]
        snapshot: String,
        /// The run the views (profile, profile_conflicts, efficacy, status_counts) show;
        /// the latest finished run by default.
        #[arg(long)]
        run: Option<String>,
        /// Print the session setup time and each statement's time and rows on stderr.
        #[arg(long)]
        timing: bool,
        /// Write the results to FILE instead of stdout (never a path inside the lake).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Allow `CREATE EXTERNAL TABLE` over files outside the lake (the session is
        /// read-only over the lake either way: no INSERT, UPDATE, DELETE or COPY).
        #[arg(long)]
        read_files: bool,
    },
    /// The analyst's view of a run: one asset's page, or with no --asset the run's index
    /// (and with --out DIR, the index and every asset's page as files).
    Report {
        /// A run id, or `latest` (the latest finished run).
        #[arg(long, default_value = "latest")]
        run: String,
        #[arg(long)]
        asset: Option<String>,
        #[arg(long, default_value = "html", value_parser = choice::<report::Format>())]
        format: report::Format,
        /// A file for one asset's page; a directory for a whole run (index + pages).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// A read-only Arrow Flight SQL server over the lake's tables and views.
    Serve {
        /// The address to listen on; port 0 picks a free port. Prints `grpc://ADDR`.
        #[arg(long, default_value = "127.0.0.1:50051")]
        addr: std::net::SocketAddr,
        /// Which snapshot's bundles back `records` and `text_fields`: an id or `latest`.
        #[arg(long, default_value = "latest")]
        snapshot: String,
    },
    /// What changed between two runs (per cell) or two snapshots (per asset and family).
    /// Exit 0 when nothing changed, 1 when something did, 2 on errors.
    Diff {
        /// `previous`, `latest`, a run id, `snapshot:previous`, `snapshot:latest` or a
        /// snapshot id.
        #[arg(long, default_value = "previous")]
        from: String,
        #[arg(long, default_value = "latest")]
        to: String,
        /// Only this asset.
        #[arg(long)]
        asset: Option<String>,
        #[arg(long, default_value = "table", value_parser = choice::<dossier::access::diff::Format>())]
        format: dossier::access::diff::Format,
    },
    /// Run the gates on claims from anywhere; one verdict line per claim.
    /// Exit 1 if any claim is rejected, 2 on errors.
    Verify {
        /// A snapshot id or `latest`.
        #[arg(long)]
        snapshot: String,
        /// Claims as JSON Lines (`-` for stdin).
        #[arg(long)]
        claims: PathBuf,
        #[command(flatten)]
        judge: JudgeArgs,
    },
    /// The best passages of each asset's bundle for a query, under a token budget.
    Distill {
        #[arg(long, default_value = "latest")]
        snapshot: String,
        /// Assets to distill (comma-separated); all when omitted.
        #[arg(long, value_delimiter = ',')]
        assets: Vec<String>,
        #[arg(long)]
        query: String,
        /// Token budget per asset (cl100k_base tokens).
        #[arg(long, default_value_t = 2000)]
        budget: usize,
        /// Also write every span of each asset to DIR/<asset>.jsonl.
        #[arg(long)]
        dump: Option<PathBuf>,
    },
    /// Layer 2: reason over a pinned snapshot and write claims, rejections and profile
    /// cells; prints the run id.
    Run {
        #[arg(long, default_value = "latest")]
        snapshot: String,
        /// Assets to run (comma-separated).
        #[arg(long, value_delimiter = ',', conflicts_with = "all")]
        assets: Vec<String>,
        /// Every asset of the snapshot (the default when --assets is not given).
        #[arg(long)]
        all: bool,
        #[arg(long, default_value = "extractive", value_parser = choice::<Reasoner>())]
        reasoner: Reasoner,
        /// Run id (default: a hash of snapshot, reasoner, model and code version).
        #[arg(long)]
        run_id: Option<String>,
        /// OpenAI-compatible base URL, up to /v1.
        #[arg(long, env = "DOSSIER_LLM_BASE_URL")]
        llm_base_url: Option<String>,
        #[arg(long, env = "DOSSIER_LLM_MODEL")]
        llm_model: Option<String>,
        #[arg(long, env = "DOSSIER_LLM_API_KEY", hide_env_values = true)]
        llm_api_key: Option<String>,
        /// Prompt budget per asset (cl100k_base tokens).
        #[arg(long, default_value_t = 6000)]
        llm_budget: usize,
        /// Seconds per LLM request.
        #[arg(long, default_value_t = 120)]
        llm_timeout: u64,
        /// Family ranks for precedence (CSV `family,rank`; lower wins). Default: the
        /// ranks shipped in jobs/family_rank.csv.
        #[arg(long, env = "DOSSIER_FAMILY_RANKS")]
        ranks: Option<PathBuf>,
        /// Only the assets of shard i of N (`i/N`, 0-based): N machines sharing one lake
        /// run one portfolio together under one run id.
        #[arg(long)]
        shard: Option<String>,
        /// Assets reasoned at the same time (default: the cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// The run `cell_changes` compares with (default: the previous finished run of
        /// the same portfolio).
        #[arg(long)]
        baseline: Option<String>,
        /// Valuation assumptions (TOML, the shape of jobs/valuation.toml). Default: the
        /// assumptions shipped in jobs/valuation.toml. Another file is another run id.
        #[arg(long, env = "DOSSIER_ASSUMPTIONS")]
        assumptions: Option<PathBuf>,
        #[command(flatten)]
        judge: JudgeArgs,
    },
    /// Run the precedence rules of sql/ over candidate tables in Parquet (the run's
    /// `accepted` and `empty_cells` shapes); writes profile_cells.parquet and
    /// conflicts.parquet into OUT. For audits of the rules and benchmarks.
    Rules {
        #[arg(long)]
        accepted: PathBuf,
        #[arg(long)]
        empty: PathBuf,
        #[arg(long, env = "DOSSIER_FAMILY_RANKS")]
        ranks: Option<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
    /// The pipeline on the bundled fixtures, offline, into a fresh lake.
    Demo {
        /// Fixtures laid out as the repository's `fixtures/` (default: the copy built into
        /// the binary).
        #[arg(long)]
        fixtures: Option<PathBuf>,
    },
}

/// The independent entailment judge (an OpenAI-compatible endpoint) for the claims the
/// rules cannot decide. Without it, those claims are accepted and marked undecided.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct JudgeArgs {
    /// Judge base URL, up to /v1.
    #[arg(long, env = "DOSSIER_JUDGE_BASE_URL")]
    pub judge_base_url: Option<String>,
    /// Judge model; by default it must differ from the LLM reasoner's.
    #[arg(long, env = "DOSSIER_JUDGE_MODEL")]
    pub judge_model: Option<String>,
    #[arg(long, env = "DOSSIER_JUDGE_API_KEY", hide_env_values = true)]
    pub judge_api_key: Option<String>,
    /// Seconds per judge request.
    #[arg(long, default_value_t = 60)]
    pub judge_timeout: u64,
    /// Let the judge be the reasoner's own model.
    #[arg(long)]
    pub judge_same_model: bool,
    /// A directory of entailment tables (field_fitness.csv, field_cues.csv,
    /// endpoints.csv, entailment_units.csv): each file there replaces the shipped one
    /// of that name. Other tables are another run id.
    #[arg(long, env = "DOSSIER_ENTAILMENT_TABLES")]
    pub entailment_tables: Option<PathBuf>,
}

impl JudgeArgs {
    /// Loads the entailment tables given and puts them in force for this process.
    pub fn install_tables(&self) -> Result<(), dossier::config::ConfigError> {
        dossier::config::entailment_tables(self.entailment_tables.as_deref())
    }

    pub fn config(&self) -> Option<dossier::run::judge::Config> {
        dossier::run::judge::Config::from_parts(
            self.judge_base_url.clone(),
            self.judge_model.clone(),
            self.judge_api_key.clone(),
            self.judge_timeout,
            self.judge_same_model,
        )
    }
}
