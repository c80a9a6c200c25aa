//! `dossier run`: Layer 2 over a pinned snapshot. Phase 1, per asset: read its bundle
//! (hash-checked), run the reasoner's steps, put every claim through the gates and the
//! run-level schema and binding checks, and write the asset's `claims` and `rejections`.
//! Phase 2, once for all assets: the precedence rules of `sql/` over every accepted
//! claim, giving `profile_cells` and `conflicts`. Each table is one deterministic Parquet
//! file per asset under `tables/<table>/run_id=<run>/asset_id=<asset>/`, so a rerun of
//! one asset replaces exactly its rows. The run manifest goes last.

pub mod distill;
pub mod evidence;
pub mod gates;
pub mod precedence;
pub mod profile;
pub mod reason;
pub mod verify;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use datafusion::arrow::array::RecordBatch;
use serde::Serialize;

use crate::Error;
use crate::domain::claims::{Claim, ClaimLine, Label};
use crate::domain::model::{Family, FamilyStatus, Hash256, sha256_hex};
use crate::lake::Lake;
use crate::lake::bundle::{self, Row};
use crate::lake::manifest::SnapshotManifest;
use crate::lake::tables::{
    AcceptedRow, CellRow, ClaimRow, ConflictRow, EmptyCellRow, RejectionRow, RulesCellRow, Table,
    non_empty,
};
use crate::run::evidence::Evidence;
use crate::run::gates::{Gate, Verdict};
use crate::run::profile::Status;
use crate::run::reason::{Input, Output, llm};

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
    /// Family ranks for the precedence rules.
    pub ranks: precedence::Ranks,
    /// Only the assets of this shard.
    pub shard: Option<Shard>,
    /// Assets reasoned at the same time.
    pub jobs: usize,
    /// A progress bar on stderr (drawn only when stderr is a terminal).
    pub progress: bool,
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
        let bad = || Error::Invalid(format!("--shard {s:?}: use i/N with 0 <= i < N, e.g. 0/4"));
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
}

