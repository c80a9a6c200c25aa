//! The direction of a posted comparison, read from the words the source uses for it
//! ("Odds ratio: CZP/Placebo", "HR = Nivolumab over Docetaxel", "Dupilumab 300 mg qw vs.
//! Placebo qw"). CT.gov lists an analysis's groups in registry order, which is often
//! placebo first; that order says nothing about which group is the numerator. A
//! direction is accepted only when both sides of the phrase name distinct groups of the
//! analysis; otherwise the comparison is reported without one. Pure.

/// A direction stated in a text: the groups (indices into the titles given) on each side
/// of the connector, and the phrase as the text writes it.
#[derive(Debug, PartialEq, Eq)]
pub struct Stated<'t> {
    pub first: usize,
    pub second: usize,
    pub phrase: &'t str,
}

/// Connectors between the two sides, lowercase, with the spaces they need around them.
const CONNECTORS: &[&str] = &[
    " vs. ",
    " vs ",
    " versus ",
    " over ",
    " compared with ",
    " compared to ",
    " relative to ",
    " minus ",
    " - ",
];

/// Words that say nothing about which group a side names.
const GENERIC: &[&str] = &[
    "the",
    "a",
    "an",
    "of",
    "in",
    "for",
    "and",
    "group",
    "groups",
    "arm",
    "arms",
    "treatment",
    "ratio",
    "hr",
    "or",
    "rr",
    "odds",
    "hazard",
    "risk",
    "difference",
    "mean",
    "ls",
    "mg",
    "kg",
    "participants",
    "patients",
    "subjects",
    "fas",
    "itt",
    "mitt",
    "pps",
    "ss",
];

/// Abbreviations registries use for a group that its title spells out.
fn alias(word: &str) -> &str {
    match word {
        "pbo" | "pla" | "plc" | "pcb" => "placebo",
        _ => word,
    }
}

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| alias(&w.to_lowercase()).to_string())
        .filter(|w| !GENERIC.contains(&w.as_str()))
        .collect()
}

/// The one title a side names best, when no other title ties it.
fn group_of(side: &str, titles: &[Vec<String>]) -> Option<usize> {
    let side = words(side);
    let scores: Vec<usize> = titles
        .iter()
        .map(|t| side.iter().filter(|w| t.contains(w)).count())
        .collect();
    let best = *scores.iter().max()?;
    (best > 0 && scores.iter().filter(|s| **s == best).count() == 1)
        .then(|| scores.iter().position(|s| *s == best))
        .flatten()
}

/// Where the clause holding byte `at` starts (looking back) or ends (looking ahead),
/// at most six words away.
fn clause_start(text: &str, at: usize) -> usize {
    let head = &text[..at];
    let cut = head
        .rfind([':', '=', ';', '(', ',', '\n'])
        .map(|i| i + 1)
        .unwrap_or(0);
    let cut = head[cut..].rfind(". ").map(|i| cut + i + 2).unwrap_or(cut);
    let mut start = cut;
    let mut n = 0;
    for (i, c) in head[cut..].char_indices().rev() {
        if c == ' ' {
            n += 1;
            if n > 6 {
                start = cut + i + 1;
                break;
            }
        }
    }
    start
}

fn clause_end(text: &str, from: usize) -> usize {
    let tail = &text[from..];
    let stops = [
        ", ", "; ", ". ", ")", " and ", " were ", " was ", " is ", " in ", " at ", "\n",
    ];
    let mut end = stops
        .iter()
        .filter_map(|s| tail.find(s))
        .min()
        .unwrap_or(tail.len());
    if end == tail.len() {
        end = tail.trim_end_matches(['.', ' ']).len();
    }
    let mut n = 0;
    for (i, c) in tail[..end].char_indices() {
        if c == ' ' {
            n += 1;
            if n >= 6 {
                end = i;
                break;
            }
        }
    }
    from + end
}

