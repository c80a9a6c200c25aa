//! `dossier report`: the analyst's view of a run, one page per asset and an index, as
//! HTML or Markdown. Every cell shows its status in words, a label badge when it is not a
//! plain fact, the value, the verbatim quote and a link to the cited record's deep link;
//! conflicts show both sides. Source text is hostile: HTML goes through maud, which
//! escapes every interpolated string, behind a Content-Security-Policy that allows no
//! script at all; Markdown escapes its own syntax and HTML. Only `http(s)` catalog URLs
//! become links.

use std::collections::BTreeMap;

use datafusion::prelude::{SessionContext, col, lit};
use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::Error;
use crate::access::AccessError;
use crate::access::comparison;
use crate::access::present::{self, value_of};
use crate::access::sql::RunRow;
use crate::lake::tables::{
    CellChangeRow, ClaimRow, ProfileConflictRow, ProfileRow, RejectionRow, Table,
};
use crate::run::profile;

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Format {
    Html,
    Md,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Md => "md",
        }
    }
}

/// One profile cell as the report shows it: a row of the `profile` view.
pub type Cell = ProfileRow;

/// One side of a conflict.
#[derive(Clone, Debug, Default)]
pub struct Side {
    pub value: Option<String>,
    pub unit: Option<String>,
    pub family: Option<String>,
    pub cutoff: Option<String>,
    pub url: Option<String>,
    pub source_id: Option<String>,
    pub quote: Option<String>,
    /// The cited record's title and retrieval time, from the catalog.
    pub title: Option<String>,
    pub retrieved_at: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Conflict {
    pub field: String,
    pub endpoint: Option<String>,
    pub population: Option<String>,
    pub arm: Option<String>,
    pub resolution: String,
    pub winner: Side,
    pub other: Side,
}

/// Everything one asset's page shows.
#[derive(Clone, Debug, Default)]
pub struct AssetPage {
    pub cells: Vec<Cell>,
    pub conflicts: Vec<Conflict>,
    /// The cells that changed since the run's baseline, by (field, endpoint, population,
    /// arm); values kept and re-cited to a newer record are left out.
    pub changes: BTreeMap<CellKey, CellChangeRow>,
    /// "since run R, DATE" when there are changes.
    pub since: String,
    /// The asset's accepted claims by id: the inputs that derived and inferred cells
    /// name.
    pub claims: BTreeMap<String, ClaimRow>,
    /// Title, URL and retrieval time of the records those inputs cite.
    pub sources: BTreeMap<String, SourceRef>,
    /// The asset's claims the entailment gate dropped: a verbatim quote under a claim it
    /// does not make.
    pub dropped: Vec<RejectionRow>,
}

/// A catalog record as a citation shows it.
#[derive(Clone, Debug, Default)]
pub struct SourceRef {
    pub title: Option<String>,
    pub url: Option<String>,
    pub retrieved_at: Option<String>,
    pub family: Option<String>,
}

/// A cell's place in its asset's profile: field, endpoint, population, arm.
pub type CellKey = (String, Option<String>, Option<String>, Option<String>);

/// The run a report's changes are counted from, and when it finished.
pub struct Baseline {
    pub run_id: String,
    pub finished_at: String,
}

/// A run's report data: its manifest row and each asset's cells and conflicts.
pub struct RunReport {
    pub run: RunRow,
    pub assets: BTreeMap<String, AssetPage>,
    /// Where `changes` are counted from (none for a portfolio's first run).
    pub baseline: Option<Baseline>,
}

/// The status in the analyst's words, and what to do about it.
pub fn status_words(status: &str) -> (&'static str, &'static str) {
    match status {
        "value" => (
            "Value",
            "passed every gate and won precedence: read it, follow the citation",
        ),
        "conflicting" => (
            "Sources disagree",
            "two values survived the rules: look at both sources",
        ),
        "not_yet_published" => (
            "Not yet published",
            "the source exists but has not posted this: wait or ask the company",
        ),
        "source_empty" => (
            "Nothing in source",
            "the source was checked and has nothing here",
        ),
        "skipped" => (
            "Skipped",
            "not attempted on purpose: decide whether it matters",
        ),
        "fetch_failed" => (
            "Fetch failed",
            "the snapshot could not fetch the source: re-run the snapshot",
        ),
        _ => ("Unknown status", "a status this report does not know"),
    }
}

/// The label badge of a claim that is not a plain fact (`None` for a fact).
pub fn label_words(label: &str) -> Option<(&'static str, &'static str)> {
    match label {
        "fact" | "" => None,
        "derived" => Some(("Derived", "computed from quoted facts by a stated formula")),
        "inference" => Some((
            "Inference",
            "reasoned from quoted facts, not stated in a source",
        )),
        "assumption" => Some(("Assumption", "an input chosen, not found")),
        "modeled" => Some((
            "Model output",
            "the output of a model over visible assumptions",
        )),
        "hypothesis" => Some((
            "Hypothesis",
            "a possibility worth checking, not supported yet",
        )),
        _ => Some(("Unknown label", "a label this report does not know")),
    }
}

pub fn resolution_words(resolution: &str) -> &'static str {
    match resolution {
        "later_cutoff" => "the later data cutoff wins",
        "family_rank" => "the higher-ranked source family wins",
        "unresolved" => "unresolved: both values stand",
        _ => "unknown resolution",
    }
}

/// A URL that may become a link: absolute `http` or `https`, re-serialized (so quotes,
/// spaces and angle brackets are percent-encoded).
pub fn safe_link(url: Option<&str>) -> Option<String> {
    let u = url::Url::parse(url?).ok()?;
    matches!(u.scheme(), "http" | "https").then(|| u.to_string())
}

fn field_rank(field: &str) -> usize {
    profile::FIELDS
        .iter()
        .position(|f| f.name == field || f.name.ends_with(&format!(".{field}")))
        .unwrap_or(usize::MAX)
}

