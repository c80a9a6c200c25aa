//! Tables flattened to text, as openFDA gives a label's tables: "VYVANSE (n=358)
//! Placebo (n=62) Decreased Appetite 27% 4%", "ACR20 Week 52 Week 104 63% 56% 54% 49%".
//! A row is a run of numbers with no words between them; its cells are the numbers at
//! the row's own depth ("578 (71%)" is one cell); its label is the words and time
//! points before it; the columns are the groups the header names before an `N=` count.
//! A cell's column is its index divided by the number of time points its label names
//! (arms across, time points within), which is how these tables are laid out.

use super::binder::{Kind, Text, TimePoint};
use super::tables::Lexicon;

/// Where a number sits in a flattened table.
#[derive(Debug)]
pub struct Cell {
    /// The column's index and the header labels, when the header names the columns.
    pub column: Option<(usize, Vec<String>)>,
    /// The time point of the cell, when the row's label or the text before it names one.
    pub time_point: Option<TimePoint>,
    /// The cell's index in its row, the row's cell count, and where the row starts.
    pub index: usize,
    pub cells: usize,
    pub row_start: usize,
    /// The row's label with its doses and groups ("VYVANSE (50 mg/day)"), before the
    /// first cell.
    pub label: std::ops::Range<usize>,
}

fn in_row(t: &Text<'_>, i: usize) -> bool {
    let x = &t.tokens[i];
    match x.kind {
        // "Week 104" labels the row; it is not one of its cells
        Kind::Number => !t.is_time_number(i),
        Kind::Symbol => matches!(
            x.text,
            "%" | "("
                | ")"
                | ","
                | "*"
                | "<"
                | ">"
                | "≤"
                | "≥"
                | "†"
                | "‡"
                | "-"
                | "–"
                | "§"
                | "¶"
        ),
        // footnote marks glued to cells ("40%*", "5.7a")
        Kind::Word => false,
    }
}

/// The table cell of the number at `at`, if the text reads as a table row around it.
pub fn read(t: &Text<'_>, at: usize, endpoints: &Lexicon) -> Option<Cell> {
    let n = t.tokens.len();
    let mut rs = at;
    while rs > 0 && in_row(t, rs - 1) {
        rs -= 1;
    }
    let mut re = at + 1;
    while re < n && in_row(t, re) {
        re += 1;
    }
    // "PASI 75 578 (71%)": a number that ends an endpoint's name is the label's
    while rs < at
        && rs > 0
        && endpoints
            .at_len(t, rs - 1)
            .is_some_and(|(_, len)| rs - 1 + len > rs)
    {
        rs += 1;
    }
    let base = t.tokens[rs..re]
        .iter()
        .filter(|x| x.kind == Kind::Number)
        .map(|x| x.depth)
        .min()?;
    let cells: Vec<usize> = (rs..re)
        .filter(|&i| t.tokens[i].kind == Kind::Number && t.tokens[i].depth == base)
        .collect();
    // one cell is a row only under a header that names columns, with no full stop
    // between them: prose ("… (N=79) during the double-blind phase. … VYVANSE subjects
    // (15.8%)") is no table
    if cells.len() < 2 && (header(t, rs).is_none() || sentence_after_header(t, rs)) {
        return None;
    }
    let index = cells.iter().rposition(|&c| c <= at)?;
    // the row's label: words and time points back to the previous row or the header
    let mut ls = rs;
    while ls > 0 {
        let k = ls - 1;
        let x = &t.tokens[k];
        let ok = x.kind == Kind::Word || (x.kind == Kind::Number && t.is_time_number(k));
        if !ok {
            break;
        }
        ls = k;
    }
    let mut tps: Vec<TimePoint> = t
        .time_points(ls..rs)
        .into_iter()
        .map(|(_, tp)| tp)
        .collect();
    if tps.is_empty() {
        // a section label above the rows ("Week 26 Clinical remission 17% 40%*")
        tps.extend(t.time_points(0..ls).into_iter().last().map(|(_, tp)| tp));
    }
    let per_column = tps.len().max(1);
    let columns = header(t, ls);
    let column = columns.and_then(|labels| {
        let k = labels.len();
        if cells.len() == k * per_column {
            Some((index / per_column, labels))
        } else if cells.len() <= k {
            // a row cut short by the quote keeps its first columns
            Some((index, labels))
        } else {
            None
        }
    });
    let time_point = match tps.len() {
        0 => None,
        1 => Some(tps[0]),
        m if cells.len() % m == 0 && (cells.len() == m || column.is_some()) => Some(tps[index % m]),
        _ => None,
    };
    // the row's label, doses and parentheses included, back to the previous row
    let mut label = rs;
    while label > 0 {
        let k = label - 1;
        let x = &t.tokens[k];
        let ok = match x.kind {
            Kind::Word => true,
            Kind::Symbol => matches!(x.text, "(" | ")" | "/" | "-" | ","),
            Kind::Number => {
                t.is_time_number(k) || t.tokens.get(k + 1).is_some_and(|n| n.kind == Kind::Word)
            }
        };
        if !ok {
            break;
        }
        label = k;
    }
    Some(Cell {
        column,
        time_point,
        index,
        cells: cells.len(),
        row_start: ls,
        label: label..rs,
    })
}

