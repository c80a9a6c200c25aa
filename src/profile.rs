//! The profile schema, fixed in code: nine sections, each a list of fields, with the
//! families that feed each field and what the cell key (endpoint, population, arm) means
//! for it. A run turns accepted claims into cells and gives every field of every asset a
//! row with exactly one status. Pure.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::{Family, FamilyStatus};

/// One field of the profile.
#[derive(Debug)]
pub struct FieldSpec {
    /// `section.name`; the section is the part before the dot.
    pub name: &'static str,
    /// Families whose records can fill the field (used to say what kind of empty).
    pub families: &'static [Family],
    /// What the cell key holds for this field; empty when the field has one cell.
    pub key: &'static str,
    /// Whether a value of this field needs a structured locator into a posted result
    /// group (arm-level results): text quotes cannot bind a number to an arm.
    pub arm_bound: bool,
    /// Only these labels may fill the field (empty: any).
    pub labels: &'static [crate::claims::Label],
    pub doc: &'static str,
}

impl FieldSpec {
    pub fn section(&self) -> &'static str {
        self.name.split('.').next().unwrap_or(self.name)
    }
}

use crate::claims::Label as L;
use Family::*;

const CT: &[Family] = &[Ctgov];
const LBL: &[Family] = &[FdaLabel, Drugsfda];

