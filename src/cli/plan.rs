//! Arguments become a validated plan: files named on the command line are read and
//! checked (portfolio, live settings, family ranks), ids are validated, defaults are
//! filled in. The commands then run a plan and never see clap's types.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;

use dossier::access::{report, sql};
use dossier::config;
use dossier::domain::AssetId;
use dossier::domain::Portfolio;
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
    Sql {
        /// None: a prompt on a terminal, else the statements on stdin.
        query: Option<String>,
        format: sql::Format,
        snapshot: String,
        run: Option<String>,
        timing: bool,
    },
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
        } => Job::Sql {
            query,
            format,
            snapshot,
            run,
            timing,
        },
        Command::Report {
            run,
            asset,
            format,
            out,
        } => Job::Report {
            run: (run != "latest").then_some(run),
            asset: asset
                .map(AssetId::try_from)
                .transpose()
                .map_err(anyhow::Error::msg)?,
            format,
            out,
        },
        Command::Serve { addr, snapshot } => Job::Serve { addr, snapshot },
        Command::Verify { snapshot, claims } => Job::Verify {
            snapshot,
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
            snapshot,
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
                snapshot,
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
            lake_dir: PathBuf::from(if cli.lake == DEFAULT_LAKE {
                "./demo-lake"
            } else {
                cli.lake.as_str()
            }),
        },
    };
    Ok(Plan {
        lake: cli.lake,
        quiet: cli.quiet,
        job,
    })
}
