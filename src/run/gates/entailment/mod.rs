//! The entailment gate: the claim is what its quote and record say, not only a true quote
//! next to it. Deterministic rules, each with a machine name and a reason for a person:
//!
//! - `scope`: the cited record is one of the asset's records (a competitor's record only
//!   for a competitors field);
//! - `identifier`: every identifier of the value (NCT, NDA/BLA/ANDA, PMID, CIK, set_id,
//!   codes such as V600E) occurs whole in the quote;
//! - `field`: the record part holding the quote may feed the field (`jobs/field_fitness.csv`);
//! - `bare_number`: a quote that is only a number has a locator, or occurs once in the record;
//! - at a structured place the extractive reasoner bound (a posted result group): the
//!   claim's arm, dose, time point, population and unit are that place's;
//! - in text, by the [`binder`]: the arm, time point, unit, dose phase and population the
//!   number is bound to in its clause are the claim's;
//! - `direction`: negation, increase/decrease and superiority/non-inferiority agree.
//!
//! What no rule can decide is `undecided`: accepted, marked, and left to the judge when
//! one is configured. Pure.

pub mod binder;
mod context_table;
mod table;
pub mod tables;
mod text;

pub(crate) use text::{concepts_of, group_of, groups_named, names_subgroup};

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::domain::{Claim, Label};
use crate::run::evidence::{Evidence, EvidenceRecord};
use crate::run::profile;
use crate::snapshot::resolve::Role;

use binder::{Kind, Text, claim_time_points};
use tables::{Cues, Fitness, Lexicon, Unfit, Units};

/// The rules of the gate, by machine name.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    strum::IntoStaticStr,
    strum::EnumString,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Rule {
    Scope,
    Identifier,
    Field,
    BareNumber,
    Endpoint,
    Arm,
    Dose,
    TimePoint,
    Population,
    Unit,
    Direction,
    /// The independent judge's verdict.
    Judge,
}

impl Rule {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// What the rule checks, in words, for the report and the rejections table.
    pub fn words(self) -> &'static str {
        match self {
            Rule::Scope => "the cited record is not one of the asset's records",
            Rule::Identifier => "an identifier of the value is not the quote's own",
            Rule::Field => "the part of the record quoted does not feed this field",
            Rule::BareNumber => "a quote that is only a number does not say where it is",
            Rule::Endpoint => "the number is a value of another endpoint",
            Rule::Arm => "the number belongs to another arm of the trial",
            Rule::Dose => "the number belongs to another dose",
            Rule::TimePoint => "the number is for another time point",
            Rule::Population => "the number is for another population",
            Rule::Unit => "the source gives the number in another unit",
            Rule::Direction => "the source says the opposite",
            Rule::Judge => "the independent judge found that the quote does not say this",
        }
    }
}

/// The gate's verdict on one claim.
#[derive(Clone, Debug, PartialEq)]
pub enum Entailment {
    Holds,
    /// No rule could decide; the reason says what is missing.
    Undecided(String),
    Fails(Rule, String),
}

/// A cell the extractive reasoner bound to a structured place of a record.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    pub field: String,
    pub endpoint: String,
    pub population: String,
    pub arm: String,
    pub unit: String,
}

impl Cell {
    pub fn of(c: &Claim) -> Cell {
        let s = |x: &Option<String>| x.clone().unwrap_or_default();
        Cell {
            field: c.field.clone(),
            endpoint: s(&c.endpoint),
            population: s(&c.population),
            arm: s(&c.arm),
            unit: s(&c.unit),
        }
    }
}

/// What the gate knows of one asset: its names, its records, and the structured places
/// its extractive claims bound.
#[derive(Debug, Default)]
pub struct Scope {
    pub names: Vec<String>,
    /// source id -> role of the record for this asset.
    pub members: HashMap<String, Role>,
    /// (source id, locator) -> the cells bound there.
    pub cells: HashMap<(String, String), Vec<Cell>>,
    /// (source id, field, endpoint, arm) -> how many populations (classes) it has.
    classes: HashMap<(String, String, String, String), HashSet<String>>,
}

impl Scope {
    pub fn new(names: Vec<String>, members: HashMap<String, Role>) -> Scope {
        Scope {
            names,
            members,
            ..Scope::default()
        }
    }

    /// The scope of a portfolio asset in a snapshot: its names (and id) and the records
    /// its manifest entry lists.
    pub fn of(asset: &crate::domain::Asset, entry: &crate::lake::manifest::AssetEntry) -> Scope {
        Scope::with_members(
            asset,
            entry
                .members
                .iter()
                .map(|m| (m.source_id.to_string(), m.role)),
        )
    }

    /// The scope of a portfolio asset with these records (source id, role): its
    /// manifest entry's members, or its bundle's rows, which are the same records.
    pub fn with_members(
        asset: &crate::domain::Asset,
        members: impl IntoIterator<Item = (String, Role)>,
    ) -> Scope {
        Scope::new(
            asset
                .names
                .iter()
                .map(|n| n.to_string())
                .chain([asset.id.to_string()])
                .collect(),
            members.into_iter().collect(),
        )
    }

    /// Binds the accepted structured facts (each with the source id the gates found).
    pub fn bind<'c>(&mut self, claims: impl IntoIterator<Item = (&'c Claim, &'c str)>) {
        for (c, sid) in claims {
            let Some(loc) = c.locator.as_deref().filter(|l| !l.is_empty()) else {
                continue;
            };
            if c.label != Label::Fact || loc.starts_with("bytes:") {
                continue;
            }
            let cell = Cell::of(c);
            self.classes
                .entry((
                    sid.to_string(),
                    cell.field.clone(),
                    cell.endpoint.clone(),
                    cell.arm.clone(),
                ))
                .or_default()
                .insert(cell.population.clone());
            let v = self
                .cells
                .entry((sid.to_string(), loc.to_string()))
                .or_default();
            if !v.contains(&cell) {
                v.push(cell);
            }
        }
    }
}

/// An independent judge for the pairs the rules leave undecided (see `run::judge`).
pub trait Judge: Sync {
    /// The verdict on claim `c`, whose quote sits in field `field` of `r`; `why` says
    /// why the rules could not decide. A judge that cannot answer leaves it undecided.
    fn decide(&self, c: &Claim, r: &EvidenceRecord, field: usize, why: &str) -> Entailment;
    /// The judge's model, named in verdicts.
    fn model(&self) -> &str;
}

/// Everything the gate reads besides the claim and the evidence.
pub struct Context<'a> {
    pub assets: &'a HashMap<String, Scope>,
    pub fitness: &'a Fitness,
    pub units: &'a Units,
    pub judge: Option<&'a dyn Judge>,
}

impl<'a> Context<'a> {
    pub fn new(assets: &'a HashMap<String, Scope>) -> Context<'a> {
        Context {
            assets,
            fitness: Fitness::shipped(),
            units: Units::shipped(),
            judge: None,
        }
    }

    pub fn with_judge(mut self, judge: Option<&'a dyn Judge>) -> Context<'a> {
        self.judge = judge;
        self
    }
}

/// Words that say nothing about which group or population a text names.
const GENERIC: &[&str] = &[
    "the",
    "a",
    "an",
    "of",
    "in",
    "for",
    "and",
    "with",
    "group",
    "groups",
    "arm",
    "arms",
    "treatment",
    "treated",
    "patients",
    "participants",
    "subjects",
    "receiving",
    "received",
    "who",
    "on",
    "to",
    "at",
    "by",
    "or",
    "all",
    "n",
    "fas",
    "itt",
    "mitt",
    "population",
    "set",
    "analysis",
    "full",
    "safety",
    "cohort",
    "was",
    "were",
    "is",
    "are",
    "dose",
    "doses",
    "mg",
    "kg",
    "daily",
    "weekly",
    "every",
    "once",
    "twice",
    "qw",
    "q2w",
    "q4w",
    "qd",
    "bid",
    "tid",
    "week",
    "weeks",
    "day",
    "days",
    "vs",
    "versus",
    "plus",
    "other",
];

/// Comparator groups a text names without naming the asset.
const COMPARATORS: &[&str] = &[
    "placebo",
    "pbo",
    "chemotherapy",
    "dacarbazine",
    "paclitaxel",
    "docetaxel",
    "vehicle",
    "mtx",
    "methotrexate",
    "sham",
    "control",
    "comparator",
    "standard",
    "soc",
    "bsc",
    "usual",
    "observation",
];

/// The age groups a population can name, each with the words that name it. A claim for
/// one age group whose quote speaks only of others states another population's value.
const AGE_GROUPS: [(&str, &[&str]); 3] = [
    (
        "children",
        &[
            "child",
            "children",
            "childhood",
            "pediatric",
            "paediatric",
            "adolescent",
            "adolescents",
            "infant",
            "infants",
            "neonate",
            "neonates",
            "newborn",
            "newborns",
            "toddler",
            "toddlers",
            "juvenile",
        ],
    ),
    ("adults", &["adult", "adults"]),
    ("elderly", &["elderly", "geriatric"]),
];

/// Whether a lower-cased word names a subgroup: a subgroup word (an impairment, a
/// region, prior therapy …) or an age group other than adults.
fn subgroup_named(w: &str) -> bool {
    text::subgroup_word(w) || age_groups([w]).iter().any(|&g| AGE_GROUPS[g].0 != "adults")
}

/// The age groups (indexes into [`AGE_GROUPS`]) that lower-cased words name.
fn age_groups<'w>(words: impl IntoIterator<Item = &'w str>) -> Vec<usize> {
    let mut out = Vec::new();
    for w in words {
        if let Some(g) = AGE_GROUPS.iter().position(|(_, ws)| ws.contains(&w))
            && !out.contains(&g)
        {
            out.push(g);
        }
    }
    out
}

/// Words that name a subgroup outright, in a clause of any field.
const STRONG_SUBGROUP: &[&str] = &[
    "subgroup",
    "subgroups",
    "subset",
    "stratum",
    "strata",
    "subpopulation",
];

/// Words that, beside the outright ones, mark a subgroup in a clause of an arm-level or
/// dose value: ages, regions, prior therapy, biomarkers, sex, impairment.
const SUBGROUP: &[&str] = &[
    "aged",
    "older",
    "younger",
    "elderly",
    "pediatric",
    "paediatric",
    "children",
    "adolescents",
    "asian",
    "japanese",
    "chinese",
    "european",
    "caucasian",
    "black",
    "white",
    "hispanic",
    "region",
    "impairment",
    "impaired",
    "hepatic",
    "renal",
    "debilitated",
    "regions",
    "prior",
    "previously",
    "pretreated",
    "naive",
    "refractory",
    "v600k",
    "v600e",
    "pd",
    "l1",
    "female",
    "females",
    "male",
    "males",
    "women",
    "men",
    "weight",
    "baseline",
    "mutation",
    "mutant",
    "wild",
    "positive",
    "negative",
];

/// Words that name an analysis set, not whom it holds ("modified ITT", "per-protocol
/// evaluable").
const ANALYSIS_SET: &[&str] = &[
    "modified",
    "evaluable",
    "efficacy",
    "per",
    "protocol",
    "pp",
    "intention",
    "intent",
    "analyzed",
    "analysed",
    "randomized",
    "randomised",
    "enrolled",
    "dosed",
];

/// The bounds a text sets, each a number with its side (true: at or above it): "≥ 5%",
/// "at least 5%", "65 years and older" are above; "< 5%", "less than 30 kg" below.
fn bounds(s: &str) -> Vec<(String, bool)> {
    let t = Text::new(s);
    let w = |i: usize| t.word(i).unwrap_or("");
    let mut out = Vec::new();
    for i in 0..t.tokens.len() {
        if t.tokens[i].kind != Kind::Number {
            continue;
        }
        // ">=" may come as two symbols
        let sym = match i.checked_sub(1).map(|k| t.tokens[k].text) {
            Some("=") if i >= 2 && matches!(t.tokens[i - 2].text, ">" | "<") => {
                t.tokens[i - 2].text
            }
            Some(x) => x,
            None => "",
        };
        let before = |a: &str, b: &str| i >= 2 && w(i - 2) == a && w(i - 1) == b;
        // past the number's unit ("5 %", "65 years of age")
        let mut k = i + 1;
        while k < t.tokens.len() && k <= i + 4 && !matches!(w(k), "or" | "and") {
            k += 1;
        }
        let after = |b: &[&str]| matches!(w(k), "or" | "and") && b.contains(&w(k + 1));
        let high = matches!(sym, "≥" | ">" | ">=" | "≧")
            || before("at", "least")
            || before("more", "than")
            || before("greater", "than")
            || matches!(w(i.wrapping_sub(1)), "over" | "above")
            || after(&["more", "greater", "older", "above", "over", "higher"]);
        let low = matches!(sym, "≤" | "<" | "<=" | "≦")
            || before("less", "than")
            || before("fewer", "than")
            || before("at", "most")
            || before("up", "to")
            || matches!(w(i.wrapping_sub(1)), "under" | "below")
            || after(&["less", "fewer", "younger", "below", "under", "lower"]);
        if high != low {
            out.push((t.tokens[i].lower.clone(), high));
        }
    }
    out
}

/// A bound of `mine` that `theirs` sets on the other side only ("at least 5%" against
/// "< 5%"), with its side in `mine`.
fn opposite_bound<'b>(
    mine: &'b [(String, bool)],
    theirs: &[(String, bool)],
) -> Option<&'b (String, bool)> {
    mine.iter().find(|(n, high)| {
        theirs.iter().any(|(m, h)| m == n && h != high)
            && !theirs.iter().any(|(m, h)| m == n && h == high)
    })
}

/// Whether `mine` sets bounds and every one of them is among `theirs`.
fn all_within(mine: &[(String, bool)], theirs: &[(String, bool)]) -> bool {
    !mine.is_empty() && mine.iter().all(|b| theirs.contains(b))
}

/// A posted class or group title that names an analysis ("analysis 1"), not a group.
fn analysis_label(s: &str) -> bool {
    let w = words(s);
    !w.is_empty()
        && w[0] == "analysis"
        && w[1..]
            .iter()
            .all(|x| x.chars().all(|c| c.is_ascii_alphanumeric() && x.len() <= 2))
}

/// Words that, in a posted class title, name whom the class holds.
const DIVIDING: &[&str] = &[
    "years",
    "year",
    "aged",
    "age",
    "participants",
    "patients",
    "subjects",
    "severity",
    "race",
    "ethnicity",
    "latino",
    "expression",
    "mrd",
    "country",
    "countries",
    "region",
    "united",
    "states",
    "america",
    "american",
    "europe",
    "european",
    "asia",
    "japan",
    "china",
    "canada",
    "kingdom",
    "germany",
    "france",
    "spain",
    "italy",
    "korea",
    "mexico",
    "denmark",
    "greece",
    "singapore",
    "australia",
    "india",
    "brazil",
];

/// Whether a posted class title divides the patients (an age band, a race, a region, a
/// sex, a biomarker stratum, a subtype, a baseline state: "≥ 65 years", "Room Air
/// (Baseline)", "Refractory anemia (RA)") rather than naming what its numbers measure
/// ("IL1", "fasting", "Emotional Functioning", "Nasal/OP Samples").
fn divides_patients(title: &str) -> bool {
    let w = words(title);
    !bounds(title).is_empty()
        || !age_groups(w.iter().map(String::as_str)).is_empty()
        || w.iter()
            .any(|x| text::subgroup_word(x) || DIVIDING.contains(&x.as_str()))
}

/// Whether `w` is an initialism ("elbw", "igt") of consecutive words of lower-cased
/// `text` ("extremely low birth weight", "impaired glucose tolerance").
fn initialism_in(w: &str, text: &str) -> bool {
    let letters: Vec<char> = w.chars().collect();
    if !(2..=6).contains(&letters.len()) || !letters.iter().all(char::is_ascii_alphabetic) {
        return false;
    }
    let initials: Vec<char> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|x| !x.is_empty())
        .filter_map(|x| x.chars().next())
        .collect();
    initials
        .windows(letters.len())
        .any(|win| win == letters.as_slice())
}

/// Time points that are events of a patient's course rather than a day or week.
const EVENT_TIME_POINTS: &[&str] = &[
    "discharge",
    "end of treatment",
    "end of study",
    "early termination",
    "final visit",
    "last visit",
];

/// The event a title names as its time point ("Change at Discharge"), if any.
fn event_time_point(title: &str) -> Option<&'static str> {
    let l = title.to_lowercase();
    EVENT_TIME_POINTS.iter().copied().find(|e| l.contains(e))
}

/// Words that say a population is everyone.
const OVERALL: &[&str] = &[
    "all",
    "overall",
    "itt",
    "intention",
    "intent",
    "randomized",
    "randomised",
    "fas",
    "full",
    "total",
    "entire",
];

const NEGATIONS: &[&str] = &[
    "not", "no", "none", "never", "without", "neither", "nor", "absence", "absent", "lack", "free",
    "nothing", "n't", "cannot", "fail", "failed",
];

/// Whether word `k` of `ws` is a negation. "Free" negates only what follows "of" or
/// "from" ("free of disease"): in "progression-free survival" it negates progression,
/// which comes before it, and survival is what is measured.
fn negation_at(ws: &[String], k: usize) -> bool {
    let w = ws[k].as_str();
    NEGATIONS.contains(&w)
        && (w != "free" || matches!(ws.get(k + 1).map(String::as_str), Some("of" | "from")))
}

/// Whether any word of `ws` is a negation ([`negation_at`]).
fn any_negation(ws: &[String]) -> bool {
    (0..ws.len()).any(|k| negation_at(ws, k))
}

const UP: &[&str] = &[
    "increase",
    "increased",
    "increases",
    "increasing",
    "higher",
    "elevated",
    "elevation",
    "elevations",
    "improved",
    "improvement",
    "improves",
    "improve",
    "rise",
    "rose",
    "gain",
    "greater",
    "prolonged",
    "longer",
    "prolongs",
    "prolong",
    "prolongation",
];
const DOWN: &[&str] = &[
    "decrease",
    "decreased",
    "decreases",
    "decreasing",
    "reduced",
    "reduction",
    "reductions",
    "reduces",
    "reduce",
    "lower",
    "lowered",
    "decline",
    "declined",
    "fell",
    "loss",
    "shorter",
    "shorten",
    "shortens",
    "shortened",
    "shortening",
    "worsened",
    "worse",
    "less",
    "fewer",
];

const LOADING: &[&str] = &[
    "loading",
    "initial",
    "initially",
    "induction",
    "starting",
    "start",
];
const MAINTENANCE: &[&str] = &[
    "maintenance",
    "thereafter",
    "subsequently",
    "subsequent",
    "then",
];

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn distinctive(s: &str) -> Vec<String> {
    let ws = words(s);
    // "at risk" is the registry's word for those an adverse event table counts, not a
    // subgroup (those "at high risk" are one)
    let at_risk = |i: usize| ws[i] == "risk" && i > 0 && ws[i - 1] == "at";
    (0..ws.len())
        .filter(|&i| !at_risk(i))
        .map(|i| ws[i].clone())
        .map(|w| if w == "pbo" { "placebo".into() } else { w })
        .filter(|w| !GENERIC.contains(&w.as_str()) && !w.chars().all(|c| c.is_ascii_digit()))
        .collect()
}

/// Whether a claim's population is everyone (blank, "all randomized", "ITT", …).
fn overall(p: Option<&str>) -> bool {
    let w = distinctive(p.unwrap_or(""));
    w.is_empty()
        || w.iter().all(|x| {
            OVERALL.contains(&x.as_str())
                || matches!(
                    x.as_str(),
                    "patients" | "treat" | "analyzed" | "sexes" | "both"
                )
                // an analysis set of everyone dosed: "as-treated safety population"
                || matches!(
                    x.as_str(),
                    "as" | "treated" | "safety" | "population" | "analysis" | "set"
                )
        })
}

/// Years (1900–2100) written in a text.
fn years(s: &str) -> Vec<u32> {
    let t = Text::new(s);
    let mut v: Vec<u32> = t
        .tokens
        .iter()
        .filter(|x| x.kind == Kind::Number && x.lower.len() == 4)
        .filter_map(|x| x.lower.parse().ok())
        .filter(|y| (1900..=2100).contains(y))
        .collect();
    // "2025-01-01" tokenizes as 2025 - 01 - 01: the year leads
    for w in s.split(|c: char| !c.is_ascii_digit()) {
        if w.len() == 4
            && let Ok(y) = w.parse::<u32>()
            && (1900..=2100).contains(&y)
            && !v.contains(&y)
        {
            v.push(y);
        }
    }
    v
}

/// The fields next to `place` (same parent) as (key, text).
fn siblings<'r>(r: &'r EvidenceRecord, place: &str) -> Vec<(&'r str, &'r str)> {
    let Some(cut) = place.rfind('/') else {
        return Vec::new();
    };
    let parent = &place[..cut + 1];
    r.locators
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            l.as_str() != place && l.starts_with(parent) && !l[parent.len()..].contains('/')
        })
        .map(|(i, l)| (&l[parent.len()..], r.field_text(i)))
        .collect()
}

