//! `dossier run`: Layer 2 over a pinned snapshot, in phases. Phase 0 (`pin`): the
//! snapshot, run id and assets. Phase 1 (`assets`), per asset: read its bundle
//! (hash-checked), run the reasoner's steps, put every claim through the gates and the
//! run-level schema and binding checks, and write the asset's `claims` and `rejections`.
//! Phase 2 (`rules`), once for all assets: the precedence rules of `sql/` over every accepted
//! claim, giving `profile_cells` and `conflicts`. Each table is one deterministic Parquet
//! file per asset under `tables/<table>/run_id=<run>/asset_id=<asset>/`, so a rerun of
//! one asset replaces exactly its rows. Phase 3: the run manifest goes last. Each step is
//! journaled (`journal`), so a rerun of the same run id resumes where it stopped.

mod assets;
pub mod changes;
pub mod distill;
pub mod evidence;
pub mod gates;
pub mod history;
pub mod journal;
pub mod judge;
pub mod precedence;
pub mod profile;
pub mod reason;
mod rules;
pub mod verify;

pub use assets::{LlmClaims, claims_batch, reason_asset, rejections_batch};
pub use journal::Journal;
pub use rules::{cells, conflicts, dedup_key};

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use datafusion::arrow::array::RecordBatch;
use serde::Serialize;

use crate::Error;
use crate::domain::Claim;
use crate::domain::{Hash256, sha256_hex};
use crate::lake::Lake;
use crate::lake::manifest::SnapshotManifest;
use crate::lake::tables::{AcceptedRow, CellChangeRow, EmptyCellRow, Table};
use crate::run::evidence::Evidence;
use crate::run::gates::Verdict;
use crate::run::profile::Status;
use crate::run::reason::llm;
use crate::run::reason::valuation;

#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    strum::EnumString,
    strum::VariantNames,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Reasoner {
    Extractive,
    Llm,
}

pub struct Options {
    pub snapshot: String,
    pub assets: Vec<String>,
    pub reasoner: Reasoner,
    pub run_id: Option<String>,
    pub llm: Option<llm::Config>,
    /// The independent entailment judge, if any.
    pub judge: Option<judge::Config>,
    /// Family ranks for the precedence rules.
    pub ranks: precedence::Ranks,
    /// Only the assets of this shard.
    pub shard: Option<Shard>,
    /// Assets reasoned at the same time.
    pub jobs: usize,
    /// A progress bar on stderr (drawn only when stderr is a terminal).
    pub progress: bool,
    /// The run `cell_changes` compares with; `None`: the previous finished run of the
    /// same portfolio.
    pub baseline: Option<String>,
    /// The valuation assumptions (default: the shipped jobs/valuation.toml).
    pub assumptions: Arc<valuation::Book>,
}

/// Shard `index` of `count`: an asset belongs to the shard its id hashes to, so shards
/// are disjoint, cover every asset, and keep their assets when the portfolio grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Parses `i/N` with 0 <= i < N.
    pub fn parse(s: &str) -> Result<Shard, Error> {
        let bad = || Error::from(RunError::BadShard(s.to_string()));
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    pub fn holds(&self, asset: &str) -> bool {
        let h = sha256_hex(asset.as_bytes());
        let n = u64::from_str_radix(&h[..16], 16).unwrap_or(0);
        (n % self.count as u64) as usize == self.index
    }
}

/// One asset's outcome in the run manifest.
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
pub struct AssetOutcome {
    pub claims: usize,
    pub accepted: usize,
    pub rejected_by_gate: BTreeMap<String, usize>,
    pub cells_by_status: BTreeMap<String, usize>,
    /// Rows of `conflicts` (competitions between different values).
    pub conflicts: usize,
    pub reason_ms: f64,
    /// Time of the valuation step alone (within `reason_ms`).
    #[serde(default)]
    pub valuation_ms: f64,
    pub prompt_tokens: usize,
    pub bundle_tokens: usize,
}

#[derive(Debug, Serialize, serde::Deserialize)]
pub struct RunManifest {
    pub format: String,
    pub run_id: String,
    pub snapshot_id: String,
    pub reasoner: String,
    pub model: Option<String>,
    pub code_version: String,
    /// The family ranks the precedence rules used.
    pub family_ranks: BTreeMap<String, i64>,
    pub started_at: String,
    pub finished_at: String,
    pub assets: BTreeMap<String, AssetOutcome>,
    /// The run its `cell_changes` compare with (none for a portfolio's first run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline_run_id: Option<String>,
    /// Changed cells since the baseline.
    #[serde(default)]
    pub changed_cells: usize,
}

