//! Efficacy numbers stated in text: PubMed abstracts, a label's Clinical Studies section
//! and press pages. A sentence that names an endpoint concept (`jobs/endpoints.csv`) is
//! read with the entailment gate's own binder: each number with a unit is bound to the
//! group its clause names, its time point, and the concept nearest to it; a hazard or
//! odds ratio to the groups it compares and its confidence limits. The trial is the NCT
//! id the record names, the acronym of one of the asset's posted trials, or the asset's
//! only trial.
//!
//! Where the trial has posted results with exactly one outcome of the same concept, time
//! point and unit kind, and one group of it names the bound group, the number takes that
//! posted cell's key (endpoint, population, arm and unit as CT.gov words them): the
//! paper's and the registry's values then meet in one cell and the precedence rules
//! decide between them. A ratio likewise takes the cell of the one posted analysis of
//! that outcome and kind between the same two groups, stated asset first. A number stated
//! for a biomarker population ("Among patients with PD-L1 ≥50%, …") is keyed by it and
//! never takes a posted cell of the whole population. Otherwise the cell key is written
//! from the concept:
//! `NCT01245062 PFS` or `NCT01245062 OS at week 26` (time points in weeks), the arm the group's word (the
//! asset's first name for its own group), the unit the canonical one. A number that
//! cannot be bound to a group (none named, or several and none in its clause) or to a
//! trial is claimed with that part blank, and the run-level `binding` check drops it
//! with the reason; a subgroup's number is not claimed.

use std::collections::BTreeSet;

use super::ctgov::Outcome;
use super::{Emit, Input, Key};
use crate::lake::bundle::Row;
use crate::run::gates::entailment::binder::{Kind, Text, TimePoint, endpoint_time_points};
use crate::run::gates::entailment::tables::tables;
use crate::run::gates::entailment::{concepts_of, group_of, groups_named, names_subgroup};

const ARMS_CSV: &str = include_str!("../../../jobs/arms.csv");

/// The comparator group names shipped in `jobs/arms.csv`.
fn arms() -> &'static crate::run::gates::entailment::tables::Lexicon {
    static L: std::sync::LazyLock<crate::run::gates::entailment::tables::Lexicon> =
        std::sync::LazyLock::new(|| {
            crate::run::gates::entailment::tables::Lexicon::parse(ARMS_CSV, "arm,alias", "arms.csv")
                .expect("jobs/arms.csv parses")
        });
    &L
}

/// A group word as its arm: `MTX` is methotrexate; a word the table does not name stays.
fn arm_name(word: &str) -> String {
    arms()
        .canonical(word)
        .map_or_else(|| word.to_lowercase(), str::to_string)
}

/// Whether a posted group's title names the arm of group word `word`: the word itself, or
/// the same arm in another spelling.
fn title_names(title: &str, words: &[String], word: &str) -> bool {
    words.iter().any(|w| w == word) || arms().canonical(title).is_some_and(|a| a == arm_name(word))
}

/// Sentences longer than this many bytes are not read: prose states a result in far
/// fewer, and a longer run with no full stop is a flattened table, whose columns the
/// binder cannot see (and whose numbers would each be bound in time linear in its length).
const MAX_SENTENCE: usize = 1_500;

/// The record parts whose sentences are read, per family.
fn readable(family: &str, locator: &str) -> bool {
    match family {
        "pubmed" => locator.contains("/Abstract"),
        "fda_label" => {
            locator.starts_with("/clinical_studies")
                && !locator.starts_with("/clinical_studies_table")
        }
        "press" => locator.starts_with("html:"),
        _ => false,
    }
}

/// What a number of a sentence is.
#[derive(Clone, Debug, PartialEq)]
enum Role {
    /// An arm's value, with its canonical unit.
    Value(String),
    /// A ratio between groups (`hazard ratio`).
    Estimate(String),
    /// A confidence limit of the estimate at token `of`, with its level in words.
    Lower(usize, String),
    Upper(usize, String),
}

