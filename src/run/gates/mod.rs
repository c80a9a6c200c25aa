//! The gates every claim passes or is dropped by: citation allowlist, verbatim quote,
//! whole numbers, locator, and the label rules. Each failure has a machine name and a
//! human reason. Pure functions over an [`Evidence`] index; no I/O.
//!
//! Numbers: a number is a maximal run `\d+(,\d{3})*(\.\d+)?`; thousands separators
//! (a comma followed by exactly three digits) are removed before comparing, and nothing
//! else is normalized. Every number of the value must equal a number of the quote, so
//! `18.4` does not match `118.4` or `18.45`, `7.0` does not match `70`, and a sign or
//! unit is not part of the number. Digits right after a letter belong to an identifier
//! (`V600E`, `HLC101`) and are no number, in the value and in the quote alike.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::domain::{Claim, ClaimLine, Label};
use crate::run::evidence::Evidence;

pub mod entailment;
mod run_level;

pub use entailment::{Context, Entailment, Rule, Scope};
pub use run_level::{judge, text_arm_level};

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Gate {
    Malformed,
    Citation,
    Quote,
    Number,
    Locator,
    Label,
    /// Run-level: the field is not in the profile schema, or its label is not allowed there.
    Schema,
    /// Run-level: an arm-level value not bound to its outcome, population and group by a
    /// structured locator.
    Binding,
    /// The claim is not what its quote and record say (see [`entailment::Rule`]).
    Entailment,
}

impl Gate {
    /// The gate's name in tables and verdict lines (`citation`, `binding`, …).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Whether a claim passed every gate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Status {
    Accepted,
    Rejected,
}

/// What the entailment gate found: the claim holds, no rule could decide (accepted and
/// marked), or it fails (and the claim is rejected).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum EntailmentState {
    Holds,
    Undecided,
    Fails,
}

impl EntailmentState {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// One verdict line of `dossier verify`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    pub id: Option<String>,
    pub verdict: Status,
    pub gates_failed: Vec<Gate>,
    pub reason: String,
    pub source_id: Option<String>,
    pub url: Option<String>,
    /// The entailment gate's finding; absent when it did not run (the claim failed an
    /// earlier gate, or is not a fact).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entailment: Option<EntailmentState>,
    /// The entailment rule that failed, or `judge` when the judge decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
    /// Why the entailment gate could not decide (with `entailment: undecided`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undecided: Option<String>,
    /// The judge's model, when the judge decided the entailment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged_by: Option<String>,
    /// The record and field where the quote was found.
    #[serde(skip)]
    pub found: Option<(usize, usize)>,
}

impl Verdict {
    pub fn accepted(&self) -> bool {
        self.verdict == Status::Accepted
    }

    /// Rejects the claim for `gate` (once per gate), adding `why` to the reason: after
    /// the reasons so far, or before them with `first` (a malformed claim says so first).
    pub fn reject(&mut self, gate: Gate, why: String, first: bool) {
        self.verdict = Status::Rejected;
        if !self.gates_failed.contains(&gate) {
            if first {
                self.gates_failed.insert(0, gate);
            } else {
                self.gates_failed.push(gate);
            }
        }
        self.reason = match (self.reason.is_empty(), first) {
            (true, _) => why,
            (false, true) => format!("{why}; {}", self.reason),
            (false, false) => format!("{}; {why}", self.reason),
        };
    }
}

struct Failures(BTreeMap<Gate, String>);

impl Failures {
    fn add(&mut self, g: Gate, reason: impl Into<String>) {
        self.0.entry(g).or_insert_with(|| reason.into());
    }
}

/// The intervals of dosing codes in a text ("Q2W" and "q12h" give 2 and 12): a value's
/// "every 2 weeks" is the quote's "Q2W".
pub fn interval_numbers(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|w| {
            let rest = w.strip_prefix(['q', 'Q'])?;
            let unit = rest.chars().last()?;
            let n = &rest[..rest.len() - 1];
            (matches!(unit.to_ascii_lowercase(), 'w' | 'd' | 'h')
                && !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_digit()))
            .then(|| n.trim_start_matches('0').to_string())
            .filter(|n| !n.is_empty())
        })
        .collect()
}

/// Numbers of a text, thousands separators removed.
pub fn numbers(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        // Digits glued to a preceding letter belong to an identifier (V600E, GS-5734 is
        // a number but HLC101 is not), not a quantity.
        if i > 0 && b[i - 1].is_ascii_alphabetic() {
            while i < b.len()
                && (b[i].is_ascii_digit()
                    || b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
            {
                i += 1;
            }
            continue;
        }
        let mut n = String::new();
        while i < b.len() && b[i].is_ascii_digit() {
            n.push(b[i] as char);
            i += 1;
        }
        // Thousands groups: ",ddd" not followed by another digit.
        while i + 3 < b.len()
            && b[i] == b','
            && b[i + 1..i + 4].iter().all(u8::is_ascii_digit)
            && b.get(i + 4).is_none_or(|c| !c.is_ascii_digit())
        {
            n.push_str(&s[i + 1..i + 4]);
            i += 4;
        }
        if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
            n.push('.');
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                n.push(b[i] as char);
                i += 1;
            }
        }
        out.push(n);
    }
    out
}