/// Everything a run computed for one asset (pure part of the run).
pub struct AssetRun {
    pub asset: String,
    pub claims: Vec<Claim>,
    pub verdicts: Vec<Verdict>,
    /// The data cutoff of each claim's cited record, where it has one.
    pub cutoffs: Vec<Option<String>>,
    /// Accepted claims as rows of the rules' `accepted` input.
    pub accepted: Vec<AcceptedRow>,
    /// Fields no accepted claim fills, as rows of the rules' `empty_cells` input.
    pub empty: Vec<EmptyCellRow>,
    pub outcome: AssetOutcome,
}

/// Checks a run id: `[a-z0-9_-]{1,64}` (it becomes part of object keys).
pub fn valid_run_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

/// The default run id: a hash of what determines the run's output.
pub fn default_run_id(
    snapshot: &Hash256,
    reasoner: Reasoner,
    model: Option<&str>,
    book: &valuation::Book,
    judge: Option<&str>,
) -> String {
    let mut text = format!(
        "{snapshot}\n{reasoner:?}\n{}\n{}",
        model.unwrap_or(""),
        env!("CARGO_PKG_VERSION")
    );
    // Another assumptions file is another run (the shipped one keeps the ids it had).
    if book.sha256() != valuation::Book::shipped().sha256() {
        text.push_str(&format!("\n{}", book.sha256()));
    }
    // Other entailment tables judge otherwise: another run.
    {
        use crate::run::gates::entailment::tables::{Tables, tables};
        if !Tables::shipped_in_force() {
            text.push_str(&format!("\nentailment {}", tables().sha256));
        }
    }
    // A judge decides what the rules leave undecided: another judge, another run.
    if let Some(j) = judge {
        text.push_str(&format!("\njudge {j}"));
    }
    format!("r-{}", &sha256_hex(text.as_bytes())[..16])
}

/// What `dossier run` did.
pub struct RunOutcome {
    pub run_id: String,
    pub manifest: RunManifest,
    pub secs: f64,
    /// Assets whose step was found finished in the journal (not recomputed).
    pub resumed_assets: usize,
    /// Whether the rules step was found finished in the journal.
    pub rules_resumed: bool,
}

pub const RUN_FORMAT: &str = "dossier.run.v1";

impl RunError {
    /// An asset that is not among `known`, with the known ones listed (at most 20).
    pub fn unknown_asset<'a>(asset: &str, known: impl Iterator<Item = &'a String>) -> RunError {
        RunError::UnknownAsset {
            asset: asset.to_string(),
            known: crate::error::listing(known, 20),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("asset {asset:?} is not in the snapshot; it has {known}")]
    UnknownAsset { asset: String, known: String },
    #[error("{0:?} is not an asset id: ids use a-z, 0-9, '-' and '_'")]
    BadAssetId(String),
    #[error("asset {0:?} is not in the portfolio")]
    NotInPortfolio(String),
    #[error(
        "--reasoner llm needs an endpoint: set DOSSIER_LLM_BASE_URL and DOSSIER_LLM_MODEL (or --llm-base-url/--llm-model)"
    )]
    NoEndpoint,
    #[error(
        "the judge's model {0:?} is the reasoner's: a model does not grade its own work (pass --judge-same-model to allow it)"
    )]
    SameJudge(String),
    #[error("run id {0:?}: use 1 to 64 of a-z, 0-9, '-' and '_'")]
    BadRunId(String),
    #[error("--shard {0:?}: use i/N with 0 <= i < N, e.g. 0/4")]
    BadShard(String),
    #[error("{key}: journal entry does not parse; delete it to redo the step")]
    Journal {
        key: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("--baseline {0:?}: no finished run with that id in the lake")]
    NoBaseline(String),
    #[error("{key}: not a run manifest")]
    Manifest {
        key: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("{key}: journal entry is for another request")]
    ForeignEntry { key: String },
    #[error("writing {}", path.display())]
    Write {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("encoding {what}")]
    Encode {
        what: String,
        #[source]
        source: serde_json::Error,
    },
}

/// The snapshot, run id and assets a run works on, settled before any work starts.
pub(crate) struct Pinned {
    pub run_id: String,
    pub snapshot_id: Hash256,
    pub manifest: Arc<SnapshotManifest>,
    /// The snapshot's catalog (no text: each asset's text comes from its bundle).
    pub catalog: Arc<Evidence>,
    /// The snapshot's competitor records, which its bundles' competitor rows name.
    pub competitors: Arc<crate::lake::bundle::Competitors>,
    pub model: Option<String>,
    /// The assets of this invocation with their bundles, by asset id.
    pub assets: Vec<(String, Hash256)>,
    pub book: Arc<valuation::Book>,
}

