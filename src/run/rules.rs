//! Phase 2 of a run, once per chunk of the invocation's assets: the precedence rules of
//! `sql/` over the chunk's accepted claims and empty cells, giving each asset's
//! `profile_cells` and `conflicts`. Journaled under the hash of everything the rules read.

use std::collections::BTreeMap;

use datafusion::arrow::array::RecordBatch;
use serde::Serialize;

use crate::Error;
use crate::domain::sha256_hex;
use crate::lake::Lake;
use crate::lake::tables::{
    AcceptedRow, CellRow, ConflictRow, EmptyCellRow, RulesCellRow, Table, non_empty,
};
use crate::run::assets::Reasoned;
use crate::run::precedence::{self, Ranks};
use crate::run::{AssetOutcome, Journal, Pinned, put_part};

/// The journal entry of the rules step: per asset, cells by status and conflicts.
#[derive(Debug, Default, Serialize, serde::Deserialize)]
pub(crate) struct RulesEntry {
    assets: BTreeMap<String, (BTreeMap<String, usize>, usize)>,
}

/// What the rules step's journal key hashes: everything the rules read.
#[derive(Serialize)]
struct Inputs<'a> {
    accepted: &'a [AcceptedRow],
    empty: &'a [EmptyCellRow],
    snapshot: &'a str,
    ranks: Vec<(&'a str, i64)>,
    rules: Vec<String>,
}

/// Phase 2 over one chunk of assets: each asset's outcome completed with its cells by
/// status and conflicts, and whether the step came from the journal.
pub(crate) async fn apply(
    lake: &Lake,
    journal: &Journal,
    pinned: &Pinned,
    ranks: &Ranks,
    reasoned: Reasoned,
) -> Result<(BTreeMap<String, AssetOutcome>, bool), Error> {
    let mut outcomes = BTreeMap::new();
    let (mut accepted, mut empty) = (Vec::new(), Vec::new());
    for mut e in reasoned.entries {
        accepted.append(&mut e.accepted);
        empty.append(&mut e.empty);
        outcomes.insert(e.asset.clone(), e.outcome);
    }
    let inputs = Inputs {
        accepted: &accepted,
        empty: &empty,
        snapshot: pinned.snapshot_id.as_str(),
        ranks: ranks.0.iter().map(|(f, r)| (f.as_str(), *r)).collect(),
        rules: precedence::RULES
            .iter()
            .map(|(_, t)| sha256_hex(t.as_bytes()))
            .collect(),
    };
    let inputs = serde_json::to_string(&inputs).map_err(|source| crate::run::RunError::Encode {
        what: "the rules step's inputs".into(),
        source,
    })?;
    let key = journal.key("rules", &inputs);
    drop(inputs);
    if let Some(entry) = journal.read::<RulesEntry>(&key).await? {
        for (asset, (statuses, conflicts)) in entry.assets {
            if let Some(o) = outcomes.get_mut(&asset) {
                o.cells_by_status = statuses;
                o.conflicts = conflicts;
            }
        }
        return Ok((outcomes, true));
    }
    let rules = precedence::apply(
        AcceptedRow::to_batch(&accepted)?,
        EmptyCellRow::to_batch(&empty)?,
        ranks,
    )
    .await?;
    let mut entry = RulesEntry::default();
    let (all_cells, all_conflicts) = (by_asset(&rules.profile_cells)?, by_asset(&rules.conflicts)?);
    let none = rules.conflicts.slice(0, 0);
    let run_id = &pinned.run_id;
    for (asset, outcome) in outcomes.iter_mut() {
        let rows = all_cells
            .get(asset)
            .ok_or_else(|| Error::Internal(format!("the rules gave no cell for asset {asset}")))?;
        let cells = cells(pinned.snapshot_id.as_str(), rows)?;
        for c in &cells {
            *outcome.cells_by_status.entry(c.status.clone()).or_default() += 1;
        }
        let conflicts = conflicts(all_conflicts.get(asset).unwrap_or(&none))?;
        outcome.conflicts = conflicts.len();
        let cells = CellRow::to_batch(&cells)?;
        put_part(lake, CellRow::NAME, run_id, asset, &cells).await?;
        let conflicts = ConflictRow::to_batch(&conflicts)?;
        put_part(lake, ConflictRow::NAME, run_id, asset, &conflicts).await?;
        entry.assets.insert(
            asset.clone(),
            (outcome.cells_by_status.clone(), outcome.conflicts),
        );
    }
    journal.write(&key, &entry).await?;
    Ok((outcomes, false))
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

/// The typed readings of a cell's value (the verbatim value stays as it is): a date
/// where the value is one, else a number, and the number again as dollars where the unit
/// is USD.
fn type_value(c: &mut CellRow) {
    use crate::domain::typed;
    use crate::lake::tables::{Day, Number};
    let Some(v) = c.value.as_deref() else {
        return;
    };
    let unit = c.unit.as_deref().unwrap_or("");
    if let Some(d) = typed::date(v, typed::is_dated(&c.field, unit)) {
        c.value_date = Some(Day(typed::epoch_days(d)));
        return;
    }
    c.value_num = typed::number(v).map(Number);
    if unit.eq_ignore_ascii_case("USD") {
        c.value_usd = c.value_num;
    }
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
            value_num: None,
            value_date: None,
            value_usd: None,
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
        type_value(&mut c);
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
