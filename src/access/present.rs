//! How cells read on the analyst's page: money, dates and percentages in a readable
//! form with the value as stated kept beside it, retrieval dates in one format, label
//! record ids kept out of the endpoint column, and each asset's header (sponsor,
//! indication, lead trial, approval, headline numbers) read from its cells.

use chrono::{Days, NaiveDate};

use crate::access::comparison::{self, Outcome};
use crate::access::report::Cell;

/// The calendar day of a retrieval time (`2026-03-01T00:00:00Z` and `2026-03-01` both
/// read `2026-03-01`); `None` when it is not a date.
pub fn day(ts: &str) -> Option<String> {
    let head = ts.get(..10)?;
    NaiveDate::parse_from_str(head, "%Y-%m-%d")
        .ok()
        .map(|d| d.format("%Y-%m-%d").to_string())
}

/// A citation's retrieval, in one format: `retrieved 2026-03-01`, or that the record
/// does not say.
pub fn retrieved_words(ts: Option<&str>) -> String {
    match ts.and_then(day) {
        Some(d) => format!("retrieved {d}"),
        None => "retrieval date not recorded".to_string(),
    }
}

/// US dollars as an analyst reads them: `$18.4M`, `-$248.9M`, `$1.20B`, `$950K`, `$12`.
pub fn money(usd: f64) -> String {
    let sign = if usd < 0.0 { "-" } else { "" };
    let a = usd.abs();
    let body = if a >= 1e9 {
        format!("{:.2}B", a / 1e9)
    } else if a >= 1e6 {
        format!("{:.1}M", a / 1e6)
    } else if a >= 1e3 {
        format!("{:.0}K", a / 1e3)
    } else {
        format!("{a:.0}")
    };
    format!("{sign}${body}")
}

fn epoch_day(d: i32) -> Option<NaiveDate> {
    let base = NaiveDate::from_ymd_opt(1970, 1, 1)?;
    if d >= 0 {
        base.checked_add_days(Days::new(d as u64))
    } else {
        base.checked_sub_days(Days::new(d.unsigned_abs() as u64))
    }
}

/// A cell's value as the page shows it: `main` readable, `stated` the value and unit as
/// the source states them when `main` reads differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub main: String,
    pub stated: Option<String>,
}

/// `value unit`, or the value alone.
pub fn value_of(value: &Option<String>, unit: &Option<String>) -> String {
    match (value, unit) {
        (Some(v), Some(u)) if !u.is_empty() => format!("{v} {u}"),
        (Some(v), _) => v.clone(),
        _ => String::new(),
    }
}

/// Money from `value_usd`, dates from `value_date`, and shares of participants as
/// percentages; anything else as stated.
pub fn shown(c: &Cell) -> Shown {
    let stated = value_of(&c.value, &c.unit);
    let unit = c.unit.as_deref().unwrap_or("");
    let readable = if let Some(usd) = c.value_usd {
        Some(money(usd.0))
    } else if let Some(d) = c.value_date.and_then(|d| epoch_day(d.0)) {
        Some(d.format("%Y-%m-%d").to_string())
    } else if let (Some(v), Some(rest)) = (&c.value, percent_of(unit)) {
        Some(format!("{v}% {rest}"))
    } else {
        None
    };
    match readable {
        Some(main) if main != stated => Shown {
            main,
            stated: Some(stated),
        },
        _ => Shown {
            main: stated,
            stated: None,
        },
    }
}

/// `of participants` for a unit that is a percentage of participants (CT.gov's
/// "percentage of participants (number)"); other percentages (of HbA1c, of change) are
/// left as stated, since a `%` sign would blur points and percent.
fn percent_of(unit: &str) -> Option<&'static str> {
    let u = unit.to_ascii_lowercase();
    let rest = u
        .strip_prefix("percentage of ")
        .or_else(|| u.strip_prefix("percent of "))?;
    ["participants", "subjects", "patients"]
        .into_iter()
        .find(|w| rest.starts_with(w))
        .map(|w| match w {
            "participants" => "of participants",
            "subjects" => "of subjects",
            _ => "of patients",
        })
}