/// The profile, in display order.
pub const FIELDS: &[FieldSpec] = &[
    // identity
    f(
        "identity.names",
        LBL,
        "endpoint: brand or generic",
        false,
        &[],
        "brand and generic names as the label states them",
    ),
    f(
        "identity.sponsor",
        &[FdaLabel, Drugsfda, Ctgov],
        "",
        false,
        &[],
        "the company behind the asset",
    ),
    f(
        "identity.modality",
        LBL,
        "",
        false,
        &[],
        "biologic (BLA) or small molecule / synthetic drug (NDA), inferred from the application type",
    ),
    f(
        "identity.mechanism",
        LBL,
        "",
        false,
        &[],
        "established pharmacologic class or mechanism of action",
    ),
    f(
        "identity.indication",
        &[Ctgov, FdaLabel, Pubmed],
        "",
        false,
        &[],
        "the portfolio's indication as a source states it",
    ),
    f(
        "identity.icd10_codes",
        &[Icd10],
        "endpoint: ICD-10-CM code",
        false,
        &[],
        "ICD-10-CM codes for the indication",
    ),
    // regulatory
    f(
        "regulatory.status",
        &[Drugsfda],
        "endpoint: application number",
        false,
        &[],
        "approved when an original application has status AP",
    ),
    f(
        "regulatory.first_approval_date",
        &[Drugsfda],
        "endpoint: application number",
        false,
        &[],
        "status date of the approved original application (YYYYMMDD as Drugs@FDA states it)",
    ),
    f(
        "regulatory.application_numbers",
        &[Drugsfda, FdaLabel],
        "endpoint: application number",
        false,
        &[],
        "NDA/BLA/ANDA numbers",
    ),
    f(
        "regulatory.approved_indications",
        &[FdaLabel],
        "endpoint: label set_id",
        false,
        &[],
        "the first sentence of the label's indications",
    ),
    f(
        "regulatory.boxed_warning",
        &[FdaLabel],
        "endpoint: label set_id",
        false,
        &[],
        "the boxed warning's heading sentence",
    ),
    // efficacy
    f(
        "efficacy.value",
        CT,
        "endpoint: trial, outcome, time frame; population: class/category; arm: group",
        true,
        &[],
        "the posted value of an outcome measure for one arm",
    ),
    f(
        "efficacy.dispersion",
        CT,
        "as efficacy.value; unit holds the dispersion type",
        true,
        &[],
        "spread (SD, SE...) of the posted value",
    ),
    f(
        "efficacy.ci_lower",
        CT,
        "as efficacy.value",
        true,
        &[],
        "lower limit of the posted interval",
    ),
    f(
        "efficacy.ci_upper",
        CT,
        "as efficacy.value",
        true,
        &[],
        "upper limit of the posted interval",
    ),
    f(
        "efficacy.analyzed",
        CT,
        "as efficacy.value",
        true,
        &[],
        "participants analysed in the arm",
    ),
    f(
        "efficacy.effect_estimate",
        CT,
        "arm: compared groups; unit: estimate type (hazard ratio, odds ratio...)",
        true,
        &[],
        "the posted statistical analysis estimate",
    ),
    f(
        "efficacy.p_value",
        CT,
        "as efficacy.effect_estimate",
        true,
        &[],
        "the posted p-value of the comparison",
    ),
    // safety
    f(
        "safety.serious_ae_affected",
        CT,
        "endpoint: trial; arm: event group",
        true,
        &[],
        "participants with a serious adverse event",
    ),
    f(
        "safety.serious_ae_at_risk",
        CT,
        "endpoint: trial; arm: event group",
        true,
        &[],
        "participants at risk",
    ),
    f(
        "safety.serious_ae_rate",
        CT,
        "endpoint: trial; arm: event group",
        true,
        &[L::Derived],
        "affected / at risk x 100, derived",
    ),
    f(
        "safety.common_adverse_reactions",
        &[FdaLabel],
        "endpoint: label set_id",
        false,
        &[],
        "the label's sentence on the most common adverse reactions",
    ),
    // trials
    f(
        "trials.phase",
        CT,
        "endpoint: NCT id",
        false,
        &[],
        "phase as registered",
    ),
    f(
        "trials.status",
        CT,
        "endpoint: NCT id",
        false,
        &[],
        "overall recruitment status",
    ),
    f(
        "trials.enrollment",
        CT,
        "endpoint: NCT id",
        false,
        &[],
        "enrollment count",
    ),
    f(
        "trials.primary_completion",
        CT,
        "endpoint: NCT id",
        false,
        &[],
        "primary completion date",
    ),
    f(
        "trials.results_posted",
        CT,
        "endpoint: NCT id",
        false,
        &[],
        "date results were first posted",
    ),
    // competitors
    f(
        "competitors.approved_drug",
        LBL,
        "endpoint: application number or label set_id",
        false,
        &[],
        "approved drugs for the same indication or class",
    ),
    f(
        "competitors.approval_date",
        &[Drugsfda],
        "endpoint: application number",
        false,
        &[],
        "their first approval date",
    ),
    // market
    f(
        "market.prevalence",
        &[Epi],
        "endpoint: table; population: row",
        false,
        &[],
        "prevalence from an epidemiology table",
    ),
    f(
        "market.incidence",
        &[Epi],
        "endpoint: table; population: row",
        false,
        &[],
        "incidence from an epidemiology table",
    ),
    f(
        "market.survival",
        &[Epi],
        "endpoint: table; population: row",
        false,
        &[],
        "survival from an epidemiology table",
    ),
    // financials
    f(
        "financials.revenue",
        &[Sec],
        "endpoint: period class and period; population: form, accession, concept",
        false,
        &[],
        "latest revenue (XBRL)",
    ),
    f(
        "financials.rd_expense",
        &[Sec],
        "endpoint: period class and period; population: form, accession, concept",
        false,
        &[],
        "latest research and development expense",
    ),
    f(
        "financials.net_loss",
        &[Sec],
        "endpoint: period class and period; population: form, accession, concept",
        false,
        &[],
        "latest net income (loss)",
    ),
    f(
        "financials.cash",
        &[Sec],
        "endpoint: period class and period; population: form, accession, concept",
        false,
        &[],
        "latest cash and equivalents",
    ),
    // valuation
    f(
        "valuation.assumption",
        &[],
        "endpoint: assumption name",
        false,
        &[L::Assumption],
        "inputs chosen for a model, never facts",
    ),
    f(
        "valuation.peak_sales",
        &[],
        "",
        false,
        &[L::Modeled],
        "modeled over visible assumption claims, never a fact",
    ),
    f(
        "valuation.rnpv",
        &[],
        "",
        false,
        &[L::Modeled],
        "modeled over visible assumption claims, never a fact",
    ),
];

#[allow(clippy::too_many_arguments)]
const fn f(
    name: &'static str,
    families: &'static [Family],
    key: &'static str,
    arm_bound: bool,
    labels: &'static [L],
    doc: &'static str,
) -> FieldSpec {
    FieldSpec {
        name,
        families,
        key,
        arm_bound,
        labels,
        doc,
    }
}

pub fn spec(name: &str) -> Option<&'static FieldSpec> {
    FIELDS.iter().find(|f| f.name == name)
}