/// Runs the reasoner over the chosen assets of a snapshot and writes the tables, in
/// named phases; each phase's steps are journaled, so a rerun resumes.
pub async fn run(lake: &Lake, opts: Options) -> Result<RunOutcome, Error> {
    let t = Instant::now();
    let started_at = now();
    let pinned = pin(lake, &opts).await?;
    let journal = Journal::new(lake.clone(), &pinned.run_id);
    let client = match (opts.reasoner, &opts.llm) {
        (Reasoner::Llm, Some(cfg)) => {
            Some(Arc::new(llm::Client::new(cfg.clone(), journal.clone())?))
        }
        _ => None,
    };
    let judge = match &opts.judge {
        Some(cfg) => {
            if let (Reasoner::Llm, Some(llm)) = (opts.reasoner, &opts.llm)
                && llm.model == cfg.model
                && !cfg.same_model_allowed
            {
                return Err(RunError::SameJudge(cfg.model.clone()).into());
            }
            Some(Arc::new(judge::Client::new(
                cfg,
                journal.clone(),
                tokio::runtime::Handle::current(),
            )?))
        }
        None => None,
    };
    let assets::Done {
        outcomes,
        resumed: resumed_assets,
        rules_resumed,
    } = assets::reason_all(lake, &journal, &pinned, &opts, client, judge).await?;
    let (baseline_run_id, changed_cells) =
        write_changes(lake, &pinned, opts.baseline.as_deref(), &started_at).await?;
    let manifest = RunManifest {
        format: RUN_FORMAT.into(),
        run_id: pinned.run_id.clone(),
        snapshot_id: pinned.snapshot_id.to_string(),
        reasoner: format!("{:?}", opts.reasoner).to_lowercase(),
        model: pinned.model.clone(),
        code_version: env!("CARGO_PKG_VERSION").into(),
        family_ranks: opts
            .ranks
            .0
            .iter()
            .map(|(f, r)| (f.to_string(), *r))
            .collect(),
        started_at,
        finished_at: now(),
        assets: outcomes,
        baseline_run_id,
        changed_cells,
    };
    write_manifest(lake, &manifest, opts.shard).await?;
    Ok(RunOutcome {
        run_id: pinned.run_id,
        manifest,
        secs: t.elapsed().as_secs_f64(),
        resumed_assets,
        rules_resumed,
    })
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Phase 0: the pinned snapshot (hash-checked) and its evidence, the run id, the model,
/// and the assets of this invocation (named ones, or all; of this shard).
async fn pin(lake: &Lake, opts: &Options) -> Result<Pinned, Error> {
    let (snapshot_id, manifest, ev) = crate::run::verify::catalog(lake, &opts.snapshot).await?;
    if let Some(a) = opts
        .assets
        .iter()
        .find(|a| !manifest.assets.contains_key(*a))
    {
        return Err(RunError::unknown_asset(a, manifest.assets.keys()).into());
    }
    let model = match (opts.reasoner, &opts.llm) {
        (Reasoner::Llm, Some(cfg)) => Some(cfg.model.clone()),
        (Reasoner::Llm, None) => {
            return Err(RunError::NoEndpoint.into());
        }
        _ => None,
    };
    let run_id = match &opts.run_id {
        Some(id) if valid_run_id(id) => id.clone(),
        Some(id) => {
            return Err(RunError::BadRunId(id.clone()).into());
        }
        None => default_run_id(
            &snapshot_id,
            opts.reasoner,
            model.as_deref(),
            &opts.assumptions,
            opts.judge.as_ref().map(|j| j.model.as_str()),
        ),
    };
    let assets = manifest
        .assets
        .iter()
        .filter(|(a, _)| opts.assets.is_empty() || opts.assets.contains(*a))
        .filter(|(a, _)| opts.shard.is_none_or(|sh| sh.holds(a)))
        .map(|(a, e)| (a.clone(), e.bundle.clone()))
        .collect();
    let competitors = crate::snapshot::competitors(lake, &manifest).await?;
    Ok(Pinned {
        run_id,
        snapshot_id,
        manifest: Arc::new(manifest),
        catalog: Arc::new(ev),
        competitors,
        model,
        assets,
        book: opts.assumptions.clone(),
    })
}

/// Phase 3: `cell_changes` against the baseline (the given run, else the previous
/// finished run of the same portfolio), one partition per asset of this invocation, empty
/// ones included. Returns the baseline and how many cells changed.
async fn write_changes(
    lake: &Lake,
    pinned: &Pinned,
    baseline: Option<&str>,
    started_at: &str,
) -> Result<(Option<String>, usize), Error> {
    let runs = history::runs(lake).await?;
    let baseline = match baseline {
        Some(b) => {
            if !runs.iter().any(|r| r.run_id == b) {
                return Err(RunError::NoBaseline(b.to_string()).into());
            }
            Some(b.to_string())
        }
        None => {
            changes::baseline(
                lake,
                &runs,
                &pinned.run_id,
                &pinned.manifest.portfolio,
                started_at,
            )
            .await?
        }
    };
    let Some(b) = baseline else {
        return Ok((None, 0));
    };
    let assets: Vec<String> = pinned.assets.iter().map(|(a, _)| a.clone()).collect();
    let rows = changes::between(lake, &b, &pinned.run_id, &assets).await?;
    for asset in &assets {
        let mine: Vec<CellChangeRow> = rows
            .iter()
            .filter(|r| &r.asset_id == asset)
            .cloned()
            .collect();
        put_part(
            lake,
            "cell_changes",
            &pinned.run_id,
            asset,
            &CellChangeRow::to_batch(&mine)?,
        )
        .await?;
    }
    Ok((Some(b), rows.len()))
}

/// Phase 3: the run manifest, written last (one per shard of a sharded run).
async fn write_manifest(lake: &Lake, m: &RunManifest, shard: Option<Shard>) -> Result<(), Error> {
    let bytes = serde_json::to_vec_pretty(m).map_err(|source| RunError::Encode {
        what: "the run manifest".into(),
        source,
    })?;
    let key = match shard {
        None => format!("runs/{}/manifest.json", m.run_id),
        Some(sh) => format!(
            "runs/{}/manifest-shard-{}-of-{}.json",
            m.run_id, sh.index, sh.count
        ),
    };
    lake.put_overwrite(&key, Bytes::from(bytes)).await?;
    Ok(())
}

/// Writes one asset's part of a run table (deterministic bytes; a rerun replaces it).
pub(crate) async fn put_part(
    lake: &Lake,
    table: &str,
    run_id: &str,
    asset: &str,
    b: &RecordBatch,
) -> Result<(), Error> {
    let bytes = crate::lake::tables::to_parquet(b)?;
    let key = format!("tables/{table}/run_id={run_id}/asset_id={asset}/part-0.parquet");
    lake.put_overwrite(&key, Bytes::from(bytes)).await?;
    Ok(())
}

/// Cells by status over a run's outcomes, for the summary.
pub fn status_totals(m: &RunManifest) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for s in Status::ALL {
        let n: usize = m
            .assets
            .values()
            .map(|a| a.cells_by_status.get(s.as_str()).copied().unwrap_or(0))
            .sum();
        out.insert(s.as_str(), n);
    }
    out
}