/// A table row's own period and population (its `year`, `fy`, `end`, `sex` fields) must
/// be the claim's: 1.8 in the 2020 row is not the 2021 rate, and a both-sexes rate is not
/// the rate for women.
/// A posted outcome analysed in a subset ("participants who underwent HSCT") gives no
/// value for everyone: a claim for all patients at such an outcome fails, unless the
/// claim names the subset.
fn outcome_population(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    if !profile::spec(&c.field).is_some_and(|s| s.arm_bound) {
        return None;
    }
    let pop_words = words(c.population.as_deref().unwrap_or(""));
    let everyone_enrolled = pop_words.iter().any(|w| w == "enrolled");
    // "All randomized participants, transfusion-dependent lower-risk MDS without del 5q":
    // everyone, described
    let all_of = pop_words.first().is_some_and(|w| w == "all");
    if !overall(c.population.as_deref()) && !everyone_enrolled && !all_of {
        return None;
    }
    // the outcome's own population text: JSON `…/outcomeMeasures/N/populationDescription`,
    // legacy XML `…/outcome[N]/population[1]`
    let (head, key, title_key) = if let Some(i) = place.find("/outcomeMeasures/") {
        let rest = &place[i + "/outcomeMeasures/".len()..];
        let n = rest.split('/').next()?;
        (
            format!("{}/outcomeMeasures/{n}", &place[..i]),
            "/populationDescription",
            "/title",
        )
    } else if let Some(i) = place.find("/outcome[") {
        let end = place[i + 1..].find(']')? + i + 2;
        (place[..end].to_string(), "/population[1]", "/title[1]")
    } else {
        return None;
    };
    let field_at = |key: &str| {
        let want = format!("{head}{key}");
        r.locators
            .iter()
            .position(|l| *l == want)
            .map(|i| r.field_text(i))
    };
    let said = distinctive(&format!(
        "{} {} {}",
        c.endpoint.as_deref().unwrap_or(""),
        c.value,
        c.population.as_deref().unwrap_or("")
    ));
    // a title that names whom it counts: "Percentage of Participants With a Erythroid Gene
    // Signature Who Achieved …"
    if let Some(title) = field_at(title_key)
        && let Some(q) = title_qualifier(title)
        && !q.iter().any(|x| said.contains(x))
    {
        return Some(Entailment::Fails(
            Rule::Population,
            format!(
                "the outcome counts only participants with {} ({:?}), not all patients",
                q.join(" "),
                crate::domain::one_line(title)
            ),
        ));
    }
    // a claim for everyone enrolled, at an outcome analysed in fewer than were enrolled
    if everyone_enrolled
        && let Some((analysed, enrolled)) = analysed_of_enrolled(r, &head)
        && analysed < enrolled
    {
        return Some(Entailment::Fails(
            Rule::Population,
            format!(
                "the outcome is analysed in {analysed} participants, not in all {enrolled} enrolled"
            ),
        ));
    }
    // a claim for all of the study's participants by their count ("All 116 treated
    // participants"), at an outcome analysed in fewer
    let counted = words(c.population.as_deref().unwrap_or(""))
        .iter()
        .find_map(|w| w.parse::<u64>().ok());
    if let Some(n) = counted
        && let Some((analysed, enrolled)) = analysed_of_enrolled(r, &head)
        && n == enrolled
        && analysed < n
    {
        return Some(Entailment::Fails(
            Rule::Population,
            format!(
                "the outcome is analysed in {analysed} participants, not in the {n} the claim names"
            ),
        ));
    }
    if !overall(c.population.as_deref()) {
        return None;
    }
    let text = field_at(key)?;
    let w = words(text);
    let who = w
        .windows(2)
        .position(|p| p[0] == "who" && matches!(p[1].as_str(), "underwent" | "had" | "achieved"));
    let subset = who.is_some() || w.iter().any(|x| STRONG_SUBGROUP.contains(&x.as_str()));
    // a claim whose population says everyone ("Intent-to-treat (all randomized)") names
    // the subset only in that population: the endpoint's "response" is the outcome's name
    let population = distinctive(c.population.as_deref().unwrap_or(""));
    // (the subset's words: those after "who achieved", to the end of their clause)
    let lower = text.to_lowercase();
    let subset_words = who
        .and_then(|_| {
            ["who achieved", "who had", "who underwent"]
                .iter()
                .filter_map(|p| lower.find(p).map(|i| i + p.len()))
                .min()
        })
        .map(|i| {
            let rest = &lower[i..];
            words(&rest[..rest.find(['.', ';', ',']).unwrap_or(rest.len())])
        });
    let named = match subset_words {
        Some(ws) if !population.is_empty() => ws
            .iter()
            .filter(|x| x.len() >= 4 && !GENERIC.contains(&x.as_str()))
            .any(|x| population.contains(x)),
        _ => distinctive(text)
            .iter()
            .filter(|x| x.len() >= 4)
            .any(|x| said.contains(x)),
    };
    (subset && !named).then(|| {
        Entailment::Fails(
            Rule::Population,
            format!(
                "the outcome is analysed in a subset ({:?}), not in all patients",
                crate::domain::one_line(text)
            ),
        )
    })
}

/// The count a registry record gives as enrolled (JSON `enrollmentInfo/count`, legacy
/// XML `enrollment`), as written.
fn enrolled_count(r: &EvidenceRecord) -> Option<&str> {
    r.locators.iter().enumerate().find_map(|(i, l)| {
        matches!(
            l.as_str(),
            "/protocolSection/designModule/enrollmentInfo/count"
                | "/clinical_study[1]/enrollment[1]"
        )
        .then(|| r.field_text(i).trim())
    })
}

/// How many participants the posted outcome at `head` (`…/outcomeMeasures/N`,
/// `…/outcome[N]`) was analysed in, over its groups, and how many the study enrolled.
fn analysed_of_enrolled(r: &EvidenceRecord, head: &str) -> Option<(u64, u64)> {
    let number = |i: usize| r.field_text(i).trim().parse::<u64>().ok();
    let enrolled = enrolled_count(r)?.parse::<u64>().ok()?;
    let counts: Vec<u64> = r
        .locators
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            l.strip_prefix(head).is_some_and(|rest| {
                (rest.starts_with("/denoms/0/counts/") && rest.ends_with("/value"))
                    || (rest.starts_with(
                        "/measure[1]/analyzed_list[1]/analyzed[1]/count_list[1]/count[",
                    ) && rest.ends_with("/@value"))
            })
        })
        .filter_map(|(i, _)| number(i))
        .collect();
    (!counts.is_empty()).then(|| (counts.iter().sum(), enrolled))
}

/// Whether a place is in a posted baseline measure (JSON or legacy XML).
fn baseline_measure(place: &str) -> bool {
    place.contains("/baselineCharacteristicsModule/measures/")
        || place.contains("/clinical_results[1]/baseline[1]/measure_list[")
}

/// A posted baseline characteristic (its mean FEV1, its BMI) is a value at baseline: a
/// value claimed from it must say so, not stand for the end of the study.
fn at_baseline(c: &Claim, place: &str) -> Option<Entailment> {
    if !baseline_measure(place) || !c.field.starts_with("efficacy.") {
        return None;
    }
    let said = words(&format!(
        "{} {}",
        c.endpoint.as_deref().unwrap_or(""),
        c.value
    ));
    (!said.iter().any(|w| w == "baseline")).then(|| {
        Entailment::Fails(
            Rule::TimePoint,
            "the record gives this number among the baseline characteristics, a value at baseline, which the claim does not say".into(),
        )
    })
}

/// A posted baseline count of a class or category ("United States" of the region of
/// enrollment, "Children (2-11 years)" of the age groups) counts only those: the claim
/// must name it when the measure divides participants into several.
fn baseline_subgroup(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    // (the item's marker, what ends its index, its title's key)
    let levels: [(&str, &str, &str); 4] = [
        ("/classes/", "/", "/title"),
        ("/categories/", "/", "/title"),
        ("/class[", "]", "]/title[1]"),
        ("/category[", "]", "]/title[1]"),
    ];
    if !baseline_measure(place) {
        return None;
    }
    let norm = |s: &str| -> Vec<String> {
        words(s)
            .iter()
            .map(|w| text::stem_of(sex_word(w)).to_string())
            .filter(|w| !GENERIC.contains(&w.as_str()) && !matches!(w.as_str(), "year" | "years"))
            .collect()
    };
    let said = norm(&said(c));
    for (marker, end, title_key) in levels {
        let Some(i) = place.rfind(marker) else {
            continue;
        };
        let list = &place[..i + marker.len()];
        let Some(own) = place[list.len()..].split(end).next() else {
            continue;
        };
        let titles: Vec<(&str, &str)> = r
            .locators
            .iter()
            .enumerate()
            .filter_map(|(k, l)| {
                let idx = l.strip_prefix(list)?.strip_suffix(title_key)?;
                idx.chars()
                    .all(|ch| ch.is_ascii_digit())
                    .then(|| (idx, r.field_text(k).trim()))
            })
            .filter(|(_, t)| !t.is_empty())
            .collect();
        if titles.len() < 2 {
            continue;
        }
        let Some((_, title)) = titles.iter().find(|(k, _)| *k == own) else {
            continue;
        };
        let mine = norm(title);
        if mine.is_empty() || mine.iter().any(|w| said.contains(w)) {
            continue;
        }
        return Some(Entailment::Fails(
            Rule::Population,
            format!(
                "the record gives this number for the baseline {} {:?} only, which the claim does not name",
                if marker.contains("categor") {
                    "category"
                } else {
                    "class"
                },
                crate::domain::one_line(title)
            ),
        ));
    }
    None
}

/// A posted number is claimed for another outcome of the record, or another class of its
/// outcome: against some other, the claim's endpoint has none of the words that set this
/// one's title apart ("Dyspnea") and some of those that set the other's apart ("Global
/// Health Status": two or more for an outcome; one for a class, "serious" against "grade
/// 3-4").
fn outcome_endpoint(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    // a claim without an endpoint names its item in its value ("Any-grade laboratory
    // abnormalities in 41.7% of Cohort three")
    let endpoint = c
        .endpoint
        .as_deref()
        .filter(|e| !e.trim().is_empty())
        .unwrap_or(&c.value);
    let said = distinctive(&format!(
        "{endpoint} {}",
        c.population.as_deref().unwrap_or("")
    ));
    // an outcome is told from the others by the claim's endpoint alone: a population
    // "with abnormal glucose tolerance" names no "Glucose Tolerance" outcome; a class also
    // by the field's own words ("serious" of safety.serious_ae_affected)
    let said_endpoint = distinctive(endpoint);
    let mut said = said;
    said.extend(distinctive(&c.field.replace(['.', '_'], " ")));
    // the value may name its own item where the endpoint does not ("not hospitalized but
    // limited in activities" of the class "Not hospitalized, limit on activities")
    let value_words = distinctive(&c.value);
    // every word of the claim that may name the item: endpoint, population and value
    let claimed = distinctive(&format!(
        "{endpoint} {} {}",
        c.population.as_deref().unwrap_or(""),
        c.value
    ));
    // the numbers the claim writes, which may set a title apart ("Grade 3 or 4")
    let digits: Vec<String> = words(&format!(
        "{endpoint} {} {}",
        c.population.as_deref().unwrap_or(""),
        c.value
    ))
    .into_iter()
    .filter(|w| w.chars().all(|ch| ch.is_ascii_digit()))
    .collect();
    // the outcomes of the record, then the classes of the outcome (JSON, legacy XML):
    // (list prefix, the segment that ends an item's number, title suffix, words needed)
    let levels: [(&str, &str, &str, usize); 4] = [
        ("/outcomeMeasures/", "/", "/title", 2),
        ("/outcome[", "]", "]/title[1]", 2),
        ("/classes/", "/", "/title", 1),
        ("/class[", "]", "]/title[1]", 1),
    ];
    for (marker, end, title_tail, needed) in levels {
        let Some(i) = place.find(marker) else {
            continue;
        };
        let list = &place[..i + marker.len()];
        let Some(own) = place[list.len()..].split(end).next() else {
            continue;
        };
        let said = if needed >= 2 { &said_endpoint } else { &said };
        if needed == 1
            && let Some(v) = causal_class(r, list, own, title_tail, &claimed)
        {
            return Some(v);
        }
        if let Some(v) = apart_from(
            r,
            list,
            own,
            title_tail,
            (said, &digits),
            (&value_words, &claimed),
            needed,
        ) {
            return Some(v);
        }
    }
    None
}

/// The titled items of a list in a record (`{list}{k}{title_tail}`): each item's number
/// `k` and its title, in record order.
fn item_titles<'r>(r: &'r EvidenceRecord, list: &str, title_tail: &str) -> Vec<(&'r str, &'r str)> {
    r.locators
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let k = l.strip_prefix(list)?.strip_suffix(title_tail)?;
            (!k.is_empty() && k.chars().all(|c| c.is_ascii_digit())).then(|| (k, r.field_text(i)))
        })
        .collect()
}

/// Words by which a class counts only the events put down to the drug.
const CAUSAL: &[&str] = &["related", "suspected", "attributed", "attributable"];

/// A class of events put down to the drug ("≥ 1 Treatment related AE (TEAE) suspected")
/// is not all events of its kind, when the list also has a class without that cause
/// ("At least 1 AE") and the claim names no cause.
fn causal_class(
    r: &EvidenceRecord,
    list: &str,
    own: &str,
    title_tail: &str,
    claimed: &[String],
) -> Option<Entailment> {
    let causal = |t: &str| words(t).iter().any(|w| CAUSAL.contains(&w.as_str()));
    let titles = item_titles(r, list, title_tail);
    let title = titles
        .iter()
        .find(|(k, t)| *k == own && causal(t))
        .map(|(_, t)| *t)?;
    let plain = titles.iter().any(|(k, t)| *k != own && !causal(t));
    (plain && !claimed.iter().any(|w| CAUSAL.contains(&w.as_str()))).then(|| {
        Entailment::Fails(
            Rule::Endpoint,
            format!(
                "the record gives this number for {:?}, events put down to the drug, and the claim names no cause",
                crate::domain::one_line(title)
            ),
        )
    })
}

/// Words that tell versions of one measure apart: a title with one of them and another
/// with another are the same measure read two ways.
const VERSIONS: &[&str] = &[
    "original",
    "modified",
    "revised",
    "adjusted",
    "unadjusted",
    "imputed",
    "observed",
];