/// Family rank for precedence: lower wins (ARCHITECTURE default order).
pub fn family_rank(f: Family) -> u8 {
    match f {
        FdaLabel => 0,
        Ctgov => 1,
        Sec => 2,
        Pubmed => 3,
        Press => 4,
        Drugsfda => 5,
        Epi => 6,
        Icd10 => 7,
    }
}

/// Cell statuses (ARCHITECTURE.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Value,
    Conflicting,
    NotYetPublished,
    SourceEmpty,
    Skipped,
    FetchFailed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Value => "value",
            Status::Conflicting => "conflicting",
            Status::NotYetPublished => "not_yet_published",
            Status::SourceEmpty => "source_empty",
            Status::Skipped => "skipped",
            Status::FetchFailed => "fetch_failed",
        }
    }

    pub const ALL: [Status; 6] = [
        Status::Value,
        Status::Conflicting,
        Status::NotYetPublished,
        Status::SourceEmpty,
        Status::Skipped,
        Status::FetchFailed,
    ];
}

/// An accepted claim, as the cell assembly needs it.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub claim_id: String,
    pub field: String,
    pub endpoint: String,
    pub population: String,
    pub arm: String,
    pub value: String,
    pub unit: String,
    pub label: String,
    pub family: Option<Family>,
    pub source_id: String,
    pub url: String,
    pub quote: String,
    pub locator: String,
    pub cutoff_date: Option<String>,
}

/// One cell of a profile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    pub section: String,
    pub field: String,
    pub endpoint: String,
    pub population: String,
    pub arm: String,
    pub value: Option<String>,
    pub unit: Option<String>,
    pub label: Option<String>,
    pub status: Status,
    pub detail: String,
    pub family: Option<String>,
    pub claim_id: Option<String>,
    pub source_id: Option<String>,
    pub url: Option<String>,
    pub quote: Option<String>,
    pub locator: Option<String>,
    pub cutoff_date: Option<String>,
}

/// What the run knows about an asset besides its claims.
pub struct Context<'a> {
    pub families: &'a BTreeMap<Family, FamilyStatus>,
    /// Fields the reasoner did not attempt, with the reason.
    pub skipped: &'a BTreeMap<&'static str, String>,
    /// Fields a step found present-but-unposted (e.g. a pre-revenue filer), with detail.
    pub unpublished: &'a BTreeMap<&'static str, String>,
    /// Rejected candidates per field, for the detail of an empty cell.
    pub rejected: &'a BTreeMap<String, usize>,
}

/// Every field of the schema gets at least one cell; fields with accepted candidates get
/// one cell per key, with the provisional precedence (later cutoff, then family rank;
/// same family and cutoff with different values stay `conflicting`, both kept).
pub fn assemble(cands: &[Candidate], cx: &Context<'_>) -> Vec<Cell> {
    let mut out = Vec::new();
    for spec in FIELDS {
        let mut groups: BTreeMap<(&str, &str, &str), Vec<&Candidate>> = BTreeMap::new();
        for c in cands.iter().filter(|c| c.field == spec.name) {
            groups
                .entry((&c.endpoint, &c.population, &c.arm))
                .or_default()
                .push(c);
        }
        if groups.is_empty() {
            let (status, detail) = empty_status(spec, cx);
            out.push(Cell {
                section: spec.section().into(),
                field: spec.name.into(),
                endpoint: String::new(),
                population: String::new(),
                arm: String::new(),
                value: None,
                unit: None,
                label: None,
                status,
                detail,
                family: None,
                claim_id: None,
                source_id: None,
                url: None,
                quote: None,
                locator: None,
                cutoff_date: None,
            });
            continue;
        }
        for (_, group) in groups {
            let (winners, status, detail) = compete(&group);
            for w in winners {
                out.push(cell_of(spec, w, status, detail.clone()));
            }
        }
    }
    out
}

fn cell_of(spec: &FieldSpec, c: &Candidate, status: Status, detail: String) -> Cell {
    Cell {
        section: spec.section().into(),
        field: spec.name.into(),
        endpoint: c.endpoint.clone(),
        population: c.population.clone(),
        arm: c.arm.clone(),
        value: Some(c.value.clone()),
        unit: (!c.unit.is_empty()).then(|| c.unit.clone()),
        label: Some(c.label.clone()),
        status,
        detail,
        family: c.family.map(|f| f.to_string()),
        claim_id: Some(c.claim_id.clone()),
        source_id: Some(c.source_id.clone()),
        url: Some(c.url.clone()),
        quote: Some(c.quote.clone()),
        locator: (!c.locator.is_empty()).then(|| c.locator.clone()),
        cutoff_date: c.cutoff_date.clone(),
    }
}

