//! The biomarkers that select an asset's patients (BRAF V600E, PD-L1 ≥50%, Ph+…), each
//! quoted where a record states it: a label's indications, a study's conditions and
//! inclusion criteria (never its exclusion criteria), a paper's title and abstract. The
//! spellings are data (`jobs/biomarkers.csv`); the cell's endpoint is the biomarker with
//! the cut-off written right after its mention, so every spelling of one selection is one
//! value (`sql/10_candidates.sql` keys `identity.biomarkers` by it).

use std::sync::LazyLock;

use super::{Emit, Input, Key};
use crate::lake::bundle::Row;
use crate::run::gates::entailment::binder::{Kind, Text};
use crate::run::gates::entailment::tables::Lexicon;

const BIOMARKERS_CSV: &str = include_str!("../../../jobs/biomarkers.csv");

/// The biomarker spellings shipped in `jobs/biomarkers.csv`.
pub fn lexicon() -> &'static Lexicon {
    static L: LazyLock<Lexicon> = LazyLock::new(|| {
        Lexicon::parse(BIOMARKERS_CSV, "biomarker,alias", "biomarkers.csv")
            .expect("jobs/biomarkers.csv parses")
    });
    &L
}

/// The parts of a record that say whom the asset is for.
fn selects(row: &Row, locator: &str) -> bool {
    match row.family.as_str() {
        "fda_label" => locator.starts_with("/indications_and_usage"),
        "ctgov" => {
            locator.contains("/conditionsModule/conditions")
                || locator.contains("/eligibilityModule/eligibilityCriteria")
                || locator.starts_with("/clinical_study[1]/condition[")
                || locator.starts_with("/clinical_study[1]/eligibility[1]/criteria[1]/textblock")
        }
        "pubmed" => locator.contains("/Abstract") || locator.contains("/ArticleTitle"),
        _ => false,
    }
}

/// The inclusion part of a criteria text: what comes before "Exclusion Criteria".
fn inclusion(text: &str) -> &str {
    let lower = text.to_ascii_lowercase();
    match lower.find("exclusion criteria") {
        Some(i) => &text[..i],
        None => text,
    }
}

pub fn biomarkers(input: &Input<'_>, e: &mut Emit<'_>) {
    let lex = lexicon();
    for row in input.rows.iter().filter(|r| r.role == "subject") {
        for (loc, _, text) in &row.fields {
            if !selects(row, loc) {
                continue;
            }
            for s in super::text_efficacy::sentences(inclusion(text)) {
                for (biomarker, value) in mentions(s, lex) {
                    e.fact(
                        "identity.biomarkers",
                        &Key::endpoint(biomarker),
                        value,
                        "",
                        row,
                        s,
                        loc,
                    );
                }
            }
        }
    }
}

/// The biomarkers a sentence names: (the cell's endpoint, the verbatim mention with its
/// cut-off). The mention is an exact slice of `s`.
pub fn mentions<'s>(s: &'s str, lex: &Lexicon) -> Vec<(String, &'s str)> {
    let t = Text::new(s);
    let mut out: Vec<(String, &str)> = Vec::new();
    let mut i = 0;
    while i < t.tokens.len() {
        let Some((name, n)) = lex.at_len(&t, i) else {
            i += 1;
            continue;
        };
        let (start, mut last) = (i, i + n - 1);
        // "BCR-ABL-negative", "non-Ph+", "no EGFR mutation": a selection against it
        let negative = |k: usize| {
            t.word(k)
                .is_some_and(|w| w == "negative" || w == "negativity")
        };
        let against = negative(last + 1)
            || (t.tokens.get(last + 1).is_some_and(|x| x.text == "-") && negative(last + 2))
            || (start > 0
                && t.word(start - 1)
                    .is_some_and(|w| matches!(w, "no" | "non" | "without" | "not")))
            || (start > 1 && t.tokens[start - 1].text == "-" && t.word(start - 2) == Some("non"));
        if against {
            i = last + 1;
            continue;
        }
        let mut endpoint = name.to_string();
        if let Some((cut, end)) = cutoff(&t, last) {
            endpoint = format!("{name} {cut}");
            last = end;
        }
        let value = t.span_in(s, start..last + 1);
        if !out.iter().any(|(b, _)| *b == endpoint) {
            out.push((endpoint, value));
        }
        i = last + 1;
    }
    out
}

/// A cut-off written within a few words after token `at` ("PD-L1 expression ≥50%",
/// "PD-L1 (TPS ≥ 1%)"): the comparison in one spelling and the token where it ends.
fn cutoff(t: &Text<'_>, at: usize) -> Option<(String, usize)> {
    let end = (at + 10).min(t.tokens.len());
    for k in at + 1..end {
        let sym = match t.tokens[k].text {
            "≥" => "≥",
            "≤" => "≤",
            ">" if t.tokens.get(k + 1).is_some_and(|x| x.text == "=") => "≥",
            "<" if t.tokens.get(k + 1).is_some_and(|x| x.text == "=") => "≤",
            ">" => ">",
            "<" => "<",
            _ => continue,
        };
        let n = (k + 1..(k + 3).min(t.tokens.len())).find(|&j| t.tokens[j].kind == Kind::Number)?;
        let pct = t.tokens.get(n + 1).is_some_and(|x| x.text == "%");
        let last = if pct { n + 1 } else { n };
        let unit = if pct { "%" } else { "" };
        return Some((format!("{sym}{}{unit}", t.tokens[n].lower), last));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(s: &str) -> Vec<(String, String)> {
        mentions(s, lexicon())
            .into_iter()
            .map(|(b, v)| (b, v.to_string()))
            .collect()
    }

    #[test]
    fn mentions_are_verbatim_with_their_cut_off() {
        assert_eq!(
            found("patients who had metastatic melanoma with a V600E or V600K BRAF mutation"),
            [
                ("BRAF V600E".to_string(), "V600E".to_string()),
                ("BRAF V600K".to_string(), "V600K".to_string())
            ]
        );
        assert_eq!(
            found("tumors express PD-L1 (Tumor Proportion Score [TPS] ≥50%) as determined"),
            [(
                "PD-L1 ≥50%".to_string(),
                "PD-L1 (Tumor Proportion Score [TPS] ≥50%".to_string()
            )]
        );
        assert_eq!(
            found("Philadelphia chromosome-positive chronic myeloid leukemia (Ph+ CML)"),
            [(
                "Ph+".to_string(),
                "Philadelphia chromosome-positive".to_string()
            )]
        );
        assert!(found("no selection here").is_empty());
        assert!(found("Philadelphia chromosome-negative or BCR-ABL-negative ALL").is_empty());
        assert!(found("patients without EGFR mutations").is_empty());
    }

    #[test]
    fn exclusion_criteria_select_no_one() {
        let t = "Inclusion Criteria:\n* HER2-positive\nExclusion Criteria:\n* EGFR mutation";
        assert_eq!(inclusion(t), "Inclusion Criteria:\n* HER2-positive\n");
    }

    #[test]
    fn the_shipped_table_parses() {
        let _ = lexicon();
    }
}
