//! One function per command, each running a validated plan against the lake and
//! returning the exit code: 0 ok, 1 the data said no (a rejected claim), 2 an error
//! (returned as `Err`). stdout is data; summaries go to stderr.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};

use dossier::access::{flight, report, shell, sql};
use dossier::domain::AssetId;
use dossier::domain::Portfolio;
use dossier::lake::Lake;
use dossier::run::precedence::Ranks;
use dossier::snapshot::fetch::LiveConfig;
use dossier::{demo, snapshot};

use super::plan::{Input, Job, Plan, SqlJob};

pub async fn execute(plan: Plan) -> anyhow::Result<ExitCode> {
    let Plan { lake, quiet, job } = plan;
    match job {
        Job::SnapshotImport { portfolio, dir } => {
            snapshot_import(&lake, quiet, &portfolio, &dir).await
        }
        Job::SnapshotLive {
            portfolio,
            config,
            save_responses,
        } => snapshot_live(&lake, quiet, &portfolio, &config, save_responses.as_deref()).await,
        Job::Sql(job) => sql(&lake, job).await,
        Job::Report {
            run,
            asset,
            format,
            out,
        } => {
            report(
                &lake,
                quiet,
                run.as_deref(),
                asset.as_ref(),
                format,
                out.as_deref(),
            )
            .await
        }
        Job::Serve { addr, snapshot } => {
            flight::serve(Lake::open_existing(&lake)?, snapshot, addr).await?;
            Ok(ExitCode::SUCCESS)
        }
        Job::Verify {
            snapshot,
            claims,
            judge,
        } => verify(&lake, quiet, &snapshot, &claims, judge).await,
        Job::Diff {
            from,
            to,
            asset,
            format,
        } => diff(&lake, quiet, &from, &to, asset.as_ref(), format).await,
        Job::Distill {
            snapshot,
            assets,
            query,
            budget,
            dump,
        } => distill(&lake, &snapshot, &assets, &query, budget, dump.as_deref()).await,
        Job::Run(options) => {
            let out = dossier::run::run(&Lake::open_existing(&lake)?, *options).await?;
            if !quiet {
                eprint!("{out}");
            }
            println!("{}", out.run_id);
            Ok(ExitCode::SUCCESS)
        }
        Job::Rules {
            accepted,
            empty,
            ranks,
            out,
        } => rules(quiet, &accepted, &empty, &ranks, &out).await,
        Job::Demo { fixtures, lake_dir } => run_demo(quiet, fixtures.as_deref(), &lake_dir).await,
    }
}

async fn snapshot_import(
    lake: &str,
    quiet: bool,
    portfolio: &Portfolio,
    dir: &Path,
) -> anyhow::Result<ExitCode> {
    // a lake this command creates and then fails to fill is removed again: a typo in
    // --import leaves no empty lake behind
    let local = std::path::Path::new(lake);
    let fresh = url::Url::parse(lake).map_or(true, |u| u.scheme().len() <= 1) && !local.exists();
    let out = match snapshot::snapshot_import(&Lake::open(lake)?, portfolio, dir).await {
        Ok(out) => out,
        Err(e) => {
            if fresh {
                let _ = std::fs::remove_dir_all(local);
            }
            return Err(e.into());
        }
    };
    if !quiet {
        eprint!("{out}");
    }
    println!("{}", out.id);
    Ok(ExitCode::SUCCESS)
}

async fn snapshot_live(
    lake: &str,
    quiet: bool,
    portfolio: &Portfolio,
    config: &LiveConfig,
    save_responses: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let progress = !quiet && std::io::stderr().is_terminal();
    let (out, stats) = dossier::snapshot::fetch::snapshot_live(
        &Lake::open(lake)?,
        portfolio,
        config,
        progress,
        save_responses,
    )
    .await?;
    if !quiet {
        eprint!("{out}{stats}");
    }
    println!("{}", out.id);
    Ok(ExitCode::SUCCESS)
}

