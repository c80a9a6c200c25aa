//! The profile schema, fixed in code: nine sections, each a list of fields, with the
//! families that feed each field and what the cell key (endpoint, population, arm) means
//! for it, and the status of a field no accepted claim fills. Pure.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::domain::{Family, FamilyStatus};

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
    pub labels: &'static [crate::domain::Label],
    pub doc: &'static str,
}

impl FieldSpec {
    pub fn section(&self) -> &'static str {
        self.name.split('.').next().unwrap_or(self.name)
    }
}

use crate::domain::Label as L;
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
        "the application holder (Drugs@FDA sponsor_name); a label's labeler or a trial's lead sponsor counts only where it names the portfolio's sponsor",
    ),
    f(
        "identity.modality",
        LBL,
        "",
        false,
        &[],
        "biologic, inferred from a biologics license (BLA); an NDA does not decide modality (peptides are filed as NDAs), so it leaves the field source_empty with that reason",
    ),
    f(
        "identity.mechanism",
        LBL,
        "endpoint: MoA; population: the class",
        false,
        &[],
        "every mechanism of action class the label's openFDA section states",
    ),
    f(
        "identity.pharmacologic_class",
        LBL,
        "endpoint: EPC (established pharmacologic class), PE (physiologic effect) or CS (chemical structure); population: the class",
        false,
        &[],
        "every other pharmacologic class openFDA states, each kind apart",
    ),
    f(
        "identity.labeler",
        &[FdaLabel],
        "",
        false,
        &[],
        "the firm on the label (openFDA manufacturer_name), which may be a repackager rather than the application holder",
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
        "identity.biomarkers",
        &[FdaLabel, Ctgov, Pubmed],
        "endpoint: the biomarker, with its cut-off (BRAF V600E, PD-L1 ≥50%, Ph+)",
        false,
        &[],
        "a biomarker that selects the patients",
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
        "",
        false,
        &[L::Inference],
        "the molecule's first approval: an inference, stated only when a record shows it (the original approval of a Type 1 new-molecular-entity application)",
    ),
    f(
        "regulatory.original_approval_date",
        &[Drugsfda],
        "endpoint: application number",
        false,
        &[],
        "status date of the application's approved original submission (YYYYMMDD as Drugs@FDA states it); a new dosage form's is not the molecule's first",
    ),
    f(
        "regulatory.submission_class",
        &[Drugsfda],
        "endpoint: application number",
        false,
        &[],
        "the original submission's class as Drugs@FDA words it (Type 1 - New Molecular Entity, Type 3 - New Dosage Form...)",
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
        "endpoint: label set_id; population: the numbered subsection (1.1 Rheumatoid Arthritis)",
        false,
        &[],
        "one cell per indication statement of the label, whole, starting at the drug's name",
    ),
    f(
        "regulatory.boxed_warning",
        &[FdaLabel],
        "endpoint: label set_id",
        false,
        &[],
        "the boxed warning's title (WARNING: ...), only from a boxed_warning section that is a box",
    ),
    // efficacy
    f(
        "efficacy.value",
        CT,
        "endpoint: trial, outcome, time frame; population: class/category; arm: group",
        true,
        &[],
        "an outcome's value for one arm, posted or stated in text",
    ),
    f(
        "efficacy.analyzed",
        CT,
        "as efficacy.value",
        true,
        &[],
        "participants analysed in the arm: the outcome's count, or the class's own count under the class's population",
    ),
    f(
        "efficacy.sd",
        CT,
        "as efficacy.value; unit: the dispersion type",
        true,
        &[],
        "standard deviation of the posted value",
    ),
    f(
        "efficacy.se",
        CT,
        "as efficacy.value; unit: the dispersion type",
        true,
        &[],
        "standard error of the posted value",
    ),
    f(
        "efficacy.dispersion",
        CT,
        "as efficacy.value; unit: the dispersion type",
        true,
        &[],
        "another spread of the posted value (geometric coefficient of variation...)",
    ),
    f(
        "efficacy.ci_lower",
        CT,
        "as efficacy.value; unit: the interval with its level",
        true,
        &[],
        "lower limit of the posted confidence interval (only ever a confidence interval)",
    ),
    f(
        "efficacy.ci_upper",
        CT,
        "as efficacy.value; unit: the interval with its level",
        true,
        &[],
        "upper limit of the posted confidence interval",
    ),
    f(
        "efficacy.iqr_lower",
        CT,
        "as efficacy.value",
        true,
        &[],
        "first quartile of the posted value (inter-quartile range)",
    ),
    f(
        "efficacy.iqr_upper",
        CT,
        "as efficacy.value",
        true,
        &[],
        "third quartile of the posted value (inter-quartile range)",
    ),
    f(
        "efficacy.range_min",
        CT,
        "as efficacy.value",
        true,
        &[],
        "minimum of the posted full range",
    ),
    f(
        "efficacy.range_max",
        CT,
        "as efficacy.value",
        true,
        &[],
        "maximum of the posted full range",
    ),
    f(
        "efficacy.limit_lower",
        CT,
        "as efficacy.value; unit: the dispersion type",
        true,
        &[],
        "lower limit of a posted interval of another type",
    ),
    f(
        "efficacy.limit_upper",
        CT,
        "as efficacy.value; unit: the dispersion type",
        true,
        &[],
        "upper limit of a posted interval of another type",
    ),
    f(
        "efficacy.comparison",
        CT,
        "endpoint: as efficacy.value; population: analysis N (and what it covers); arm: the groups in the stated direction, or `(direction not stated)`",
        true,
        &[],
        "the direction of a posted analysis as the source words it (CZP/Placebo, Nivolumab over Docetaxel)",
    ),
    f(
        "efficacy.effect_estimate",
        CT,
        "as efficacy.comparison; unit: estimate type (hazard ratio, odds ratio...)",
        true,
        &[],
        "the posted or stated estimate, in the direction the arm states",
    ),
    f(
        "efficacy.estimate_ci_lower",
        CT,
        "as efficacy.comparison; unit: level and sides (95% CI, two-sided)",
        true,
        &[],
        "lower confidence limit of the estimate",
    ),
    f(
        "efficacy.estimate_ci_upper",
        CT,
        "as efficacy.comparison; unit: level and sides",
        true,
        &[],
        "upper confidence limit of the estimate",
    ),
    f(
        "efficacy.estimate_dispersion",
        CT,
        "as efficacy.comparison; unit: the dispersion type",
        true,
        &[],
        "the estimate's posted spread",
    ),
    f(
        "efficacy.p_value",
        CT,
        "as efficacy.comparison",
        true,
        &[],
        "the posted p-value of the comparison",
    ),
    f(
        "efficacy.statistical_method",
        CT,
        "as efficacy.comparison",
        true,
        &[],
        "the posted statistical method (Log Rank, ANCOVA...)",
    ),
    f(
        "efficacy.non_inferiority_type",
        CT,
        "as efficacy.comparison",
        true,
        &[],
        "superiority, non-inferiority or equivalence as posted",
    ),
    f(
        "efficacy.analysis_description",
        CT,
        "as efficacy.comparison",
        true,
        &[],
        "the analysis's own description of its groups, when too long for the population",
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
        "the label's statements of the most common adverse reactions, whole (population: statement N of M)",
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
        "trials.sponsor",
        CT,
        "endpoint: NCT id",
        false,
        &[],
        "the trial's lead sponsor",
    ),
    f(
        "trials.allocation",
        CT,
        "endpoint: NCT id",
        false,
        &[],
        "allocation as registered (randomized or not)",
    ),
    f(
        "trials.pivotal",
        CT,
        "endpoint: NCT id",
        false,
        &[L::Inference],
        "an inference: a registered phase 3 with randomized allocation",
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
        "date results were first posted, or `not posted` (an inference) when the record has no results section",
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
        "the competitor application's original approval date",
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
    f(
        "valuation.rnpv_sensitivity",
        &[],
        "endpoint: the assumption moved; population: low or high",
        false,
        &[L::Modeled],
        "rnpv with one assumption at its low or high value, the three that move it most",
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

/// Cell statuses (the README's "Statuses").
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

/// What the run knows about an asset besides its claims.
pub struct Context<'a> {
    pub families: &'a BTreeMap<Family, FamilyStatus>,
    /// Fields the reasoner did not attempt, with the reason.
    pub skipped: &'a BTreeMap<&'static str, String>,
    /// Fields a step found present-but-unposted (e.g. a pre-revenue filer), with detail.
    pub unpublished: &'a BTreeMap<&'static str, String>,
    /// Fields whose records were read but do not decide them, with the reason.
    pub undecided: &'a BTreeMap<&'static str, String>,
    /// Rejected candidates per field, for the detail of an empty cell.
    pub rejected: &'a BTreeMap<String, usize>,
}

/// The cells of fields that no accepted claim fills, each with its one status and the
/// reason in words. Fields with accepted claims get their cells from the precedence rules
/// (`sql/`), so together every field of the schema has at least one row.
pub fn empty_cells(
    filled: &BTreeSet<&str>,
    cx: &Context<'_>,
) -> Vec<(&'static FieldSpec, Status, String)> {
    FIELDS
        .iter()
        .filter(|f| !filled.contains(f.name))
        .map(|f| {
            let (st, detail) = empty_status(f, cx);
            (f, st, detail)
        })
        .collect()
}

/// Whether a field comes from a study's posted results (efficacy, serious adverse
/// events), so a study that has not posted them leaves it `not_yet_published`. Design and
/// identity fields (phase, allocation, sponsor) are in the registration itself.
fn needs_results(field: &str) -> bool {
    field.starts_with("efficacy.") || field.starts_with("safety.serious_ae")
}

/// Families a field lists (an LLM's claims may cite them) that the extractive steps do
/// not read for it: "checked; none states it" would be false for them.
fn not_read(field: &str) -> &'static [Family] {
    match field {
        // abstracts state indications in prose the steps do not bind yet
        "identity.indication" => &[Pubmed],
        _ => &[],
    }
}

