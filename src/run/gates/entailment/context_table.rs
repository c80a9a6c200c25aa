//! A quote that is rows of a table whose header sits above it in its field ("Week 4
//! Clinical remission 12% 36%* 7% 21%*" under "CD-I CD-II Placebo N=74 HUMIRA 160/80 mg
//! N=76 Placebo N=166 HUMIRA 160/80 mg N=159"): the header's columns are the groups with
//! their counts (`N=`), the studies named just before them split the columns evenly, and
//! a row of labels under the columns ("Baseline Wk 26 Baseline Wk 26 …") splits each
//! column again. A number of the row is then in one column: its group, its study and
//! its time point are the claim's, or the claim fails.

use super::binder::{Kind, Text, TimePoint, endpoint_time_points, time_unit};
use super::{Context, Entailment, Rule, Scope, group_arm};
use crate::domain::Claim;

/// How far above the quote a header is looked for, in bytes.
const REACH: usize = 1500;

/// The header of a table read from the text before a quote.
#[derive(Debug, PartialEq)]
struct Header {
    /// Each column's label (its group, with any dose), left to right.
    columns: Vec<String>,
    /// The studies that split the columns evenly ("CD-I", "RA-III"), left to right.
    studies: Vec<String>,
    /// Time points of the sub-columns under every column, when the header has them.
    sub_times: Vec<Option<TimePoint>>,
}

/// Study names as tables write them: "CD-I", "RA-III", "UC-II", "JIA-I", "PsA-I", and
/// with a space for the hyphen ("UV I", "UV II": read as "UV-I", "UV-II").
fn study_ids(s: &str) -> Vec<(usize, String)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start_ok = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        if start_ok && b[i].is_ascii_uppercase() {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_alphabetic() && j - i < 5 {
                j += 1;
            }
            let letters = &s[i..j];
            // the space form only of capitals ("UV I"; not "In I")
            let joint = match b.get(j) {
                Some(b'-') => true,
                Some(b' ') => letters.bytes().all(|x| x.is_ascii_uppercase()),
                _ => false,
            };
            if letters.len() >= 2
                && letters.bytes().filter(u8::is_ascii_uppercase).count() >= 2
                && joint
            {
                let mut k = j + 1;
                while k < b.len() && matches!(b[k], b'I' | b'V' | b'X') {
                    k += 1;
                }
                let end_ok = k > j + 1 && (k == b.len() || !b[k].is_ascii_alphanumeric());
                if end_ok {
                    out.push((i, format!("{letters}-{}", &s[j + 1..k])));
                    i = k;
                    continue;
                }
            }
        }
        i += 1;
    }
    out
}

