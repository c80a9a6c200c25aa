//! The entailment rules on a quote read as text. For each principal number of the value
//! (a number with its unit, or the value's only number), the [`binder`](super::binder)
//! finds the clause the number sits in, and the rules compare what that clause binds to
//! it (unit, arm, dose group, regimen, dose phase, time point, endpoint, population) with
//! what the claim says. The value's own clause for the same number says what the claim
//! binds to it ("80 mg initial dose, then 40 mg every other week": 80 is the initial
//! dose, 40 the later one). Direction and negation are read over the clauses that share
//! the value's words.

use std::collections::HashSet;

use super::binder::{Kind, Text, TimePoint, Token};
use super::tables::{Lexicon, is_unit_word};
use super::{
    AGE_GROUPS, COMPARATORS, Claim, Context, DOWN, Entailment, GENERIC, LOADING, MAINTENANCE,
    NEGATIONS, Rule, STRONG_SUBGROUP, SUBGROUP, Scope, UP, age_groups, any_negation, claim_unit,
    claimed_name, claimed_words, distinctive, doses, negation_at, overall, words,
};
use crate::run::evidence::EvidenceRecord;
use crate::run::profile;

/// An arm mention of a quote: which token, and whether it names the claimed arm.
#[derive(Clone, Debug)]
pub(super) struct Mention {
    at: usize,
    claimed: bool,
    word: String,
}

fn mentions(t: &Text<'_>, claimed: &[String], others: &[String]) -> Vec<Mention> {
    let mut out: Vec<Mention> = Vec::new();
    for (i, tok) in t.tokens.iter().enumerate() {
        if tok.kind != Kind::Word {
            continue;
        }
        // "placebo-controlled trials" name a design, "the non-MTX stratum" and "the
        // MTX stratum" a population, not a group
        // ("placebo-subtracted difference", "placebo-adjusted": a difference from a
        // group is not that group's number)
        if (t.tokens.get(i + 1).is_some_and(|x| x.text == "-")
            && t.word(i + 2).is_some_and(|w| {
                matches!(w, "controlled" | "subtracted" | "adjusted" | "corrected")
            }))
            || (i >= 2 && t.tokens[i - 1].text == "-" && t.word(i - 2) == Some("non"))
            || t.word(i + 1)
                .is_some_and(|w| matches!(w, "stratum" | "strata" | "subgroup" | "cohort"))
            // "patients receiving concomitant MTX", "patients not receiving methotrexate":
            // a therapy beside the group's, or one it lacks, is no group
            || (i >= 1 && matches!(t.word(i - 1), Some("concomitant" | "without")))
            // "with MTX (37% vs. 65%)": a therapy whose parenthesis compares the groups
            // is the stratum the groups are compared in
            || (i >= 1 && t.word(i - 1) == Some("with") && compared_aside(t, i + 1))
            || (i >= 2 && t.word(i - 1) == Some("receiving") && t.word(i - 2) == Some("not"))
            // "an inadequate response to MTX": a therapy the patients had before, not a
            // group of the trial
            || (i >= 3
                && t.word(i - 1) == Some("to")
                && t.word(i - 2) == Some("response")
                && matches!(t.word(i - 3), Some("inadequate" | "incomplete" | "insufficient")))
        {
            continue;
        }
        let w = if tok.lower == "pbo" {
            "placebo"
        } else {
            tok.lower.as_str()
        };
        let claimed_hit = claimed.iter().any(|c| names(w, c, tok.text));
        let other_hit =
            !claimed_hit && (others.iter().any(|c| names(w, c, tok.text)) || drug_like(w));
        if claimed_hit || other_hit {
            // one mention per run of words of the same side ("certolizumab pegol"), and
            // per claimed name of a form ("an oral solution of zolpidem")
            if let Some(last) = out.last_mut()
                && last.claimed == claimed_hit
                && (last.at + 1 == i
                    || (claimed_hit && last.at + 2 == i && t.word(i - 1) == Some("of")))
            {
                last.at = i;
                // a claimed run goes by the claimed arm's first word it holds ("oral
                // solution of zolpidem" is zolpidem's, as "zolpidem" alone is)
                let rank = |w: &str| claimed.iter().position(|c| names(&w.to_lowercase(), c, w));
                if claimed_hit
                    && rank(tok.text).is_some_and(|r| rank(&last.word).is_none_or(|l| r < l))
                {
                    last.word = tok.text.to_string();
                }
                continue;
            }
            out.push(Mention {
                at: i,
                claimed: claimed_hit,
                word: tok.text.to_string(),
            });
        }
    }
    out
}

/// Whether a parenthesis opens at `k` and compares ("(37% vs. 65%)").
fn compared_aside(t: &Text<'_>, k: usize) -> bool {
    let Some(open) = t.tokens.get(k).filter(|x| x.text == "(") else {
        return false;
    };
    let inner = open.depth + 1;
    (k + 1..t.tokens.len())
        .take_while(|&j| t.tokens[j].depth >= inner)
        .any(|j| matches!(t.word(j), Some("vs" | "versus")))
}

/// The mention a number is bound to in a text: a parallel list ("39% 4%" under
/// "VYVANSE Placebo"), else the nearest in its clause, else the group before its
/// parenthesis, else the text's only group. `Err` when the text names several groups
/// and none is bound.
fn bind_arm<'m>(t: &Text<'_>, at: usize, ms: &'m [Mention]) -> Result<Option<&'m Mention>, ()> {
    // a number in a parenthesis of numbers alone restates the one before it ("Fifty-one
    // percent (51%) (48/95) of patients in the low dose group"): its clause is the
    // sentence's around the parenthesis
    let clause = match numbers_aside(t, at) {
        Some(open) => t.clause(open),
        None => t.clause(at),
    };
    let mut distinct: Vec<&Mention> = Vec::new();
    for m in ms {
        if !distinct
            .iter()
            .any(|d| d.claimed == m.claimed && d.word.eq_ignore_ascii_case(&m.word))
        {
            distinct.push(m);
        }
    }
    let (group, pos) = t.parallel_numbers(at);
    if let Some(m) = header_group(t, at, ms) {
        return Ok(Some(m));
    }
    // "59% and 42% respectively, in the HUMIRA group, compared to 1% and 0% respectively,
    // in the placebo group": a list of measures for one group, named right after it
    if group.len() >= 2
        && let Some(&last) = group.last()
    {
        let mut k = last + 1;
        while k < t.tokens.len() && (t.tokens[k].text == "%" || is_unit_word(&t.tokens[k].lower)) {
            k += 1;
        }
        if t.word(k) == Some("respectively")
            && let Some(m) = ms.iter().find(|m| m.at > k && m.at <= k + 5)
        {
            return Ok(Some(m));
        }
    }
    // a dose written before the drug it doses ("Doses of placebo, 20 or 40 mg HUMIRA")
    {
        let mut k = group[group.len() - 1] + 1;
        if t.word(k).is_some_and(mass_word) {
            k += 1;
            while t.tokens.get(k).is_some_and(|x| x.text == "/") && t.word(k + 1).is_some() {
                k += 2;
            }
            if t.word(k) == Some("of") {
                k += 1;
            }
            if let Some(m) = ms.iter().find(|m| m.at == k) {
                return Ok(Some(m));
            }
        }
    }
    // a list in a parenthesis right after a group is that group's ("a daily dose of
    // VYVANSE (30, 50 or 70mg/day), an active control, or placebo"), unless the group
    // ends a list of groups ("HUMIRA and placebo (25% and 10%)") or the list compares
    // ("… when compared to controls (3% vs. 1%)")
    let depth = t.tokens[at].depth;
    let compares = |from: usize, to: usize| {
        (from..to).any(|k| matches!(t.word(k), Some("vs" | "versus" | "compared" | "than")))
    };
    if group.len() >= 2
        && depth > 0
        && !compares(group[0], group[group.len() - 1])
        && let Some(open) = (0..group[0]).rev().find(|&k| t.tokens[k].depth < depth)
        && t.tokens[open].text == "("
        && let Some(m) = ms.iter().find(|m| m.at + 1 == open)
        && !m.at.checked_sub(1).is_some_and(|k| {
            t.tokens[k].text == "," || matches!(t.word(k), Some("and" | "or" | "vs" | "versus"))
        })
    {
        return Ok(Some(m));
    }
    // a list matched to time points ("47% and 49% at Weeks 12 and 24") is no list of
    // groups, nor is a range or a list of thresholds ("between 40 and 60 mL/min",
    // "desaturation below 80% and 90%")
    let bounds = group[0].checked_sub(1).is_some_and(|k| {
        matches!(
            t.tokens[k].lower.as_str(),
            "between" | "below" | "above" | "under" | "over" | "from" | "<" | ">" | "≤" | "≥"
        ) || (matches!(t.word(k), Some("than"))
            && k >= 1
            && matches!(t.word(k - 1), Some("less" | "greater" | "more" | "fewer")))
    });
    if group.len() >= 2
        && distinct.len() == group.len()
        && !bounds
        && t.respective_time(at).is_none()
    {
        return Ok(Some(distinct[pos]));
    }
    // a mention inside a parenthesis is the number's only when the parenthesis opens
    // right after the number ("40% (HUMIRA)"), not a group the text names aside ("22% …
    // (placebo 6%)")
    // ("81% (chemotherapy 67%)": a group with a number of its own in the parenthesis is
    // the comparator's aside)
    let own_aside = |m: &Mention| {
        let d = t.tokens[m.at].depth;
        let its_own_number = || {
            (m.at..t.tokens.len())
                .take_while(|&k| t.tokens[k].depth >= d)
                .any(|k| t.tokens[k].kind == Kind::Number)
        };
        d <= depth
            || (0..m.at)
                .rev()
                .find(|&k| t.tokens[k].depth < d)
                .is_some_and(|open| open > at && open <= at + 3 && !its_own_number())
    };
    let in_clause: Vec<&Mention> = ms
        .iter()
        .filter(|m| clause.contains(&m.at) && own_aside(m))
        .collect();
    if !in_clause.is_empty() {
        return Ok(in_clause
            .iter()
            .min_by_key(|m| (m.at.abs_diff(at), m.at < at))
            .copied());
    }
    if t.tokens[at].depth > 0
        && let Some(open) = (0..at)
            .rev()
            .find(|&k| t.tokens[k].depth < t.tokens[at].depth)
        && let Some(m) = ms.iter().find(|m| m.at + 1 == open)
    {
        // "dacarbazine (1000 mg per square meter)": the group just before the parenthesis
        return Ok(Some(m));
    }
    if distinct.iter().all(|m| m.claimed) {
        return Ok(distinct.first().copied());
    }
    // another group named outside the number's clause does not take the number
    if distinct.len() == 1 {
        return Ok(None);
    }
    Err(())
}

/// The opening of the parenthesis the number at `at` stands in, when it holds nothing
/// but numbers, their units and signs ("(51%)", "(48/95)") and restates the number
/// before it.
fn numbers_aside(t: &Text<'_>, at: usize) -> Option<usize> {
    let depth = t.tokens[at].depth;
    if depth == 0 {
        return None;
    }
    let open = (0..at).rev().find(|&k| t.tokens[k].depth < depth)?;
    let close = (at..t.tokens.len())
        .find(|&k| t.tokens[k].depth < depth)
        .unwrap_or(t.tokens.len());
    // and it follows a number (spelled or not) or another such parenthesis: "dizziness
    // (5%)" gives the number of the word before it
    let restates = open.checked_sub(1).is_some_and(|k| {
        let x = &t.tokens[k];
        x.kind == Kind::Number || is_unit_word(&x.lower) || matches!(x.text, ")" | "%")
    });
    (restates
        && t.tokens[open].text == "("
        && t.tokens[open + 1..close]
            .iter()
            .all(|x| x.kind != Kind::Word || is_unit_word(&x.lower)))
    .then_some(open)
}

/// A table header of as many groups as the row of the number at `at` has numbers, each
/// with its count ("Zolpidem (≤10 mg) (N=152) Placebo (N=161) … Depression 2 1"), read
/// even when the text names the groups elsewhere too: the group of the number's column.
fn header_group<'m>(t: &Text<'_>, at: usize, ms: &'m [Mention]) -> Option<&'m Mention> {
    let (group, pos) = t.parallel_numbers(at);
    if group.len() >= 2 && t.respective_time(at).is_none() {
        let before: Vec<&Mention> = ms.iter().filter(|m| m.at < group[0]).collect();
        if let Some(head) = before.get(before.len().saturating_sub(group.len())..)
            && head.len() == group.len()
        {
            let counts = |a: usize, b: usize| {
                (a..b.saturating_sub(1))
                    .filter(|&k| t.word(k) == Some("n") && t.tokens[k + 1].text == "=")
                    .count()
            };
            // one count after each group's name, and no other between the header and the
            // row; and the header starts with them (no counted group before the first)
            let columns = head.iter().enumerate().all(|(i, m)| {
                let next = head.get(i + 1).map_or(group[0], |n| n.at);
                counts(m.at, next) == 1
            });
            let whole = before.len() == head.len()
                || counts(before[before.len() - head.len() - 1].at, head[0].at) == 0;
            let both_sides = head.iter().any(|m| m.claimed) && head.iter().any(|m| !m.claimed);
            if columns && whole && both_sides {
                return Some(head[pos]);
            }
        }
    }
    None
}

/// Whether word `w` (written `text`) names `c`: the same word, its plural ("controls"),
/// or a capitalized name with a footnote mark glued on ("HUMIRAc", "MTXb").
fn names(w: &str, c: &str, text: &str) -> bool {
    w == c
        || (c.len() >= 4 && w.strip_suffix('s') == Some(c))
        || (w.len() > c.len()
            && w.len() - c.len() <= 2
            && w.starts_with(c)
            && text[..c.len()].chars().all(|ch| !ch.is_lowercase()))
}

/// The column of a table header that names the claimed arm best: named words count for
/// it, other groups' names against it. None when no column names it or two tie.
pub(super) fn best_column(
    labels: &[String],
    claimed: &[String],
    others: &[String],
) -> Option<usize> {
    let score = |label: &str| -> i32 {
        let t = Text::new(label);
        t.tokens
            .iter()
            .filter(|x| x.kind == Kind::Word)
            .map(|x| {
                let w = x.lower.as_str();
                if claimed.iter().any(|c| names(w, c, x.text)) {
                    2
                } else if others.iter().any(|c| names(w, c, x.text)) || drug_like(w) {
                    -1
                } else {
                    0
                }
            })
            .sum()
    };
    let scores: Vec<i32> = labels.iter().map(|l| score(l)).collect();
    let best = *scores.iter().max()?;
    (best > 0 && scores.iter().filter(|s| **s == best).count() == 1)
        .then(|| scores.iter().position(|s| *s == best))
        .flatten()
}

/// Stems that international nonproprietary names end with: a word ending so is another
/// drug's name when it is not the claimed arm's ("49.0% with imatinib").
const DRUG_SUFFIXES: &[&str] = &[
    "tinib",
    "rafenib",
    "ciclib",
    "parib",
    "lisib",
    "zomib",
    "mab",
    "cept",
    "kinra",
    "glutide",
    "gliptin",
    "gliflozin",
    "taxel",
    "platin",
    "rubicin",
    "mycin",
    "cillin",
    "floxacin",
    "conazole",
    "prazole",
    "sartan",
    "pril",
    "olol",
    "statin",
    "vir",
    "tide",
    "parin",
    "triptan",
    "setron",
    "lukast",
    "dronate",
    "tidine",
    "zepam",
    "azepam",
    "afil",
    "barbital",
    "semide",
    "thiazide",
    "dipine",
    "oxetine",
    "pramine",
    "peridol",
    "apine",
    "idone",
    "amide",
    "azine",
    "nib",
];

pub(super) fn drug_like(w: &str) -> bool {
    w.len() >= 6
        && w.chars().all(|c| c.is_ascii_lowercase())
        && DRUG_SUFFIXES.iter().any(|s| w.ends_with(s))
}

/// Whether each whole occurrence of `n` in `s` carries a minus sign: `Some(true)` when
/// all do, `Some(false)` when none does, `None` when absent or mixed. A hyphen between
/// two numbers ("0.33-0.63") is a range, not a sign.
fn negative(s: &str, n: &str) -> Option<bool> {
    let b = s.as_bytes();
    let mut seen = (false, false);
    for (pos, _) in s.match_indices(n) {
        let before = s[..pos].chars().next_back();
        let after = s[pos + n.len()..].chars().next();
        if before.is_some_and(|c| c.is_ascii_digit() || c == '.' || c.is_alphabetic())
            || after.is_some_and(|c| c.is_ascii_digit())
            || (after == Some('.') && b.get(pos + n.len() + 1).is_some_and(u8::is_ascii_digit))
        {
            continue;
        }
        // an en dash before a number with no range before it is a minus sign ("(–73%)")
        let minus = matches!(before, Some('-' | '−' | '–'))
            && s[..pos]
                .chars()
                .rev()
                .nth(1)
                .is_none_or(|c| !c.is_ascii_digit() && !c.is_alphabetic());
        if minus {
            seen.0 = true;
        } else {
            seen.1 = true;
        }
    }
    only(seen.0, seen.1)
}

/// `Some(true)` when only `a` holds, `Some(false)` when only `b` does, else None: what a
/// reader of one of two sides says when the text names one side alone.
fn only(a: bool, b: bool) -> Option<bool> {
    (a != b).then_some(a)
}

/// The sign of a number: "-1.62" in the source is a fall; a claim of "increased by 1.62"
/// or of "+1.62" says the opposite.
pub(super) fn sign(c: &Claim, vt: &Text<'_>) -> Option<String> {
    let quote = c.quote.as_deref().unwrap_or("");
    let vw: Vec<&str> = vt.tokens.iter().map(|x| x.lower.as_str()).collect();
    let up = vw.iter().any(|w| UP.contains(w));
    let down = vw.iter().any(|w| DOWN.contains(w));
    for x in vt.tokens.iter().filter(|x| x.kind == Kind::Number) {
        let (Some(q), Some(v)) = (negative(quote, x.text), negative(&c.value, x.text)) else {
            continue;
        };
        if q && !v && up && !down {
            return Some(format!(
                "the quote gives -{}, a fall; the claim states a rise",
                x.text
            ));
        }
        if q != v && !up && !down {
            return Some(format!(
                "the quote gives {}{}, the claim {}{}",
                if q { "-" } else { "" },
                x.text,
                if v { "-" } else { "" },
                x.text
            ));
        }
    }
    None
}

/// The arm words of a claim and of the other groups a quote may name.
fn sides(c: &Claim, scope: Option<&Scope>) -> (Vec<String>, Vec<String>) {
    let mut claimed = claimed_words(c, scope);
    // an arm named by the asset's generic name is also its brand ("zolpidem" is Ambien)
    if let Some(s) = scope {
        let names: Vec<String> = s.names.iter().flat_map(|n| distinctive(n)).collect();
        if claimed.iter().any(|w| names.contains(w)) {
            for n in names {
                if !claimed.contains(&n) {
                    claimed.push(n);
                }
            }
        }
    }
    let mut others: Vec<String> = COMPARATORS.iter().map(|s| s.to_string()).collect();
    if c.arm.as_deref().is_some_and(|a| !distinctive(a).is_empty())
        && let Some(s) = scope
    {
        others.extend(s.names.iter().flat_map(|n| distinctive(n)));
    }
    // an arm set apart by a level ("high maintenance dose") has the other level for a
    // rival ("the low maintenance dose group")
    for (a, b) in [
        ("high", "low"),
        ("higher", "lower"),
        ("low", "high"),
        ("lower", "higher"),
    ] {
        if claimed.iter().any(|w| w == a) && !claimed.iter().any(|w| w == b) {
            others.push(b.to_string());
        }
    }
    others.retain(|w| !claimed.contains(w));
    (claimed, others)
}

/// A dosing regimen named at tokens of a text: `q2w`, `qd`, `bid`, `biw`, `q3w`…
fn regimen_at(t: &Text<'_>, i: usize) -> Option<(String, usize)> {
    let w = |k: usize| t.word(k).unwrap_or("");
    let num = |k: usize| {
        t.tokens
            .get(k)
            .filter(|x| x.kind == Kind::Number)
            .map(|x| x.lower.clone())
    };
    let unit = |s: &str| match s {
        "week" | "weeks" | "wk" => Some('w'),
        "day" | "days" => Some('d'),
        "month" | "months" => Some('m'),
        "hour" | "hours" | "h" => Some('h'),
        _ => None,
    };
    let here = w(i);
    match here {
        "every" | "each" => {
            if w(i + 1) == "other" {
                return unit(w(i + 2)).map(|u| (format!("q2{u}"), 3));
            }
            // "every 2 weeks", "every two weeks"
            let spelled = super::binder::spelled_as_digits(w(i + 1));
            let n = num(i + 1).or_else(|| {
                (spelled.bytes().all(|b| b.is_ascii_digit()) && !spelled.is_empty())
                    .then(|| spelled.into_owned())
            });
            if let Some(n) = n {
                return unit(w(i + 2)).map(|u| (format!("q{n}{u}"), 3));
            }
            unit(w(i + 1)).map(|u| (format!("q1{u}"), 2))
        }
        "twice" => match w(i + 1) {
            "daily" => Some(("bid".into(), 2)),
            "weekly" => Some(("biw".into(), 2)),
            "a" => match w(i + 2) {
                "day" => Some(("bid".into(), 3)),
                "week" => Some(("biw".into(), 3)),
                _ => None,
            },
            _ => None,
        },
        "once" => match w(i + 1) {
            "daily" => Some(("q1d".into(), 2)),
            "weekly" => Some(("q1w".into(), 2)),
            "-" if w(i + 2) == "daily" => Some(("q1d".into(), 3)),
            "a" if w(i + 2) == "day" => Some(("q1d".into(), 3)),
            "a" if w(i + 2) == "week" => Some(("q1w".into(), 3)),
            _ => None,
        },
        // "3 times a day", "3-4 times a day", "4 times daily": the most it says
        _ if num(i).is_some() && w(i + 1) == "times" => {
            let n = num(i)?;
            let daily = |len| {
                let code = match n.as_str() {
                    "1" => "q1d".to_string(),
                    "2" => "bid".to_string(),
                    "3" => "tid".to_string(),
                    _ => format!("{n}xd"),
                };
                Some((code, len))
            };
            match (w(i + 2), w(i + 3)) {
                ("daily", _) => daily(3),
                ("a" | "per", "day") => daily(4),
                _ => None,
            }
        }
        "daily" | "qd" | "od" => Some(("q1d".into(), 1)),
        "weekly" | "qw" => Some(("q1w".into(), 1)),
        "bid" => Some(("bid".into(), 1)),
        "tid" => Some(("tid".into(), 1)),
        "biw" => Some(("biw".into(), 1)),
        _ => {
            // q2w, q4w, q3d
            let b = here.as_bytes();
            (b.len() >= 3
                && b[0] == b'q'
                && b[1..b.len() - 1].iter().all(u8::is_ascii_digit)
                && matches!(b[b.len() - 1], b'w' | b'd' | b'm' | b'h'))
            .then(|| (here.to_string(), 1))
        }
    }
}

/// Regimens in tokens `r`, with their positions (a "twice daily" is not also "daily").
fn regimens(t: &Text<'_>, r: std::ops::Range<usize>) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut i = r.start;
    while i < r.end {
        match regimen_at(t, i) {
            Some((g, n)) => {
                out.push((i, g));
                i += n;
            }
            None => i += 1,
        }
    }
    out
}

/// Whether token `k` is a dose: a number with a dose unit after it, not a concentration
/// ("15 µg/mL").
fn is_dose_number(t: &Text<'_>, k: usize) -> bool {
    t.tokens[k].kind == Kind::Number
        && matches!(
            t.word(k + 1),
            Some("mg" | "mcg" | "µg" | "μg" | "g" | "ml" | "units" | "iu")
        )
        && !per_volume(t, k + 1)
}

/// Whether the unit at `u` is per volume ("µg/mL", "mg / dL"), a concentration, or a
/// volume per time ("60 mL/min"), a rate: no dose either way.
fn per_volume(t: &Text<'_>, u: usize) -> bool {
    t.tokens.get(u + 1).is_some_and(|x| x.text == "/")
        && (matches!(t.word(u + 2), Some("ml" | "l" | "dl"))
            || matches!(t.word(u), Some("ml" | "l")))
}

/// The part of range `r` that speaks of the number at `at` alone: between the doses
/// before and after it at its depth ("40 mg every other week from Day 29, after 160 mg on
/// Day 1": Day 1 is the 160 mg's).
fn dose_segment(t: &Text<'_>, at: usize, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let depth = t.tokens[at].depth;
    let other = |k: &usize| *k != at && t.tokens[*k].depth <= depth && is_dose_number(t, *k);
    let start = (r.start..at).rev().find(other).map_or(r.start, |k| k + 1);
    let end = (at + 1..r.end).find(other).unwrap_or(r.end);
    start..end
}

