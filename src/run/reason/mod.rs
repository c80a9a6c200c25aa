//! Layer 2 reasoning: pure steps that read one asset's bundle and emit claims. The
//! extractive reasoner reads structured sources structurally (CT.gov outcome measures by
//! group id, XBRL facts by concept, unit and period) and text sources by sentence; every
//! claim cites the record's catalog URL with a verbatim quote and a locator, and goes
//! through the gates like anyone else's. The LLM reasoner lives in [`llm`].

use std::collections::BTreeMap;

use crate::domain::Asset;
use crate::domain::{Claim, Label};
use crate::domain::{Family, FamilyStatus};
use crate::lake::bundle::Row;

pub(crate) mod biomarkers;
pub mod ctgov;
mod direction;
mod label;
pub mod llm;
pub mod sources;
mod text_efficacy;
mod tree;
pub mod valuation;

/// What a step sees: the asset, its family statuses and its bundle rows.
pub struct Input<'a> {
    pub asset: &'a Asset,
    pub families: &'a BTreeMap<Family, FamilyStatus>,
    pub rows: &'a [Row],
    /// The valuation assumptions.
    pub book: &'a valuation::Book,
    /// The asset's CT.gov studies, read once for every step that needs them.
    studies: std::cell::OnceCell<Vec<(usize, ctgov::Study)>>,
}

impl<'a> Input<'a> {
    pub fn new(
        asset: &'a Asset,
        families: &'a BTreeMap<Family, FamilyStatus>,
        rows: &'a [Row],
    ) -> Input<'a> {
        Input {
            asset,
            families,
            rows,
            book: valuation::Book::shipped(),
            studies: std::cell::OnceCell::new(),
        }
    }

    /// The same input with another assumptions file.
    pub fn with_book(self, book: &'a valuation::Book) -> Input<'a> {
        Input { book, ..self }
    }

    /// The asset's own CT.gov studies (v2 JSON or legacy XML), parsed on first use.
    pub fn studies(&self) -> impl Iterator<Item = (&Row, &ctgov::Study)> {
        self.studies
            .get_or_init(|| {
                self.rows
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.role == "subject" && r.family == Family::Ctgov.as_str())
                    .filter_map(|(i, r)| ctgov::study(r).map(|s| (i, s)))
                    .collect()
            })
            .iter()
            .map(|(i, s)| (&self.rows[*i], s))
    }

    /// The asset's own records of a family.
    pub fn subjects(&self, family: Family) -> impl Iterator<Item = &Row> {
        self.rows
            .iter()
            .filter(move |r| r.role == "subject" && r.family == family.as_str())
    }

    pub fn competitors(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.role == "competitor")
    }
}

/// The cell key of a claim.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    pub endpoint: String,
    pub population: String,
    pub arm: String,
}

impl Key {
    pub fn endpoint(e: impl Into<String>) -> Key {
        Key {
            endpoint: e.into(),
            ..Key::default()
        }
    }
}

/// What the steps produce for one asset.
#[derive(Debug, Default)]
pub struct Output {
    pub claims: Vec<Claim>,
    /// Fields not attempted on purpose, with the reason.
    pub skipped: BTreeMap<&'static str, String>,
    /// Fields whose source exists but has not published them, with the detail.
    pub unpublished: BTreeMap<&'static str, String>,
    /// Fields whose records were read but do not decide them, with what was and was not
    /// read (an NDA does not say whether the drug is a peptide): `source_empty` with
    /// that reason instead of "none states it".
    pub undecided: BTreeMap<&'static str, String>,
    /// Step name per claim id.
    pub step_of: BTreeMap<String, &'static str>,
    /// Wall time of each step, in milliseconds (for the run manifest; never in a table).
    pub step_ms: BTreeMap<&'static str, f64>,
}

/// Emits claims for one step with deterministic ids.
pub struct Emit<'o> {
    pub out: &'o mut Output,
    pub asset: String,
    pub step: &'static str,
}

impl Emit<'_> {
    /// A fact: `value` quoted verbatim from the field at `locator` of `row`.
    #[allow(clippy::too_many_arguments)]
    pub fn fact(
        &mut self,
        field: &str,
        key: &Key,
        value: &str,
        unit: &str,
        row: &Row,
        quote: &str,
        locator: &str,
    ) -> String {
        self.push(Claim {
            // The exact version read, so two data versions of a record compete as such.
            source: Some(row.source_id.clone()),
            quote: Some(quote.into()),
            locator: (!locator.is_empty()).then(|| locator.into()),
            ..self.claim(Label::Fact, field, key, value, unit)
        })
    }

    /// The parts every claim of this asset states: label, field, cell key, value, unit.
    fn claim(&self, label: Label, field: &str, key: &Key, value: &str, unit: &str) -> Claim {
        let some = |x: &str| (!x.is_empty()).then(|| x.to_string());
        Claim {
            id: String::new(),
            asset: self.asset.clone(),
            field: field.into(),
            value: value.into(),
            label,
            source: None,
            quote: None,
            locator: None,
            unit: some(unit),
            endpoint: some(&key.endpoint),
            population: some(&key.population),
            arm: some(&key.arm),
            inputs: vec![],
            formula: None,
        }
    }

    /// A derived or inference claim over earlier claims.
    #[allow(clippy::too_many_arguments)]
    pub fn over(
        &mut self,
        label: Label,
        field: &str,
        key: &Key,
        value: &str,
        unit: &str,
        inputs: Vec<String>,
        formula: &str,
    ) -> String {
        self.push(Claim {
            inputs,
            formula: Some(formula.into()),
            ..self.claim(label, field, key, value, unit)
        })
    }

    /// An assumption taken from the assumptions file: its key is the endpoint, the
    /// locator names the file, its hash and the key, and the formula carries the
    /// provenance written beside the number.
    pub fn assumption(&mut self, key: &str, entry: &valuation::Entry, locator: &str) -> String {
        let c = self.claim(
            Label::Assumption,
            "valuation.assumption",
            &Key::endpoint(key),
            &entry.base.to_string(),
            &entry.unit,
        );
        self.push(Claim {
            locator: Some(locator.into()),
            formula: Some(format!("provenance: {}", entry.provenance)),
            ..c
        })
    }

    fn push(&mut self, mut c: Claim) -> String {
        c.id = claim_id("x", &c);
        // The same statement from the same place is one claim.
        if !self.out.step_of.contains_key(&c.id) {
            self.out.step_of.insert(c.id.clone(), self.step);
            self.out.claims.push(c.clone());
        }
        c.id
    }

    pub fn skip(&mut self, field: &'static str, why: impl Into<String>) {
        self.out.skipped.insert(field, why.into());
    }

    pub fn unpublished(&mut self, field: &'static str, why: impl Into<String>) {
        self.out.unpublished.insert(field, why.into());
    }

    /// Several records' reasons for one field are kept, each once.
    pub fn undecided(&mut self, field: &'static str, why: impl Into<String>) {
        let why = why.into();
        let at = self.out.undecided.entry(field).or_default();
        if at.is_empty() {
            *at = why;
        } else if !at.split("; also ").any(|w| w == why) {
            at.push_str("; also ");
            at.push_str(&why);
        }
    }
}