/// Among the titled items of a list (`{list}{k}{title_tail}`), item `own`'s number is
/// claimed for another item: against some other, the claim's words (`said`) have none of
/// those that set `own`'s title apart and `needed` or more of those that set the other's.
/// Words of the claim's value (`value`) may name `own` too, not the other.
/// Also when `own` is a composite ("Death or Candidiasis") and the other is one of its
/// parts ("Candidiasis"): the claim names that part and no word of the rest anywhere
/// (`claimed`: its endpoint, population and value).
fn apart_from(
    r: &EvidenceRecord,
    list: &str,
    own: &str,
    title_tail: &str,
    (said, digits): (&[String], &[String]),
    (value, claimed): (&[String], &[String]),
    needed: usize,
) -> Option<Entailment> {
    let titles: Vec<(&str, Vec<String>, &str)> = item_titles(r, list, title_tail)
        .into_iter()
        .map(|(k, t)| (k, distinctive(t), t))
        .collect();
    let (_, mine, my_title) = titles.iter().find(|(j, _, _)| *j == own)?;
    let hits = |ws: &[&String]| ws.iter().filter(|w| said.contains(w)).count();
    // a code of letters and digits is one word however it is hyphenated ("QLQ-C30" and
    // "QLQ-C-30", "HbA1c" and "HbA-1c")
    let squash = |t: &str| -> String {
        t.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let code =
        |w: &str| w.chars().any(|c| c.is_ascii_digit()) && w.chars().any(|c| c.is_alphabetic());
    let my_squashed = squash(my_title);
    let composite = {
        let t = my_title.to_lowercase();
        t.contains(" or ") || t.contains(" and/or ")
    };
    let (_, _, their_title) = titles.iter().find(|(j, theirs, title)| {
        let their_squashed = squash(title);
        let ours: Vec<&String> = mine
            .iter()
            .filter(|w| w.len() >= 3 && !theirs.contains(w))
            .filter(|w| !(code(w) && their_squashed.contains(w.as_str())))
            .collect();
        let apart: Vec<&String> = theirs
            .iter()
            .filter(|w| w.len() >= 3 && !mine.contains(w))
            .filter(|w| !(code(w) && my_squashed.contains(w.as_str())))
            .collect();
        // a title set apart only by its numbers ("Grade 3 or 4" against "Any grade") is
        // apart when the claim writes none of them
        let numbers = |t: &str| -> Vec<String> {
            words(t)
                .into_iter()
                .filter(|w| w.chars().all(|ch| ch.is_ascii_digit()))
                .collect()
        };
        let their_numbers = numbers(title);
        let my_numbers: Vec<String> = numbers(my_title)
            .into_iter()
            .filter(|n| !their_numbers.contains(n))
            .collect();
        let apart_by_number = ours.is_empty()
            && !my_numbers.is_empty()
            && !my_numbers.iter().any(|n| digits.contains(n));
        // the other is a part of this composite, or this item is the other qualified by
        // its cause ("Treatment-related serious adverse events" of "Serious adverse
        // events"), and the claim names the other alone
        let qualified = {
            let (mine, theirs) = (my_title.to_lowercase(), title.to_lowercase());
            mine.strip_suffix(theirs.trim())
                .is_some_and(|head| head.contains("related"))
        };
        let part = (composite || qualified)
            && apart.is_empty()
            && !ours.is_empty()
            && !theirs.is_empty()
            && theirs.iter().all(|w| said.contains(w))
            && !ours.iter().any(|w| claimed.contains(w));
        // the other is this item qualified by its cause, and the claim names the cause
        // ("Treatment-related serious adverse events" at "Serious adverse events")
        let narrower = {
            let (mine, theirs) = (my_title.to_lowercase(), title.to_lowercase());
            theirs
                .strip_suffix(mine.trim())
                .is_some_and(|head| head.contains("related"))
        } && said.iter().any(|w| w == "related");
        // two versions of one measure ("… Based on Original IWG 2006 Criteria" and
        // "… Based on Modified … Criteria"): the other's version word is enough
        let version = |w: &str| VERSIONS.contains(&w);
        let other_version =
            ours.iter().any(|w| version(w)) && apart.iter().any(|w| version(w) && said.contains(w));
        // a one-word title ("Candidiasis") is named by its word
        *j != own && narrower
            || *j != own
                && (!ours.is_empty() || apart_by_number)
                && hits(&ours) == 0
                && !ours.iter().any(|w| w.len() >= 4 && value.contains(w))
                && (part
                    || !apart.is_empty()
                        && (hits(&apart) >= needed.min(apart.len()) || other_version))
    })?;
    Some(Entailment::Fails(
        Rule::Endpoint,
        format!(
            "the record gives this number for {:?}, not for {:?}",
            crate::domain::one_line(my_title),
            crate::domain::one_line(their_title)
        ),
    ))
}

/// The distinctive words of an outcome title's subset, "Participants With <subset> Who
/// …" (a few words at most), if the title has one.
fn title_qualifier(title: &str) -> Option<Vec<String>> {
    let w = words(title);
    let at = w.windows(2).position(|p| {
        matches!(p[0].as_str(), "participants" | "patients" | "subjects") && p[1] == "with"
    })?;
    let rest = &w[at + 2..];
    let who = rest.iter().take(9).position(|x| x == "who")?;
    let q: Vec<String> = distinctive(&rest[..who].join(" "))
        .into_iter()
        .filter(|x| x.len() >= 4)
        .collect();
    (!q.is_empty()).then_some(q)
}

fn row_context(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    let sib = siblings(r, place);
    if sib.is_empty() {
        return None;
    }
    let claim_text = format!(
        "{} {}",
        c.endpoint.as_deref().unwrap_or(""),
        c.population.as_deref().unwrap_or("")
    );
    let want = years(&claim_text);
    let dated = |k: &str| {
        let k = k.trim_start_matches('@').to_lowercase();
        matches!(k.as_str(), "year" | "fy" | "end" | "start" | "period")
    };
    let have: Vec<u32> = sib
        .iter()
        .filter(|(k, _)| dated(k))
        .flat_map(|(_, t)| years(t))
        .collect();
    if !want.is_empty() && !have.is_empty() && !want.iter().any(|y| have.contains(y)) {
        return Some(Entailment::Fails(
            Rule::TimePoint,
            format!(
                "the value at {place} is for {}, not for {}",
                have.iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join("–"),
                want.iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let grouping = |k: &str| {
        matches!(
            k.to_lowercase().as_str(),
            "sex"
                | "gender"
                | "population"
                | "subgroup"
                | "group"
                | "age_group"
                | "race"
                | "stratum"
        )
    };
    let want: Vec<String> = distinctive(c.population.as_deref().unwrap_or(""))
        .into_iter()
        .filter(|w| years(w).is_empty())
        .map(|w| sex_word(&w).to_string())
        .collect();
    if want.is_empty() || overall(c.population.as_deref()) {
        return None;
    }
    for (k, t) in sib.iter().filter(|(k, _)| grouping(k)) {
        let have: Vec<String> = distinctive(t)
            .iter()
            .map(|w| sex_word(w).to_string())
            .collect();
        if !have.is_empty() && !want.iter().any(|w| have.contains(w)) {
            return Some(Entailment::Fails(
                Rule::Population,
                format!(
                    "the value at {place} is for {k} {t:?}, not for {:?}",
                    c.population.as_deref().unwrap_or("")
                ),
            ));
        }
    }
    None
}

fn sex_word(w: &str) -> &str {
    match w {
        "women" | "woman" | "female" | "females" => "female",
        "men" | "man" | "male" | "males" => "male",
        other => other,
    }
}

/// Nouns for a substance other than the drug that a record names by its code: "a
/// modified adenine nucleoside analog GS-441524", "Remdesivir and Its Metabolites
/// GS-704277 and GS-441524".
const OTHER_SUBSTANCE: &[&str] = &[
    "analog",
    "analogs",
    "analogue",
    "analogues",
    "metabolite",
    "metabolites",
    "nucleoside",
    "nucleotide",
    "impurity",
    "degradant",
    "enantiomer",
    "isomer",
    "precursor",
    "derivative",
];

/// A code name the record gives only to another substance (the drug's metabolite, the
/// nucleoside it delivers) is no name of the drug: every place the record writes the
/// code, the word before it names another substance, and none pairs it with a name of
/// the drug ("remdesivir (GS-5734)", "GS-5734 (remdesivir)").
/// A trial's intervention lists its own other names ("Docetaxel": "Taxotere®"): a name
/// quoted from an intervention whose name is none of the asset's (the comparator) is
/// that drug's, not the asset's.
fn another_interventions_name(
    c: &Claim,
    r: &EvidenceRecord,
    field: usize,
    scope: Option<&Scope>,
) -> Option<Entailment> {
    if c.field != "identity.names" {
        return None;
    }
    let scope = scope?;
    let place = c
        .locator
        .as_deref()
        .filter(|l| !l.is_empty())
        .unwrap_or(&r.locators[field]);
    // `…/intervention[2]/other_name[1]` (legacy XML) or `…/interventions/1/otherNames/0`
    let (item, name_key) = if let Some(k) = place.find("/other_name[") {
        (&place[..k], "/intervention_name[1]")
    } else if let Some(k) = place.find("/otherNames/") {
        (&place[..k], "/name")
    } else {
        return None;
    };
    if !(item.contains("/intervention[") || item.contains("/interventions/")) {
        return None;
    }
    let want = format!("{item}{name_key}");
    let name = r
        .locators
        .iter()
        .position(|l| *l == want)
        .map(|i| r.field_text(i))?;
    let name_words = words(name);
    let ours = scope
        .names
        .iter()
        .flat_map(|n| words(n))
        .any(|w| w.len() >= 3 && name_words.contains(&w));
    (!ours).then(|| {
        Entailment::Fails(
            Rule::Field,
            format!(
                "the quote is a name of the trial's intervention {:?}, not of {}",
                crate::domain::one_line(name),
                c.asset
            ),
        )
    })
}

fn code_of_another_substance(
    c: &Claim,
    r: &EvidenceRecord,
    scope: Option<&Scope>,
) -> Option<Entailment> {
    if c.field != "identity.names" {
        return None;
    }
    let code = c.value.trim();
    let coded = !code.contains(char::is_whitespace)
        && code.chars().any(|ch| ch.is_ascii_digit())
        && code.chars().any(|ch| ch.is_alphabetic());
    if !coded {
        return None;
    }
    let names: Vec<String> = scope
        .map(|s| s.names.iter().flat_map(|n| words(n)).collect())
        .unwrap_or_default();
    let bare = |w: &str| -> String {
        w.trim_matches(|ch: char| !ch.is_alphanumeric())
            .to_lowercase()
    };
    let code_low = code.to_lowercase();
    let mut other: Option<String> = None;
    for field in r.joined.split('\0') {
        let toks: Vec<&str> = field.split_whitespace().collect();
        for (i, t) in toks.iter().enumerate() {
            if bare(t) != code_low {
                continue;
            }
            // beside a name of the drug: the drug's own code
            let near = toks[i.saturating_sub(1)..(i + 2).min(toks.len())]
                .iter()
                .any(|w| names.contains(&bare(w)));
            if near {
                return None;
            }
            // the word before it, past other codes and joining words
            let before = toks[..i].iter().rev().map(|w| bare(w)).find(|w| {
                !w.is_empty()
                    && !matches!(w.as_str(), "and" | "or" | "its" | "the" | "a" | "an")
                    && !w.chars().any(|ch| ch.is_ascii_digit())
            });
            if let Some(w) = before
                && OTHER_SUBSTANCE.contains(&w.as_str())
            {
                let from = i.saturating_sub(4);
                other.get_or_insert_with(|| toks[from..=i].join(" "));
            }
        }
    }
    other.map(|said| {
        Entailment::Fails(
            Rule::Field,
            format!(
                "the record gives {code} as the code of another substance than {} ({said:?}), not a name of the drug",
                c.asset
            ),
        )
    })
}

/// An application number is the application's own: a product the value names with it
/// ("NDA213051 (WEGOVY)") that is another application's brand, and that this
/// application's record never names, is another application's product.
fn product_of_another_application(
    c: &Claim,
    ev: &Evidence,
    r: &EvidenceRecord,
) -> Option<Entailment> {
    if c.field != "regulatory.application_numbers" || r.family != crate::domain::Family::Drugsfda {
        return None;
    }
    let brands: HashSet<String> = ev
        .records
        .iter()
        .filter(|o| o.family == crate::domain::Family::Drugsfda && o.source_id != r.source_id)
        .flat_map(|o| {
            o.locators
                .iter()
                .enumerate()
                .filter(|(_, l)| l.contains("brand_name"))
                .map(|(i, _)| o.field_text(i).trim().to_lowercase())
        })
        .collect();
    let text = r.joined.to_lowercase();
    // the brand may be given with the value ("NDA213051 (WEGOVY)") or as the cell's
    // endpoint or population
    let said = format!(
        "{} {} {}",
        c.value,
        c.endpoint.as_deref().unwrap_or(""),
        c.population.as_deref().unwrap_or("")
    );
    // a brand of another application of the snapshot, or a word written as a brand is
    // (all capitals: "ZEPBOUND"), that the record never names
    // (in the value, a capitalized word too: "Zepbound: NDA215866"; words an application
    // cell may hold besides a brand are no brand)
    let in_value: Vec<&str> = c.value.split(|ch: char| !ch.is_alphanumeric()).collect();
    let brand_like = |w: &str| {
        let capitals = w.len() >= 4 && w.chars().all(|ch| ch.is_ascii_uppercase());
        let capitalized = w.len() >= 5
            && in_value.contains(&w)
            && w.starts_with(|ch: char| ch.is_ascii_uppercase())
            && w.chars().skip(1).all(|ch| ch.is_ascii_lowercase())
            && !matches!(
                w.to_ascii_lowercase().as_str(),
                "original"
                    | "application"
                    | "approval"
                    | "approved"
                    | "number"
                    | "supplement"
                    | "holder"
                    | "sponsor"
                    | "tablets"
                    | "tablet"
                    | "injection"
                    | "capsules"
            );
        (capitals || capitalized) && !w.starts_with("NDA")
    };
    let mut unnamed: Vec<&str> = said
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|w| {
            let low = w.to_lowercase();
            (brands.contains(&low) || brand_like(w)) && !text.contains(&low)
        })
        .collect();
    unnamed.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    (!unnamed.is_empty()).then(|| {
        Entailment::Fails(
            Rule::Identifier,
            format!(
                "the application {} does not name {}: its record is another product's",
                r.record_key,
                unnamed.join(", ")
            ),
        )
    })
}

/// A trial field's cell names its study by endpoint ("ACTT-1", "NCT04280705"): a study
/// that another registry record of the snapshot is (its acronym or NCT id), and that the
/// cited record never names, is not the cited record's. Its sponsor or dates are not
/// this record's to give.
fn study_of_another_record(c: &Claim, ev: &Evidence, r: &EvidenceRecord) -> Option<Entailment> {
    if !c.field.starts_with("trials.") || r.family != crate::domain::Family::Ctgov {
        return None;
    }
    let endpoint = c.endpoint.as_deref()?;
    let own = r.joined.to_lowercase();
    // the study names of a registry record: its acronym, its NCT id, and an acronym its
    // brief title gives in parentheses ("Adaptive COVID-19 Treatment Trial (ACTT)")
    let names_of = |o: &EvidenceRecord| -> Vec<String> {
        let mut out = Vec::new();
        for (i, l) in o.locators.iter().enumerate() {
            let text = o.field_text(i).trim();
            match l.as_str() {
                "/protocolSection/identificationModule/acronym"
                | "/protocolSection/identificationModule/nctId"
                | "/clinical_study[1]/acronym[1]"
                | "/clinical_study[1]/id_info[1]/nct_id[1]" => out.push(text.to_lowercase()),
                "/protocolSection/identificationModule/briefTitle"
                | "/clinical_study[1]/brief_title[1]" => {
                    out.extend(text.split('(').skip(1).filter_map(|x| {
                        let a = x.split(')').next()?.trim();
                        (a.len() >= 3
                            && a.chars().all(|ch| {
                                ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '-'
                            }))
                        .then(|| a.to_lowercase())
                    }))
                }
                _ => {}
            }
        }
        out.retain(|n| n.len() >= 3);
        out
    };
    let mine = names_of(r);
    // a study name and its numbered part ("ACTT-1" of "ACTT")
    let forms = |w: &str| -> Vec<String> {
        let mut v = vec![w.to_string()];
        if let Some((head, _)) = w.split_once('-')
            && head.len() >= 3
        {
            v.push(head.to_string());
        }
        v
    };
    // the study names of the snapshot's other registry records, read once
    let others: Vec<String> = ev
        .records
        .iter()
        .filter(|o| o.family == crate::domain::Family::Ctgov && o.record_key != r.record_key)
        .flat_map(names_of)
        .collect();
    let token = endpoint
        .split(|ch: char| ch.is_whitespace() || matches!(ch, '(' | ')' | ',' | ';' | ':'))
        .map(|w| {
            w.trim_matches(|ch: char| !ch.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| w.len() >= 3)
        .filter(|w| {
            forms(w)
                .iter()
                .all(|f| !mine.contains(f) && !own.contains(f.as_str()))
        })
        .find(|w| forms(w).iter().any(|f| others.contains(f)))?;
    Some(Entailment::Fails(
        Rule::Endpoint,
        format!(
            "the claim's study {token:?} is another registry record's, and {} never names it",
            r.record_key
        ),
    ))
}

/// The NCT id a registry record gives for its expanded-access program
/// (`…/expandedAccessInfo/nctId`) is that program's record, not the study's own: a value
/// giving it must say it is the expanded-access program's.
fn expanded_access_id(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    if !place.contains("/expandedAccessInfo/") {
        return None;
    }
    let id = identifiers(&c.value)
        .into_iter()
        .find(|id| id.to_ascii_uppercase().starts_with("NCT"))?;
    let said = format!("{} {}", c.value, c.endpoint.as_deref().unwrap_or("")).to_lowercase();
    if said.contains("expanded") || said.contains("compassionate") {
        return None;
    }
    Some(Entailment::Fails(
        Rule::Identifier,
        format!(
            "{id} is the expanded-access program {} names, not the study's own registry number",
            r.record_key
        ),
    ))
}

/// Numbers written in a strength ("EQ 50MG BASE", "200MG", "2.4MG/0.75ML").
fn strength_numbers(s: &str) -> Vec<String> {
    s.split(|ch: char| !(ch.is_ascii_digit() || ch == '.'))
        .map(|x| x.trim_matches('.'))
        .filter(|x| !x.is_empty())
        .map(|x| x.to_string())
        .collect()
}

/// A strength of one product of an application (`/results/N/products/M/…`) is that
/// product's: a claim that places it beside the strengths or the number of another product
/// of the application ("bictegravir 30 mg in the tablet with emtricitabine 200 mg",
/// where 30 mg comes with 120 mg) speaks of another product.
fn strength_of_another_product(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    if r.family != crate::domain::Family::Drugsfda {
        return None;
    }
    // a record is one application (`/products/M/…`); a locator may also be written from
    // the response it came in (`/results/N/products/M/…`)
    let in_application = |l: &'_ str| -> Option<String> {
        let l = match l.strip_prefix("/results/") {
            Some(rest) => &rest[rest.find('/')?..],
            None => l,
        };
        l.strip_prefix("/products/").map(str::to_string)
    };
    let rest = in_application(place)?;
    let m = rest.split_once('/').map_or(rest.as_str(), |(m, _)| m);
    // strengths and numbers of every product of this application
    let mut strengths: HashMap<String, Vec<String>> = HashMap::new();
    let mut numbers: HashMap<String, String> = HashMap::new();
    for (i, l) in r.locators.iter().enumerate() {
        let Some(tail) = in_application(l) else {
            continue;
        };
        let Some((k, tail)) = tail.split_once('/') else {
            continue;
        };
        if tail.starts_with("active_ingredients/") && tail.ends_with("/strength") {
            strengths
                .entry(k.to_string())
                .or_default()
                .extend(strength_numbers(r.field_text(i)));
        } else if tail == "product_number" {
            numbers.insert(k.to_string(), r.field_text(i).trim().to_string());
        }
    }
    let mine = strengths.get(m)?;
    let said = [
        Some(c.value.as_str()),
        c.endpoint.as_deref(),
        c.population.as_deref(),
        c.arm.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ");
    let st = Text::new(&said);
    let theirs = |x: &str| {
        strengths
            .iter()
            .find(|(k, v)| k.as_str() != m && v.iter().any(|y| y == x))
            .map(|(k, _)| k.as_str())
    };
    for k in 0..st.tokens.len() {
        if st.tokens[k].kind != Kind::Number {
            continue;
        }
        let x = st.tokens[k].lower.as_str();
        let mass = st
            .word(k + 1)
            .is_some_and(|w| matches!(w, "mg" | "mcg" | "g"));
        if mass
            && !mine.iter().any(|y| y == x)
            && let Some(other) = theirs(x)
        {
            return Some(Entailment::Fails(
                Rule::Dose,
                format!(
                    "the strength quoted is product {}'s ({} mg); {x} mg is a strength of product {}",
                    numbers.get(m).map_or(m, String::as_str),
                    mine.join(", "),
                    numbers.get(other).map_or(other, String::as_str)
                ),
            ));
        }
        // "product 001" for the strength of product 002
        if k > 0
            && st.word(k - 1) == Some("product")
            && let Some(own) = numbers.get(m)
            && x != own
            && numbers.values().any(|o| o == x)
        {
            return Some(Entailment::Fails(
                Rule::Dose,
                format!("the strength quoted is product {own}'s, not product {x}'s"),
            ));
        }
    }
    None
}

/// A study's enrollment is the count its record gives as enrolled: a count of the
/// baseline tables (those analysed at baseline, one region's) is enrollment only when it
/// equals that count.
fn enrollment_from_baseline(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    let baseline = [
        "/baselineCharacteristicsModule/",
        "/baseline[",
        "/baseline/",
    ]
    .iter()
    .any(|m| place.contains(m));
    if c.field != "trials.enrollment" || !baseline {
        return None;
    }
    // (a count the claim gives some of the study, an arm or an age group, is theirs; a
    // population the study's own protocol describes, "CF patients with pre-diabetes", is
    // everyone)
    let whole = c.arm.as_deref().is_none_or(|a| a.trim().is_empty())
        && c.population.as_deref().is_none_or(|p| {
            let ws: Vec<String> = distinctive(p)
                .into_iter()
                .filter(|w| w.len() >= 2)
                .collect();
            let (protocol, _) = protocol_texts(r);
            ws.iter().all(|w| {
                !subgroup_named(w)
                    && (protocol.contains(text::stem_of(w)) || initialism_in(w, &protocol))
            })
        });
    if !whole {
        return None;
    }
    let enrolled = enrolled_count(r)?.to_string();
    let given = crate::run::gates::numbers(&c.value);
    (!given.is_empty() && !given.contains(&enrolled)).then(|| {
        Entailment::Fails(
            Rule::Field,
            format!(
                "the study enrolled {enrolled}; {} is a count of its baseline tables, not its enrollment",
                given.join(", ")
            ),
        )
    })
}

/// Whether every name of a value is given in the quote in parentheses right after one
/// of the asset's own names: "dupilumab (REGN668/ SAR231893)" names REGN668 and
/// SAR231893 as dupilumab's, wherever the sentence stands.
fn aliases_given(value: &str, quote: &str, scope: Option<&Scope>) -> bool {
    let Some(scope) = scope else { return false };
    let lower = quote.to_lowercase();
    let mut given: Vec<&str> = Vec::new();
    for name in scope.names.iter().map(|n| n.to_lowercase()) {
        if name.len() < 3 {
            continue;
        }
        let mut from = 0;
        while let Some(k) = lower[from..].find(&name) {
            let at = from + k;
            from = at + name.len();
            let before = lower[..at].chars().next_back();
            if before.is_some_and(char::is_alphanumeric) {
                continue;
            }
            let rest = lower[from..].trim_start();
            if let Some(inner) = rest.strip_prefix('(')
                && let Some(end) = inner.find(')')
            {
                given.extend(
                    inner[..end]
                        .split(['/', ',', ';'])
                        .map(str::trim)
                        .filter(|x| !x.is_empty()),
                );
            }
        }
    }
    let names: Vec<String> = value
        .split([',', ';', '/'])
        .flat_map(|x| x.split(" and "))
        .map(|x| x.trim().to_lowercase())
        .filter(|x| !x.is_empty())
        .collect();
    !given.is_empty() && !names.is_empty() && names.iter().all(|n| given.contains(&n.as_str()))
}

/// A study's enrolled count claimed for one of its arms: the count is everyone's, and
/// the arm is one of several ("239 participants randomized to lenalidomide" from an
/// enrollment of 239 over two arms).
fn enrollment_of_all_for_an_arm(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    let arm = c.arm.as_deref().map(str::trim).filter(|a| !a.is_empty())?;
    let aw = words(arm);
    let everyone = aw.iter().any(|w| {
        matches!(
            w.as_str(),
            "all" | "total" | "overall" | "both" | "combined" | "everyone" | "study"
        )
    });
    if c.field != "trials.enrollment" || everyone {
        return None;
    }
    let at_enrollment = matches!(
        place,
        "/protocolSection/designModule/enrollmentInfo/count" | "/clinical_study[1]/enrollment[1]"
    );
    if !at_enrollment {
        return None;
    }
    let arms = r
        .locators
        .iter()
        .filter(|l| {
            (l.starts_with("/protocolSection/armsInterventionsModule/armGroups/")
                && l.ends_with("/label"))
                || (l.starts_with("/clinical_study[1]/arm_group[")
                    && l.ends_with("/arm_group_label[1]"))
        })
        .count();
    let enrolled = enrolled_count(r)?.to_string();
    let given = crate::run::gates::numbers(&c.value);
    (arms >= 2 && given.contains(&enrolled)).then(|| {
        Entailment::Fails(
            Rule::Population,
            format!(
                "{enrolled} is the study's enrollment over its {arms} arms, not the count of the arm {arm:?}"
            ),
        )
    })
}

/// A package or product code (NDC 59417-102-10) that a quote lists for several items
/// ("… 10 mg …, NDC 59417-101-10 … 20 mg …, NDC 59417-102-10") is the code of the item
/// written on its side: each number the claim gives besides the code ("20 mg", "bottles
/// of 30") must be in that item's stretch, not only in another's.
fn code_of_another_item(c: &Claim, quote: &str) -> Option<Entailment> {
    static CODE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\b\d{4,5}-\d{3,4}(?:-\d{1,2})?\b").expect("a valid pattern")
    });
    let mine: Vec<&str> = CODE.find_iter(&c.value).map(|m| m.as_str()).collect();
    let codes: Vec<regex::Match<'_>> = CODE.find_iter(quote).collect();
    if mine.len() != 1 || codes.len() < 2 {
        return None;
    }
    let k = codes.iter().position(|m| m.as_str() == mine[0])?;
    // the items' labels come before their codes (nothing but a code's own words after
    // the last), or after them (nothing but a label before the first)
    let tail = words(&quote[codes[codes.len() - 1].end()..]).len();
    let head = words(&quote[..codes[0].start()]).len();
    let stretch = |i: usize| -> &str {
        if tail <= 1 {
            let from = if i == 0 { 0 } else { codes[i - 1].end() };
            &quote[from..codes[i].start()]
        } else if head <= 2 {
            let to = codes.get(i + 1).map_or(quote.len(), |m| m.start());
            &quote[codes[i].end()..to]
        } else {
            ""
        }
    };
    if stretch(k).is_empty() {
        return None;
    }
    let numbers = |s: &str| -> Vec<String> {
        Text::new(s)
            .tokens
            .iter()
            .filter(|t| t.kind == Kind::Number)
            .map(|t| t.text.to_string())
            .collect()
    };
    let value_rest = CODE.replace_all(&c.value, " ");
    let own = numbers(stretch(k));
    for n in numbers(&value_rest) {
        let elsewhere = (0..codes.len()).any(|i| i != k && numbers(stretch(i)).contains(&n));
        if !own.contains(&n) && elsewhere {
            return Some(Entailment::Fails(
                Rule::Identifier,
                format!(
                    "the quote gives {} for the item of {:?}, and {n} is another item's",
                    mine[0],
                    stretch(k).trim()
                ),
            ));
        }
    }
    None
}

/// A dose the quote gives for patients it named before ("the recommended dosage is 5 mg
/// in such patients", "in both of these patient populations") is that subgroup's: a
/// claim for it must name a subgroup (an age group other than adults, an impairment, a
/// weight …), not the indication's patients at large.
fn dose_for_those_named_before(c: &Claim, quote: &str) -> Option<Entailment> {
    if c.field != "identity.dose" {
        return None;
    }
    let q = words(quote).join(" ");
    let phrase = [
        "such patients",
        "these patients",
        "these patient populations",
        "these populations",
        "those patients",
        "this population",
        "this patient population",
    ]
    .into_iter()
    .find(|p| q.contains(p))?;
    let pop = words(c.population.as_deref().unwrap_or(""));
    (!pop.iter().any(|w| subgroup_named(w))).then(|| {
        Entailment::Fails(
            Rule::Population,
            format!(
                "the quote gives this dose for the patients it named before ({phrase:?}), not for {:?}",
                c.population.as_deref().unwrap_or("all patients")
            ),
        )
    })
}

/// Slower is not faster: "the effect of Ambien may be slowed by ingestion with … a
/// meal" is no faster onset with food.
fn pace_turned(c: &Claim, quote: &str) -> Option<Entailment> {
    const SLOW: &[&str] = &[
        "slow", "slowed", "slows", "slower", "slowing", "delay", "delayed", "delays",
    ];
    const FAST: &[&str] = &[
        "speed",
        "speeds",
        "sped",
        "speeding",
        "faster",
        "quicker",
        "accelerate",
        "accelerates",
        "accelerated",
        "hasten",
        "hastens",
        "hastened",
    ];
    let (vw, qw) = (words(&c.value), words(quote));
    let has = |ws: &[String], xs: &[&str]| ws.iter().any(|w| xs.contains(&w.as_str()));
    if any_negation(&vw) {
        return None;
    }
    let turned = (has(&vw, FAST) && has(&qw, SLOW) && !has(&qw, FAST))
        || (has(&vw, SLOW) && has(&qw, FAST) && !has(&qw, SLOW));
    turned.then(|| {
        Entailment::Fails(
            Rule::Direction,
            format!(
                "the quote says {}, the claim {}",
                if has(&qw, SLOW) { "slower" } else { "faster" },
                if has(&qw, SLOW) { "faster" } else { "slower" }
            ),
        )
    })
}

/// A finding of an animal study ("Studies conducted in juvenile rats … Dose-related
/// decreases in food consumption … were seen") is no adverse reaction or efficacy value
/// in patients: the quote, or the two sentences before it in its field, speak of
/// animals and the quote names no people.
fn animal_finding(c: &Claim, text: &str, quote: &str) -> Option<Entailment> {
    if !(c.field.starts_with("safety.") || c.field.starts_with("efficacy.")) {
        return None;
    }
    const ANIMALS: &[&str] = &[
        "rat",
        "rats",
        "mouse",
        "mice",
        "dog",
        "dogs",
        "rabbit",
        "rabbits",
        "monkey",
        "monkeys",
        "animal",
        "animals",
        "nonclinical",
        "primates",
    ];
    const PEOPLE: &[&str] = &[
        "patient",
        "patients",
        "subjects",
        "participants",
        "children",
        "adults",
        "adolescents",
        "infants",
        "women",
        "men",
        "humans",
        "human",
        "volunteers",
        "pediatric",
        "adult",
    ];
    let said = words(&said(c));
    if said.iter().any(|w| ANIMALS.contains(&w.as_str())) {
        return None;
    }
    let at = text.find(quote)?;
    let before = &text[..at];
    let stops: Vec<usize> = before
        .char_indices()
        .rev()
        .filter(|&(i, ch)| ch == '.' && before[i + 1..].starts_with(' '))
        .map(|(i, _)| i + 1)
        .take(3)
        .collect();
    // the quote's own sentence names no people ("in 45 healthy subjects")
    let own = format!("{} {quote}", &before[stops.first().copied().unwrap_or(0)..]);
    let qw = words(quote);
    if words(&own).iter().any(|w| PEOPLE.contains(&w.as_str())) {
        return None;
    }
    // the two sentences before the quote's
    let near = words(&before[stops.get(2).copied().unwrap_or(0)..]);
    let animal = qw
        .iter()
        .chain(near.iter())
        .find(|w| ANIMALS.contains(&w.as_str()))?;
    Some(Entailment::Fails(
        Rule::Field,
        format!(
            "the quote reports a finding in animals ({animal:?} in or just before it), not in patients"
        ),
    ))
}

/// A dose called recommended is one the label recommends: a trial's low or high dose is
/// not, nor a dose a study compared ("two doses of zolpidem (7.5 and 10 mg)") unless the
/// quote says so or stands in the label's dosing section.
fn recommended_elsewhere(c: &Claim, quote: &str, locator: &str) -> Option<Entailment> {
    let vw = words(&c.value);
    if c.field != "identity.dose" || !vw.iter().any(|w| w == "recommended") {
        return None;
    }
    let qw = words(quote);
    // a trial's "low dose" or "high dose" is a dose it tested
    let level = qw.windows(2).find_map(|p| {
        (matches!(p[0].as_str(), "low" | "high" | "lower" | "higher") && p[1] == "dose")
            .then(|| p[0].clone())
    });
    if let Some(level) = level
        && !vw
            .iter()
            .any(|w| matches!(w.as_str(), "low" | "high" | "lower" | "higher"))
    {
        return Some(Entailment::Fails(
            Rule::Dose,
            format!("the quote gives the trial's {level} dose, not the recommended one"),
        ));
    }
    let dosing = locator.starts_with("/dosage_and_administration")
        || locator.starts_with("/dosage_forms")
        || locator.starts_with("/spl_patient_package_insert")
        || locator.starts_with("/information_for_patients")
        || locator.starts_with("/spl_medguide");
    let says = qw.iter().any(|w| w.starts_with("recommend"));
    (!dosing && !says).then(|| {
        Entailment::Fails(
            Rule::Dose,
            format!(
                "the claim calls the dose recommended, and the quote, at {locator}, outside the dosing section, does not"
            ),
        )
    })
}

/// A dose the quote gives as "doses of" something else ("stable doses of NSAIDs and or
/// prednisone (≤0.2 mg/kg/day …)"), never naming the asset, is that other drug's.
fn dose_of_another(c: &Claim, quote: &str, scope: Option<&Scope>) -> Option<Entailment> {
    if c.field != "identity.dose" {
        return None;
    }
    let qw = words(quote);
    let names: Vec<String> = scope?.names.iter().flat_map(|n| words(n)).collect();
    if qw.iter().any(|w| names.contains(w)) {
        return None;
    }
    // a word that may name a drug: not a generic word, nor one that says how or of what
    // a dose is given ("dose of study drug", "administered at a dose of")
    let drug_word = |w: &str| {
        w.chars().all(|ch| ch.is_alphabetic())
            && !GENERIC.contains(&w)
            && !matches!(
                w,
                "drug"
                    | "study"
                    | "medication"
                    | "medicine"
                    | "therapy"
                    | "up"
                    | "this"
                    | "each"
                    | "it"
                    | "given"
                    | "administered"
                    | "dosed"
                    | "started"
                    | "initiated"
                    | "treated"
                    | "continued"
                    | "maintained"
            )
    };
    // "oral prednisone at a dose of 10 to 60 mg/day", "stable doses of NSAIDs"
    let at_a_dose = qw.windows(5).find_map(|p| {
        (p[1] == "at"
            && p[2] == "a"
            && matches!(p[3].as_str(), "dose" | "dosage")
            && p[4] == "of"
            && drug_word(&p[0]))
        .then(|| p[0].clone())
    });
    let other = at_a_dose.or_else(|| {
        qw.windows(3).find_map(|p| {
            (matches!(p[0].as_str(), "dose" | "doses" | "dosage" | "dosages")
                && p[1] == "of"
                && drug_word(&p[2]))
            .then(|| p[2].clone())
        })
    })?;
    Some(Entailment::Fails(
        Rule::Dose,
        format!("the quote gives doses of {other}, never naming {}", c.asset),
    ))
}

/// A code of two to four capitals then one or two digits and nothing more (MEK1, IL6,
/// HER2, CD20): a gene's or protein's name, unless its letters are a record's prefix.
fn gene_like(id: &str) -> bool {
    let letters = id.chars().take_while(char::is_ascii_uppercase).count();
    let digits = id.len() - letters;
    (2..=4).contains(&letters)
        && (1..=2).contains(&digits)
        && id[letters..].chars().all(|c| c.is_ascii_digit())
        && !matches!(
            &id[..letters],
            "NCT" | "NDA" | "BLA" | "ANDA" | "PMID" | "CIK" | "NDC"
        )
}

/// Identifiers of a text: letters then digits (NCT01234567, NDA215866, V600E, C92.1),
/// a known prefix then a number (`PMID: 22663011`, `NDA 215866`), and set_id UUIDs.
pub fn identifiers(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    // set_id UUIDs (8-4-4-4-12 hex digits) first, blanked out before reading words
    let bytes = s.as_bytes();
    let mut rest = s.to_string();
    let mut i = 0;
    while i + 36 <= bytes.len() {
        let cand = &bytes[i..i + 36];
        let shape = cand.iter().enumerate().all(|(k, c)| match k {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        });
        let bounded = (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
            && bytes.get(i + 36).is_none_or(|c| !c.is_ascii_alphanumeric());
        if shape && bounded {
            out.push(s[i..i + 36].to_ascii_lowercase());
            rest.replace_range(i..i + 36, &" ".repeat(36));
            i += 36;
        } else {
            i += 1;
        }
    }
    let t = Text::new(&rest);
    let toks = &t.tokens;
    let mut words = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        if tok.kind != Kind::Word {
            continue;
        }
        let b = tok.text.as_bytes();
        // codes are written in capitals (V600E, C92.1, NCT…); HbA1c and q2w are words,
        // and so are endpoint names (ACR20) and regimens (Q2W)
        let lead = b.iter().take_while(|c| c.is_ascii_uppercase()).count();
        let regimen = b.len() >= 3
            && (b[0] == b'Q' || b[0] == b'q')
            && b[1..b.len() - 1].iter().all(u8::is_ascii_digit)
            && matches!(
                b[b.len() - 1].to_ascii_lowercase(),
                b'w' | b'd' | b'm' | b'h'
            );
        let endpoint = Lexicon::endpoints().at(&t, i).is_some();
        // the part after the hyphen of an instrument's name ("QLQ-C30") is no code of
        // its own
        let off = tok.text.as_ptr() as usize - rest.as_ptr() as usize;
        let compound = rest[..off].strip_suffix('-').is_some_and(|before| {
            let head: String = before
                .chars()
                .rev()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            head.len() >= 2 && head.chars().all(|c| c.is_ascii_uppercase())
        });
        if lead > 0
            && lead < b.len()
            && b[lead].is_ascii_digit()
            && !regimen
            && !endpoint
            && !compound
        {
            words.push(tok.text.to_ascii_uppercase());
            continue;
        }
        let prefix = matches!(
            tok.lower.as_str(),
            "nct" | "nda" | "bla" | "anda" | "pmid" | "cik" | "ndc"
        );
        if prefix {
            let mut k = i + 1;
            while toks
                .get(k)
                .is_some_and(|x| matches!(x.text, ":" | "#" | "-"))
            {
                k += 1;
            }
            if let Some(n) = toks.get(k).filter(|x| x.kind == Kind::Number) {
                // an NDC is all of its parts: "59417-103-10"
                let mut code = n.text.to_string();
                let mut j = k + 1;
                while tok.lower == "ndc" {
                    match (toks.get(j), toks.get(j + 1)) {
                        (Some(d), Some(m)) if d.text == "-" && m.kind == Kind::Number => {
                            code.push('-');
                            code.push_str(m.text);
                            j += 2;
                        }
                        (Some(m), _) if m.kind == Kind::Number && m.text.starts_with('-') => {
                            code.push_str(m.text);
                            j += 1;
                        }
                        _ => break,
                    }
                }
                words.push(format!("{}{}", tok.text.to_ascii_uppercase(), code));
            }
        }
    }
    words.extend(out);
    words
}

/// A quote from an arm group's description is that group's: a claim naming another
/// numbered cohort ("Cohort 6" for the description of "Cohort 2") is not what it says.
/// Without a locator, any arm group whose description holds the quote may be the one.
fn arm_group_cohort(
    c: &Claim,
    r: &EvidenceRecord,
    place: &str,
    located: bool,
) -> Option<Entailment> {
    // JSON `…/armGroups/N/description` beside `…/armGroups/N/label`; legacy XML
    // `…/arm_group[N]/description[1]` beside `…/arm_group[N]/arm_group_label[1]`
    let label_of = |l: &str| {
        l.strip_suffix("/description")
            .map(|h| format!("{h}/label"))
            .or_else(|| {
                l.strip_suffix("/description[1]")
                    .filter(|h| h.contains("/arm_group["))
                    .map(|h| format!("{h}/arm_group_label[1]"))
            })
            .filter(|_| l.contains("/armGroups/") || l.contains("/arm_group["))
    };
    let label_at = |l: &str| {
        let want = label_of(l)?;
        let i = r.locators.iter().position(|x| *x == want)?;
        Some(r.field_text(i).to_string())
    };
    let own = label_at(place)?;
    let claimed = group_ids(&format!(
        "{} {}",
        c.population.as_deref().unwrap_or(""),
        c.arm.as_deref().unwrap_or("")
    ));
    let differs = |label: &str| {
        let have = group_ids(label);
        claimed.iter().any(|(k, v)| {
            have.iter().any(|(hk, _)| hk == k) && !have.contains(&(k.clone(), v.clone()))
        })
    };
    if !differs(&own) {
        return None;
    }
    if !located {
        let q = c.quote.as_deref().unwrap_or("");
        let others = r
            .locators
            .iter()
            .enumerate()
            .filter(|(i, _)| r.field_text(*i).contains(q))
            .filter_map(|(_, l)| label_at(l));
        if others.into_iter().any(|l| !differs(&l)) {
            return None;
        }
    }
    Some(Entailment::Fails(
        Rule::Population,
        format!(
            "the quote describes the arm group {own:?}, not {}",
            claimed
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ))
}

/// Numbered groups a title names: ("cohort", "2"), ("arm", "b"), ("part", "1").
fn group_ids(s: &str) -> Vec<(String, String)> {
    let w = words(s);
    w.windows(2)
        .filter(|p| {
            matches!(
                p[0].as_str(),
                "cohort" | "arm" | "group" | "part" | "level" | "stage"
            )
        })
        .filter(|p| p[1].len() <= 2)
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect()
}

/// Hyphenated codes of a text, whole: "HLC-101", "GS-5734", "HLC-101-301".
fn codes(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i].is_ascii_uppercase() {
            i += 1;
        }
        let letters = i - start;
        let glued = start > 0 && b[start - 1].is_ascii_alphanumeric();
        let mut end = i;
        let mut parts = 0;
        while end + 1 < b.len() && b[end] == b'-' && b[end + 1].is_ascii_digit() {
            end += 1;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
            parts += 1;
        }
        let bounded = end >= b.len() || !b[end].is_ascii_alphanumeric();
        if letters >= 2 && parts > 0 && !glued && bounded {
            out.push(s[start..end].to_string());
            i = end;
        } else {
            i = start + letters.max(1);
        }
    }
    out
}

/// Whether `id` occurs in `hay` with no letter or digit glued to either side.
fn whole_word(hay: &str, id: &str) -> bool {
    hay.match_indices(id).any(|(pos, _)| {
        let before = hay[..pos].chars().next_back();
        let after = hay[pos + id.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    })
}

/// A date written as eight digits, YYYYMMDD ("20180207"), as openFDA writes them: the
/// import's reading of such a date, when it is a day of the calendar.
fn compact_date(n: &str) -> bool {
    crate::snapshot::import::compact_date(n).is_some_and(|iso| {
        chrono::NaiveDate::parse_from_str(&iso, "%Y-%m-%d")
            .is_ok_and(|d| (1900..=2100).contains(&chrono::Datelike::year(&d)))
    })
}

/// A sibling field of `locator` in the record (same parent), by key.
fn sibling(r: &EvidenceRecord, locator: &str, key: &str) -> Option<String> {
    // `^key`: the fields `key` of every ancestor of the locator, nearest first
    if let Some(key) = key.strip_prefix('^') {
        let found: Vec<&str> = locator
            .char_indices()
            .filter(|(_, c)| *c == '/')
            .map(|(i, _)| &locator[..i])
            .rev()
            .flat_map(|head| {
                let want = [format!("{head}/{key}"), format!("{head}/{key}[1]")];
                r.locators
                    .iter()
                    .position(|l| want.contains(l))
                    .map(|i| r.field_text(i))
            })
            .collect();
        return (!found.is_empty()).then(|| found.join(" | "));
    }
    let parent = &locator[..locator.rfind('/')?];
    let want = [
        format!("{parent}/{key}"),
        format!("{parent}/{key}[1]"),
        format!("{parent}/@{key}"),
    ];
    r.locators
        .iter()
        .position(|l| want.contains(l))
        .map(|i| r.field_text(i).to_string())
}

/// The title of the group a posted number belongs to: the group id beside it (JSON
/// `…/stats/0/groupId`, `…/measurements/1/groupId`; XML `…/@group_id`), looked up among
/// the record's group definitions (`…/eventGroups/k/id`, `…/groups/k/id`; XML
/// `…/group[k]/@group_id`), the one nearest the place when several share the id; with
/// the titles of every group of that definition list.
fn posted_group(r: &EvidenceRecord, place: &str) -> Option<(String, Vec<String>)> {
    let title_of = |parent: &str| {
        let titles = [format!("{parent}/title"), format!("{parent}/title[1]")];
        r.locators
            .iter()
            .position(|x| titles.contains(x))
            .map(|t| r.field_text(t).trim().to_string())
    };
    // a count of the group's own definition (JSON `…/eventGroups/0/otherNumAffected`)
    let own = place.rsplit_once('/').map(|(p, _)| p).filter(|p| {
        p.rsplit_once('/').is_some_and(|(list, k)| {
            list.ends_with("roups") && !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit())
        }) && title_of(p).is_some()
    });
    let parent = match own {
        Some(p) => p,
        None => group_definition(r, place)?,
    };
    let title = title_of(parent)?;
    // the list the definition sits in: `…/eventGroups/` or `…/group_list[1]/group[`
    let list = match parent.rfind("/group[") {
        Some(k) => &parent[..k + "/group[".len()],
        None => &parent[..parent.rfind('/')? + 1],
    };
    let mut all: Vec<String> = Vec::new();
    for (i, l) in r.locators.iter().enumerate() {
        // `4/title` (JSON) or `3]/title[1]` (XML) after the list's prefix
        if let Some(rest) = l.strip_prefix(list)
            && let Some((k, tail)) = rest.split_once(['/', ']'])
            && k.chars().all(|c| c.is_ascii_digit())
            && matches!(tail, "title" | "/title[1]")
        {
            let t = r.field_text(i).trim().to_string();
            if !all.contains(&t) {
                all.push(t);
            }
        }
    }
    Some((title, all))
}

/// The path of the group definition whose id is the one beside a posted number, the
/// nearest to it when several share the id.
fn group_definition<'r>(r: &'r EvidenceRecord, place: &str) -> Option<&'r str> {
    // (a legacy element's own text, "Median DOR was not reached in the Nivolumab
    // group", has its group id among its attributes)
    let own_attribute = || {
        let want = format!("{place}/@group_id");
        r.locators
            .iter()
            .position(|l| *l == want)
            .map(|i| r.field_text(i).to_string())
    };
    let id = sibling(r, place, "groupId")
        .or_else(|| sibling(r, place, "group_id"))
        .or_else(own_attribute)?;
    let id = id.trim();
    // the definition nearest the place (longest shared path)
    let mut best: Option<(usize, &str)> = None;
    for (i, l) in r.locators.iter().enumerate() {
        let Some(parent) = l
            .strip_suffix("/id")
            .or_else(|| l.strip_suffix("/@group_id"))
        else {
            continue;
        };
        if r.field_text(i).trim() != id
            || !(parent.contains("roups/") || parent.contains("/group["))
        {
            continue;
        }
        let shared = l
            .bytes()
            .zip(place.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        if best.is_none_or(|(n, _)| shared > n) {
            best = Some((shared, parent));
        }
    }
    best.map(|(_, parent)| parent)
}

/// A trial record's protocol text (every field outside its results), lower-cased, and
/// the part of it that says whom the study takes (titles, conditions, keywords, its brief
/// summary, its arms' descriptions, its inclusion criteria: not its exclusions).
fn protocol_texts(r: &EvidenceRecord) -> (String, String) {
    let (mut protocol, mut titles) = (String::new(), String::new());
    for (i, l) in r.locators.iter().enumerate() {
        let low = l.to_ascii_lowercase();
        if low.contains("result") {
            continue;
        }
        let text = r.field_text(i).to_lowercase();
        let arm_text =
            (low.contains("armgroup") || low.contains("arm_group")) && low.contains("description");
        if low.contains("title")
            || low.contains("condition")
            || low.contains("keyword")
            || low.contains("summary")
            || arm_text
        {
            titles.push_str(&text);
            titles.push(' ');
        } else if low.contains("eligib") && low.contains("criteri") {
            titles.push_str(text.split("exclusion").next().unwrap_or_default());
            titles.push(' ');
        }
        protocol.push_str(&text);
        protocol.push(' ');
    }
    (protocol, titles)
}

/// A value that compares its group with another ("higher than with placebo", "less
/// frequent than placebo") at a posted number: the other group's number beside it in the
/// record (a measurement of the same category, or an adverse event's rate in the same
/// row) must be on the claimed side.
fn posted_comparison(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    let vw = words(&c.value);
    let at = (0..vw.len()).find(|&i| {
        matches!(vw[i].as_str(), "than" | "versus" | "vs")
            || vw[i] == "to" && i > 0 && matches!(vw[i - 1].as_str(), "superior" | "inferior")
    })?;
    // the comparative nearest before "than" ("decreased more often … than": more); one of
    // worth ("superior to", "better than") by which way the outcome counts as better
    let side = vw[..at].iter().rev().find_map(|w| match w.as_str() {
        "higher" | "more" | "greater" | "larger" | "increased" => Some(true),
        "lower" | "less" | "fewer" | "smaller" | "decreased" | "reduced" => Some(false),
        "superior" | "better" => better_is_higher(r, place),
        "inferior" | "worse" => better_is_higher(r, place).map(|h| !h),
        _ => None,
    })?;
    let (more, less) = (side, !side);
    let other: Vec<String> = distinctive(&vw[at + 1..].join(" "))
        .into_iter()
        .filter(|w| w.len() >= 3)
        .collect();
    if other.is_empty() {
        return None;
    }
    // the list the place's number sits in: `…/measurements/k/value`,
    // `…/stats/k/numAffected`, legacy `…/counts[k]/@subjects_affected`,
    // `…/measurement[k]/@value`; `tail` is what follows the index
    let (list, own_k, tail) = ["/measurements/", "/stats/", "/counts[", "/measurement["]
        .iter()
        .find_map(|m| {
            let i = place.rfind(m)? + m.len();
            let digits = place[i..].bytes().take_while(u8::is_ascii_digit).count();
            (digits > 0).then(|| (&place[..i], &place[i..i + digits], &place[i + digits..]))
        })?;
    let key = tail.trim_start_matches([']', '/', '@']);
    let number = |k: &str, tail: &str| -> Option<f64> {
        let want = format!("{list}{k}{tail}");
        let i = r.locators.iter().position(|l| *l == want)?;
        r.field_text(i).trim().parse().ok()
    };
    // a count of affected is compared as a rate of those at risk
    let at_risk = tail
        .replace("numAffected", "numAtRisk")
        .replace("numEvents", "numAtRisk")
        .replace("@subjects_affected", "@subjects_at_risk")
        .replace("@events", "@subjects_at_risk");
    let value = |k: &str| -> Option<f64> {
        let n = number(k, tail)?;
        match key {
            "numAffected" | "numEvents" | "subjects_affected" | "events" => {
                number(k, &at_risk).map(|d| n / d.max(1.0))
            }
            _ => Some(n),
        }
    };
    let mine = value(own_k)?;
    let ks: Vec<&str> = r
        .locators
        .iter()
        .filter_map(|l| l.strip_prefix(list)?.strip_suffix(tail))
        .filter(|k| *k != own_k && k.chars().all(|c| c.is_ascii_digit()))
        .collect();
    for k in ks {
        let Some((title, _)) = posted_group(r, &format!("{list}{k}{tail}")) else {
            continue;
        };
        let t = distinctive(&title);
        if !other.iter().any(|w| t.contains(w)) {
            continue;
        }
        let Some(theirs) = value(k) else { continue };
        let wrong = (more && mine <= theirs) || (less && mine >= theirs);
        if wrong {
            return Some(Entailment::Fails(
                Rule::Direction,
                format!(
                    "the record's number for {title:?} is {}: the claim's group is not {} it",
                    number(k, tail).map_or(String::new(), |n| n.to_string()),
                    if more { "above" } else { "below" }
                ),
            ));
        }
        return None;
    }
    None
}

/// Whether a higher number of the posted outcome a place is in is the better one: as its
/// description says ([`lower_is_better`]), else by its title: a share of responders
/// ("Response", "Remission", "Achieving") is better higher, one of harms ("Adverse",
/// "Death", "Progression") lower. None when neither tells.
fn better_is_higher(r: &EvidenceRecord, place: &str) -> Option<bool> {
    let description = posted_field(
        r,
        place,
        ("/outcomeMeasures/", "description"),
        ("/outcome[", "description[1]"),
    );
    if let Some(lower) = description.and_then(lower_is_better) {
        return Some(!lower);
    }
    let title = words(posted_field(
        r,
        place,
        ("/outcomeMeasures/", "title"),
        ("/outcome[", "title[1]"),
    )?);
    let has = |stems: &[&str]| title.iter().any(|w| stems.iter().any(|s| w.starts_with(s)));
    let good = has(&[
        "respon",
        "remission",
        "achiev",
        "improve",
        "recover",
        "seroprotect",
    ]);
    let bad = has(&[
        "adverse",
        "death",
        "mortality",
        "progression",
        "relapse",
        "toxicit",
        "discontinu",
    ]);
    match (good, bad) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

/// A field of the posted item a place is in: JSON `…{list}N/{json_key}` (`list` such as
/// "/outcomeMeasures/", "/classes/", "/analyses/"), legacy XML `…{item}N]/{xml_key}`
/// (`item` such as "/outcome[", "/class[", "/analysis[").
fn posted_field<'r>(
    r: &'r EvidenceRecord,
    place: &str,
    (list, json_key): (&str, &str),
    (item, xml_key): (&str, &str),
) -> Option<&'r str> {
    let want = if let Some(i) = place.find(list) {
        let n = place[i + list.len()..].split('/').next()?;
        format!("{}{list}{n}/{json_key}", &place[..i])
    } else {
        let i = place.find(item)?;
        let end = place[i + 1..].find(']')? + i + 2;
        format!("{}/{xml_key}", &place[..end])
    };
    r.locators
        .iter()
        .position(|l| *l == want)
        .map(|i| r.field_text(i))
}

/// The unit of the posted outcome a measurement belongs to (JSON `…/outcomeMeasures/N/
/// unitOfMeasure`, XML `…/outcome[N]/measure[1]/units[1]`).
fn posted_unit(r: &EvidenceRecord, place: &str) -> Option<String> {
    // only a measurement is in the outcome's unit, not a group's title or description
    if !(place.contains("/measurements/") || place.contains("/measurement[")) {
        return None;
    }
    posted_field(
        r,
        place,
        ("/outcomeMeasures/", "unitOfMeasure"),
        ("/outcome[", "measure[1]/units[1]"),
    )
    .map(|u| u.trim().to_string())
}

/// A posted adverse-event count is its own event's ("Headache"): a claim that names
/// another event of the table ("Tremor") and not this one is another row's.
fn event_term(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    // (the list's prefix, the item's own prefix, the term's key)
    let (list, item, key) = if let Some(i) = place.find("Events/") {
        let n = place[i + "Events/".len()..].split('/').next()?;
        let list = &place[..i + "Events/".len()];
        (list.to_string(), format!("{list}{n}"), "/term")
    } else if let Some(i) = place.find("/event[") {
        let end = place[i + 1..].find(']')? + i + 2;
        let list = &place[..place.find("_events[")?];
        (list.to_string(), place[..end].to_string(), "/sub_title[1]")
    } else {
        return None;
    };
    let said = words(&format!(
        "{} {}",
        c.value,
        c.endpoint.as_deref().unwrap_or("")
    ));
    let named = |term: &str| {
        let t: Vec<String> = distinctive(term)
            .into_iter()
            .filter(|w| w.len() >= 4)
            .collect();
        !t.is_empty() && t.iter().all(|w| said.contains(w))
    };
    let own_at = format!("{item}{key}");
    let own = r.field_text(r.locators.iter().position(|l| *l == own_at)?);
    if named(own)
        || distinctive(own)
            .iter()
            .any(|w| w.len() >= 4 && said.contains(w))
    {
        return None;
    }
    let other = r
        .locators
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with(&list) && l.ends_with(key) && **l != own_at)
        .map(|(i, _)| r.field_text(i))
        .find(|t| named(t))?;
    Some(Entailment::Fails(
        Rule::Endpoint,
        format!("the record gives this count for {own:?}, not for {other:?}"),
    ))
}