/// The regimen bound to the number at `at` in range `r`: the first after it with no other
/// dose between them ("40 mg on Day 15, 20 mg every other week": every other week is the
/// 20 mg's), else the last before it that follows no dose at all ("100 mg once daily after
/// a 200 mg dose": once daily is the 100 mg's). A dose inside a deeper parenthesis ("40 mg
/// (2 × 20 mg) every other week") is the same dose spelled out.
fn regimen_of(t: &Text<'_>, at: usize, r: std::ops::Range<usize>) -> Option<String> {
    let start = r.start;
    let all = regimens(t, r);
    let depth = t.tokens[at].depth;
    let dose_between =
        |a: usize, b: usize| (a..b).any(|k| t.tokens[k].depth <= depth && is_dose_number(t, k));
    all.iter()
        .find(|(i, _)| *i > at && !dose_between(at + 1, *i))
        .or_else(|| {
            all.iter()
                .rev()
                .find(|(i, _)| *i < at && !dose_between(start, *i) && !dose_between(*i + 1, at))
        })
        .map(|(_, g)| g.clone())
}

/// The arm mentions of a text ([`mentions`]).
#[cfg(test)]
pub(super) fn mentions_for_tests(
    t: &Text<'_>,
    claimed: &[String],
    others: &[String],
) -> Vec<Mention> {
    mentions(t, claimed, others)
}

/// The word of the group [`bind_arm`] binds the number at `at` to, among the mentions of
/// `claimed` and `others`.
#[cfg(test)]
pub(super) fn bound_group_for_tests(
    t: &Text<'_>,
    at: usize,
    claimed: &[String],
    others: &[String],
) -> Option<String> {
    let ms = mentions(t, claimed, others);
    bind_arm(t, at, &ms).ok().flatten().map(|m| m.word.clone())
}

#[cfg(test)]
pub(super) fn not_significant_for_tests(value: &str, quote: &str) -> Option<String> {
    not_significant(value, quote)
}

#[cfg(test)]
pub(super) fn dose_condition_for_tests(c: &Claim, t: &Text<'_>, at: usize) -> Option<String> {
    dose_condition(c, t, at)
}

#[cfg(test)]
pub(super) fn interval_for_tests(t: &Text<'_>) -> Option<((f64, bool), (f64, bool))> {
    condition_interval(t, 0..t.tokens.len())
}

#[cfg(test)]
pub(super) fn stretch_subgroups_for_tests(t: &Text<'_>, at: usize) -> Vec<String> {
    stretch_subgroups(t, at)
}

#[cfg(test)]
pub(super) fn conditional_denominator_for_tests(t: &Text<'_>, at: usize) -> Option<&'static str> {
    conditional_denominator(t, at).map(|(s, _)| s)
}

/// [`regimen_of`] the first `n` of a whole text.
#[cfg(test)]
pub(super) fn regimen_for_tests(t: &Text<'_>, n: &str) -> Option<String> {
    regimen_of(t, t.numbers_equal(n)[0], 0..t.tokens.len())
}

/// The clause of the enclosing text when `at` sits in parentheses.
fn outer(t: &Text<'_>, at: usize) -> Option<std::ops::Range<usize>> {
    let d = t.tokens[at].depth;
    if d == 0 {
        return None;
    }
    let k = (0..at).rev().find(|&k| t.tokens[k].depth < d)?;
    Some(t.clause(k))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Loading,
    Later,
    /// Both kinds of words ("100 mg maintenance after a 200 mg Day 1 dose").
    Mixed,
}

/// The dose phase tokens `r` speak of. A clause that opens with "followed by" or
/// "then" is a later phase whatever it says after ("…starting one week after the
/// initial dose").
fn phase(t: &Text<'_>, r: std::ops::Range<usize>) -> Option<Phase> {
    if t.opens_later_phase(r.start) {
        return Some(Phase::Later);
    }
    let ws: Vec<&str> = t.tokens[r.clone()]
        .iter()
        .map(|x| x.lower.as_str())
        .collect();
    let pair = |a: &str, b: &str| ws.windows(2).any(|p| p[0] == a && p[1] == b);
    let loading = ws.iter().any(|w| LOADING.contains(w))
        || pair("first", "dose")
        || pair("day", "1")
        || pair("week", "0")
        || pair("weeks", "0");
    let later = ws.iter().any(|w| MAINTENANCE.contains(w));
    match (loading, later) {
        (true, false) => Some(Phase::Loading),
        (false, true) => Some(Phase::Later),
        (true, true) => Some(Phase::Mixed),
        (false, false) => None,
    }
}

/// The dose phase the marker nearest to the number at `at` names, within `r`: in
/// "the starting dose is 30 mg/day … to the target dose of 50 to 70 mg/day", 30 is the
/// starting dose and 50 the target one. A clause that opens with "followed by" is later.
fn phase_near(t: &Text<'_>, r: std::ops::Range<usize>, at: usize) -> Option<Phase> {
    if t.opens_later_phase(r.start) {
        return Some(Phase::Later);
    }
    let mut best: Option<(usize, Phase)> = None;
    for i in r.clone() {
        let w = t.tokens[i].lower.as_str();
        let next = t.word(i + 1).unwrap_or("");
        let p = if LOADING.contains(&w) || (w == "first" && next == "dose") {
            Some(Phase::Loading)
        } else if (w == "day" && next == "1") || (matches!(w, "week" | "weeks") && next == "0") {
            Some(Phase::Loading)
        } else if MAINTENANCE.contains(&w) || matches!(w, "target" | "titrated" | "maximum") {
            Some(Phase::Later)
        } else {
            None
        };
        if let Some(p) = p {
            let d = i.abs_diff(at);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, p));
            }
        }
    }
    best.map(|(_, p)| p)
}

fn union(
    a: std::ops::Range<usize>,
    b: Option<std::ops::Range<usize>>,
) -> Vec<std::ops::Range<usize>> {
    let mut v = vec![a];
    v.extend(b);
    v
}

/// Whether value number `k` of the value text is principal (not a time point or a
/// regimen's count): the value's first or only number, or one followed by a unit.
fn principal(vt: &Text<'_>, k: usize, only: bool, cx: &Context<'_>) -> bool {
    // the 2 of a name such as "T1/2", the 36 of "SF-36", is no quantity
    let in_name = k >= 2
        && vt.tokens[k - 2].kind == Kind::Word
        && ((vt.tokens[k - 1].text == "/"
            && vt.tokens[k - 2].lower.ends_with(|c: char| c.is_ascii_digit()))
            // a name in capitals joined to its number ("SF-36", "COVID-19")
            || (vt.tokens[k - 1].text == "-"
                && vt.tokens[k - 2].text.len() >= 2
                && vt.tokens[k - 2].text.bytes().all(|c| c.is_ascii_uppercase())));
    // the 95 of "95% CI" is the interval's level
    let level = vt.tokens.get(k + 1).is_some_and(|x| x.text == "%")
        && matches!(vt.word(k + 2), Some("ci" | "confidence"));
    if level {
        return false;
    }
    // "PASI 75", "ASAS 40": an index in capitals and its threshold, no unit after it
    let threshold_name = k >= 1
        && vt.tokens[k - 1].kind == Kind::Word
        && vt.tokens[k - 1].text.len() >= 3
        && vt.tokens[k - 1]
            .text
            .bytes()
            .all(|c| c.is_ascii_uppercase())
        && vt.tokens.get(k + 1).is_none_or(|x| x.text != "%")
        && cx.units.at(vt, k + 1).is_none();
    // "survival of 1.5 months": a value's one number after "of" is the duration it
    // measures, though it reads as a time point
    let measured = only && k > 0 && vt.word(k - 1) == Some("of");
    if in_name
        || threshold_name
        || (vt.is_time_number(k) && !measured)
        || (k > 0
            && matches!(
                vt.word(k - 1),
                Some("every" | "day" | "week" | "weeks" | "month")
            ))
    {
        return false;
    }
    // the value's first number is its main quantity ("0.05 per 100 patient-years")
    let first = vt.tokens[..k].iter().all(|x| x.kind != Kind::Number);
    only || first || cx.units.at(vt, k + 1).is_some()
}

/// Whether number `k` of a value is a later one after a bound's sign: a threshold of
/// whom or what is counted ("10 mg daily (creatinine clearance ≥ 60 mL/min)"), which
/// no arm's number is, though its unit is still the claim's.
fn threshold(vt: &Text<'_>, k: usize) -> bool {
    let sign = |i: usize| bound_sign(vt.tokens[i].text);
    let first = vt.tokens[..k].iter().all(|x| x.kind != Kind::Number);
    !first && k >= 1 && (sign(k - 1) || (k >= 2 && vt.tokens[k - 1].text == "=" && sign(k - 2)))
}

/// Whether a token is the sign of a bound.
fn bound_sign(token: &str) -> bool {
    matches!(token, "≥" | "≤" | ">" | "<" | "≧" | "≦")
}

/// The age groups a claimed population names: by word or range ([`ages_in`]), and
/// "older adults" (or patients, subjects…) are the elderly as well.
fn claimed_ages(pop: &Text<'_>) -> Vec<usize> {
    let mut ages = ages_in(pop, 0..pop.tokens.len());
    if pop.tokens.iter().enumerate().any(|(i, x)| {
        x.lower == "older"
            && matches!(
                pop.word(i + 1),
                Some("adults" | "adult" | "patients" | "subjects" | "people" | "persons")
            )
    }) {
        ages.extend(age_groups(["elderly"]));
    }
    ages
}

/// The duration unit a row label gives in parentheses before the number at `at`, in
/// its sentence: "Median Time to Failure (Months) … 5.6".
fn row_label_duration<'t>(t: &'t Text<'t>, at: usize) -> Option<&'t str> {
    (1..at)
        .rev()
        .take_while(|&k| !matches!(t.tokens[k].text, "." | ";"))
        .filter(|&k| {
            t.tokens[k - 1].text == "(" && t.tokens.get(k + 1).is_some_and(|x| x.text == ")")
        })
        .map(|k| t.tokens[k].lower.as_str())
        .find(|w| super::binder::time_unit(w).is_some())
}

/// A word that is a unit of mass, as a dose is written ("40 mg", "200 mcg").
fn mass_word(w: &str) -> bool {
    matches!(w, "mg" | "mcg" | "µg" | "g")
}

/// Doses past a bound claimed as the bound itself: "predominantly at doses above 10 mg"
/// (or "above the recommended elderly dose of 5 mg") is not "at the recommended 10 mg
/// dose", unless the value says it is beyond too.
fn doses_beyond(vt: &Text<'_>, t: &Text<'_>) -> Option<String> {
    const BEYOND: &[&str] = &["above", "exceeding", "over", "higher", "greater", "more"];
    let beyond_in_value = vt.tokens.iter().any(|x| {
        BEYOND.contains(&x.lower.as_str()) || matches!(x.text, ">" | "≥" | "exceed" | "exceeds")
    });
    if beyond_in_value {
        return None;
    }
    for i in 0..t.tokens.len() {
        if !matches!(t.word(i), Some("dose" | "doses" | "dosages")) {
            continue;
        }
        let bound = match (t.word(i + 1), t.word(i + 2)) {
            (Some("above" | "exceeding" | "over"), _) => i + 2,
            (Some("higher" | "greater"), Some("than")) => i + 3,
            _ => continue,
        };
        // the bound's number, before the sentence or clause ends
        let Some(k) = (bound..t.tokens.len().min(bound + 8))
            .take_while(|&k| !matches!(t.tokens[k].text, "." | ";" | ","))
            .find(|&k| t.tokens[k].kind == Kind::Number)
        else {
            continue;
        };
        if !t.word(k + 1).is_some_and(mass_word) {
            continue;
        }
        let n = t.tokens[k].lower.as_str();
        if !vt.numbers_equal(n).is_empty() {
            return Some(format!(
                "the quote speaks of doses above {n} {}, and the claim of {n} {0} itself",
                t.tokens[k + 1].text
            ));
        }
    }
    None
}

/// A time the quote says an effect was not significant at ("… but was not significant at
/// 1 hour") is no time the claim may hold it significant at ("significantly improved …
/// from 1 to 12 hours post-dose").
pub(super) fn significant_where_not(value: &str, quote: &str) -> Option<String> {
    // a span's or a time's unit, hours among them (the time rules read days and up)
    let unit = |w: Option<&str>| match w? {
        "hour" | "hours" | "h" => Some("hour"),
        "day" | "days" => Some("day"),
        "week" | "weeks" => Some("week"),
        "month" | "months" => Some("month"),
        _ => None,
    };
    let num = |t: &Text<'_>, k: usize| -> Option<f64> {
        t.tokens
            .get(k)
            .filter(|x| x.kind == Kind::Number)
            .and_then(|x| x.lower.parse().ok())
    };
    let v = Text::new(value);
    let significant = |w: &str| w.starts_with("significant");
    let negated = (0..v.tokens.len()).any(|i| {
        v.word(i).is_some_and(significant)
            && matches!(
                i.checked_sub(1).and_then(|k| v.word(k)),
                Some("not" | "non")
            )
    }) || v.tokens.iter().any(|x| x.lower == "nonsignificant");
    if negated || !v.tokens.iter().any(|x| significant(&x.lower)) {
        return None;
    }
    // the value's spans of time: "from 1 to 12 hours", "hours 1-12"
    let spans: Vec<(f64, f64, &str)> = (0..v.tokens.len())
        .filter_map(|i| {
            let (lo, hi) = (num(&v, i)?, num(&v, i + 2)?);
            if !super::binder::range_link(&v, i + 1) {
                return None;
            }
            let u =
                unit(v.word(i + 3)).or_else(|| unit(i.checked_sub(1).and_then(|k| v.word(k))))?;
            Some((lo, hi, u))
        })
        .collect();
    // the quote's "not (statistically) significant at (hour) N (hours)"
    let q = Text::new(quote);
    for i in 0..q.tokens.len() {
        if q.word(i) != Some("not") {
            continue;
        }
        let mut k = i + 1;
        if q.word(k) == Some("statistically") {
            k += 1;
        }
        if !(q.word(k).is_some_and(significant) && q.word(k + 1) == Some("at")) {
            continue;
        }
        let mut j = k + 2;
        let before = unit(q.word(j));
        if before.is_some() {
            j += 1;
        }
        let (Some(at), Some(u)) = (num(&q, j), before.or_else(|| unit(q.word(j + 1)))) else {
            continue;
        };
        if let Some((lo, hi, _)) = spans
            .iter()
            .find(|(lo, hi, su)| *su == u && *lo <= at && at <= *hi)
        {
            return Some(format!(
                "the quote says the effect was not significant at {u} {at}, and the claim holds it significant from {lo} to {hi} {u}s"
            ));
        }
    }
    None
}

/// Numbers written as words, which the digit rules do not see.
const SPELLED: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "fifteen", "eighteen", "twenty", "thirty", "forty", "fifty",
];

/// A duration's unit: "30 months" in the quote is not "30 weeks", wherever the number
/// stands in the value, and "the first eight months" is not "the first eight weeks" (a
/// number written as a word is matched as that word).
fn duration_unit(vt: &Text<'_>, t: &Text<'_>) -> Option<String> {
    for k in 0..vt.tokens.len() {
        let x = &vt.tokens[k];
        let spelled = x.kind == Kind::Word && SPELLED.contains(&x.lower.as_str());
        if x.kind != Kind::Number && !spelled {
            continue;
        }
        let Some((w, u)) = vt
            .word(k + 1)
            .and_then(|w| super::binder::time_unit(w).map(|u| (w, u)))
        else {
            continue;
        };
        let n = x.lower.as_str();
        let at: Vec<usize> = if spelled {
            (0..t.tokens.len())
                .filter(|&i| t.tokens[i].lower == n)
                .collect()
        } else {
            t.numbers_equal(n)
        };
        let units: Vec<(&str, Option<f64>)> = at
            .into_iter()
            .map(|i| match t.word(i + 1) {
                Some(q) => (q, super::binder::time_unit(q)),
                // a table row's unit in its label: "Median Time to Failure (Months)
                // [95% CI] 3.0 [2.7, 3.7] 5.6 …" gives its durations in months
                None => row_label_duration(t, i)
                    .map_or(("", None), |q| (q, super::binder::time_unit(q))),
            })
            .collect();
        if !units.is_empty() && units.iter().all(|(_, q)| q.is_some_and(|q| q != u)) {
            return Some(format!("the quote gives {n} in {}, not in {w}", units[0].0));
        }
    }
    None
}

/// A quote cut from the end of a sentence ("were dizziness (5%) and drugged feelings
/// (3%)") is at the time its sentence opens with ("During longer-term treatment (28 to 35
/// nights) …"), when the quote names none itself: a claim at another time fails.
fn lead_in_time(
    c: &Claim,
    t: &Text<'_>,
    r: &EvidenceRecord,
    claim_tp: &[super::binder::TimePoint],
) -> Option<String> {
    if claim_tp.is_empty() || !t.time_points(0..t.tokens.len()).is_empty() {
        return None;
    }
    let sentence = lead_in(c, r)?;
    let sentence = sentence.trim();
    let lt = Text::new(sentence);
    let have: Vec<super::binder::TimePoint> = lt
        .time_points(0..lt.tokens.len())
        .into_iter()
        .map(|(_, tp)| tp)
        .collect();
    (!have.is_empty() && !claim_tp.iter().any(|a| have.iter().any(|b| a.same(*b)))).then(|| {
        format!(
            "the quote ends a sentence at another time point ({:?}), not at the claimed one",
            sentence
        )
    })
}

/// The opening of the sentence a quote is cut from, when the quote is a fragment: it
/// opens in lower case (a table's row or a sentence of its own opens with a capital),
/// or right after a comma of its sentence ("In the controlled trial in patients ages 6
/// to 12 years (Study 1), 9% (20/218) …"), after words of its sentence in its field. At
/// most 400 bytes.
fn lead_in<'r>(c: &Claim, r: &'r EvidenceRecord) -> Option<&'r str> {
    let q = c.quote.as_deref()?;
    let lead = text_before(r, q)?;
    let opens = q.trim_start();
    let fragment = opens.starts_with(|ch: char| ch.is_lowercase())
        || lead.ends_with(", ") && !opens.is_empty();
    if !fragment {
        return None;
    }
    // from the last full stop before it: a decimal point has no space after it, and an
    // abbreviation's ("U.S. and Canadian") follows a capital
    let b = lead.as_bytes();
    let start = (1..b.len().saturating_sub(2))
        .rev()
        .find(|&k| {
            b[k] == b'.'
                && b[k + 1] == b' '
                && (b[k - 1].is_ascii_lowercase()
                    || b[k - 1].is_ascii_digit()
                    || matches!(b[k - 1], b')' | b']'))
                && (b[k + 2].is_ascii_uppercase() || b[k + 2].is_ascii_digit())
        })
        .map_or(0, |k| k + 2);
    let opening = &lead[start..];
    (!opening.trim().is_empty() && opening.len() <= 400).then_some(opening)
}

/// A quote cut from a sentence that opens on a subgroup ("In a subgroup of 10,113 U.S.
/// and Canadian HUMIRA-treated patients, the rate …") counts that subgroup: the sentence
/// is read whole for whom the value's numbers count.
fn lead_in_population(
    c: &Claim,
    t: &Text<'_>,
    r: &EvidenceRecord,
    vt: &Text<'_>,
) -> Option<String> {
    let opening = lead_in(c, r)?;
    // only a sentence that says outright it is of a subgroup: what else its opening
    // holds is read by the rules on the quote alone
    let ot = Text::new(opening);
    let subgroup = ot.word(0) == Some("in")
        && matches!(ot.word(1), Some("a" | "the"))
        && matches!(ot.word(2), Some("subgroup" | "subset" | "subpopulation"));
    if !subgroup {
        return lead_in_ages(c, &ot, opening, false);
    }
    let whole = format!("{opening}{}", c.quote.as_deref()?);
    let wt = Text::new(&whole);
    // the quote's own tokens are the last ones of the whole
    let from = wt.tokens.len().checked_sub(t.tokens.len())?;
    (0..vt.tokens.len())
        .filter(|&k| vt.tokens[k].kind == Kind::Number)
        .flat_map(|k| wt.numbers_equal(&vt.tokens[k].lower))
        .filter(|&at| at >= from)
        .find_map(|at| stretch_population(c, &wt, at))
}

/// Words by which a quote points back to a population named before it.
const POINTING_BACK: &[&str] = &[
    "this patient population",
    "this population",
    "these patients",
    "these subjects",
    "this age group",
];

/// A quote that counts "this patient population" counts the population the sentences
/// before it in its field name ("… polyarticular JIA patients … Upon initiation of
/// treatment, the most common adverse reactions occurring in this patient population
/// …"): a claim for everyone fails when they name a group of their own (a condition's
/// initials, an age group), and a claim for a named population fails when they name
/// none of its words.
fn antecedent_population(c: &Claim, r: &EvidenceRecord) -> Option<String> {
    let q = c.quote.as_deref()?;
    let low = q.to_lowercase();
    let cue = POINTING_BACK.iter().find(|p| low.contains(*p))?;
    let before = text_before(r, q)?;
    // the two sentences before the quote's own
    let cut: Vec<usize> = before.match_indices(". ").map(|(k, _)| k + 2).collect();
    let from = match cut.len() {
        0..=2 => 0,
        n => cut[n - 3],
    };
    let antecedent = &before[from..];
    let at = Text::new(antecedent);
    let pop = c.population.as_deref().unwrap_or("");
    let own = words(&format!("{} {}", c.asset, c.arm.as_deref().unwrap_or("")));
    let group: Option<String> = if super::overall(Some(pop)) || pop.to_lowercase().contains("all ")
    {
        // a condition's initials ("JIA", "JIA-I") or an age group other than adults
        initials(antecedent)
            .into_iter()
            .find(|w| !own.contains(&w.to_lowercase()))
            .or_else(|| {
                ages_in(&at, 0..at.tokens.len())
                    .into_iter()
                    .find(|&g| super::AGE_GROUPS[g].0 != "adults")
                    .map(|g| super::AGE_GROUPS[g].0.to_string())
            })
    } else {
        let want: Vec<String> = distinctive(pop)
            .into_iter()
            .filter(|w| w.len() >= 4 && !own.contains(w) && !drug_like(w))
            .collect();
        let stems: Vec<&str> = at.tokens.iter().map(|x| stem(&x.lower)).collect();
        let pt = Text::new(pop);
        let ages = claimed_ages(&pt);
        let named = want.iter().any(|w| stems.contains(&stem(w)))
            || want
                .iter()
                .any(|w| super::initialism_in(w, &antecedent.to_lowercase()))
            || ages_in(&at, 0..at.tokens.len())
                .iter()
                .any(|g| ages.contains(g));
        if want.is_empty() || named {
            return None;
        }
        return Some(format!(
            "the quote counts {cue:?}, the population of the sentences before it ({:?}), and they do not name {pop:?}",
            antecedent.trim()
        ));
    };
    let group = group?;
    Some(format!(
        "the quote counts {cue:?}, which points back to {group} ({:?}), not to {pop:?}",
        antecedent.trim()
    ))
}

/// The words of a text written as initials, 2 to 5 capitals before any hyphen ("JIA",
/// "JIA-I", "BED").
fn initials(s: &str) -> Vec<String> {
    Text::new(s)
        .tokens
        .iter()
        .map(|x| x.text)
        .filter(|w| is_initials(w))
        .map(str::to_string)
        .collect()
}

/// Both sides name something and share nothing: the phrase a quote is of and the claim's
/// population name different patients.
fn named_apart(theirs: &[String], mine: &[String]) -> bool {
    !theirs.is_empty() && !mine.is_empty() && !mine.iter().any(|m| theirs.contains(m))
}

/// Whether a word is written as initials: 2 to 5 capitals before any hyphen.
fn is_initials(w: &str) -> bool {
    let letters = w.split('-').next().unwrap_or("");
    (2..=5).contains(&letters.len()) && letters.chars().all(|ch| ch.is_ascii_uppercase())
}

/// A quote that ends a sentence opening "… in adults with BED were" (a fragment: it opens
/// in lower case), or a whole sentence with a short "in … with … were" of its own, is of
/// the patients its last "in …" names: a claim for patients with another condition
/// ("ADHD") fails when both are named by initials and the phrase does not name the
/// claim's.
fn lead_in_condition(c: &Claim, r: &EvidenceRecord) -> Option<String> {
    let q = c.quote.as_deref()?;
    // the phrase may open the quote itself ("in adults with BED were dry mouth, …")
    let own = q
        .strip_prefix("in ")
        .and_then(|rest| rest.find(" were ").map(|k| &rest[..k]));
    let tail = match own {
        _ if !q.starts_with(|ch: char| ch.is_lowercase()) => {
            // a whole sentence that names them itself, in a short "in … with … were"
            // ("Most common adverse reactions (…) in adults with BED were dry mouth, …")
            let lead = &q[..q.find(" were ")?];
            let phrase = &lead[lead.rfind(" in ")? + 4..];
            // ("… in patients with JIA who were 4 to 17 years": a relative clause, not
            // the sentence's verb)
            if phrase.len() > 60
                || !phrase.contains(" with ")
                || phrase.contains([',', ';', '(', ')'])
                || phrase.ends_with(" who")
                || phrase.ends_with(" that")
            {
                return None;
            }
            phrase
        }
        Some(phrase) => phrase,
        None => {
            let lead = text_before(r, q)?;
            let from = lead.ceil_char_boundary(lead.len().saturating_sub(200));
            let near = &lead[from..];
            &near[near.rfind(" in ")? + 4..]
        }
    };
    if tail.contains(". ") || tail.contains(';') {
        return None;
    }
    let tail = tail
        .trim_end()
        .trim_end_matches(" were")
        .trim_end_matches(" was")
        .trim_end_matches(" are");
    let (theirs, mine) = (initials(tail), initials(c.population.as_deref()?));
    named_apart(&theirs, &mine).then(|| {
        format!(
            "the quote's sentence is of patients {:?}, not {:?}",
            tail.trim(),
            c.population.as_deref().unwrap_or("")
        )
    })
}