pub fn text_efficacy(input: &Input<'_>, e: &mut Emit<'_>) {
    let claimed = claimed_words(input);
    // On a night CT.gov could not be fetched, the posted cells a text number belongs in
    // are unknown: the efficacy fields stay `fetch_failed` rather than filling other cells.
    let ctgov_failed = input.families.get(&crate::domain::Family::Ctgov)
        == Some(&crate::domain::FamilyStatus::FetchFailed);
    if claimed.is_empty() || ctgov_failed {
        return;
    }
    for row in input.rows.iter().filter(|r| r.role == "subject") {
        if !matches!(row.family.as_str(), "pubmed" | "fda_label" | "press") {
            continue;
        }
        let trials = trials_named(row);
        for (loc, _, text) in &row.fields {
            if !readable(&row.family, loc) {
                continue;
            }
            for s in sentences(text)
                .into_iter()
                .filter(|s| s.len() <= MAX_SENTENCE)
            {
                read_sentence(input, e, row, loc, s, &trials, &claimed);
            }
        }
    }
}

/// The asset's name words, as the gate reads a claimed arm.
fn claimed_words(input: &Input<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in &input.asset.names {
        for w in n.split(|c: char| !c.is_alphanumeric()) {
            let w = w.to_lowercase();
            if w.len() >= 4 && !w.chars().all(|c| c.is_ascii_digit()) && !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// The NCT ids a record names anywhere, each once.
fn trials_named(row: &Row) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (_, _, text) in &row.fields {
        out.extend(nct_ids(text));
    }
    out
}

fn nct_ids(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(k) = text[i..].find("NCT") {
        let at = i + k;
        let digits = &b[at + 3..(at + 11).min(b.len())];
        if digits.len() == 8
            && digits.iter().all(u8::is_ascii_digit)
            && !b.get(at + 11).is_some_and(u8::is_ascii_digit)
            && (at == 0 || !b[at - 1].is_ascii_alphanumeric())
        {
            out.push(text[at..at + 11].to_string());
        }
        i = at + 3;
    }
    out
}

/// The sentences of a text, as exact slices: a break at `. `, `? ` or `! ` before an
/// upper-case letter, never after an abbreviation such as `vs.`.
pub(super) fn sentences(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        let end = matches!(b[i], b'.' | b'?' | b'!')
            && b.get(i + 1) == Some(&b' ')
            && b.get(i + 2).is_some_and(|c| c.is_ascii_uppercase());
        if end {
            let word = text[..i]
                .split(|c: char| !c.is_alphanumeric())
                .next_back()
                .unwrap_or("");
            if !matches!(
                word,
                "vs" | "al" | "approx" | "Fig" | "No" | "Dr" | "e.g" | "i.e"
            ) {
                out.push(text[start..=i].trim());
                start = i + 2;
            }
        }
        i += 1;
    }
    if start < text.len() {
        out.push(text[start..].trim());
    }
    out.retain(|s| !s.is_empty());
    out
}

/// The trial a sentence speaks of: an NCT id in the sentence, else the record's only one,
/// else the acronym of one of the asset's posted trials in the sentence or record, else
/// the asset's only trial (from the portfolio, or its only CT.gov record).
fn trial_of(
    input: &Input<'_>,
    sentence: &str,
    record: &BTreeSet<String>,
    row: &Row,
) -> Option<String> {
    let own = nct_ids(sentence);
    if let [one] = &own[..] {
        return Some(one.clone());
    }
    if !own.is_empty() {
        return None;
    }
    // "In Study RA-III, …", "Trial 2 showed …": a study the sentence names by its own
    // designation is no trial the record or asset names otherwise
    if names_a_study(sentence) {
        return None;
    }
    if record.len() == 1 {
        return record.iter().next().cloned();
    }
    if record.len() > 1 {
        return None;
    }
    let acronyms: Vec<(String, String)> = input
        .studies()
        .filter_map(|(r, s)| acronym(r).map(|a| (a, s.nct.clone())))
        .collect();
    let hits: BTreeSet<&String> = acronyms
        .iter()
        .filter(|(a, _)| {
            super::mentions(sentence, a) || row.fields.iter().any(|(_, _, t)| super::mentions(t, a))
        })
        .map(|(_, n)| n)
        .collect();
    if hits.len() == 1 {
        return hits.into_iter().next().cloned();
    }
    // The asset's only trial, for a paper or a press page that names none: never for a
    // label (its clinical studies are its own pivotal studies, named its own way), and
    // not when the record states a phase the trial's record does not have.
    if row.family == "fda_label" {
        return None;
    }
    let mut known: BTreeSet<String> = input.asset.trials.iter().cloned().collect();
    known.extend(input.studies().map(|(_, s)| s.nct.clone()));
    let only = (known.len() == 1)
        .then(|| known.into_iter().next())
        .flatten()?;
    let stated = phases_named(row.fields.iter().map(|(_, _, t)| t.as_str()));
    let posted: BTreeSet<u8> = input
        .studies()
        .filter(|(_, s)| s.nct == only)
        .flat_map(|(_, s)| s.phases.iter().filter_map(|p| phase_number(&p.text)))
        .collect();
    if !stated.is_empty() && !posted.is_empty() && stated.is_disjoint(&posted) {
        return None;
    }
    Some(only)
}

/// Whether a sentence names a study by a designation of its own: "Study RA-III",
/// "Studies 1 and 2", "Trial 301".
fn names_a_study(sentence: &str) -> bool {
    let words: Vec<&str> = sentence
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '(' | ')'))
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|w| {
        matches!(w[0], "Study" | "Studies" | "Trial" | "Trials")
            && w[1]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            && w[1]
                .chars()
                .any(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
    })
}