/// The population description of the posted outcome a place is in (JSON
/// `…/outcomeMeasures/N/populationDescription`, XML `…/outcome[N]/population[1]`).
fn outcome_population_text<'r>(r: &'r EvidenceRecord, place: &str) -> Option<&'r str> {
    posted_field(
        r,
        place,
        ("/outcomeMeasures/", "populationDescription"),
        ("/outcome[", "population[1]"),
    )
}

/// A posted number's class sets a bound ("PD-L1 expression < 5%"): a claimed population
/// on the other side of it ("PD-L1 >= 5%") is another class's.
fn posted_class_bounds(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    let title = posted_field(r, place, ("/classes/", "title"), ("/class[", "title[1]"))?;
    let mine = bounds(c.population.as_deref().unwrap_or(""));
    let (n, _) = opposite_bound(&mine, &bounds(title))?;
    Some(Entailment::Fails(
        Rule::Population,
        format!(
            "the record gives this number for the class {title:?}, on the other side of {n} from {:?}",
            c.population.as_deref().unwrap_or("")
        ),
    ))
}

/// A posted change from baseline has its sign: +0.075 is a rise, and a claim that the
/// measure fell (or rose, for -0.9) says the opposite. Outcomes that count a fall as
/// positive ("reduction", "decrease", "improvement") are left alone.
/// Which way an outcome's description counts as better: Some(true) when a lower score
/// or a negative change is better ("a negative value indicating improvement", "higher
/// score indicating worse"), Some(false) when a higher one is, None when it does not
/// say or says both.
fn lower_is_better(description: &str) -> Option<bool> {
    let (mut lower, mut higher) = (false, false);
    for sentence in description.split(['.', ';', ',']) {
        let w = words(sentence);
        let has = |xs: &[&str]| w.iter().any(|x| xs.contains(&x.as_str()));
        let down = has(&["negative", "lower", "decrease", "decreases", "reduction"]);
        let up = has(&["positive", "higher", "increase", "increases"]);
        let good = has(&["improvement", "better", "improved", "improving"]);
        let bad = has(&["worse", "worsening", "deterioration", "worsened"]);
        if has(&["not", "no"]) || (down && up) {
            continue;
        }
        lower |= (down && good && !bad) || (up && bad && !good);
        higher |= (up && good && !bad) || (down && bad && !good);
    }
    match (lower, higher) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

fn posted_sign(c: &Claim, r: &EvidenceRecord, place: &str, quote: &str) -> Option<Entailment> {
    if !(place.contains("/measurements/") || place.contains("/measurement[")) {
        return None;
    }
    let title = words(posted_field(
        r,
        place,
        ("/outcomeMeasures/", "title"),
        ("/outcome[", "title[1]"),
    )?);
    let counts_falls = title.iter().any(|w| {
        w.starts_with("reduc")
            || w.starts_with("decrease")
            || w.starts_with("improve")
            || w == "fall"
    });
    if !title.iter().any(|w| w == "change") {
        return None;
    }
    let n = quote.trim();
    let value = n.parse::<f64>().ok()?;
    if value == 0.0 {
        return None;
    }
    // better or worse, where the outcome says which way is better ("a negative value
    // indicating improvement", "higher score indicating worse")
    if let Some(lower_better) = posted_field(
        r,
        place,
        ("/outcomeMeasures/", "description"),
        ("/outcome[", "description[1]"),
    )
    .and_then(lower_is_better)
    {
        let vw = words(&c.value);
        let better = vw.iter().any(|w| w.starts_with("improv") || w == "better");
        let worse = vw
            .iter()
            .any(|w| w.starts_with("wors") || w == "worse" || w.starts_with("deteriorat"));
        let improved = (value < 0.0) == lower_better;
        if better != worse && better != improved {
            return Some(Entailment::Fails(
                Rule::Direction,
                format!(
                    "the record's change is {n}, and its outcome counts a {} change as improvement: the claim says it {}",
                    if lower_better { "negative" } else { "positive" },
                    if better { "improved" } else { "worsened" }
                ),
            ));
        }
    }
    if counts_falls {
        return None;
    }
    // "improved" and "worsened" say better or worse, not up or down (a lower score can
    // be the better one)
    let vw: Vec<String> = words(&c.value)
        .into_iter()
        .filter(|w| !w.starts_with("improv") && !w.starts_with("wors"))
        .collect();
    let (up, down) = (
        vw.iter().any(|w| {
            UP.contains(&w.as_str()) || matches!(w.as_str(), "rose" | "rise" | "rises" | "rising")
        }),
        vw.iter().any(|w| {
            DOWN.contains(&w.as_str())
                || matches!(
                    w.as_str(),
                    "fell" | "fall" | "falls" | "falling" | "dropped" | "dropping"
                )
        }),
    );
    let said_negative = c
        .value
        .contains(&format!("-{}", n.trim_start_matches(['-', '+'])))
        || c.value
            .contains(&format!("−{}", n.trim_start_matches(['-', '+'])));
    let wrong = (value > 0.0 && down && !up && !said_negative) || (value < 0.0 && up && !down);
    wrong.then(|| {
        Entailment::Fails(
            Rule::Direction,
            format!(
                "the record's change from baseline is {n}, a {}, and the claim says it {}",
                if value > 0.0 { "rise" } else { "fall" },
                if value > 0.0 { "fell" } else { "rose" }
            ),
        )
    })
}

/// A ratio of rates for the time to a good event (recovery, discharge, improvement):
/// above 1 the treated group gets there faster. A claim that the drug prolonged the
/// time, or that the ratio favours the comparator, says the opposite (and the reverse
/// below 1).
fn time_ratio_direction(
    c: &Claim,
    r: &EvidenceRecord,
    place: &str,
    quote: &str,
) -> Option<Entailment> {
    if !(place.ends_with("/paramValue") || place.contains("/param_value[")) {
        return None;
    }
    let ratio: f64 = quote.trim().parse().ok()?;
    if ratio == 1.0 || ratio <= 0.0 {
        return None;
    }
    let tw = words(posted_field(
        r,
        place,
        ("/outcomeMeasures/", "title"),
        ("/outcome[", "title[1]"),
    )?);
    let time_to_good = tw.windows(2).any(|p| p[0] == "time" && p[1] == "to")
        && tw.iter().any(|w| {
            w.starts_with("recover")
                || w.starts_with("discharge")
                || w.starts_with("improve")
                || w.starts_with("resolution")
        })
        && !tw.iter().any(|w| {
            w.starts_with("death") || w.starts_with("progress") || w.starts_with("worsen")
        });
    if !time_to_good {
        return None;
    }
    let vw = words(&c.value);
    let slower = vw.iter().any(|w| {
        w.starts_with("prolong")
            || w.starts_with("slow")
            || matches!(w.as_str(), "longer" | "delayed" | "delay" | "delays")
    });
    let faster = vw.iter().any(|w| {
        w.starts_with("accelerat")
            || w.starts_with("shorten")
            || w.starts_with("hasten")
            || matches!(w.as_str(), "faster" | "shorter" | "quicker" | "sped")
    });
    // "favoring placebo": the side a claim gives the ratio to
    let favours_comparator = vw
        .windows(2)
        .any(|p| (p[0].starts_with("favo")) && COMPARATORS.contains(&p[1].as_str()));
    let says_drug_slower = (slower && !faster) || favours_comparator;
    let says_drug_faster = faster && !slower && !favours_comparator;
    let wrong = (ratio > 1.0 && says_drug_slower) || (ratio < 1.0 && says_drug_faster);
    wrong.then(|| {
        Entailment::Fails(
            Rule::Direction,
            format!(
                "a rate ratio of {ratio} for the time to a good event means the treated group got there {}, not {}",
                if ratio > 1.0 { "faster" } else { "slower" },
                if ratio > 1.0 { "slower" } else { "faster" }
            ),
        )
    })
}

/// The p-value of the posted analysis a place is in (JSON `…/analyses/N/pValue`, XML
/// `…/analysis[N]/p_value[1]`).
fn analysis_p_value(r: &EvidenceRecord, place: &str) -> Option<String> {
    posted_field(
        r,
        place,
        ("/analyses/", "pValue"),
        ("/analysis[", "p_value[1]"),
    )
    .map(|p| p.trim().to_string())
}

/// The fields of the record that hold `quote`, the one the quote gate found first.
fn fields_holding(r: &EvidenceRecord, quote: &str, found: usize) -> Vec<usize> {
    let mut out = vec![found];
    if quote.is_empty() {
        return out;
    }
    for pos in memchr::memmem::find_iter(r.joined.as_bytes(), quote.as_bytes()) {
        let i = r.starts.partition_point(|s| *s <= pos) - 1;
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// How many times `n` occurs as a whole number in the record's fields.
fn occurrences(r: &EvidenceRecord, n: &str) -> Vec<usize> {
    let hay = r.joined.as_bytes();
    let mut fields = Vec::new();
    for pos in memchr::memmem::find_iter(hay, n.as_bytes()) {
        let before = pos.checked_sub(1).map(|p| hay[p]);
        let after = hay.get(pos + n.len()).copied();
        let glued_before =
            before.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b',');
        let glued_after = after.is_some_and(|c| c.is_ascii_digit())
            || (matches!(after, Some(b'.' | b','))
                && hay.get(pos + n.len() + 1).is_some_and(u8::is_ascii_digit));
        if !glued_before && !glued_after {
            fields.push(r.starts.partition_point(|s| *s <= pos) - 1);
        }
    }
    fields
}

/// A label's repackager is no sponsor: the company a label names after "Relabeling and
/// Repackaging by:" ("Repackaged by", "Relabeled by") only put its name on the package,
/// though the label's `openfda.manufacturer_name` then reads that name.
fn repackager(c: &Claim, r: &EvidenceRecord) -> Option<Entailment> {
    if !matches!(c.field.as_str(), "identity.sponsor" | "trials.sponsor") {
        return None;
    }
    // ASCII case folding keeps every byte where it was, so the record's own words show
    let value = c.value.trim().to_ascii_lowercase();
    if value.len() < 3 {
        return None;
    }
    let text = r.joined.to_ascii_lowercase();
    for (at, _) in text.match_indices(&value) {
        let from = text.ceil_char_boundary(at.saturating_sub(60));
        // the words just before the name, within its own field
        let start = text[from..at].rfind('\0').map_or(from, |k| from + k + 1);
        let before = &text[start..at];
        let marks = [before.rfind("relabel"), before.rfind("repackag")];
        if let Some(k) = marks.into_iter().flatten().min() {
            let said = r.joined[start + k..at + value.len()].trim();
            return Some(Entailment::Fails(
                Rule::Field,
                format!(
                    "the record names {:?} as the label's repackager ({said:?}), not the drug's sponsor",
                    c.value.trim()
                ),
            ));
        }
    }
    None
}

/// The gate on one claim whose quote was found in field `field` of record `rec`.
pub fn entail(c: &Claim, ev: &Evidence, rec: usize, field: usize, cx: &Context<'_>) -> Entailment {
    let r = &ev.records[rec];
    let quote = c.quote.as_deref().unwrap_or("");
    let scope = cx.assets.get(&c.asset);
    // scope
    if let Some(s) = scope {
        match s.members.get(&r.source_id) {
            None => {
                // in name order: the reason reads the same on every run
                let mut owners: Vec<&str> = cx
                    .assets
                    .iter()
                    .filter(|(_, o)| o.members.contains_key(&r.source_id))
                    .map(|(a, _)| a.as_str())
                    .collect();
                owners.sort_unstable();
                let whose = if owners.is_empty() {
                    String::new()
                } else {
                    format!(" (it is {}'s)", owners.join(", "))
                };
                return Entailment::Fails(
                    Rule::Scope,
                    format!("{} is not a record of {}{whose}", r.source_id, c.asset),
                );
            }
            Some(Role::Competitor) if !c.field.starts_with("competitors.") => {
                return Entailment::Fails(
                    Rule::Scope,
                    format!(
                        "{} is a competitor's record of {}; it can fill only competitors fields",
                        r.source_id, c.asset
                    ),
                );
            }
            _ => {}
        }
    }
    if let Some(why) = hazard_direction(c) {
        return Entailment::Fails(Rule::Direction, why);
    }
    // identifiers
    let qids = identifiers(quote);
    let compact_quote: String = quote
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_ascii_uppercase();
    let upper_quote = quote.to_uppercase();
    for id in identifiers(&c.value) {
        // a gene's or a protein's name (MEK1, IL1, HER2) is no record identifier, and
        // the cited record's own key (its NCT number, its application) is named by the
        // citation itself
        let own_key = {
            let compact = |s: &str| -> String {
                s.chars()
                    .filter(char::is_ascii_alphanumeric)
                    .collect::<String>()
                    .to_ascii_uppercase()
            };
            compact(&id) == compact(&r.record_key)
        };
        if gene_like(&id) || own_key {
            continue;
        }
        let whole = qids.iter().any(|q| q.eq_ignore_ascii_case(&id))
            || whole_word(&upper_quote, &id.to_uppercase());
        // a type label the record leaves out ("NDC 0002-1506" for its product_ndc
        // "0002-1506", "PMID 22663011" for its PMID field): the number is the identifier
        let labelled = ["PMID", "CIK", "NDC"].iter().any(|p| {
            id.strip_prefix(p).is_some_and(|n| {
                let bare = |x: &str| x.trim_start_matches('0').to_string();
                qids.is_empty()
                    && !n.is_empty()
                    && (whole_word(&upper_quote, n)
                        || words(quote).iter().any(|w| bare(w) == bare(n)))
            })
        });
        if !whole && !labelled {
            // "NDA 215866" in the quote for "NDA215866" in the value is the same identifier.
            let compact: String = id.chars().filter(|c| c.is_alphanumeric()).collect();
            let spaced = qids.is_empty() && id.len() >= 8 && compact_quote == compact;
            if !spaced {
                return Entailment::Fails(
                    Rule::Identifier,
                    format!(
                        "{id} is not whole in the quote (it has {})",
                        list_or_none(&qids)
                    ),
                );
            }
        }
    }
    if let Some(v) = code_of_another_item(c, quote) {
        return v;
    }
    if let Some(v) = code_of_another_substance(c, r, scope) {
        return v;
    }
    if let Some(v) = another_interventions_name(c, r, field, scope) {
        return v;
    }
    if let Some(v) = product_of_another_application(c, ev, r) {
        return v;
    }
    if let Some(v) = study_of_another_record(c, ev, r) {
        return v;
    }
    let written = c.locator.as_deref().filter(|l| !l.is_empty());
    if let Some(v) = expanded_access_id(c, r, written.unwrap_or(&r.locators[field])) {
        return v;
    }
    if let Some(v) = strength_of_another_product(c, r, written.unwrap_or(&r.locators[field])) {
        return v;
    }
    if let Some(v) = enrollment_from_baseline(c, r, written.unwrap_or(&r.locators[field])) {
        return v;
    }
    if let Some(v) = enrollment_of_all_for_an_arm(c, r, written.unwrap_or(&r.locators[field])) {
        return v;
    }
    if let Some(v) = dose_for_those_named_before(c, quote) {
        return v;
    }
    if let Some(v) = dose_of_another(c, quote, scope) {
        return v;
    }
    if let Some(v) = recommended_elsewhere(c, quote, &r.locators[field]) {
        return v;
    }
    if let Some(v) = animal_finding(c, r.field_text(field), quote) {
        return v;
    }
    if let Some(v) = pace_turned(c, quote) {
        return v;
    }
    if let Some(v) = repackager(c, r) {
        return v;
    }
    // a label's boxed warning opens on its WARNING heading: text filed under
    // `boxed_warning` without one (a medication guide's "AMBIEN is a federally controlled
    // substance …") is no boxed warning
    if c.field == "regulatory.boxed_warning"
        && r.family == crate::domain::Family::FdaLabel
        && r.locators[field].starts_with("/boxed_warning")
        && !r.field_text(field).to_lowercase().contains("warning")
    {
        return Entailment::Fails(
            Rule::Field,
            format!(
                "the text at {} has no WARNING heading: it is not a boxed warning",
                r.locators[field]
            ),
        );
    }
    // an abstract's BACKGROUND ("BRAF mutations are found in 50% of patients with
    // advanced melanoma") states what was known, not the study's results
    if (c.field.starts_with("efficacy.") || c.field.starts_with("safety."))
        && r.family == crate::domain::Family::Pubmed
    {
        let place = c
            .locator
            .as_deref()
            .filter(|l| !l.is_empty())
            .unwrap_or(&r.locators[field]);
        let category = ["@NlmCategory", "@Label"].iter().find_map(|a| {
            let want = format!("{place}/{a}");
            r.locators
                .iter()
                .position(|l| *l == want)
                .map(|i| r.field_text(i).trim())
        });
        if category.is_some_and(|k| k.eq_ignore_ascii_case("background")) {
            return Entailment::Fails(
                Rule::Field,
                format!(
                    "the quote is the abstract's background ({place}), not the study's results"
                ),
            );
        }
    }
    // field fitness: at the locator given, else at some field holding the quote
    let given = c.locator.as_deref().filter(|l| !l.is_empty());
    let fam = r.family.as_str();
    let candidates: Vec<String> = match given {
        Some(l) => vec![l.to_string()],
        None => fields_holding(r, quote, field)
            .into_iter()
            .map(|i| r.locators[i].clone())
            .collect(),
    };
    let mut unfit = None;
    let mut loc = None;
    for l in &candidates {
        match cx.fitness.check(&c.field, fam, l, |k| sibling(r, l, k)) {
            Ok(()) => {
                loc = Some(l.clone());
                break;
            }
            Err(why) => {
                unfit.get_or_insert((l.clone(), why));
            }
        }
    }
    // the drug's own code names, in parentheses right after its name, in text that
    // otherwise feeds no names ("Prior treatment with dupilumab (REGN668/ SAR231893)")
    let loc = loc.or_else(|| {
        (c.field == "identity.names" && aliases_given(&c.value, quote, scope))
            .then(|| candidates[0].clone())
    });
    // a participant flow's details, or the study's own description, that state the
    // count the record gives as enrolled ("352 participants enrolled, 272 randomized",
    // "362 subjects were randomized to the study at 33 US sites") state the enrollment;
    // another of their counts (the 272 randomized) is none
    let loc = loc.or_else(|| {
        let flow_details = |l: &str| {
            l.starts_with("/resultsSection/participantFlowModule/preAssignmentDetails")
                || l.starts_with("/resultsSection/participantFlowModule/recruitmentDetails")
                || l.contains("/participant_flow[1]/pre_assignment_details")
                || l.contains("/participant_flow[1]/recruitment_details")
                || l.starts_with("/protocolSection/descriptionModule/")
                || l.starts_with("/clinical_study[1]/detailed_description[1]/")
                || l.starts_with("/clinical_study[1]/brief_summary[1]/")
        };
        let enrolled = enrolled_count(r)?;
        let values = Text::new(&c.value);
        // (the value's first number is its count, and what the value calls those it
        // counts, "randomized", "treated", the quote calls them too)
        let first = values.tokens.iter().position(|x| x.kind == Kind::Number)?;
        let states = |w: &str| {
            matches!(
                w,
                "randomized"
                    | "randomised"
                    | "treated"
                    | "dosed"
                    | "completed"
                    | "analyzed"
                    | "analysed"
            )
        };
        let said_state = (first + 1..values.tokens.len())
            .take_while(|&k| values.tokens[k].kind != Kind::Number)
            .filter_map(|k| values.word(k))
            .find(|w| states(w));
        let qt = Text::new(quote);
        let own_words: Vec<&str> = qt
            .numbers_equal(enrolled)
            .into_iter()
            .flat_map(|at| {
                (at + 1..qt.tokens.len())
                    .take_while(|&k| qt.tokens[k].kind != Kind::Number && qt.word(k) != Some(";"))
                    .take(6)
                    .filter_map(|k| qt.word(k))
                    .collect::<Vec<_>>()
            })
            .collect();
        let states_it = values.tokens[first].text == enrolled
            && whole_word(quote, enrolled)
            && said_state.is_none_or(|w| own_words.contains(&w));
        (c.field == "trials.enrollment" && states_it)
            .then(|| candidates.iter().find(|l| flow_details(l)).cloned())
            .flatten()
    });
    let Some(loc) = loc else {
        let (l, why) = unfit.expect("at least one candidate field");
        let reason = match why {
            Unfit::Family => format!(
                "{} is not filled from {fam} records (only {})",
                c.field,
                cx.fitness.families(&c.field).join(", ")
            ),
            Unfit::Part => format!(
                "the quote is at {l}, which does not feed {} (from {fam}: {})",
                c.field,
                cx.fitness.parts(&c.field, fam).join(", ")
            ),
            Unfit::Sibling { key, want, found } => format!(
                "the quote is at {l}, whose {key} is {found:?}; {} needs {key} {want}",
                c.field
            ),
        };
        return Entailment::Fails(Rule::Field, reason);
    };
    // field cues: a quote that speaks of something else; a quote that opens by pointing
    // back ("These events are as follows: …") speaks of what the sentence before it names
    let mut qwords = words(quote);
    if let Some(first) = qwords.first()
        && matches!(first.as_str(), "these" | "this" | "such" | "they" | "those")
    {
        let text = r.field_text(field);
        if let Some(pos) = text.find(quote) {
            // the two sentences before it
            let before = text[..pos].trim_end();
            let mut from = before.len();
            for _ in 0..2 {
                from = before[..from]
                    .trim_end_matches('.')
                    .rfind(". ")
                    .map_or(0, |i| i + 2);
            }
            qwords.extend(words(&before[from..]));
        }
    }
    if let Some((w, why)) = Cues::shipped().find(&c.field, &qwords, &words(&c.value)) {
        return Entailment::Fails(Rule::Field, format!("the quote speaks of {w:?}: {why}"));
    }
    // bare number: which place does it stand for?
    let qt = Text::new(quote);
    let bare = !qt.tokens.is_empty()
        && qt.tokens.iter().any(|t| t.kind == Kind::Number)
        && qt.tokens.iter().all(|t| t.kind != Kind::Word);
    let mut place = given.map(str::to_string);
    if bare && given.is_none() {
        // an identifier or date of several numbers ("2020-001803-17") is found whole
        let several = qt.tokens.iter().filter(|t| t.kind == Kind::Number).count() > 1;
        let n = if several {
            quote.trim()
        } else {
            qt.tokens
                .iter()
                .find(|t| t.kind == Kind::Number)
                .map(|t| t.text)
                .unwrap_or("")
        };
        let mut at = occurrences(r, n);
        // an identifier or date is one value wherever it is written: read at a place that
        // feeds the field ("20-0006", the org study id, also named in the description;
        // "20180207", an approval date also on the letter and label of that approval)
        // and so is a count every place of which feeds a field no arm divides (317 the
        // enrollment and the baseline total)
        let several = several || compact_date(n);
        let armless = !profile::spec(&c.field).is_some_and(|s| s.arm_bound);
        if (several || armless) && at.len() > 1 {
            let fam = r.family.as_str();
            let fits = |i: &usize| {
                cx.fitness
                    .check(&c.field, fam, &r.locators[*i], |k| {
                        sibling(r, &r.locators[*i], k)
                    })
                    .is_ok()
            };
            if several && let Some(&i) = at.iter().find(|i| fits(i)) {
                at = vec![i];
            } else if !several && at.iter().all(fits) {
                at.truncate(1);
            }
        }
        if at.len() > 1 {
            return Entailment::Fails(
                Rule::BareNumber,
                format!(
                    "{n:?} occurs {} times in {}; a quote that is only a number needs a locator to say which",
                    at.len(),
                    r.source_id
                ),
            );
        }
        place = at.first().map(|&i| r.locators[i].clone());
    }
    let place = place.unwrap_or(loc);
    // a structured place holds the value itself (its whole text is quoted, or the quote
    // is a bare number); a passage of text that a fact was also read from is still text
    let whole = r
        .locators
        .iter()
        .position(|l| *l == place)
        .is_some_and(|i| r.field_text(i).trim() == quote.trim());
    let at_place = scope.and_then(|s| s.cells.get(&(r.source_id.clone(), place.clone())));
    // the very cell the extractive reasoner read at this place
    let own = at_place.is_some_and(|cells| cells.contains(&Cell::of(c)));
    let cells = at_place.filter(|_| whole || bare || own);
    if let Some(v) = row_context(c, r, &place) {
        return v;
    }
    if let Some(v) = at_baseline(c, &place) {
        return v;
    }
    if let Some(v) = baseline_subgroup(c, r, &place) {
        return v;
    }
    if let Some(v) = outcome_population(c, r, &place) {
        return v;
    }
    if let Some(v) = arm_group_cohort(c, r, &place, given.is_some()) {
        return v;
    }
    if let Some(v) = outcome_endpoint(c, r, &place) {
        return v;
    }
    // a comparison the value makes at a posted number is read against the other group's
    if let Some(v) = posted_comparison(c, r, &place) {
        return v;
    }
    if bare && let Some(v) = posted_sign(c, r, &place, quote) {
        return v;
    }
    if bare && let Some(v) = posted_class_bounds(c, r, &place) {
        return v;
    }
    if let Some(v) = event_term(c, r, &place) {
        return v;
    }
    if let Some(v) = limit_as_value(c, &place) {
        return v;
    }
    if bare && let Some(v) = count_denied(c, quote) {
        return v;
    }
    if let Some(v) = time_ratio_direction(c, r, &place, quote) {
        return v;
    }
    if let Some(v) = difference_direction(c, r, &place) {
        return v;
    }
    if let Some(v) = ratio_order(c, r, &place) {
        return v;
    }
    // a significance claimed at a posted analysis is read against its p-value
    if let Some(p) = analysis_p_value(r, &place)
        && let Some(why) = text::not_significant_at(&c.value, &p)
    {
        return Entailment::Fails(Rule::Direction, why);
    }
    // a posted number no cell was read from still belongs to the group beside it, and is
    // in its outcome's unit (the cells carry both for the numbers they were read from)
    if cells.is_none()
        && let Some(s) = scope
    {
        if let Some((group, all)) = posted_group(r, &place)
            && let Some(v) = group_arm(c, &group, s, cx)
                .or_else(|| narrower_group(c, &group, &all))
                .or_else(|| period_group(c, &group, &all))
                .or_else(|| cohort_group(c, &group))
        {
            return v;
        }
        if let Some(have) = posted_unit(r, &place)
            && let Some(want) = c.unit.as_deref().filter(|u| !u.trim().is_empty())
        {
            let (hw, ww) = (words(&have), words(want));
            let log = |w: &[String]| w.iter().any(|x| x.starts_with("log"));
            // a log scale is another unit whatever the unit it takes the log of
            let differ = log(&hw) != log(&ww)
                || matches!(
                    (cx.units.canonical(&have), cx.units.canonical(want)),
                    (Some(a), Some(b)) if a != b
                );
            if differ {
                return Entailment::Fails(
                    Rule::Unit,
                    format!("the outcome at {place} is in {have:?}, not in {want:?}"),
                );
            }
        }
    }
    // a posted adverse event's count of those affected is a count, not a share of them
    if [
        "/numAffected",
        "/numAtRisk",
        "/@subjects_affected",
        "/@subjects_at_risk",
    ]
    .iter()
    .any(|k| place.ends_with(k))
        && let Some(want) = claim_unit(c, cx.units).filter(|u| matches!(*u, "%" | "proportion"))
    {
        return Entailment::Fails(
            Rule::Unit,
            format!("the record's number at {place} counts participants, it is not a {want}"),
        );
    }
    // a posted adverse event's count of events is no count of participants: one
    // participant may have had several
    if ["/numEvents", "/@events"]
        .iter()
        .any(|k| place.ends_with(k))
    {
        let people = |w: &String| {
            matches!(
                w.as_str(),
                "participants"
                    | "participant"
                    | "patients"
                    | "patient"
                    | "subjects"
                    | "subject"
                    | "people"
                    | "persons"
                    | "individuals"
            )
        };
        let events = |w: &String| {
            matches!(
                w.as_str(),
                "events" | "event" | "episodes" | "occurrences" | "reports" | "cases"
            )
        };
        let unit = words(c.unit.as_deref().unwrap_or(""));
        let value = words(&c.value);
        let counts_people = if unit.is_empty() {
            value.iter().any(people) && !value.iter().any(events)
        } else {
            unit.iter().any(people) && !unit.iter().any(events)
        };
        if counts_people {
            return Entailment::Fails(
                Rule::Unit,
                format!("the record's number at {place} counts events, not participants"),
            );
        }
    }
    // a table column's name is its unit: `count` is no rate per 100,000
    if r.family == crate::domain::Family::Epi
        && let Some(key) = place.rsplit('/').next()
        && let Some(have) = cx.units.canonical(key)
        && let Some(want) = claim_unit(c, cx.units)
        && have != want
    {
        return Entailment::Fails(
            Rule::Unit,
            format!("the value at {place} is a {have} (its column {key:?}), not {want}"),
        );
    }
    // the claim's arm is exactly another group of the outcome than the number's (the
    // open-label extension of the double-blind arm)
    if cells.is_some()
        && let Some((group, all)) = posted_group(r, &place)
        && let Some(v) = narrower_group(c, &group, &all).or_else(|| period_group(c, &group, &all))
    {
        return v;
    }
    let verdict = match cells {
        Some(cells) => structured(
            c,
            cells,
            scope.expect("cells come from a scope"),
            r,
            &place,
            cx,
        ),
        None if bare => {
            // a bare number at a text place is read in its field's text
            let field_text = r
                .locators
                .iter()
                .position(|l| *l == place)
                .map(|i| r.field_text(i))
                .unwrap_or(quote);
            text::text(c, &Text::new(field_text), r, scope, cx)
        }
        None => text::text(c, &qt, r, scope, cx),
    };
    if let Entailment::Fails(..) = verdict {
        return verdict;
    }
    if let Some(why) = text::sign(c, &Text::new(&c.value)) {
        return Entailment::Fails(Rule::Direction, why);
    }
    // a comparison's type is the record's word for it: NON_INFERIORITY is not OTHER
    if c.field == "efficacy.non_inferiority_type" {
        let norm = |s: &str| words(s).join(" ");
        let (v, q) = (norm(&c.value), norm(quote));
        if !v.contains(&q) && !q.contains(&v) {
            return Entailment::Fails(
                Rule::Direction,
                format!(
                    "the record types the comparison {quote:?}, not {:?}",
                    c.value
                ),
            );
        }
    }
    // hyphenated codes are whole: HLC-101 is not HLC-101-301
    let (vc, qc) = (codes(&c.value), codes(quote));
    if let Some(code) = vc.iter().find(|x| !qc.contains(x)) {
        return Entailment::Fails(
            Rule::Identifier,
            format!(
                "{code} is not whole in the quote (it has {})",
                list_or_none(&qc)
            ),
        );
    }
    match text::direction(c, &qt, scope) {
        Some(why) => Entailment::Fails(Rule::Direction, why),
        None => verdict,
    }
}

/// A value that says its drug changed a risk and gives the hazard ratio ("Nivolumab
/// increased the risk of death versus docetaxel (HR 0.59)"): a ratio below 1 is a lower
/// risk for the group it names first, above 1 a higher one, whatever the words say.
/// Read only when the value opens on the claim's drug and names the change once.
fn hazard_direction(c: &Claim) -> Option<String> {
    let vt = Text::new(&c.value);
    let has = |w: &str| vt.tokens.iter().any(|x| x.lower == w);
    // the ratio's name, and the first number after it, read whole ("0.59")
    let name = vt
        .tokens
        .iter()
        .position(|x| x.lower == "hr" || x.lower == "ratio" && has("hazard"))?;
    let first = vt.tokens.iter().find(|x| x.kind == Kind::Word)?;
    let asset = words(&c.asset);
    let opens_on_drug = asset.contains(&first.lower);
    // "Chemotherapy lowered the risk … versus trametinib (hazard ratio 0.45)": the
    // comparator (the claim's arm) as the subject, the drug after "versus"
    let opens_on_comparator = !opens_on_drug
        && c.arm
            .as_deref()
            .is_some_and(|a| words(a).contains(&first.lower))
        && vt.tokens.windows(2).any(|p| {
            matches!(p[0].lower.as_str(), "versus" | "vs" | "than" | "over")
                && asset.contains(&p[1].lower)
        });
    if !has("risk") || !(opens_on_drug || opens_on_comparator) {
        return None;
    }
    let hr: f64 = vt.tokens[name + 1..]
        .iter()
        .find(|x| x.kind == Kind::Number)
        .and_then(|x| x.text.parse().ok())?;
    let before = &vt.tokens[..name];
    let up = before.iter().any(|x| UP.contains(&x.lower.as_str()));
    let down = before.iter().any(|x| DOWN.contains(&x.lower.as_str()));
    if opens_on_comparator {
        return match (up, down) {
            (false, true) if hr < 1.0 => Some(format!(
                "a hazard ratio of {hr} is a lower risk for {}, and the claim gives the lower risk to {}",
                c.asset, first.text
            )),
            (true, false) if hr > 1.0 => Some(format!(
                "a hazard ratio of {hr} is a higher risk for {}, and the claim gives the higher risk to {}",
                c.asset, first.text
            )),
            _ => None,
        };
    }
    match (up, down) {
        (true, false) if hr < 1.0 => Some(format!(
            "a hazard ratio of {hr} is a lower risk for {}, and the claim states a higher one",
            c.asset
        )),
        (false, true) if hr > 1.0 => Some(format!(
            "a hazard ratio of {hr} is a higher risk for {}, and the claim states a lower one",
            c.asset
        )),
        _ => None,
    }
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "no identifier".into()
    } else {
        v.join(", ")
    }
}

/// Dose and regimen tokens of a text: "300 mg", "qw", "q2w", "every other week".
fn doses(s: &str, units: &Units) -> Vec<String> {
    let t = Text::new(s);
    let mut out = Vec::new();
    for i in 0..t.tokens.len() {
        let tok = &t.tokens[i];
        if tok.kind == Kind::Number
            && let Some(u) = units.at(&t, i + 1)
            && matches!(
                u,
                "mg" | "mcg"
                    | "g"
                    | "mg/kg"
                    | "mcg/kg"
                    | "mg/m2"
                    | "mcg/m2/d"
                    | "mg/day"
                    | "ml"
                    | "iu"
            )
        {
            // a daily dose in mg is the dose in mg ("70 mg" is "70 mg/day")
            let u = if u == "mg/day" { "mg" } else { u };
            out.push(format!("{} {u}", tok.lower));
        }
        if tok.kind == Kind::Word {
            let w = tok.lower.as_str();
            let regimen = matches!(w, "qw" | "qd" | "bid" | "tid" | "qod")
                || (w.len() >= 3
                    && w.starts_with('q')
                    && (w.ends_with('w') || w.ends_with('d'))
                    && w[1..w.len() - 1].bytes().all(|b| b.is_ascii_digit()));
            if regimen {
                out.push(w.to_string());
            }
        }
    }
    out
}

/// Whether a claim's arm words name the group `title`: a distinctive word in common.
fn names_group(claim_words: &[String], title: &str) -> bool {
    let t = distinctive(title);
    claim_words.iter().any(|w| t.contains(w))
        || t.iter().any(|a| {
            // of a word, or of the name the words make ("CZP": certolizumab pegol), either
            // way ("LEN" in the claim for "Lenalidomide")
            claim_words
                .iter()
                .any(|w| abbreviates(a, w) || abbreviates(w, a))
                || claim_words
                    .windows(2)
                    .any(|p| abbreviates(a, &format!("{}{}", p[0], p[1])))
        })
}

/// Whether a short word abbreviates a longer one by some of its letters in order, from
/// its first: "rdv" remdesivir, "czp" certolizumab (pegol), "mtx" methotrexate.
pub(super) fn abbreviates(short: &str, long: &str) -> bool {
    let n = short.chars().count();
    if !(2..=4).contains(&n)
        || long.chars().count() < 6
        || !short.chars().all(|c| c.is_ascii_alphabetic())
    {
        return false;
    }
    let mut rest = long.chars();
    short.chars().next() == long.chars().next() && short.chars().all(|c| rest.any(|l| l == c))
}

/// Everything the claim says of whom and what its number is for: its population,
/// endpoint, arm and value, in one text.
fn said(c: &Claim) -> String {
    [
        c.population.as_deref(),
        c.endpoint.as_deref(),
        c.arm.as_deref(),
        Some(c.value.as_str()),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ")
}

/// The words the claimed arm goes by: the claim's arm, or the asset's names.
fn claimed_words(c: &Claim, scope: Option<&Scope>) -> Vec<String> {
    match c.arm.as_deref().filter(|a| !distinctive(a).is_empty()) {
        Some(a) => distinctive(a),
        None => scope
            .map(|s| s.names.iter().flat_map(|n| distinctive(n)).collect())
            .unwrap_or_default(),
    }
}

fn claimed_name(c: &Claim) -> String {
    match c.arm.as_deref().filter(|a| !a.trim().is_empty()) {
        Some(a) => format!("{a:?}"),
        None => format!("{}'s own arm", c.asset),
    }
}

/// The rules at a structured place that the extractive reasoner bound to `cells`.
fn structured(
    c: &Claim,
    cells: &[Cell],
    scope: &Scope,
    r: &EvidenceRecord,
    place: &str,
    cx: &Context<'_>,
) -> Entailment {
    let mine = Cell::of(c);
    if cells.contains(&mine) {
        return Entailment::Holds;
    }
    let same_field: Vec<&Cell> = cells.iter().filter(|x| x.field == c.field).collect();
    // the place holds another arm-level field (a standard error claimed as the standard
    // deviation, a count analyzed as the value)
    let arm_level = |f: &str| profile::spec(f).is_some_and(|s| s.arm_bound);
    let numeric = Text::new(&c.value)
        .tokens
        .iter()
        .all(|x| x.kind != Kind::Word || tables::is_unit_word(&x.lower));
    // (a section's own field at a place the fitness table lets feed it, as a serious
    // adverse events outcome for safety.serious_ae_affected, is not another field's)
    let section = |f: &str| f.split('.').next().unwrap_or("").to_string();
    if same_field.is_empty()
        && numeric
        && arm_level(&c.field)
        && let Some(other) = cells
            .iter()
            .find(|x| arm_level(&x.field) && section(&x.field) == section(&c.field))
    {
        return Entailment::Fails(
            Rule::Field,
            format!(
                "the record gives this value as {}, not {}",
                other.field, c.field
            ),
        );
    }
    let pool: Vec<&Cell> = if same_field.is_empty() {
        cells.iter().collect()
    } else {
        same_field
    };
    let mut first_fail = None;
    let mut undecided = None;
    for cell in pool {
        match structured_one(c, cell, scope, r, place, cx) {
            Entailment::Holds => return Entailment::Holds,
            Entailment::Undecided(w) => {
                undecided.get_or_insert(w);
            }
            f => {
                first_fail.get_or_insert(f);
            }
        }
    }
    match (undecided, first_fail) {
        (Some(w), _) => Entailment::Undecided(w),
        (None, Some(f)) => f,
        (None, None) => Entailment::Holds,
    }
}

/// The arm rules for a number the record gives for the group titled `group`: the claim
/// must name that group (its drug, its comparator, its cohort, its dose).
fn group_arm(c: &Claim, group: &str, scope: &Scope, cx: &Context<'_>) -> Option<Entailment> {
    let cw = claimed_words(c, Some(scope));
    if !names_group(&cw, group) {
        let comparator = distinctive(group)
            .iter()
            .any(|w| COMPARATORS.contains(&w.as_str()) || text::drug_like(w));
        // a single-arm study's "groups" may be its analyses ("Change From Baseline at End
        // of Core Study", "Maximum Change From Baseline in Cycles 1 - 4"): no arm of any
        if !comparator && analysis_group(group) {
            let said = words(&format!(
                "{} {}",
                c.endpoint.as_deref().unwrap_or(""),
                c.value
            ));
            let own: Vec<String> = words(group)
                .into_iter()
                .filter(|w| {
                    !w.chars().all(|ch| ch.is_ascii_digit())
                        && !matches!(
                            w.as_str(),
                            "change"
                                | "from"
                                | "baseline"
                                | "in"
                                | "at"
                                | "of"
                                | "the"
                                | "to"
                                | "study"
                                | "mean"
                        )
                })
                .collect();
            return (!own.iter().any(|w| said.contains(w))).then(|| {
                Entailment::Fails(
                    Rule::TimePoint,
                    format!(
                        "the record gives this number for {group:?}, another time point or analysis than the claim's"
                    ),
                )
            });
        }
        if c.arm.as_deref().is_some_and(|a| !a.trim().is_empty()) || comparator {
            return Some(Entailment::Fails(
                Rule::Arm,
                format!(
                    "the record gives this number for the group {:?}, not for {}",
                    group,
                    claimed_name(c)
                ),
            ));
        }
        return Some(Entailment::Undecided(format!(
            "the record's group {:?} does not name {}",
            group, c.asset
        )));
    }
    // "Placebo->OL CZP 200 mg Q2W" is the placebo-switch group, not "CZP 200 mg Q2W"
    if let Some(a) = c.arm.as_deref().filter(|a| !a.trim().is_empty()) {
        let cw = distinctive(a);
        let comp = |ws: &[String]| -> Vec<String> {
            ws.iter()
                .filter(|w| COMPARATORS.contains(&w.as_str()))
                .cloned()
                .collect()
        };
        // a comparison's group ("Dupilumab 300 mg qw vs Placebo qw") is its first side's
        // for an estimate of that side against the other
        let comparative = c.field.starts_with("efficacy.effect")
            || c.field == "efficacy.comparison"
            || words(&c.value).iter().any(|w| {
                matches!(
                    w.as_str(),
                    "than" | "vs" | "versus" | "difference" | "compared"
                )
            });
        let first_side = {
            let g = group.to_lowercase();
            let side = two_sides(&g).map(|(a, _)| a.to_string());
            let arm_compares = words(a)
                .iter()
                .any(|w| matches!(w.as_str(), "vs" | "versus"));
            side.filter(|_| comparative && !arm_compares).unwrap_or(g)
        };
        // placebo added to the drug ("Lenalidomide plus placebo") blinds the drug's arm:
        // it is no comparator of that side
        let names: Vec<String> = scope.names.iter().flat_map(|n| distinctive(n)).collect();
        let blinded = |text: &str, ws: Vec<String>| -> Vec<String> {
            let low = text.to_lowercase();
            let added = ["plus placebo", "+ placebo", "+placebo"]
                .iter()
                .any(|p| low.contains(p));
            let drug = distinctive(text).iter().any(|w| names.contains(w));
            if added && drug && two_sides(&low).is_none() {
                ws.into_iter().filter(|w| w != "placebo").collect()
            } else {
                ws
            }
        };
        let (mine, theirs) = (
            blinded(a, comp(&cw)),
            blinded(&first_side, comp(&distinctive(&first_side))),
        );
        // a claimed arm of two sides ("Zolpidem <=10 mg vs placebo") whose value gives
        // each side a number ("7% with zolpidem vs 6% with placebo") has a group on either
        // side: the column is one of them when its comparators are one side's
        // the side a two-sided arm's value gives its number to: each side's when it gives
        // one per side ("7% with zolpidem vs 6% with placebo"); else the side its one
        // number is bound to ("more frequent with nivolumab (18 patients) than with
        // docetaxel"). Some(whether the column is that side), None when it says no side.
        let value_side = || -> Option<bool> {
            let names: Vec<String> = scope.names.iter().flat_map(|n| distinctive(n)).collect();
            // (a comparison's own column, an estimate's, is no one side's)
            if two_sides(&group.to_lowercase()).is_some()
                || (names_group(&names, group)
                    && distinctive(group).iter().any(|w| {
                        !names.contains(w)
                            && (COMPARATORS.contains(&w.as_str()) || text::drug_like(w))
                    }))
            {
                return None;
            }
            let (x, y) = two_sides(&a.to_lowercase())
                .map(|(x, y)| (comp(&distinctive(x)), comp(&distinctive(y))))?;
            let vt = Text::new(&c.value);
            let numbers: Vec<usize> = (0..vt.tokens.len())
                .filter(|&i| vt.tokens[i].kind == Kind::Number)
                .collect();
            match numbers[..] {
                [] => None,
                [at] => match text::group_of(&vt, at, &names).ok().flatten()? {
                    (_, true) => Some(theirs.is_empty() && (x.is_empty() || y.is_empty())),
                    (w, false) => Some(theirs.contains(&w) && (x == theirs || y == theirs)),
                },
                _ => (x == theirs || y == theirs).then_some(true),
            }
        };
        let side = value_side();
        // a comparison whose record states no direction ("Placebo and Lenalidomide
        // (direction not stated)") is every listed group's against the others: a
        // comparative claim for one of them names it
        let undirected = comparative && group.ends_with("(direction not stated)");
        if !undirected
            && (side == Some(false)
                || (mine != theirs && !(mine.is_empty() && theirs.is_empty()) && side.is_none()))
        {
            return Some(Entailment::Fails(
                Rule::Arm,
                format!(
                    "the record gives this number for the group {:?}, not for {a:?}",
                    group
                ),
            ));
        }
    }
    // "Cohort 2" is not "Cohort 1", nor "Arm B" "Arm A", in the arm or the population
    if let Some(a) = c.arm.as_deref() {
        let named = format!("{a} {}", c.population.as_deref().unwrap_or(""));
        let (mine, theirs) = (group_ids(&named), group_ids(group));
        if mine
            .iter()
            .any(|(k, v)| theirs.iter().any(|(k2, v2)| k == k2 && v != v2))
            && !mine.iter().any(|m| theirs.contains(m))
        {
            return Some(Entailment::Fails(
                Rule::Arm,
                format!(
                    "the record gives this number for the group {:?}, not for {a:?}",
                    group
                ),
            ));
        }
    }
    let want = doses(c.arm.as_deref().unwrap_or(""), cx.units);
    let have = doses(group, cx.units);
    if !want.is_empty() && !have.is_empty() && !want.iter().all(|d| have.contains(d)) {
        return Some(Entailment::Fails(
            Rule::Dose,
            format!(
                "the record gives this number for {:?} ({}), not for {} ({})",
                group,
                have.join(", "),
                claimed_name(c),
                want.join(", ")
            ),
        ));
    }
    None
}

/// The two sides of a comparison's name ("Dupilumab 300 mg qw vs Placebo qw"), from a
/// lower-cased text.
fn two_sides(s: &str) -> Option<(&str, &str)> {
    [" vs. ", " vs ", " versus "]
        .iter()
        .find_map(|sep| s.split_once(sep))
}

/// A difference a posted analysis estimates ("Percentage Difference" 34.0, commented
/// "Dupilumab 300 mg qw vs. Placebo qw") says which group is higher: the first named when
/// it is above zero, the second below. A claim at the estimate or its limits that the
/// other group is higher ("placebo exceeded dupilumab", "rose more with dupilumab than
/// with placebo" for a negative difference) turns the comparison around.
/// A posted ratio written as one group over another ("HR = Nivolumab over Docetaxel")
/// is that group's against the other's: a claim that gives it the other way round
/// ("0.59 (Docetaxel over Nivolumab)", or an arm "Docetaxel vs Nivolumab") states the
/// inverse comparison, whose ratio is another number.
fn ratio_order(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    if !(place.contains("/analyses/") || place.contains("/analysis[")) {
        return None;
    }
    let comment = siblings(r, place)
        .into_iter()
        .find(|(k, _)| {
            matches!(
                k.split('[').next().unwrap_or(""),
                "estimateComment" | "estimate_desc"
            )
        })
        .map(|(_, t)| t)?;
    // the record's order: the words either side of "over", within its clause (ASCII
    // case folding keeps the offsets, so the record's own words show in the reason)
    let clause = comment
        .split([';', '.'])
        .find(|p| p.to_ascii_lowercase().contains(" over "))?;
    let k = clause.to_ascii_lowercase().find(" over ")?;
    let (a, b) = (&clause[..k], &clause[k + " over ".len()..]);
    let a = a.rsplit(['=', ':', ',']).next().unwrap_or(a);
    let (ra, rb) = (distinctive(a), distinctive(b));
    // the claim's order: "X over Y" in its value, else "X vs Y" in its value or arm
    let value = c.value.to_lowercase();
    let arm = c.arm.as_deref().unwrap_or("").to_lowercase();
    let (x, y) = value
        .split_once(" over ")
        .or_else(|| two_sides(&value))
        .or_else(|| two_sides(&arm))?;
    let (cx_, cy) = (distinctive(x), distinctive(y));
    let meets = |p: &[String], q: &[String]| p.iter().any(|w| q.contains(w));
    let reversed = meets(&cx_, &rb) && meets(&cy, &ra) && !meets(&cx_, &ra) && !meets(&cy, &rb);
    reversed.then(|| {
        Entailment::Fails(
            Rule::Direction,
            format!(
                "the record's estimate is {} over {}; the claim gives it the other way round",
                a.trim(),
                b.trim()
            ),
        )
    })
}

fn difference_direction(c: &Claim, r: &EvidenceRecord, place: &str) -> Option<Entailment> {
    if !(place.contains("/analyses/") || place.contains("/analysis[")) {
        return None;
    }
    let sib = siblings(r, place);
    let get = |keys: [&str; 2]| {
        sib.iter()
            .find(|(k, _)| keys.contains(&k.split('[').next().unwrap_or("")))
            .map(|(_, t)| *t)
    };
    let kind = get(["paramType", "param_type"])?.to_lowercase();
    if !kind.contains("difference") {
        return None;
    }
    let estimate: f64 = get(["paramValue", "param_value"])?.trim().parse().ok()?;
    if estimate == 0.0 {
        return None;
    }
    let comment = get(["estimateComment", "estimate_desc"])?.to_lowercase();
    let (first, second) = two_sides(&comment)?;
    let (higher, lower) = if estimate > 0.0 {
        (first, second)
    } else {
        (second, first)
    };
    // the side the claim says is higher: before "than" with "higher", "more", …, after it
    // with "lower", "less", …; the subject of "exceeded"
    let vw = words(&c.value);
    // "improved" says nothing of the sign without the scale's sense
    if vw
        .iter()
        .any(|w| w.starts_with("improv") || matches!(w.as_str(), "better" | "worse" | "worsened"))
    {
        return None;
    }
    let claimed: Vec<String> = if let Some(at) = vw.iter().position(|w| w == "than") {
        // "reduced … more than": a greater fall is the lower value
        let falls = vw[..at]
            .iter()
            .any(|w| DOWN.contains(&w.as_str()) && w.ends_with("ed"));
        let up = vw[..at].iter().rev().find_map(|w| {
            if UP.contains(&w.as_str()) || matches!(w.as_str(), "more" | "larger") {
                Some(true)
            } else if DOWN.contains(&w.as_str()) || w == "smaller" {
                Some(false)
            } else {
                None
            }
        })?;
        let up = if falls
            && matches!(
                vw[..at]
                    .iter()
                    .rev()
                    .find(|w| UP.contains(&w.as_str()) || matches!(w.as_str(), "more" | "larger"))
                    .map(String::as_str),
                Some("more" | "greater" | "larger")
            ) {
            !up
        } else {
            up
        };
        if up {
            vw[..at].to_vec()
        } else {
            vw[at + 1..].to_vec()
        }
    } else if let Some(at) = vw.iter().position(|w| {
        matches!(
            w.as_str(),
            "exceeded" | "exceeds" | "outperformed" | "surpassed"
        )
    }) {
        vw[..at].to_vec()
    } else {
        return None;
    };
    let names = |group: &str| {
        distinctive(group)
            .iter()
            .any(|w| w.len() >= 3 && claimed.contains(w))
    };
    (names(lower) && !names(higher)).then(|| {
        Entailment::Fails(
            Rule::Direction,
            format!(
                "the analysis estimates {comment:?} at {estimate}: {higher:?} is the higher, not {lower:?}"
            ),
        )
    })
}

/// A group that is a cohort of ages or weights is a subgroup of the study: its number
/// is no value for all patients (unless the claim's arm is such a cohort too).
fn cohort_group(c: &Claim, group: &str) -> Option<Entailment> {
    // a cohort is named by the word or by an age or weight with its number ("weight-based
    // dosing" names none)
    let cohort = |s: &str| {
        let w = words(s);
        w.iter().any(|x| x == "cohort")
            || (w.iter().any(|x| x.chars().all(|c| c.is_ascii_digit()))
                && w.iter()
                    .any(|x| matches!(x.as_str(), "age" | "aged" | "weight" | "years" | "kg")))
    };
    // everyone, or every cohort ("all pediatric participants (Cohorts 1-8)")
    let all = overall(c.population.as_deref())
        || words(c.population.as_deref().unwrap_or(""))
            .iter()
            .any(|w| matches!(w.as_str(), "all" | "cohorts" | "overall" | "total"));
    (all && cohort(group) && !c.arm.as_deref().is_some_and(cohort))
        .then(|| {
            Entailment::Fails(
                Rule::Population,
                format!(
                    "the record gives this number for the group {group:?}, a subgroup, not for all patients"
                ),
            )
        })
}

/// The claim's arm is exactly one group of the list (every word, none more), and the
/// number is another's that only adds words to it ("SFE OL CZP 200 mg Q2W (SS)" is the
/// open-label extension of "CZP 200 mg Q2W (SS)").
/// The open-label extension ("SFE OL CZP 200 mg Q2W (SS)") and the double-blind period
/// ("CZP 200 mg Q2W") of one drug are different groups: a number of one is not the
/// other's, when the record posts both and the claim names the other.
fn period_group(c: &Claim, group: &str, all: &[String]) -> Option<Entailment> {
    // (a "follow-up visit" of the endpoint is a time, not a period's group)
    const OPEN: &[&str] = &["ol", "ole", "open", "extension", "sfe", "lte"];
    let open = |s: &str| words(s).iter().any(|w| OPEN.contains(&w.as_str()));
    let claimed = format!(
        "{} {}",
        c.arm.as_deref().unwrap_or(""),
        c.population.as_deref().unwrap_or("")
    );
    let arm = c.arm.as_deref().filter(|a| !distinctive(a).is_empty())?;
    let claims_open = open(&claimed);
    if open(group) == claims_open {
        return None;
    }
    let cw = distinctive(arm);
    let other = all
        .iter()
        .find(|g| g.as_str() != group && open(g) == claims_open && names_group(&cw, g))?;
    Some(Entailment::Fails(
        Rule::Arm,
        format!(
            "the record gives this number for the group {group:?}, {} period, not for {other:?}",
            if claims_open {
                "of the double-blind"
            } else {
                "of the open-label"
            }
        ),
    ))
}

/// The words of a registry record's own identifiers: its organization's study id, its
/// secondary ids, its acronym and its NCT id.
fn study_id_words(r: &EvidenceRecord) -> Vec<String> {
    r.locators
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            l.contains("/orgStudyIdInfo/")
                || l.contains("/secondaryIdInfos/")
                || l.ends_with("/acronym")
                || l.ends_with("/nctId")
                || l.starts_with("/clinical_study[1]/id_info[1]/")
                || l.starts_with("/clinical_study[1]/acronym[")
        })
        .flat_map(|(i, _)| words(r.field_text(i)))
        .collect()
}