/// A table row is of the patients its caption names by a condition's initials ("Table 4
/// Adverse Reactions Reported by 2% or More of Adult Patients with BED …" above
/// "VYVANSE (N=373) Placebo (N=372) Dry Mouth 36% 7%"): a claim for patients with
/// another condition ("ADHD") fails when the quote names none of the claim's. Only a
/// quote still in the table: no sentence ends between the caption and it.
fn caption_condition(c: &Claim, r: &EvidenceRecord) -> Option<String> {
    let q = c.quote.as_deref()?;
    let mine = initials(c.population.as_deref()?);
    if mine.is_empty() || initials(q).iter().any(|w| mine.contains(w)) {
        return None;
    }
    let caption = caption_above(r, q)?;
    // ("Table 1. Adverse …": the caption's own number may end on a stop)
    if caption
        .get(10..)
        .is_some_and(|rest| rest.contains(". ") || rest.contains(".\n"))
    {
        return None;
    }
    let t = Text::new(caption);
    let theirs: Vec<String> = (1..t.tokens.len())
        .filter(|&k| t.word(k - 1) == Some("with") && is_initials(t.tokens[k].text))
        .map(|k| t.tokens[k].text.to_string())
        .collect();
    named_apart(&theirs, &mine).then(|| {
        let head = caption
            .char_indices()
            .nth(120)
            .map_or(caption, |(k, _)| &caption[..k]);
        format!(
            "the table the quote sits in is of patients with {} (its caption: {:?}), not {:?}",
            theirs.join(", "),
            head.trim(),
            c.population.as_deref().unwrap_or("")
        )
    })
}

/// A dose under a weight band's heading ("17 kg (37 lbs) to < 40 kg (88 lbs): Initial dose
/// … Two weeks later (Day 29): Begin a maintenance dose of 20 mg") is that band's: the
/// heading is the last stretch before the quote, between colons, that bounds a weight in
/// kg. A claim for a band it does not meet (≥ 40 kg) is not what it says.
fn band_heading(c: &Claim, lead: Option<&str>) -> Option<String> {
    let q = c.quote.as_deref()?;
    // (">= 40 kg" as the claim may write it)
    let written = c
        .population
        .as_deref()?
        .replace(">=", "≥")
        .replace("<=", "≤");
    let pop = Text::new(&written);
    if !pop.tokens.iter().any(|x| x.lower == "kg") {
        return None;
    }
    let claimed = condition_interval(&pop, 0..pop.tokens.len())?;
    // the quote's own text may hold its band; the heading is read only when it does not
    if Text::new(q).tokens.iter().any(|x| x.lower == "kg") {
        return None;
    }
    let lead = lead?;
    let lead = &lead[lead.ceil_char_boundary(lead.len().saturating_sub(400))..];
    let heading = lead
        .rsplit(':')
        .skip(1)
        .find(|seg| seg.contains(" kg") && seg.len() <= 60)?
        .trim();
    let ht = Text::new(heading);
    let band = condition_interval(&ht, 0..ht.tokens.len())?;
    disjoint(band, claimed).then(|| {
        format!(
            "the quote's dose is under the heading {heading:?}, and the claim is for {:?}",
            c.population.as_deref().unwrap_or("")
        )
    })
}

/// The text before a quote in the field of the record that holds it.
fn text_before<'r>(r: &'r EvidenceRecord, q: &str) -> Option<&'r str> {
    let field = r.field_text(r.find(q)?);
    Some(&field[..field.find(q)?])
}

/// The study ids a text names ("Study JIA-II", "Study 7"), in order.
fn study_ids(s: &str) -> Vec<String> {
    let ws: Vec<&str> = s.split_whitespace().collect();
    ws.windows(2)
        .filter(|p| p[0].eq_ignore_ascii_case("study"))
        .map(|p| p[1].trim_matches(|ch: char| !ch.is_alphanumeric()))
        // written as ids are: capitals, digits and hyphens, with a digit or a hyphen, or
        // a roman numeral ("JIA-II", "7", "II"; not "included")
        .filter(|id| {
            !id.is_empty()
                && id.len() <= 8
                && id
                    .chars()
                    .all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '-')
                && (id.chars().any(|ch| ch.is_ascii_digit() || ch == '-')
                    || id.chars().all(|ch| matches!(ch, 'I' | 'V' | 'X')))
        })
        .map(str::to_string)
        .collect()
}

/// A quote that says only "the study" ("Serious infections were observed in 9% of
/// patients receiving HUMIRA in the study") speaks of the study its field named last
/// before it ("In Study JIA-II, …"): a claim for another study of the label (Study
/// JIA-I) is not what it says.
fn study_named_before(c: &Claim, lead: Option<&str>) -> Option<String> {
    let q = c.quote.as_deref()?;
    let low = q.to_lowercase();
    if !(low.contains("the study") || low.contains("this study")) || !study_ids(q).is_empty() {
        return None;
    }
    let lead = lead?;
    let from = lead.ceil_char_boundary(lead.len().saturating_sub(800));
    let before = study_ids(&lead[from..]).pop()?;
    let claimed = study_ids(&super::said(c));
    (!claimed.is_empty() && !claimed.contains(&before)).then(|| {
        format!(
            "the quote's study is Study {before}, named before it, and the claim is for Study {}",
            claimed[0]
        )
    })
}

/// A quote right after "For patients with Ulcerative Colitis only:" in its field is for
/// those patients only: a claim whose population names other ones (Crohn's disease),
/// and none of the words of theirs, is not what it says.
fn only_for(c: &Claim, lead: Option<&str>) -> Option<String> {
    let lead = lead?.trim_end();
    let head = lead.strip_suffix(':')?.trim_end().strip_suffix(" only")?;
    let low = head.to_lowercase();
    let phrase = &head[low.rfind("for ")? + 4..];
    if phrase.len() > 80 || phrase.contains(['.', ';', ':']) {
        return None;
    }
    let content = |s: &str| -> Vec<String> {
        s.split(|ch: char| !ch.is_alphanumeric())
            .map(str::to_lowercase)
            .filter(|w| {
                w.len() >= 4
                    && !matches!(
                        w.as_str(),
                        "patients"
                            | "with"
                            | "adult"
                            | "adults"
                            | "pediatric"
                            | "children"
                            | "subjects"
                            | "those"
                            | "only"
                            | "disease"
                            | "active"
                    )
            })
            .collect()
    };
    let (theirs, mine) = (content(phrase), content(c.population.as_deref()?));
    named_apart(&theirs, &mine).then(|| {
        format!(
            "the quote is given \"for {} only\", and the claim is for {:?}",
            phrase.trim(),
            c.population.as_deref().unwrap_or("")
        )
    })
}

/// The bounds a text sets on a measure it names right before the sign ("creatinine
/// clearance ≥ 60 mL/min"): (measure, sign, number).
fn named_bounds<'a>(t: &'a Text<'a>) -> Vec<(&'a str, &'a str, &'a str)> {
    (2..t.tokens.len())
        .filter(|&k| t.tokens[k].kind == Kind::Number && bound_sign(t.tokens[k - 1].text))
        .filter(|&k| t.tokens[k - 2].kind == Kind::Word)
        .map(|k| {
            (
                t.tokens[k - 2].lower.as_str(),
                t.tokens[k - 1].text,
                t.tokens[k].text,
            )
        })
        .collect()
}

/// A population bounded on a measure ("participants with creatinine clearance ≥ 60
/// mL/min") is not the quote's when the quote bounds the same measure, on the same side,
/// at another number ("… for participants with a creatinine clearance ≥ 40").
fn population_bound(c: &Claim) -> Option<String> {
    let (pt, qt) = (
        Text::new(c.population.as_deref()?),
        Text::new(c.quote.as_deref()?),
    );
    let (mine, theirs) = (named_bounds(&pt), named_bounds(&qt));
    mine.iter().find_map(|&(m, sign, n)| {
        let same: Vec<&str> = theirs
            .iter()
            .filter(|(qm, qs, _)| *qm == m && *qs == sign)
            .map(|(_, _, qn)| *qn)
            .collect();
        (!same.is_empty() && !same.contains(&n)).then(|| {
            format!(
                "the quote bounds {m} at {sign} {}, and the claim's population at {sign} {n}",
                same[0]
            )
        })
    })
}

/// Words of a population that claim every condition a drug is studied in.
const EVERY_CONDITION: [&str; 3] = ["across indications", "all indications", "every indication"];
/// Initials of analysis sets and regions, not conditions.
const NOT_CONDITIONS: [&str; 8] = ["ITT", "FAS", "PP", "US", "USA", "EU", "UK", "AE"];

/// The patients with a condition that the quote's sentence names before its number ("…
/// portion of studies in patients with RA (i.e., Studies RA-I, …) was 7% …") are whom
/// the number counts: a claim across the drug's indications fails, and so does one that
/// names, beside that condition, two or more others by initials that the phrase does
/// not name ("RA, PsA, AS, CD …").
fn condition_breadth(c: &Claim, r: &EvidenceRecord) -> Option<String> {
    let q = c.quote.as_deref()?;
    let pop = c.population.as_deref()?;
    let field = r.field_text(r.find(q)?);
    let start = field.find(q)?;
    let from = field[..start].rfind(". ").map_or(0, |k| k + 2);
    // up to the value's first number in the quote: the patients named after it are
    // those of another number ("85% of …, and 40% of patients with RA …")
    let vt = Text::new(&c.value);
    let first = vt.tokens.iter().find(|x| x.kind == Kind::Number)?;
    let upto = start + q.find(first.text)?;
    let sentence = &field[from..upto];
    // ASCII lower case keeps byte offsets
    let low = sentence.to_ascii_lowercase();
    let at = [
        " patients with ",
        " adults with ",
        " subjects with ",
        " children with ",
    ]
    .iter()
    .filter_map(|p| low.rfind(p).map(|k| k + p.len()))
    .max()?;
    let rest = &sentence[at..];
    // a list of conditions runs on past its commas, up to the verb
    let end = [" was ", " were ", " is ", " are ", " occurred", "; "]
        .iter()
        .filter_map(|p| rest.find(p))
        .min()
        .unwrap_or(rest.len());
    let phrase = &rest[..end];
    // a condition's phrase is short; a long one runs into the sentence's own words
    if phrase.len() > 80 {
        return None;
    }
    let own = words(&format!("{} {}", c.asset, c.arm.as_deref().unwrap_or("")));
    // whole words with their hyphens, so that a study's name ("RA-I", "JIA-II") is one
    // word, and no condition of its own
    let conditions = |s: &str| -> Vec<String> {
        s.split(|ch: char| !(ch.is_alphanumeric() || ch == '-'))
            .filter(|w| is_initials(w))
            .map(str::to_string)
            .filter(|w| {
                let study = w.split_once('-').is_some_and(|(_, t)| {
                    !t.is_empty() && t.chars().all(|ch| "IVX0123456789".contains(ch))
                });
                !study && !NOT_CONDITIONS.contains(&w.as_str()) && !own.contains(&w.to_lowercase())
            })
            .collect()
    };
    let theirs = conditions(phrase);
    if theirs.is_empty() {
        return None;
    }
    let lowpop = pop.to_lowercase();
    let every = EVERY_CONDITION.iter().any(|w| lowpop.contains(w));
    let mine = conditions(pop);
    // one condition beside it may be a qualifier ("CF … with IGT"); two or more are a
    // claim across conditions
    let more = mine.iter().any(|m| theirs.contains(m))
        && mine.iter().filter(|m| !theirs.contains(m)).count() >= 2;
    (every || more).then(|| {
        format!(
            "the quote's sentence counts patients with {:?}, and the claim is for {pop:?}",
            phrase.trim()
        )
    })
}

/// The ages the opening phrase of a quote's sentence names ("In the controlled trial in
/// patients ages 6 to 12 years (Study 1), …") are whom its numbers count: a claim for
/// other ages fails, by age group or by numeric range, and so does a claim for all
/// patients that names no ages. With `only_all`, only the last, and a claim for these
/// ages and others.
fn lead_in_ages(c: &Claim, ot: &Text<'_>, opening: &str, only_all: bool) -> Option<String> {
    // only an opening phrase of its own ("In …, ", "Among …, ", after a heading the
    // text runs into): other words before the quote may name others ("studies of HUMIRA
    // in adults with additional data from")
    if !opening.trim_end().ends_with(',') {
        return None;
    }
    let from = (0..ot.tokens.len())
        .rev()
        .find(|&k| matches!(ot.tokens[k].text, "In" | "Among"))?;
    let pop = Text::new(c.population.as_deref()?);
    let all = from..ot.tokens.len();
    let (claimed, have) = (claimed_ages(&pop), ages_in(ot, all.clone()));
    // a claim for these ages and others ("children, adolescents and adults") at a phrase
    // that names some of them: the elderly are among the adults a phrase names
    let adults = super::AGE_GROUPS.iter().position(|(n, _)| *n == "adults");
    let elderly = super::AGE_GROUPS.iter().position(|(n, _)| *n == "elderly");
    let beyond = claimed.iter().any(|g| {
        !have.contains(g) && !(Some(*g) == elderly && adults.is_some_and(|a| have.contains(&a)))
    });
    let by_group = !claimed.is_empty()
        && !have.is_empty()
        && (!have.iter().any(|g| claimed.contains(g)) || beyond);
    let (claimed_r, have_r) = (age_ranges(&pop, 0..pop.tokens.len()), age_ranges(ot, all));
    let by_range = !claimed_r.is_empty()
        && !have_r.is_empty()
        && !claimed_r
            .iter()
            .any(|a| have_r.iter().any(|b| a.0 <= b.1 && b.0 <= a.1));
    // a claim for all patients, of no ages, at a phrase that names some
    let for_all = claimed.is_empty()
        && claimed_r.is_empty()
        && (!have.is_empty() || !have_r.is_empty())
        && words(c.population.as_deref().unwrap_or(""))
            .iter()
            .any(|w| w == "all");
    // a claim for these ages and others, read here even with `only_all`: the rules on
    // the number's sentence read ages the claim does not name at all
    let wider = beyond && have.iter().any(|g| claimed.contains(g));
    (for_all || wider || !only_all && (by_group || by_range)).then(|| {
        let phrase = ["In ", "Among "]
            .iter()
            .filter_map(|w| opening.rfind(w))
            .max()
            .map_or(opening, |k| &opening[k..]);
        format!(
            "the quote's sentence opens on other ages ({:?}) than the claim's {:?}",
            phrase.trim(),
            c.population.as_deref().unwrap_or("")
        )
    })
}

/// The rules on a quote read as text, by the binder.
pub(super) fn text(
    c: &Claim,
    t: &Text<'_>,
    r: &EvidenceRecord,
    scope: Option<&Scope>,
    cx: &Context<'_>,
) -> Entailment {
    let vt = Text::new(&c.value);
    if let Some(why) = statement_dose(c, t, cx) {
        return Entailment::Fails(Rule::Dose, why);
    }
    if let Some(why) = comparative(c, t, scope, cx) {
        return Entailment::Fails(Rule::Direction, why);
    }
    if let Some(why) = c.quote.as_deref().and_then(|q| contrasted_clause(c, q)) {
        return Entailment::Fails(Rule::Direction, why);
    }
    // the text before the quote in its field, read once for the rules that look above it
    let lead = c.quote.as_deref().and_then(|q| text_before(r, q));
    // a bound on the other side of the quote's: "doses >10 mg" is not "10 mg or less"
    let quote_text = c.quote.as_deref().unwrap_or("");
    let vb = super::bounds(&c.value);
    let qb = if vb.is_empty() {
        Vec::new()
    } else {
        super::bounds(quote_text)
    };
    if let Some((n, high)) = super::opposite_bound(&vb, &qb) {
        return Entailment::Fails(
            Rule::Direction,
            format!(
                "the quote bounds {n} from {}, and the claim from {}",
                if *high { "below" } else { "above" },
                if *high { "above" } else { "below" }
            ),
        );
    }
    if let Some(why) = doses_beyond(&vt, t) {
        return Entailment::Fails(Rule::Dose, why);
    }
    if let Some(why) = significant_where_not(&c.value, quote_text) {
        return Entailment::Fails(Rule::Direction, why);
    }
    if let Some(why) = duration_unit(&vt, t) {
        return Entailment::Fails(Rule::Unit, why);
    }
    if let Some(why) = time_of_another_measure(c, &vt, t) {
        return Entailment::Fails(Rule::TimePoint, why);
    }
    let nums: Vec<usize> = (0..vt.tokens.len())
        .filter(|&k| vt.tokens[k].kind == Kind::Number)
        .collect();
    if nums.is_empty() {
        // a statement without numbers still speaks of someone: a quote about children
        // only is no statement about adults
        if let Some(p) = c.population.as_deref() {
            let (claimed, quoted) = (claimed_ages(&Text::new(p)), ages_in(t, 0..t.tokens.len()));
            if !claimed.is_empty()
                && !quoted.is_empty()
                && !quoted.iter().any(|g| claimed.contains(g))
            {
                return Entailment::Fails(
                    Rule::Population,
                    format!(
                        "the quote speaks of {}, and the claim is for {}",
                        super::AGE_GROUPS[quoted[0]].0,
                        super::AGE_GROUPS[claimed[0]].0
                    ),
                );
            }
        }
        if let Some(why) = lead_in_condition(c, r)
            .or_else(|| only_for(c, lead))
            .or_else(|| caption_condition(c, r))
        {
            return Entailment::Fails(Rule::Population, why);
        }
        return Entailment::Holds;
    }
    // a value that is a number with its unit, not a sentence or a name
    let numeric = vt
        .tokens
        .iter()
        .all(|x| x.kind != Kind::Word || is_unit_word(&x.lower));
    let arm_level = profile::spec(&c.field).is_some_and(|s| s.arm_bound);
    let arm_given = c.arm.as_deref().is_some_and(|a| !distinctive(a).is_empty());
    let check_arm = (arm_level && numeric) || arm_given || c.field.contains("dose");
    let (claimed, others) = sides(c, scope);
    let ms = mentions(t, &claimed, &others);
    // a population's ages ("≥ 28 days to < 18 years") are no time points: the endpoint's are
    let claim_tp = super::binder::endpoint_time_points(c.endpoint.as_deref().unwrap_or(""));
    if let Some(why) = lead_in_time(c, t, r, &claim_tp) {
        return Entailment::Fails(Rule::TimePoint, why);
    }
    if let Some(why) = lead_in_population(c, t, r, &vt) {
        return Entailment::Fails(Rule::Population, why);
    }
    if let Some(why) = antecedent_population(c, r)
        .or_else(|| lead_in_condition(c, r))
        .or_else(|| only_for(c, lead))
        .or_else(|| study_named_before(c, lead))
        .or_else(|| band_heading(c, lead))
        .or_else(|| caption_condition(c, r))
        .or_else(|| condition_breadth(c, r))
        .or_else(|| population_bound(c))
    {
        return Entailment::Fails(Rule::Population, why);
    }
    // the quote's own opening phrase ("In the controlled trial in patients ages 6 to 12
    // years (Study 1), 9% …") against a claim for all patients (other ages are read by
    // the age rules on the number's sentence)
    if let Some(q) = c.quote.as_deref()
        && (q.starts_with("In ") || q.starts_with("Among "))
        && let Some(k) = q.find(", ")
    {
        let phrase = &q[..k + 1];
        if let Some(why) = lead_in_ages(c, &Text::new(phrase), phrase, true) {
            return Entailment::Fails(Rule::Population, why);
        }
    }
    let vms = mentions(&vt, &claimed, &others);
    // the endpoint's head concept: "PFS (hazard ratio for disease progression or death)"
    // is PFS, not mortality
    let claim_concepts: Vec<&str> = {
        let et = Text::new(c.endpoint.as_deref().unwrap_or(""));
        Lexicon::endpoints()
            .all(&et, 0..et.tokens.len())
            .into_iter()
            .map(|(_, x)| x)
            .take(1)
            .collect()
    };
    let only = nums.len() == 1;
    // rows of a table whose header is above the quote in its field: the value's own
    // numbers (not one the value gives another group: "(placebo 3%)")
    let own: Vec<usize> = nums
        .iter()
        .copied()
        .filter(|&k| {
            principal(&vt, k, only, cx)
                && !matches!(bind_arm(&vt, k, &vms), Ok(Some(m)) if !m.claimed)
        })
        .collect();
    if let Some(q) = c.quote.as_deref()
        && let Some(i) = r.find(q)
        && let Some(pos) = r.field_text(i).find(q)
    {
        let field = r.field_text(i);
        // a row of a label's HTML table ("<td>Agitation</td> <td> 3%</td> …") is read as
        // the text the table shows, its header above it
        let verdict = if q.contains("<td") || q.contains("<th") {
            let (shown, shown_quote) = (strip_markup(field), strip_markup(q));
            shown.find(&shown_quote).and_then(|at| {
                let mut as_shown = c.clone();
                as_shown.quote = Some(shown_quote.clone());
                super::context_table::check(&as_shown, &vt, &own, &shown, at, scope, cx)
            })
        } else {
            super::context_table::check(c, &vt, &own, field, pos, scope, cx)
        };
        if let Some(v) = verdict {
            return v;
        }
    }
    // the value may name the claimed group itself ("Dizziness in 1.5% of zolpidem-treated
    // patients"): that says nothing of which group the quote's number is
    if check_arm
        && ms.is_empty()
        && vms.iter().all(|m| m.claimed)
        && let Some(why) = arm_in_context(c, &vt, &nums, only, r, &claimed, &others, cx)
    {
        return Entailment::Fails(Rule::Arm, why);
    }
    let mut undecided: Option<Entailment> = None;
    for &k in &nums {
        if !principal(&vt, k, only, cx) {
            continue;
        }
        let mut first: Option<Entailment> = None;
        let n = vt.tokens[k].lower.as_str();
        let local = Local {
            arm: bind_arm(&vt, k, &vms).ok().flatten().cloned(),
            unit: cx
                .units
                .at(&vt, k + 1)
                .or_else(|| range_unit(&vt, k, cx.units))
                .or_else(|| (k == nums[0]).then(|| claim_unit(c, cx.units)).flatten()),
            // the value's regimen may sit past a clause break ("6 mg/kg IV or PO once
            // weekly"), as the quote's may
            regimen: regimen_of(&vt, k, vt.clause(k))
                .or_else(|| regimen_of(&vt, k, k..vt.tokens.len())),
            // a dose in a parenthesis that says nothing of its phase is of the phase
            // around it ("Loading dose 600 mg (two 300 mg injections) on Day 1")
            phase: phase(&vt, dose_segment(&vt, k, vt.clause(k)))
                .or_else(|| phase(&vt, outer(&vt, k)?)),
            is_dose: doses(&format!("{n} {}", vt.word(k + 1).unwrap_or("")), cx.units)
                .iter()
                .any(|d| d.contains(' '))
                && !per_volume(&vt, k + 1),
        };
        // the time points the claim binds to this number: its endpoint's, and those of
        // its own clause in the value ("2.8 pounds after 4 weeks")
        let mut claim_tp = claim_tp.clone();
        claim_tp.extend(
            vt.time_points(dose_segment(&vt, k, vt.clause(k)))
                .into_iter()
                .filter(|(i, _)| *i != k)
                .map(|(_, tp)| tp),
        );
        // "81% at one year": a time the value writes in words (one it writes in digits is
        // read in its own number's clause above: Day 1 of "2.5 mg/kg daily after a 5 mg/kg
        // Day 1 loading dose" is the 5 mg/kg's)
        if claim_tp.is_empty() && vt.time_points(0..vt.tokens.len()).is_empty() {
            claim_tp.extend(super::binder::spelled_time_points(&c.value));
        }
        let mut any = false;
        for at in t.numbers_equal(n) {
            if t.is_time_number(at) && !vt.is_time_number(k) {
                continue;
            }
            any = true;
            let b = Binding {
                c,
                t,
                at,
                ms: &ms,
                claim_tp: &claim_tp,
                claim_concepts: &claim_concepts,
                check_arm: check_arm && !threshold(&vt, k),
                arm_level,
                claimed: &claimed,
                others: &others,
                cx,
                record: r,
            };
            let v = b.check(&local);
            if v == Entailment::Holds {
                first = None;
                break;
            }
            first.get_or_insert(v);
        }
        match first {
            Some(f @ Entailment::Fails(..)) if any => return f,
            Some(u @ Entailment::Undecided(_)) => {
                undecided.get_or_insert(u);
            }
            _ => {}
        }
    }
    undecided.unwrap_or(Entailment::Holds)
}