/// Orders candidates best first: later cutoff (unknown last), family rank, source id.
fn precedence(a: &Candidate, b: &Candidate) -> std::cmp::Ordering {
    b.cutoff_date
        .cmp(&a.cutoff_date)
        .then(a.family.map(family_rank).cmp(&b.family.map(family_rank)))
        .then(a.source_id.cmp(&b.source_id))
        .then(a.claim_id.cmp(&b.claim_id))
}

fn compete<'a>(group: &[&'a Candidate]) -> (Vec<&'a Candidate>, Status, String) {
    let mut sorted: Vec<&Candidate> = group.to_vec();
    sorted.sort_by(|a, b| precedence(a, b));
    let best = sorted[0];
    let same = |c: &Candidate| c.value == best.value && c.unit == best.unit;
    if sorted.iter().all(|c| same(c)) {
        let n = sorted.len();
        let detail = if n > 1 {
            format!("{n} sources agree")
        } else {
            String::new()
        };
        return (vec![best], Status::Value, detail);
    }
    // Rivals with a different value at the best's cutoff and family cannot be ranked.
    let tied: Vec<&Candidate> = sorted
        .iter()
        .copied()
        .filter(|c| c.cutoff_date == best.cutoff_date && c.family == best.family && !same(c))
        .collect();
    if !tied.is_empty() {
        let mut all = vec![best];
        let mut seen = vec![(best.value.as_str(), best.unit.as_str())];
        for c in tied {
            if !seen.contains(&(c.value.as_str(), c.unit.as_str())) {
                seen.push((c.value.as_str(), c.unit.as_str()));
                all.push(c);
            }
        }
        let detail = format!(
            "{} values from {} at the same cutoff; both kept",
            all.len(),
            best.family
                .map(|f| f.as_str())
                .unwrap_or("an unknown family")
        );
        return (all, Status::Conflicting, detail);
    }
    let loser = sorted.iter().find(|c| !same(c)).copied().unwrap_or(best);
    let how = if best.cutoff_date.is_some() && best.cutoff_date != loser.cutoff_date {
        "later_cutoff"
    } else {
        "family_rank"
    };
    (
        vec![best],
        Status::Value,
        format!(
            "won over {:?} from {} ({how})",
            loser.value, loser.source_id
        ),
    )
}