/// An openFDA set id (8-4-4-4-12 hex): a record key, not an endpoint an analyst reads.
fn is_set_id(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 5
        && parts
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(p, n)| p.len() == n && p.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The endpoint column: a label's set id reads as the label it names (`ZELVANTA label`).
pub fn endpoint_shown(c: &Cell) -> Option<String> {
    let e = c.endpoint.as_deref()?;
    if is_set_id(e) {
        return Some(match &c.source_title {
            Some(t) => format!("{t} label"),
            None => "label".to_string(),
        });
    }
    Some(e.to_string())
}

/// A p-value as read aloud: `p = 0.02`, and `p < 0.001` for a posted `<0.001`.
pub fn p_words(p: &str) -> String {
    let p = p.trim();
    match p.chars().next() {
        Some(c @ ('<' | '>' | '≤' | '≥')) => format!("p {c} {}", p[c.len_utf8()..].trim()),
        _ => format!("p = {p}"),
    }
}

/// The asset's header, from its cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Header {
    pub sponsor: Option<String>,
    pub indication: Option<String>,
    /// `NCT09000001 · Phase 3 · COMPLETED`
    pub lead_trial: Option<String>,
    /// `AP (approved) · first approved 2025-11-18`, or what the cells say instead.
    pub approval: String,
    pub headline: Option<Headline>,
}

/// The lead outcome's numbers: each arm's value and the first comparison.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Headline {
    pub endpoint: String,
    /// (arm, value with unit; sources disagree when several)
    pub arms: Vec<(String, String, bool)>,
    pub comparison: Option<String>,
}

fn values<'a>(cells: &'a [Cell], field: &str) -> Vec<&'a Cell> {
    cells
        .iter()
        .filter(|c| c.field == field && comparison::has_value(c))
        .collect()
}

fn joined(cells: &[&Cell]) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    for c in cells {
        let v = shown(c).main;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    (!out.is_empty()).then(|| out.join(" / "))
}

/// `PHASE3` → `Phase 3`, `PHASE2, PHASE3` → `Phase 2/3`; other text as stated.
pub fn phase_words(p: &str) -> String {
    let nums: Vec<&str> = p
        .split([',', '/', ' '])
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_start_matches("PHASE").trim_start_matches("Phase"))
        .collect();
    if !nums.is_empty()
        && nums
            .iter()
            .all(|n| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty())
    {
        format!("Phase {}", nums.join("/"))
    } else {
        p.to_string()
    }
}

fn phase_rank(p: &str) -> u32 {
    p.chars()
        .filter(|c| c.is_ascii_digit())
        .filter_map(|c| c.to_digit(10))
        .max()
        .unwrap_or(0)
}

/// The headline outcome: a primary one before others, then one with a posted comparison,
/// then one with two arms or more; the first in page order among equals.
fn lead_outcome(outcomes: &[Outcome]) -> Option<&Outcome> {
    outcomes
        .iter()
        .filter(|o| !o.rows.is_empty())
        .enumerate()
        .max_by_key(|(i, o)| {
            (
                o.endpoint.contains(" Primary:"),
                !o.analyses.is_empty(),
                o.arms.len() >= 2,
                std::cmp::Reverse(*i),
            )
        })
        .map(|(_, o)| o)
}