/// The last header of counted columns in `before` (the text above the quote): a run of
/// "label N=count" items with nothing but labels between them.
fn header(before: &str) -> Option<Header> {
    let t = Text::new(before);
    let counts: Vec<usize> = (0..t.tokens.len().saturating_sub(2))
        .filter(|&k| {
            t.word(k) == Some("n")
                && t.tokens[k + 1].text == "="
                && t.tokens[k + 2].kind == Kind::Number
        })
        .collect();
    let last = *counts.last()?;
    // the run of counts that ends with the last one: no full stop between two of them
    let mut run = vec![last];
    for &k in counts.iter().rev().skip(1) {
        let next = run[0];
        let stop = (k + 3..next).any(|j| t.tokens[j].text == "." && t.tokens[j].depth == 0);
        if stop || next - (k + 3) > 12 {
            break;
        }
        run.insert(0, k);
    }
    if run.len() < 2 {
        return None;
    }
    // column labels: the words between one count and the next; the first column's are
    // the words after the last study name (or the last four words) before its count
    let span = |a: usize, b: usize| t.span_in(before, a..b).to_string();
    let first_at = t.tokens[run[0]].text.as_ptr() as usize - before.as_ptr() as usize;
    let region_from = before[..first_at]
        .rfind("Table ")
        .unwrap_or(first_at.saturating_sub(300));
    let region = &before[region_from..first_at];
    let ids = study_ids(region);
    let mut studies: Vec<String> = Vec::new();
    for (_, id) in &ids {
        if !studies.contains(id) {
            studies.push(id.clone());
        }
    }
    let first_start = match ids.last() {
        Some((at, id)) => {
            let byte = region_from + at + id.len();
            (0..run[0])
                .find(|&k| t.tokens[k].text.as_ptr() as usize - before.as_ptr() as usize >= byte)
                .unwrap_or(run[0].saturating_sub(4))
        }
        None => run[0].saturating_sub(4),
    };
    // a label with a bracket ("Zolpidem (≤10 mg) (N=685)") is read from its opening one
    // and the word before it, not from inside it (the count's own bracket aside)
    let mut first_start = first_start;
    let end = if run[0] > 0 && t.tokens[run[0] - 1].text == "(" {
        run[0] - 1
    } else {
        run[0]
    };
    let depth = |a: usize| {
        (a..end).fold(0i32, |d, k| match t.tokens[k].text {
            "(" => d + 1,
            ")" => d - 1,
            _ => d,
        })
    };
    if depth(first_start) < 0 {
        while first_start > 0 && depth(first_start) < 0 {
            first_start -= 1;
        }
        first_start = first_start.saturating_sub(1);
    }
    // a count in parentheses ("VYVANSE (n=218) Placebo (n=72)") leaves its brackets
    // at the edges of the labels
    let label = |a: usize, b: usize| {
        let (mut a, mut b) = (a, b);
        while a < b && matches!(t.tokens[a].text, ")" | "(" | ",") {
            a += 1;
        }
        while b > a && matches!(t.tokens[b - 1].text, ")" | "(" | ",") {
            b -= 1;
        }
        span(a, b)
    };
    let mut columns = vec![label(first_start, run[0])];
    for w in run.windows(2) {
        columns.push(label(w[0] + 3, w[1]));
    }
    // every column is named ("Placebo 40 mg HUMIRA every other week N=170 N=172" puts
    // its names first and is not read)
    if columns
        .iter()
        .any(|c| !c.split(' ').any(|w| w.chars().any(char::is_alphabetic)))
    {
        return None;
    }
    // the header is the quote's own table's: no other table begins after it
    let tail = &before[t.tokens[last].text.as_ptr() as usize - before.as_ptr() as usize..];
    if tail.contains("Table ") {
        return None;
    }
    if !studies.is_empty() && columns.len() % studies.len() != 0 {
        studies.clear();
    }
    // sub-columns: time labels between the last count and the end ("Baseline Wk 26 …")
    let mut sub_times = Vec::new();
    let mut k = last + 3;
    while k < t.tokens.len() {
        match t.word(k) {
            Some("baseline") => {
                sub_times.push(Some(TimePoint { days: 0.0 }));
                k += 1;
            }
            Some(w) if time_unit(w).is_some() || matches!(w, "wk" | "wks" | "mo") => {
                let unit = time_unit(w).unwrap_or(if w == "mo" { 30.44 } else { 7.0 });
                match t.tokens.get(k + 1).filter(|x| x.kind == Kind::Number) {
                    Some(n) => {
                        let n: f64 = n.lower.parse().unwrap_or(0.0);
                        sub_times.push(Some(TimePoint { days: n * unit }));
                        k += 2;
                    }
                    None => break,
                }
            }
            _ => break,
        }
    }
    if sub_times.len() % columns.len() != 0 {
        sub_times.clear();
    }
    Some(Header {
        columns,
        studies,
        sub_times,
    })
}

/// The values of the row the number at `at` sits in: numbers outside parentheses and
/// "NA" cells, from the row's label to the next label.
fn row_values(t: &Text<'_>, at: usize) -> Option<(Vec<usize>, usize)> {
    // a time point ("At week 16, 69% …") is prose, not a cell
    let is_value = |k: usize| {
        let x = &t.tokens[k];
        x.depth == 0 && ((x.kind == Kind::Number && !t.is_time_number(k)) || x.lower == "na")
    };
    let is_mark = |k: usize| {
        let x = &t.tokens[k];
        x.depth > 0
            || matches!(
                x.text,
                "%" | "*" | "†" | "‡" | "§" | "(" | ")" | "[" | "]" | "-"
            )
    };
    let mut start = at;
    while start > 0 && (is_value(start - 1) || is_mark(start - 1)) {
        start -= 1;
    }
    let mut end = at + 1;
    while end < t.tokens.len() && (is_value(end) || is_mark(end)) {
        end += 1;
    }
    let values: Vec<usize> = (start..end).filter(|&k| is_value(k)).collect();
    let pos = values.iter().position(|&k| k == at)?;
    Some((values, pos))
}

/// The names of groups in a column label, lower-cased: words written in capitals (a
/// footnote mark glued on taken off: "HUMIRAc" is humira, "MTXb" mtx), comparators
/// ("Placebo") and drug names; not the label's other words ("Percent of Patients").
fn group_names(label: &str) -> Vec<String> {
    Text::new(label)
        .tokens
        .iter()
        .filter(|x| x.kind == Kind::Word)
        .filter_map(|x| {
            let w = x.text;
            let head = &w[..w.len() - w.chars().next_back().map_or(0, char::len_utf8)];
            let capitals = |s: &str| s.len() >= 2 && s.chars().all(|c| c.is_ascii_uppercase());
            let low = x.lower.as_str();
            if capitals(w) {
                Some(low.to_string())
            } else if head.len() >= 3
                && capitals(head)
                && w.chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_lowercase())
            {
                Some(head.to_lowercase())
            } else if super::COMPARATORS.contains(&low) || super::text::drug_like(low) {
                Some(low.to_string())
            } else {
                None
            }
        })
        .collect()
}