/// Runs the gates on one claim alone (inputs of derived claims are checked later).
/// Also gives the claim's locator in the record's own form when it was written short.
fn check_own(c: &Claim, ev: &Evidence) -> (Failures, Option<usize>, Option<usize>, Option<String>) {
    let mut f = Failures(BTreeMap::new());
    let quote = c.quote.as_deref().filter(|q| !q.trim().is_empty());
    let source = c.source.as_deref().filter(|s| !s.trim().is_empty());
    if c.label == Label::Fact {
        if source.is_none() {
            f.add(Gate::Label, "a fact needs a source");
        }
        if quote.is_none() {
            f.add(Gate::Label, "a fact needs a verbatim quote");
        }
    }
    if c.label.needs_inputs() {
        if c.inputs.is_empty() {
            f.add(
                Gate::Label,
                format!("a {:?} claim must name its input claims", c.label).to_lowercase(),
            );
        }
        if c.formula.as_deref().is_none_or(|x| x.trim().is_empty()) {
            f.add(
                Gate::Label,
                "a derived or inference claim must state its formula or reasoning",
            );
        }
    }
    let Some(source) = source else {
        if quote.is_some() {
            f.add(Gate::Citation, "a quote without a source cannot be checked");
        }
        return (f, None, None, None);
    };
    let candidates = ev.resolve(source);
    if candidates.is_empty() {
        f.add(
            Gate::Citation,
            format!("{source:?} is not a catalog URL and names no catalog record"),
        );
        return (f, None, None, None);
    }
    // A record outside the asset's bundle (a run's evidence knows it by its catalog entry
    // alone) is not one of the asset's records, whatever the quote.
    if let Some(&last) = candidates.last()
        && candidates.iter().all(|&i| ev.records[i].outside)
    {
        f.add(
            Gate::Entailment,
            format!(
                "{}: {} is not a record of {}",
                Rule::Scope.words(),
                ev.records[last].source_id,
                c.asset
            ),
        );
        return (f, Some(last), None, None);
    }
    let Some(q) = quote else {
        return (f, candidates.last().copied(), None, None);
    };
    if q.contains('\0') {
        f.add(Gate::Quote, "the quote holds a NUL character");
        return (f, Some(candidates[0]), None, None);
    }
    // Among versions of the cited record, the latest that holds the quote is the source.
    let mut found = None;
    for &i in candidates.iter().rev() {
        if let Some(field) = ev.records[i].find(q) {
            found = Some((i, field));
            break;
        }
    }
    let Some((rec, field)) = found else {
        f.add(
            Gate::Quote,
            format!("the quote does not occur verbatim in one text field of {source}"),
        );
        return (f, candidates.last().copied(), None, None);
    };
    let mut qn = numbers(q);
    qn.extend(interval_numbers(q));
    // Facts carry their numbers in the quote; computed labels carry them in their inputs.
    // a date given in another spelling than the quote's ("2022-05-13" for "20220513") is
    // the same date: both whole, in a field whose values are dates
    // (or one word of the value: "2018-02-07 (20180207)")
    let (same_date, date_numbers) = {
        use crate::domain::typed;
        let dated = typed::is_dated(&c.field, c.unit.as_deref().unwrap_or(""));
        let quoted = typed::date(q, dated);
        let words: Vec<String> = c
            .value
            .split(|ch: char| ch.is_whitespace() || "()[],;".contains(ch))
            .filter(|w| quoted.is_some() && typed::date(w, dated) == quoted)
            .flat_map(numbers)
            .collect();
        (
            quoted.is_some() && typed::date(&c.value, dated) == quoted,
            words,
        )
    };
    let missing: Vec<String> = if c.label == Label::Fact && !same_date {
        numbers(&c.value)
            .into_iter()
            .filter(|n| !qn.contains(n) && !date_numbers.contains(n))
            .collect()
    } else {
        Vec::new()
    };
    if !missing.is_empty() {
        f.add(
            Gate::Number,
            format!("{} not in the quote as whole numbers", missing.join(", ")),
        );
    }
    let mut full = None;
    if let Some(loc) = c.locator.as_deref().filter(|l| !l.is_empty())
        && let Err(why) = check_locator(ev, rec, loc, q)
    {
        // a path with positions left out is read as the one place it can mean; a
        // pointer into the response the record came in, as the place inside the record
        let unresolved = matches!(why, LocatorMiss::Unresolved { .. });
        // (a pointer written without its leading slash, `boxed_warning/0`, is read from
        // the record's root)
        let rooted = rooted(loc);
        let loc = rooted.as_deref().unwrap_or(loc);
        match unresolved
            .then(|| {
                spelled_out(ev, rec, loc)
                    .or_else(|| in_envelope(loc))
                    .or_else(|| rooted.clone())
            })
            .flatten()
        {
            Some(l) => match check_locator(ev, rec, &l, q) {
                Ok(()) => full = Some(l),
                Err(why) => f.add(Gate::Locator, why.to_string()),
            },
            None => f.add(Gate::Locator, why.to_string()),
        }
    }
    (f, Some(rec), Some(field), full)
}