/// Reads the header from the page's cells (in page order) and their outcomes
/// ([`comparison::outcomes`] of the same cells, which the page shows too).
pub fn header(cells: &[Cell], outcomes: &[Outcome]) -> Header {
    let lead = lead_outcome(outcomes);
    let headline = lead.map(|o| {
        let row = &o.rows[0];
        let arms: Vec<(String, String, bool)> = o
            .arms
            .iter()
            .zip(&row.arms)
            .filter_map(|(a, c)| {
                let c = c.as_ref()?;
                let v = if percent_of(&c.unit).is_some() {
                    c.value
                        .split(" / ")
                        .map(|v| format!("{v}%"))
                        .collect::<Vec<_>>()
                        .join(" / ")
                } else {
                    format!("{} {}", c.value, c.unit).trim().to_string()
                };
                Some((a.clone(), v, c.conflicting))
            })
            .collect();
        // the asset's own arm first
        let own = cells
            .first()
            .map(|c| c.asset_id.to_lowercase())
            .unwrap_or_default();
        let mut arms: Vec<(String, String, bool)> = arms;
        arms.sort_by_key(|(a, _, _)| own.is_empty() || !a.to_lowercase().contains(&own));
        let comparison = o
            .analyses
            .iter()
            .find(|a| a.estimate.is_some() || a.p_value.is_some())
            .map(|a| {
                let mut t = a.arms.clone();
                if let Some(e) = &a.estimate {
                    t.push_str(&format!(": {} {e}", a.estimate_type));
                }
                if let Some((l, h, u)) = &a.ci {
                    t.push_str(&format!(" ({u} {l} to {h})"));
                }
                if let Some(p) = &a.p_value {
                    t.push_str(&format!(", {}", p_words(p)));
                }
                t
            });
        Headline {
            endpoint: o.endpoint.clone(),
            arms,
            comparison,
        }
    });
    // the lead trial: the headline's, else the latest phase
    let phases = values(cells, "trials.phase");
    let lead_nct = lead.and_then(|o| o.endpoint.split_whitespace().next().map(str::to_string));
    let trial = phases
        .iter()
        .find(|c| c.endpoint.is_some() && c.endpoint == lead_nct)
        .or_else(|| {
            phases
                .iter()
                .max_by_key(|c| phase_rank(c.value.as_deref().unwrap_or("")))
        });
    let lead_trial = trial.map(|t| {
        let nct = t.endpoint.clone().unwrap_or_default();
        let mut s = format!("{nct} · {}", phase_words(t.value.as_deref().unwrap_or("")));
        if let Some(st) = values(cells, "trials.status")
            .iter()
            .find(|c| c.endpoint.as_deref() == Some(nct.as_str()))
            .and_then(|c| c.value.clone())
        {
            s.push_str(&format!(" · {st}"));
        }
        s
    });
    let approval = match joined(&values(cells, "regulatory.status")) {
        Some(st) => match joined(&values(cells, "regulatory.first_approval_date")) {
            Some(d) => format!("{st} · first approved {d}"),
            None => st,
        },
        None => cells
            .iter()
            .find(|c| c.field == "regulatory.status")
            .map(|c| {
                let words = crate::access::report::status_words(&c.status).0;
                match &c.detail {
                    Some(d) => format!("{words}: {d}"),
                    None => words.to_string(),
                }
            })
            .unwrap_or_else(|| "no approval cell".to_string()),
    };
    Header {
        sponsor: joined(&values(cells, "identity.sponsor")),
        indication: joined(&values(cells, "identity.indication")),
        lead_trial,
        approval,
        headline,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::tables::{Day, Number};

    fn cell(field: &str, value: &str, unit: &str) -> Cell {
        Cell {
            asset_id: "a".into(),
            section: field.split('.').next().unwrap().into(),
            field: field.into(),
            value: Some(value.into()),
            unit: (!unit.is_empty()).then(|| unit.into()),
            status: "value".into(),
            ..Cell::default()
        }
    }

    #[test]
    fn money_dates_and_shares_read_readably_and_keep_the_stated_value() {
        let mut rev = cell("financials.revenue", "18400000", "USD");
        rev.value_usd = Some(Number(18_400_000.0));
        assert_eq!(
            shown(&rev),
            Shown {
                main: "$18.4M".into(),
                stated: Some("18400000 USD".into())
            }
        );
        assert_eq!(money(-248_900_000.0), "-$248.9M");
        assert_eq!(money(1_204_000_000.0), "$1.20B");
        let mut d = cell("regulatory.original_approval_date", "20251118", "YYYYMMDD");
        d.value_date = Some(Day(20410)); // 2025-11-18
        assert_eq!(shown(&d).main, "2025-11-18");
        assert_eq!(shown(&d).stated.as_deref(), Some("20251118 YYYYMMDD"));
        let p = cell(
            "efficacy.value",
            "67.5",
            "percentage of participants (number)",
        );
        assert_eq!(shown(&p).main, "67.5% of participants");
        let q = cell("efficacy.value", "47.2", "percentage of subjects (number)");
        assert_eq!(shown(&q).main, "47.2% of subjects");
        // a change in HbA1c points is not a share: as stated
        let h = cell(
            "efficacy.value",
            "-1.62",
            "percentage of HbA1c (least squares mean)",
        );
        assert_eq!(
            shown(&h).main,
            "-1.62 percentage of HbA1c (least squares mean)"
        );
        assert_eq!(shown(&h).stated, None);
    }

    #[test]
    fn retrieval_times_read_as_one_date_format() {
        assert_eq!(
            retrieved_words(Some("2026-03-01T00:00:00Z")),
            "retrieved 2026-03-01"
        );
        assert_eq!(retrieved_words(Some("2026-03-01")), "retrieved 2026-03-01");
        assert_eq!(retrieved_words(None), "retrieval date not recorded");
        assert_eq!(retrieved_words(Some("soon")), "retrieval date not recorded");
    }

    #[test]
    fn a_label_set_id_is_not_shown_as_an_endpoint() {
        let mut c = cell("regulatory.boxed_warning", "WARNING: X", "");
        c.endpoint = Some("5e0a9f1c-7d2b-4c41-9b7e-0d1f2a3b4c5d".into());
        c.source_title = Some("ZELVANTA".into());
        assert_eq!(endpoint_shown(&c).as_deref(), Some("ZELVANTA label"));
        c.endpoint = Some("NDA299001".into());
        assert_eq!(endpoint_shown(&c).as_deref(), Some("NDA299001"));
        assert_eq!(phase_words("PHASE3"), "Phase 3");
        assert_eq!(phase_words("PHASE2, PHASE3"), "Phase 2/3");
        assert_eq!(phase_words("NA"), "NA");
        assert_eq!(p_words("<0.001"), "p < 0.001");
        assert_eq!(p_words("0.0002"), "p = 0.0002");
    }
}
