//! Phase 1 of a run, per asset and `jobs` at a time: read the asset's bundle
//! (hash-checked), run the reasoner's steps, judge every claim (the gates and the
//! run-level checks), write the asset's `claims` and `rejections`, then journal the step.
//! An asset whose journal entry exists is taken from it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::RecordBatch;
use futures::{StreamExt, TryStreamExt};
use serde::Serialize;

use crate::Error;
use crate::domain::Claim;
use crate::domain::{Family, FamilyStatus, Hash256};
use crate::lake::Lake;
use crate::lake::bundle::{self, Row};
use crate::lake::manifest::SnapshotManifest;
use crate::lake::tables::{AcceptedRow, ClaimRow, EmptyCellRow, RejectionRow, Table};
use crate::run::evidence::Evidence;
use crate::run::gates::judge as gates_judge;
use crate::run::reason::{self, Input, Output, llm};
use crate::run::{AssetOutcome, AssetRun, Journal, Options, Pinned, RunError, profile, put_part};

/// The journal entry of one asset's step: what phase 2 needs from it.
#[derive(Debug, Serialize, serde::Deserialize)]
pub(crate) struct AssetEntry {
    pub asset: String,
    pub accepted: Vec<AcceptedRow>,
    pub empty: Vec<EmptyCellRow>,
    pub outcome: AssetOutcome,
}

/// What phase 1 hands to phase 2: the entries of one chunk of assets, in asset order.
pub(crate) struct Reasoned {
    pub entries: Vec<AssetEntry>,
}

/// What phases 1 and 2 did over every asset of the run.
pub(crate) struct Done {
    pub outcomes: BTreeMap<String, AssetOutcome>,
    /// Assets whose step was found in the journal.
    pub resumed: usize,
    /// Whether every chunk's rules step was found in the journal.
    pub rules_resumed: bool,
}

/// Phases 1 and 2 over every asset of the run: the assets are reasoned `jobs` at a time
/// in asset order, and each run of assets whose accepted claims and empty cells reach
/// `config::rules_chunk_rows()` rows goes through the rules before the next is gathered,
/// so memory holds one chunk's claims and not the portfolio's. Cells never cross assets,
/// so the chunks give the same cells as one pass over every asset. The chunks are cut the
/// same way on every rerun of the same assets, so each chunk's rules step resumes.
pub(crate) async fn reason_all(
    lake: &Lake,
    journal: &Journal,
    pinned: &Pinned,
    opts: &Options,
    client: Option<Arc<llm::Client>>,
    judge: Option<Arc<crate::run::judge::Client>>,
) -> Result<Done, Error> {
    let chunk_rows = crate::config::rules_chunk_rows()?;
    let bar = progress_bar(opts.progress, pinned.assets.len())?;
    let step = Step {
        lake,
        journal,
        pinned,
        client,
        judge,
        // the Debug spelling ("Extractive") is kept: it is part of existing journal keys
        reasoner: format!("{:?}", opts.reasoner),
        bar: &bar,
    };
    let mut steps = futures::stream::iter(&pinned.assets)
        .map(|(asset, bundle)| step.run(asset, bundle))
        .buffered(opts.jobs.max(1));
    let mut done = Done {
        outcomes: BTreeMap::new(),
        resumed: 0,
        rules_resumed: false,
    };
    let mut chunks = 0;
    let (mut chunk, mut rows) = (Vec::new(), 0);
    loop {
        let next = steps.try_next().await?;
        let last = next.is_none();
        if let Some((entry, resumed)) = next {
            done.resumed += usize::from(resumed);
            rows += entry.accepted.len() + entry.empty.len();
            chunk.push(entry);
            if rows < chunk_rows {
                continue;
            }
        }
        if !chunk.is_empty() {
            let entries = std::mem::take(&mut chunk);
            let (outcomes, resumed) =
                crate::run::rules::apply(lake, journal, pinned, &opts.ranks, Reasoned { entries })
                    .await?;
            done.outcomes.extend(outcomes);
            done.rules_resumed = resumed && (chunks == 0 || done.rules_resumed);
            chunks += 1;
            rows = 0;
        }
        if last {
            break;
        }
    }
    bar.finish_and_clear();
    Ok(done)
}