/// The trial phases a record's texts state ("phase 3", "phase III", "Phase 2b").
fn phases_named<'t>(texts: impl Iterator<Item = &'t str>) -> BTreeSet<u8> {
    let mut out = BTreeSet::new();
    for t in texts {
        let lower = t.to_ascii_lowercase();
        for (at, _) in lower.match_indices("phase") {
            let rest = lower[at + 5..].trim_start_matches([' ', '-']);
            let token: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if let Some(n) = phase_number(&token) {
                out.insert(n);
            }
        }
    }
    out
}

/// A phase as a number: `3`, `III`, `PHASE3`, `2b` and `IIb` are 3, 3, 3, 2 and 2.
fn phase_number(s: &str) -> Option<u8> {
    let t = s.to_ascii_lowercase();
    let t = t.trim_start_matches("phase").trim_start_matches(['_', ' ']);
    let t = t.trim_end_matches(['a', 'b']);
    match t {
        "1" | "i" => Some(1),
        "2" | "ii" => Some(2),
        "3" | "iii" => Some(3),
        "4" | "iv" => Some(4),
        _ => None,
    }
}

/// A study's acronym: its own field, else a closing parenthesis of its brief title that
/// reads like one (`(ZENITH-1)`).
fn acronym(row: &Row) -> Option<String> {
    let field = |suffix: &str| {
        row.fields
            .iter()
            .find(|(l, _, _)| l.ends_with(suffix))
            .map(|(_, _, t)| t.trim().to_string())
    };
    if let Some(a) = field("/identificationModule/acronym").or_else(|| field("/acronym[1]")) {
        return (!a.is_empty()).then_some(a);
    }
    let title = field("/identificationModule/briefTitle").or_else(|| field("/brief_title[1]"))?;
    let inner = title.trim_end().strip_suffix(')')?;
    let a = &inner[inner.rfind('(')? + 1..];
    (a.len() >= 3
        && a.chars().any(|c| c.is_ascii_uppercase())
        && a.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-'))
    .then(|| a.to_string())
}

/// Whether the symbol or word at `i` is `s`.
fn is(t: &Text<'_>, i: usize, s: &str) -> bool {
    t.tokens
        .get(i)
        .is_some_and(|x| x.lower == s || x.text.eq_ignore_ascii_case(s))
}

/// What the number at `i` is, if anything this step claims.
fn role(t: &Text<'_>, i: usize, estimates: &[(usize, String)]) -> Option<Role> {
    if t.is_time_number(i) {
        return None;
    }
    // a confidence level ("95% CI"), a p-value, a count ("n = 214"), a dose
    if is(t, i + 1, "%") && (is(t, i + 2, "ci") || is(t, i + 2, "confidence")) {
        return None;
    }
    let before = |k: usize| i.checked_sub(k).map(|j| t.tokens[j].lower.as_str());

    if matches!(before(1), Some("p" | "n"))
        || (matches!(before(1), Some("<" | "=" | "≤" | ">" | "≥"))
            && matches!(before(2), Some("p" | "n")))
    {
        return None;
    }
    for (k, kind) in estimates.iter().rev() {
        if *k == i {
            return Some(Role::Estimate(kind.clone()));
        }
        if *k < i
            && let Some((lower, upper, level)) = limits(t, *k)
        {
            if lower == i {
                return Some(Role::Lower(*k, level));
            }
            if upper == i {
                return Some(Role::Upper(*k, level));
            }
        }
    }
    // a threshold ("PD-L1 ≥50%", "HbA1c < 7%") selects patients; it is no arm's result
    if matches!(before(1), Some("≥" | "≤" | ">" | "<")) {
        return None;
    }
    let unit = t.unit_after(i, &tables().units)?;
    if matches!(unit, "mg" | "mcg" | "g" | "mg/kg" | "ml") {
        return None;
    }
    Some(Role::Value(unit.to_string()))
}

/// The ratios a sentence states: the first number after `hazard ratio`, `odds ratio`,
/// `HR`…, with no other number between.
fn estimates(t: &Text<'_>) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for i in 0..t.tokens.len() {
        let kind = match t.tokens[i].lower.as_str() {
            "ratio" => match i.checked_sub(1).and_then(|k| t.word(k)) {
                Some(w @ ("hazard" | "odds" | "rate" | "risk")) => format!("{w} ratio"),
                _ => continue,
            },
            "hr" => "hazard ratio".to_string(),
            "or" if t.tokens[i].text == "OR" => "odds ratio".to_string(),
            _ => continue,
        };
        if let Some(k) = (i + 1..t.tokens.len()).find(|&k| t.tokens[k].kind == Kind::Number)
            && !t.is_time_number(k)
            && k - i <= 16
        {
            out.push((k, kind));
        }
    }
    out
}

