//! Statements read from FDA label text as openFDA flattens it: headings, highlights and
//! full prescribing information run together without line breaks, and a highlights
//! statement ends at its cross-reference ("… headache and rash (6.1) To report …"), not at
//! a period. Every value here is an exact slice of the section's text, a whole statement
//! or nothing: a statement longer than the limit is dropped, never cut. Pure.

use std::sync::LazyLock;

use regex::Regex;

/// The longest statement kept whole; a longer one is not a field value.
pub const MAX_STATEMENT: usize = 1500;

/// A highlights cross-reference closing a statement: `(6.1)`, `(5.1, 9.2)`, `(1)`.
static CROSS_REF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\(\d+(?:\.\d+)*(?:,\s*\d+(?:\.\d+)*)*\)").expect("a valid pattern")
});

/// A numbered subsection heading right before a statement: `1.1 Rheumatoid Arthritis `.
static SUBHEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[.\]\)]\s+)(\d+\.\d+)\s+([^.\[\]()]{2,80}?)\s+$").expect("a valid pattern")
});

/// A subsection number opening a heading anywhere in a stretch of text.
static NUMBERED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b\d+\.\d+\s+\p{Lu}").expect("a valid pattern"));

fn upper_follows(text: &str, at: usize) -> bool {
    let rest = &text[at..];
    rest.is_empty()
        || rest
            .strip_prefix(' ')
            .and_then(|r| r.chars().next())
            .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
}

/// Where the statement starting at `start` ends: after a period, or after a closing
/// cross-reference, followed by a capital (or the end of the text).
pub fn statement_end(text: &str, start: usize) -> usize {
    let t = &text[start..];
    let by_period = t
        .match_indices('.')
        .map(|(i, _)| start + i + 1)
        .find(|&e| upper_follows(text, e));
    let by_ref = CROSS_REF
        .find_iter(t)
        .map(|m| start + m.end())
        .find(|&e| upper_follows(text, e));
    [by_period, by_ref]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(text.len())
}

/// The whole statement starting at `start`, trimmed, if it is short enough to keep whole.
fn whole(text: &str, start: usize) -> Option<&str> {
    let end = statement_end(text, start);
    let s = text[start..end].trim();
    (!s.is_empty() && s.len() <= MAX_STATEMENT).then_some(s)
}

/// The label's statements of the most common adverse reactions, whole ("Most common
/// adverse reactions (incidence >10%): infections …, headache and rash (6.1)"). The
/// highlights' capitalized statements come first; a label without them gives its first
/// sentence saying "most common adverse reaction".
pub fn common_adverse_reactions(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = text
        .match_indices("Most common")
        .filter_map(|(i, _)| whole(text, i))
        .collect();
    if out.is_empty()
        && let Some(i) = text
            .to_ascii_lowercase()
            .find("most common adverse reaction")
    {
        let start = sentence_start(text, i);
        out.extend(whole(text, start));
    }
    out.dedup();
    out
}

/// The start of the sentence holding byte `at`: after the last ". " + capital before it.
fn sentence_start(text: &str, at: usize) -> usize {
    text[..at]
        .match_indices(". ")
        .map(|(i, _)| i + 2)
        .filter(|&s| text[s..].chars().next().is_some_and(char::is_uppercase))
        .last()
        .unwrap_or(0)
}

/// One indication statement of a label: the numbered subsection it stands under
/// (`1.1 Rheumatoid Arthritis`), or empty, and the statement, whole.
#[derive(Debug, PartialEq, Eq)]
pub struct Indication<'t> {
    pub heading: String,
    pub statement: &'t str,
}

/// The label's indication statements ("HUMIRA is indicated for …"), one per statement,
/// each starting at the drug's name (never at a section heading). When the label has
/// numbered subsections, the statements under them are the indications and the
/// highlights' summary is left out.
pub fn indications<'t>(text: &'t str, names: &[&str]) -> Vec<Indication<'t>> {
    let lower = text.to_lowercase();
    if lower.len() != text.len() {
        return Vec::new();
    }
    let names: Vec<String> = names
        .iter()
        .map(|n| n.to_lowercase())
        .filter(|n| !n.is_empty())
        .collect();
    let mut out: Vec<Indication<'t>> = Vec::new();
    let mut last_end = 0;
    for (at, _) in lower.match_indices("indicated") {
        if at < last_end {
            continue;
        }
        let sentence = sentence_start(text, at);
        // the statement starts at the last mention of the drug before "indicated"
        let start = names
            .iter()
            .filter_map(|n| lower[sentence..at].rfind(n.as_str()))
            .min()
            .map(|i| sentence + i)
            .unwrap_or(sentence);
        let Some(statement) = whole(text, start) else {
            continue;
        };
        // a limitation of use ("is not indicated for weight loss") is no indication, and a
        // statement that runs into one mixes the two; the highlights' summary restating
        // an indication already read ("Ambien is indicated for …" after "Ambien
        // (zolpidem tartrate) is indicated for …") is the same indication
        let lower_s = statement.to_lowercase();
        if lower_s.contains("not indicated")
            || lower_s.contains("limitation of use")
            || lower_s.contains("limitations of use")
            || out.iter().any(|i| gist(i.statement) == gist(statement))
        {
            last_end = start + statement.len();
            continue;
        }
        let heading = match SUBHEADING.captures(&text[..start]) {
            Some(c) => format!("{} {}", &c[1], c[2].trim()),
            // a further statement of the same subsection keeps its heading
            None => match out.last() {
                Some(prev) if !NUMBERED.is_match(&text[last_end..start]) => prev.heading.clone(),
                _ => String::new(),
            },
        };
        last_end = start + statement.len();
        out.push(Indication { heading, statement });
    }
    if out.iter().any(|i| !i.heading.is_empty()) {
        out.retain(|i| !i.heading.is_empty());
    }
    out
}