async fn sql(lake: &str, job: SqlJob) -> anyhow::Result<ExitCode> {
    let SqlJob {
        query,
        format,
        snapshot,
        run,
        timing,
        out,
        guard,
    } = job;
    let lake = Lake::open_existing(lake)?;
    let mut sink = sql::Sink::open(&lake, out.as_deref())?;
    let query = match query {
        Some(q) => q,
        None if std::io::stdin().is_terminal() => {
            shell::interactive(&lake, &snapshot, run.as_deref(), format, guard, sink).await?;
            return Ok(ExitCode::SUCCESS);
        }
        None => {
            let mut q = String::new();
            std::io::stdin().read_to_string(&mut q)?;
            q
        }
    };
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
    let start = Instant::now();
    let ctx = sql::context(&lake, &snapshot, sql::needs_bundles(&query), run.as_deref()).await?;
    if timing {
        eprintln!("timing: session {:.2} ms", ms(start));
    }
    for (i, stmt) in sql::parse(&query)?.into_iter().enumerate() {
        let start = Instant::now();
        let batches = sql::execute(&ctx, stmt, guard).await?;
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
        let mut text = sql::render(&batches, format)?;
        if format == sql::Format::Table {
            text.push('\n');
        }
        sink.write(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn report(
    lake: &str,
    quiet: bool,
    run: Option<&str>,
    asset: Option<&AssetId>,
    format: report::Format,
    out: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let lake = Lake::open_existing(lake)?;
    let runs = sql::runs(&lake).await?;
    let Some(row) = sql::pick_run(&runs, run)?.cloned() else {
        bail!("no finished run in {}: run `dossier run` first", lake.url);
    };
    let ctx = sql::context(&lake, "latest", false, Some(&row.run_id)).await?;
    let asset = asset.map(|a| a.as_str());
    let data = report::load(&ctx, row, asset).await?;
    match (asset, out) {
        (Some(a), _) => {
            let page = report::asset_page(format, &data.run, a, &data.assets[a]);
            match out {
                Some(path) => std::fs::write(path, page)
                    .with_context(|| format!("writing {}", path.display()))?,
                None => print!("{page}"),
            }
        }
        (None, None) => print!("{}", report::index_page(format, &data)),
        (None, Some(dir)) => {
            let pages = report::write_dir(dir, format, &data)?;
            if !quiet {
                eprintln!("wrote {pages} pages to {}", dir.display());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

async fn diff(
    lake: &str,
    quiet: bool,
    from: &str,
    to: &str,
    asset: Option<&AssetId>,
    format: dossier::access::diff::Format,
) -> anyhow::Result<ExitCode> {
    use dossier::access::diff;
    let lake = Lake::open_existing(lake)?;
    let runs = dossier::run::history::runs(&lake).await?;
    let (a, b) = (
        diff::resolve(&lake, &runs, from).await?,
        diff::resolve(&lake, &runs, to).await?,
    );
    let changes = diff::diff(&lake, &a, &b, asset.map(|a| a.as_str())).await?;
    let text = changes.render(format)?;
    print!("{text}");
    if !text.ends_with('\n') {
        println!();
    }
    if !quiet {
        eprintln!("{from} -> {to}: {} changes", changes.len());
    }
    Ok(if changes.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

async fn verify(
    lake: &str,
    quiet: bool,
    snapshot: &str,
    claims: &Input,
    judge: Option<dossier::run::judge::Config>,
) -> anyhow::Result<ExitCode> {
    let text = match claims {
        Input::Stdin => {
            let mut t = Vec::new();
            std::io::stdin().read_to_end(&mut t)?;
            t
        }
        Input::File(path) => {
            std::fs::read(path).with_context(|| format!("reading {}", path.display()))?
        }
    };
    let lake = Lake::open_existing(lake)?;
    let (_, manifest, ev) = dossier::run::verify::evidence(&lake, snapshot).await?;
    let verdicts = dossier::run::verify::verdicts(&lake, &text, &manifest, ev, judge).await?;
    write_json_lines(&verdicts)?;
    let rejected = verdicts.iter().filter(|v| !v.accepted()).count();
    if !quiet {
        eprintln!(
            "{} claims: {} accepted, {rejected} rejected",
            verdicts.len(),
            verdicts.len() - rejected
        );
    }
    Ok(if rejected > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

async fn distill(
    lake: &str,
    snapshot: &str,
    assets: &[String],
    query: &str,
    budget: usize,
    dump: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    if let Some(d) = dump {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
    }
    let lake = Lake::open_existing(lake)?;
    let results = dossier::run::distill::run(&lake, snapshot, assets, query, budget, dump).await?;
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
    Ok(ExitCode::SUCCESS)
}

async fn rules(
    quiet: bool,
    accepted: &Path,
    empty: &Path,
    ranks: &Ranks,
    out: &Path,
) -> anyhow::Result<ExitCode> {
    let o = dossier::run::precedence::apply_files(accepted, empty, ranks, out).await?;
    if !quiet {
        eprintln!(
            "rules: {} candidate claims -> {} profile cells, {} conflicts in {:.3} s ({:.0} candidates/s)",
            o.accepted_rows,
            o.profile_cells_rows,
            o.conflicts_rows,
            o.secs,
            o.accepted_rows as f64 / o.secs.max(1e-9)
        );
    }
    Ok(ExitCode::SUCCESS)
}

async fn run_demo(
    quiet: bool,
    fixtures: Option<&Path>,
    lake_dir: &PathBuf,
) -> anyhow::Result<ExitCode> {
    let (out, run) = demo::run(fixtures, lake_dir).await?;
    println!("{}", out.id);
    if !quiet {
        eprint!("{out}{run}");
        eprint!(
            "{}",
            demo_next_steps(lake_dir, out.id.as_str(), &run.run_id)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Where to look after the demo: the report, the prompt and a few queries.
fn demo_next_steps(lake: &Path, snapshot_id: &str, run_id: &str) -> String {
    let l = lake.display();
    let queries = [
        "SELECT field, endpoint, arm, value, unit, status FROM profile WHERE asset_id = 'zelnorib' AND section = 'efficacy'",
        "SELECT asset_id, family, status, detail FROM asset_families ORDER BY asset_id, family",
        "SELECT family, record_key, cutoff_date, url FROM catalog ORDER BY family",
        "SELECT asset_id, role, family, record_key FROM records ORDER BY asset_id, role",
        "SELECT source_id, locator, text FROM text_fields WHERE text LIKE '%major molecular response%'",
        "SELECT asset_id, field, arm, value, unit, status, detail FROM profile_cells WHERE asset_id = 'zelnorib' AND section IN ('efficacy', 'safety') ORDER BY field, arm",
        "SELECT asset_id, status, count(*) AS cells FROM profile_cells GROUP BY asset_id, status ORDER BY asset_id, status",
    ];
    let mut s = format!(
        "\nReport: {l}/report/index.html (one page per asset)\n\nWhat to look at next:\n  dossier --lake {l} sql        # the interactive prompt; \\d lists tables and views\n"
    );
    for q in queries {
        s.push_str(&format!("  dossier --lake {l} sql \"{q}\"\n"));
    }
    s.push_str(&format!(
        "  cat {l}/snapshots/{snapshot_id}.json {l}/runs/{run_id}/manifest.json\n"
    ));
    s
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