/// A time the value gives in the quote's own words ("for the first 4 weeks") belongs to
/// the measures named just before it in the quote, back to the number or the punctuation
/// before them: in "superior on sleep latency for the first 4 weeks and on sleep
/// efficiency for weeks 2 and 4", the first 4 weeks are sleep latency's. A claim of
/// another measure the quote names (sleep efficiency) at that time fails.
fn time_of_another_measure(c: &Claim, vt: &Text<'_>, t: &Text<'_>) -> Option<String> {
    let ep = Lexicon::endpoints();
    let mut claimed: Vec<&str> = ep
        .all(vt, 0..vt.tokens.len())
        .into_iter()
        .map(|(_, x)| x)
        .collect();
    if claimed.is_empty() {
        let et = Text::new(c.endpoint.as_deref().unwrap_or(""));
        claimed.extend(
            ep.all(&et, 0..et.tokens.len())
                .into_iter()
                .map(|(_, x)| x)
                .take(1),
        );
    }
    if claimed.is_empty() {
        return None;
    }
    let quoted: Vec<&str> = ep
        .all(t, 0..t.tokens.len())
        .into_iter()
        .map(|(_, x)| x)
        .collect();
    if !claimed.iter().any(|x| quoted.contains(x)) {
        return None;
    }
    let mut failed = None;
    for k in 1..vt.tokens.len().saturating_sub(1) {
        if !vt.is_time_number(k) {
            continue;
        }
        let phrase = [
            &vt.tokens[k - 1].lower,
            &vt.tokens[k].lower,
            &vt.tokens[k + 1].lower,
        ];
        for j in 1..t.tokens.len().saturating_sub(1) {
            if [
                &t.tokens[j - 1].lower,
                &t.tokens[j].lower,
                &t.tokens[j + 1].lower,
            ] != phrase
            {
                continue;
            }
            let mut start = j - 1;
            while start > 0 {
                let x = &t.tokens[start - 1];
                if x.kind == Kind::Number || matches!(x.text, "," | ";" | "." | ":") {
                    break;
                }
                start -= 1;
            }
            let own: Vec<&str> = ep
                .all(t, start..j - 1)
                .into_iter()
                .map(|(_, x)| x)
                .collect();
            if own.is_empty() || own.iter().any(|x| claimed.contains(x)) {
                return None;
            }
            failed.get_or_insert_with(|| {
                format!(
                    "in the quote \"{} {} {}\" is the time of {}, not of {}",
                    t.tokens[j - 1].text,
                    t.tokens[j].text,
                    t.tokens[j + 1].text,
                    own.join(", "),
                    claimed.join(", ")
                )
            });
        }
    }
    failed
}

/// A quote that names no group ("dizziness (23.5% vs. 1.5%)") is read in the text
/// before it in its field, where the record names the groups ("… zolpidem vs. placebo
/// …"): a number every occurrence of which binds to another group fails.
#[allow(clippy::too_many_arguments)]
fn arm_in_context(
    c: &Claim,
    vt: &Text<'_>,
    nums: &[usize],
    only: bool,
    r: &EvidenceRecord,
    claimed: &[String],
    others: &[String],
    cx: &Context<'_>,
) -> Option<String> {
    let q = c.quote.as_deref()?;
    let field = r.field_text(r.find(q)?);
    let pos = field.find(q)?;
    // the text just before the quote; then, for a table's header above its rows, further
    // back, read by the header alone
    for (back, header_only) in [(400, false), (1500, true)] {
        let from = field.floor_char_boundary(pos.saturating_sub(back));
        let before = Text::new(&field[from..pos]).tokens.len();
        let wt = Text::new(&field[from..pos + q.len()]);
        let wms = mentions(&wt, claimed, others);
        if wms.is_empty() {
            continue;
        }
        for &k in nums.iter().filter(|&&k| principal(vt, k, only, cx)) {
            let n = vt.tokens[k].lower.as_str();
            let mut bound: Vec<&Mention> = Vec::new();
            let mut free = false;
            for at in wt.numbers_equal(n).into_iter().filter(|&a| a >= before) {
                // only a pair or list of numbers ("23.5% vs. 1.5%") maps onto the groups
                if wt.parallel_numbers(at).0.len() < 2 {
                    free = true;
                    continue;
                }
                let m = if header_only {
                    header_group(&wt, at, &wms)
                } else {
                    bind_arm(&wt, at, &wms).ok().flatten()
                };
                match m {
                    Some(m) => bound.push(m),
                    None => free = true,
                }
            }
            if !free && !bound.is_empty() && bound.iter().all(|m| !m.claimed) {
                return Some(format!(
                    "in the text the quote sits in, {} belongs to {:?}, not to {}",
                    vt.tokens[k].text,
                    bound[0].word,
                    claimed_name(c)
                ));
            }
        }
    }
    None
}

/// What the claim binds to one of its numbers, read in its own value.
struct Local<'u> {
    /// The group the value itself names for the number ("0% on placebo").
    arm: Option<Mention>,
    unit: Option<&'u str>,
    regimen: Option<String>,
    phase: Option<Phase>,
    is_dose: bool,
}

/// One occurrence of a value's number in the quote, with what the rules compare.
struct Binding<'a, 't> {
    c: &'a Claim,
    t: &'a Text<'t>,
    at: usize,
    ms: &'a [Mention],
    claim_tp: &'a [TimePoint],
    claim_concepts: &'a [&'a str],
    check_arm: bool,
    arm_level: bool,
    claimed: &'a [String],
    others: &'a [String],
    cx: &'a Context<'a>,
    /// The cited record (read only when a named population is not quoted).
    record: &'a EvidenceRecord,
}