/// A statement without its parentheses, bracketed cross-references and highlights
/// markers, lower-cased: two spellings of one indication have the same gist.
fn gist(s: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.extend(c.to_lowercase()),
            _ => {}
        }
    }
    out.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches(['.', ' '])
        .to_string()
}

/// The boxed warning's title ("WARNING: SERIOUS INFECTIONS AND MALIGNANCY"), when the
/// section is a boxed warning at all: openFDA sometimes files medication-guide text under
/// `boxed_warning`, and text that does not open with "WARNING" is not a box.
pub fn boxed_title(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let offset = text.len() - t.len();
    if !t.to_ascii_uppercase().starts_with("WARNING") {
        return None;
    }
    // the title is the run of upper-case words; a word that repeats one of the title
    // (a subheading) or that starts the first sentence (followed by a lower-case word)
    // ends it
    let words: Vec<(usize, &str)> = t
        .split(' ')
        .scan(0usize, |pos, w| {
            let at = *pos;
            *pos += w.len() + 1;
            Some((at, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let caps = |w: &str| w.chars().any(char::is_alphabetic) && !w.chars().any(char::is_lowercase);
    let mut end = 0;
    let mut seen: Vec<&str> = Vec::new();
    for (k, (at, w)) in words.iter().enumerate() {
        if !caps(w) || (k > 1 && seen.contains(w)) {
            break;
        }
        let next_lower = words
            .get(k + 1)
            .is_some_and(|(_, n)| n.chars().next().is_some_and(char::is_lowercase));
        if k > 1 && next_lower {
            break;
        }
        seen.push(w);
        end = at + w.len();
    }
    let title = t[..end].trim_end_matches([',', ';', ':']);
    (title.len() > "WARNING".len()).then(|| &text[offset..offset + title.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    const HUMIRA_AR: &str = "6 ADVERSE REACTIONS The most serious adverse reactions described elsewhere in the labeling include the following: Serious Infections [see Warnings and Precautions (5.1)] Malignancies [see Warnings and Precautions (5.2)] Most common adverse reactions (incidence >10%): infections (e.g. upper respiratory, sinusitis), injection site reactions, headache and rash (6.1) To report SUSPECTED ADVERSE REACTIONS, contact AbbVie Inc. at 1-800-633-9110";
    const VYVANSE_AR: &str = "6 ADVERSE REACTIONS The following adverse reactions are discussed [see Warnings and Precautions (5.6)] Most common adverse reactions (incidence ≥5% and at a rate at least twice placebo) in children, adolescents, and/or adults with ADHD were anorexia, anxiety, and vomiting (6.1) Most common adverse reactions (incidence ≥ 5% and at a rate at least twice placebo) in adults with BED were dry mouth, insomnia, and anxiety (6.1) To report SUSPECTED ADVERSE REACTIONS";

    #[test]
    fn common_adverse_reactions_are_whole_statements() {
        assert_eq!(
            common_adverse_reactions(HUMIRA_AR),
            vec![
                "Most common adverse reactions (incidence >10%): infections (e.g. upper respiratory, sinusitis), injection site reactions, headache and rash (6.1)"
            ]
        );
        let v = common_adverse_reactions(VYVANSE_AR);
        assert_eq!(v.len(), 2, "{v:?}");
        assert!(v[0].ends_with("and vomiting (6.1)") && v[0].contains("and/or adults"));
        assert!(v[1].contains("adults with BED") && v[1].ends_with("(6.1)"));
        for s in &v {
            assert!(VYVANSE_AR.contains(s));
        }
        // lower-case only: the sentence that holds it, whole
        assert_eq!(
            common_adverse_reactions(
                "Intro text. The most common adverse reactions were rash and fever. Other."
            ),
            vec!["The most common adverse reactions were rash and fever."]
        );
        // too long to keep whole: nothing rather than a cut
        let long = format!(
            "Most common adverse reactions were {}.",
            "rash, ".repeat(400)
        );
        assert!(common_adverse_reactions(&long).is_empty());
    }

    #[test]
    fn indications_are_one_statement_each_without_headings() {
        let t = "1 INDICATIONS AND USAGE HUMIRA is a tumor necrosis factor (TNF) blocker indicated for treatment of: Rheumatoid Arthritis (RA) (1.1): Reducing signs and symptoms in adult patients with moderately to severely active RA. Uveitis (UV) (1.10) : The treatment of non-infectious uveitis. 1.1 Rheumatoid Arthritis HUMIRA is indicated for reducing signs and symptoms in adult patients with moderately to severely active rheumatoid arthritis. HUMIRA can be used alone. 1.5 Adult Crohn’s Disease HUMIRA is indicated for reducing signs and symptoms of Crohn’s disease. HUMIRA is indicated for inducing clinical remission in these patients if they have also lost response to infliximab. 1.10 Uveitis HUMIRA is indicated for the treatment of non-infectious intermediate, posterior and panuveitis in adult patients.";
        let got = indications(t, &["HUMIRA", "adalimumab"]);
        let pairs: Vec<(&str, &str)> = got
            .iter()
            .map(|i| (i.heading.as_str(), i.statement))
            .collect();
        assert_eq!(
            pairs,
            vec![
                (
                    "1.1 Rheumatoid Arthritis",
                    "HUMIRA is indicated for reducing signs and symptoms in adult patients with moderately to severely active rheumatoid arthritis."
                ),
                (
                    "1.5 Adult Crohn’s Disease",
                    "HUMIRA is indicated for reducing signs and symptoms of Crohn’s disease."
                ),
                (
                    "1.5 Adult Crohn’s Disease",
                    "HUMIRA is indicated for inducing clinical remission in these patients if they have also lost response to infliximab."
                ),
                (
                    "1.10 Uveitis",
                    "HUMIRA is indicated for the treatment of non-infectious intermediate, posterior and panuveitis in adult patients."
                ),
            ]
        );
        // a label without subsections: the statement starts at the drug's name, not at
        // the section heading
        let ambien = "1 INDICATIONS AND USAGE Ambien (zolpidem tartrate) is indicated for the short-term treatment of insomnia characterized by difficulties with sleep initiation. Ambien has been shown to decrease sleep latency. Ambien is indicated for the short-term treatment of insomnia characterized by difficulties with sleep initiation. (1)";
        let got = indications(ambien, &["Ambien", "zolpidem"]);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].heading, "");
        assert_eq!(
            got[0].statement,
            "Ambien (zolpidem tartrate) is indicated for the short-term treatment of insomnia characterized by difficulties with sleep initiation."
        );
    }

    #[test]
    fn limitations_of_use_and_restated_summaries_are_no_indications() {
        let vyvanse = "1 INDICATIONS AND USAGE VYVANSE® is indicated for the treatment of: Attention Deficit Hyperactivity Disorder (ADHD) [see Clinical Studies (14.1)] Moderate to Severe Binge Eating Disorder (BED) [see Clinical Studies (14.2)]. Limitation of Use: VYVANSE is not indicated or recommended for weight loss. Use of other drugs has been associated with events. VYVANSE is a central nervous system (CNS) stimulant indicated for the treatment of (1): Attention Deficit Hyperactivity Disorder (ADHD) Moderate to Severe Binge Eating Disorder (BED) Limitation of Use: VYVANSE is not indicated for weight loss.";
        let got = indications(vyvanse, &["VYVANSE"]);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0]
                .statement
                .starts_with("VYVANSE® is indicated for the treatment of:")
        );
        assert!(
            got[0]
                .statement
                .ends_with("(BED) [see Clinical Studies (14.2)].")
        );
    }

    #[test]
    fn a_boxed_warning_is_a_box_with_a_title() {
        assert_eq!(
            boxed_title(
                "WARNING: SERIOUS INFECTIONS AND MALIGNANCY SERIOUS INFECTIONS Patients treated with HUMIRA are at increased risk"
            ),
            Some("WARNING: SERIOUS INFECTIONS AND MALIGNANCY")
        );
        assert_eq!(
            boxed_title(
                "WARNING: ABUSE AND DEPENDENCE CNS stimulants (amphetamines and methylphenidate-containing products), including VYVANSE, have a high potential"
            ),
            Some("WARNING: ABUSE AND DEPENDENCE")
        );
        // medication-guide text filed under boxed_warning is not a boxed warning
        assert_eq!(
            boxed_title(
                "AMBIEN is a federally controlled substance (C-IV) because it can be abused or lead to dependence."
            ),
            None
        );
        assert_eq!(boxed_title("WARNING"), None);
    }
}
