//! Arguments become a validated plan: files named on the command line are read and
//! checked (portfolio, live settings, family ranks), ids are validated, defaults are
//! filled in. The commands then run a plan and never see clap's types.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;

use dossier::access::{report, sql};
use dossier::config;
use dossier::domain::Portfolio;
use dossier::domain::{AssetId, Hash256};
use dossier::run::precedence::Ranks;
use dossier::run::reason::llm;
use dossier::snapshot::fetch::LiveConfig;

use super::args::{Cli, Command};

/// What one invocation will do.
pub struct Plan {
    /// The lake's URL or directory.
    pub lake: String,
    /// No summaries on stderr.
    pub quiet: bool,
    pub job: Job,
}

/// A `dossier sql` invocation.
pub struct SqlJob {
    /// None: a prompt on a terminal, else the statements on stdin.
    pub query: Option<String>,
    pub format: sql::Format,
    pub snapshot: String,
    pub run: Option<String>,
    pub timing: bool,
    /// Results go to this file (checked to be outside the lake) instead of stdout.
    pub out: Option<PathBuf>,
    pub guard: sql::Guard,
}

/// Where the claims of `verify` come from.
pub enum Input {
    Stdin,
    File(PathBuf),
}

pub enum Job {
    SnapshotImport {
        portfolio: Portfolio,
        dir: PathBuf,
    },
    SnapshotLive {
        portfolio: Portfolio,
        config: Box<LiveConfig>,
        save_responses: Option<PathBuf>,
    },
    Sql(SqlJob),
    Report {
        /// None: the latest finished run.
        run: Option<String>,
        asset: Option<AssetId>,
        format: report::Format,
        out: Option<PathBuf>,
    },
    Serve {
        addr: SocketAddr,
        snapshot: String,
    },
    Verify {
        snapshot: String,
        claims: Input,
        judge: Option<dossier::run::judge::Config>,
    },
    Diff {
        from: String,
        to: String,
        asset: Option<AssetId>,
        format: dossier::access::diff::Format,
    },
    Distill {
        snapshot: String,
        assets: Vec<String>,
        query: String,
        budget: usize,
        dump: Option<PathBuf>,
    },
    Run(Box<dossier::run::Options>),
    Rules {
        accepted: PathBuf,
        empty: PathBuf,
        ranks: Ranks,
        out: PathBuf,
    },
    Demo {
        fixtures: Option<PathBuf>,
        lake_dir: PathBuf,
    },
}

/// The default lake of every command but `demo`, which writes `./demo-lake` instead.
const DEFAULT_LAKE: &str = "./lake";
const DEMO_LAKE: &str = "./demo-lake";

/// `--snapshot`: `latest` or a whole snapshot id, checked the same way for every command.
fn snapshot_ref(s: String) -> anyhow::Result<String> {
    if s == "latest" {
        return Ok(s);
    }
    Hash256::try_from(s)
        .map(String::from)
        .context("--snapshot takes `latest` or a snapshot id")
}

/// `--run`: a run id (`[a-z0-9_-]{1,64}`), checked before it names an object.
fn run_ref(s: String) -> anyhow::Result<String> {
    if dossier::run::valid_run_id(&s) {
        Ok(s)
    } else {
        Err(dossier::run::RunError::BadRunId(s).into())
    }
}

/// Checks the arguments and reads what they name.
pub fn plan(cli: Cli) -> anyhow::Result<Plan> {
    let job = match cli.command {
        Command::Snapshot {
            portfolio,
            import,
            live,
            live_config,
            save_responses,
        } => {
            let portfolio = Portfolio::load(&portfolio)?;
            if live {
                Job::SnapshotLive {
                    portfolio,
                    config: Box::new(config::live(live_config.as_deref())?),
                    save_responses,
                }
            } else {
                let dir = import.context("--import DIR is required")?;
                Job::SnapshotImport { portfolio, dir }
            }
        }
        Command::Sql {
            query,
            format,
            snapshot,
            run,
            timing,
            out,
            read_files,
        } => Job::Sql(SqlJob {
            query,
            format,
            snapshot: snapshot_ref(snapshot)?,
            run: run.map(run_ref).transpose()?,
            timing,
            out,
            guard: sql::Guard::Analyst { read_files },
        }),
        Command::Report {
            run,
            asset,
            format,
            out,
        } => Job::Report {
            run: (run != "latest").then_some(run).map(run_ref).transpose()?,
            asset: asset
                .map(AssetId::try_from)
                .transpose()
                .map_err(anyhow::Error::msg)?,
            format,
            out,
        },
        Command::Serve { addr, snapshot } => Job::Serve {
            addr,
            snapshot: snapshot_ref(snapshot)?,
        },
        Command::Diff {
            from,
            to,
            asset,
            format,
        } => Job::Diff {
            from,
            to,
            asset: asset.map(AssetId::try_from).transpose()?,
            format,
        },
        Command::Verify {
            snapshot,
            claims,
            judge,
        } => Job::Verify {
            snapshot: snapshot_ref(snapshot)?,
            judge: {
                judge.install_tables()?;
                judge.config()
            },
            claims: if claims.as_os_str() == "-" {
                Input::Stdin
            } else {
                Input::File(claims)
            },
        },
        Command::Distill {
            snapshot,
            assets,
            query,
            budget,
            dump,
        } => Job::Distill {
            snapshot: snapshot_ref(snapshot)?,
            assets,
            query,
            budget,
            dump,
        },
        Command::Run {
            snapshot,
            assets,
            all: _,
            reasoner,
            run_id,
            llm_base_url,
            llm_model,
            llm_api_key,
            llm_budget,
            llm_timeout,
            ranks,
            shard,
            jobs,
            baseline,
            assumptions,
            judge,
        } => {
            let llm = match (llm_base_url, llm_model) {
                (Some(base_url), Some(model)) => Some(llm::Config {
                    base_url,
                    model,
                    api_key: llm_api_key,
                    budget: llm_budget,
                    timeout: std::time::Duration::from_secs(llm_timeout),
                    max_bytes: 8 << 20,
                    retry: dossier::http::RetryConfig::default(),
                }),
                _ => None,
            };
            Job::Run(Box::new(dossier::run::Options {
                snapshot: snapshot_ref(snapshot)?,
                assets,
                reasoner,
                run_id,
                llm,
                ranks: config::ranks(ranks.as_deref())?,
                shard: shard
                    .as_deref()
                    .map(dossier::run::Shard::parse)
                    .transpose()?,
                jobs: jobs.unwrap_or_else(config::cores),
                progress: !cli.quiet,
                baseline: baseline.map(run_ref).transpose()?,
                assumptions: config::assumptions(assumptions.as_deref())?,
                judge: {
                    judge.install_tables()?;
                    judge.config()
                },
            }))
        }
        Command::Rules {
            accepted,
            empty,
            ranks,
            out,
        } => Job::Rules {
            accepted,
            empty,
            ranks: config::ranks(ranks.as_deref())?,
            out,
        },
        Command::Demo { fixtures } => Job::Demo {
            fixtures,
            lake_dir: PathBuf::from(cli.lake.as_deref().unwrap_or(DEMO_LAKE)),
        },
    };
    Ok(Plan {
        lake: cli.lake.unwrap_or_else(|| DEFAULT_LAKE.to_string()),
        quiet: cli.quiet,
        job,
    })
}
