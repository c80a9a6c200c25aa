//! Typed readings of a cell's verbatim value, so analysts can compute with it
//! (`WHERE value_num > 40`, `ORDER BY value_date`). The verbatim value is always kept;
//! a reading exists only when the whole value is unambiguously a number or a date. Pure.

use chrono::{Datelike, NaiveDate};

/// The value as a number when the whole value is one: an optional sign, digits with
/// optional thousands separators, an optional fraction. `<0.001`, `12%`, `4.8 months`
/// and `NCT01642004` are not numbers.
pub fn number(value: &str) -> Option<f64> {
    let v = value.trim();
    let body = v.strip_prefix(['-', '+', '−']).unwrap_or(v);
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    let grouped = int.contains(',');
    let int_ok = if grouped {
        let mut parts = int.split(',');
        let first = parts.next().unwrap_or("");
        (1..=3).contains(&first.len())
            && first.bytes().all(|b| b.is_ascii_digit())
            && parts.all(|p| p.len() == 3 && p.bytes().all(|b| b.is_ascii_digit()))
    } else {
        !int.is_empty() && int.bytes().all(|b| b.is_ascii_digit())
    };
    let frac_ok = frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    if !int_ok || !frac_ok {
        return None;
    }
    let plain: String = v.replace([',', '+'], "").replace('−', "-");
    plain.parse::<f64>().ok()
}

/// The value as a calendar date: ISO (`2020-05-07`), CT.gov's legacy `May 13, 2022`, and
/// the compact `20220513` where the field or unit says the value is a date.
pub fn date(value: &str, dated_field: bool) -> Option<NaiveDate> {
    let v = value.trim();
    let mut formats = vec!["%Y-%m-%d", "%B %d, %Y", "%b %d, %Y"];
    if dated_field && v.len() == 8 {
        formats.push("%Y%m%d");
    }
    formats
        .iter()
        .find_map(|f| NaiveDate::parse_from_str(v, f).ok())
        .filter(|d| (1900..=2100).contains(&d.year()))
}

/// Days since 1970-01-01 (Arrow's `Date32`).
pub fn epoch_days(d: NaiveDate) -> i32 {
    let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).expect("a valid date");
    (d - epoch).num_days() as i32
}

/// Whether a field (or its unit) says its values are dates.
pub fn is_dated(field: &str, unit: &str) -> bool {
    unit == "YYYYMMDD"
        || field.ends_with("_date")
        || field.ends_with("completion")
        || field.ends_with("results_posted")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_whole_values_only() {
        assert_eq!(number("47.2"), Some(47.2));
        assert_eq!(number("-0.183"), Some(-0.183));
        assert_eq!(number("1,234,567"), Some(1_234_567.0));
        assert_eq!(number(" 412 "), Some(412.0));
        for not in [
            "<0.001",
            "12%",
            "4.8 months",
            "NCT01642004",
            "1,23",
            "1.",
            "",
            "NA",
            "1e5",
        ] {
            assert_eq!(number(not), None, "{not}");
        }
    }

    #[test]
    fn dates_read_every_spelling_the_sources_use() {
        let d = NaiveDate::from_ymd_opt(2022, 5, 13).unwrap();
        assert_eq!(date("20220513", true), Some(d));
        assert_eq!(date("May 13, 2022", false), Some(d));
        assert_eq!(date("2022-05-13", false), Some(d));
        // a compact date only where the field says it is one
        assert_eq!(date("20220513", false), None);
        assert_eq!(date("June 2015", true), None, "no day: no date is made up");
        assert_eq!(date("2025-06", true), None);
        assert_eq!(epoch_days(NaiveDate::from_ymd_opt(1970, 1, 2).unwrap()), 1);
    }
}
