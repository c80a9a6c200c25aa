//! The `dossier` command line: parses arguments into a plan and calls one stage.
//! Exit codes: 0 ok, 1 the data said no, 2 an error.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};

use dossier::lake::Lake;
use dossier::domain::model::Family;
use dossier::domain::portfolio::Portfolio;
use dossier::access::report;
use dossier::access::flight as serve;
use dossier::access::shell;
use dossier::snapshot::SnapshotOutcome;
use dossier::access::sql::{self, Format};
use dossier::{demo, snapshot};

#[derive(Parser)]
#[command(
    name = "dossier",
    version,
    about = "Drug-asset profiles an analyst can trust cell by cell"
)]
struct Cli {
    /// The lake: a directory, file://, memory://, s3://, gs:// or az:// URL.
    #[arg(long, global = true, env = "DOSSIER_LAKE", default_value = "./lake")]
    lake: String,
    /// No summary on stderr.
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
        #[arg(long, value_enum, default_value = "table")]
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
    },
    /// The analyst's view of a run: one asset's page, or with no --asset the run's index
    /// (and with --out DIR, the index and every asset's page as files).
    Report {
        /// A run id, or `latest` (the latest finished run).
        #[arg(long, default_value = "latest")]
        run: String,
        #[arg(long)]
        asset: Option<String>,
        #[arg(long, value_enum, default_value = "html")]
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
    /// Run the gates on claims from anywhere; one verdict line per claim.
    /// Exit 1 if any claim is rejected, 2 on errors.
    Verify {
        /// A snapshot id or `latest`.
        #[arg(long)]
        snapshot: String,
        /// Claims as JSON Lines (`-` for stdin).
        #[arg(long)]
        claims: PathBuf,
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
        #[arg(long, value_enum, default_value = "extractive")]
        reasoner: dossier::run::Reasoner,
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
        #[arg(long, default_value_os_t = demo::default_fixtures())]
        fixtures: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let filter = if cli.quiet { "error" } else { "warn" };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("DOSSIER_LOG")
                .unwrap_or_else(|_| filter.into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let rt = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: starting the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match rt.block_on(run(cli)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Snapshot {
            portfolio,
            import,
            live,
            live_config,
            save_responses,
        } => {
            if live {
                let portfolio = Portfolio::load(&portfolio)?;
                let lake = Lake::open(&cli.lake)?;
                let cfg = dossier::snapshot::fetch::LiveConfig::load(live_config.as_deref())?;
                let progress = !cli.quiet && std::io::stderr().is_terminal();
                let (out, stats) = dossier::snapshot::fetch::snapshot_live(
                    &lake,
                    &portfolio,
                    &cfg,
                    progress,
                    save_responses.as_deref(),
                )
                .await?;
                if !cli.quiet {
                    eprint!("{}", summary(&out));
                    eprint!("{}", live_summary(&stats));
                }
                println!("{}", out.id);
                return Ok(ExitCode::SUCCESS);
            }
            let dir = import.context("--import DIR is required")?;
            let portfolio = Portfolio::load(&portfolio)?;
            let lake = Lake::open(&cli.lake)?;
            let out = snapshot::snapshot_import(&lake, &portfolio, &dir).await?;
            if !cli.quiet {
                eprint!("{}", summary(&out));
            }
            println!("{}", out.id);
        }
        Command::Sql {
            query,
            format,
            snapshot,
            run,
            timing,
        } => {
            let lake = Lake::open_existing(&cli.lake)?;
            let query = match query {
                Some(q) => q,
                None if std::io::stdin().is_terminal() => {
                    shell::interactive(&lake, &snapshot, run.as_deref(), format).await?;
                    return Ok(ExitCode::SUCCESS);
                }
                None => {
                    let mut q = String::new();
                    std::io::stdin().read_to_string(&mut q)?;
                    q
                }
            };
            let start = std::time::Instant::now();
            let ctx =
                sql::context(&lake, &snapshot, sql::needs_bundles(&query), run.as_deref()).await?;
            let ms = |t: std::time::Instant| t.elapsed().as_secs_f64() * 1e3;
            if timing {
                eprintln!("timing: session {:.2} ms", ms(start));
            }
            for (i, stmt) in sql::parse(&query)?.into_iter().enumerate() {
                let start = std::time::Instant::now();
                let batches = sql::execute(&ctx, stmt, None).await?;
                if timing {
                    let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
                    eprintln!(
                        "timing: statement {} {:.2} ms {rows} rows",
                        i + 1,
                        ms(start)
                    );
                }
                if batches.iter().all(|b| b.num_columns() == 0) {
                    continue;
                }
                print!("{}", sql::render(&batches, format)?);
                if format == Format::Table {
                    println!();
                }
            }
        }
        Command::Report {
            run,
            asset,
            format,
            out,
        } => {
            let lake = Lake::open_existing(&cli.lake)?;
            let pin = (run != "latest").then_some(run.as_str());
            let runs = sql::runs(&lake).await?;
            let Some(row) = sql::pick_run(&runs, pin)?.cloned() else {
                bail!("no finished run in {}: run `dossier run` first", lake.url);
            };
            let ctx = sql::context(&lake, "latest", false, Some(&row.run_id)).await?;
            if let Some(a) = &asset {
                dossier::domain::model::AssetId::try_from(a.clone()).map_err(anyhow::Error::msg)?;
            }
            let data = report::load(&ctx, row, asset.as_deref()).await?;
            match (&asset, &out) {
                (Some(a), _) => {
                    let page = report::asset_page(format, &data.run, a, &data.assets[a]);
                    match &out {
                        Some(path) => std::fs::write(path, page)
                            .with_context(|| format!("writing {}", path.display()))?,
                        None => print!("{page}"),
                    }
                }
                (None, None) => print!("{}", report::index_page(format, &data)),
                (None, Some(dir)) => {
                    let pages = report::write_dir(dir, format, &data)?;
                    if !cli.quiet {
                        eprintln!("wrote {pages} pages to {}", dir.display());
                    }
                }
            }
        }
        Command::Serve { addr, snapshot } => {
            let lake = Lake::open_existing(&cli.lake)?;
            serve::serve(lake, snapshot, addr).await?;
        }
        Command::Verify { snapshot, claims } => {
            let text = if claims.as_os_str() == "-" {
                let mut t = String::new();
                std::io::stdin().read_to_string(&mut t)?;
                t
            } else {
                std::fs::read_to_string(&claims)
                    .with_context(|| format!("reading {}", claims.display()))?
            };
            let lake = Lake::open_existing(&cli.lake)?;
            let (_, manifest, ev) = dossier::run::verify::evidence(&lake, &snapshot).await?;
            let verdicts = dossier::run::verify::verdicts(&text, &manifest, &ev);
            write_json_lines(&verdicts)?;
            let rejected = verdicts.iter().filter(|v| !v.accepted()).count();
            if !cli.quiet {
                eprintln!(
                    "{} claims: {} accepted, {rejected} rejected",
                    verdicts.len(),
                    verdicts.len() - rejected
                );
            }
            if rejected > 0 {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Distill {
            snapshot,
            assets,
            query,
            budget,
            dump,
        } => {
            if let Some(d) = &dump {
                std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
            }
            let lake = Lake::open_existing(&cli.lake)?;
            let results =
                dossier::run::distill::run(&lake, &snapshot, &assets, &query, budget, dump.as_deref())
                    .await?;
            let picks: Vec<_> = results.iter().flat_map(|(p, _)| p).collect();
            write_json_lines(&picks)?;
            let (mut us, mut full, mut kept, mut spans) = (0u128, 0usize, 0usize, 0usize);
            for (_, stats) in &results {
                us += stats.index_query_us;
                full += stats.tokens_full;
                kept += stats.tokens_distilled;
                spans += stats.spans;
            }
            let n = results.len().max(1);
            eprintln!(
                "distill: assets={} spans={spans} mean_index_query_us={:.0} tokens_full={full} tokens_distilled={kept} reduction={:.1}%",
                results.len(),
                us as f64 / n as f64,
                100.0 * (1.0 - kept as f64 / full.max(1) as f64)
            );
        }
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
            let ranks = load_ranks(ranks.as_deref())?;
            let shard = shard
                .as_deref()
                .map(dossier::run::Shard::parse)
                .transpose()?;
            let jobs =
                jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let llm = match (llm_base_url, llm_model) {
                (Some(base_url), Some(model)) => Some(dossier::run::reason::llm::Config {
                    base_url,
                    model,
                    api_key: llm_api_key,
                    budget: llm_budget,
                    timeout: std::time::Duration::from_secs(llm_timeout),
                    max_bytes: 8 << 20,
                }),
                _ => None,
            };
            let lake = Lake::open_existing(&cli.lake)?;
            let out = dossier::run::run(
                &lake,
                dossier::run::Options {
                    snapshot,
                    assets,
                    reasoner,
                    run_id,
                    llm,
                    ranks,
                    shard,
                    jobs,
                    progress: !cli.quiet,
                },
            )
            .await?;
            if !cli.quiet {
                eprint!("{}", run_summary(&out));
            }
            println!("{}", out.run_id);
        }
        Command::Rules {
            accepted,
            empty,
            ranks,
            out,
        } => {
            let ranks = load_ranks(ranks.as_deref())?;
            let o = dossier::run::precedence::apply_files(&accepted, &empty, &ranks, &out).await?;
            if !cli.quiet {
                eprintln!(
                    "rules: {} candidate claims -> {} profile cells, {} conflicts in {:.3} s ({:.0} candidates/s)",
                    o.accepted_rows,
                    o.profile_cells_rows,
                    o.conflicts_rows,
                    o.secs,
                    o.accepted_rows as f64 / o.secs.max(1e-9)
                );
            }
        }
        Command::Demo { fixtures } => {
            let lake_dir = if cli.lake == "./lake" {
                PathBuf::from("./demo-lake")
            } else {
                PathBuf::from(&cli.lake)
            };
            let (out, run) = demo::run(&fixtures, &lake_dir).await?;
            eprint!("{}", summary(&out));
            eprint!("{}", run_summary(&run));
            println!("{}", out.id);
            let l = lake_dir.display();
            eprintln!("\nReport: {l}/report/index.html (one page per asset)");
            eprintln!("\nWhat to look at next:");
            eprintln!(
                "  dossier --lake {l} sql        # the interactive prompt; \\d lists tables and views"
            );
            eprintln!(
                "  dossier --lake {l} sql \"SELECT field, endpoint, arm, value, unit, status FROM profile WHERE asset_id = 'zelnorib' AND section = 'efficacy'\""
            );
            eprintln!(
                "  dossier --lake {l} sql \"SELECT asset_id, family, status, detail FROM asset_families ORDER BY asset_id, family\""
            );
            eprintln!(
                "  dossier --lake {l} sql \"SELECT family, record_key, cutoff_date, url FROM catalog ORDER BY family\""
            );
            eprintln!(
                "  dossier --lake {l} sql \"SELECT asset_id, role, family, record_key FROM records ORDER BY asset_id, role\""
            );
            eprintln!(
                "  dossier --lake {l} sql \"SELECT source_id, locator, text FROM text_fields WHERE text LIKE '%major molecular response%'\""
            );
            eprintln!(
                "  dossier --lake {l} sql \"SELECT asset_id, field, arm, value, unit, status, detail FROM profile_cells WHERE asset_id = 'zelnorib' AND section IN ('efficacy', 'safety') ORDER BY field, arm\""
            );
            eprintln!(
                "  dossier --lake {l} sql \"SELECT asset_id, status, count(*) AS cells FROM profile_cells GROUP BY asset_id, status ORDER BY asset_id, status\""
            );
            eprintln!(
                "  cat {l}/snapshots/{}.json {l}/runs/{}/manifest.json",
                out.id, run.run_id
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The family ranks from a file, or the shipped default.
fn load_ranks(path: Option<&std::path::Path>) -> anyhow::Result<dossier::run::precedence::Ranks> {
    Ok(match path {
        Some(p) => {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            dossier::run::precedence::Ranks::parse(&text, &p.display().to_string())?
        }
        None => dossier::run::precedence::Ranks::default_ranks(),
    })
}

/// Writes one JSON object per line to stdout.
fn write_json_lines<T: serde::Serialize>(items: &[T]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for item in items {
        serde_json::to_writer(&mut out, item)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// The stderr summary of a run: assets, cells by status, claims rejected by gate.
fn run_summary(out: &dossier::run::RunOutcome) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write;
    let m = &out.manifest;
    let mut s = String::new();
    let n = m.assets.len();
    let ms: f64 = m.assets.values().map(|a| a.reason_ms).sum();
    let claims: usize = m.assets.values().map(|a| a.claims).sum();
    let accepted: usize = m.assets.values().map(|a| a.accepted).sum();
    let _ = writeln!(
        s,
        "run {} on snapshot {}: {n} assets, {claims} claims ({accepted} accepted), reasoning {:.1} ms/asset, total {:.2}s",
        out.run_id,
        &m.snapshot_id[..12],
        ms / n.max(1) as f64,
        out.secs
    );
    if out.resumed_assets > 0 || out.rules_resumed {
        let _ = writeln!(
            s,
            "  resumed from the journal: {} of {n} assets{}",
            out.resumed_assets,
            if out.rules_resumed {
                ", and the rules"
            } else {
                ""
            }
        );
    }
    let st: Vec<String> = dossier::run::status_totals(m)
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let _ = writeln!(s, "  cells by status: {}", st.join(", "));
    let mut gates: BTreeMap<&str, usize> = BTreeMap::new();
    for a in m.assets.values() {
        for (g, k) in &a.rejected_by_gate {
            *gates.entry(g.as_str()).or_default() += k;
        }
    }
    let g: Vec<String> = gates.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(
        s,
        "  rejected by gate: {}",
        if g.is_empty() {
            "none".to_string()
        } else {
            g.join(", ")
        }
    );
    s
}

/// The stderr summary of a snapshot: records per family, statuses, throughput.
fn live_summary(s: &dossier::snapshot::fetch::LiveStats) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  fetched in {:.2}s: {:.1} MB downloaded, {} bodies reused from the cache (304)",
        s.fetch_secs,
        s.downloaded_bytes as f64 / 1e6,
        s.reused
    );
    for (api, st) in &s.requests {
        let limit = s
            .limits
            .get(api)
            .or_else(|| s.limits.get("web"))
            .copied()
            .unwrap_or(0.0);
        let rate = st
            .rate()
            .map(|r| format!("{r:.2}/s ({:.0}% of {limit:.2}/s)", 100.0 * r / limit))
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            out,
            "  {api}: {} requests, {} retries, {} not modified, {} failed, {:.1} MB, {rate}",
            st.requests,
            st.retries,
            st.not_modified,
            st.failures,
            st.bytes as f64 / 1e6
        );
    }
    out
}

fn summary(out: &SnapshotOutcome) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write;
    let m = &out.manifest;
    let mut s = String::new();
    let mb = out.raw_bytes as f64 / 1e6;
    let _ = writeln!(
        s,
        "snapshot {}: {} files, {:.1} MB raw, {} records, {} assets; import+bundle {:.2}s ({:.1} MB/s), total {:.2}s",
        &out.id.as_str()[..12],
        out.files,
        mb,
        out.records,
        m.assets.len(),
        out.import_secs,
        mb / out.import_secs.max(1e-9),
        out.total_secs
    );
    let mut per_family: BTreeMap<Family, usize> = BTreeMap::new();
    for src in &m.sources {
        *per_family.entry(src.family).or_default() += 1;
    }
    let fams: Vec<String> = per_family.iter().map(|(f, n)| format!("{f} {n}")).collect();
    let _ = writeln!(s, "  records by family: {}", fams.join(", "));
    let mut statuses: BTreeMap<&str, usize> = BTreeMap::new();
    for a in m.assets.values() {
        for o in a.families.values() {
            *statuses.entry(o.status.as_str()).or_default() += 1;
        }
    }
    let st: Vec<String> = statuses.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let _ = writeln!(s, "  asset x family statuses: {}", st.join(", "));
    for u in &m.unplaced {
        let _ = writeln!(s, "  unplaced {}: {}", u.file, u.reason);
    }
    s
}