/// The direction a text states between the titled groups, if it states one.
pub fn stated<'t>(text: &'t str, titles: &[&str]) -> Option<Stated<'t>> {
    let tw: Vec<Vec<String>> = titles.iter().map(|t| words(t)).collect();
    // ASCII lowercasing keeps byte offsets
    let lower = text.to_ascii_lowercase();
    let mut hits: Vec<(usize, usize, usize, usize)> = Vec::new();
    for c in CONNECTORS {
        for (at, _) in lower.match_indices(c) {
            let a = clause_start(text, at);
            let b = clause_end(text, at + c.len());
            hits.push((at, a, at + c.len(), b));
        }
    }
    // "CZP/Placebo": one word on each side of a slash
    for (at, _) in lower.match_indices('/') {
        let a = text[..at].rfind([' ', '(', ':', '=']).map_or(0, |i| i + 1);
        let b = text[at + 1..]
            .find([' ', ')', ',', ';', ':'])
            .map_or(text.len(), |i| at + 1 + i);
        hits.push((at, a, at + 1, b));
    }
    hits.sort();
    for (at, a, e, b) in hits {
        if a >= at || e >= b {
            continue;
        }
        let (Some(first), Some(second)) = (group_of(&text[a..at], &tw), group_of(&text[e..b], &tw))
        else {
            continue;
        };
        if first != second {
            return Some(Stated {
                first,
                second,
                phrase: text[a..b].trim(),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(text: &str, titles: &[&str]) -> Option<(usize, usize, String)> {
        stated(text, titles).map(|s| (s.first, s.second, s.phrase.to_string()))
    }

    #[test]
    fn directions_are_read_as_the_source_writes_them() {
        let czp = ["Placebo (FAS)", "CZP 200 mg Q2W (FAS)"];
        assert_eq!(
            dir(
                "Odds ratio: CZP/Placebo and p-value were calculated using logistic regression with factors for treatment, region and Magnetic Resonance Imaging/C- Reactive Protein (MRI/CRP) classification.",
                &czp
            ),
            Some((1, 0, "CZP/Placebo".into()))
        );
        assert_eq!(
            dir("Odds ratio: CZP/PBO and p-value were calculated", &czp),
            Some((1, 0, "CZP/PBO".into()))
        );
        let nivo = ["Nivolumab", "Docetaxel"];
        assert_eq!(
            dir(
                "Stratified Cox proportional hazard model. HR = Nivolumab over Docetaxel",
                &nivo
            ),
            Some((0, 1, "Nivolumab over Docetaxel".into()))
        );
        assert_eq!(
            dir(
                "OR = Nivolumab over Docetaxel; PD-L1 expression >= 5%",
                &nivo
            ),
            Some((0, 1, "Nivolumab over Docetaxel".into()))
        );
        let dupi = ["Placebo qw", "Dupilumab 300 mg qw"];
        assert_eq!(
            dir("Dupilumab 300 mg qw vs. Placebo qw", &dupi),
            Some((1, 0, "Dupilumab 300 mg qw vs. Placebo qw".into()))
        );
    }

    #[test]
    fn no_direction_is_implied_where_none_is_stated() {
        let dupi = ["Placebo qw", "Dupilumab 300 mg qw"];
        // a "vs." between strata, not between the groups
        assert_eq!(
            dir(
                "Analysis was performed using Cochran-Mantel-Haenszel test stratified by randomization strata (moderate [IGA=3] vs. severe [IGA=4] AD).",
                &dupi
            ),
            None
        );
        assert_eq!(
            dir(
                "This analysis is for Asian participants",
                &["Placebo", "Remdesivir"]
            ),
            None
        );
        assert_eq!(dir("", &["Placebo", "Remdesivir"]), None);
        // both sides naming the same group is no direction
        assert_eq!(
            dir("Placebo week 12 vs placebo week 24", &["Placebo", "Drug"]),
            None
        );
        // a side that names two groups equally well names neither
        assert_eq!(
            dir("Drug 10 mg vs Drug", &["Drug 10 mg", "Drug 20 mg"]),
            None
        );
    }
}