fn empty_status(spec: &FieldSpec, cx: &Context<'_>) -> (Status, String) {
    if let Some(why) = cx.skipped.get(spec.name) {
        return (Status::Skipped, why.clone());
    }
    let st: Vec<(Family, FamilyStatus)> = spec
        .families
        .iter()
        .map(|f| {
            let s = cx
                .families
                .get(f)
                .copied()
                .unwrap_or(FamilyStatus::SourceEmpty);
            // records without results were read whole for fields that do not need them
            match s {
                FamilyStatus::NotYetPublished if !needs_results(spec.name) => {
                    (*f, FamilyStatus::Ok)
                }
                s => (*f, s),
            }
        })
        .collect();
    if let Some((f, _)) = st.iter().find(|(_, s)| *s == FamilyStatus::FetchFailed) {
        return (
            Status::FetchFailed,
            format!(
                "the snapshot could not fetch {f} (its error is in asset_families and the catalog): re-run the snapshot"
            ),
        );
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
    if let Some(d) = cx.undecided.get(spec.name) {
        return (Status::SourceEmpty, format!("{d}{dropped}"));
    }
    if st.iter().any(|(_, s)| *s == FamilyStatus::Ok) {
        let unread = not_read(spec.name);
        let (read, present): (Vec<&str>, Vec<&str>) = st
            .iter()
            .filter(|(_, s)| *s == FamilyStatus::Ok)
            .map(|(f, _)| f.as_str())
            .partition(|f| !unread.iter().any(|u| u.as_str() == *f));
        let not_read = if present.is_empty() {
            String::new()
        } else {
            format!(
                "{} record(s) present but not read for this field by the extractive steps",
                present.join(", ")
            )
        };
        let detail = match (read.is_empty(), not_read.is_empty()) {
            (false, true) => format!("{} record(s) checked; none states it", read.join(", ")),
            (false, false) => format!(
                "{} record(s) checked; none states it; {not_read}",
                read.join(", ")
            ),
            (true, _) => not_read,
        };
        return (Status::SourceEmpty, format!("{detail}{dropped}"));
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

    fn empties(fams: &[(Family, FamilyStatus)], filled: &[&str]) -> Vec<(&'static str, Status)> {
        let families: BTreeMap<_, _> = fams.iter().copied().collect();
        let (s, u, d, r) = (
            BTreeMap::new(),
            BTreeMap::new(),
            BTreeMap::new(),
            BTreeMap::new(),
        );
        let filled: BTreeSet<&str> = filled.iter().copied().collect();
        empty_cells(
            &filled,
            &Context {
                families: &families,
                skipped: &s,
                unpublished: &u,
                undecided: &d,
                rejected: &r,
            },
        )
        .into_iter()
        .map(|(f, st, _)| (f.name, st))
        .collect()
    }

    #[test]
    fn every_unfilled_field_gets_exactly_one_status() {
        assert_eq!(empties(&[], &[]).len(), FIELDS.len());
        let some = empties(&[], &["efficacy.value", "trials.phase"]);
        assert_eq!(some.len(), FIELDS.len() - 2);
        assert!(some.iter().all(|(f, _)| *f != "efficacy.value"));
    }

    #[test]
    fn empty_cells_say_what_kind_of_empty() {
        let cells = empties(
            &[
                (Ctgov, FamilyStatus::NotYetPublished),
                (Sec, FamilyStatus::Skipped),
                (FdaLabel, FamilyStatus::FetchFailed),
                (Epi, FamilyStatus::Ok),
            ],
            &[],
        );
        let st = |f: &str| cells.iter().find(|c| c.0 == f).unwrap().1;
        assert_eq!(st("efficacy.value"), Status::NotYetPublished);
        assert_eq!(st("safety.serious_ae_affected"), Status::NotYetPublished);
        // design fields are in the registration: a study without results was read for them
        assert_eq!(st("trials.allocation"), Status::SourceEmpty);
        assert_eq!(st("trials.pivotal"), Status::SourceEmpty);
        assert_eq!(st("financials.cash"), Status::Skipped);
        assert_eq!(st("regulatory.boxed_warning"), Status::FetchFailed);
        assert_eq!(st("market.incidence"), Status::SourceEmpty);
        assert_eq!(st("identity.icd10_codes"), Status::SourceEmpty);
    }

    #[test]
    fn a_family_the_steps_do_not_read_is_not_said_to_be_checked() {
        let families: BTreeMap<_, _> = [(Pubmed, FamilyStatus::Ok)].into_iter().collect();
        let none = BTreeMap::new();
        let cx = Context {
            families: &families,
            skipped: &none,
            unpublished: &none,
            undecided: &none,
            rejected: &BTreeMap::new(),
        };
        let (st, detail) = empty_status(spec("identity.indication").unwrap(), &cx);
        assert_eq!(st, Status::SourceEmpty);
        assert!(!detail.contains("none states it"), "{detail}");
        assert!(
            detail.contains("pubmed record(s) present but not read"),
            "{detail}"
        );
    }
}