/// A claim's id: a prefix naming its origin and a hash of everything it states.
pub fn claim_id(prefix: &str, c: &Claim) -> String {
    let text = serde_json::json!([
        c.asset,
        c.field,
        c.endpoint,
        c.population,
        c.arm,
        c.value,
        c.unit,
        c.label,
        c.source,
        c.quote,
        c.locator,
        c.inputs,
        c.formula
    ])
    .to_string();
    format!(
        "{prefix}-{}",
        &crate::domain::sha256_hex(text.as_bytes())[..16]
    )
}

/// The named steps of the extractive reasoner, in order.
/// A named reasoning step.
pub type Step = fn(&Input<'_>, &mut Emit<'_>);

pub const STEPS: &[(&str, Step)] = &[
    ("resolve-indication", sources::indication),
    ("identity", sources::identity),
    ("biomarkers", biomarkers::biomarkers),
    ("regulatory", sources::regulatory),
    ("trials", ctgov::trials),
    ("efficacy", ctgov::efficacy),
    ("text-efficacy", text_efficacy::text_efficacy),
    ("safety", ctgov::safety),
    ("label-safety", sources::label_safety),
    ("competitors", sources::competitors),
    ("market", sources::market),
    ("financials", sources::financials),
    ("valuation", valuation::valuation),
];

/// Runs every extractive step over one asset's bundle. Pure.
pub fn extractive(input: &Input<'_>) -> Output {
    let mut out = Output::default();
    for (name, step) in STEPS {
        let mut e = Emit {
            out: &mut out,
            asset: input.asset.id.to_string(),
            step: name,
        };
        let t = std::time::Instant::now();
        step(input, &mut e);
        out.step_ms.insert(name, t.elapsed().as_secs_f64() * 1e3);
    }
    out
}

/// Whole-word, case-insensitive containment (for matching the portfolio's indication).
pub fn mentions(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.to_lowercase(), needle.to_lowercase());
    if n.is_empty() {
        return false;
    }
    h.match_indices(&n).any(|(i, _)| {
        let before = h[..i].chars().next_back();
        let after = h[i + n.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The first sentence of a text (at ". " followed by an upper-case letter or the end),
/// at most `max` bytes, cut at a char boundary; an exact prefix slice.
pub fn first_sentence(text: &str, max: usize) -> &str {
    let t = text.trim_start();
    let offset = text.len() - t.len();
    let b = t.as_bytes();
    let mut end = t.len();
    for i in 0..b.len() {
        if b[i] == b'.'
            && (i + 1 == b.len()
                || (b[i + 1] == b' ' && b.get(i + 2).is_some_and(|c| c.is_ascii_uppercase())))
        {
            end = i + 1;
            break;
        }
    }
    let mut end = end.min(max);
    while !t.is_char_boundary(end) {
        end -= 1;
    }
    &text[offset..offset + end]
}

/// The sentence of `text` that contains `needle` (case-insensitive), as an exact slice.
pub fn sentence_with<'t>(text: &'t str, needle: &str, max: usize) -> Option<&'t str> {
    let lower = text.to_lowercase();
    if lower.len() != text.len() {
        // Lower-casing changed byte lengths; search the original case-sensitively.
        let pos = text.find(needle)?;
        return Some(sentence_around(text, pos, max));
    }
    let pos = lower.find(&needle.to_lowercase())?;
    Some(sentence_around(text, pos, max))
}

fn sentence_around(text: &str, pos: usize, max: usize) -> &str {
    let b = text.as_bytes();
    let mut start = pos;
    while start > 0 && !(b[start - 1] == b' ' && start >= 2 && b[start - 2] == b'.') {
        start -= 1;
    }
    first_sentence(&text[start..], max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_are_exact_slices() {
        let t =
            "6 ADVERSE REACTIONS The most common adverse reactions (≥20%) were rash. Other text.";
        let s = sentence_with(t, "most common adverse reactions", 400).unwrap();
        assert!(t.contains(s));
        assert!(s.ends_with("rash."), "{s}");
        assert_eq!(first_sentence("WARNING: QT. Do not.", 400), "WARNING: QT.");
        assert!(mentions(
            "Chronic Myeloid Leukemia, BCR",
            "chronic myeloid leukemia"
        ));
        assert!(!mentions("anemias", "anemia"));
    }
}