impl Binding<'_, '_> {
    fn clause_text(&self, r: &std::ops::Range<usize>) -> String {
        self.t.tokens[r.clone()]
            .iter()
            .map(|x| x.text)
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(&self, local: &Local<'_>) -> Entailment {
        let (c, t, at, cx) = (self.c, self.t, self.at, self.cx);
        let n = t.tokens[at].text;
        let clause = t.clause(at);
        let around = outer(t, at);
        let ranges = union(clause.clone(), around.clone());
        let in_ranges = |i: usize| ranges.iter().any(|r| r.contains(&i));
        let mut undecided = None;
        // the dose of the group a statement is about ("Zolpidem 10 mg was superior …",
        // "ACR50 in 52% with HUMIRA 40 mg every other week"): outside a dose field it
        // names the group, and is no value of an endpoint nor measured at a time
        let quote_is_dose = cx.units.at(t, at + 1).is_some_and(|u| {
            matches!(
                u,
                "mg" | "mcg" | "g" | "mg/kg" | "mcg/kg" | "mg/m2" | "mcg/m2/d" | "mg/day"
            )
        });
        let group_dose = local.is_dose && !c.field.contains("dose") && quote_is_dose;
        // unit
        if let Some(u) = local.unit
            && let Some(have) = t.unit_after(at, cx.units)
            && have != u
        {
            return Entailment::Fails(
                Rule::Unit,
                format!("the quote gives {n} in {have}, not {u}"),
            );
        }
        // a ratio is no percentage: "by a factor of 1.7", "a 1.7-fold increase"
        let ratio = (at >= 2 && t.word(at - 2) == Some("factor") && t.word(at - 1) == Some("of"))
            || t.word(at + 1).is_some_and(|w| w == "fold" || w == "times")
            || (t.tokens.get(at + 1).is_some_and(|x| x.text == "-")
                && t.word(at + 2) == Some("fold"));
        if ratio && local.unit == Some("%") {
            return Entailment::Fails(
                Rule::Unit,
                format!("the quote gives {n} as a ratio (a factor, -fold), not a percentage"),
            );
        }
        // "5 and 8 µg/mL … without and with methotrexate, respectively": the claim's
        // side of the list, when it names the drug the list is with or without
        if let Some((with, names)) = t.respective_with(at) {
            let x = names[0];
            let said = words(&super::said(c));
            let named = said.iter().position(|w| names.contains(&w.as_str()));
            if let Some(i) = named {
                let before = &said[i.saturating_sub(3)..i];
                let claim_with = !before.iter().any(|w| w == "without" || w == "no")
                    && !said
                        .iter()
                        .any(|w| matches!(w.as_str(), "monotherapy" | "alone"));
                if claim_with != with {
                    return Entailment::Fails(
                        Rule::Arm,
                        format!(
                            "in the quote {n} is the value {} {x} (a list matched item by item, respectively), and the claim is for patients {} it",
                            if with { "with" } else { "without" },
                            if claim_with { "with" } else { "without" }
                        ),
                    );
                }
            }
        }
        // "The placebo-adjusted mean reduction … was 18.6": a difference from placebo,
        // which a claim must give as one, not as the arm's own change
        let sent = sentence(t, at);
        let adjusted = (sent.start + 2..at).any(|k| {
            matches!(t.word(k), Some("adjusted" | "subtracted" | "corrected"))
                && t.tokens[k - 1].text == "-"
                && t.word(k - 2) == Some("placebo")
        });
        if adjusted {
            let said = words(&super::said(c));
            let as_difference = said.iter().any(|w| {
                matches!(
                    w.as_str(),
                    "adjusted"
                        | "subtracted"
                        | "corrected"
                        | "difference"
                        | "differences"
                        | "vs"
                        | "versus"
                        | "compared"
                        | "relative"
                        | "than"
                        | "beyond"
                )
            });
            if !as_difference {
                return Entailment::Fails(
                    Rule::Arm,
                    format!(
                        "in the quote {n} is placebo-adjusted (a difference from placebo), and the claim gives it as the group's own value"
                    ),
                );
            }
        }
        // "without MTX (43% vs. 71%) and with MTX (37% vs. 65%)": the number's
        // parenthesis is for those with or without the condition before it
        if let Some((with, x)) = t.with_condition(at) {
            let said = words(&super::said(c));
            // by its short form or the long one it stands for ("MTX", "methotrexate")
            let short = x.to_lowercase();
            if let Some(i) = said
                .iter()
                .position(|w| *w == short || super::abbreviates(&short, w))
            {
                let before = &said[i.saturating_sub(3)..i];
                let claim_with = !before
                    .iter()
                    .any(|w| matches!(w.as_str(), "without" | "no" | "not" | "non"));
                if claim_with != with {
                    return Entailment::Fails(
                        Rule::Population,
                        format!(
                            "in the quote {n} is for patients {} {x}, and the claim is for patients {} it",
                            if with { "with" } else { "without" },
                            if claim_with { "with" } else { "without" }
                        ),
                    );
                }
            }
        }
        // "Patients on concomitant MTX had a lower rate … than patients on HUMIRA
        // monotherapy (1% versus 12%)": the number is its side's of the comparison. A
        // claim naming a group only the other side names is for that side (the asset's
        // own name may stand on both sides, given alone or with another drug), as is one
        // naming none of this side's groups and some of the other's.
        if self.check_arm
            && let Some((mine, theirs)) = t.than_sides(at)
        {
            let asset: Vec<String> = cx
                .assets
                .get(&c.asset)
                .map(|s| s.names.iter().flat_map(|n| words(n)).collect())
                .unwrap_or_default();
            let on = |r: &std::ops::Range<usize>| -> Vec<&Mention> {
                self.ms.iter().filter(|m| r.contains(&m.at)).collect()
            };
            let (my, their) = (on(&mine), on(&theirs));
            let lower = |m: &Mention| m.word.to_lowercase();
            let only_theirs = their.iter().find(|m| {
                m.claimed && !asset.contains(&lower(m)) && !my.iter().any(|x| lower(x) == lower(m))
            });
            let none_mine = !my.is_empty() && !my.iter().any(|m| m.claimed);
            let named = only_theirs.or(if none_mine {
                their.iter().find(|m| m.claimed)
            } else {
                None
            });
            if let Some(m) = named {
                let mine_named: Vec<String> = my.iter().map(|m| m.word.clone()).collect();
                return Entailment::Fails(
                    Rule::Arm,
                    format!(
                        "in the quote {n} is for the side of the comparison that names {}, and the claim names {}, which the other side names",
                        if mine_named.is_empty() {
                            "no group".to_string()
                        } else {
                            mine_named.join(", ")
                        },
                        m.word
                    ),
                );
            }
        }
        // endpoint
        if !self.claim_concepts.is_empty() && !group_dose {
            let bound: Vec<&str> = concepts_of(t, at, Lexicon::endpoints())
                .into_iter()
                .map(|(_, x)| x)
                .collect();
            if !bound.is_empty() && !bound.iter().any(|b| self.claim_concepts.contains(b)) {
                return Entailment::Fails(
                    Rule::Endpoint,
                    format!(
                        "in the quote {n} is a value of {}, not of {}",
                        bound.join(", "),
                        self.claim_concepts.join(", ")
                    ),
                );
            }
        }
        let table = super::table::read(t, at, Lexicon::endpoints());
        // arm: in a table, by its column; in a sentence, by the binder
        let mut arm_read = false;
        // the value may name the number's group itself ("4% (placebo)")
        // (and a claimed arm of two sides, "VYVANSE vs placebo", is the side the value
        // binds the number to: "27% on VYVANSE vs 8% on placebo")
        let two_sided = c
            .arm
            .as_deref()
            .is_some_and(|a| super::two_sides(&a.to_lowercase()).is_some());
        let local_words: Vec<String> = match &local.arm {
            Some(l) if !l.claimed || two_sided => vec![l.word.to_lowercase()],
            _ => self.claimed.to_vec(),
        };
        // a header without counts: its groups, in order, are the columns
        let by_mentions: Option<(usize, Vec<String>)> = table.as_ref().and_then(|tc| {
            if tc.column.is_some() {
                return None;
            }
            // the claimed arm is one column however often its words recur
            let mut heads: Vec<String> = Vec::new();
            let mut keys: Vec<String> = Vec::new();
            for m in self.ms.iter().filter(|m| m.at < tc.row_start) {
                let key = if m.claimed {
                    String::new()
                } else {
                    m.word.to_lowercase()
                };
                if !keys.contains(&key) {
                    keys.push(key);
                    heads.push(m.word.clone());
                }
            }
            (heads.len() >= 2 && heads.len() == tc.cells).then(|| (tc.index, heads))
        });
        // a column label is a header's cell, a few words: one of paragraphs is prose
        // read as a header
        if self.check_arm
            && let Some((col, labels)) = table
                .as_ref()
                .and_then(|c| c.column.as_ref())
                .or(by_mentions.as_ref())
            && labels.iter().all(|l| l.split_whitespace().count() <= 24)
        {
            arm_read = true;
            let others: Vec<String> = self
                .others
                .iter()
                .chain(self.claimed.iter())
                .filter(|w| !local_words.contains(w))
                .cloned()
                .collect();
            match best_column(labels, &local_words, &others) {
                Some(b) if b != *col => {
                    return Entailment::Fails(
                        Rule::Arm,
                        format!(
                            "in the table {n} is in the column {:?}, not in {:?} ({})",
                            labels[*col],
                            labels[b],
                            claimed_name(c)
                        ),
                    );
                }
                Some(_) => {}
                None => {
                    undecided = Some(format!(
                        "no column of the table's header ({}) names {}",
                        labels.join(" | "),
                        claimed_name(c)
                    ));
                }
            }
        }
        // the row: after its column, so a cell of the claimed row in another group's
        // column is told as the arm it is
        if let Some(why) = table.as_ref().and_then(|cell| other_row(c, t, at, cell)) {
            return Entailment::Fails(Rule::Endpoint, why);
        }
        if self.check_arm && !arm_read {
            let chosen = match bind_arm(t, at, self.ms) {
                Ok(m) => m,
                Err(()) => {
                    undecided = Some(format!(
                        "the quote names several groups and {n} is bound to none of them in its clause"
                    ));
                    None
                }
            };
            // the value may name the group itself ("… versus 0% on placebo"); a claimed arm
            // of two sides ("HUMIRA vs control") keeps its sides apart
            let arm_sides: Vec<Vec<String>> = {
                let a = c.arm.as_deref().unwrap_or("").to_lowercase();
                let parts: Vec<&str> = if a.contains(" vs") || a.contains(" versus ") {
                    a.split(" versus ").flat_map(|p| p.split(" vs")).collect()
                } else {
                    Vec::new()
                };
                // only when the value itself gives a number to each side ("1 lymphoma
                // among HUMIRA-treated patients versus 2 among control-treated")
                let vt = Text::new(if parts.len() == 2 { &c.value } else { "" });
                let split = (0..vt.tokens.len()).find(|&i| {
                    matches!(vt.word(i), Some("versus" | "vs" | "than"))
                        || (vt.word(i) == Some("compared")
                            && matches!(vt.word(i + 1), Some("with" | "to")))
                });
                let both = split.is_some_and(|k| {
                    vt.tokens[..k].iter().any(|x| x.kind == Kind::Number)
                        && vt.tokens[k..].iter().any(|x| x.kind == Kind::Number)
                });
                if parts.len() == 2 && both {
                    parts.iter().map(|p| super::distinctive(p)).collect()
                } else {
                    Vec::new()
                }
            };
            let side = |w: &str| {
                let w = stem(&group_word(w)).to_string();
                arm_sides
                    .iter()
                    .position(|s| s.iter().any(|x| stem(x) == w))
            };
            let same = |m: &Mention| match &local.arm {
                Some(l) => {
                    l.claimed == m.claimed
                        && (l.claimed || stem(&group_word(&l.word)) == stem(&group_word(&m.word)))
                        && !matches!((side(&l.word), side(&m.word)), (Some(a), Some(b)) if a != b)
                }
                None => m.claimed,
            };
            if let Some(m) = chosen
                && !same(m)
            {
                let shown = numbers_aside(t, at).map_or(clause.clone(), |o| t.clause(o));
                // (a clause of markup read as text may run for pages: the reason shows
                // its opening)
                let mut shown = self.clause_text(&shown);
                if let Some((cut, _)) = shown.char_indices().nth(200) {
                    shown.truncate(cut);
                    shown.push('…');
                }
                return Entailment::Fails(
                    Rule::Arm,
                    format!(
                        "in the quote {n} belongs to {:?} ({shown:?}), not to {}",
                        m.word,
                        claimed_name(c)
                    ),
                );
            }
        }
        // dose group: a number that is not itself a dose, given for one dose of several
        let want = doses(c.arm.as_deref().unwrap_or(""), cx.units);
        if !want.is_empty() && !local.is_dose {
            let (group, pos) = t.parallel_numbers(at);
            let listed: Vec<String> = {
                let mass = |u: &str| {
                    matches!(
                        u,
                        "mg" | "mcg" | "g" | "mg/kg" | "mcg/kg" | "mg/m2" | "mcg/m2/d" | "mg/day"
                    )
                };
                let mut v = Vec::new();
                let mut pending: Vec<usize> = Vec::new();
                for i in 0..t.tokens.len() {
                    if t.tokens[i].kind != Kind::Number || group.contains(&i) {
                        continue;
                    }
                    match cx.units.at(t, i + 1) {
                        Some(u) if mass(u) => {
                            let u = if u == "mg/day" { "mg" } else { u };
                            // "the 5 and 10 mg tablets": the list shares the unit
                            for &k in &pending {
                                v.push(format!("{} {u}", t.tokens[k].lower));
                            }
                            pending.clear();
                            v.push(format!("{} {u}", t.tokens[i].lower));
                        }
                        None if matches!(t.word(i + 1), Some("and" | "or" | ",")) => {
                            pending.push(i)
                        }
                        _ => pending.clear(),
                    }
                }
                v
            };
            // a table row's own label names its dose group ("VYVANSE (50 mg/day) 37.3 …")
            let row_doses: Vec<String> = table
                .as_ref()
                .map(|tc| {
                    doses(&self.clause_text(&tc.label), cx.units)
                        .into_iter()
                        .filter(|d| d.contains(' '))
                        .collect()
                })
                .unwrap_or_default();
            let have: Vec<String> = if !row_doses.is_empty() {
                row_doses
            } else if group.len() >= 2 && listed.len() == group.len() {
                vec![listed[pos].clone()]
            } else {
                ranges
                    .iter()
                    .flat_map(|r| doses(&self.clause_text(r), cx.units))
                    .filter(|d| {
                        d.contains(' ') && !d.starts_with(&format!("{} ", t.tokens[at].lower))
                    })
                    .collect()
            };
            let want_amounts: Vec<&String> = want.iter().filter(|d| d.contains(' ')).collect();
            if !have.is_empty()
                && !want_amounts.is_empty()
                && !want_amounts.iter().any(|d| have.contains(d))
            {
                return Entailment::Fails(
                    Rule::Dose,
                    format!(
                        "in the quote {n} belongs to {}, not to {}",
                        have.join(", "),
                        want_amounts
                            .iter()
                            .map(|s| s.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }
        // regimen group: a number that is no dose, in a clause naming another regimen than
        // the claimed arm's, where the quote names the arm's for other numbers ("8 µg/mL
        // … 40 mg every other week, and 15 µg/mL … 40 mg every week")
        let arm_text = Text::new(c.arm.as_deref().unwrap_or(""));
        let want_reg: Vec<String> = regimens(&arm_text, 0..arm_text.tokens.len())
            .into_iter()
            .map(|(_, g)| g)
            .collect();
        if !want_reg.is_empty() && !local.is_dose && !is_dose_number(t, at) {
            let here: Vec<String> = regimens(t, clause.clone())
                .into_iter()
                .map(|(_, g)| g)
                .collect();
            // the quote names the arm's regimen for other numbers, or the clause gives the
            // arm's own amount with the other regimen ("during 40 mg every week treatment")
            let elsewhere = regimens(t, 0..t.tokens.len())
                .into_iter()
                .any(|(i, g)| !clause.contains(&i) && want_reg.contains(&g));
            let amounts: Vec<String> = doses(c.arm.as_deref().unwrap_or(""), cx.units)
                .into_iter()
                .filter(|d| d.contains(' '))
                .collect();
            let same_amount = !amounts.is_empty()
                && doses(&self.clause_text(&clause), cx.units)
                    .iter()
                    .any(|d| amounts.contains(d));
            if !here.is_empty()
                && !here.iter().any(|g| want_reg.contains(g))
                && (elsewhere || same_amount)
            {
                return Entailment::Fails(
                    Rule::Dose,
                    format!(
                        "in the quote {n} is given for {} ({:?}), not for {}",
                        regimen_words(&here[0]),
                        self.clause_text(&clause),
                        regimen_words(&want_reg[0])
                    ),
                );
            }
        }
        // regimen and phase of a dose
        if local.is_dose || quote_is_dose || c.field.contains("dose") {
            if (local.is_dose || quote_is_dose)
                && let Some(why) = dose_condition(c, t, at)
            {
                return Entailment::Fails(Rule::Population, why);
            }
            if (local.is_dose || quote_is_dose)
                && let Some(why) = optional_dose(c, t, at).or_else(|| maximum_dose(c, t, at))
            {
                return Entailment::Fails(Rule::Dose, why);
            }
            if let Some(want) = &local.regimen {
                let have = regimen_of(t, at, clause.clone())
                    .or_else(|| around.clone().and_then(|o| regimen_of(t, at, o)))
                    .or_else(|| regimen_of(t, at, at..t.tokens.len()));
                // the quote gives regimens, each bound to another dose: none is this one's;
                // or it gives this dose once ("80 mg at Week 2")
                let repeats = (clause.start..clause.end).any(|k| {
                    matches!(
                        t.word(k),
                        Some(
                            "every"
                                | "weekly"
                                | "daily"
                                | "monthly"
                                | "eow"
                                | "ew"
                                | "biweekly"
                                | "twice"
                                | "thereafter"
                                | "maintenance"
                        )
                    ) || t.word(k).is_some_and(|w| {
                        w.starts_with('q')
                            && w.len() <= 4
                            && w[1..]
                                .chars()
                                .next()
                                .is_some_and(|c| c.is_ascii_digit() || c == 'w' || c == 'd')
                    })
                });
                // or names it as a later dose of a sequence: "Second dose two weeks later
                // (Day 15): 80 mg" (the first is read as the loading dose, below)
                let one_of_sequence = (clause.start..clause.end.saturating_sub(1)).any(|k| {
                    matches!(t.word(k), Some("second" | "third" | "fourth"))
                        && t.word(k + 1) == Some("dose")
                }) || (clause.start.max(1)..clause.end.saturating_sub(1))
                    .any(|k| {
                        t.tokens[k - 1].text == "("
                            && matches!(t.word(k), Some("day" | "week"))
                            && t.tokens[k + 1].kind == Kind::Number
                            && !matches!(t.tokens[k + 1].lower.as_str(), "0" | "1")
                    });
                let once = !repeats
                    && (one_of_sequence
                        || (clause.start..clause.end.saturating_sub(2)).any(|k| {
                            matches!(t.word(k), Some("at" | "on"))
                                && matches!(t.word(k + 1), Some("week" | "day" | "month"))
                                && t.tokens[k + 2].kind == Kind::Number
                                && !matches!(
                                    k.checked_sub(1).and_then(|j| t.word(j)),
                                    Some("beginning" | "starting" | "from" | "commencing")
                                )
                        }));
                if once && have.is_none() {
                    return Entailment::Fails(
                        Rule::Dose,
                        format!(
                            "in the quote {n} is given once ({:?}), not {}",
                            self.clause_text(&clause),
                            regimen_words(want)
                        ),
                    );
                }
                if have.is_none() && !regimens(t, 0..t.tokens.len()).is_empty() {
                    return Entailment::Fails(
                        Rule::Dose,
                        format!(
                            "in the quote no regimen is given for {n} ({:?}): the quote's regimens are other doses'; the claim says {}",
                            self.clause_text(&clause),
                            regimen_words(want)
                        ),
                    );
                }
                if let Some(have) = have
                    && &have != want
                {
                    return Entailment::Fails(
                        Rule::Dose,
                        format!(
                            "in the quote {n} is given {} ({:?}), not {}",
                            regimen_words(&have),
                            self.clause_text(&clause),
                            regimen_words(want)
                        ),
                    );
                }
            }
            let have = phase_near(t, clause.clone(), at)
                .or_else(|| around.clone().and_then(|o| phase_near(t, o, at)));
            let want = local.phase.or_else(|| {
                // the claim's other words, when the value's clause says nothing of the phase
                let rest = format!(
                    "{} {}",
                    c.endpoint.as_deref().unwrap_or(""),
                    c.population.as_deref().unwrap_or("")
                );
                let rt = Text::new(&rest);
                phase(&rt, 0..rt.tokens.len())
            });
            // a claim that restates the regimen, its doses in the quote's order ("160 mg
            // on Day 1, 80 mg on Day 15, then 40 mg weekly"), carries each one's phase
            let amounts = |s: &str| -> Vec<String> {
                super::doses(s, cx.units)
                    .into_iter()
                    .filter(|d| d.contains(' '))
                    .collect()
            };
            let (mine, theirs) = (
                amounts(&c.value),
                amounts(&self.clause_text(&(0..t.tokens.len()))),
            );
            let mut rest = theirs.iter();
            let restated = mine.len() >= 2 && mine.iter().all(|d| rest.any(|q| q == d));
            match (have, want) {
                _ if restated => {}
                (Some(Phase::Loading), w)
                    if w != Some(Phase::Loading) && w != Some(Phase::Mixed) =>
                {
                    return Entailment::Fails(
                        Rule::Dose,
                        format!(
                            "in the quote {n} is the loading or initial dose ({:?}), not the dose that follows",
                            self.clause_text(&clause)
                        ),
                    );
                }
                (Some(Phase::Later), Some(Phase::Loading)) => {
                    return Entailment::Fails(
                        Rule::Dose,
                        format!(
                            "in the quote {n} is the dose that follows the first ({:?}), not the loading dose",
                            self.clause_text(&clause)
                        ),
                    );
                }
                _ => {}
            }
        }
        // the phase of dosing a pharmacokinetic value is for: the first dose or repeated
        // dosing ("On day 1, Tmax was 1.7 hr; after repeated dosing Tmax was 0.8 hr")
        let claimed = Text::new(&format!(
            "{} {}",
            c.value,
            c.endpoint.as_deref().unwrap_or("")
        ))
        .tokens
        .iter()
        .map(|x| x.lower.clone())
        .collect::<Vec<_>>();
        let quoted: Vec<String> = ranges
            .iter()
            .flat_map(|r| t.tokens[r.clone()].iter().map(|x| x.lower.clone()))
            .collect();
        if let (Some(have), Some(want)) = (dosing_phase(&quoted), dosing_phase(&claimed))
            && have != want
        {
            return Entailment::Fails(
                Rule::TimePoint,
                format!(
                    "in the quote {n} is the value after {} ({:?}), not after {}",
                    if have {
                        "repeated dosing"
                    } else {
                        "the first dose"
                    },
                    self.clause_text(&clause),
                    if want {
                        "repeated dosing"
                    } else {
                        "the first dose"
                    }
                ),
            );
        }
        // time point: a table cell's own, else the clause's
        if let (Some(tp), false) = (
            table.as_ref().and_then(|c| c.time_point),
            self.claim_tp.is_empty(),
        ) {
            if !self.claim_tp.iter().any(|a| a.same(tp)) {
                return Entailment::Fails(
                    Rule::TimePoint,
                    format!(
                        "in the table {n} is under another time point (day {:.0})",
                        tp.days
                    ),
                );
            }
        } else if !self.claim_tp.is_empty() && !group_dose {
            let skip = |i: &usize| *i != at;
            // a list matched item by item to time points gives each number its own
            let here: Vec<TimePoint> = match t.respective_time(at) {
                Some(tp) => vec![tp],
                None => ranges
                    .iter()
                    .flat_map(|r| t.time_points(r.clone()))
                    .filter(|(i, _)| skip(i))
                    .map(|(_, tp)| tp)
                    .collect(),
            };
            let all: Vec<TimePoint> = t
                .time_points(0..t.tokens.len())
                .into_iter()
                .filter(|(i, _)| skip(i))
                .map(|(_, tp)| tp)
                .collect();
            let hit = |v: &[TimePoint]| self.claim_tp.iter().any(|a| v.iter().any(|b| a.same(*b)));
            if !here.is_empty() {
                if !hit(&here) {
                    let why = match t.respective_time(at) {
                        Some(tp) => format!(
                            "in the quote {n} is the value at {}: its list of numbers is matched item by item to a list of time points",
                            tp.describe()
                        ),
                        None => format!(
                            "in the quote {n} is the value at another time point ({:?})",
                            self.clause_text(&clause)
                        ),
                    };
                    return Entailment::Fails(Rule::TimePoint, why);
                }
            } else if !all.is_empty() && !hit(&all) {
                return Entailment::Fails(
                    Rule::TimePoint,
                    "the quote's time points are not the claimed one".to_string(),
                );
            } else if all.len() > 1 {
                undecided.get_or_insert_with(|| {
                    format!(
                        "the quote has several time points and {n} is bound to none in its clause"
                    )
                });
            }
        }
        // population: whom the number's own stretch counts, when the quote counts others
        if let Some(why) = stretch_population(c, t, at) {
            return Entailment::Fails(Rule::Population, why);
        }
        let lead = leading_phrase(t);
        // "change from baseline" is a measure, not patients defined at baseline
        let from_baseline = |i: usize| {
            t.tokens[i].lower == "baseline" && matches!(t.word(i.wrapping_sub(1)), Some("from"))
        };
        let qualifier = (0..t.tokens.len())
            .filter(|&i| (in_ranges(i) || lead.contains(&i)) && !from_baseline(i))
            .map(|i| &t.tokens[i])
            .find(|x| {
                x.kind == Kind::Word
                    && (STRONG_SUBGROUP.contains(&x.lower.as_str())
                        || SUBGROUP.contains(&x.lower.as_str()))
            })
            .map(|x| x.text);
        if overall(c.population.as_deref()) {
            if let Some(q) = qualifier
                && (self.arm_level
                    || c.field.contains("dose")
                    || STRONG_SUBGROUP.contains(&q.to_lowercase().as_str()))
            {
                return Entailment::Fails(
                    Rule::Population,
                    format!(
                        "in the quote {n} is given for a subgroup ({q:?}: {:?}), not for all patients",
                        self.clause_text(&clause)
                    ),
                );
            }
        } else {
            let pop = Text::new(c.population.as_deref().unwrap_or(""));
            let claimed_ages = claimed_ages(&pop);
            // the ages of the number's own sentence, else of the whole quote, else of the
            // label section it sits in ("8.4 Pediatric Use")
            let quoted_ages = match ages_in(t, sentence(t, at)) {
                near if !near.is_empty() => near,
                _ => match ages_in(t, 0..t.tokens.len()) {
                    all if !all.is_empty() => all,
                    _ => section_ages(self.record, c.quote.as_deref().unwrap_or("")),
                },
            };
            if !claimed_ages.is_empty()
                && !quoted_ages.is_empty()
                && !quoted_ages.iter().any(|g| claimed_ages.contains(g))
            {
                return Entailment::Fails(
                    Rule::Population,
                    format!(
                        "the quote gives {n} for {}, and the claim is for {}",
                        AGE_GROUPS[quoted_ages[0]].0, AGE_GROUPS[claimed_ages[0]].0
                    ),
                );
            }
            // ages written as numbers on both sides must meet: children 6 to 12 years
            // are not adolescents 13 to 17, though both are children
            let claimed_ranges = age_ranges(&pop, 0..pop.tokens.len());
            // (else those of the caption of the table the quote sits in: "Children (Ages
            // 6 to 12 Years)" above the row "Decreased Appetite 39% 4%")
            let quoted_ranges = match age_ranges(t, sentence(t, at)) {
                near if !near.is_empty() => near,
                _ => match age_ranges(t, 0..t.tokens.len()) {
                    all if !all.is_empty() => all,
                    _ => caption_above(self.record, c.quote.as_deref().unwrap_or(""))
                        .map(|cap| {
                            let ct = Text::new(cap);
                            age_ranges(&ct, 0..ct.tokens.len())
                        })
                        .unwrap_or_default(),
                },
            };
            if !claimed_ranges.is_empty()
                && !quoted_ranges.is_empty()
                && !claimed_ranges
                    .iter()
                    .any(|a| quoted_ranges.iter().any(|b| a.0 <= b.1 && b.0 <= a.1))
            {
                let shown = |(lo, hi): (f64, f64)| {
                    if hi.is_infinite() {
                        format!("ages {lo} and older")
                    } else {
                        format!("ages {lo} to {hi}")
                    }
                };
                return Entailment::Fails(
                    Rule::Population,
                    format!(
                        "the quote gives {n} for {}, and the claim is for {}",
                        shown(quoted_ranges[0]),
                        shown(claimed_ranges[0])
                    ),
                );
            }
            // sex and region: a number for women is not one for men, nor one for U.S.
            // patients one for foreign ones; read in the number's sentence, else the quote
            type Side = fn(&Text<'_>, std::ops::Range<usize>) -> Option<bool>;
            let sides: [(Side, [&str; 2]); 2] = [
                (sex, ["men", "women"]),
                (region, ["non-U.S. patients", "U.S. patients"]),
            ];
            for (read, names) in sides {
                if let Some(have) = read(t, sentence(t, at)).or_else(|| read(t, 0..t.tokens.len()))
                    && let Some(want) = read(&pop, 0..pop.tokens.len())
                    && have != want
                {
                    return Entailment::Fails(
                        Rule::Population,
                        format!(
                            "the quote gives {n} for {}, and the claim is for {}",
                            names[have as usize], names[want as usize]
                        ),
                    );
                }
            }
            if let Some(why) = subgroup_reported_apart(&pop, t, at, self.record) {
                return Entailment::Fails(Rule::Population, why);
            }
            let want = distinctive(c.population.as_deref().unwrap_or(""));
            let all: HashSet<&str> = t.tokens.iter().map(|x| x.lower.as_str()).collect();
            // the population may be named around the quote (a section heading, a group's
            // label): only a population the record never names fails (an approval's
            // record names no population at all: a product's strength is for whomever
            // its label says)
            if self.record.family != crate::domain::Family::Drugsfda
                && !want.iter().any(|w| all.contains(w.as_str()))
                && !{
                    let low = self.record.joined.to_lowercase();
                    want.iter().any(|w| low.contains(stem(w)))
                }
            {
                return Entailment::Fails(
                    Rule::Population,
                    format!(
                        "neither the quote nor its record speaks of {:?}",
                        c.population.as_deref().unwrap_or("")
                    ),
                );
            }
        }
        match undecided {
            Some(w) => Entailment::Undecided(w),
            None => Entailment::Holds,
        }
    }
}

/// Words that say whom a number counts when they sit in its own stretch of the sentence
/// (see [`stretch_subgroups`]): ages, organ impairment, region, prior therapy, a
/// therapy alone or combined.
const STRETCH_SUBGROUP: &[&str] = &[
    "cirrhotic",
    "cirrhosis",
    "hepatic",
    "renal",
    "impairment",
    "impaired",
    "hemodialysis",
    "dialysis",
    "monotherapy",
    "foreign",
    "japanese",
    "chinese",
    "asian",
    "european",
    "hispanic",
    "naive",
    "refractory",
    "pretreated",
];

/// Whether a word marks a subgroup, in any of the subgroup lists.
pub(super) fn subgroup_word(w: &str) -> bool {
    SUBGROUP.contains(&w) || STRONG_SUBGROUP.contains(&w) || STRETCH_SUBGROUP.contains(&w)
}

#[cfg(test)]
pub(super) fn contrasted_clause_for_tests(c: &Claim, quote: &str) -> Option<String> {
    contrasted_clause(c, quote)
}

/// [`stem`], for the other rules.
pub(super) fn stem_of(w: &str) -> &str {
    stem(w)
}

/// The number a parenthesized number glosses ("28/30 (93%)": 28; "9.9 hr (range: 4.1
/// to 25.8 hr)": 9.9), or `at` itself.
fn anchor(t: &Text<'_>, at: usize) -> usize {
    let d = t.tokens[at].depth;
    if d == 0 {
        return at;
    }
    let Some(open) = (0..at).rev().find(|&k| t.tokens[k].depth < d) else {
        return at;
    };
    let Some(mut k) = open.checked_sub(1) else {
        return at;
    };
    if t.tokens[k].kind != Kind::Number {
        let after_number = k > 0 && t.tokens[k - 1].kind == Kind::Number;
        if after_number && (t.tokens[k].text == "%" || is_unit_word(&t.tokens[k].lower)) {
            k -= 1;
        } else {
            return at;
        }
    }
    // "28/30": the ratio's first number
    while k >= 2 && t.tokens[k - 1].text == "/" && t.tokens[k - 2].kind == Kind::Number {
        k -= 2;
    }
    k
}

/// States a trial leaves some of its patients in, by the first letters their words share
/// ("responders", "responded", "responses"; "withdrawn", "withdrawal").
const CONDITION_STEMS: &[&str] = &["respon", "withdr", "discon", "comple", "remiss", "relaps"];

/// The state of [`CONDITION_STEMS`] a word names.
fn condition_stem(w: &str) -> Option<&'static str> {
    let w = w.strip_prefix("non").unwrap_or(w);
    CONDITION_STEMS.iter().copied().find(|s| w.starts_with(s))
}

/// Of whom the number at `at` is a share, when they are patients in a state the trial
/// brought about: "85% of patients with ACR 20 responses at week 24", "22 (22%) of the
/// 100 subjects who were withdrawn", "60% of responders". Gives the state's stem and the
/// phrase after "of" up to its word. A phrase opened by "with" or "in" ends at a verb ("85%
/// of patients with RA achieved a response" counts all patients with RA); one opened by
/// "who" or "that" holds its own verb.
/// The group a "non-" names in number `at`'s own words after it, up to the next number
/// or clause break ("897 patients in non-U.S. clinical trials" gives "U.S.").
fn non_group_after(t: &Text<'_>, at: usize) -> Option<String> {
    let d = t.tokens[at].depth;
    let mut k = at + 1;
    while k + 2 < t.tokens.len()
        && t.tokens[k].kind != Kind::Number
        && !(t.tokens[k].depth == d && t.is_break(k))
    {
        if t.tokens[k].lower == "non" && t.tokens[k + 1].text == "-" {
            let name = group_name(t, k + 2);
            return (!name.is_empty()).then_some(name);
        }
        k += 1;
    }
    None
}

/// The name starting at token `k`: a word and the full stops and one-letter words that
/// continue it ("U.S.").
fn group_name(t: &Text<'_>, k: usize) -> String {
    let mut name = String::new();
    let mut j = k;
    while let Some(x) = t.tokens.get(j) {
        let ok = match x.kind {
            Kind::Word => name.is_empty() || (name.ends_with('.') && x.text.chars().count() == 1),
            Kind::Symbol => x.text == "." && !name.is_empty() && !name.ends_with('.'),
            Kind::Number => false,
        };
        if !ok {
            break;
        }
        name.push_str(x.text);
        j += 1;
    }
    name
}

/// Whether `t` names the group `name` without a "non-" before it.
fn names_plainly(t: &Text<'_>, name: &str) -> bool {
    (0..t.tokens.len()).any(|k| {
        t.tokens[k].kind == Kind::Word
            && group_name(t, k).eq_ignore_ascii_case(name)
            && !(k >= 2 && t.tokens[k - 1].text == "-" && t.tokens[k - 2].lower == "non")
    })
}

/// [`stretch_population`]'s reading of a number that counts part of the group counted
/// just before it ("including 28/30 (93%) who were …", "of whom 12 (4%) had …").
fn share_of_those_counted(c: &Claim, t: &Text<'_>, at: usize) -> Option<String> {
    let a = anchor(t, at);
    let part = match (t.word(a.wrapping_sub(1)), t.word(a.wrapping_sub(2))) {
        (Some("including"), _) => true,
        (Some("whom" | "which"), Some("of")) => true,
        _ => false,
    };
    // a share, not a count of the part ("including 107 patients 75 years of age and
    // older" counts those patients)
    if !part || t.tokens.get(at + 1).is_none_or(|x| x.text != "%") {
        return None;
    }
    let vw = words(&c.value);
    let theirs = vw.windows(2).any(|p| {
        p[0] == "of" && matches!(p[1].as_str(), "them" | "those" | "whom" | "these" | "which")
    });
    let fraction = t.tokens.get(a + 1).is_some_and(|x| x.text == "/")
        && t.tokens.get(a + 2).is_some_and(|x| x.kind == Kind::Number)
        && c.value.replace(' ', "").contains(&format!(
            "{}/{}",
            t.tokens[a].text,
            t.tokens[a + 2].text
        ));
    (!theirs && !fraction).then(|| {
        format!(
            "in the quote {} is a share of those counted just before it, which the claim gives as a share of its own population",
            t.tokens[at].text
        )
    })
}

/// Words that name women, and words that name men.
const FEMALE: [&str; 5] = ["female", "females", "women", "woman", "girls"];
const MALE: [&str; 5] = ["male", "males", "men", "man", "boys"];

/// The sex a share right after number `at` is of ("2.6% of males", "in 3 of 120 women"
/// is not this: only "of" right after the number and its "%").
fn sex_denominator(t: &Text<'_>, at: usize) -> Option<&'static str> {
    let mut k = at + 1;
    if t.tokens.get(k).is_some_and(|x| x.text == "%") {
        k += 1;
    }
    if t.word(k) != Some("of") {
        return None;
    }
    let w = t.word(k + 1)?;
    FEMALE.iter().chain(&MALE).find(|s| **s == w).copied()
}

fn conditional_denominator(t: &Text<'_>, at: usize) -> Option<(&'static str, String)> {
    let base = t.tokens[anchor(t, at)].depth;
    let mut k = at + 1;
    while k < t.tokens.len()
        && (t.tokens[k].depth > base || matches!(t.tokens[k].text, "%" | "(" | ")"))
    {
        k += 1;
    }
    if t.word(k) != Some("of") {
        return None;
    }
    let end = sentence(t, at).end.min(k + 14);
    // 0: no relative clause yet; 1: after "with"/"in"; 2: after "who"/"that"
    let mut relative = 0;
    for j in k + 1..end {
        if t.is_break(j) || t.tokens[j].depth != base {
            break;
        }
        let w = t.tokens[j].lower.as_str();
        if t.tokens[j].kind != Kind::Word {
            continue;
        }
        let verb = w.ends_with("ed")
            || matches!(
                w,
                "were" | "was" | "is" | "are" | "had" | "has" | "have" | "did" | "will" | "may"
            );
        if verb && relative < 2 {
            return None;
        }
        if let Some(s) = condition_stem(w) {
            let phrase: Vec<&str> = t.tokens[k + 1..=j].iter().map(|x| x.text).collect();
            return Some((s, phrase.join(" ")));
        }
        match w {
            "with" | "in" if relative == 0 => relative = 1,
            "who" | "whose" | "that" | "having" => relative = 2,
            _ => {}
        }
    }
    None
}

/// Whom the number at `at` counts, as its own stretch of the sentence says: the words
/// from the number before it (at its depth) up to it, and, when words of whom follow it
/// ("26% with HUMIRA monotherapy", "28/30 (93%) who were ≥ 70 years of age"), those up to
/// the next clause break. Each is a word of [`STRETCH_SUBGROUP`] or an age group.
fn stretch_subgroups(t: &Text<'_>, at: usize) -> Vec<String> {
    let a = anchor(t, at);
    let d = t.tokens[a].depth;
    let sent = sentence(t, a);
    let start = (sent.start..a)
        .rev()
        .find(|&k| t.tokens[k].kind == Kind::Number && t.tokens[k].depth == d)
        .map_or(sent.start, |k| k + 1);
    let mut ranges = vec![start..a];
    let mut k = a + 1;
    while k + 1 < sent.end && t.tokens[k].text == "/" && t.tokens[k + 1].kind == Kind::Number {
        k += 2;
    }
    if k < sent.end && (t.tokens[k].text == "%" || is_unit_word(&t.tokens[k].lower)) {
        k += 1;
    }
    if k < sent.end && t.tokens[k].text == "(" {
        k = (k + 1..sent.end)
            .find(|&j| t.tokens[j].text == ")" && t.tokens[j].depth == t.tokens[k].depth)
            .map_or(sent.end, |j| j + 1);
    }
    if matches!(t.word(k), Some("with" | "in" | "who" | "among")) {
        let end = (k + 1..sent.end)
            .find(|&j| t.tokens[j].depth == d && t.is_break(j))
            .unwrap_or(sent.end);
        ranges.push(k..end);
    }
    // "… with MTX had a lower rate than those on HUMIRA monotherapy (1% versus 12%)": the
    // other side of the comparison is no part of the number's stretch
    if let Some((_, theirs)) = t.than_sides(at) {
        ranges = ranges
            .into_iter()
            .flat_map(|r| {
                [
                    r.start..r.end.min(theirs.start),
                    r.start.max(theirs.end)..r.end,
                ]
            })
            .filter(|r| !r.is_empty())
            .collect();
    }
    let mut out: Vec<String> = Vec::new();
    // "with prior TNF-blocker use, 10% …": prior therapy, not "prior to"
    for r in &ranges {
        for k in r.clone() {
            if t.word(k) == Some("prior") && t.word(k + 1) != Some("to") {
                out.push("prior".to_string());
                break;
            }
        }
    }
    out.dedup();
    // a sentence that opens "Among the patients whose …," counts only them: its label is
    // the phrase's own words (no drug names, no words for patients)
    if t.word(sent.start) == Some("among") {
        let end = (sent.start..a)
            .find(|&j| t.tokens[j].depth == 0 && t.tokens[j].text == ",")
            .unwrap_or(a);
        let label: Vec<&str> = t.tokens[sent.start + 1..end]
            .iter()
            .filter(|x| {
                x.kind == Kind::Word
                    && x.depth == 0
                    && x.lower.len() >= 4
                    && !drug_like(&x.lower)
                    && !matches!(
                        x.lower.as_str(),
                        "patients"
                            | "subjects"
                            | "participants"
                            | "those"
                            | "whose"
                            | "were"
                            | "with"
                            | "that"
                            | "have"
                            | "had"
                    )
            })
            .map(|x| x.lower.as_str())
            .collect();
        if !label.is_empty() {
            out.push(label.join(" "));
        }
    }
    for r in ranges {
        for x in &t.tokens[r.clone()] {
            if x.kind == Kind::Word
                && STRETCH_SUBGROUP.contains(&x.lower.as_str())
                && !out.contains(&x.lower)
            {
                out.push(x.lower.clone());
            }
        }
        for g in ages_in(t, r) {
            let name = super::AGE_GROUPS[g].0.to_string();
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// Whether the number at `i` is an age bound: "65 years of age and older", "75 years or
/// over", "≥ 70 years".
fn age_bound_at(t: &Text<'_>, i: usize) -> bool {
    let Some(x) = t.tokens.get(i).filter(|x| x.kind == Kind::Number) else {
        return false;
    };
    if !matches!(t.word(i + 1), Some("year" | "years")) || x.text.contains('.') {
        return false;
    }
    let before = i > 0 && matches!(t.tokens[i - 1].text, "≥" | ">" | ">=" | "≧");
    let after = (i + 2..(i + 7).min(t.tokens.len()))
        .take_while(|&k| !t.is_break(k) || t.word(k) == Some("and") || t.word(k) == Some("or"))
        .any(|k| matches!(t.word(k), Some("older" | "over" | "above")));
    before || after
}

/// The words of a phrase that name whom it counts: words of at least `min_len` bytes
/// that are neither the drug's own names (`own`), nor drug-like, nor in `skip`.
fn label_words<'a, 't>(
    tokens: &'a [Token<'t>],
    own: &'a [String],
    min_len: usize,
    skip: &'a [&str],
) -> impl Iterator<Item = &'a Token<'t>> {
    tokens.iter().filter(move |x| {
        x.kind == Kind::Word
            && x.lower.len() >= min_len
            && !drug_like(&x.lower)
            && !own.contains(&x.lower)
            && !skip.contains(&x.lower.as_str())
    })
}

/// The words after "with" of a sentence that opens "In patients with …," before the
/// number at `at` ("In patients with Ps, the rate … was 8%"), if it opens so.
fn condition_opener(t: &Text<'_>, start: usize, at: usize) -> Option<std::ops::Range<usize>> {
    if t.word(start) != Some("in") {
        return None;
    }
    let mut k = start + 1;
    // "In adult patients with", "In pediatric subjects with"
    while k < start + 4 && !matches!(t.word(k), Some("patients" | "subjects" | "participants")) {
        t.word(k)?;
        k += 1;
    }
    if !matches!(t.word(k), Some("patients" | "subjects" | "participants"))
        || t.word(k + 1) != Some("with")
    {
        return None;
    }
    let from = k + 2;
    let end =
        (from..at.min(from + 6)).find(|&j| t.tokens[j].depth == 0 && t.tokens[j].text == ",")?;
    (end > from).then_some(from..end)
}

/// The age bound that follows the number at `at` in its own stretch ("107 patients 75
/// years of age and older"): across a unit or up to three words, before any comma.
fn age_bound_after<'t>(t: &Text<'t>, at: usize) -> Option<&'t str> {
    let mut k = at + 1;
    for _ in 0..4 {
        let x = t.tokens.get(k)?;
        if x.kind == Kind::Number {
            return age_bound_at(t, k).then_some(x.text);
        }
        if matches!(x.text, "≥" | ">" | ">=" | "≧") {
            k += 1;
            continue;
        }
        if x.kind != Kind::Word || t.is_break(k) {
            return None;
        }
        k += 1;
    }
    None
}

/// A number whose own stretch counts a subgroup (cirrhotic patients, HUMIRA
/// monotherapy, those ≥ 70 years) that the claim does not name, in a quote that gives
/// another number for others: that number is the subgroup's, not the claim's.
fn stretch_population(c: &Claim, t: &Text<'_>, at: usize) -> Option<String> {
    // a time point or a study's length ("24 week double-blind", "(26 weeks)") counts no one
    let length = matches!(
        t.word(at + 1),
        Some(
            "day"
                | "days"
                | "week"
                | "weeks"
                | "wk"
                | "wks"
                | "month"
                | "months"
                | "year"
                | "years"
        )
    );
    if length || t.is_time_number(at) {
        return None;
    }
    // "85% of patients with ACR 20 responses at week 24": a share of those the trial
    // left in some state, which the claim must name as its population or endpoint
    if let Some((word, phrase)) = conditional_denominator(t, at) {
        let named = words(&format!(
            "{} {}",
            c.population.as_deref().unwrap_or(""),
            c.endpoint.as_deref().unwrap_or("")
        ))
        .iter()
        .any(|w| condition_stem(w) == Some(word));
        if !named {
            return Some(format!(
                "in the quote {} is a share of {phrase:?}, which the claim's population does not say",
                t.tokens[at].text
            ));
        }
    }
    // "897 patients in non-U.S. clinical trials": a number for those outside a group is
    // not the group's
    if let Some(name) = non_group_after(t, at) {
        let said = super::said(c);
        if names_plainly(&Text::new(&said), &name) {
            return Some(format!(
                "in the quote {} is for non-{name} patients, and the claim says {name}",
                t.tokens[at].text
            ));
        }
    }
    // "30/1,959 (1.5%) … reported falls, including 28/30 (93%) who were ≥ 70 years": a
    // share of those just counted, which the claim must give as theirs ("93% of them",
    // "28/30"), not as a rate among the people it names ("falls in 93% of patients aged 70
    // and over")
    if let Some(why) = share_of_those_counted(c, t, at) {
        return Some(why);
    }
    // "2.6% of males on VYVANSE": a share of one sex, which the claim must say
    if let Some(sex) = sex_denominator(t, at) {
        let said = super::said(c);
        let st = Text::new(&said);
        if !(0..st.tokens.len()).any(|k| {
            st.word(k)
                .is_some_and(|w| FEMALE.contains(&w) || MALE.contains(&w))
        }) {
            return Some(format!(
                "in the quote {} is a share of {sex} only, which the claim does not say",
                t.tokens[at].text
            ));
        }
    }
    // (the claim's own words are read only when the quote gives a reason to)
    let sent = sentence(t, at);
    let opener = t.word(sent.start) == Some("in")
        && matches!(t.word(sent.start + 1), Some("a" | "the"))
        && matches!(
            t.word(sent.start + 2),
            Some("subgroup" | "subset" | "subpopulation")
        );
    let bound = age_bound_after(t, anchor(t, at));
    let mine = stretch_subgroups(t, at);
    let condition = condition_opener(t, sent.start, at);
    if !opener && condition.is_none() && bound.is_none() && mine.is_empty() {
        return None;
    }
    let said = super::said(c);
    let st = Text::new(&said);
    // the claim's words, stemmed, and the drug's own names, which say nothing of whom
    // ("HUMIRA-treated")
    let said_stems: Vec<String> = st
        .tokens
        .iter()
        .map(|x| stem(&x.lower).to_string())
        .collect();
    let own = words(&format!("{} {}", c.asset, c.arm.as_deref().unwrap_or("")));
    // "519 patients 65 years of age and older, including 107 patients 75 years of age
    // and older": an age bound right after the number is whom it counts
    if let Some(n) = bound {
        let claimed: Vec<&str> = (0..st.tokens.len())
            .filter(|&i| age_bound_at(&st, i))
            .map(|i| st.tokens[i].text)
            .collect();
        if !claimed.is_empty() && !claimed.contains(&n) {
            return Some(format!(
                "in the quote {} counts patients {n} years and older, and the claim is for {} years and older",
                t.tokens[at].text,
                claimed.join(", ")
            ));
        }
    }
    // "In a subgroup of 10,113 U.S. and Canadian HUMIRA-treated patients, the rate …": the
    // sentence says outright that its numbers are a subgroup's
    if opener {
        // up to the phrase's comma (not one inside "10,113")
        let end = (sent.start..at)
            .find(|&j| {
                t.tokens[j].depth == 0
                    && t.tokens[j].text == ","
                    && t.tokens.get(j + 1).is_some_and(|x| x.kind != Kind::Number)
            })
            .unwrap_or(sent.start);
        let said_words: Vec<String> = st.tokens.iter().map(|x| x.lower.clone()).collect();
        let label: Vec<&str> = label_words(
            // (no comma before the number: no phrase to read)
            &t.tokens[(sent.start + 3).min(end)..end],
            &own,
            3,
            &[
                "patients",
                "subjects",
                "participants",
                "and",
                "with",
                "the",
                "treated",
            ],
        )
        .map(|x| x.lower.as_str())
        .collect();
        if !label.is_empty() && !label.iter().any(|w| said_words.iter().any(|s| s == w)) {
            return Some(format!(
                "in the quote {} is for a subgroup ({:?}), which the claim does not name",
                t.tokens[at].text,
                label.join(" ")
            ));
        }
    }
    // "In patients with Ps, the rate … was 8%": the sentence opens on the condition of
    // the patients its numbers count
    if let Some(range) = condition {
        let label: Vec<&str> = label_words(
            &t.tokens[range],
            &own,
            2,
            &["and", "or", "the", "a", "an", "of"],
        )
        .map(|x| x.text)
        .collect();
        let said_lower = said.to_lowercase();
        let named = |w: &str| {
            let w = w.to_lowercase();
            said_stems.iter().any(|s| s == stem(&w)) || super::initialism_in(&w, &said_lower)
        };
        if !label.is_empty() && !label.iter().any(|w| named(w)) {
            return Some(format!(
                "in the quote {} counts patients with {:?}, which the claim does not name",
                t.tokens[at].text,
                label.join(" ")
            ));
        }
    }
    if mine.is_empty() {
        return None;
    }
    let said_ages: Vec<&str> = ages_in(&st, 0..st.tokens.len())
        .into_iter()
        .map(|g| super::AGE_GROUPS[g].0)
        .collect();
    let named = |g: &str| {
        said_ages.contains(&g)
            || g.split(' ')
                .any(|p| said_stems.iter().any(|w| w == stem(p)))
    };
    let unnamed: Vec<&String> = mine.iter().filter(|g| !named(g)).collect();
    let own = anchor(t, at);
    let g = unnamed.into_iter().find(|g| {
        (0..t.tokens.len()).any(|j| {
            t.tokens[j].kind == Kind::Number
                && anchor(t, j) != own
                && !stretch_subgroups(t, j).contains(g)
        })
    })?;
    Some(format!(
        "in the quote {} counts only patients of one kind ({g}), which the claim does not say, and the quote gives other numbers for others",
        t.tokens[at].text
    ))
}

/// The claim's population is a subgroup ("patients with prior TNF-blocker use") that the
/// number's sentence does not name and that the record reports apart ("In the subgroup of
/// patients in Study UC-II with prior TNF-blocker use, …"): the quote's number counts
/// the whole study, not that subgroup. The subgroup is read as prior therapy ("prior"
/// and the word after it) or a word of [`STRETCH_SUBGROUP`].
fn subgroup_reported_apart(
    pop: &Text<'_>,
    t: &Text<'_>,
    at: usize,
    r: &EvidenceRecord,
) -> Option<String> {
    let mut marks: Vec<String> = Vec::new();
    for k in 0..pop.tokens.len() {
        match pop.word(k) {
            Some("prior") => {
                if let Some(next) = pop.word(k + 1).filter(|w| *w != "to" && w.len() >= 3) {
                    marks.push(format!("prior {next}"));
                }
            }
            Some(w) if STRETCH_SUBGROUP.contains(&w) => marks.push(w.to_string()),
            _ => {}
        }
    }
    if marks.is_empty() {
        return None;
    }
    let sent = sentence(t, at);
    let own: String = t.tokens[sent]
        .iter()
        .map(|x| x.lower.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let low = r.joined.to_lowercase();
    let mark = marks.iter().find(|m| {
        !own.contains(m.as_str())
            && [
                "subgroup of",
                "subgroups of",
                "subset of",
                "subpopulation of",
            ]
            .iter()
            .flat_map(|cue| low.match_indices(cue))
            .any(|(i, cue)| {
                let rest = &low[i + cue.len()..];
                let end = rest.floor_char_boundary(rest.len().min(120));
                // the window stays in its sentence
                let window = rest[..end].split(". ").next().unwrap_or("");
                Text::new(window)
                    .tokens
                    .iter()
                    .map(|x| x.lower.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
                    .contains(m.as_str())
            })
    })?;
    Some(format!(
        "the record reports the subgroup with {mark:?} apart, and the sentence of {} does not name it: its number counts the whole study",
        t.tokens[at].text
    ))
}

/// Words that make a dose conditional on whom it is for ("if their weight was less than
/// 30 kg", "with creatinine clearance ≥ 60 mL/min", "not receiving methotrexate").
const DOSE_CONDITIONS: &[&str] = &[
    "weight",
    "weighing",
    "weigh",
    "kg",
    "creatinine",
    "clearance",
    "crcl",
    "egfr",
    "renal",
    "hepatic",
    "dialysis",
    "hemodialysis",
    "receiving",
];

/// The interval of values a condition allows, read from its bounds ("≥ 40 and < 60",
/// "less than 30 kg", "30 kg or greater", "between 40 and 60", "at least 18"): (low,
/// high), each with whether it is included. None when the tokens bound nothing.
fn condition_interval(
    t: &Text<'_>,
    r: std::ops::Range<usize>,
) -> Option<((f64, bool), (f64, bool))> {
    let num = |k: usize| {
        t.tokens
            .get(k)
            .filter(|x| x.kind == Kind::Number && r.contains(&k))
            .and_then(|x| x.lower.parse::<f64>().ok())
    };
    let (mut lo, mut hi) = ((f64::NEG_INFINITY, false), (f64::INFINITY, false));
    let mut any = false;
    let mut lower = |v: f64, incl: bool| {
        if v > lo.0 || (v == lo.0 && !incl) {
            lo = (v, incl);
        }
    };
    let mut bounds: Vec<(bool, f64, bool)> = Vec::new(); // (is lower, value, included)
    for k in r.clone() {
        let x = &t.tokens[k];
        match (x.text, t.word(k), t.word(k + 1)) {
            ("≥", _, _) => num(k + 1)
                .into_iter()
                .for_each(|v| bounds.push((true, v, true))),
            (">", _, _) => num(k + 1)
                .into_iter()
                .for_each(|v| bounds.push((true, v, false))),
            ("≤", _, _) => num(k + 1)
                .into_iter()
                .for_each(|v| bounds.push((false, v, true))),
            ("<", _, _) => num(k + 1)
                .into_iter()
                .for_each(|v| bounds.push((false, v, false))),
            (_, Some("less" | "fewer" | "lower"), Some("than")) => num(k + 2)
                .into_iter()
                .for_each(|v| bounds.push((false, v, false))),
            (_, Some("under" | "below"), _) => num(k + 1)
                .into_iter()
                .for_each(|v| bounds.push((false, v, false))),
            (_, Some("greater" | "more" | "higher"), Some("than")) => num(k + 2)
                .into_iter()
                .for_each(|v| bounds.push((true, v, false))),
            (_, Some("over" | "above"), _) => num(k + 1)
                .into_iter()
                .for_each(|v| bounds.push((true, v, false))),
            (_, Some("at"), Some("least")) => num(k + 2)
                .into_iter()
                .for_each(|v| bounds.push((true, v, true))),
            (_, Some("between"), _) => {
                if let (Some(a), Some("and" | "to"), Some(b)) =
                    (num(k + 1), t.word(k + 2), num(k + 3))
                {
                    bounds.push((true, a, true));
                    bounds.push((false, b, false));
                }
            }
            // "30 kg or greater", "18 years or older"
            (_, Some("or"), Some("greater" | "more" | "older" | "above" | "higher")) => {
                let v = (k.saturating_sub(3)..k).rev().find_map(num);
                v.into_iter().for_each(|v| bounds.push((true, v, true)))
            }
            _ => {}
        }
    }
    for (is_lower, v, incl) in bounds {
        any = true;
        if is_lower {
            lower(v, incl);
        } else if v < hi.0 || (v == hi.0 && !incl) {
            hi = (v, incl);
        }
    }
    any.then_some((lo, hi))
}

/// The stages of an organ's impairment tokens `r` name: mild, moderate, severe, end-stage
/// ("end stage renal disease", "ESRD"). "Moderate to severe" names two.
fn severities(t: &Text<'_>, r: std::ops::Range<usize>) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for k in r.clone() {
        let stage = match t.word(k) {
            Some("mild" | "mildly") => "mild",
            Some("moderate" | "moderately") => "moderate",
            Some("severe" | "severely") => "severe",
            Some("esrd" | "eskd") => "end-stage",
            Some("end") if (k + 1..(k + 3).min(r.end)).any(|j| t.word(j) == Some("stage")) => {
                "end-stage"
            }
            _ => continue,
        };
        if !out.contains(&stage) {
            out.push(stage);
        }
    }
    out
}

/// Whether two intervals of [`condition_interval`] share no value.
fn disjoint(a: ((f64, bool), (f64, bool)), b: ((f64, bool), (f64, bool))) -> bool {
    let lo = if a.0.0 > b.0.0 || (a.0.0 == b.0.0 && !a.0.1) {
        a.0
    } else {
        b.0
    };
    let hi = if a.1.0 < b.1.0 || (a.1.0 == b.1.0 && !a.1.1) {
        a.1
    } else {
        b.1
    };
    lo.0 > hi.0 || (lo.0 == hi.0 && !(lo.1 && hi.1))
}

/// A dose the quote gives only on a condition of whom it is for (its own stretch of
/// the sentence, between the doses before and after it, names a weight, a renal
/// function, a co-therapy the patients lack): the claim must name the condition, and a
/// range of it that meets the quote's ("weight < 30 kg" against "if their weight was 30
/// kg or greater", "creatinine clearance ≥ 60" against "≥ 40 and < 60 mL/min").
/// A dose the quote offers as an option ("Eligible patients may receive nivolumab at 480
/// mg every 4 weeks"), stated by the claim as the regimen: without a word of option
/// ("may", "option", "up to", "increase") or the condition it is offered on.
fn optional_dose(c: &Claim, t: &Text<'_>, at: usize) -> Option<String> {
    let optional = (sentence(t, at).start..at)
        .any(|k| matches!(t.word(k), Some("may" | "eligible" | "optionally")));
    if !optional {
        return None;
    }
    let said = super::said(c).to_lowercase();
    let words: Vec<&str> = said.split(|ch: char| !ch.is_alphanumeric()).collect();
    let stated = words
        .iter()
        .any(|w| OPTION_WORDS.contains(w) || DOSE_CONDITIONS.contains(w));
    (!stated).then(|| {
        format!(
            "in the quote {} is a dose some patients may be given, an option the claim states as the regimen",
            t.tokens[at].text
        )
    })
}

/// A dose the quote gives as the most a patient may take ("The maximum dose is 70
/// mg/day"), claimed as the dose itself without saying it is the maximum.
fn maximum_dose(c: &Claim, t: &Text<'_>, at: usize) -> Option<String> {
    let clause = t.clause(at);
    let ws: Vec<&str> = (clause.start..clause.end)
        .filter_map(|k| t.word(k))
        .collect();
    let maximum = ws.iter().any(|w| matches!(*w, "maximum" | "max"))
        || ws.windows(2).any(|p| p == ["not", "exceed"]);
    if !maximum {
        return None;
    }
    let said = super::said(c).to_lowercase();
    let stated = said.split(|ch: char| !ch.is_alphanumeric()).any(|w| {
        matches!(
            w,
            "maximum" | "max" | "up" | "exceed" | "highest" | "limit" | "ceiling" | "maximal"
        )
    });
    (!stated).then(|| {
        format!(
            "in the quote {} is the maximum dose ({:?}), which the claim states as the dose",
            t.tokens[at].text,
            ws.join(" ")
        )
    })
}

/// Words with which a claim states a dose as an option.
const OPTION_WORDS: &[&str] = &[
    "may",
    "option",
    "optional",
    "optionally",
    "eligible",
    "up",
    "maximum",
    "max",
    "increase",
    "increased",
    "increasing",
    "titrated",
    "titration",
    "switch",
    "switched",
    "extension",
    "later",
    "thereafter",
];

fn dose_condition(c: &Claim, t: &Text<'_>, at: usize) -> Option<String> {
    // "receiving" alone is no condition; "not receiving …" is
    let conditions = |seg: std::ops::Range<usize>| -> Vec<&str> {
        seg.filter(|&k| {
            let x = &t.tokens[k];
            x.kind == Kind::Word
                && DOSE_CONDITIONS.contains(&x.lower.as_str())
                && (x.lower != "receiving" || (k > 0 && t.word(k - 1) == Some("not")))
        })
        .map(|k| t.tokens[k].lower.as_str())
        .collect()
    };
    // the dose's own stretch of its sentence (up to the next dose), from the start of its
    // clause: "… less than 30 kg and | with 40 mg … if their weight was 30 kg or greater"
    let whole = dose_segment(t, at, sentence(t, at));
    let seg = t.clause(at).start.max(whole.start)..whole.end;
    let cond = conditions(seg.clone());
    if cond.is_empty() {
        return None;
    }
    let said = [
        c.population.as_deref(),
        c.endpoint.as_deref(),
        Some(c.value.as_str()),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ");
    let st = Text::new(&said);
    let said_words: Vec<&str> = st.tokens.iter().map(|x| x.lower.as_str()).collect();
    let seg_text = t.tokens[seg.clone()]
        .iter()
        .map(|x| x.text)
        .collect::<Vec<_>>()
        .join(" ");
    if !cond.iter().any(|w| said_words.contains(w)) {
        return Some(format!(
            "in the quote {} is given only on a condition the claim does not name ({seg_text:?})",
            t.tokens[at].text
        ));
    }
    // "Severe renal impairment: Maximum dose is 50 mg/day" is no dose for end-stage
    // renal disease: the stages the quote names and those the claim names must meet
    let (quoted, claimed) = (
        severities(t, seg.clone()),
        severities(&st, 0..st.tokens.len()),
    );
    if !quoted.is_empty() && !claimed.is_empty() && !quoted.iter().any(|q| claimed.contains(q)) {
        return Some(format!(
            "in the quote {} is given for {} impairment ({seg_text:?}), and the claim is for {}",
            t.tokens[at].text,
            quoted.join(" or "),
            claimed.join(" or ")
        ));
    }
    match (
        condition_interval(t, seg),
        condition_interval(&st, 0..st.tokens.len()),
    ) {
        (Some(a), Some(b)) if disjoint(a, b) => Some(format!(
            "in the quote {} is given for the other side of the condition ({seg_text:?})",
            t.tokens[at].text
        )),
        _ => None,
    }
}

/// Whether tokens speak of the first dose (`Some(false)`: "day 1", "single dose",
/// "first dose") or of repeated dosing (`Some(true)`: "repeated", "multiple doses",
/// "steady state"), when they speak of one only.
fn dosing_phase(ws: &[String]) -> Option<bool> {
    let pair = |a: &str, b: &[&str]| {
        ws.windows(2)
            .any(|p| p[0] == a && b.contains(&p[1].as_str()))
    };
    let first = pair("day", &["1"])
        || pair("single", &["dose", "doses", "dosing"])
        || pair("first", &["dose"]);
    let repeated = ws
        .iter()
        .any(|w| matches!(w.as_str(), "repeated" | "steady"))
        || pair("multiple", &["dose", "doses", "dosing"]);
    only(repeated, first)
}

/// Whether tokens `r` speak of women only (`Some(true)`) or men only (`Some(false)`).
fn sex(t: &Text<'_>, r: std::ops::Range<usize>) -> Option<bool> {
    let (mut f, mut m) = (false, false);
    for k in r {
        let w = t.word(k).unwrap_or("");
        f |= FEMALE.contains(&w);
        m |= MALE.contains(&w);
    }
    only(f, m)
}

/// Whether tokens `r` speak of U.S. patients (`Some(true)`: "U.S.", "United States")
/// or of patients elsewhere (`Some(false)`: "foreign", "non-U.S.", "outside the United
/// States"), when they speak of one only.
fn region(t: &Text<'_>, r: std::ops::Range<usize>) -> Option<bool> {
    let (mut us, mut elsewhere) = (false, false);
    for k in r.clone() {
        let w = t.word(k).unwrap_or("");
        let dotted_us = w == "u"
            && t.tokens.get(k + 1).is_some_and(|x| x.text == ".")
            && t.word(k + 2) == Some("s");
        let named = dotted_us || (w == "united" && t.word(k + 1) == Some("states"));
        let negated = k >= 2 && t.word(k - 2) == Some("non")
            || (k >= 1 && matches!(t.word(k - 1), Some("outside" | "non")))
            || (k >= 2 && t.word(k - 1) == Some("the") && t.word(k - 2) == Some("outside"));
        if w == "foreign" || (named && negated) {
            elsewhere = true;
        } else if named {
            us = true;
        }
    }
    only(us, elsewhere)
}

/// How far above a quote the caption of the table it sits in is looked for, in bytes.
const CAPTION_REACH: usize = 1500;

/// The age group of the place a quote sits in: the caption of its table ("Table 1
/// Adverse Reactions Reported by 2% or More of Children (Ages 6 to 12 Years) …", the
/// last "Table N" above the quote in its field), else the label section (its pediatric
/// or geriatric use).
fn section_ages(r: &EvidenceRecord, quote: &str) -> Vec<usize> {
    let Some(i) = r.find(quote) else {
        return Vec::new();
    };
    if let Some(caption) = caption_above(r, quote) {
        let t = Text::new(caption);
        let ages = ages_in(&t, 0..t.tokens.len());
        if !ages.is_empty() {
            return ages;
        }
    }
    let l = r.locators[i].as_str();
    let group = if l.starts_with("/pediatric_use") {
        "children"
    } else if l.starts_with("/geriatric_use") {
        "elderly"
    } else {
        return Vec::new();
    };
    super::AGE_GROUPS
        .iter()
        .position(|(name, _)| *name == group)
        .into_iter()
        .collect()
}

/// The caption of the table a quote sits in, to the quote: from the last "Table N" above
/// it in its field, within [`CAPTION_REACH`].
fn caption_above<'r>(r: &'r EvidenceRecord, quote: &str) -> Option<&'r str> {
    let above = text_before(r, quote)?;
    let above = &above[above.ceil_char_boundary(above.len().saturating_sub(CAPTION_REACH))..];
    let (k, _) = above
        .rmatch_indices("Table ")
        .find(|(k, _)| above[k + 6..].starts_with(|c: char| c.is_ascii_digit()))?;
    Some(&above[k..])
}

/// The sentence around token `at`: bounded by full stops and semicolons outside
/// parentheses.
fn sentence(t: &Text<'_>, at: usize) -> std::ops::Range<usize> {
    // a full stop ends a sentence, not the point of an abbreviation ("U.S. and Canadian",
    // "e.g. rash"): one after a single letter, or before a word in lower case
    let stop = |i: usize| {
        let x = &t.tokens[i];
        let abbreviation = x.text == "."
            && (i > 0
                && t.tokens[i - 1].kind == Kind::Word
                && t.tokens[i - 1].text.chars().count() == 1
                || t.tokens.get(i + 1).is_some_and(|n| {
                    n.kind == Kind::Word && n.text.starts_with(|c: char| c.is_lowercase())
                }));
        x.kind == Kind::Symbol && x.depth == 0 && matches!(x.text, "." | ";") && !abbreviation
    };
    let start = (0..at).rev().find(|&i| stop(i)).map_or(0, |i| i + 1);
    let end = (at..t.tokens.len())
        .find(|&i| stop(i))
        .unwrap_or(t.tokens.len());
    start..end
}

/// The age groups (indexes into `AGE_GROUPS`) tokens `r` name: by word ("pediatric",
/// "adults", "elderly") or by an age range ("who were 4 to 17 years", "≥ 65 years of
/// age", "18 years and older"), as [`age_ranges`] reads them.
pub(super) fn ages_in(t: &Text<'_>, r: std::ops::Range<usize>) -> Vec<usize> {
    let own = own_people(t, r.clone());
    let mut out = age_groups(own.iter().map(|&i| t.tokens[i].lower.as_str()));
    let mut add = |g: &str| {
        if let Some(i) = super::AGE_GROUPS.iter().position(|(name, _)| *name == g)
            && !out.contains(&i)
        {
            out.push(i);
        }
    };
    for (lo, hi) in ranges_among(t, &own) {
        if hi < 18.0 {
            add("children");
        } else if lo >= 65.0 {
            add("elderly");
        } else if lo >= 18.0 {
            add("adults");
        }
    }
    out
}

/// Tokens of `r` outside the reference group of a comparison ("as compared to younger
/// adults (20 to 40 years)", "than in adults"): that group is not whom the numbers are for.
fn own_people(t: &Text<'_>, r: std::ops::Range<usize>) -> Vec<usize> {
    let mut reference = vec![false; t.tokens.len()];
    for i in r.clone() {
        let marker = matches!(t.word(i), Some("than" | "versus" | "vs"))
            || (matches!(t.word(i), Some("compared" | "relative"))
                && matches!(t.word(i + 1), Some("to" | "with")));
        if !marker {
            continue;
        }
        let d = t.tokens[i].depth;
        let mut j = i + 1;
        while j < t.tokens.len() {
            let x = &t.tokens[j];
            let stop = x.depth < d
                || (x.depth == d
                    && (matches!(x.text, "." | ";" | ",") || (j > i + 2 && t.is_break(j))));
            if stop {
                break;
            }
            reference[j] = true;
            j += 1;
        }
    }
    r.filter(|&i| !reference[i]).collect()
}

/// The age ranges in years tokens `r` state, lowest and highest age: "who were 4 to 17
/// years" (4, 17), "≥ 65 years of age" (65, ∞), "18 years and older" (18, ∞). A range is
/// read as ages only where the words say so ("aged", "who were", "of age", "old", "and
/// older", or a noun for people before it), never a duration ("for 1 to 2 years").
pub(super) fn age_ranges(t: &Text<'_>, r: std::ops::Range<usize>) -> Vec<(f64, f64)> {
    ranges_among(t, &own_people(t, r))
}

/// [`age_ranges`] over tokens already read by [`own_people`].
fn ranges_among(t: &Text<'_>, r: &[usize]) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let num = |i: usize| {
        t.tokens
            .get(i)
            .filter(|x| x.kind == Kind::Number && r.contains(&i))
            .and_then(|x| x.lower.parse::<f64>().ok())
    };
    for &i in r {
        let Some(first) = num(i) else { continue };
        // "4 to 17", "4-17", "4 and 17": a range; else one bound
        let (hi_at, second) = match (t.word(i + 1), num(i + 2)) {
            (Some("to" | "and" | "-" | "–" | "through"), Some(n)) => (i + 2, Some(n)),
            _ => match (t.tokens.get(i + 1).map(|x| x.text), num(i + 2)) {
                (Some("-" | "–"), Some(n)) => (i + 2, Some(n)),
                _ => (i, None),
            },
        };
        // "aged 70 or older" says years without the word
        let open_bound = |k: usize| {
            matches!(t.word(k), Some("or" | "and"))
                && matches!(
                    t.word(k + 1),
                    Some("older" | "over" | "above" | "younger" | "under" | "below")
                )
        };
        // "aged ≥ 70" as well
        let signed = i > 0 && matches!(t.tokens[i - 1].text, "≥" | ">" | "<" | "≤");
        let aged = |k: usize| matches!(t.word(k), Some("aged" | "age"));
        let unit = if matches!(t.word(hi_at + 1), Some("years" | "year" | "yrs" | "yr")) {
            1
        } else if second.is_none()
            && ((open_bound(hi_at + 1) && aged(i.wrapping_sub(1)))
                || (signed && aged(i.wrapping_sub(2))))
        {
            0
        } else {
            continue;
        };
        let after: Vec<&str> = (hi_at + 1 + unit..hi_at + 3 + unit)
            .filter_map(|k| t.word(k))
            .collect();
        let before: Vec<&str> = (i.saturating_sub(3)..i).filter_map(|k| t.word(k)).collect();
        let aged = before.iter().any(|w| {
            matches!(
                *w,
                "aged"
                    | "age"
                    | "ages"
                    | "were"
                    | "are"
                    | "was"
                    | "is"
                    | "patients"
                    | "subjects"
                    | "participants"
                    | "children"
                    | "adults"
                    | "adolescents"
                    | "individuals"
                    | "people"
            )
        }) || matches!(after.as_slice(), ["of", "age", ..] | ["old", ..])
            || matches!(
                after.as_slice(),
                [
                    "and" | "or",
                    "older" | "over" | "above" | "younger" | "under" | "below",
                    ..
                ]
            );
        if !aged {
            continue;
        }
        let sign = i.checked_sub(1).map(|k| t.tokens[k].text).unwrap_or("");
        let (lo, hi) = match second {
            Some(hi) => (first, hi),
            None if matches!(sign, "<" | "≤")
                || after.contains(&"younger")
                || after.contains(&"under")
                || after.contains(&"below") =>
            {
                (0.0, first)
            }
            None if matches!(sign, ">" | "≥")
                || after.contains(&"older")
                || after.contains(&"over")
                || after.contains(&"above") =>
            {
                (first, f64::INFINITY)
            }
            None => (first, first),
        };
        out.push((lo, hi));
    }
    out
}

fn regimen_words(g: &str) -> String {
    match g {
        "q1d" => "once daily".into(),
        "q1w" => "weekly".into(),
        "q2w" => "every other week".into(),
        "bid" => "twice daily".into(),
        "biw" => "twice weekly".into(),
        "tid" => "three times daily".into(),
        _ if g.ends_with("xd") => format!("{} times daily", g.trim_end_matches("xd")),
        _ => g.to_string(),
    }
}

/// The sentence's leading phrase up to its first comma when it opens with "In …" or
/// "Among …" (a population that governs the whole sentence).
fn leading_phrase(t: &Text<'_>) -> std::ops::Range<usize> {
    match t.tokens.first().map(|x| x.lower.as_str()) {
        Some("in" | "among" | "for") => {
            let end = t.tokens.iter().position(|x| x.text == ",").unwrap_or(0);
            0..end
        }
        _ => 0..0,
    }
}

/// "In contrast to the benzodiazepines, which non-selectively bind to and activate all BZ
/// receptor subtypes, zolpidem … binds the BZ1 receptor preferentially": the relative
/// clause says what the contrasted group does, and the rest of the sentence what its
/// subject does instead. A claim that says the clause's words, not the rest's, and names
/// no word of the contrasted group, gives the subject what the quote denies it.
fn contrasted_clause(c: &Claim, quote: &str) -> Option<String> {
    // most quotes contrast nothing: they are passed over before any copy is made
    let has = |w: &[u8]| {
        quote
            .as_bytes()
            .windows(w.len())
            .any(|x| x.eq_ignore_ascii_case(w))
    };
    if !(has(b"contrast") || has(b"unlike") || has(b"opposed")) {
        return None;
    }
    let lower = quote.to_lowercase();
    let (at, opener) = [
        "in contrast to ",
        "in contrast with ",
        "unlike ",
        "as opposed to ",
    ]
    .iter()
    .filter_map(|o| lower.find(o).map(|k| (k, *o)))
    .min()?;
    // (the openers are ASCII: their lengths are the same in the lower-cased text)
    let rest = quote.get(at + opener.len()..)?;
    let (group, after) = rest
        .split_once(", which ")
        .or_else(|| rest.split_once(", who "))?;
    if group.split_whitespace().count() > 6 {
        return None;
    }
    let (clause, main) = after.split_once(", ")?;
    let content = |s: &str| -> Vec<String> {
        words(s)
            .into_iter()
            .filter(|w| w.len() >= 4 && !GENERIC.contains(&w.as_str()))
            .map(|w| stem(&w).to_string())
            .collect()
    };
    let (group_w, clause_w, main_w) = (content(group), content(clause), content(main));
    let value_w = content(&c.value);
    // a claim that names the contrasted group may say the clause of it
    if value_w.iter().any(|w| group_w.contains(w)) {
        return None;
    }
    let theirs: Vec<&String> = value_w
        .iter()
        .filter(|w| clause_w.contains(w) && !main_w.contains(w))
        .collect();
    let ours = value_w
        .iter()
        .filter(|w| main_w.contains(w) && !clause_w.contains(w))
        .count();
    (theirs.len() >= 2 && theirs.len() > ours).then(|| {
        format!(
            "in the quote {:?} is said of {:?}, in contrast to which the sentence's subject does otherwise",
            clause.trim(),
            group.trim()
        )
    })
}

/// The unit of a range a number opens, written once after its end: "17 to < 40 kg" gives
/// 17 in kg (not in the unit the claim gives its doses in).
fn range_unit<'u>(t: &Text<'_>, at: usize, units: &'u super::tables::Units) -> Option<&'u str> {
    let mut j = at + 1;
    let joins =
        t.word(j) == Some("to") || t.tokens.get(j).is_some_and(|x| matches!(x.text, "-" | "–"));
    if !joins {
        return None;
    }
    j += 1;
    while t
        .tokens
        .get(j)
        .is_some_and(|x| matches!(x.text, "<" | "≤" | ">" | "≥" | "="))
    {
        j += 1;
    }
    t.tokens
        .get(j)
        .is_some_and(|x| x.kind == Kind::Number)
        .then(|| units.at(t, j + 1))
        .flatten()
}

/// A crude stem, so "improve", "improved" and "improves" meet.
fn stem(w: &str) -> &str {
    for suf in ["ing", "ed", "es", "e", "s"] {
        if let Some(s) = w.strip_suffix(suf)
            && s.len() >= 4
        {
            return s;
        }
    }
    w
}

/// Whether every negation among `ws` denies a difference ("no difference", "did not
/// differ", "no significant difference"), and there is one.
fn no_difference_only(ws: &[String]) -> bool {
    let mut any = false;
    for (i, w) in ws.iter().enumerate() {
        if !NEGATIONS.contains(&w.as_str()) {
            continue;
        }
        let denies = ws[i + 1..ws.len().min(i + 4)].iter().any(|x| {
            matches!(
                x.as_str(),
                "difference" | "differences" | "differ" | "different" | "excess" | "advantage"
            )
        });
        if !denies {
            return false;
        }
        any = true;
    }
    any
}

/// Whether the word at `i` is negated: a negation among the three words before it.
fn negated_at(ws: &[String], i: usize) -> bool {
    (i.saturating_sub(3)..i).any(|k| negation_at(ws, k))
}

const SAME: &[&str] = &["comparable", "similar", "equivalent", "unchanged"];

/// Verbs that say something happened or was found: negated, they deny it.
const EXISTENCE: &[&str] = &[
    "observed",
    "reported",
    "seen",
    "occur",
    "occurred",
    "found",
    "detected",
    "noted",
    "identified",
    "experienced",
    "developed",
    "demonstrated",
    "shown",
];

/// [`not_significant`] against a posted analysis's p-value ("0.247", "<0.001").
pub(super) fn not_significant_at(value: &str, p: &str) -> Option<String> {
    let p = p.trim();
    if p.starts_with('<') || p.starts_with('≤') {
        return None;
    }
    not_significant(value, &format!("={}", p.trim_start_matches('=')))
}

/// A claim of significance at a p-value above 0.05 ("significantly reduced … (p=0.247)"),
/// the p-value read in the value, else in the quote.
fn not_significant(value: &str, quote: &str) -> Option<String> {
    let vw = words(value);
    let claims = vw.iter().enumerate().any(|(i, w)| {
        matches!(w.as_str(), "significant" | "significantly")
            && !vw[i.saturating_sub(3)..i]
                .iter()
                .any(|x| matches!(x.as_str(), "not" | "non" | "no" | "nonsignificant"))
    });
    if !claims {
        return None;
    }
    // "p=0.247", "P = .247", "p-value 0.247", or a quote that is the p-value ("=0.247")
    let p_of = |s: &str| -> Option<f64> {
        let t = Text::new(s);
        (0..t.tokens.len()).find_map(|i| {
            let x = &t.tokens[i];
            if x.kind != Kind::Number {
                return None;
            }
            let named = (1..=3).any(|k| {
                i >= k && matches!(t.tokens[i - k].lower.as_str(), "p" | "pvalue" | "value")
            });
            let equal = i >= 1 && matches!(t.tokens[i - 1].text, "=" | ">" | "≥");
            let bare = i == 1 && t.tokens.len() == 2 && t.tokens[0].text == "=";
            ((named && equal) || bare)
                .then(|| x.lower.parse().ok())
                .flatten()
        })
    };
    let p = p_of(value).or_else(|| p_of(quote))?;
    (p > 0.05 && p <= 1.0).then(|| format!("p = {p} is not significant, and the claim says it is"))
}

/// Direction and negation: a statement and its quote must agree on them.
pub(super) fn direction(c: &Claim, qt: &Text<'_>, scope: Option<&Scope>) -> Option<String> {
    let quote = c.quote.as_deref().unwrap_or("");
    let norm = |s: &str| s.to_lowercase().replace(['_', '-'], " ");
    let (v, q_all) = (norm(&c.value), norm(quote));
    let ni = |s: &str| s.contains("non inferior") || s.contains("noninferior");
    let sup = |s: &str| {
        let ws: Vec<&str> = s.split(|c: char| !c.is_alphanumeric()).collect();
        ws.iter().enumerate().any(|(i, w)| {
            (*w == "superior" || *w == "superiority") && (i == 0 || ws[i - 1] != "non")
        }) && !ni(s)
    };
    if sup(&v) && ni(&q_all) && !sup(&q_all) {
        return Some("the quote states non-inferiority, the claim superiority".into());
    }
    if ni(&v) && sup(&q_all) && !ni(&q_all) {
        return Some("the quote states superiority, the claim non-inferiority".into());
    }
    if let Some(why) = swapped(&c.value, quote) {
        return Some(why);
    }
    if let Some(why) = comparative_turned(c, quote) {
        return Some(why);
    }
    if let Some(why) = not_significant(&c.value, quote) {
        return Some(why);
    }
    if let Some(why) = prefix_antonym(&c.value, quote) {
        return Some(why);
    }
    if let Some(why) = turned_attribute(&c.value, quote) {
        return Some(why);
    }
    if let Some(why) = modal_made_certain(&c.value, quote) {
        return Some(why);
    }
    let vw = words(&c.value);
    let content: Vec<&str> = vw
        .iter()
        .filter(|w| {
            w.len() >= 4
                && !NEGATIONS.contains(&w.as_str())
                && !GENERIC.contains(&w.as_str())
                && !UP.contains(&w.as_str())
                && !DOWN.contains(&w.as_str())
        })
        .map(|w| stem(w))
        .collect();
    if content.is_empty() {
        return None;
    }
    // the quote's clauses that share the most of the value's words, and among them those
    // naming the claimed arm when some do
    let (claimed, _) = sides(c, scope);
    // the clauses that hold the value's own quantities ("at 1 hour") speak of it, else
    // those sharing the most of its words
    let anchored = anchored_clauses(qt, &c.value);
    // "… but was not significant at 1 hour" against "separated from placebo from 1 hour":
    // the clause of the value's own quantity denies an effect there
    if !any_negation(&vw)
        && let Some(r) = anchored
            .iter()
            .find(|r| denies_significance(qt, (*r).clone()))
    {
        return Some(format!(
            "the quote says the effect was not significant there (\"{}\")",
            qt.tokens[r.clone()]
                .iter()
                .map(|x| x.text)
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    let shared = match anchored {
        a if !a.is_empty() => a,
        _ => best_clauses(qt, &content),
    };
    if shared.is_empty() {
        return None;
    }
    let naming: Vec<std::ops::Range<usize>> = shared
        .iter()
        .filter(|r| {
            qt.tokens[(*r).clone()]
                .iter()
                .any(|x| claimed.contains(&x.lower))
        })
        .cloned()
        .collect();
    let all_shared = shared.clone();
    let scope_r = if naming.is_empty() { shared } else { naming };
    let q: String = norm(
        &scope_r
            .iter()
            .flat_map(|r| qt.tokens[r.clone()].iter().map(|x| x.lower.clone()))
            .collect::<Vec<_>>()
            .join(" "),
    );
    let qw: Vec<String> = scope_r
        .iter()
        .flat_map(|r| qt.tokens[r.clone()].iter().map(|x| x.lower.clone()))
        .collect();
    // negation is read over every clause that shares the value's words; a clause that
    // coordinates with a negated verb ("does not bind or inactivate") shares its negation
    let mut nw: Vec<String> = all_shared
        .iter()
        .flat_map(|r| {
            let carried = r.start >= 2
                && matches!(qt.word(r.start - 1), Some("or" | "nor" | "and"))
                && qt.tokens[r.start.saturating_sub(4)..r.start - 1]
                    .iter()
                    .any(|x| matches!(x.lower.as_str(), "not" | "n't" | "never" | "cannot"));
            carried
                .then(|| "not".to_string())
                .into_iter()
                .chain(qt.tokens[r.clone()].iter().map(|x| x.lower.clone()))
        })
        .collect();
    unless_excepted(&mut nw);
    let mut q_neg = false;
    for (i, w) in nw.iter().enumerate() {
        if content.contains(&stem(w)) {
            q_neg |= negated_at(&nw, i);
        }
    }
    // "Secondary skin neoplasms were not observed": the clause denies that what it names
    // happened at all
    // "No apparent correlation of antibody development to adverse reactions was observed"
    q_neg |=
        nw.first().is_some_and(|w| w == "no") && nw.iter().any(|w| EXISTENCE.contains(&w.as_str()));
    // "none of these patients discontinued": a clause that opens by counting no one denies
    // the event it names, when the event is the claim's
    q_neg |= nw
        .first()
        .is_some_and(|w| matches!(w.as_str(), "none" | "neither"))
        && nw
            .iter()
            .any(|w| w.ends_with("ed") && content.contains(&stem(w)));
    q_neg |= nw.iter().enumerate().any(|(i, w)| {
        matches!(w.as_str(), "not" | "n't" | "never")
            && nw[i + 1..]
                .iter()
                .skip_while(|x| matches!(x.as_str(), "be" | "been" | "being"))
                .next()
                .is_some_and(|x| EXISTENCE.contains(&x.as_str()))
    });
    let mut v_neg = false;
    for (i, w) in vw.iter().enumerate() {
        if content.contains(&stem(w)) {
            v_neg |= negated_at(&vw, i);
        }
    }
    let has = |ws: &[String], lex: &[&str]| ws.iter().any(|w| lex.contains(&w.as_str()));
    let v_any_neg = any_negation(&vw);
    let q_any_neg = any_negation(&nw);
    // a change the quote denies in its own words ("no worsening in the SF-36 Mental
    // Component Summary score") is not the claim's change
    if !v_any_neg
        && let Some(w) = vw.iter().find(|w| {
            (UP.contains(&w.as_str()) || DOWN.contains(&w.as_str()))
                && nw
                    .iter()
                    .enumerate()
                    .any(|(i, x)| stem(x) == stem(w) && negated_at(&nw, i))
        })
    {
        return Some(format!(
            "the quote denies what the claim states: it says no {w:?}"
        ));
    }
    // "improved" shares no stem with the content words, so test the verbs too
    let v_change = has(&vw, UP) || has(&vw, DOWN) || sup(&v);
    if (q_neg
        || (q_any_neg
            && v_change
            && has(&qw, UP) == has(&vw, UP)
            && has(&qw, DOWN) == has(&vw, DOWN)))
        && !v_any_neg
    {
        return Some("the quote negates what the claim states".into());
    }
    // a claim's negation matches one anywhere in the sentence of its words ("Neither
    // food nor orange juice affect the AUC and Cmax of …")
    let sentence_neg = all_shared.iter().any(|r| {
        qt.tokens[sentence(qt, r.start)].iter().any(|x| {
            matches!(
                x.lower.as_str(),
                "not" | "n't" | "no" | "neither" | "nor" | "never" | "without"
            )
        })
    });
    // "1.8% of HUMIRA-treated vs 1.8% of control patients (no difference)": a claim whose
    // only negations deny a difference says the groups are equal, which a quote giving
    // the claim's number to both of them states without a negation
    let equal_groups = no_difference_only(&vw) && {
        let own = crate::run::gates::numbers(&c.value);
        own.iter()
            .any(|n| own.iter().filter(|m| *m == n).count() >= 2 && qt.numbers_equal(n).len() >= 2)
    };
    // "no difference from placebo" is what "comparable to placebo" says
    let same_stated = no_difference_only(&vw) && has(&qw, SAME);
    if (v_neg || (v_any_neg && v_change))
        && !q_any_neg
        && !sentence_neg
        && !equal_groups
        && !same_stated
        && (has(&qw, UP) || has(&qw, DOWN) || sup(&q) || content_verbs(&qw, &vw))
    {
        return Some("the claim negates what the quote states".into());
    }
    // a word of the claim that the quote says only under a negation ("however,
    // teratogenicity was not observed" for "teratogenic in rats")
    if !v_any_neg {
        let all_q: Vec<String> = qt.tokens.iter().map(|x| x.lower.clone()).collect();
        let meets = |a: &str, b: &str| {
            stem(a) == stem(b) || {
                let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
                common >= 8
            }
        };
        let denied = |i: usize| {
            negated_at(&all_q, i)
                || all_q[i + 1..(i + 5).min(all_q.len())]
                    .iter()
                    .skip_while(|x| {
                        matches!(
                            x.as_str(),
                            "was"
                                | "were"
                                | "is"
                                | "are"
                                | "has"
                                | "have"
                                | "been"
                                | "did"
                                | "does"
                                | "do"
                        )
                    })
                    .take(1)
                    .any(|x| matches!(x.as_str(), "not" | "n't" | "never"))
        };
        for w in content.iter().filter(|w| w.len() >= 6 && !drug_like(w)) {
            let at: Vec<usize> = (0..all_q.len()).filter(|&i| meets(&all_q[i], w)).collect();
            if !at.is_empty() && at.iter().all(|&i| denied(i)) {
                return Some(format!(
                    "the quote says {:?} only to deny it",
                    qt.tokens[at[0]].text
                ));
            }
        }
    }
    // "no (overall) difference", "did not differ": the quote finds none
    let none_found = |ws: &[String]| {
        ws.iter().enumerate().any(|(i, w)| {
            matches!(
                w.as_str(),
                "difference" | "differences" | "differ" | "different"
            ) && ws[i.saturating_sub(3)..i]
                .iter()
                .any(|x| NEGATIONS.contains(&x.as_str()))
        })
    };
    let all_q: Vec<String> = qt.tokens.iter().map(|x| x.lower.clone()).collect();
    if v_change
        && (has(&qw, SAME) || none_found(&all_q))
        && !has(&qw, UP)
        && !has(&qw, DOWN)
        && !sup(&q)
        && !none_found(&vw)
    {
        return Some("the quote finds no difference where the claim states one".into());
    }
    if has(&vw, UP) && !has(&vw, DOWN) && has(&qw, DOWN) && !has(&qw, UP) {
        return Some("the quote states a decrease, the claim an increase".into());
    }
    if has(&vw, DOWN) && !has(&vw, UP) && has(&qw, UP) && !has(&qw, DOWN) {
        return Some("the quote states an increase, the claim a decrease".into());
    }
    None
}

/// A change named with what it changes ("decreased heart rate", "elevated ALT"): each
/// change participle with the content word right after it, as (up, stem of the word).
/// (Comparatives compare, "higher than"; a word before a change may be its subject.)
fn attributed_changes(s: &str) -> Vec<(bool, String)> {
    let ws = words(s);
    let content = |w: &String| {
        w.len() >= 3
            && !GENERIC.contains(&w.as_str())
            && !NEGATIONS.contains(&w.as_str())
            && !UP.contains(&w.as_str())
            && !DOWN.contains(&w.as_str())
            && !w.chars().all(|c| c.is_ascii_digit())
    };
    let mut out = Vec::new();
    for (i, w) in ws.iter().enumerate() {
        if !w.ends_with("ed") {
            continue;
        }
        let up = if UP.contains(&w.as_str()) {
            true
        } else if DOWN.contains(&w.as_str()) {
            false
        } else {
            continue;
        };
        if let Some(next) = ws.get(i + 1).filter(|n| content(n)) {
            out.push((up, stem(next).to_string()));
        }
    }
    out
}

/// A change the quote names for one thing turned around in the claim ("decreased heart
/// rate" where the quote lists "decreased appetite, increased heart rate"): the claim
/// pairs a direction with a word that the quote pairs only with the other direction.
fn turned_attribute(value: &str, quote: &str) -> Option<String> {
    let (mine, theirs) = (attributed_changes(value), attributed_changes(quote));
    mine.iter().find_map(|(up, w)| {
        (theirs.contains(&(!up, w.clone())) && !theirs.contains(&(*up, w.clone()))).then(|| {
            let (q, v) = if *up {
                ("a decrease", "an increase")
            } else {
                ("an increase", "a decrease")
            };
            format!("the quote states {q} in {w:?}, the claim {v}")
        })
    })
}

/// What the quote says may happen, or happens only under a condition ("dosage
/// adjustment may be necessary", "may continue … if they have a response"), claimed as
/// what always happens ("must always be reduced", "all subjects continued").
fn modal_made_certain(value: &str, quote: &str) -> Option<String> {
    const CERTAIN: &[&str] = &["all", "always", "must", "every", "each", "invariably"];
    const MODAL: &[&str] = &["may", "might", "could", "can", "if", "unless", "possibly"];
    let (vw, qw) = (words(value), words(quote));
    let certain: Vec<&String> = vw
        .iter()
        .filter(|w| CERTAIN.contains(&w.as_str()))
        .collect();
    let modal = qw.iter().find(|w| MODAL.contains(&w.as_str()))?;
    (!certain.is_empty()
        && !vw.iter().any(|w| MODAL.contains(&w.as_str()))
        && !qw.iter().any(|w| CERTAIN.contains(&w.as_str())))
    .then(|| {
        format!(
            "the quote says {modal:?}, and the claim {:?}: what may happen, or happens under a condition, is not what always does",
            certain[0]
        )
    })
}

#[cfg(test)]
pub(super) fn modal_made_certain_for_tests(value: &str, quote: &str) -> Option<String> {
    modal_made_certain(value, quote)
}

#[cfg(test)]
pub(super) fn turned_attribute_for_tests(value: &str, quote: &str) -> Option<String> {
    turned_attribute(value, quote)
}

/// "no pharmacokinetic interaction other than a 20% decrease": a negation that an
/// exception follows states what it excepts. Such negations are blanked.
fn unless_excepted(ws: &mut [String]) {
    for i in 0..ws.len() {
        if !NEGATIONS.contains(&ws[i].as_str()) {
            continue;
        }
        let ahead = &ws[i + 1..ws.len().min(i + 8)];
        // "patients not receiving methotrexate": a population, not a negated statement
        let population = matches!(
            ahead.first().map(String::as_str),
            Some("receiving" | "taking" | "treated" | "on")
        );
        let excepted = population
            || ahead
                .iter()
                .any(|w| matches!(w.as_str(), "except" | "besides"))
            || ahead.windows(2).any(|p| p[0] == "other" && p[1] == "than");
        if excepted {
            ws[i].clear();
        }
    }
}

/// Negative prefixes that turn a word into its opposite ("asymptomatic", "irreversible",
/// "infrequent", "unresolved", "discontinued").
const NEGATIVE_PREFIXES: &[&str] = &["a", "in", "im", "ir", "il", "un", "dis"];

/// A word of the value whose opposite by a negative prefix the quote has instead of it,
/// or the other way round: "symptomatic and irreversible" against "asymptomatic and
/// reversible". Words of under 6 letters are left out ("cross" is no opposite of
/// "across").
pub(super) fn prefix_antonym(value: &str, quote: &str) -> Option<String> {
    let (vw, qw) = (words(value), words(quote));
    let has = |ws: &[String], w: &str| ws.iter().any(|x| x == w);
    for w in &vw {
        for p in NEGATIVE_PREFIXES {
            let opposite = format!("{p}{w}");
            if w.len() >= 6 && has(&qw, &opposite) && !has(&qw, w) && !has(&vw, &opposite) {
                return Some(format!(
                    "the quote says {opposite:?} where the claim says {w:?}"
                ));
            }
            if let Some(base) = w.strip_prefix(p)
                && base.len() >= 6
                && has(&qw, base)
                && !has(&qw, w)
                && !has(&vw, base)
            {
                return Some(format!(
                    "the quote says {base:?} where the claim says {w:?}"
                ));
            }
        }
    }
    None
}

/// The clauses of the quote that hold one of the value's quantities, a number with the
/// word after it ("1 hour" in "but was not significant at 1 hour"), when the quote has
/// it in fewer clauses than it has.
/// Whether tokens `r` deny significance or separation ("not significant", "not
/// statistically significant", "did not separate").
fn denies_significance(t: &Text<'_>, r: std::ops::Range<usize>) -> bool {
    let ws: Vec<&str> = t.tokens[r].iter().map(|x| x.lower.as_str()).collect();
    let effect = |w: &str| {
        w.starts_with("significan") || matches!(w, "separate" | "separated" | "separation")
    };
    ws.iter().enumerate().any(|(i, w)| {
        matches!(*w, "not" | "no" | "n't" | "never")
            && ws[i + 1..].iter().take(2).any(|x| effect(x))
    })
}

fn anchored_clauses(t: &Text<'_>, value: &str) -> Vec<std::ops::Range<usize>> {
    let vt = Text::new(value);
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for k in 0..vt.tokens.len() {
        let (Some(x), Some(w)) = (vt.tokens.get(k), vt.word(k + 1)) else {
            continue;
        };
        if x.kind != Kind::Number || vt.tokens[k + 1].kind != Kind::Word {
            continue;
        }
        for i in t.numbers_equal(&x.lower) {
            if t.word(i + 1).is_some_and(|q| stem(q) == stem(w)) {
                let r = t.clause(i);
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
    }
    let clauses = {
        let mut n = 0;
        let mut i = 0;
        while i < t.tokens.len() {
            if !t.is_break(i) {
                n += 1;
                i = t.clause(i).end.max(i + 1);
            } else {
                i += 1;
            }
        }
        n
    };
    if out.len() < clauses { out } else { Vec::new() }
}

/// Clauses of `t` (whole, at depth 0 and within parentheses) holding the most of the
/// content stems.
fn best_clauses(t: &Text<'_>, content: &[&str]) -> Vec<std::ops::Range<usize>> {
    let mut scored: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    let mut i = 0;
    while i < t.tokens.len() {
        if t.is_break(i) {
            i += 1;
            continue;
        }
        let r = t.clause(i);
        let end = r.end.max(i + 1);
        let mut seen: Vec<&str> = Vec::new();
        for x in &t.tokens[r.clone()] {
            let s = stem(&x.lower);
            if let Some(c) = content.iter().find(|c| **c == s)
                && !seen.contains(c)
            {
                seen.push(c);
            }
        }
        if !seen.is_empty() && !scored.iter().any(|(_, q)| *q == r) {
            scored.push((seen.len(), r));
        }
        i = end;
    }
    let best = scored.iter().map(|(n, _)| *n).max().unwrap_or(0);
    scored
        .into_iter()
        .filter(|(n, _)| *n == best)
        .map(|(_, r)| r)
        .collect()
}

/// "More frequent with HUMIRA than with control" against "0.3% of HUMIRA-treated
/// subjects and 0.6% of control-treated subjects": the value compares two groups, the
/// quote gives each one's number, and the order is the other way round.
fn comparative(c: &Claim, t: &Text<'_>, scope: Option<&Scope>, cx: &Context<'_>) -> Option<String> {
    let v = c.value.to_lowercase();
    let (left, right) = v.split_once(" than ")?;
    let lw = words(left);
    let more = lw.iter().any(|w| {
        matches!(
            w.as_str(),
            "more" | "higher" | "greater" | "larger" | "longer" | "frequent"
        ) && !lw.iter().any(|x| x == "less" || x == "lower")
    });
    let less = lw.iter().any(|w| {
        matches!(
            w.as_str(),
            "less" | "lower" | "fewer" | "smaller" | "shorter"
        )
    });
    if more == less {
        return None;
    }
    // the groups: the value's subject before "than", its object after
    let known = |w: &str| {
        COMPARATORS.contains(&w)
            || drug_like(w)
            || scope.is_some_and(|s| {
                s.names
                    .iter()
                    .any(|n| distinctive(n).iter().any(|x| x == w))
            })
    };
    let subject: Vec<String> = lw.iter().filter(|w| known(w)).cloned().collect();
    let object: Vec<String> = words(right).into_iter().filter(|w| known(w)).collect();
    if subject.is_empty() || object.is_empty() || subject.iter().any(|w| object.contains(w)) {
        return None;
    }
    let ms = mentions(t, &subject, &object);
    let mut mine = Vec::new();
    let mut theirs = Vec::new();
    for i in 0..t.tokens.len() {
        if t.tokens[i].kind != Kind::Number
            || t.is_time_number(i)
            || cx.units.at(t, i + 1) != Some("%")
        {
            continue;
        }
        let Ok(x) = t.tokens[i].lower.parse::<f64>() else {
            continue;
        };
        match bind_arm(t, i, &ms) {
            Ok(Some(m)) if m.claimed => mine.push(x),
            Ok(Some(_)) => theirs.push(x),
            _ => {}
        }
    }
    let ([a], [b]) = (&mine[..], &theirs[..]) else {
        return None;
    };
    let wrong = (more && a <= b) || (less && a >= b);
    wrong.then(|| {
        format!(
            "the quote gives {a}% for {} and {b}% for {}: the claim's comparison is the other way round",
            subject.join(" "),
            object.join(" ")
        )
    })
}

/// A claim for one dose group ("zolpidem 5 mg") against the quote's clause about the
/// value, which names only other doses ("zolpidem 10 mg was superior…").
fn statement_dose(c: &Claim, t: &Text<'_>, cx: &Context<'_>) -> Option<String> {
    let want: Vec<String> = doses(c.arm.as_deref().unwrap_or(""), cx.units)
        .into_iter()
        .filter(|d| d.contains(' '))
        .collect();
    if want.is_empty() {
        return None;
    }
    let vw = words(&c.value);
    let content: Vec<&str> = vw
        .iter()
        .filter(|w| w.len() >= 4 && !GENERIC.contains(&w.as_str()))
        .map(|w| stem(w))
        .collect();
    if content.len() < 2 {
        return None;
    }
    let value_doses = doses(&c.value, cx.units);
    let clauses = best_clauses(t, &content);
    let named: Vec<String> = clauses
        .iter()
        .flat_map(|r| {
            let s: Vec<&str> = t.tokens[r.clone()].iter().map(|x| x.text).collect();
            doses(&s.join(" "), cx.units)
        })
        .filter(|d| d.contains(' '))
        .collect();
    let have: Vec<String> = named
        .iter()
        .filter(|d| !value_doses.contains(d))
        .cloned()
        .collect();
    // a value's own number (not a dose, not a time) whose nearest dose before it in the
    // quote is the claimed one is that dose's ("VYVANSE (30 mg/day) … VYVANSE (50 mg/day)
    // 37.3 (6.3) -21.1" for 50 mg/day)
    let vt = Text::new(&c.value);
    let dose_at = |x: &Text<'_>, j: usize| {
        x.tokens[j].kind == Kind::Number && x.word(j + 1).is_some_and(mass_word)
    };
    let both = (0..vt.tokens.len())
        .filter(|&i| vt.tokens[i].kind == Kind::Number && !dose_at(&vt, i))
        .flat_map(|i| t.numbers_equal(&vt.tokens[i].lower))
        .filter(|&q| !t.is_time_number(q))
        .any(|q| {
            (0..q).rev().find(|&j| dose_at(t, j)).is_some_and(|j| {
                let d = format!("{} {}", t.tokens[j].lower, t.word(j + 1).unwrap_or(""));
                want.contains(&d)
            })
        });
    (!have.is_empty() && !both && !want.iter().any(|d| have.contains(d))).then(|| {
        format!(
            "the quote says this of {}, not of {}",
            have.join(", "),
            want.join(", ")
        )
    })
}

/// Whether the quote holds the value's verbs (stems of words of 4+ letters) at all.
fn content_verbs(qw: &[String], vw: &[String]) -> bool {
    vw.iter()
        .filter(|w| w.len() >= 4 && !NEGATIONS.contains(&w.as_str()))
        .any(|w| qw.iter().any(|q| stem(q) == stem(w)))
}

/// "HR = Docetaxel over Nivolumab" against "HR = Nivolumab over Docetaxel": the sides of
/// a stated comparison swapped.
fn swapped(value: &str, quote: &str) -> Option<String> {
    for conn in [" over ", " vs. ", " vs ", " versus ", "/"] {
        let (Some((va, vb)), Some((qa, qb))) = (
            value
                .to_lowercase()
                .split_once(conn)
                .map(|(a, b)| (last_word(a), first_word(b))),
            quote
                .to_lowercase()
                .split_once(conn)
                .map(|(a, b)| (last_word(a), first_word(b))),
        ) else {
            continue;
        };
        if !va.is_empty() && va == qb && vb == qa && va != vb {
            return Some(format!(
                "the quote states {qa}{conn}{qb}; the claim turns it around"
            ));
        }
    }
    None
}

/// The text an HTML fragment shows, as the HTML parser reads it (character references
/// decoded: "Zolpidem (&#x2264;10 mg)" shows "Zolpidem (≤10 mg)"), each run of white
/// space and each element boundary one space.
fn strip_markup(s: &str) -> String {
    let doc = scraper::Html::parse_fragment(s);
    doc.root_element()
        .text()
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Comparatives that say "more" and "less" of something.
const MORE: &[&str] = &[
    "more", "greater", "higher", "longer", "larger", "better", "superior", "faster",
];
const LESS: &[&str] = &[
    "less", "fewer", "lower", "shorter", "smaller", "worse", "inferior", "slower",
];

/// "HUMIRA/MTX … less radiographic progression than MTX alone" claimed as "MTX alone
/// showed less radiographic progression than HUMIRA/MTX": the same comparative, its two
/// groups exchanged across "than". Groups are told by the words that name them: the
/// claim's arm, comparators, drug names, "alone".
fn comparative_turned(c: &Claim, quote: &str) -> Option<String> {
    // most values compare nothing: they are passed over before any word is read
    if !c
        .value
        .as_bytes()
        .windows(4)
        .any(|w| w.eq_ignore_ascii_case(b"than"))
    {
        return None;
    }
    let arm = words(c.arm.as_deref().unwrap_or(""));
    let group_word = |w: &str| {
        COMPARATORS.contains(&w)
            || drug_like(w)
            || matches!(w, "alone" | "monotherapy" | "combination")
            || (w.len() >= 3 && arm.iter().any(|a| a == w) && !GENERIC.contains(&w))
    };
    // (whether the comparative says more, the group words before it, those after "than")
    let read = |s: &str| -> Option<(bool, HashSet<String>, HashSet<String>)> {
        let mut found = None;
        for part in s.split(". ") {
            let ws = words(part);
            let Some(than) = ws.iter().position(|w| w == "than") else {
                continue;
            };
            // "less than 5%" is a bound, not a comparison of groups
            if ws
                .get(than + 1)
                .is_none_or(|w| w.chars().all(|c| c.is_ascii_digit()))
            {
                continue;
            }
            let Some(k) = (than.saturating_sub(6)..than)
                .rev()
                .find(|&k| MORE.contains(&ws[k].as_str()) || LESS.contains(&ws[k].as_str()))
            else {
                continue;
            };
            if found.is_some() {
                return None; // two comparisons: which one the claim restates is unclear
            }
            let side = |r: &[String]| -> HashSet<String> {
                r.iter().filter(|w| group_word(w)).cloned().collect()
            };
            found = Some((
                MORE.contains(&ws[k].as_str()),
                side(&ws[..k]),
                side(&ws[than + 1..]),
            ));
        }
        found
    };
    let (v_more, v_before, v_after) = read(&c.value)?;
    let (q_more, q_before, q_after) = read(quote)?;
    if v_more != q_more {
        return None;
    }
    let only = |a: &HashSet<String>, b: &HashSet<String>| -> HashSet<String> {
        a.difference(b).cloned().collect()
    };
    let (vb, va, qb, qa) = (
        only(&v_before, &v_after),
        only(&v_after, &v_before),
        only(&q_before, &q_after),
        only(&q_after, &q_before),
    );
    let turned = vb.intersection(&qa).count() + va.intersection(&qb).count();
    let kept = vb.intersection(&qb).count() + va.intersection(&qa).count();
    (turned > 0 && kept == 0).then(|| {
        "the quote compares the groups the other way round: the claim exchanges the two sides of its \"than\"".to_string()
    })
}

fn last_word(s: &str) -> String {
    s.split(|c: char| !c.is_alphanumeric())
        .rfind(|w| !w.is_empty())
        .unwrap_or("")
        .to_string()
}

fn first_word(s: &str) -> String {
    s.split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .unwrap_or("")
        .to_string()
}

/// The group the number at token `at` of `t` is bound to, by the gate's own binder (the
/// reasoner reads text numbers with it, so what it binds is what the gate checks): the
/// word naming the group, lower-cased, and whether it is one of `claimed` (the asset's
/// name words). `Ok(None)` when the text names no group, `Err` when it names several
/// and none is bound to the number.
pub(crate) fn group_of(
    t: &Text<'_>,
    at: usize,
    claimed: &[String],
) -> Result<Option<(String, bool)>, ()> {
    let others: Vec<String> = COMPARATORS
        .iter()
        .map(|s| s.to_string())
        .filter(|w| !claimed.contains(w))
        .collect();
    let ms = mentions(t, claimed, &others);
    bind_arm(t, at, &ms).map(|m| m.map(|m| (group_word(&m.word), m.claimed)))
}

/// The groups a text names, in order, each once: (word, whether it is one of `claimed`).
pub(crate) fn groups_named(t: &Text<'_>, claimed: &[String]) -> Vec<(String, bool)> {
    let others: Vec<String> = COMPARATORS
        .iter()
        .map(|s| s.to_string())
        .filter(|w| !claimed.contains(w))
        .collect();
    let mut out: Vec<(String, bool)> = Vec::new();
    for m in mentions(t, claimed, &others) {
        let g = (group_word(&m.word), m.claimed);
        if !out.contains(&g) {
            out.push(g);
        }
    }
    out
}

/// Whether tokens `r` of `t` name a subgroup outright (a stratum, a subset…).
pub(crate) fn names_subgroup(t: &Text<'_>, r: std::ops::Range<usize>) -> bool {
    r.filter_map(|i| t.word(i))
        .any(|w| STRONG_SUBGROUP.contains(&w))
}

fn group_word(w: &str) -> String {
    let w = w.to_lowercase();
    if w == "pbo" { "placebo".into() } else { w }
}

/// The endpoint concepts the number at `at` is bound to, with where each is named: those
/// of its clause and of the clause around its parenthesis, leaving out an aside that
/// opens after the number ("67% in the chemotherapy group (hazard ratio for death, 0.54)"
/// is no value of death); else the nearest named before it in the sentence.
pub(crate) fn concepts_of<'e>(
    t: &Text<'_>,
    at: usize,
    ep: &'e super::tables::Lexicon,
) -> Vec<(usize, &'e str)> {
    if let Some(one) = respective_concept(t, at, ep) {
        return vec![one];
    }
    let depth = t.tokens[at].depth;
    // names read over the whole text: a clause may open inside one ("hazard ratio for
    // disease progression or | death in the trametinib group, 0.45"), and a name found
    // there is the whole name it is part of
    let whole: Vec<(usize, usize, &str)> = ep
        .all(t, 0..t.tokens.len())
        .into_iter()
        .map(|(i, x)| (i, i + ep.at_len(t, i).map_or(1, |(_, n)| n), x))
        .collect();
    let mut bound: Vec<(usize, &str)> = union(t.clause(at), outer(t, at))
        .iter()
        .flat_map(|r| ep.all(t, r.clone()))
        .filter(|(i, _)| !(*i > at && t.tokens[*i].depth > depth))
        .map(|(i, x)| {
            whole
                .iter()
                .find(|(s, e, _)| *s < i && i < *e)
                .map_or((i, x), |(s, _, y)| (*s, *y))
        })
        .collect();
    // the clause and the one around its parenthesis overlap, and a clause that starts
    // inside a longer name ("… progression or | death") reads only its tail: a name
    // inside another one found is that one
    let span = |i: usize| i..i + ep.at_len(t, i).map_or(1, |(_, n)| n);
    let spans: Vec<std::ops::Range<usize>> = bound.iter().map(|(i, _)| span(*i)).collect();
    let inside = |r: &std::ops::Range<usize>| {
        spans
            .iter()
            .any(|o| o.start <= r.start && r.end <= o.end && o.len() > r.len())
    };
    bound.retain(|(i, _)| !inside(&span(*i)));
    bound.sort_unstable_by_key(|(i, _)| *i);
    bound.dedup_by_key(|(i, _)| *i);
    if bound.is_empty() {
        bound.extend(ep.all(t, 0..at).last().copied());
    }
    bound
}

/// The endpoint a number of a "respectively" list stands for, when the list is matched
/// item by item to as many endpoints named just before it: in "ACR 20, 50 and 70 response
/// rates of 65%, 52% and 24%, respectively", 52 is ACR 50's. The endpoints are the last
/// ones named before the list, with no other number between them and it.
fn respective_concept<'e>(
    t: &Text<'_>,
    at: usize,
    ep: &'e super::tables::Lexicon,
) -> Option<(usize, &'e str)> {
    let (group, pos) = t.parallel_numbers(at);
    if group.len() < 2 {
        return None;
    }
    let mut k = group.last()? + 1;
    while t
        .tokens
        .get(k)
        .is_some_and(|x| x.text == "%" || x.text == "," || super::tables::is_unit_word(&x.lower))
    {
        k += 1;
    }
    if t.word(k) != Some("respectively") {
        return None;
    }
    // names before the list, each with the tokens it covers
    let mut named: Vec<(usize, &str, std::ops::Range<usize>)> = Vec::new();
    for (i, term) in ep.all(t, 0..group[0]) {
        let n = ep.at_len(t, i).map_or(1, |(_, n)| n);
        named.push((i, term, i..i + n));
        for (j, more) in ep.elided(t, i, n) {
            named.push((j, more, j..j + 1));
        }
    }
    let names = named.get(named.len().checked_sub(group.len())?..)?;
    let first = names.first()?.0;
    let covered = |i: usize| named.iter().any(|(_, _, r)| r.contains(&i));
    // numbers between the names and the list: none, or another list of as many matched
    // to the same names ("ACR 20, 50 and 70 response rates of 65%, 52% and 24%,
    // respectively, compared to placebo responses of 13%, 7% and 3% respectively")
    let between: Vec<usize> = (first..group[0])
        .filter(|&i| t.tokens[i].kind == Kind::Number && !covered(i))
        .collect();
    let between_number = !between.is_empty()
        && !(between.len() == group.len() && t.parallel_numbers(between[0]).0 == between);
    let distinct = names
        .iter()
        .enumerate()
        .all(|(a, x)| names[..a].iter().all(|y| y.1 != x.1));
    (!between_number && distinct).then(|| (names[pos].0, names[pos].1))
}

/// A number in a row of a flattened table is a value of the row's label: in
/// "Drowsiness 8 5 Dizziness 5 1", the second 5 is dizziness's. A claim that names the
/// label of another row of the quote, and no word of this row's, states another row's
/// number. Labels are compared by their words of four letters or more.
pub(super) fn other_row(
    c: &Claim,
    t: &Text<'_>,
    at: usize,
    cell: &super::table::Cell,
) -> Option<String> {
    let long = |x: &&super::binder::Token<'_>| x.kind == Kind::Word && x.text.len() >= 4;
    let own: Vec<&super::binder::Token<'_>> =
        t.tokens[cell.label.clone()].iter().filter(long).collect();
    // a sentence's list of numbers ("achieved by 58%, 38%, and 23%") is no table row
    let sentence_like = cell.label.end > cell.label.start
        && matches!(
            t.tokens[cell.label.end - 1].lower.as_str(),
            "by" | "of"
                | "in"
                | "were"
                | "was"
                | "is"
                | "are"
                | "to"
                | "at"
                | "with"
                | "and"
                | "or"
                | "than"
                | "from"
                | "for"
                | "vs"
                | "versus"
        );
    if own.is_empty() || sentence_like {
        return None;
    }
    let mut claimed: HashSet<String> = words(&c.value).into_iter().collect();
    claimed.extend(words(c.endpoint.as_deref().unwrap_or("")));
    if own.iter().any(|w| claimed.contains(&w.lower)) {
        return None;
    }
    // the last word of another row's label: a word right before a row of two cells or
    // more, which does not start a name with its number ("ASAS 20", "Study 11")
    let ep = Lexicon::endpoints();
    let other = (0..t.tokens.len().saturating_sub(1)).find_map(|i| {
        let x = &t.tokens[i];
        let next = &t.tokens[i + 1];
        let second = t.tokens[i + 2..]
            .iter()
            .find(|y| y.kind != Kind::Symbol)
            .is_some_and(|y| y.kind == Kind::Number && y.depth == next.depth);
        let heads_row = long(&x)
            && next.kind == Kind::Number
            && second
            && !t.is_time_number(i + 1)
            && ep.at_len(t, i).is_none_or(|(_, n)| n == 1)
            && !cell.label.contains(&i)
            && i + 1 != at;
        (heads_row && claimed.contains(&x.lower)).then_some(x.text)
    })?;
    Some(format!(
        "in the quote {} is in the row of {:?}, not of {other:?}",
        t.tokens[at].text,
        own.iter().map(|x| x.text).collect::<Vec<_>>().join(" ")
    ))
}