/// Loads the report of the session's current run (`current_run`), for one asset or all.
pub async fn load(
    ctx: &SessionContext,
    run: RunRow,
    asset: Option<&str>,
) -> Result<RunReport, Error> {
    let filtered = |table: &'static str| async move {
        let df = ctx.table(table).await?;
        let df = match asset {
            Some(a) => df.filter(col("asset_id").eq(lit(a.to_string())))?,
            None => df,
        };
        Ok::<_, Error>(df.collect().await?)
    };
    let mut assets: BTreeMap<String, AssetPage> = BTreeMap::new();
    for cell in ProfileRow::from_batches(&filtered("profile").await?)? {
        assets
            .entry(cell.asset_id.clone())
            .or_default()
            .cells
            .push(cell);
    }
    // the quote behind each side of a conflict: the accepted claim with that value and source
    let mut quotes: BTreeMap<(String, String, String, String), String> = BTreeMap::new();
    let claims = ctx
        .table("claims")
        .await?
        .filter(col("run_id").eq(lit(run.run_id.clone())))?;
    let claims = match asset {
        Some(a) => claims.filter(col("asset_id").eq(lit(a.to_string())))?,
        None => claims,
    };
    let claims = claims
        .filter(col("accepted").eq(lit(true)))?
        .collect()
        .await?;
    let mut by_asset: BTreeMap<String, BTreeMap<String, ClaimRow>> = BTreeMap::new();
    for c in ClaimRow::from_batches(&claims)? {
        if let (Some(src), Some(q)) = (&c.source_id, c.quote.as_ref().filter(|q| !q.is_empty())) {
            quotes
                .entry((
                    c.asset_id.clone(),
                    c.field.clone(),
                    src.clone(),
                    c.value.clone(),
                ))
                .or_insert(q.clone());
        }
        by_asset
            .entry(c.asset_id.clone())
            .or_default()
            .insert(c.claim_id.clone(), c);
    }
    for r in ProfileConflictRow::from_batches(&filtered("profile_conflicts").await?)? {
        let quote = |src: &Option<String>, v: &Option<String>| {
            quotes
                .get(&(
                    r.asset_id.clone(),
                    r.field.clone(),
                    src.clone().unwrap_or_default(),
                    v.clone().unwrap_or_default(),
                ))
                .cloned()
        };
        let conflict = Conflict {
            winner: Side {
                quote: quote(&r.winner_source_id, &r.winner_value),
                value: r.winner_value.clone(),
                unit: r.winner_unit.clone(),
                family: r.winner_family.clone(),
                cutoff: r.winner_cutoff.clone(),
                url: r.winner_url.clone(),
                source_id: r.winner_source_id.clone(),
                title: r.winner_title.clone(),
                retrieved_at: r.winner_retrieved_at.clone(),
            },
            other: Side {
                quote: quote(&r.other_source_id, &r.other_value),
                value: r.other_value.clone(),
                unit: r.other_unit.clone(),
                family: r.other_family.clone(),
                cutoff: r.other_cutoff.clone(),
                url: r.other_url.clone(),
                source_id: r.other_source_id.clone(),
                title: r.other_title.clone(),
                retrieved_at: r.other_retrieved_at.clone(),
            },
            field: r.field,
            endpoint: r.endpoint,
            population: r.population,
            arm: r.arm,
            resolution: r.resolution,
        };
        assets
            .entry(r.asset_id)
            .or_default()
            .conflicts
            .push(conflict);
    }
    // the claims the entailment gate dropped, with its rule
    let dropped = ctx
        .table("rejections")
        .await?
        .filter(col("run_id").eq(lit(run.run_id.clone())))?
        .filter(col("gate").eq(lit("entailment")))?;
    let dropped = match asset {
        Some(a) => dropped.filter(col("asset_id").eq(lit(a.to_string())))?,
        None => dropped,
    };
    for r in RejectionRow::from_batches(&dropped.collect().await?)? {
        if let Some(page) = assets.get_mut(&r.asset_id) {
            page.dropped.push(r);
        }
    }
    for page in assets.values_mut() {
        page.dropped
            .sort_by(|a, b| (&a.field, &a.claim_id).cmp(&(&b.field, &b.claim_id)));
    }
    // the inputs of derived and inferred cells, and the records they cite
    let mut wanted: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (asset, page) in assets.iter_mut() {
        let Some(claims) = by_asset.remove(asset) else {
            continue;
        };
        page.claims = claims;
        for c in &page.cells {
            let Some(claim) = c.claim_id.as_ref().and_then(|id| page.claims.get(id)) else {
                continue;
            };
            for input in input_ids(claim) {
                if let Some(src) = page.claims.get(input).and_then(|i| i.source_id.clone()) {
                    wanted.entry(src).or_default().push(asset.clone());
                }
            }
            for a in agreeing(page, c) {
                if let Some(src) = a.source_id.clone() {
                    wanted.entry(src).or_default().push(asset.clone());
                }
            }
        }
    }
    if !wanted.is_empty() {
        let df = ctx
            .table("catalog")
            .await?
            .filter(col("snapshot_id").eq(lit(run.snapshot_id.clone())))?
            .collect()
            .await?;
        for r in crate::lake::tables::CatalogRow::from_batches(&df)? {
            let Some(pages) = wanted.get(&r.source_id) else {
                continue;
            };
            let src = SourceRef {
                title: r.title,
                url: Some(r.url),
                retrieved_at: r.retrieved_at,
                family: Some(r.family),
            };
            for a in pages {
                if let Some(page) = assets.get_mut(a) {
                    page.sources.insert(r.source_id.clone(), src.clone());
                }
            }
        }
    }
    for page in assets.values_mut() {
        page.cells.sort_by(|a, b| {
            (
                field_rank(&a.field),
                &a.endpoint,
                &a.population,
                &a.arm,
                &a.value,
            )
                .cmp(&(
                    field_rank(&b.field),
                    &b.endpoint,
                    &b.population,
                    &b.arm,
                    &b.value,
                ))
        });
    }
    // what changed since the baseline, where the lake keeps it
    let mut baseline = None;
    if ctx.table_exist("cell_changes")? {
        let df = ctx
            .table("cell_changes")
            .await?
            .filter(col("run_id").eq(lit(run.run_id.clone())))?;
        let df = match asset {
            Some(a) => df.filter(col("asset_id").eq(lit(a.to_string())))?,
            None => df,
        };
        for c in CellChangeRow::from_batches(&df.collect().await?)? {
            if baseline.is_none() {
                let when = ctx
                    .table("runs")
                    .await?
                    .filter(col("run_id").eq(lit(c.baseline_run_id.clone())))?
                    .collect()
                    .await?;
                let finished_at = when
                    .first()
                    .filter(|b| b.num_rows() > 0)
                    .and_then(|b| {
                        crate::run::precedence::column(b, "finished_at")
                            .ok()
                            .and_then(|a| crate::run::precedence::get(a, 0))
                    })
                    .unwrap_or_default();
                baseline = Some(Baseline {
                    finished_at,
                    run_id: c.baseline_run_id.clone(),
                });
            }
            if c.change == "recited" || c.change.starts_with("conflict_") {
                continue;
            }
            if let Some(page) = assets.get_mut(&c.asset_id) {
                let key = (
                    c.field.clone(),
                    c.endpoint.clone(),
                    c.population.clone(),
                    c.arm.clone(),
                );
                page.changes.insert(key, c);
            }
        }
    }
    if let Some(a) = asset
        && !assets.contains_key(a)
    {
        let all = crate::run::precedence::collect_utf8(
            ctx,
            "SELECT DISTINCT asset_id FROM profile ORDER BY asset_id",
        )
        .await?;
        let ids = crate::run::precedence::column(&all, "asset_id")?;
        let known: Vec<String> = (0..all.num_rows())
            .filter_map(|i| crate::run::precedence::get(ids, i))
            .collect();
        return Err(AccessError::NoCells {
            asset: a.to_string(),
            run: run.run_id.clone(),
            known: crate::error::listing(known.iter(), 20),
        }
        .into());
    }
    let words = since(&baseline);
    for page in assets.values_mut() {
        page.since = words.clone();
    }
    Ok(RunReport {
        run,
        assets,
        baseline,
    })
}