/// Everything a run computed for one asset (pure part of the run).
pub struct AssetRun {
    pub asset: String,
    pub claims: Vec<Claim>,
    pub verdicts: Vec<Verdict>,
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
pub fn default_run_id(snapshot: &Hash256, reasoner: Reasoner, model: Option<&str>) -> String {
    let text = format!(
        "{snapshot}\n{reasoner:?}\n{}\n{}",
        model.unwrap_or(""),
        env!("CARGO_PKG_VERSION")
    );
    format!("r-{}", &sha256_hex(text.as_bytes())[..16])
}

/// Gates plus the run-level checks for one asset's claims. The first `structural` claims
/// are the extractive reasoner's: their accepted arm-level facts define which (source id,
/// locator) holds which cell's value, and every arm-level fact must match that binding.
pub fn judge(claims: &[Claim], structural: usize, ev: &Evidence) -> Vec<Verdict> {
    let lines: Vec<ClaimLine> = claims
        .iter()
        .map(|c| ClaimLine::Claim(Box::new(c.clone())))
        .collect();
    let mut verdicts = gates::verify(&lines, ev);
    let ok: Vec<bool> = verdicts.iter().map(Verdict::accepted).collect();
    let mut bound = BoundMap::new();
    for (c, v) in claims.iter().zip(&verdicts).take(structural) {
        if v.accepted()
            && c.label == Label::Fact
            && profile::spec(&c.field).is_some_and(|s| s.arm_bound)
            && let (Some(sid), Some(loc)) = (&v.source_id, &c.locator)
        {
            bound.insert(
                (sid.clone(), loc.clone()),
                (
                    c.field.clone(),
                    c.endpoint.clone().unwrap_or_default(),
                    c.population.clone().unwrap_or_default(),
                    c.arm.clone().unwrap_or_default(),
                ),
            );
        }
    }
    for (c, v) in claims.iter().zip(verdicts.iter_mut()) {
        let mut fail = |g: Gate, why: String| {
            v.verdict = "rejected";
            if !v.gates_failed.contains(&g) {
                v.gates_failed.push(g);
            }
            v.reason = if v.reason.is_empty() {
                why
            } else {
                format!("{}; {why}", v.reason)
            };
        };
        let Some(spec) = profile::spec(&c.field) else {
            fail(
                Gate::Schema,
                format!("{:?} is not a profile field", c.field),
            );
            continue;
        };
        if !spec.labels.is_empty() && !spec.labels.contains(&c.label) {
            fail(
                Gate::Schema,
                format!(
                    "{} takes only {:?} claims, not {:?}",
                    spec.name, spec.labels, c.label
                )
                .to_lowercase(),
            );
        }
        if spec.section() == "valuation" && c.label == Label::Fact {
            fail(Gate::Schema, "valuation is never a fact".into());
        }
        if c.label == Label::Modeled {
            let visible = !c.inputs.is_empty()
                && c.inputs.iter().all(|i| {
                    claims
                        .iter()
                        .position(|x| &x.id == i)
                        .is_some_and(|k| claims[k].label == Label::Assumption && ok[k])
                });
            if !visible {
                fail(
                    Gate::Label,
                    "a modeled claim must name its assumption claims, each accepted".into(),
                );
            }
        }
        if spec.arm_bound && c.label == Label::Fact {
            let key = (
                c.field.clone(),
                c.endpoint.clone().unwrap_or_default(),
                c.population.clone().unwrap_or_default(),
                c.arm.clone().unwrap_or_default(),
            );
            let at = v
                .source_id
                .clone()
                .zip(c.locator.clone())
                .and_then(|k| bound.get(&k));
            match at {
                Some(k) if *k == key => {}
                Some(k) => fail(
                    Gate::Binding,
                    format!(
                        "the value at {} belongs to {} / {} / {} / {}, not to the claimed cell",
                        c.locator.as_deref().unwrap_or(""),
                        k.0,
                        k.1,
                        k.2,
                        k.3
                    ),
                ),
                None => fail(
                    Gate::Binding,
                    "an arm-level value needs a locator to a posted result of the cited trial"
                        .into(),
                ),
            }
        }
    }
    verdicts
}

/// The LLM reasoner's part for one asset: its claims, prompt tokens and bundle tokens.
pub type LlmClaims<'a> =
    dyn Fn(&Input<'_>, &Output) -> Result<(Vec<Claim>, usize, usize), Error> + 'a;

pub type BoundMap = HashMap<(String, String), (String, String, String, String)>;

/// Reasons over one asset's bundle and judges the claims. Pure apart from the LLM call
/// (which `llm` memoizes).
pub fn reason_asset(
    run_id: &str,
    asset_id: &str,
    manifest: &SnapshotManifest,
    rows: &[Row],
    ev: &Evidence,
    llm_claims: &LlmClaims<'_>,
) -> Result<AssetRun, Error> {
    let t = Instant::now();
    let entry = &manifest.assets[asset_id];
    let asset = manifest
        .portfolio
        .asset
        .iter()
        .find(|a| a.id.as_str() == asset_id)
        .ok_or_else(|| Error::Invalid(format!("asset {asset_id:?} is not in the portfolio")))?;
    let families: BTreeMap<Family, FamilyStatus> =
        entry.families.iter().map(|(f, o)| (*f, o.status)).collect();
    let input = Input::new(asset, &families, rows);
    let out = reason::extractive(&input);
    let (extra, prompt_tokens, bundle_tokens) = llm_claims(&input, &out)?;
    let mut claims = out.claims.clone();
    claims.extend(extra);
    let verdicts = judge(&claims, out.claims.len(), ev);
    let mut accepted = Vec::new();
    let mut filled = BTreeSet::new();
    let mut rejected: BTreeMap<String, usize> = BTreeMap::new();
    let mut outcome = AssetOutcome {
        claims: claims.len(),
        prompt_tokens,
        bundle_tokens,
        ..AssetOutcome::default()
    };
    for (c, v) in claims.iter().zip(&verdicts) {
        if !v.accepted() {
            *rejected.entry(c.field.clone()).or_default() += 1;
            for g in &v.gates_failed {
                *outcome.rejected_by_gate.entry(gate_name(*g)).or_default() += 1;
            }
            continue;
        }
        outcome.accepted += 1;
        let Some(spec) = profile::spec(&c.field) else {
            continue; // unreachable: the schema check rejects unknown fields
        };
        filled.insert(spec.name);
        let sid = v.source_id.clone();
        let or_blank = |x: &Option<String>| x.clone().unwrap_or_default();
        accepted.push(AcceptedRow {
            run_id: run_id.to_string(),
            asset_id: asset_id.to_string(),
            section: spec.section().to_string(),
            field: c.field.clone(),
            endpoint: or_blank(&c.endpoint),
            population: or_blank(&c.population),
            arm: or_blank(&c.arm),
            value: c.value.clone(),
            unit: or_blank(&c.unit),
            label: label_name(c.label),
            family: sid
                .as_deref()
                .and_then(|s| s.split(':').next())
                .and_then(Family::parse)
                .map(|f| f.to_string()),
            claim_id: c.id.clone(),
            source_id: sid.clone(),
            url: v.url.clone(),
            quote: c.quote.clone(),
            locator: c.locator.clone(),
            cutoff_date: sid.as_deref().and_then(|s| ev.cutoff_of(s)),
        });
    }
    let empty = profile::empty_cells(
        &filled,
        &profile::Context {
            families: &families,
            skipped: &out.skipped,
            unpublished: &out.unpublished,
            rejected: &rejected,
        },
    )
    .into_iter()
    .map(|(f, st, detail)| EmptyCellRow {
        run_id: run_id.to_string(),
        asset_id: asset_id.to_string(),
        section: f.section().to_string(),
        field: f.name.to_string(),
        status: st.as_str().to_string(),
        detail,
    })
    .collect();
    outcome.reason_ms = t.elapsed().as_secs_f64() * 1e3;
    Ok(AssetRun {
        asset: asset_id.to_string(),
        claims,
        verdicts,
        accepted,
        empty,
        outcome,
    })
}

pub fn gate_name(g: Gate) -> String {
    serde_json::to_value(g)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn label_name(l: Label) -> String {
    serde_json::to_value(l)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The `claims` rows of one asset.
pub fn claims_batch(run_id: &str, r: &AssetRun, ev: &Evidence) -> Result<RecordBatch, Error> {
    let rows: Vec<ClaimRow> = r
        .claims
        .iter()
        .zip(&r.verdicts)
        .map(|(c, v)| ClaimRow {
            run_id: run_id.to_string(),
            claim_id: c.id.clone(),
            asset_id: c.asset.clone(),
            field: c.field.clone(),
            endpoint: c.endpoint.clone(),
            population: c.population.clone(),
            arm: c.arm.clone(),
            value: c.value.clone(),
            unit: c.unit.clone(),
            label: label_name(c.label),
            source: c.source.clone(),
            source_id: v.source_id.clone(),
            url: v.url.clone(),
            quote: c.quote.clone(),
            locator: c.locator.clone(),
            cutoff_date: v.source_id.as_ref().and_then(|s| ev.cutoff_of(s)),
            inputs: (!c.inputs.is_empty()).then(|| c.inputs.join(",")),
            formula: c.formula.clone(),
            origin: c.id.split('-').next().unwrap_or("").to_string(),
            accepted: v.accepted(),
        })
        .collect();
    Ok(ClaimRow::to_batch(&rows)?)
}

/// The `rejections` rows of one asset: one per failed gate.
pub fn rejections_batch(run_id: &str, r: &AssetRun) -> Result<RecordBatch, Error> {
    let mut rows = Vec::new();
    for (c, v) in r.claims.iter().zip(&r.verdicts) {
        for g in &v.gates_failed {
            rows.push(RejectionRow {
                run_id: run_id.to_string(),
                claim_id: c.id.clone(),
                asset_id: c.asset.clone(),
                field: c.field.clone(),
                gate: gate_name(*g),
                reason: v.reason.clone(),
                value: c.value.clone(),
                source: c.source.clone(),
                quote: c.quote.clone(),
            });
        }
    }
    Ok(RejectionRow::to_batch(&rows)?)
}

/// The dedup key of a cell: a hash of its identity and content within a run.
pub fn dedup_key(parts: &[Option<String>]) -> String {
    let text = serde_json::json!(parts).to_string();
    sha256_hex(text.as_bytes())[..32].to_string()
}

/// A rules output batch split by asset, in one pass (rows keep the rules' order).
fn by_asset(b: &RecordBatch) -> Result<BTreeMap<String, RecordBatch>, Error> {
    use datafusion::arrow::array::UInt32Array;
    use datafusion::arrow::compute::take_record_batch;
    let ids = precedence::column(b, "asset_id")?;
    let mut rows: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for i in 0..b.num_rows() {
        rows.entry(ids.value(i)).or_default().push(i as u32);
    }
    rows.into_iter()
        .map(|(asset, idx)| {
            Ok((
                asset.to_string(),
                take_record_batch(b, &UInt32Array::from(idx))?,
            ))
        })
        .collect()
}

/// The `profile_cells` rows of one asset, from the rules' output ('' becomes NULL).
pub fn cells(snapshot_id: &str, rules_cells: &RecordBatch) -> Result<Vec<CellRow>, Error> {
    let cell = |r: RulesCellRow| {
        let mut c = CellRow {
            run_id: r.run_id,
            snapshot_id: snapshot_id.to_string(),
            asset_id: r.asset_id,
            section: r.section,
            field: r.field,
            endpoint: non_empty(r.endpoint),
            population: non_empty(r.population),
            arm: non_empty(r.arm),
            value: non_empty(r.value),
            unit: non_empty(r.unit),
            label: non_empty(r.label),
            status: r.status,
            detail: non_empty(r.detail),
            family: non_empty(r.family),
            claim_id: non_empty(r.claim_id),
            source_id: non_empty(r.source_id),
            url: non_empty(r.url),
            quote: non_empty(r.quote),
            locator: non_empty(r.locator),
            cutoff_date: non_empty(r.cutoff_date),
            dedup_key: String::new(),
        };
        // identity and content: run, asset, field, key, value, unit, status, source
        c.dedup_key = dedup_key(&[
            Some(c.run_id.clone()),
            Some(c.asset_id.clone()),
            Some(c.field.clone()),
            c.endpoint.clone(),
            c.population.clone(),
            c.arm.clone(),
            c.value.clone(),
            c.unit.clone(),
            Some(c.status.clone()),
            c.source_id.clone(),
        ]);
        c
    };
    Ok(RulesCellRow::from_batch(rules_cells)?
        .into_iter()
        .map(cell)
        .collect())
}

/// The `conflicts` rows of one asset: the rules' output as is ('' becomes NULL).
pub fn conflicts(rules_conflicts: &RecordBatch) -> Result<Vec<ConflictRow>, Error> {
    Ok(ConflictRow::from_batch(rules_conflicts)?
        .into_iter()
        .map(|r| ConflictRow {
            endpoint: non_empty(r.endpoint),
            population: non_empty(r.population),
            arm: non_empty(r.arm),
            winner_value: non_empty(r.winner_value),
            winner_unit: non_empty(r.winner_unit),
            winner_source_id: non_empty(r.winner_source_id),
            winner_family: non_empty(r.winner_family),
            winner_cutoff: non_empty(r.winner_cutoff),
            other_value: non_empty(r.other_value),
            other_unit: non_empty(r.other_unit),
            other_source_id: non_empty(r.other_source_id),
            other_family: non_empty(r.other_family),
            other_cutoff: non_empty(r.other_cutoff),
            ..r
        })
        .collect())
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

/// The journal entry of one asset's step (reason, gate, write claims and rejections):
/// what phase 2 needs from it.
#[derive(Debug, Serialize, serde::Deserialize)]
struct AssetEntry {
    asset: String,
    accepted: Vec<AcceptedRow>,
    empty: Vec<EmptyCellRow>,
    outcome: AssetOutcome,
}

/// The journal entry of the rules step: per asset, cells by status and conflicts.
#[derive(Debug, Default, Serialize, serde::Deserialize)]
struct RulesEntry {
    assets: BTreeMap<String, (BTreeMap<String, usize>, usize)>,
}

/// `runs/<run>/journal/<step>/<sha256 of the step's inputs>.json`.
fn journal_key(run_id: &str, step: &str, inputs: &serde_json::Value) -> String {
    let hash = sha256_hex(inputs.to_string().as_bytes());
    format!("runs/{run_id}/journal/{step}/{hash}.json")
}

/// A finished step's entry, if the journal has one. Entries are written whole (an object
/// put), so one that does not parse was altered: an error naming it, not a silent redo.
async fn read_journal<T: serde::de::DeserializeOwned>(
    lake: &Lake,
    key: &str,
) -> Result<Option<T>, Error> {
    match lake.get(key).await {
        Ok(bytes) => serde_json::from_slice(&bytes).map(Some).map_err(|e| {
            Error::Invalid(format!(
                "{key}: journal entry does not parse ({e}); delete it to redo the step"
            ))
        }),
        Err(crate::lake::LakeError::NotFound { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Marks a step finished, after everything it writes is written. Put-if-absent: a
/// concurrent run that finished the same step first wrote the same content.
async fn write_journal<T: Serialize>(lake: &Lake, key: &str, entry: &T) -> Result<(), Error> {
    let bytes =
        serde_json::to_vec(entry).map_err(|e| Error::Internal(format!("encoding {key}: {e}")))?;
    lake.put_if_absent(key, Bytes::from(bytes)).await?;
    Ok(())
}

pub const RUN_FORMAT: &str = "dossier.run.v1";

/// Runs the reasoner over the chosen assets of a snapshot and writes the tables.
pub async fn run(lake: &Lake, opts: Options) -> Result<RunOutcome, Error> {
    let t = Instant::now();
    let started_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let (snap_id, manifest, ev) = crate::run::verify::evidence(lake, &opts.snapshot).await?;
    if let Some(a) = opts
        .assets
        .iter()
        .find(|a| !manifest.assets.contains_key(*a))
    {
        return Err(Error::Invalid(format!(
            "asset {a:?} is not in the snapshot"
        )));
    }
    let model = match (opts.reasoner, &opts.llm) {
        (Reasoner::Llm, Some(cfg)) => Some(cfg.model.clone()),
        (Reasoner::Llm, None) => {
            return Err(Error::Invalid(
                "--reasoner llm needs an endpoint: set DOSSIER_LLM_BASE_URL and DOSSIER_LLM_MODEL (or --llm-base-url/--llm-model)".into(),
            ));
        }
        _ => None,
    };
    let run_id = match &opts.run_id {
        Some(id) if valid_run_id(id) => id.clone(),
        Some(id) => {
            return Err(Error::Invalid(format!(
                "run id {id:?}: use 1 to 64 of a-z, 0-9, '-' and '_'"
            )));
        }
        None => default_run_id(&snap_id, opts.reasoner, model.as_deref()),
    };
    let ev = Arc::new(ev);
    let manifest = Arc::new(manifest);
    let client = match (opts.reasoner, opts.llm) {
        (Reasoner::Llm, Some(cfg)) => Some(Arc::new(llm::Client::new(cfg, lake.clone(), &run_id)?)),
        _ => None,
    };
    let handle = tokio::runtime::Handle::current();
    let chosen: Vec<(String, Hash256)> = manifest
        .assets
        .iter()
        .filter(|(a, _)| opts.assets.is_empty() || opts.assets.contains(*a))
        .filter(|(a, _)| opts.shard.is_none_or(|sh| sh.holds(a)))
        .map(|(a, e)| (a.clone(), e.bundle.clone()))
        .collect();
    // Phase 1, per asset, `jobs` at a time: reason, gate, write claims and rejections,
    // then journal the step. An asset whose entry exists is taken from the journal.
    let llm_budget = client.as_ref().map(|c| c.budget());
    let (snap, reasoner) = (snap_id.as_str(), format!("{:?}", opts.reasoner));
    let reasoner = reasoner.as_str();
    use futures::{StreamExt, TryStreamExt};
    let bar = if opts.progress {
        indicatif::ProgressBar::with_draw_target(
            Some(chosen.len() as u64),
            indicatif::ProgressDrawTarget::stderr(),
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} assets {elapsed} (eta {eta})",
        )
        .map_err(|e| Error::Internal(format!("progress template: {e}")))?
        .progress_chars("=> "),
    );
    bar.set_prefix("reasoning");
    let bar = &bar;
    let mut done: Vec<(AssetEntry, bool)> = futures::stream::iter(chosen)
        .map(|(asset, bundle_hash)| {
            let (ev, manifest, client, handle, run_id, model) = (
                ev.clone(),
                manifest.clone(),
                client.clone(),
                handle.clone(),
                run_id.clone(),
                model.clone(),
            );
            async move {
                let key = journal_key(
                    &run_id,
                    "asset",
                    &serde_json::json!({
                        "asset": asset, "bundle": bundle_hash.as_str(), "snapshot": snap,
                        "reasoner": reasoner, "model": model,
                        "llm_budget": llm_budget, "code": env!("CARGO_PKG_VERSION"),
                    }),
                );
                if let Some(entry) = read_journal::<AssetEntry>(lake, &key).await? {
                    bar.inc(1);
                    return Ok::<_, Error>((entry, true));
                }
                let batches =
                    crate::snapshot::read_bundle(lake, &bundle_hash, &format!("asset {asset}"))
                        .await?;
                let (ev2, a2, r2) = (ev.clone(), asset.clone(), run_id.clone());
                let r = crate::blocking(move || {
                    let rows = bundle::rows(&batches);
                    let llm_fn = |input: &Input<'_>, out: &Output| match &client {
                        Some(c) => c.claims(input, out, &handle),
                        None => Ok((vec![], 0, 0)),
                    };
                    reason_asset(&r2, &a2, &manifest, &rows, &ev2, &llm_fn)
                })
                .await?;
                for (table, b) in [
                    (ClaimRow::NAME, claims_batch(&run_id, &r, &ev)?),
                    (RejectionRow::NAME, rejections_batch(&run_id, &r)?),
                ] {
                    put_part(lake, table, &run_id, &asset, &b).await?;
                }
                let entry = AssetEntry {
                    asset: r.asset,
                    accepted: r.accepted,
                    empty: r.empty,
                    outcome: r.outcome,
                };
                write_journal(lake, &key, &entry).await?;
                bar.inc(1);
                Ok((entry, false))
            }
        })
        .buffer_unordered(opts.jobs.max(1))
        .try_collect()
        .await?;
    bar.finish_and_clear();
    done.sort_by(|a, b| a.0.asset.cmp(&b.0.asset));
    let resumed_assets = done.iter().filter(|d| d.1).count();
    let mut outcomes = BTreeMap::new();
    let (mut accepted, mut empty) = (Vec::new(), Vec::new());
    for (mut e, _) in done {
        accepted.append(&mut e.accepted);
        empty.append(&mut e.empty);
        outcomes.insert(e.asset.clone(), e.outcome);
    }
    // Phase 2, once over every asset of this invocation: the precedence rules, journaled
    // under the hash of everything they read.
    let rules_key = journal_key(
        &run_id,
        "rules",
        &serde_json::json!({
            "accepted": accepted, "empty": empty, "snapshot": snap_id.as_str(),
            "ranks": opts.ranks.0.iter().map(|(f, r)| (f.as_str(), r)).collect::<Vec<_>>(),
            "rules": precedence::RULES.iter().map(|(_, t)| sha256_hex(t.as_bytes())).collect::<Vec<_>>(),
        }),
    );
    let rules_resumed = match read_journal::<RulesEntry>(lake, &rules_key).await? {
        Some(entry) => {
            for (asset, (statuses, conflicts)) in entry.assets {
                if let Some(o) = outcomes.get_mut(&asset) {
                    o.cells_by_status = statuses;
                    o.conflicts = conflicts;
                }
            }
            true
        }
        None => {
            let rules = precedence::apply(
                AcceptedRow::to_batch(&accepted)?,
                EmptyCellRow::to_batch(&empty)?,
                &opts.ranks,
            )
            .await?;
            let mut entry = RulesEntry::default();
            let (all_cells, all_conflicts) =
                (by_asset(&rules.profile_cells)?, by_asset(&rules.conflicts)?);
            let none = rules.conflicts.slice(0, 0);
            for (asset, outcome) in outcomes.iter_mut() {
                let rows = all_cells.get(asset).ok_or_else(|| {
                    Error::Internal(format!("the rules gave no cell for asset {asset}"))
                })?;
                let cells = cells(snap_id.as_str(), rows)?;
                for c in &cells {
                    *outcome.cells_by_status.entry(c.status.clone()).or_default() += 1;
                }
                let conflicts = conflicts(all_conflicts.get(asset).unwrap_or(&none))?;
                outcome.conflicts = conflicts.len();
                put_part(
                    lake,
                    CellRow::NAME,
                    &run_id,
                    asset,
                    &CellRow::to_batch(&cells)?,
                )
                .await?;
                put_part(
                    lake,
                    ConflictRow::NAME,
                    &run_id,
                    asset,
                    &ConflictRow::to_batch(&conflicts)?,
                )
                .await?;
                entry.assets.insert(
                    asset.clone(),
                    (outcome.cells_by_status.clone(), outcome.conflicts),
                );
            }
            write_journal(lake, &rules_key, &entry).await?;
            false
        }
    };
    let run_manifest = RunManifest {
        format: RUN_FORMAT.into(),
        run_id: run_id.clone(),
        snapshot_id: snap_id.to_string(),
        reasoner: format!("{:?}", opts.reasoner).to_lowercase(),
        model,
        code_version: env!("CARGO_PKG_VERSION").into(),
        family_ranks: opts
            .ranks
            .0
            .iter()
            .map(|(f, r)| (f.to_string(), *r))
            .collect(),
        started_at,
        finished_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        assets: outcomes,
    };
    let bytes = serde_json::to_vec_pretty(&run_manifest)
        .map_err(|e| Error::Invalid(format!("encoding the run manifest: {e}")))?;
    let key = match opts.shard {
        None => format!("runs/{run_id}/manifest.json"),
        Some(sh) => format!(
            "runs/{run_id}/manifest-shard-{}-of-{}.json",
            sh.index, sh.count
        ),
    };
    lake.put_overwrite(&key, Bytes::from(bytes)).await?;
    Ok(RunOutcome {
        run_id,
        manifest: run_manifest,
        secs: t.elapsed().as_secs_f64(),
        resumed_assets,
        rules_resumed,
    })
}

/// Writes one asset's part of a run table (deterministic bytes; a rerun replaces it).
async fn put_part(
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