fn progress_bar(shown: bool, len: usize) -> Result<indicatif::ProgressBar, Error> {
    let bar = if shown {
        indicatif::ProgressBar::with_draw_target(
            Some(len as u64),
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
    Ok(bar)
}

/// One asset's step, with what every asset's step shares.
struct Step<'a> {
    lake: &'a Lake,
    journal: &'a Journal,
    pinned: &'a Pinned,
    client: Option<Arc<llm::Client>>,
    judge: Option<Arc<crate::run::judge::Client>>,
    reasoner: String,
    bar: &'a indicatif::ProgressBar,
}

impl Step<'_> {
    /// The asset's entry, and whether it came from the journal.
    async fn run(
        &self,
        asset: &String,
        bundle_hash: &Hash256,
    ) -> Result<(AssetEntry, bool), Error> {
        let p = self.pinned;
        let inputs = serde_json::json!({
            "asset": asset, "bundle": bundle_hash.as_str(), "snapshot": p.snapshot_id.as_str(),
            "reasoner": self.reasoner, "model": p.model,
            "llm_budget": self.client.as_ref().map(|c| c.budget()),
            "code": env!("CARGO_PKG_VERSION"),
            "assumptions": p.book.sha256(),
            "entailment": crate::run::gates::entailment::tables::tables().sha256,
            "judge": self.judge.as_ref().map(|j| crate::run::gates::entailment::Judge::model(j.as_ref()).to_string()),
        });
        let key = self.journal.key("asset", &inputs.to_string());
        if let Some(entry) = self.journal.read::<AssetEntry>(&key).await? {
            self.bar.inc(1);
            return Ok((entry, true));
        }
        let batches =
            crate::snapshot::read_bundle(self.lake, bundle_hash, &format!("asset {asset}")).await?;
        let (catalog, manifest, client) =
            (p.catalog.clone(), p.manifest.clone(), self.client.clone());
        let competitors = p.competitors.clone();
        let judge = self.judge.clone();
        let (asset_id, run_id, book) = (asset.clone(), p.run_id.clone(), p.book.clone());
        let handle = tokio::runtime::Handle::current();
        let r = crate::blocking(move || {
            let rows = bundle::rows_with(&batches, &competitors)?;
            let llm_fn = |input: &Input<'_>, out: &Output| match &client {
                Some(c) => c.claims(input, out, &handle),
                None => Ok((vec![], 0, 0)),
            };
            let judge = judge
                .as_deref()
                .map(|j| j as &dyn crate::run::gates::entailment::Judge);
            reason_asset(
                &run_id, &asset_id, &manifest, &rows, &catalog, &book, &llm_fn, judge,
            )
        })
        .await?;
        for (table, b) in [
            (ClaimRow::NAME, claims_batch(&p.run_id, &r)?),
            (RejectionRow::NAME, rejections_batch(&p.run_id, &r)?),
        ] {
            put_part(self.lake, table, &p.run_id, asset, &b).await?;
        }
        let entry = AssetEntry {
            asset: r.asset,
            accepted: r.accepted,
            empty: r.empty,
            outcome: r.outcome,
        };
        self.journal.write(&key, &entry).await?;
        self.bar.inc(1);
        Ok((entry, false))
    }
}