/// An XML path written the short way, with a step's position left out where its parent
/// has one element of that name (`/clinical_study/clinical_results/outcome_list/outcome[2]`),
/// in the record's own form (`/clinical_study[1]/clinical_results[1]/…/outcome[2]`).
/// `None` when the path is not of that kind, resolves nowhere, or a step left without a
/// position stands for several elements.
fn spelled_out(ev: &Evidence, rec: usize, loc: &str) -> Option<String> {
    let steps: Vec<&str> = loc.strip_prefix('/')?.split('/').collect();
    let short = steps
        .iter()
        .any(|s| bare_step(s) || attribute_step(s).is_some());
    // a path from the root of the file the record was cut from (`/PubmedArticleSet/…`,
    // `/PubmedArticleSet[1]/…`), short or written out
    short
        .then(|| spelled_steps(ev, rec, &steps))
        .flatten()
        .or_else(|| {
            let (first, rest) = steps.split_first()?;
            let root = !first.contains('[') || first.ends_with("[1]");
            (root && !rest.is_empty())
                .then(|| spelled_steps(ev, rec, rest))
                .flatten()
        })
}

/// A JSON pointer into the API response a record was one element of
/// (`/results/0/boxed_warning/0`, `/studies/0/resultsSection/…`): the part inside the
/// record (`/boxed_warning/0`). The record itself is the one the claim cites; the
/// element's position in the response is not checked.
fn in_envelope(loc: &str) -> Option<String> {
    let mut steps = loc.strip_prefix('/')?.splitn(3, '/');
    let (key, index, rest) = (steps.next()?, steps.next()?, steps.next()?);
    let envelope = matches!(key, "results" | "studies")
        && !index.is_empty()
        && index.bytes().all(|b| b.is_ascii_digit());
    (envelope && !rest.is_empty()).then(|| format!("/{rest}"))
}

/// A path written without its leading slash (`boxed_warning/0`), from the root; `None`
/// for a rooted path, a byte range (`bytes:10-20`) or a page path (`html:/…`).
fn rooted(loc: &str) -> Option<String> {
    let plain = !loc.starts_with('/') && !loc.starts_with("bytes:") && !loc.starts_with("html:");
    plain.then(|| format!("/{loc}"))
}

/// A step of an XML path with no position: `outcome`, not `outcome[2]` or `@value`.
fn bare_step(s: &str) -> bool {
    !s.contains('[') && !s.starts_with('@') && !s.is_empty()
}

/// A step that picks its element by an attribute, as XPath writes it:
/// `measurement[@group_id='O1']` gives ("measurement", "group_id", "O1").
fn attribute_step(s: &str) -> Option<(&str, &str, &str)> {
    let (name, rest) = s.split_once("[@")?;
    let (attr, value) = rest.strip_suffix(']')?.split_once('=')?;
    let value = value
        .strip_prefix('\'')
        .and_then(|v| v.strip_suffix('\''))
        .or_else(|| value.strip_prefix('"').and_then(|v| v.strip_suffix('"')))?;
    (bare_step(name) && !attr.is_empty()).then_some((name, attr, value))
}