fn empty_status(spec: &FieldSpec, cx: &Context<'_>) -> (Status, String) {
    if let Some(why) = cx.skipped.get(spec.name) {
        return (Status::Skipped, why.clone());
    }
    let st: Vec<(Family, FamilyStatus)> = spec
        .families
        .iter()
        .map(|f| {
            (
                *f,
                cx.families
                    .get(f)
                    .copied()
                    .unwrap_or(FamilyStatus::SourceEmpty),
            )
        })
        .collect();
    if let Some((f, _)) = st.iter().find(|(_, s)| *s == FamilyStatus::FetchFailed) {
        return (Status::FetchFailed, format!("the {f} fetch failed"));
    }
    if let Some(d) = cx.unpublished.get(spec.name) {
        return (Status::NotYetPublished, d.clone());
    }
    let rejected = cx.rejected.get(spec.name).copied().unwrap_or(0);
    let dropped = if rejected > 0 {
        format!("; {rejected} candidate(s) dropped by the gates (see rejections)")
    } else {
        String::new()
    };
    if st.iter().any(|(_, s)| *s == FamilyStatus::Ok) {
        let names: Vec<&str> = st
            .iter()
            .filter(|(_, s)| *s == FamilyStatus::Ok)
            .map(|(f, _)| f.as_str())
            .collect();
        return (
            Status::SourceEmpty,
            format!(
                "{} record(s) checked; none states it{dropped}",
                names.join(", ")
            ),
        );
    }
    if let Some((f, _)) = st.iter().find(|(_, s)| *s == FamilyStatus::NotYetPublished) {
        return (
            Status::NotYetPublished,
            format!("the asset's {f} records exist but have not posted results"),
        );
    }
    if !st.is_empty() && st.iter().all(|(_, s)| *s == FamilyStatus::Skipped) {
        return (
            Status::Skipped,
            format!("{} not attempted for this asset", spec.families[0]),
        );
    }
    let names: Vec<&str> = spec.families.iter().map(|f| f.as_str()).collect();
    (
        Status::SourceEmpty,
        format!("no {} record for the asset{dropped}", names.join("/")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(id: &str, value: &str, fam: Family, cutoff: Option<&str>) -> Candidate {
        Candidate {
            claim_id: id.into(),
            field: "efficacy.value".into(),
            endpoint: "e".into(),
            population: "p".into(),
            arm: "a".into(),
            value: value.into(),
            unit: String::new(),
            label: "fact".into(),
            family: Some(fam),
            source_id: format!("{fam}:{id}"),
            url: String::new(),
            quote: value.into(),
            locator: String::new(),
            cutoff_date: cutoff.map(str::to_string),
        }
    }

    fn ctx_cells(cands: &[Candidate], fams: &[(Family, FamilyStatus)]) -> Vec<Cell> {
        let families: BTreeMap<_, _> = fams.iter().copied().collect();
        let (s, u, r) = (BTreeMap::new(), BTreeMap::new(), BTreeMap::new());
        assemble(
            cands,
            &Context {
                families: &families,
                skipped: &s,
                unpublished: &u,
                rejected: &r,
            },
        )
    }

    #[test]
    fn every_field_gets_exactly_one_status_row_when_nothing_is_known() {
        let cells = ctx_cells(&[], &[]);
        assert_eq!(cells.len(), FIELDS.len());
        assert!(cells.iter().all(|c| c.value.is_none()));
    }

    #[test]
    fn precedence_branches() {
        let eff = |cells: Vec<Cell>| -> Vec<Cell> {
            cells
                .into_iter()
                .filter(|c| c.field == "efficacy.value")
                .collect()
        };
        // later cutoff wins regardless of family
        let c = eff(ctx_cells(
            &[
                cand("a", "1.5", Pubmed, Some("2024-01-01")),
                cand("b", "1.7", FdaLabel, Some("2023-01-01")),
            ],
            &[],
        ));
        assert_eq!((c.len(), c[0].value.as_deref()), (1, Some("1.5")));
        assert!(c[0].detail.contains("later_cutoff"), "{}", c[0].detail);
        // same cutoff: family rank
        let c = eff(ctx_cells(
            &[
                cand("a", "1.5", Pubmed, Some("2024-01-01")),
                cand("b", "1.7", Ctgov, Some("2024-01-01")),
            ],
            &[],
        ));
        assert_eq!(c[0].value.as_deref(), Some("1.7"));
        assert!(c[0].detail.contains("family_rank"));
        // same family and cutoff, different values: both kept, conflicting
        let c = eff(ctx_cells(
            &[
                cand("a", "1.5", Ctgov, Some("2024-01-01")),
                cand("b", "1.7", Ctgov, Some("2024-01-01")),
            ],
            &[],
        ));
        assert_eq!(c.len(), 2);
        assert!(c.iter().all(|x| x.status == Status::Conflicting));
        // identical values: no conflict
        let c = eff(ctx_cells(
            &[
                cand("a", "1.5", Ctgov, Some("2024-01-01")),
                cand("b", "1.5", Pubmed, None),
            ],
            &[],
        ));
        assert_eq!((c.len(), c[0].status), (1, Status::Value));
    }

    #[test]
    fn empty_cells_say_what_kind_of_empty() {
        let cells = ctx_cells(
            &[],
            &[
                (Ctgov, FamilyStatus::NotYetPublished),
                (Sec, FamilyStatus::Skipped),
                (FdaLabel, FamilyStatus::FetchFailed),
                (Epi, FamilyStatus::Ok),
            ],
        );
        let st = |f: &str| cells.iter().find(|c| c.field == f).unwrap().status;
        assert_eq!(st("efficacy.value"), Status::NotYetPublished);
        assert_eq!(st("financials.cash"), Status::Skipped);
        assert_eq!(st("regulatory.boxed_warning"), Status::FetchFailed);
        assert_eq!(st("market.incidence"), Status::SourceEmpty);
        assert_eq!(st("identity.icd10_codes"), Status::SourceEmpty);
    }
}