fn narrower_group(c: &Claim, group: &str, all: &[String]) -> Option<Entailment> {
    let arm = c.arm.as_deref().filter(|a| !a.trim().is_empty())?;
    let set = |s: &str| {
        let mut w = words(s);
        w.sort();
        w.dedup();
        w
    };
    let want = set(arm);
    // the group whose title is the claimed arm's words, or else the one group whose title
    // holds them all ("SFE OL CZP 200 mg Q2W" is "SFE OL CZP 200 mg Q2W (SS)")
    let holds = |g: &String| {
        let have = set(g);
        want.iter().all(|w| have.contains(w))
    };
    let fails = |named: &String| {
        Entailment::Fails(
            Rule::Arm,
            format!("the record gives this number for the group {group:?}, not for {named:?}"),
        )
    };
    // a title's analysis-set tag ("(SS)", "(FAS)") is no part of the group's name: "CZP->OL
    // CZP" is the group "CZP->OL CZP (SS)"
    let untagged = |g: &str| {
        let mut w = set(g);
        w.retain(|x| !matches!(x.as_str(), "ss" | "fas" | "pps" | "itt" | "mitt"));
        w
    };
    let named = |g: &str| set(g) == want || untagged(g) == want;
    if let Some(exact) = all
        .iter()
        .find(|g| set(g) == want)
        .or_else(|| all.iter().find(|g| untagged(g) == want))
    {
        return (!named(group)).then(|| fails(exact));
    }
    // (an arm of a few words that the number's group lacks several of: a drug's name
    // alone is in some titles and not in others)
    let have = set(group);
    let missing = want.iter().filter(|w| !have.contains(w)).count();
    if want.len() < 3 || missing < 2 {
        return None;
    }
    let mut holding = all.iter().filter(|g| holds(g));
    let one = holding.next()?;
    holding.next().is_none().then(|| fails(one))
}