/// The one place of record `rec` that `steps` name, a bare step matching any position
/// of its name; `None` when they name none or several.
fn spelled_steps(ev: &Evidence, rec: usize, steps: &[&str]) -> Option<String> {
    let r = &ev.records[rec];
    // the elements whose attribute holds what a step asks for (`…/measurement[2]` for
    // `measurement[@group_id='O1']`), by their paths without the leading slash
    let picked: std::collections::HashSet<&str> = steps
        .iter()
        .filter_map(|s| attribute_step(s))
        .flat_map(|(_, attr, value)| {
            let tail = format!("/@{attr}");
            r.locators
                .iter()
                .enumerate()
                .filter(move |(i, l)| l.ends_with(&tail) && r.field_text(*i) == value)
                .filter_map(move |(_, l)| l.get(1..l.len() - attr.len() - 2))
        })
        .collect();
    let positioned = |name: &str, t: &str| {
        t.strip_prefix(name)
            .and_then(|x| x.strip_prefix('['))
            .and_then(|x| x.strip_suffix(']'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let mut found: Option<String> = None;
    for l in &r.locators {
        let Some(stored) = l.strip_prefix('/') else {
            continue;
        };
        let mut have = stored.split('/');
        let mut prefix = String::new();
        let mut all = true;
        for s in steps {
            let Some(t) = have.next() else {
                all = false;
                break;
            };
            let same = *s == t
                || (bare_step(s) && positioned(s, t))
                || attribute_step(s).is_some_and(|(name, _, _)| {
                    positioned(name, t)
                        && picked.contains(format!("{prefix}/{t}").get(1..).unwrap_or(""))
                });
            if !same {
                all = false;
                break;
            }
            prefix.push('/');
            prefix.push_str(t);
        }
        if !all {
            continue;
        }
        match &found {
            None => found = Some(prefix),
            Some(p) if *p == prefix => {}
            Some(_) => return None,
        }
    }
    found
}

/// Why a locator does not hold the quote: the locator gate's reason.
#[derive(Debug, thiserror::Error)]
enum LocatorMiss {
    #[error("{0:?} is not bytes:START-END")]
    NotByteRange(String),
    #[error("{0:?}: bad start")]
    BadStart(String),
    #[error("{0:?}: bad end")]
    BadEnd(String),
    #[error("{loc:?} is outside the record ({len} bytes)")]
    Outside { loc: String, len: usize },
    #[error("{0:?} does not cut the record at characters")]
    NotAtCharacters(String),
    #[error("the quote is not at {0}")]
    QuoteNotThere(String),
    #[error("{loc} does not resolve in {source_id}")]
    Unresolved { loc: String, source_id: String },
}

fn check_locator(ev: &Evidence, rec: usize, loc: &str, quote: &str) -> Result<(), LocatorMiss> {
    let r = &ev.records[rec];
    let at = || loc.to_string();
    if let Some(range) = loc.strip_prefix("bytes:") {
        let (a, b) = range
            .split_once('-')
            .ok_or_else(|| LocatorMiss::NotByteRange(at()))?;
        let (a, b): (usize, usize) = (
            a.parse().map_err(|_| LocatorMiss::BadStart(at()))?,
            b.parse().map_err(|_| LocatorMiss::BadEnd(at()))?,
        );
        let slice = r.raw.get(a..b).ok_or_else(|| LocatorMiss::Outside {
            loc: at(),
            len: r.raw.len(),
        })?;
        let text = std::str::from_utf8(slice).map_err(|_| LocatorMiss::NotAtCharacters(at()))?;
        return if text.contains(quote) {
            Ok(())
        } else {
            Err(LocatorMiss::QuoteNotThere(at()))
        };
    }
    let mut resolved = false;
    for (i, l) in r.locators.iter().enumerate() {
        let under = l == loc
            || l.strip_prefix(loc)
                .is_some_and(|rest| rest.starts_with('/') || rest.starts_with("!json"));
        if under {
            resolved = true;
            if r.field_text(i).contains(quote) {
                return Ok(());
            }
        }
    }
    Err(if resolved {
        LocatorMiss::QuoteNotThere(at())
    } else {
        LocatorMiss::Unresolved {
            loc: at(),
            source_id: r.source_id.to_string(),
        }
    })
}

/// A claim's own gates, then (with a context) the entailment gate on a fact that passed
/// them.
type Own = (Failures, Option<usize>, Option<usize>, Option<Found>);

/// What the entailment gate found for one claim: state, failed rule, why undecided, judge.
type Found = (
    EntailmentState,
    Option<Rule>,
    Option<String>,
    Option<String>,
);

fn check_with_entailment(c: &Claim, ev: &Evidence, cx: Option<&Context<'_>>) -> Own {
    let (mut f, rec, field, full) = check_own(c, ev);
    let spelled;
    let c = match full {
        Some(l) => {
            spelled = Claim {
                locator: Some(l),
                ..c.clone()
            };
            &spelled
        }
        None => c,
    };
    let mut ent = None;
    if rec.is_some_and(|r| ev.records[r].outside) {
        ent = Some((EntailmentState::Fails, Some(Rule::Scope), None, None));
    }
    if let (Some(cx), Some(r), Some(fi), true, true) =
        (cx, rec, field, f.0.is_empty(), c.label == Label::Fact)
    {
        let mut e = entailment::entail(c, ev, r, fi, cx);
        let mut judged_by = None;
        if let (Entailment::Undecided(why), Some(j)) = (&e, cx.judge) {
            let judged = j.decide(c, &ev.records[r], fi, why);
            if !matches!(judged, Entailment::Undecided(_)) {
                judged_by = Some(j.model().to_string());
            }
            e = judged;
        }
        ent = Some(match e {
            Entailment::Holds => (EntailmentState::Holds, None, None, judged_by),
            Entailment::Undecided(why) => (EntailmentState::Undecided, None, Some(why), None),
            Entailment::Fails(rule, why) => {
                f.add(Gate::Entailment, format!("{}: {why}", rule.words()));
                (EntailmentState::Fails, Some(rule), None, judged_by)
            }
        });
    }
    (f, rec, field, ent)
}

/// Verdicts for every line, in input order. Derived and inference claims pass only if
/// every input claim is in the same file and passes itself. With a context, facts also
/// pass the entailment gate.
pub fn verify(lines: &[ClaimLine], ev: &Evidence, cx: Option<&Context<'_>>) -> Vec<Verdict> {
    use rayon::prelude::*;
    let own: Vec<Option<Own>> = lines
        .par_iter()
        .map(|l| match l {
            ClaimLine::Claim(c) => Some(check_with_entailment(c, ev, cx)),
            ClaimLine::Malformed { .. } => None,
        })
        .collect();
    // A claim passes its own gates once per id (a repeated id passes nowhere).
    let mut own_ok: HashMap<&str, bool> = HashMap::new();
    for (l, o) in lines.iter().zip(&own) {
        if let (ClaimLine::Claim(c), Some((f, ..))) = (l, o) {
            own_ok.insert(
                c.id.as_str(),
                f.0.is_empty() && !own_ok.contains_key(c.id.as_str()),
            );
        }
    }
    // Grounded claims, from the bottom up: a claim without inputs is grounded when it
    // passes its own gates; a derived or inference claim once every input is grounded.
    // Claims that only lean on each other (a cycle) never become grounded.
    let mut grounded: HashMap<&str, bool> = lines
        .iter()
        .filter_map(|l| match l {
            ClaimLine::Claim(c) => Some((
                c.id.as_str(),
                !c.label.needs_inputs() && own_ok.get(c.id.as_str()) == Some(&true),
            )),
            ClaimLine::Malformed { .. } => None,
        })
        .collect();
    loop {
        let mut changed = false;
        for l in lines {
            let ClaimLine::Claim(c) = l else { continue };
            let id = c.id.as_str();
            if grounded.get(id) == Some(&true) || own_ok.get(id) != Some(&true) {
                continue;
            }
            if c.inputs
                .iter()
                .all(|i| *i != c.id && grounded.get(i.as_str()) == Some(&true))
            {
                grounded.insert(id, true);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut input_fail: HashMap<&str, String> = HashMap::new();
    for l in lines {
        let ClaimLine::Claim(c) = l else { continue };
        let id = c.id.as_str();
        if !c.label.needs_inputs() || own_ok.get(id) != Some(&true) || grounded[id] {
            continue;
        }
        let why = match c
            .inputs
            .iter()
            .find(|i| grounded.get(i.as_str()) != Some(&true))
        {
            Some(bad) if own_ok.get(bad.as_str()) != Some(&true) => {
                format!("input claim {bad:?} is missing or rejected")
            }
            Some(bad) => format!(
                "input claim {bad:?} is not grounded in a source (its inputs fail, or the claims lean on each other in a cycle)"
            ),
            None => "its inputs are not grounded in a source".to_string(),
        };
        input_fail.insert(id, why);
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    lines
        .iter()
        .zip(own)
        .map(|(l, o)| match (l, o) {
            (ClaimLine::Malformed { id, reason, .. }, _) => Verdict {
                id: id.clone(),
                verdict: Status::Rejected,
                gates_failed: vec![Gate::Malformed],
                reason: reason.clone(),
                source_id: None,
                url: None,
                entailment: None,
                rule: None,
                undecided: None,
                judged_by: None,
                found: None,
            },
            (ClaimLine::Claim(c), Some((mut f, rec, field, ent))) => {
                if let Some(why) = input_fail.get(c.id.as_str()) {
                    f.add(Gate::Label, why.clone());
                }
                let n = seen.entry(c.id.as_str()).or_insert(0);
                *n += 1;
                if *n > 1 {
                    f.add(Gate::Malformed, format!("duplicate claim id {:?}", c.id));
                }
                let reason = f.0.values().cloned().collect::<Vec<_>>().join("; ");
                Verdict {
                    id: Some(c.id.clone()),
                    verdict: if f.0.is_empty() {
                        Status::Accepted
                    } else {
                        Status::Rejected
                    },
                    gates_failed: f.0.keys().copied().collect(),
                    reason,
                    source_id: rec.map(|i| ev.records[i].source_id.clone()),
                    url: rec.map(|i| ev.records[i].url.clone()),
                    entailment: ent.as_ref().map(|e| e.0),
                    rule: ent.as_ref().and_then(|e| e.1),
                    undecided: ent.as_ref().and_then(|e| e.2.clone()),
                    judged_by: ent.and_then(|e| e.3),
                    found: rec.zip(field),
                }
            }
            (ClaimLine::Claim(_), None) => unreachable!("every claim line has its own checks"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_whole_and_separators_normalized() {
        assert_eq!(
            numbers("HR 0.45; 95% CI, 0.33 to 0.63"),
            vec!["0.45", "95", "0.33", "0.63"]
        );
        assert_eq!(numbers("$18,400,000 and 1,2"), vec!["18400000", "1", "2"]);
        assert_eq!(numbers("118.4 vs 18.45."), vec!["118.4", "18.45"]);
        assert_eq!(numbers("n=1,0000"), vec!["1", "0000"]);
        assert_eq!(numbers("V600E in zelnorib59, 80mg"), vec!["80"]);
        let q = numbers("Median PFS was 118.4 months");
        assert!(!q.contains(&"18.4".to_string()));
        assert!(!numbers("70").contains(&"7.0".to_string()));
    }

    #[test]
    fn a_dosing_code_gives_its_interval() {
        assert_eq!(
            interval_numbers("Certolizumab Pegol 200 mg Q2W, then q12h and QW"),
            vec!["2", "12"]
        );
        // identifiers and words that only start with q give none
        assert!(interval_numbers("Q2 2024, QLQ-C30, q10x, Q04W").eq(&vec!["4".to_string()]));
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use crate::domain::Claim;
    use crate::domain::Family;
    use crate::run::evidence::EvidenceRecord;
    use proptest::prelude::*;

    fn evidence(fields: &[String]) -> Evidence {
        let at: Vec<String> = (0..fields.len()).map(|i| format!("/f/{i}")).collect();
        let pairs: Vec<(&str, &str)> = at
            .iter()
            .zip(fields)
            .map(|(l, f)| (l.as_str(), f.as_str()))
            .collect();
        evidence_at(&pairs)
    }

    /// One PubMed record whose text fields are `(locator, text)`.
    fn evidence_at(fields: &[(&str, &str)]) -> Evidence {
        let mut ev = Evidence::default();
        let texts: Vec<&str> = fields.iter().map(|f| f.1).collect();
        let joined = texts.join("\0");
        let mut starts = Vec::new();
        let mut at = 0;
        for f in &texts {
            starts.push(at);
            at += f.len() + 1;
        }
        ev.add(EvidenceRecord {
            source_id: "pubmed:1@0".into(),
            family: Family::Pubmed,
            record_key: "1".into(),
            url: "https://pubmed.ncbi.nlm.nih.gov/1/".into(),
            cutoff_date: None,
            raw: Vec::new(),
            locators: fields.iter().map(|f| f.0.to_string()).collect(),
            joined,
            starts,
            outside: false,
        });
        ev
    }

    fn claim(quote: &str, value: &str) -> ClaimLine {
        ClaimLine::Claim(Box::new(Claim {
            id: "c".into(),
            asset: "a".into(),
            field: "f".into(),
            value: value.into(),
            label: Label::Fact,
            source: Some("PMID:1".into()),
            quote: Some(quote.into()),
            locator: None,
            unit: None,
            endpoint: None,
            population: None,
            arm: None,
            inputs: vec![],
            formula: None,
        }))
    }

    fn derived(id: &str, inputs: &[&str]) -> ClaimLine {
        let ClaimLine::Claim(mut c) = claim("", "2") else {
            unreachable!()
        };
        c.id = id.into();
        c.label = Label::Derived;
        c.source = None;
        c.quote = None;
        c.inputs = inputs.iter().map(|s| s.to_string()).collect();
        c.formula = Some("x + 1".into());
        ClaimLine::Claim(c)
    }

    /// Derived claims are grounded from the bottom up: a chain on a sourced fact passes,
    /// claims that only name each other (a cycle, or themselves) pass nowhere, and what
    /// rests on them fails too.
    #[test]
    fn derived_claims_need_a_chain_down_to_a_source() {
        let ev = evidence(&["response 1 of cohort".to_string()]);
        let lines = [
            claim("response 1 of cohort", "1"),
            derived("d1", &["c"]),
            derived("d2", &["d1"]),
            derived("x", &["y"]),
            derived("y", &["x"]),
            derived("self", &["self"]),
            derived("on-cycle", &["c", "x"]),
            derived("on-missing", &["nowhere"]),
        ];
        let v = verify(&lines, &ev, None);
        let accepted: Vec<bool> = v.iter().map(|v| v.accepted()).collect();
        assert_eq!(
            accepted,
            [true, true, true, false, false, false, false, false]
        );
        assert!(v[3].reason.contains("cycle"), "{}", v[3].reason);
        assert!(v[5].reason.contains("\"self\""), "{}", v[5].reason);
        assert!(v[6].reason.contains("\"x\""), "{}", v[6].reason);
        assert!(
            v[7].reason.contains("missing or rejected"),
            "{}",
            v[7].reason
        );
    }

    /// An XML path may leave out a position where its parent has one element of that
    /// name, and may start at the root of the file the record was cut from; a step left
    /// without a position among several elements of its name says no one place.
    #[test]
    fn an_xml_path_written_short_is_read_as_its_one_place() {
        let fields = [
            (
                "/PubmedArticle[1]/MedlineCitation[1]/Article[1]/Abstract[1]/AbstractText[1]",
                "Background one.",
            ),
            (
                "/PubmedArticle[1]/MedlineCitation[1]/Article[1]/Abstract[1]/AbstractText[2]",
                "Patients received 2 mg.",
            ),
            (
                "/PubmedArticle[1]/MedlineCitation[1]/Article[1]/Abstract[1]/AbstractText[3]",
                "Results 4.8 months.",
            ),
        ];
        let ev = evidence_at(&fields);
        let with = |loc: &str| {
            let ClaimLine::Claim(mut c) = claim("Patients received 2 mg.", "2 mg") else {
                unreachable!()
            };
            c.locator = Some(loc.into());
            verify(&[ClaimLine::Claim(c)], &ev, None).remove(0)
        };
        for loc in [
            "/PubmedArticle[1]/MedlineCitation[1]/Article[1]/Abstract[1]/AbstractText[2]",
            "/PubmedArticle/MedlineCitation/Article/Abstract/AbstractText[2]",
            "/PubmedArticleSet/PubmedArticle/MedlineCitation/Article/Abstract/AbstractText[2]",
            "/PubmedArticleSet[1]/PubmedArticle[1]/MedlineCitation[1]/Article[1]/Abstract[1]/AbstractText[2]",
        ] {
            let v = with(loc);
            assert!(v.accepted(), "{loc}: {}", v.reason);
        }
        // the third abstract paragraph is another place
        let v = with("/PubmedArticle/MedlineCitation/Article/Abstract/AbstractText[3]");
        assert!(v.reason.contains("the quote is not at"), "{}", v.reason);
        // the file's root is one element: a second one is no place of this record
        let v = with(
            "/PubmedArticleSet[2]/PubmedArticle[1]/MedlineCitation[1]/Article[1]/Abstract[1]/AbstractText[2]",
        );
        assert!(!v.accepted(), "{}", v.reason);
        // "AbstractText" alone is any of three paragraphs
        let v = with("/PubmedArticle/MedlineCitation/Article/Abstract/AbstractText");
        assert!(v.reason.contains("does not resolve"), "{}", v.reason);
    }

    /// A step may pick its element by an attribute, as XPath writes it
    /// (`measurement[@group_id='O2']`): the one element whose attribute holds that value.
    #[test]
    fn an_xml_step_picks_its_element_by_an_attribute() {
        let m = "/clinical_study[1]/outcome[1]/measurement_list[1]/measurement";
        let (g1, v1) = (format!("{m}[1]/@group_id"), format!("{m}[1]/@value"));
        let (g2, v2) = (format!("{m}[2]/@group_id"), format!("{m}[2]/@value"));
        let fields = [
            (g1.as_str(), "O1"),
            (v1.as_str(), "20.0"),
            (g2.as_str(), "O2"),
            (v2.as_str(), "8.8"),
        ];
        let ev = evidence_at(&fields);
        let with = |quote: &str, loc: &str| {
            let ClaimLine::Claim(mut c) = claim(quote, quote) else {
                unreachable!()
            };
            c.locator = Some(loc.into());
            verify(&[ClaimLine::Claim(c)], &ev, None).remove(0)
        };
        let at = |g: &str| {
            format!("/clinical_study/outcome/measurement_list/measurement[@group_id='{g}']/@value")
        };
        let v = with("8.8", &at("O2"));
        assert!(v.accepted(), "{}", v.reason);
        let v = with("8.8", &at("O2").replace('\'', "\""));
        assert!(v.accepted(), "{}", v.reason);
        // the first group's element holds another number
        let v = with("8.8", &at("O1"));
        assert!(v.reason.contains("the quote is not at"), "{}", v.reason);
        // no element has a third group
        let v = with("8.8", &at("O3"));
        assert!(v.reason.contains("does not resolve"), "{}", v.reason);
    }

    /// A date value in another spelling than its quote's is the same date's numbers,
    /// in a field of dates; another date, or a field of numbers, is not.
    #[test]
    fn a_date_respelled_keeps_its_numbers() {
        let ev = evidence(&["20220513".to_string()]);
        let with = |field: &str, value: &str| {
            let ClaimLine::Claim(mut c) = claim("20220513", value) else {
                unreachable!()
            };
            c.field = field.into();
            verify(&[ClaimLine::Claim(c)], &ev, None).remove(0)
        };
        for value in ["2022-05-13", "May 13, 2022", "20220513"] {
            let v = with("regulatory.original_approval_date", value);
            assert!(v.accepted(), "{value}: {}", v.reason);
        }
        let v = with("regulatory.original_approval_date", "2022-05-31");
        assert!(v.reason.contains("not in the quote"), "{}", v.reason);
        // the date with its compact form beside it
        let v = with("regulatory.original_approval_date", "2022-05-13 (20220513)");
        assert!(v.accepted(), "{}", v.reason);
        let v = with("regulatory.original_approval_date", "2022-05-14 (20220513)");
        assert!(v.reason.contains("not in the quote"), "{}", v.reason);
        let v = with("efficacy.value", "2022-05-13");
        assert!(v.reason.contains("not in the quote"), "{}", v.reason);
    }

    /// A pointer into the openFDA or ClinicalTrials.gov response a record came in is
    /// read inside the record; any other pointer that does not resolve stays unresolved.
    #[test]
    fn a_pointer_into_the_response_is_read_inside_its_record() {
        let ev = evidence(&["first".to_string(), "response 1 of cohort".to_string()]);
        let with = |loc: &str| {
            let ClaimLine::Claim(mut c) = claim("response 1 of cohort", "1") else {
                unreachable!()
            };
            c.locator = Some(loc.into());
            verify(&[ClaimLine::Claim(c)], &ev, None).remove(0)
        };
        // ("f/1": a pointer written without its leading slash)
        for loc in [
            "/f/1",
            "/results/0/f/1",
            "/studies/3/f/1",
            "f/1",
            "results/0/f/1",
        ] {
            let v = with(loc);
            assert!(v.accepted(), "{loc}: {}", v.reason);
        }
        assert!(with("f/0").reason.contains("the quote is not at"));
        assert!(
            with("/results/0/f/0")
                .reason
                .contains("the quote is not at")
        );
        for loc in [
            "/others/0/f/1",
            "/results/first/f/1",
            "/results/0",
            "others/0/f/1",
        ] {
            let v = with(loc);
            assert!(v.reason.contains("does not resolve"), "{loc}: {}", v.reason);
        }
    }

    /// A run's evidence is the asset's bundle: a claim citing a bundle record is judged on
    /// its text; one citing a record of the snapshot outside the bundle fails the scope
    /// rule and keeps the record it names, whatever its quote.
    #[test]
    fn a_record_outside_the_bundle_fails_the_scope_rule() {
        use crate::lake::bundle::Row;
        let row = |key: &str, text: &str| Row {
            asset_id: "a".into(),
            role: "subject".into(),
            source_id: format!("pubmed:{key}@0"),
            family: "pubmed".into(),
            record_key: key.into(),
            url: format!("https://pubmed.ncbi.nlm.nih.gov/{key}/"),
            cutoff_date: Some("2020-01-01".into()),
            raw: Vec::new(),
            fields: vec![("/f/0".into(), "text".into(), text.into())],
        };
        let mut catalog = Evidence::default();
        for r in [row("1", ""), row("2", "")] {
            catalog.add(EvidenceRecord::outside(
                r.source_id,
                Family::Pubmed,
                r.record_key,
                r.url,
                r.cutoff_date,
            ));
        }
        let bundle = [row("1", "response 1 of cohort")];
        let cites = ["PMID:1", "https://pubmed.ncbi.nlm.nih.gov/2/", "PMID:3"];
        let ev = Evidence::of_bundle(&bundle, &catalog, cites);
        assert_eq!(ev.records.len(), 2);
        assert_eq!(ev.cutoff_of("pubmed:2@0").as_deref(), Some("2020-01-01"));
        let lines: Vec<ClaimLine> = cites
            .iter()
            .enumerate()
            .map(|(i, src)| {
                let ClaimLine::Claim(mut c) = claim("response 1 of cohort", "1") else {
                    unreachable!()
                };
                c.id = format!("c{i}");
                c.source = Some(src.to_string());
                ClaimLine::Claim(c)
            })
            .collect();
        let v = verify(&lines, &ev, None);
        assert!(v[0].accepted(), "{:?}", v[0]);
        assert!(!v[1].accepted());
        assert_eq!(v[1].gates_failed, vec![Gate::Entailment]);
        assert_eq!(v[1].rule, Some(Rule::Scope));
        assert_eq!(v[1].source_id.as_deref(), Some("pubmed:2@0"));
        assert!(
            v[1].reason.contains("pubmed:2@0 is not a record of a"),
            "{}",
            v[1].reason
        );
        assert_eq!(v[2].gates_failed, vec![Gate::Citation]);
    }

    proptest! {
        /// A quote passes exactly when it sits inside one field: never across two, never absent.
        #[test]
        fn quote_gate_is_sound(fields in proptest::collection::vec("[a-c 0-9.,]{0,12}", 1..5), quote in "[a-c 0-9.,]{1,6}") {
            let ev = evidence(&fields);
            let v = &verify(&[claim(&quote, "x")], &ev, None)[0];
            let inside = !quote.trim().is_empty() && fields.iter().any(|f| f.contains(quote.as_str()));
            prop_assert_eq!(v.accepted(), inside, "{:?}", v);
        }

        /// A number in the value that is not a whole number of the quote never passes.
        #[test]
        fn number_gate_is_sound(n in 0u32..100000, m in 0u32..100000) {
            let field = format!("response {n} of cohort");
            let ev = evidence(std::slice::from_ref(&field));
            let v = &verify(&[claim(&field, &format!("{m}"))], &ev, None)[0];
            prop_assert_eq!(v.accepted(), n == m);
        }
    }
}