/// Whether a full stop stands between the last `N = 358` count before `end` and `end`.
fn sentence_after_header(t: &Text<'_>, end: usize) -> bool {
    let last = (0..end.saturating_sub(2)).rev().find(|&i| {
        t.tokens[i].kind == Kind::Word
            && t.tokens[i].lower == "n"
            && t.tokens[i + 1].text == "="
            && t.tokens[i + 2].kind == Kind::Number
    });
    last.is_some_and(|i| (i + 3..end).any(|k| t.tokens[k].text == "."))
}

/// The column labels of a table header before token `end`: the words before each
/// `N = 358` / `(n=358)` count. None unless there are two or more.
fn header(t: &Text<'_>, end: usize) -> Option<Vec<String>> {
    let mut marks: Vec<(usize, usize)> = Vec::new(); // (start of "N", index after count)
    let mut i = 0;
    while i + 2 < end {
        let is_n = t.tokens[i].kind == Kind::Word && t.tokens[i].lower == "n";
        if is_n && t.tokens[i + 1].text == "=" && t.tokens[i + 2].kind == Kind::Number {
            marks.push((i, i + 3));
            i += 3;
        } else {
            i += 1;
        }
    }
    if marks.len() < 2 {
        return None;
    }
    let mut labels = Vec::new();
    let mut from = 0;
    for (k, &(start, after)) in marks.iter().enumerate() {
        // the first label is the last words before its count, not the table's title
        let lo = if k == 0 {
            // a dose in parentheses right before the count is the label's own ("Low
            // Maintenance Dose (20 or 10 mg every other week) N = 95")
            let named = open_of(t, start).unwrap_or(start);
            let mut j = named;
            while j > 0
                && t.tokens[j - 1].text != "."
                && t.tokens[j - 1].text != ")"
                && named - j < 6
            {
                j -= 1;
            }
            j
        } else {
            from
        };
        let words: Vec<&str> = t.tokens[lo..start]
            .iter()
            .filter(|x| x.kind == Kind::Word)
            .map(|x| x.text)
            .collect();
        if words.is_empty() {
            return None;
        }
        labels.push(words.join(" "));
        from = after;
    }
    Some(labels)
}

/// Where the parenthesis that closes right before token `end` opens, if it does.
fn open_of(t: &Text<'_>, end: usize) -> Option<usize> {
    if end == 0 || t.tokens[end - 1].text != ")" {
        return None;
    }
    let mut depth = 0usize;
    for i in (0..end).rev() {
        match t.tokens[i].text {
            ")" => depth += 1,
            "(" => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(text: &str, n: &str) -> Option<Cell> {
        let t = Text::new(text);
        let at = t.numbers_equal(n)[0];
        read(&t, at, Lexicon::endpoints())
    }

    #[test]
    fn columns_come_from_the_header_counts_and_time_points_from_the_row_label() {
        let q = "Response MTXb N=257 HUMIRAc N=274 HUMIRA/MTX N=268 ACR20 Week 52 Week 104 63% 56% 54% 49% 73% 69%";
        let c = cell(q, "54").unwrap();
        let (col, labels) = c.column.unwrap();
        assert_eq!(labels[col], "HUMIRAc");
        assert_eq!(c.time_point.unwrap().days, 52.0 * 7.0);
        let c = cell(q, "69").unwrap();
        assert_eq!(c.column.unwrap().0, 2);
        assert_eq!(c.time_point.unwrap().days, 104.0 * 7.0);
    }

    #[test]
    fn a_cell_with_its_percentage_is_one_cell_and_endpoint_numbers_are_labels() {
        let q = "HUMIRA N = 814 Placebo N = 398 PASI 75 578 (71%) 26 (7%)";
        let c = cell(q, "7").unwrap();
        let (col, labels) = c.column.unwrap();
        assert_eq!(labels[col], "Placebo");
        assert!(
            cell("Median PFS was 4.8 months", "4.8").is_none(),
            "a sentence is no row"
        );
    }

    #[test]
    fn a_first_column_named_with_its_dose_in_parentheses_is_a_column() {
        let q = "Low Maintenance Dose† (20 or 10 mg every other week) N = 95 High Maintenance Dose# (40 or 20 mg every other week) N = 93 Week 26 Clinical Remission‡ 28% 39%";
        let c = cell(q, "39").unwrap();
        let (col, labels) = c.column.unwrap();
        assert_eq!(col, 1);
        assert!(labels[0].starts_with("Low Maintenance Dose"), "{labels:?}");
        assert!(labels[1].starts_with("High Maintenance Dose"), "{labels:?}");
        // an unclosed parenthesis names nothing more
        assert!(open_of(&Text::new("dose ) N = 5"), 2).is_none());
    }

    #[test]
    fn a_lone_number_in_prose_after_a_header_is_no_cell() {
        let prose = "randomized to VYVANSE (N=78) or switched to placebo (N=79) during the double-blind phase. A lower proportion of treatment failures occurred among VYVANSE subjects (15.8%) compared to placebo (67.5%).";
        assert!(cell(prose, "15.8").is_none(), "a sentence after the counts");
        let row = "HUMIRA N = 814 Placebo N = 398 Serious infections (4.2%)";
        assert!(cell(row, "4.2").is_some(), "a row right under the header");
    }

    #[test]
    fn rows_under_a_time_point_take_it() {
        let q = "Week 26 Clinical remission 17% 40%* Clinical response 28% 54%* Week 56 Clinical remission 12% 36%*";
        assert_eq!(cell(q, "54").unwrap().time_point.unwrap().days, 26.0 * 7.0);
        assert_eq!(cell(q, "36").unwrap().time_point.unwrap().days, 56.0 * 7.0);
    }
}