fn structured_one(
    c: &Claim,
    cell: &Cell,
    scope: &Scope,
    r: &EvidenceRecord,
    place: &str,
    cx: &Context<'_>,
) -> Entailment {
    // arm
    let arm_level = profile::spec(&c.field).is_some_and(|s| s.arm_bound);
    // a single-arm study's "groups" may be windows or analyses ("Change From Baseline at
    // End of Core Study"): one the claim's endpoint spells out is the claim's own
    let endpoint_names_group = {
        let said = distinctive(&format!(
            "{} {}",
            c.endpoint.as_deref().unwrap_or(""),
            c.population.as_deref().unwrap_or("")
        ));
        let group = distinctive(&cell.arm);
        !group.is_empty()
            && group.iter().all(|w| said.contains(w))
            && !group
                .iter()
                .any(|w| COMPARATORS.contains(&w.as_str()) || text::drug_like(w))
    };
    // a field without arms is still checked against the arm a claim names for it
    let arm_named = c.arm.as_deref().is_some_and(|a| !distinctive(a).is_empty());
    if (arm_level || arm_named)
        && !cell.arm.is_empty()
        && !endpoint_names_group
        && let Some(v) = group_arm(c, &cell.arm, scope, cx)
    {
        return v;
    }
    // endpoint: the claim's concept (OS, PFS, ACR20…) is the place's
    let ep = Lexicon::endpoints();
    let concepts = |s: &str| {
        let t = Text::new(s);
        ep.all(&t, 0..t.tokens.len())
            .into_iter()
            .map(|(_, x)| x)
            .collect::<Vec<_>>()
    };
    let (want, have) = (
        concepts(c.endpoint.as_deref().unwrap_or("")),
        concepts(&cell.endpoint),
    );
    if !want.is_empty() && !have.is_empty() && !want.iter().any(|w| have.contains(w)) {
        return Entailment::Fails(
            Rule::Endpoint,
            format!(
                "the record gives this number for {:?}, not for {}",
                cell.endpoint,
                want.join(", ")
            ),
        );
    }
    let kind = |s: &str| {
        let l = s.to_lowercase();
        (l.contains("primary"), l.contains("secondary"))
    };
    if let (Some(e), (p, s)) = (c.endpoint.as_deref(), kind(&cell.endpoint))
        && ((kind(e).0 && s && !p) || (kind(e).1 && p && !s))
    {
        return Entailment::Fails(
            Rule::Endpoint,
            format!(
                "the record gives this number for {:?}, not for {e:?}",
                cell.endpoint
            ),
        );
    }
    // time point: the claim's endpoint names it (a population's ages are none); a class
    // titled by a time point ("6 months") is more precise than the outcome's time frame
    // (else the visit its value names: "at the Week twenty-four visit")
    let claim_tp = match binder::endpoint_time_points(c.endpoint.as_deref().unwrap_or("")) {
        v if v.is_empty() => binder::value_time_points(&c.value),
        v => v,
    };
    let class_tp = claim_time_points(&cell.population);
    // a class titled by an event ("Nasal/OP Samples, Change at Discharge") is at that
    // event, not at a day or week the claim names and the class does not
    if !claim_tp.is_empty()
        && class_tp.is_empty()
        && let Some(event) = event_time_point(&cell.population)
        && !said(c).to_lowercase().contains(event)
    {
        return Entailment::Fails(
            Rule::TimePoint,
            format!(
                "the record gives this number for the class {:?}, at {event}, not at the claimed time point",
                cell.population
            ),
        );
    }
    let cell_tp = if class_tp.is_empty() {
        claim_time_points(&cell.endpoint)
    } else {
        class_tp
    };
    if !claim_tp.is_empty()
        && !cell_tp.is_empty()
        && !claim_tp
            .iter()
            .any(|a| cell_tp.iter().any(|b| a.same_exact(*b)))
    {
        return Entailment::Fails(
            Rule::TimePoint,
            format!(
                "the record gives this number at {:?} {:?}, not at the claimed time point",
                cell.endpoint, cell.population
            ),
        );
    }
    // population: a cohort's number is no one else's, whatever the field
    if let Some(v) = cohort_group(c, &cell.arm) {
        return v;
    }
    if arm_level {
        // the classes of the number's outcome and group, its own among them
        let siblings = scope.classes.get(&(
            r.source_id.clone(),
            cell.field.clone(),
            cell.endpoint.clone(),
            cell.arm.clone(),
        ));
        let classes = siblings.map_or(1, HashSet::len);
        let pop_is_time = !claim_time_points(&cell.population).is_empty();
        // a class the claim names ("fasting glucose" of a glucose outcome) is a measure,
        // not a subgroup the claim passes over
        let named = {
            let said = distinctive(&format!(
                "{} {}",
                c.endpoint.as_deref().unwrap_or(""),
                c.value
            ));
            distinctive(&cell.population)
                .iter()
                .any(|w| said.contains(w))
        };
        // a population that only repeats the arm and names the analysis set ("all
        // randomized placebo participants") is everyone in that arm
        // (a word of the study's own identifiers, "MDS-005" of "CC-5013-MDS-005", names
        // the study, no one in it)
        let arm_words = words(c.arm.as_deref().unwrap_or(""));
        let ids = study_id_words(r);
        let everyone = overall(c.population.as_deref())
            || distinctive(c.population.as_deref().unwrap_or(""))
                .iter()
                .all(|w| {
                    ANALYSIS_SET.contains(&w.as_str())
                        || OVERALL.contains(&w.as_str())
                        || arm_words.contains(w)
                        || ids.contains(w)
                });
        if everyone {
            if classes > 1
                && !named
                && !cell.population.is_empty()
                && !pop_is_time
                && !overall(Some(&cell.population))
                && divides_patients(&cell.population)
            {
                return Entailment::Fails(
                    Rule::Population,
                    format!(
                        "the record gives this number for the class {:?}, one of {classes}, not for all patients",
                        cell.population
                    ),
                );
            }
        } else {
            // the claim's population is another class's title, word and number ("PD-L1
            // expression >= 5%" for the number of "PD-L1 not quantifiable at baseline")
            let terms = |s: &str| {
                let t = Text::new(s);
                t.tokens
                    .iter()
                    .filter(|x| {
                        x.kind == Kind::Number
                            || (x.kind == Kind::Word && !GENERIC.contains(&x.lower.as_str()))
                    })
                    .map(|x| x.lower.clone())
                    .collect::<Vec<_>>()
            };
            // a bound on the other side of the class's own ("at least 5%" against "< 5%")
            let mine = bounds(c.population.as_deref().unwrap_or(""));
            let own_bounds = bounds(&cell.population);
            if let Some((n, _)) = opposite_bound(&mine, &own_bounds) {
                return Entailment::Fails(
                    Rule::Population,
                    format!(
                        "the record gives this number for the class {:?}, on the other side of {n} from {:?}",
                        cell.population,
                        c.population.as_deref().unwrap_or("")
                    ),
                );
            }
            let claimed = terms(c.population.as_deref().unwrap_or(""));
            let holds = |title: &str| {
                let t = terms(title);
                claimed.len() >= 2 && claimed.iter().all(|w| t.contains(w))
            };
            // (a claim whose bounds are all the class's own is this class's)
            let bounded_here = all_within(&mine, &own_bounds);
            if !holds(&cell.population)
                && !bounded_here
                // the first by name: the classes are a set, and the reason must not
                // change from one run to the next
                && let Some(other) = siblings
                    .into_iter()
                    .flatten()
                    .filter(|s| **s != cell.population && holds(s))
                    .min()
            {
                return Entailment::Fails(
                    Rule::Population,
                    format!(
                        "the record gives this number for the class {:?}, and {:?} is the class {other:?}",
                        cell.population,
                        c.population.as_deref().unwrap_or("")
                    ),
                );
            }
            let want = distinctive(c.population.as_deref().unwrap_or(""));
            let have = distinctive(&format!(
                "{} {} {}",
                cell.population, cell.endpoint, cell.arm
            ));
            // a number for all the study's patients, claimed for them as the record
            // describes them ("hospitalized adults with COVID-19"), not for a subgroup; a
            // class that is a time point ("Day 29"), a measure the claim names ("2 hour
            // glucose") or an analysis ("analysis 1") divides no one
            let whole_study = cell.population.is_empty()
                || pop_is_time
                || named
                || analysis_label(&cell.population)
                || !divides_patients(&cell.population);
            let study_population = whole_study && {
                let (mut protocol, mut titles) = protocol_texts(r);
                // and the analysis population of the number's own outcome ("Full analysis
                // set participants who were in hematological complete remission …")
                if let Some(p) = outcome_population_text(r, place) {
                    let p = p.to_lowercase();
                    protocol.push_str(&p);
                    titles.push(' ');
                    titles.push_str(&p);
                }
                // a subgroup word (prior therapy, an age group other than adults) must be
                // in the study's titles or conditions; any other word anywhere in its
                // protocol
                // ages the study's own text bounds ("participants below 18 years old",
                // "from birth to < 18 years of age") name their age group
                let bounded_ages: Vec<usize> = if titles.contains("year") {
                    bounds(&titles)
                        .iter()
                        .filter_map(|(n, above)| {
                            let n: f64 = n.parse().ok()?;
                            match (above, n) {
                                (false, n) if (2.0..=21.0).contains(&n) => Some(0),
                                (true, n) if (18.0..=21.0).contains(&n) => Some(1),
                                (true, n) if n >= 60.0 => Some(2),
                                _ => None,
                            }
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                // "aged" only introduces ages the study states; "MRD-positive" is positive
                // for what the study is about when its titles name the marker
                let claimed = words(c.population.as_deref().unwrap_or(""));
                let in_titles = |w: &String| {
                    titles.contains(text::stem_of(w))
                        || age_groups([w.as_str()])
                            .iter()
                            .any(|g| bounded_ages.contains(g))
                        || (matches!(w.as_str(), "aged" | "ages" | "age")
                            && (titles.contains("year") || titles.contains(" age")))
                        || (matches!(w.as_str(), "positive" | "negative")
                            && claimed.windows(2).any(|p| {
                                &p[1] == w && p[0].len() >= 2 && titles.contains(p[0].as_str())
                            }))
                };
                let subgroup = |w: &String| subgroup_named(w);
                // the other words describe the study's patients as an analyst words them
                // ("CF patients with impaired glucose tolerance", "ELBW infants"): most of
                // them in its protocol, an initialism by the words it stands for
                let described: Vec<&String> = want
                    .iter()
                    .filter(|w| w.len() >= 4 && !ANALYSIS_SET.contains(&w.as_str()) && !subgroup(w))
                    .collect();
                let found = described
                    .iter()
                    .filter(|w| protocol.contains(text::stem_of(w)) || initialism_in(w, &protocol))
                    .count();
                want.iter()
                    .any(|w| w.len() >= 4 && !ANALYSIS_SET.contains(&w.as_str()))
                    && 2 * found >= described.len()
                    && want
                        .iter()
                        .filter(|w| subgroup(w))
                        .all(in_titles)
                    // a bound the claim sets ("< 1500 g") is one the study sets
                    && (mine.is_empty() || {
                        let set = [bounds(&titles), bounds(&protocol)].concat();
                        mine.iter().all(|b| set.contains(b))
                    })
            };
            // or by its bounds, all of them the record's ("weighing 3 to <12 kg" for "RDV,
            // Cohort 4: … Weight 3 kg to < 12 kg")
            let by_bounds =
                all_within(&mine, &bounds(&format!("{} {}", cell.population, cell.arm)));
            // (an analysis set's words, "all randomized", are in every outcome's title)
            let shared = want.iter().any(|w| {
                have.contains(w)
                    && !ANALYSIS_SET.contains(&w.as_str())
                    && !OVERALL.contains(&w.as_str())
            });
            if !shared && !study_population && !by_bounds {
                return Entailment::Fails(
                    Rule::Population,
                    format!(
                        "the record gives this number for {:?}, not for {:?}",
                        if cell.population.is_empty() {
                            "all patients"
                        } else {
                            &cell.population
                        },
                        c.population.as_deref().unwrap_or("")
                    ),
                );
            }
        }
    }
    // unit, and its scale: 402300000 USD is not 402300000 thousand USD, nor -2.60 log10
    // copies per mL a change of 2.60 copies/mL
    let scale = |s: &str| {
        let w = words(s);
        if w.iter().any(|x| x.starts_with("log")) {
            -1
        } else if w
            .iter()
            .any(|x| matches!(x.as_str(), "thousand" | "thousands" | "k"))
        {
            3
        } else if w
            .iter()
            .any(|x| matches!(x.as_str(), "million" | "millions" | "mn" | "mm"))
        {
            6
        } else if w
            .iter()
            .any(|x| matches!(x.as_str(), "billion" | "billions" | "bn"))
        {
            9
        } else {
            0
        }
    };
    // an analysis's limit is "90% CI, two-sided": that names its interval, and its
    // numbers are in the unit of the outcome it compares
    let cell_unit = if is_interval(&cell.unit) {
        posted_field(
            r,
            place,
            ("/outcomeMeasures/", "unitOfMeasure"),
            ("/outcome[", "measure[1]/units[1]"),
        )
        .map(|u| u.trim().to_string())
        .unwrap_or_default()
    } else {
        cell.unit.clone()
    };
    if let Some(u) = c.unit.as_deref()
        && !cell_unit.is_empty()
        && scale(u) != scale(&cell_unit)
    {
        return Entailment::Fails(
            Rule::Unit,
            format!("the record's unit is {cell_unit:?}, not {u:?}"),
        );
    }
    if let Some(u) = claim_unit(c, cx.units)
        && !cell_unit.is_empty()
        && !cell_unit.eq_ignore_ascii_case(c.unit.as_deref().unwrap_or(""))
        && let Some(have) = cx.units.canonical(&cell_unit)
        && have != u
    {
        return Entailment::Fails(
            Rule::Unit,
            format!("the record's unit is {cell_unit:?} ({have}), not {u}"),
        );
    }
    Entailment::Holds
}

/// A unit that describes an interval or a spread rather than a quantity ("95% CI,
/// two-sided", "Full Range", "Standard Deviation"): its numbers are in the unit of the
/// outcome they qualify.
fn is_interval(unit: &str) -> bool {
    let w = words(unit);
    w.iter().any(|x| {
        matches!(
            x.as_str(),
            "ci" | "confidence" | "range" | "interquartile" | "deviation" | "error"
        )
    })
}

/// A posted group titled as an analysis or a time point of the one arm, naming no
/// treatment.
fn analysis_group(group: &str) -> bool {
    let w = words(group);
    w.iter()
        .any(|x| matches!(x.as_str(), "change" | "baseline" | "cycle" | "cycles"))
        && !w.iter().any(|x| {
            matches!(
                x.as_str(),
                "arm" | "group" | "cohort" | "mg" | "kg" | "dose" | "placebo" | "control"
            )
        })
}

/// A bare count above zero claimed as none ("No infant in the fluconazole arm had
/// serious staphylococcal sepsis" quoting the arm's 4): the record counts what the claim
/// denies.
fn count_denied(c: &Claim, quote: &str) -> Option<Entailment> {
    let n: f64 = quote.trim().parse().ok()?;
    let vt = Text::new(&c.value);
    if n <= 0.0 || vt.tokens.iter().any(|t| t.kind == Kind::Number) {
        return None;
    }
    let vw = words(&c.value);
    let denies = vw
        .first()
        .is_some_and(|w| matches!(w.as_str(), "no" | "none" | "zero"))
        || vw
            .iter()
            .any(|w| matches!(w.as_str(), "none" | "nobody" | "zero"));
    denies.then(|| {
        Entailment::Fails(
            Rule::Direction,
            format!(
                "the record counts {} here, and the claim says none",
                quote.trim()
            ),
        )
    })
}

/// A posted interval's or range's limit (`lowerLimit`, `@upper_limit`) claimed as the
/// value it bounds: the claim must say it is a limit ("lower confidence bound 7.1",
/// "longest time to response 11.8"), else it gives the bound as the median or mean.
fn limit_as_value(c: &Claim, place: &str) -> Option<Entailment> {
    // (the limits' own fields, `efficacy.ci_lower` and the like, are what they are)
    if !matches!(
        c.field.as_str(),
        "efficacy.value" | "efficacy.effect_estimate" | "efficacy.comparison"
    ) {
        return None;
    }
    let last = place.rsplit('/').next()?;
    // a measurement's interval, or a posted analysis's confidence interval
    let side = match last {
        "lowerLimit" | "@lower_limit" | "ciLowerLimit" | "ci_lower_limit[1]" => "lower",
        "upperLimit" | "@upper_limit" | "ciUpperLimit" | "ci_upper_limit[1]" => "upper",
        _ => return None,
    };
    let said = words(&format!(
        "{} {}",
        c.value,
        c.endpoint.as_deref().unwrap_or("")
    ));
    let limit_word = |w: &str| {
        matches!(
            w,
            "limit"
                | "limits"
                | "bound"
                | "bounds"
                | "ci"
                | "confidence"
                | "interval"
                | "range"
                | "lower"
                | "upper"
                | "lowest"
                | "highest"
                | "longest"
                | "shortest"
                | "minimum"
                | "maximum"
                | "min"
                | "max"
                | "between"
                | "ranged"
                | "ranging"
                | "ranges"
        )
    };
    let joined = said.join(" ");
    let phrase = [
        "up to",
        "as long as",
        "as high as",
        "as low as",
        "as short as",
        "as many as",
    ]
    .iter()
    .any(|p| joined.contains(p));
    if phrase || said.iter().any(|w| limit_word(w)) {
        return None;
    }
    Some(Entailment::Fails(
        Rule::Field,
        format!(
            "the number at {place} is the {side} limit of an interval, not the value it bounds"
        ),
    ))
}

/// The claim's unit: its `unit`, else the unit written after the value's number.
fn claim_unit<'u>(c: &Claim, units: &'u Units) -> Option<&'u str> {
    if let Some(u) = c.unit.as_deref().filter(|u| !u.trim().is_empty()) {
        return units.canonical(u);
    }
    let t = Text::new(&c.value);
    let i = t.tokens.iter().position(|x| x.kind == Kind::Number)?;
    units.at(&t, i + 1)
}

#[cfg(test)]
mod tests;