/// The confidence limits after the estimate at `k`: the two numbers after `CI` or
/// `confidence interval`, joined by `to`, `-` or `,`, and the level before it.
fn limits(t: &Text<'_>, k: usize) -> Option<(usize, usize, String)> {
    let end = (k + 14).min(t.tokens.len());
    let ci = (k + 1..end).find(|&j| is(t, j, "ci") || is(t, j, "interval"))?;
    let level = (k + 1..ci)
        .rev()
        .find(|&j| t.tokens[j].kind == Kind::Number && is(t, j + 1, "%"))
        .map(|j| format!("{}% CI", t.tokens[j].lower))
        .unwrap_or_else(|| "CI (level not stated)".to_string());
    let nums: Vec<usize> = (ci + 1..(ci + 10).min(t.tokens.len()))
        .filter(|&j| t.tokens[j].kind == Kind::Number)
        .take(2)
        .collect();
    let [lo, hi] = nums[..] else { return None };
    let joined =
        (lo + 1..hi).all(|j| matches!(t.tokens[j].lower.as_str(), "to" | "-" | "–" | "," | "—"));
    joined.then_some((lo, hi, level))
}

/// The endpoint concept of the number at `i`, as the gate binds it: of those bound, the
/// nearest named before it, else the first after it.
fn concept_of(t: &Text<'_>, i: usize) -> Option<&'static str> {
    let bound = concepts_of(t, i, &tables().endpoints);
    bound
        .iter()
        .rev()
        .find(|(k, _)| *k < i)
        .or_else(|| bound.first())
        .map(|(_, c)| *c)
}

/// The time point of the number at `i`: one in its own clause, else the sentence's only
/// one (an estimate takes only its own clause's: "hazard ratio for death" after "at 6
/// months, the rate…" is not a 6-month figure).
fn time_of(t: &Text<'_>, i: usize, own_only: bool) -> Option<TimePoint> {
    let own = t.time_points(t.clause(i));
    if let Some((_, tp)) = own.first() {
        return Some(*tp);
    }
    if own_only {
        return None;
    }
    let all = t.time_points(0..t.tokens.len());
    let first = all.first()?.1;
    all.iter().all(|(_, x)| x.same(first)).then_some(first)
}

/// A time point in one unit, weeks, so "6 months" and "26 weeks" are one cell key
/// (`week 26`): a whole number of weeks when within a seventh of a day of one or when
/// stated in months or years (month 6 is 26.09 weeks), else to one decimal (day 10 is
/// `week 1.4`).
fn time_words(tp: TimePoint) -> String {
    let w = tp.days / 7.0;
    let months = tp.days / 30.44;
    let whole_months = (months - months.round()).abs() < 0.02 || {
        let years = tp.days / 365.25;
        (years - years.round()).abs() < 0.02 && years >= 1.0
    };
    if (w - w.round()).abs() < 0.02 || (whole_months && tp.days >= 28.0) {
        format!("week {}", w.round())
    } else {
        let t = format!("{:.1}", w);
        format!("week {}", t.trim_end_matches(".0"))
    }
}

#[allow(clippy::too_many_arguments)]
fn read_sentence(
    input: &Input<'_>,
    e: &mut Emit<'_>,
    row: &Row,
    loc: &str,
    s: &str,
    record_trials: &BTreeSet<String>,
    claimed: &[String],
) {
    let t = Text::new(s);
    let concepts = tables().endpoints.all(&t, 0..t.tokens.len());
    if concepts.is_empty() {
        return;
    }
    let est = estimates(&t);
    let groups = groups_named(&t, claimed);
    let mut trial: Option<Option<String>> = None;
    let own_name = input
        .asset
        .names
        .first()
        .map(|n| n.to_lowercase())
        .unwrap_or_default();
    for i in 0..t.tokens.len() {
        if t.tokens[i].kind != Kind::Number {
            continue;
        }
        let Some(role) = role(&t, i, &est) else {
            continue;
        };
        let limit_field = match role {
            Role::Lower(..) => "efficacy.estimate_ci_lower",
            _ => "efficacy.estimate_ci_upper",
        };
        let value = t.tokens[i].text;
        let Some(concept) = concept_of(&t, i) else {
            continue;
        };
        // a subgroup's value is not claimed for the trial's population
        if names_subgroup(&t, t.clause(i)) {
            continue;
        }
        let trial = trial
            .get_or_insert_with(|| trial_of(input, s, record_trials, row))
            .clone()
            .unwrap_or_default();
        match role {
            Role::Value(unit) => {
                // an unbound number is claimed with no arm, and the run-level binding
                // check drops it with the reason
                let (word, mine) = group_of(&t, i, claimed).ok().flatten().unwrap_or_default();
                let tp = time_of(&t, i, false);
                let arm = if mine {
                    own_name.clone()
                } else {
                    arm_name(&word)
                };
                // a biomarker population meets only the same population; a posted cell
                // of the whole population is not it
                let population = biomarker_population(&t, s, i);
                let posted = (!word.is_empty() && !trial.is_empty() && population.is_empty())
                    .then(|| posted_cell(input, &trial, concept, tp, &unit, mine, &word, claimed))
                    .flatten();
                let (key, unit) = posted.unwrap_or_else(|| {
                    let mut k = concept_key(&trial, concept, tp, arm);
                    k.population = population;
                    (k, unit)
                });
                e.fact("efficacy.value", &key, value, &unit, row, s, loc);
            }
            Role::Estimate(kind) => {
                let tp = time_of(&t, i, true);
                let (key, unit) =
                    match posted_analysis(input, &trial, concept, tp, &kind, &groups, claimed) {
                        Some(p) => (p.key, p.estimate_unit),
                        None => {
                            let arm = compared(&groups, &own_name).unwrap_or_default();
                            (concept_key(&trial, concept, tp, arm), kind)
                        }
                    };
                e.fact("efficacy.effect_estimate", &key, value, &unit, row, s, loc);
            }
            Role::Lower(k, level) | Role::Upper(k, level) => {
                let kconcept = concept_of(&t, k).unwrap_or(concept);
                let tp = time_of(&t, k, true);
                let kind = est
                    .iter()
                    .find(|(x, _)| *x == k)
                    .map(|(_, kind)| kind.as_str())
                    .unwrap_or("");
                let (key, unit) =
                    match posted_analysis(input, &trial, kconcept, tp, kind, &groups, claimed) {
                        Some(p) => (p.key, p.ci_unit),
                        None => {
                            let arm = compared(&groups, &own_name).unwrap_or_default();
                            (concept_key(&trial, kconcept, tp, arm), level)
                        }
                    };
                e.fact(limit_field, &key, value, &unit, row, s, loc);
            }
        }
    }
}

/// The biomarker population a number of sentence `s` is stated for: one its clause names,
/// else one the sentence's leading "In …," or "Among …," phrase names ("Among patients
/// with PD-L1 ≥50%, …"); empty for the trial's whole population.
fn biomarker_population(t: &Text<'_>, s: &str, i: usize) -> String {
    let lex = super::biomarkers::lexicon();
    let leading = match t.word(0) {
        Some("in" | "among") => {
            let comma = (0..t.tokens.len()).find(|&k| t.tokens[k].text == ",");
            comma.filter(|&k| k < i).map_or(0..0, |k| 0..k)
        }
        _ => 0..0,
    };
    [t.clause(i), leading]
        .into_iter()
        .find_map(|r| {
            super::biomarkers::mentions(t.span_in(s, r), lex)
                .into_iter()
                .next()
        })
        .map(|(b, _)| b)
        .unwrap_or_default()
}

/// The arm key of a ratio: the asset's group against the other group the sentence names.
fn compared(groups: &[(String, bool)], own: &str) -> Option<String> {
    let other = groups.iter().find(|(_, mine)| !mine)?;
    groups
        .iter()
        .any(|(_, mine)| *mine)
        .then(|| format!("{own} vs {}", arm_name(&other.0)))
}

/// A cell key written from the concept: `NCT01245062 PFS`, `NCT01245062 OS at week 26`.
fn concept_key(trial: &str, concept: &str, tp: Option<TimePoint>, arm: String) -> Key {
    let mut endpoint = format!("{trial} {concept}");
    if let Some(tp) = tp {
        endpoint.push_str(" at ");
        endpoint.push_str(&time_words(tp));
    }
    Key {
        endpoint,
        population: String::new(),
        arm,
    }
}

/// A posted analysis a ratio read from text belongs to, with the units CT.gov gives it.
struct PostedAnalysis {
    key: Key,
    estimate_unit: String,
    ci_unit: String,
}

/// The posted analysis of a ratio read from text: in the trial's latest data version, the
/// one analysis of an outcome of the same concept and time point, of the same kind of
/// ratio, between the asset's group and the other group the sentence names, stated in
/// that direction (the asset's group first, as the text's "in the trametinib group" is).
fn posted_analysis(
    input: &Input<'_>,
    trial: &str,
    concept: &str,
    tp: Option<TimePoint>,
    kind: &str,
    groups: &[(String, bool)],
    claimed: &[String],
) -> Option<PostedAnalysis> {
    let other = groups
        .iter()
        .find(|(_, mine)| !mine)
        .map(|(w, _)| w.as_str())?;
    let kind_word = kind.split(' ').next().filter(|w| !w.is_empty())?;
    let mut found: Vec<PostedAnalysis> = Vec::new();
    for o in latest_outcomes(input, trial, concept) {
        let tps = endpoint_time_points(&o.endpoint);
        if tp.is_some_and(|tp| !tps.iter().any(|x| x.same(tp))) {
            continue;
        }
        for (j, a) in o.analyses.iter().enumerate() {
            if a.estimate.is_none() || !a.estimate_type.to_lowercase().contains(kind_word) {
                continue;
            }
            let (key, direction, _) = super::ctgov::analysis_key(o, j, a);
            let titles: Vec<Vec<String>> = a
                .groups
                .iter()
                .map(|g| words_of(o.groups.get(g).map_or(g.as_str(), String::as_str)))
                .collect();
            // the stated direction's first side is the asset's group
            let Some(first) = key.arm.split(" vs ").next() else {
                continue;
            };
            let first = words_of(first);
            let asset_first = direction.is_some() && claimed.iter().any(|c| first.contains(c));
            let has_other = a.groups.iter().zip(&titles).any(|(g, t)| {
                let title = o.groups.get(g).map_or(g.as_str(), String::as_str);
                title_names(title, t, other) && !claimed.iter().any(|c| t.contains(c))
            });
            if titles.len() == 2 && asset_first && has_other {
                found.push(PostedAnalysis {
                    key,
                    estimate_unit: a.estimate_type.clone(),
                    ci_unit: super::ctgov::ci_words(&a.ci_pct, &a.ci_sides),
                });
            }
        }
    }
    (found.len() == 1).then(|| found.pop()).flatten()
}

/// The posted cell a text number belongs to: the one outcome of the trial's latest data
/// version with the same concept, time point and unit, and its one group that names the
/// bound group, at the outcome's whole population. Its key and unit as CT.gov states them.
#[allow(clippy::too_many_arguments)]
fn posted_cell(
    input: &Input<'_>,
    trial: &str,
    concept: &str,
    tp: Option<TimePoint>,
    unit: &str,
    mine: bool,
    word: &str,
    claimed: &[String],
) -> Option<(Key, String)> {
    let mut found: Vec<(Key, String)> = Vec::new();
    for o in latest_outcomes(input, trial, concept) {
        if tables().units.canonical(&o.unit) != Some(unit) {
            continue;
        }
        let tps = endpoint_time_points(&o.endpoint);
        let time_ok = match tp {
            Some(tp) => tps.iter().any(|x| x.same(tp)),
            None => unit != "%" || tps.is_empty(),
        };
        if !time_ok {
            continue;
        }
        let groups: Vec<&String> = o
            .groups
            .iter()
            .filter(|(gid, title)| {
                let ws = words_of(title);
                let names = if mine {
                    claimed.iter().any(|c| ws.contains(c))
                } else {
                    title_names(title, &ws, word) && !claimed.iter().any(|c| ws.contains(c))
                };
                names
                    && o.measurements
                        .iter()
                        .any(|m| &m.group == *gid && m.population.is_empty() && m.value.is_some())
            })
            .map(|(_, title)| title)
            .collect();
        if let [g] = groups[..] {
            let key = Key {
                endpoint: o.endpoint.clone(),
                population: String::new(),
                arm: g.clone(),
            };
            if !found.iter().any(|(k, _)| *k == key) {
                found.push((key, o.unit.clone()));
            }
        }
    }
    (found.len() == 1).then(|| found.pop()).flatten()
}

/// The outcomes of the trial's latest posted data version that name endpoint `concept`:
/// that version names the cells (an older version's outcome may be worded otherwise; the
/// precedence rules then weigh the versions' values).
fn latest_outcomes<'i>(input: &'i Input<'_>, trial: &str, concept: &str) -> Vec<&'i Outcome> {
    let Some(latest) = input
        .studies()
        .filter(|(_, s)| s.nct == trial)
        .map(|(r, _)| r.cutoff_date.clone())
        .max()
    else {
        return Vec::new();
    };
    input
        .studies()
        .filter(|(r, s)| s.nct == trial && r.cutoff_date == latest)
        .flat_map(|(_, s)| &s.outcomes)
        .filter(|o| {
            let title = Text::new(&o.endpoint);
            tables()
                .endpoints
                .all(&title, 0..title.tokens.len())
                .iter()
                .any(|(_, c)| *c == concept)
        })
        .collect()
}

/// A title's words, lower-cased.
fn words_of(title: &str) -> Vec<String> {
    title
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_are_cut_at_full_stops_not_decimals_or_abbreviations() {
        let t = "Median PFS was 4.8 months vs. 1.5 months. At 6 months, OS was 81%. Age ≥. End";
        assert_eq!(
            sentences(t),
            [
                "Median PFS was 4.8 months vs. 1.5 months.",
                "At 6 months, OS was 81%.",
                "Age ≥.",
                "End"
            ]
        );
    }

    #[test]
    fn a_huge_run_without_full_stops_is_not_read() {
        // 200,000 numbers with units and no sentence break: a flattened table, skipped
        let table = "ORR 12% with zelnorib; ".repeat(200_000);
        let read: Vec<&str> = sentences(&table)
            .into_iter()
            .filter(|s| s.len() <= MAX_SENTENCE)
            .collect();
        assert!(read.is_empty());
    }

    #[test]
    fn group_words_are_arms_in_any_spelling() {
        assert_eq!(arm_name("PBO"), "placebo");
        assert_eq!(arm_name("mtx"), "methotrexate");
        assert_eq!(arm_name("imatinib"), "imatinib");
        let t = "Methotrexate Alone";
        assert!(title_names(t, &words_of(t), "mtx"));
        assert!(!title_names(t, &words_of(t), "placebo"));
        let t = "Placebo + MTX";
        assert!(title_names(t, &words_of(t), "pbo"));
    }

    #[test]
    fn a_study_named_its_own_way_or_another_phase_is_no_fallback() {
        assert!(names_a_study("In Study RA-III, 85% of patients responded."));
        assert!(names_a_study("Studies 1 and 2 enrolled adults."));
        assert!(names_a_study(
            "In HS Study I, 42% of patients on HUMIRA responded."
        ));
        assert!(!names_a_study("In this study, the response rate was 45%."));
        assert!(!names_a_study("In a Phase I trial, 20% responded."));
        let phases = phases_named(["In this phase 2b trial", "A Phase III study"].into_iter());
        assert_eq!(phases, [2, 3].into());
        assert_eq!(phase_number("PHASE3"), Some(3));
        assert_eq!(phase_number("IIb"), Some(2));
        assert_eq!(phase_number("x"), None);
    }

    #[test]
    fn nct_ids_are_whole() {
        assert_eq!(
            nct_ids("(NCT01245062.); xNCT012450621 NCT0124"),
            ["NCT01245062"]
        );
    }

    #[test]
    fn ratios_and_their_limits_are_found() {
        let s = "Median progression-free survival was 4.8 months in the trametinib group and 1.5 months in the chemotherapy group (hazard ratio for disease progression or death in the trametinib group, 0.45; 95% confidence interval [CI], 0.33 to 0.63; P<0.001).";
        let t = Text::new(s);
        let est = estimates(&t);
        assert_eq!(est.len(), 1);
        assert_eq!(t.tokens[est[0].0].text, "0.45");
        let (lo, hi, level) = limits(&t, est[0].0).unwrap();
        assert_eq!((t.tokens[lo].text, t.tokens[hi].text), ("0.33", "0.63"));
        assert_eq!(level, "95% CI");
        let roles: Vec<(&str, Role)> = (0..t.tokens.len())
            .filter(|&i| t.tokens[i].kind == Kind::Number)
            .filter_map(|i| role(&t, i, &est).map(|r| (t.tokens[i].text, r)))
            .collect();
        let names: Vec<&str> = roles.iter().map(|r| r.0).collect();
        assert_eq!(
            names,
            ["4.8", "1.5", "0.45", "0.33", "0.63"],
            "95 and 0.001 are not values"
        );
        assert_eq!(roles[0].1, Role::Value("months".into()));
        // "HR = 0.45" is the ratio; "≥50%" a threshold, no value
        let t = Text::new(
            "ORR was 45% with drugmab in PD-L1 ≥50% tumours (HR = 0.61; 95% CI, 0.4 to 0.9)",
        );
        let est = estimates(&t);
        let kinds: Vec<(&str, Role)> = (0..t.tokens.len())
            .filter(|&i| t.tokens[i].kind == Kind::Number)
            .filter_map(|i| role(&t, i, &est).map(|r| (t.tokens[i].text, r)))
            .collect();
        let names: Vec<&str> = kinds.iter().map(|r| r.0).collect();
        assert_eq!(names, ["45", "0.61", "0.4", "0.9"]);
        assert_eq!(kinds[1].1, Role::Estimate("hazard ratio".into()));
    }

    #[test]
    fn a_biomarker_in_the_clause_or_the_leading_phrase_is_the_population() {
        let s = "Among patients with PD-L1 expression ≥50%, the objective response rate was 45% with drugmab and 28% with chemotherapy.";
        let t = Text::new(s);
        let at = t.numbers_equal("45")[0];
        assert_eq!(biomarker_population(&t, s, at), "PD-L1 ≥50%");
        let s =
            "In ZENITH-1, the major molecular response rate at 48 weeks was 67.5% with zelnorib.";
        let t = Text::new(s);
        assert_eq!(biomarker_population(&t, s, t.numbers_equal("67.5")[0]), "");
    }

    #[test]
    fn time_points_are_words_in_one_unit() {
        assert_eq!(time_words(TimePoint { days: 48.0 * 7.0 }), "week 48");
        assert_eq!(time_words(TimePoint { days: 6.0 * 30.44 }), "week 26");
        assert_eq!(time_words(TimePoint { days: 12.0 * 30.44 }), "week 52");
        assert_eq!(time_words(TimePoint { days: 365.25 }), "week 52");
        assert_eq!(time_words(TimePoint { days: 2.0 * 365.25 }), "week 104");
        assert_eq!(time_words(TimePoint { days: 10.0 }), "week 1.4");
    }
}