/// The claim ids a derived, inferred or modeled claim names as its inputs.
pub fn input_ids(c: &ClaimRow) -> impl Iterator<Item = &str> {
    c.inputs
        .as_deref()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

fn key_of(endpoint: &Option<String>, population: &Option<String>, arm: &Option<String>) -> String {
    [endpoint, population, arm]
        .iter()
        .filter_map(|x| x.as_deref())
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A field without its section (the page groups cells by section already).
fn short_field(field: &str) -> &str {
    field.split_once('.').map_or(field, |(_, f)| f)
}

/// What a changed cell was, in words: `47.2 % → 48.0 %`, `not yet published → 68.1 %`.
pub fn change_words(c: &CellChangeRow) -> String {
    let side = |v: &Option<String>, u: &Option<String>, st: &Option<String>| match v {
        Some(_)
            if st
                .as_deref()
                .is_none_or(|s| s == "value" || s == "conflicting") =>
        {
            value_of(v, u)
        }
        _ => st
            .as_deref()
            .map(|s| status_words(s).0.to_lowercase())
            .unwrap_or_else(|| "absent".into()),
    };
    match c.change.as_str() {
        "added" => format!("new: {}", side(&c.new_value, &c.new_unit, &c.new_status)),
        "removed" => format!(
            "gone: was {}",
            side(&c.old_value, &c.old_unit, &c.old_status)
        ),
        _ => format!(
            "{} → {}",
            side(&c.old_value, &c.old_unit, &c.old_status),
            side(&c.new_value, &c.new_unit, &c.new_status)
        ),
    }
}

/// "since run R, DATE" for a report's baseline.
fn since(b: &Option<Baseline>) -> String {
    match b {
        Some(b) => format!(
            "since run {}{}",
            b.run_id,
            b.finished_at
                .get(..10)
                .map(|d| format!(", {d}"))
                .unwrap_or_default()
        ),
        None => String::new(),
    }
}

fn page_key(c: &Cell) -> CellKey {
    (
        c.field.clone(),
        c.endpoint.clone(),
        c.population.clone(),
        c.arm.clone(),
    )
}

fn counts(page: &AssetPage) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for c in &page.cells {
        *out.entry(status_words(&c.status).0).or_default() += 1;
    }
    out
}

/// The earliest and latest retrieval dates of the sources a page cites.
fn retrieval_span<'a>(dates: impl Iterator<Item = &'a str>) -> Option<(String, String)> {
    let mut all: Vec<String> = dates.filter_map(present::day).collect();
    all.sort();
    Some((all.first()?.to_string(), all.last()?.to_string()))
}