/// The times a row's label ends on, right before its first value ("ACR20 Week 52 Week
/// 104 63% …": week 52 and week 104), in order.
fn row_times(t: &Text<'_>, first: usize) -> Vec<TimePoint> {
    let mut out = Vec::new();
    let mut k = first;
    while k >= 2
        && t.tokens[k - 1].kind == Kind::Number
        && let Some(unit) = t.word(k - 2).and_then(time_unit)
    {
        let n: f64 = t.tokens[k - 1].lower.parse().unwrap_or(0.0);
        out.insert(0, TimePoint { days: n * unit });
        k -= 2;
    }
    out
}

/// The rules for the claim's numbers in a quote of table rows whose header is above it.
pub(super) fn check(
    c: &Claim,
    vt: &Text<'_>,
    nums: &[usize],
    field: &str,
    quote_at: usize,
    scope: Option<&Scope>,
    cx: &Context<'_>,
) -> Option<Entailment> {
    let quote = c.quote.as_deref()?;
    let from = field.floor_char_boundary(quote_at.saturating_sub(REACH));
    let before = &field[from..quote_at];
    // no count, no header: most text is passed over without reading it
    if memchr::memchr(b'=', before.as_bytes()).is_none() {
        return None;
    }
    let qt = Text::new(quote);
    // a quote with its own header is read as it is
    if (0..qt.tokens.len().saturating_sub(1))
        .any(|k| qt.word(k) == Some("n") && qt.tokens[k + 1].text == "=")
    {
        return None;
    }
    let h = header(before)?;
    let said = super::said(c);
    let claimed_studies: Vec<&String> = study_ids(&said)
        .into_iter()
        .filter_map(|(_, id)| h.studies.iter().find(|s| **s == id))
        .collect();
    let claim_tp = endpoint_time_points(c.endpoint.as_deref().unwrap_or(""));
    // the column that names the claimed arm best, its words for it and the other columns'
    // words against it ("HUMIRA/MTX" for "HUMIRA/MTX combination", not "HUMIRAc"); where
    // none is best, a number's column is read by its own group
    let arm_given = c.arm.as_deref().is_some_and(|a| !a.trim().is_empty());
    let best = if arm_given {
        let claimed = super::claimed_words(c, scope);
        let others: Vec<String> = h
            .columns
            .iter()
            .flat_map(|l| group_names(l))
            .filter(|w| !claimed.contains(w))
            .collect();
        super::text::best_column(&h.columns, &claimed, &others)
    } else {
        None
    };
    for &k in nums {
        let n = vt.tokens[k].lower.as_str();
        let mut verdicts = Vec::new();
        for at in qt.numbers_equal(n) {
            let Some((values, pos)) = row_values(&qt, at) else {
                continue;
            };
            // each column split by time: by the header's sub-columns ("Baseline Wk 26 …"),
            // or by the times that open the row ("ACR20 Week 52 Week 104 63% 56% 54% …":
            // two values per column, week 52 then week 104)
            let opening = row_times(&qt, values[0]);
            let per = if !h.sub_times.is_empty() {
                h.sub_times.len() / h.columns.len()
            } else if opening.len() >= 2 && values.len() == h.columns.len() * opening.len() {
                opening.len()
            } else {
                1
            };
            let time_at = |p: usize| {
                if h.sub_times.is_empty() {
                    opening.get(p % per).copied()
                } else {
                    h.sub_times[p % per]
                }
            };
            if values.len() != h.columns.len() * per {
                // the studies split a row evenly even when each has a column without a
                // count ("Placebo (N = 107) HUMIRA (N = 110) HR [95% CI]" per study)
                let row = if values.len() == 1 {
                    // a quote of one cell ("0.57 [0.39, 0.84]") is read in its row of
                    // the field: the same token, with the text around the quote
                    let end =
                        field.ceil_char_boundary((quote_at + quote.len() + 300).min(field.len()));
                    let wide = &field[from..end];
                    let wt = Text::new(wide);
                    let byte = quote_at - from + qt.tokens[at].text.as_ptr() as usize
                        - quote.as_ptr() as usize;
                    wt.tokens
                        .iter()
                        .position(|x| x.text.as_ptr() as usize - wide.as_ptr() as usize == byte)
                        .and_then(|o| row_values(&wt, o))
                } else {
                    Some((values.clone(), pos))
                };
                if let Some((vals, p)) = row
                    && h.studies.len() >= 2
                    && vals.len() % h.studies.len() == 0
                    && !claimed_studies.is_empty()
                {
                    let study = &h.studies[p / (vals.len() / h.studies.len())];
                    verdicts.push((!claimed_studies.contains(&study)).then(|| {
                        Entailment::Fails(
                            Rule::Population,
                            format!(
                                "in the table above the quote, {n} is in the columns of {study}, not of {}",
                                claimed_studies[0]
                            ),
                        )
                    }));
                }
                continue;
            }
            let col = pos / per;
            let label = &h.columns[col];
            let mut fail = None;
            if !h.studies.is_empty() && !claimed_studies.is_empty() {
                let study = &h.studies[col / (h.columns.len() / h.studies.len())];
                if !claimed_studies.contains(&study) {
                    fail = Some(Entailment::Fails(
                        Rule::Population,
                        format!(
                            "in the table above the quote, {n} is in the columns of {study}, not of {}",
                            claimed_studies[0]
                        ),
                    ));
                }
            }
            if fail.is_none()
                && per > 1
                && let Some(tp) = time_at(pos)
                && !claim_tp.is_empty()
                && !claim_tp.iter().any(|a| a.same(tp))
            {
                fail = Some(Entailment::Fails(
                    Rule::TimePoint,
                    format!("in the table above the quote, {n} is at {}", tp.describe()),
                ));
            }
            if fail.is_none()
                && let Some(b) = best
                && b != col
            {
                fail = Some(Entailment::Fails(
                    Rule::Arm,
                    format!(
                        "in the table above the quote, {n} is in the column {label:?}, and {} is the column {:?}",
                        super::claimed_name(c),
                        h.columns[b]
                    ),
                ));
            }
            if fail.is_none()
                && best.is_none()
                && arm_given
                && let Some(s) = scope
                && let Some(Entailment::Fails(rule, why)) = group_arm(c, label, s, cx)
            {
                fail = Some(Entailment::Fails(
                    rule,
                    format!("in the table above the quote, {n} is in the column {label:?}: {why}"),
                ));
            }
            // and in the row of the claim's event ("Drowsiness 8 5 Dizziness 5 1")
            if fail.is_none()
                && let Some(cell) = super::table::read(&qt, at, super::tables::Lexicon::endpoints())
                && let Some(why) = super::text::other_row(c, &qt, at, &cell)
            {
                fail = Some(Entailment::Fails(Rule::Endpoint, why));
            }
            verdicts.push(fail);
        }
        // every reading of the number in the rows fails: the first says why
        if !verdicts.is_empty() && verdicts.iter().all(Option::is_some) {
            return verdicts.into_iter().next().flatten();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_above_the_rows_gives_columns_studies_and_times() {
        let h = header("Table 11. Induction of Clinical Remission in Studies CD-I and CD-II (Percent of Patients) CD-I CD-II Placebo N=74 HUMIRA 160/80 mg N=76 Placebo N=166 HUMIRA 160/80 mg N=159 ").unwrap();
        assert_eq!(
            h.columns,
            ["Placebo", "HUMIRA 160/80 mg", "Placebo", "HUMIRA 160/80 mg"]
        );
        assert_eq!(h.studies, ["CD-I", "CD-II"]);
        assert!(h.sub_times.is_empty());
        let h = header("Table 3. Components of ACR Response in Studies RA-II and RA-III Study RA-II Study RA-III Parameter (median) Placebo N=110 HUMIRAa N=113 Placebo/MTX N=200 HUMIRAa/MTX N=207 Baseline Wk 26 Baseline Wk 26 Baseline Wk 24 Baseline Wk 24 ").unwrap();
        assert_eq!(h.columns.len(), 4);
        assert_eq!(h.columns[3], "HUMIRAa/MTX");
        assert_eq!(h.studies, ["RA-II", "RA-III"]);
        assert_eq!(h.sub_times.len(), 8);
        assert_eq!(h.sub_times[3].unwrap().describe(), "week 26");
        // prose with one count is no header
        assert!(header("In the trial (N=120), patients improved.").is_none());
    }

    #[test]
    fn study_names_are_read_as_tables_write_them() {
        let ids: Vec<String> =
            study_ids("Studies CD-I and CD-II; PsA-I; Study RA-III, not COVID-19 or MTX")
                .into_iter()
                .map(|(_, s)| s)
                .collect();
        assert_eq!(ids, ["CD-I", "CD-II", "PsA-I", "RA-III"]);
        let ids: Vec<String> = study_ids("Studies UV I and UV II UV I UV II; In I")
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        assert_eq!(ids, ["UV-I", "UV-II", "UV-I", "UV-II"]);
    }
}
