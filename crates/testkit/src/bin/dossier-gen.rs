//! `dossier-gen`: writes a synthetic import corpus and portfolio of N fictional assets,
//! in the real schemas, for benchmarks. Deterministic: the same N gives the same bytes.
//!
//! Usage: dossier-gen --assets 500 --out DIR

use std::path::PathBuf;

use clap::Parser;
use dossier_testkit::{replay, synthetic};

#[derive(Parser)]
struct Args {
    #[arg(long, default_value_t = 500)]
    assets: usize,
    #[arg(long)]
    out: PathBuf,
    /// Also write this many claims to OUT/claims.jsonl (about 1 in 10 fabricated).
    #[arg(long, default_value_t = 0)]
    claims: usize,
    /// Only write this many accepted candidate claims (OUT/accepted.parquet) and the
    /// empty cells of their assets (OUT/empty.parquet), for the precedence rules.
    #[arg(long, default_value_t = 0)]
    candidates: usize,
    /// Give every fourth study with results a second data version that changes one
    /// value: at the same data cutoff for every eighth (an unresolved conflict), a later
    /// one otherwise (resolved by cutoff).
    #[arg(long)]
    revisions: bool,
    /// Make each study's primary outcome an objective response rate that the asset's
    /// paper, label and press page also state, agreeing or disagreeing by a planted
    /// pattern; writes OUT/planted.csv, the conflicts the rules must find.
    #[arg(long)]
    cross_family: bool,
    /// Serve OUT/import (with OUT/portfolio.toml) on a loopback replay server instead of
    /// writing anything: prints its address, answers until killed (`GET /__stats` gives
    /// the per-API arrival rates and windows).
    #[arg(long)]
    replay: bool,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if args.replay {
        let rt = tokio::runtime::Runtime::new()?;
        return rt.block_on(async {
            let p = dossier::domain::Portfolio::load(&args.out.join("portfolio.toml"))?;
            let world = replay::World::from_import(&args.out.join("import"), &p)?;
            let server = replay::Builder::new(world).start().await?;
            println!("http://{}", server.addr);
            use std::io::Write;
            std::io::stdout().flush()?;
            tokio::signal::ctrl_c().await?;
            Ok(())
        });
    }
    if args.candidates > 0 {
        synthetic::write_candidates(&args.out, args.candidates)?;
        eprintln!(
            "wrote {} candidate claims under {}",
            args.candidates,
            args.out.display()
        );
        return Ok(());
    }
    let opts = synthetic::Options {
        assets: args.assets,
        claims: args.claims,
        revisions: args.revisions,
        cross_family: args.cross_family,
    };
    synthetic::write_corpus(&args.out, &opts)?;
    eprintln!("wrote {} assets under {}", args.assets, args.out.display());
    Ok(())
}