/// The stderr summary of a run: assets, cells by status, claims rejected by gate.
impl std::fmt::Display for RunOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = &self.manifest;
        let n = m.assets.len();
        let ms: f64 = m.assets.values().map(|a| a.reason_ms).sum();
        let claims: usize = m.assets.values().map(|a| a.claims).sum();
        let accepted: usize = m.assets.values().map(|a| a.accepted).sum();
        writeln!(
            f,
            "run {} on snapshot {}: {n} assets, {claims} claims ({accepted} accepted), reasoning {:.1} ms/asset, total {:.2}s",
            self.run_id,
            &m.snapshot_id[..12],
            ms / n.max(1) as f64,
            self.secs
        )?;
        if self.resumed_assets > 0 || self.rules_resumed {
            writeln!(
                f,
                "  resumed from the journal: {} of {n} assets{}",
                self.resumed_assets,
                if self.rules_resumed {
                    ", and the rules"
                } else {
                    ""
                }
            )?;
        }
        let st: Vec<String> = status_totals(m)
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        writeln!(f, "  cells by status: {}", st.join(", "))?;
        let mut gates: BTreeMap<&str, usize> = BTreeMap::new();
        for a in m.assets.values() {
            for (g, k) in &a.rejected_by_gate {
                *gates.entry(g.as_str()).or_default() += k;
            }
        }
        let g: Vec<String> = gates.iter().map(|(k, v)| format!("{k} {v}")).collect();
        writeln!(
            f,
            "  rejected by gate: {}",
            if g.is_empty() {
                "none".to_string()
            } else {
                g.join(", ")
            }
        )?;
        Ok(())
    }
}