const STYLE: &str = "
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:78rem;padding:0 1rem;color:#1b1f24}
h1{margin-bottom:.2rem}table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}
th,td{border-bottom:1px solid #d8dee4;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f5f7;font-weight:600}.badge{display:inline-block;border-radius:.7rem;padding:.05rem .55rem;
font-size:.8rem;font-weight:600;white-space:nowrap;margin:0 .2rem .2rem 0}
.status-value{background:#d6f5dd;color:#11632a}.status-conflicting{background:#ffe1c2;color:#8a3c00}
.status-not_yet_published{background:#e4e7ff;color:#2b36a8}.status-source_empty{background:#eceff1;color:#44515c}
.status-skipped{background:#f2f2f2;color:#666}.status-fetch_failed{background:#ffd7d7;color:#9b1111}
.label{background:#fff4bf;color:#6b5200;border:1px solid #e3c75a}blockquote{margin:0 0 .3rem;padding:.1rem .5rem;
border-left:3px solid #b8c2cc;color:#39434d;white-space:pre-wrap;overflow-wrap:anywhere}
.value{font-weight:600;overflow-wrap:anywhere}.change{color:#8a3c00;font-size:.85rem;font-weight:600}.detail{color:#5c6770}.sides{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.side{border:1px solid #d8dee4;border-radius:.4rem;padding:.5rem .7rem}.winner{border-color:#58a06b}
table.comparison caption{text-align:left;font-weight:600;padding:.3rem 0}tr.analysis td{background:#f8f9fb}
figure.forest{margin:.5rem 0 1.5rem}figure.forest svg{max-width:100%;height:auto}figcaption{color:#5c6770;font-size:.85rem}
nav.crumbs{font-size:.9rem;margin-bottom:.4rem}section.header dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.4rem 0}
section.header dt{color:#5c6770;font-weight:600}section.header dd{margin:0}.headline{background:#f3f5f7;border-radius:.4rem;padding:.5rem .7rem;margin:.4rem 0 .8rem}
.stated{color:#5c6770;font-size:.85rem}.inputs{margin-top:.3rem;font-size:.88rem}.inputs ul{margin:.2rem 0;padding-left:1.1rem}.formula{font-style:italic}
.citation{font-size:.9rem}a.see-conflict{font-size:.85rem}
footer{margin-top:2rem;color:#5c6770;font-size:.85rem;border-top:1px solid #d8dee4;padding-top:.6rem}
";

const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

fn head(title: &str) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta http-equiv="Content-Security-Policy" content=(CSP);
            meta name="referrer" content="no-referrer";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) }
            style { (PreEscaped(STYLE)) }
        }
    }
}

fn status_badge(status: &str) -> Markup {
    let (words, hint) = status_words(status);
    html! {
        span class={ "badge status-" (status) } data-status=(status) title=(hint) { (words) }
    }
}

fn label_badge(label: Option<&str>) -> Markup {
    html! {
        @if let Some((words, hint)) = label.and_then(label_words) {
            span class="badge label" data-label=(label.unwrap_or_default()) title=(hint) { (words) }
        }
    }
}

fn citation(url: Option<&str>, text: &str) -> Markup {
    html! {
        @match safe_link(url) {
            Some(href) => a class="cite" href=(href) rel="noopener noreferrer" { (text) },
            None => span class="cite" { (text) },
        }
    }
}

fn footer(run: &RunRow, span: Option<(String, String)>) -> Markup {
    html! {
        footer {
            "Run " code { (run.run_id) } " (" (run.reasoner)
            @if let Some(m) = &run.model { ", " (m) }
            ", finished " (run.finished_at) ") over snapshot " code { (run.snapshot_id) } ". "
            @if let Some((first, last)) = span {
                @if first == last { "Sources retrieved " (first) "." }
                @else { "Sources retrieved " (first) " to " (last) "." }
            }
        }
    }
}

/// A cell's conflict key, with empty key parts as absent (the rules write '' for them).
fn conflict_key(
    field: &str,
    e: &Option<String>,
    p: &Option<String>,
    a: &Option<String>,
) -> CellKey {
    let norm = |x: &Option<String>| x.clone().filter(|s| !s.is_empty());
    (field.to_string(), norm(e), norm(p), norm(a))
}

/// Per conflict key, the anchor of its first conflict card.
fn conflict_anchors(page: &AssetPage) -> BTreeMap<CellKey, String> {
    let mut out = BTreeMap::new();
    for (i, x) in page.conflicts.iter().enumerate() {
        out.entry(conflict_key(&x.field, &x.endpoint, &x.population, &x.arm))
            .or_insert_with(|| format!("conflict-{i}"));
    }
    out
}

/// The source a side or input cites, in words: its record title, else its id.
/// Whether two stated values are one value as the rules read them: the same text, names
/// equal but for case and punctuation, or numbers that agree at the coarser one's
/// precision (`49` and `49.0`, `9.2` and `9.23`; `sql/15_agreement.sql`).
fn same_value(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let decimal = |x: &str| {
        let t = x.strip_prefix('-').unwrap_or(x);
        let (int, frac) = t.split_once('.').unwrap_or((t, ""));
        let ok = !int.is_empty()
            && int.bytes().all(|b| b.is_ascii_digit())
            && frac.bytes().all(|b| b.is_ascii_digit())
            && !(t.contains('.') && frac.is_empty());
        ok.then(|| (x.parse::<f64>().ok(), frac.len()))
            .and_then(|(n, d)| n.map(|n| (n, d)))
    };
    match (decimal(a), decimal(b)) {
        (Some((x, dx)), Some((y, dy))) => {
            let d = dx.min(dy) as i32;
            (x - y).abs() <= 0.5 * 10f64.powi(-d) + 1e-9
        }
        (None, None) => {
            let fold = |s: &str| -> String {
                s.chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase)
                    .collect()
            };
            fold(a) == fold(b)
        }
        _ => false,
    }
}

/// The other accepted claims that state a cell's value from a record: the same cell,
/// another claim, a value the rules count as the same, and not one that is closer to another value the
/// page shows for that cell (a competing row or a conflict's side).
fn agreeing<'a>(page: &'a AssetPage, c: &Cell) -> Vec<&'a ClaimRow> {
    let Some(v) = c.value.as_deref() else {
        return Vec::new();
    };
    let key = |e: &Option<String>, p: &Option<String>, a: &Option<String>| {
        (
            e.clone().unwrap_or_default(),
            p.clone().unwrap_or_default(),
            a.clone().unwrap_or_default(),
        )
    };
    let mine = key(&c.endpoint, &c.population, &c.arm);
    let others: Vec<&str> = page
        .cells
        .iter()
        .filter(|o| o.field == c.field && key(&o.endpoint, &o.population, &o.arm) == mine)
        .filter_map(|o| o.value.as_deref())
        .chain(
            page.conflicts
                .iter()
                .filter(|x| x.field == c.field && key(&x.endpoint, &x.population, &x.arm) == mine)
                .flat_map(|x| [x.winner.value.as_deref(), x.other.value.as_deref()])
                .flatten(),
        )
        .filter(|o| *o != v)
        .collect();
    page.claims
        .values()
        .filter(|x| {
            x.field == c.field
                && key(&x.endpoint, &x.population, &x.arm) == mine
                && Some(&x.claim_id) != c.claim_id.as_ref()
                && x.source_id.is_some()
                && x.unit == c.unit
                && same_value(&x.value, v)
                && !others
                    .iter()
                    .any(|o| *o == x.value || same_value(&x.value, o) && !same_value(o, v))
        })
        .collect()
}

fn family_of(c: &ClaimRow) -> Option<&str> {
    c.source_id.as_deref().and_then(|s| s.split(':').next())
}

fn source_name<'a>(title: Option<&'a str>, id: Option<&'a str>) -> &'a str {
    title.or(id).unwrap_or("source")
}

fn citation_line(
    url: Option<&str>,
    name: &str,
    family: Option<&str>,
    cutoff: Option<&str>,
    retrieved: Option<&str>,
) -> Markup {
    html! {
        span class="citation" {
            (citation(url, name))
            @if let Some(f) = family { " · " (f) }
            @if let Some(d) = cutoff { " · data cutoff " (d) }
            " · " span class="retrieved" title=(retrieved.unwrap_or("")) { (present::retrieved_words(retrieved)) }
        }
    }
}

/// The sensitivity view of a valuation: base rNPV and, per assumption, rNPV at its low
/// and high value, widest swing first (the order the valuation step wrote them in).
struct Tornado {
    base: f64,
    rows: Vec<(String, f64, f64)>,
}

impl Tornado {
    fn of(cells: &[Cell]) -> Option<Tornado> {
        let num = |c: &Cell| c.value_num.as_ref().map(|n| n.0);
        let base = cells
            .iter()
            .find(|c| c.field == "valuation.rnpv" && c.status == "value")
            .and_then(num)?;
        let mut rows: Vec<(String, f64, f64)> = Vec::new();
        for c in cells
            .iter()
            .filter(|c| c.field == "valuation.rnpv_sensitivity")
        {
            let (Some(key), Some(v)) = (c.endpoint.clone(), num(c)) else {
                continue;
            };
            let at = match rows.iter().position(|r| r.0 == key) {
                Some(i) => i,
                None => {
                    rows.push((key, base, base));
                    rows.len() - 1
                }
            };
            match c.population.as_deref() {
                Some("low") => rows[at].1 = v,
                Some("high") => rows[at].2 = v,
                _ => {}
            }
        }
        rows.sort_by(|a, b| (b.2 - b.1).abs().total_cmp(&(a.2 - a.1).abs()));
        (!rows.is_empty()).then_some(Tornado { base, rows })
    }

    fn svg(&self) -> Markup {
        let (w, row_h, label_w) = (680.0_f64, 26.0_f64, 210.0_f64);
        let lo = self
            .rows
            .iter()
            .map(|r| r.1.min(r.2))
            .fold(self.base, f64::min);
        let hi = self
            .rows
            .iter()
            .map(|r| r.1.max(r.2))
            .fold(self.base, f64::max);
        let span = (hi - lo).max(1.0);
        let x =
            |v: f64| ((label_w + (v - lo) / span * (w - label_w - 160.0)) * 10.0).round() / 10.0;
        let h = row_h * self.rows.len() as f64 + 10.0;
        html! {
            svg xmlns="http://www.w3.org/2000/svg" width=(w) height=(h) role="img" aria-label="rNPV sensitivity" {
                @for (i, (key, at_lo, at_hi)) in self.rows.iter().enumerate() {
                    @let y = 5.0 + row_h * i as f64;
                    text x="0" y=(y + 16.0) font-size="12" { (key) }
                    rect x=(x(at_lo.min(*at_hi))) y=(y + 3.0) width=((x(at_lo.max(*at_hi)) - x(at_lo.min(*at_hi))).max(1.0)) height=(row_h - 8.0) fill="#9db7d0" data-low=(at_lo) data-high=(at_hi) {}
                    text x=(x(at_lo.max(*at_hi)) + 4.0) y=(y + 16.0) font-size="11" fill="#5c6770" { (present::money(*at_lo)) " to " (present::money(*at_hi)) }
                }
                line x1=(x(self.base)) x2=(x(self.base)) y1="0" y2=(h) stroke="#333" stroke-dasharray="3 3" {}
            }
        }
    }

    fn markdown(&self) -> String {
        let mut out = format!(
            "\n## valuation: rNPV sensitivity (model output, not a fact; base {})\n\n| Assumption | rNPV at low | rNPV at high |\n|---|---|---|\n",
            present::money(self.base)
        );
        for (k, a, b) in &self.rows {
            out.push_str(&format!(
                "| {} | {} | {} |\n",
                md_escape(k),
                md_escape(&present::money(*a)),
                md_escape(&present::money(*b))
            ));
        }
        out
    }
}

/// How an input claim is named beside a model or formula: an assumption by its key
/// (`assumption discount_rate`), anything else by its field and arm.
fn input_name(i: &ClaimRow) -> String {
    if i.label == "assumption" {
        return format!("assumption {}", i.endpoint.as_deref().unwrap_or("?"));
    }
    [Some(short_field(&i.field).to_string()), i.arm.clone()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A claim's formula with its heading: an assumption's is its provenance.
fn formula_words(f: &str) -> (&'static str, &str) {
    match f.strip_prefix("provenance: ") {
        Some(p) => ("Provenance", p),
        None => ("Formula", f),
    }
}

/// The assumptions file (path, hash and key) an assumption claim was taken from.
/// The entailment rule's words, from its machine name in `rejections.rule`.
fn rule_words(rule: Option<&str>) -> &'static str {
    rule.and_then(|r| r.parse::<crate::run::gates::Rule>().ok())
        .map_or("another gate", |r| r.words())
}

/// What the entailment gate said of the cell's claim when it did not simply hold: no
/// rule decided it, or the judge did.
fn entailment_note(page: &AssetPage, c: &Cell) -> Option<String> {
    let claim = c.claim_id.as_deref().and_then(|id| page.claims.get(id))?;
    match (
        claim.entailment.as_deref(),
        claim.entailment_note.as_deref(),
    ) {
        (Some("undecided"), note) => Some(format!(
            "Entailment undecided: {}",
            note.unwrap_or("no rule could tell whether the quote says this")
        )),
        (Some("holds"), Some(note)) => Some(format!("Entailment holds ({note})")),
        _ => None,
    }
}

fn assumption_file(c: &ClaimRow) -> Option<&str> {
    c.locator
        .as_deref()
        .filter(|_| c.label == "assumption" && c.source.is_none())
}

/// The evidence of a derived or inferred cell: its formula and input claims, each
/// linked to the row that shows it or cited in place.
fn inputs_html(page: &AssetPage, c: &Cell, rows: &BTreeMap<&str, usize>) -> Markup {
    let claim = c.claim_id.as_deref().and_then(|id| page.claims.get(id));
    html! {
        @if let Some(claim) = claim.filter(|k| k.formula.is_some() || k.inputs.is_some()) {
            div class="inputs" {
                @if let Some(f) = &claim.formula {
                    @let (what, text) = formula_words(f);
                    div class="formula" { (what) ": " (text) }
                }
                @if let Some(book) = assumption_file(claim) { div class="book" { "From " code { (book) } } }
                ul {
                    @for id in input_ids(claim) {
                        li class="input" data-claim=(id) {
                            @match page.claims.get(id) {
                                Some(i) => {
                                    @let what = input_name(i);
                                    @match rows.get(id) {
                                        Some(r) => a href={ "#cell-" (r) } { (what) },
                                        None => span { (what) },
                                    }
                                    ": " span class="value" { (present::value_of(&Some(i.value.clone()), &i.unit)) }
                                    @if let Some(q) = i.quote.as_ref().filter(|q| !q.is_empty()) { " “" (q) "”" }
                                    @if let Some(src) = i.source_id.as_deref() {
                                        @let r = page.sources.get(src);
                                        " "
                                        (citation_line(
                                            r.and_then(|r| r.url.as_deref()).or(i.url.as_deref()),
                                            source_name(r.and_then(|r| r.title.as_deref()), Some(src)),
                                            r.and_then(|r| r.family.as_deref()),
                                            i.cutoff_date.as_deref(),
                                            r.and_then(|r| r.retrieved_at.as_deref()),
                                        ))
                                    }
                                },
                                None => { "claim " code { (id) } " (not among the run's accepted claims)" },
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The other sources that state a cell's value, each with its quote and citation.
fn agreeing_html(page: &AssetPage, c: &Cell) -> Markup {
    let also = agreeing(page, c);
    html! {
        @if !also.is_empty() {
            div class="agreeing" {
                div class="detail" { "Also stated by " (also.len()) " other claim(s):" }
                @for a in &also {
                    @let src = a.source_id.as_deref().and_then(|s| page.sources.get(s));
                    div class="also" data-family=(family_of(a).unwrap_or("")) {
                        @if Some(a.value.as_str()) != c.value.as_deref() {
                            span class="value" { (a.value) } " "
                        }
                        @if let Some(q) = &a.quote { blockquote class="quote" { (q) } }
                        (citation_line(
                            a.url.as_deref(),
                            source_name(src.and_then(|r| r.title.as_deref()), a.source_id.as_deref()),
                            family_of(a),
                            a.cutoff_date.as_deref(),
                            src.and_then(|r| r.retrieved_at.as_deref()),
                        ))
                    }
                }
            }
        }
    }
}

fn header_html(h: &present::Header) -> Markup {
    html! {
        section class="header" id="header" {
            dl {
                dt { "Sponsor" } dd data-header="sponsor" { (h.sponsor.as_deref().unwrap_or("not stated")) }
                dt { "Indication" } dd data-header="indication" { (h.indication.as_deref().unwrap_or("not stated")) }
                dt { "Lead trial" } dd data-header="lead_trial" { (h.lead_trial.as_deref().unwrap_or("no trial in the profile")) }
                dt { "Approval" } dd data-header="approval" { (h.approval) }
            }
            @if let Some(x) = &h.headline {
                div class="headline" data-header="headline" {
                    span class="detail" { "Headline · " (x.endpoint) } br;
                    @for (i, (arm, v, disputed)) in x.arms.iter().enumerate() {
                        @if i > 0 { " vs " }
                        (arm) " " span class="value" { (v) }
                        @if *disputed { " " a class="badge status-conflicting" href="#conflicts" { "Sources disagree" } }
                    }
                    @if let Some(c) = &x.comparison { br; span class="detail" { (c) } }
                }
            }
        }
    }
}

/// One asset's page as HTML.
pub fn asset_html(run: &RunRow, asset: &str, page: &AssetPage) -> String {
    let mut sections: Vec<(&str, Vec<(usize, &Cell)>)> = Vec::new();
    for (i, c) in page.cells.iter().enumerate() {
        match sections.last_mut() {
            Some((s, v)) if *s == c.section => v.push((i, c)),
            _ => sections.push((c.section.as_str(), vec![(i, c)])),
        }
    }
    let rows: BTreeMap<&str, usize> = page
        .cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.claim_id.as_deref().map(|id| (id, i)))
        .collect();
    let anchors = conflict_anchors(page);
    let span = retrieval_span(page.cells.iter().filter_map(|c| c.retrieved_at.as_deref()));
    let outcomes = comparison::outcomes(&page.cells);
    let forest = comparison::forest_svg(&comparison::forest_points(&outcomes));
    let header = present::header(&page.cells, &outcomes);
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            (head(&format!("{asset}: dossier profile")))
            body {
                nav class="crumbs" { a href="index.html" { "← All assets" } }
                h1 { (asset) }
                (header_html(&header))
                p class="summary" {
                    @for (words, n) in counts(page) { span class="count" { (words) ": " (n) } " " }
                }
                nav class="sections" {
                    @for (s, _) in &sections { a href={ "#" (s) } { (s) } " " }
                    @if !page.conflicts.is_empty() { a href="#conflicts" { "conflicts (" (page.conflicts.len()) ")" } }
                }
                @for (s, cells) in &sections {
                    section id=(s) {
                        h2 { (s) }
                        @if *s == "efficacy" && !outcomes.is_empty() {
                            h3 { "Outcomes, arms side by side" }
                            @if let Some(svg) = &forest {
                                figure class="forest" {
                                    (svg)
                                    figcaption { "Ratio estimates (hazard, odds, risk) with their posted intervals, log scale; the dashed line is no effect (1). Differences are in the tables." }
                                }
                            }
                            @for o in &outcomes { (comparison::outcome_html(o)) }
                            h3 { "Every efficacy cell" }
                        }
                        @if *s == "valuation" && let Some(t) = Tornado::of(&page.cells) {
                            h3 { "How much of rNPV is opinion" }
                            figure class="tornado" {
                                (t.svg())
                                figcaption { "Model output, not a fact: rNPV with one assumption at its low or high value, every other input at base (" (present::money(t.base)) "). The assumptions and the formula are in the table below." }
                            }
                        }
                        table class="cells" {
                            thead { tr { th { "Field" } th { "Endpoint · population · arm" } th { "Status" } th { "Value" } th { "Evidence" } } }
                            tbody {
                                @for (i, c) in cells {
                                    @let shown = present::shown(c);
                                    @let conflict = anchors.get(&conflict_key(&c.field, &c.endpoint, &c.population, &c.arm));
                                    tr class="cell" id={ "cell-" (i) } data-status=(c.status) data-field=(c.field) {
                                        td { (short_field(&c.field)) }
                                        td { (key_of(&present::endpoint_shown(c), &c.population, &c.arm)) }
                                        td { (status_badge(&c.status)) (label_badge(c.label.as_deref())) }
                                        td {
                                            @if c.value.is_some() {
                                                span class="value" { (shown.main) }
                                                @if let Some(st) = &shown.stated { div class="stated" { "as stated: " (st) } }
                                            }
                                            @if let Some(d) = &c.detail { div class="detail" { (d) } }
                                            @if let Some(a) = conflict { div { a class="see-conflict" href={ "#" (a) } { "see conflicts" } } }
                                            @if let Some(x) = page.changes.get(&page_key(c)) {
                                                div class="change" data-change=(x.change) { (change_words(x)) " " (page.since) }
                                            }
                                        }
                                        td {
                                            @if let Some(q) = &c.quote { blockquote class="quote" { (q) } }
                                            @if c.url.is_some() || c.source_id.is_some() {
                                                (citation_line(
                                                    c.url.as_deref(),
                                                    source_name(c.source_title.as_deref(), c.source_id.as_deref()),
                                                    c.family.as_deref(),
                                                    c.cutoff_date.as_deref(),
                                                    c.retrieved_at.as_deref(),
                                                ))
                                            }
                                            (inputs_html(page, c, &rows))
                                            @if let Some(note) = entailment_note(page, c) { div class="entailment" { (note) } }
                                            (agreeing_html(page, c))
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                @if !page.dropped.is_empty() {
                    section id="dropped" {
                        h2 { "Claims dropped by the entailment gate" }
                        p class="detail" { "Each quote is verbatim in its record; the claim is not what it says." }
                        table class="dropped" {
                            thead { tr { th { "Field" } th { "Value" } th { "Rule" } th { "Why" } th { "Quote" } } }
                            tbody {
                                @for r in &page.dropped {
                                    tr data-rule=(r.rule.as_deref().unwrap_or("")) {
                                        td { (short_field(&r.field)) }
                                        td { span class="value" { (r.value) } }
                                        td { (rule_words(r.rule.as_deref())) }
                                        td { (r.reason) }
                                        td { @if let Some(q) = &r.quote { blockquote class="quote" { (q) } } }
                                    }
                                }
                            }
                        }
                    }
                }
                @if !page.conflicts.is_empty() {
                    section id="conflicts" {
                        h2 { "Conflicts" }
                        @for (j, x) in page.conflicts.iter().enumerate() {
                            div class="conflict" id={ "conflict-" (j) } data-resolution=(x.resolution) {
                                h3 { (x.field) " " span class="detail" { (key_of(&x.endpoint, &x.population, &x.arm)) } }
                                p { (resolution_words(&x.resolution)) }
                                div class="sides" {
                                    @for (role, side) in [("winner", &x.winner), ("other", &x.other)] {
                                        div class={ "side " (role) } {
                                            div class="value" { (present::value_of(&side.value, &side.unit)) }
                                            @if let Some(q) = &side.quote { blockquote class="quote" { (q) } }
                                            (citation_line(
                                                side.url.as_deref(),
                                                source_name(side.title.as_deref(), side.source_id.as_deref()),
                                                side.family.as_deref(),
                                                side.cutoff.as_deref(),
                                                side.retrieved_at.as_deref(),
                                            ))
                                            @if let Some(id) = &side.source_id { div class="detail" { "record " code { (id) } } }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                (footer(run, span))
            }
        }
    };
    markup.into_string()
}

/// The run's index page as HTML: the portfolio overview, one row per asset with its
/// header fields, headline numbers, cells by status, open conflicts and changes.
pub fn index_html(report: &RunReport) -> String {
    let span = retrieval_span(
        report
            .assets
            .values()
            .flat_map(|p| p.cells.iter().filter_map(|c| c.retrieved_at.as_deref())),
    );
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            (head(&format!("run {}: dossier profiles", report.run.run_id)))
            body {
                h1 { "Run " (report.run.run_id) }
                p class="detail" {
                    (report.assets.len()) " assets · " (report.run.reasoner) " reasoner · snapshot " code { (report.run.snapshot_id.get(..12).unwrap_or(&report.run.snapshot_id)) }
                    @if let Some(b) = &report.baseline { " · changes " (since(&Some(Baseline { run_id: b.run_id.clone(), finished_at: b.finished_at.clone() }))) }
                }
                table class="assets" {
                    thead { tr {
                        th { "Asset" } th { "Sponsor" } th { "Indication" } th { "Lead trial" } th { "Approval" }
                        th { "Headline" } th { "Cells by status" } th { "Open conflicts" } th { "Changed" }
                    } }
                    tbody {
                        @for (asset, page) in &report.assets {
                            @let h = present::header(&page.cells, &comparison::outcomes(&page.cells));
                            @let open = page.conflicts.iter().filter(|x| x.resolution == "unresolved").count();
                            tr data-asset=(asset) {
                                td { a href={ (asset) ".html" } { (asset) } }
                                td { (h.sponsor.as_deref().unwrap_or("")) }
                                td { (h.indication.as_deref().unwrap_or("")) }
                                td { (h.lead_trial.as_deref().unwrap_or("")) }
                                td { (h.approval) }
                                td {
                                    @if let Some(x) = &h.headline {
                                        @for (i, (arm, v, disputed)) in x.arms.iter().enumerate() {
                                            @if i > 0 { " vs " }
                                            (arm) " " span class="value" { (v) }
                                            @if *disputed { " (sources disagree)" }
                                        }
                                        div class="detail" { (x.endpoint) }
                                    }
                                }
                                td {
                                    @for (status, n) in status_counts(page) {
                                        (status_badge(status)) span class="n" { (n) } " "
                                    }
                                }
                                td data-open=(open) {
                                    @if open > 0 { a href={ (asset) ".html#conflicts" } { (open) " unresolved" } }
                                    @else { "0" }
                                    @if page.conflicts.len() > open { span class="detail" { " (" (page.conflicts.len() - open) " resolved by the rules)" } }
                                }
                                td data-changed=(page.changes.len()) { (page.changes.len()) }
                            }
                        }
                    }
                }
                @if report.assets.values().any(|p| !p.changes.is_empty()) {
                    section id="changes" {
                        h2 { "Changed " (since(&report.baseline)) }
                        table class="changes" {
                            thead { tr { th { "Asset" } th { "Field" } th { "Endpoint · population · arm" } th { "Change" } } }
                            tbody {
                                @for (asset, page) in &report.assets {
                                    @for ((field, e, p, a), x) in &page.changes {
                                        tr data-change=(x.change) {
                                            td { a href={ (asset) ".html" } { (asset) } }
                                            td { (field) }
                                            td { (key_of(e, p, a)) }
                                            td { (change_words(x)) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                (footer(&report.run, span))
            }
        }
    };
    markup.into_string()
}

fn status_counts(page: &AssetPage) -> BTreeMap<&str, usize> {
    let mut out = BTreeMap::new();
    for c in &page.cells {
        *out.entry(c.status.as_str()).or_default() += 1;
    }
    out
}

/// Escapes text for a Markdown table cell: Markdown syntax is backslash-escaped, HTML
/// metacharacters become entities, and line breaks become spaces.
pub fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' | '\r' | '\t' => out.push(' '),
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '(' | ')' | '#' | '+' | '-' | '.'
            | '!' | '|' | '~' | '=' | ':' => {
                out.push('\\');
                out.push(ch);
            }
            c => out.push(c),
        }
    }
    out
}

fn md_link(url: Option<&str>, text: &str) -> String {
    match safe_link(url) {
        Some(href) => format!("[{}](<{}>)", md_escape(text), href),
        None => md_escape(text),
    }
}

/// A citation in Markdown: the linked record name, family, data cutoff and retrieval.
fn md_citation(
    url: Option<&str>,
    name: &str,
    family: Option<&str>,
    cutoff: Option<&str>,
    retrieved: Option<&str>,
) -> String {
    let mut t = md_link(url, name);
    if let Some(f) = family {
        t.push_str(&format!(" · {}", md_escape(f)));
    }
    if let Some(d) = cutoff {
        t.push_str(&format!(" · data cutoff {}", md_escape(d)));
    }
    t.push_str(&format!(
        " · {}",
        md_escape(&present::retrieved_words(retrieved))
    ));
    t
}

/// One asset's page as Markdown (GitHub tables).
pub fn asset_md(run: &RunRow, asset: &str, page: &AssetPage) -> String {
    let mut out = format!("[← All assets](<index.md>)\n\n# {}\n\n", md_escape(asset));
    let outcomes = comparison::outcomes(&page.cells);
    let h = present::header(&page.cells, &outcomes);
    for (k, v) in [
        ("Sponsor", h.sponsor.as_deref().unwrap_or("not stated")),
        (
            "Indication",
            h.indication.as_deref().unwrap_or("not stated"),
        ),
        (
            "Lead trial",
            h.lead_trial.as_deref().unwrap_or("no trial in the profile"),
        ),
        ("Approval", h.approval.as_str()),
    ] {
        out.push_str(&format!("- **{k}:** {}\n", md_escape(v)));
    }
    if let Some(x) = &h.headline {
        let arms: Vec<String> = x
            .arms
            .iter()
            .map(|(a, v, disputed)| {
                format!(
                    "{} **{}**{}",
                    md_escape(a),
                    md_escape(v),
                    if *disputed { " (sources disagree)" } else { "" }
                )
            })
            .collect();
        out.push_str(&format!(
            "- **Headline:** {}: {}{}\n",
            md_escape(&x.endpoint),
            arms.join(" vs "),
            x.comparison
                .as_ref()
                .map(|c| format!("; {}", md_escape(c)))
                .unwrap_or_default()
        ));
    }
    out.push('\n');
    let anchors = conflict_anchors(page);
    let mut section = "";
    for c in &page.cells {
        if c.section != section {
            section = &c.section;
            if section == "valuation"
                && let Some(t) = Tornado::of(&page.cells)
            {
                out.push_str(&t.markdown());
            }
            if section == "efficacy" {
                if !outcomes.is_empty() {
                    out.push_str("\n## efficacy: outcomes, arms side by side\n\n");
                    for o in &outcomes {
                        out.push_str(&comparison::outcome_md(o, md_escape));
                    }
                }
            }
            out.push_str(&format!(
                "\n## {}\n\n| Field | Endpoint · population · arm | Status | Value | Evidence |\n|---|---|---|---|---|\n",
                md_escape(section)
            ));
        }
        let mut status = format!("**{}**", status_words(&c.status).0);
        if let Some((w, _)) = c.label.as_deref().and_then(label_words) {
            status.push_str(&format!(" · _{w}_"));
        }
        let shown = present::shown(c);
        let mut value = if c.value.is_some() {
            md_escape(&shown.main)
        } else {
            String::new()
        };
        if let Some(st) = &shown.stated {
            value.push_str(&format!(" (as stated: {})", md_escape(st)));
        }
        if let Some(d) = &c.detail {
            if !value.is_empty() {
                value.push_str(" · ");
            }
            value.push_str(&md_escape(d));
        }
        if let Some(x) = page.changes.get(&page_key(c)) {
            value.push_str(&format!(
                " · **changed: {} {}**",
                md_escape(&change_words(x)),
                md_escape(&page.since)
            ));
        }
        if anchors.contains_key(&conflict_key(&c.field, &c.endpoint, &c.population, &c.arm))
            && !c.detail.as_deref().unwrap_or("").contains("see conflicts")
        {
            value.push_str(" · see Conflicts");
        }
        let mut evidence = String::new();
        if let Some(q) = &c.quote {
            evidence.push_str(&format!("“{}” ", md_escape(q)));
        }
        if c.url.is_some() || c.source_id.is_some() {
            evidence.push_str(&md_citation(
                c.url.as_deref(),
                source_name(c.source_title.as_deref(), c.source_id.as_deref()),
                c.family.as_deref(),
                c.cutoff_date.as_deref(),
                c.retrieved_at.as_deref(),
            ));
        }
        if let Some(claim) = c.claim_id.as_deref().and_then(|id| page.claims.get(id)) {
            if let Some(f) = &claim.formula {
                let (what, text) = formula_words(f);
                evidence.push_str(&format!(
                    " · {}: _{}_",
                    what.to_lowercase(),
                    md_escape(text)
                ));
            }
            if let Some(book) = assumption_file(claim) {
                evidence.push_str(&format!(" · from `{book}`"));
            }
            if let Some(note) = entailment_note(page, c) {
                evidence.push_str(&format!(" · _{}_", md_escape(&note)));
            }
            for a in agreeing(page, c) {
                let src = a.source_id.as_deref().and_then(|s| page.sources.get(s));
                evidence.push_str(" · also stated: ");
                if Some(a.value.as_str()) != c.value.as_deref() {
                    evidence.push_str(&format!("{} ", md_escape(&a.value)));
                }
                if let Some(q) = &a.quote {
                    evidence.push_str(&format!("“{}” ", md_escape(q)));
                }
                evidence.push_str(&md_citation(
                    a.url.as_deref(),
                    source_name(src.and_then(|r| r.title.as_deref()), a.source_id.as_deref()),
                    family_of(a),
                    a.cutoff_date.as_deref(),
                    src.and_then(|r| r.retrieved_at.as_deref()),
                ));
            }
            for id in input_ids(claim) {
                if let Some(i) = page.claims.get(id) {
                    let src = i.source_id.as_deref().and_then(|s| page.sources.get(s));
                    evidence.push_str(&format!(
                        " · input {}: {}",
                        md_escape(&input_name(i)),
                        md_escape(&value_of(&Some(i.value.clone()), &i.unit))
                    ));
                    if let Some(r) = src {
                        evidence.push_str(&format!(
                            " {}",
                            md_citation(
                                r.url.as_deref(),
                                source_name(r.title.as_deref(), i.source_id.as_deref()),
                                r.family.as_deref(),
                                i.cutoff_date.as_deref(),
                                r.retrieved_at.as_deref(),
                            )
                        ));
                    }
                }
            }
        }
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            md_escape(short_field(&c.field)),
            md_escape(&key_of(&present::endpoint_shown(c), &c.population, &c.arm)),
            status,
            value,
            evidence
        ));
    }
    if !page.dropped.is_empty() {
        out.push_str(
            "\n## Claims dropped by the entailment gate\n\nEach quote is verbatim in its record; the claim is not what it says.\n\n| Field | Value | Rule | Why | Quote |\n|---|---|---|---|---|\n",
        );
        for r in &page.dropped {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                md_escape(short_field(&r.field)),
                md_escape(&r.value),
                rule_words(r.rule.as_deref()),
                md_escape(&r.reason),
                r.quote
                    .as_deref()
                    .map(|q| format!("“{}”", md_escape(q)))
                    .unwrap_or_default()
            ));
        }
    }
    if !page.conflicts.is_empty() {
        out.push_str(
            "\n## Conflicts\n\n| Cell | Resolution | Winner | Other |\n|---|---|---|---|\n",
        );
        for x in &page.conflicts {
            let side = |s: &Side| {
                let mut t = format!("**{}**", md_escape(&value_of(&s.value, &s.unit)));
                if let Some(q) = &s.quote {
                    t.push_str(&format!(" “{}”", md_escape(q)));
                }
                t.push_str(&format!(
                    " {}",
                    md_citation(
                        s.url.as_deref(),
                        source_name(s.title.as_deref(), s.source_id.as_deref()),
                        s.family.as_deref(),
                        s.cutoff.as_deref(),
                        s.retrieved_at.as_deref(),
                    )
                ));
                t
            };
            out.push_str(&format!(
                "| {} {} | {} | {} | {} |\n",
                md_escape(&x.field),
                md_escape(&key_of(&x.endpoint, &x.population, &x.arm)),
                resolution_words(&x.resolution),
                side(&x.winner),
                side(&x.other)
            ));
        }
    }
    let span = retrieval_span(page.cells.iter().filter_map(|c| c.retrieved_at.as_deref()));
    out.push_str(&format!(
        "\n---\nRun `{}` ({}, finished {}) over snapshot `{}`.{}\n",
        run.run_id,
        run.reasoner,
        run.finished_at,
        run.snapshot_id,
        match span {
            Some((a, b)) if a == b => format!(" Sources retrieved {}.", md_escape(&a)),
            Some((a, b)) => format!(" Sources retrieved {} to {}.", md_escape(&a), md_escape(&b)),
            None => String::new(),
        }
    ));
    out
}

/// The run's index as Markdown.
pub fn index_md(report: &RunReport) -> String {
    let mut out = format!("# Run `{}`\n\n", report.run.run_id);
    if report.assets.values().any(|p| !p.changes.is_empty()) {
        out.push_str(&format!(
            "## Changed {}\n\n| Asset | Field | Endpoint · population · arm | Change |\n|---|---|---|---|\n",
            since(&report.baseline)
        ));
        for (asset, page) in &report.assets {
            for ((field, e, p, a), x) in &page.changes {
                out.push_str(&format!(
                    "| {} | {} | {} | {} |\n",
                    md_escape(asset),
                    md_escape(field),
                    md_escape(&key_of(e, p, a)),
                    md_escape(&change_words(x))
                ));
            }
        }
        out.push('\n');
    }
    out.push_str("| Asset | Sponsor | Indication | Lead trial | Approval | Headline | Cells by status | Open conflicts | Changed |\n|---|---|---|---|---|---|---|---|---|\n");
    for (asset, page) in &report.assets {
        let h = present::header(&page.cells, &comparison::outcomes(&page.cells));
        let counts: Vec<String> = status_counts(page)
            .iter()
            .map(|(s, n)| format!("{}: {n}", status_words(s).0))
            .collect();
        let headline = h.headline.as_ref().map_or(String::new(), |x| {
            x.arms
                .iter()
                .map(|(a, v, d)| format!("{a} {v}{}", if *d { " (sources disagree)" } else { "" }))
                .collect::<Vec<_>>()
                .join(" vs ")
        });
        let open = page
            .conflicts
            .iter()
            .filter(|x| x.resolution == "unresolved")
            .count();
        out.push_str(&format!(
            "| [{}](<{}.md>) | {} | {} | {} | {} | {} | {} | {} unresolved of {} | {} |\n",
            md_escape(asset),
            asset,
            md_escape(h.sponsor.as_deref().unwrap_or("")),
            md_escape(h.indication.as_deref().unwrap_or("")),
            md_escape(h.lead_trial.as_deref().unwrap_or("")),
            md_escape(&h.approval),
            md_escape(&headline),
            counts.join(", "),
            open,
            page.conflicts.len(),
            page.changes.len()
        ));
    }
    out.push_str(&format!(
        "\n---\nRun `{}` over snapshot `{}`, finished {}.\n",
        report.run.run_id, report.run.snapshot_id, report.run.finished_at
    ));
    out
}

/// Writes the index and every asset's page into a directory; returns the pages written.
pub fn write_dir(
    dir: &std::path::Path,
    format: Format,
    report: &RunReport,
) -> Result<usize, Error> {
    let io = |path: &std::path::Path, source: std::io::Error| AccessError::Write {
        path: path.to_owned(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let write = |name: &str, text: String| {
        let path = dir.join(format!("{name}.{}", format.extension()));
        std::fs::write(&path, text).map_err(|e| io(&path, e))
    };
    write("index", index_page(format, report))?;
    for (asset, page) in &report.assets {
        write(asset, asset_page(format, &report.run, asset, page))?;
    }
    Ok(report.assets.len() + 1)
}

pub fn asset_page(format: Format, run: &RunRow, asset: &str, page: &AssetPage) -> String {
    match format {
        Format::Html => asset_html(run, asset, page),
        Format::Md => asset_md(run, asset, page),
    }
}

pub fn index_page(format: Format, report: &RunReport) -> String {
    match format {
        Format::Html => index_html(report),
        Format::Md => index_md(report),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run() -> RunRow {
        RunRow {
            run_id: "r1".into(),
            snapshot_id: "s".repeat(64),
            reasoner: "extractive".into(),
            model: None,
            started_at: "2026-01-01T00:00:00Z".into(),
            finished_at: "2026-01-01T00:01:00Z".into(),
            assets: 1,
            manifests: 1,
        }
    }

    fn hostile() -> AssetPage {
        let evil = "<script>alert(1)</script><img src=x onerror=alert(2)> | **bold** [x](javascript:alert(3))";
        AssetPage {
            cells: vec![Cell {
                asset_id: "a".into(),
                section: "identity".into(),
                field: "identity.sponsor".into(),
                value: Some(evil.into()),
                quote: Some(evil.into()),
                status: "value".into(),
                label: Some("inference".into()),
                url: Some("javascript:alert(4)".into()),
                source_id: Some("s1".into()),
                ..Cell::default()
            }],
            conflicts: vec![],
            // a changed cell whose old value is hostile too
            changes: [(
                ("identity.sponsor".to_string(), None, None, None),
                CellChangeRow {
                    change: "value_changed".into(),
                    old_value: Some(evil.into()),
                    old_status: Some("value".into()),
                    new_value: Some("Acme".into()),
                    new_status: Some("value".into()),
                    ..CellChangeRow::default()
                },
            )]
            .into(),
            since: "since run r0, 2026-11-30".into(),
            ..AssetPage::default()
        }
    }

    #[test]
    fn html_escapes_source_text_and_links_only_http() {
        let page = asset_html(&run(), "a", &hostile());
        assert!(!page.contains("<script>alert"), "{page}");
        assert!(!page.contains("<img"));
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(!page.contains("href=\"javascript"));
        assert!(page.contains("Content-Security-Policy"));
        assert!(page.contains(">Inference<"));
        assert!(page.contains(">Value<"));
        // the change line is escaped too, and says since when
        assert!(page.contains("→ Acme since run r0, 2026-11-30"), "{page}");
    }

    #[test]
    fn markdown_escapes_its_syntax_and_html() {
        let page = asset_md(&run(), "a", &hostile());
        let row = page.lines().find(|l| l.starts_with("| sponsor")).unwrap();
        // one table row: five cells, no unescaped pipe from the source text
        let pipes = row
            .match_indices('|')
            .filter(|(i, _)| !row[..*i].ends_with('\\'));
        assert_eq!(pipes.count(), 6, "{row}");
        assert!(!row.contains("<script>") && !row.contains("<img"));
        assert!(row.contains("\\*\\*bold\\*\\*"));
        assert!(!row.contains("](javascript"));
        assert!(row.contains("_Inference_"));
        assert!(row.contains("**changed: "), "{row}");
    }

    #[test]
    fn only_absolute_http_urls_become_links() {
        assert_eq!(
            safe_link(Some("https://clinicaltrials.gov/study/NCT1\"><b>")).as_deref(),
            Some("https://clinicaltrials.gov/study/NCT1%22%3E%3Cb%3E")
        );
        for bad in [
            "javascript:alert(1)",
            "data:text/html,x",
            "/relative",
            "file:///etc/passwd",
        ] {
            assert_eq!(safe_link(Some(bad)), None, "{bad}");
        }
    }
}