/// The LLM reasoner's part for one asset: its claims, prompt tokens and bundle tokens.
pub type LlmClaims<'a> =
    dyn Fn(&Input<'_>, &Output) -> Result<(Vec<Claim>, usize, usize), Error> + 'a;

/// Reasons over one asset's bundle and judges the claims against the bundle's records
/// (a claim citing another record of the snapshot's `catalog` fails the scope rule).
/// Pure apart from the LLM call (which `llm` memoizes).
pub fn reason_asset(
    run_id: &str,
    asset_id: &str,
    manifest: &SnapshotManifest,
    rows: &[Row],
    catalog: &Evidence,
    book: &crate::run::reason::valuation::Book,
    llm_claims: &LlmClaims<'_>,
    judge: Option<&dyn crate::run::gates::entailment::Judge>,
) -> Result<AssetRun, Error> {
    let t = Instant::now();
    let entry = &manifest.assets[asset_id];
    let asset = manifest
        .portfolio
        .asset
        .iter()
        .find(|a| a.id.as_str() == asset_id)
        .ok_or_else(|| RunError::NotInPortfolio(asset_id.to_string()))?;
    let families: BTreeMap<Family, FamilyStatus> =
        entry.families.iter().map(|(f, o)| (*f, o.status)).collect();
    let input = Input::new(asset, &families, rows).with_book(book);
    let out = reason::extractive(&input);
    let valuation_ms = out.step_ms.get("valuation").copied().unwrap_or(0.0);
    let (extra, prompt_tokens, bundle_tokens) = llm_claims(&input, &out)?;
    let mut claims = out.claims.clone();
    claims.extend(extra);
    // the bundle's rows are the asset's members (a run's manifest leaves them out)
    let scope = crate::run::gates::Scope::with_members(
        asset,
        rows.iter().filter_map(|r| {
            Some((
                r.source_id.clone(),
                crate::snapshot::resolve::Role::parse(&r.role)?,
            ))
        }),
    );
    let ev = Evidence::of_bundle(
        rows,
        catalog,
        claims.iter().filter_map(|c| c.source.as_deref()),
    );
    let ev = &ev;
    let verdicts = gates_judge(&claims, out.claims.len(), ev, scope, judge);
    let cutoffs: Vec<Option<String>> = claims
        .iter()
        .zip(&verdicts)
        .map(|(c, v)| data_cutoff(c, v.source_id.as_deref(), ev))
        .collect();
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
                *outcome
                    .rejected_by_gate
                    .entry(g.as_str().to_string())
                    .or_default() += 1;
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
            label: c.label.as_str().to_string(),
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
            cutoff_date: data_cutoff(c, sid.as_deref(), ev),
        });
    }
    let empty = profile::empty_cells(
        &filled,
        &profile::Context {
            families: &families,
            skipped: &out.skipped,
            unpublished: &out.unpublished,
            undecided: &out.undecided,
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
    outcome.valuation_ms = valuation_ms;
    Ok(AssetRun {
        asset: asset_id.to_string(),
        claims,
        verdicts,
        cutoffs,
        accepted,
        empty,
        outcome,
    })
}

/// The data cutoff a claim competes with: its record's, except for a trial's numbers read
/// from a paper or a press page, whose date is when it was published, not when its data
/// were cut: those compete at the data cutoff their text states ("data cutoff: January
/// 31, 2026"), else at an unknown cutoff, by family rank.
fn data_cutoff(c: &Claim, source_id: Option<&str>, ev: &Evidence) -> Option<String> {
    let s = source_id?;
    let family = s.split(':').next().unwrap_or("");
    let arm_level = profile::spec(&c.field).is_some_and(|f| f.arm_bound);
    if arm_level && matches!(family, "pubmed" | "press") {
        return ev.stated_cutoff(s);
    }
    ev.cutoff_of(s)
}

/// The `claims` rows of one asset.
pub fn claims_batch(run_id: &str, r: &AssetRun) -> Result<RecordBatch, Error> {
    let rows: Vec<ClaimRow> = r
        .claims
        .iter()
        .zip(&r.verdicts)
        .zip(&r.cutoffs)
        .map(|((c, v), cutoff)| ClaimRow {
            run_id: run_id.to_string(),
            claim_id: c.id.clone(),
            asset_id: c.asset.clone(),
            field: c.field.clone(),
            endpoint: c.endpoint.clone(),
            population: c.population.clone(),
            arm: c.arm.clone(),
            value: c.value.clone(),
            unit: c.unit.clone(),
            label: c.label.as_str().to_string(),
            source: c.source.clone(),
            source_id: v.source_id.clone(),
            url: v.url.clone(),
            quote: c.quote.clone(),
            locator: c.locator.clone(),
            cutoff_date: cutoff.clone(),
            inputs: (!c.inputs.is_empty()).then(|| c.inputs.join(",")),
            formula: c.formula.clone(),
            origin: c.id.split('-').next().unwrap_or("").to_string(),
            accepted: v.accepted(),
            entailment: v.entailment.map(|e| e.as_str().to_string()),
            entailment_note: v
                .undecided
                .clone()
                .or_else(|| v.judged_by.as_ref().map(|j| format!("judged by {j}"))),
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
                gate: g.as_str().to_string(),
                reason: v.reason.clone(),
                rule: (*g == crate::run::gates::Gate::Entailment)
                    .then(|| v.rule.map(|r| r.as_str().to_string()))
                    .flatten(),
                value: c.value.clone(),
                source: c.source.clone(),
                quote: c.quote.clone(),
            });
        }
    }
    Ok(RejectionRow::to_batch(&rows)?)
}
