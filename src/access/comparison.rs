//! Efficacy as an analyst reads it: per outcome, the arms side by side (value, spread,
//! n) and each posted comparison on its own row (estimate, its interval, p-value) in the
//! direction the source states; and the ratio estimates of an asset on one forest plot
//! (inline SVG, log scale, no script). Built from the page's cells only: nothing here
//! reads a record or computes a statistic. Pure.

use std::collections::BTreeMap;

use maud::{Markup, html};

use crate::lake::tables::ProfileRow as Cell;

/// One arm's cell of an outcome row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArmCell {
    pub value: String,
    pub unit: String,
    /// The spread as the source gives it: `SD 3.1`, `95% Confidence Interval 7.3–10.9`.
    pub spread: Option<String>,
    /// Participants behind the value: the class's own count, else the outcome's.
    pub n: Option<String>,
    /// Sources disagree: `value` holds every surviving value, ` / `-joined.
    pub conflicting: bool,
}

/// One population of an outcome, with a cell per arm.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    pub population: String,
    pub arms: Vec<Option<ArmCell>>,
}

/// One posted comparison.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    pub population: String,
    /// The groups in the stated direction, or "… (direction not stated)".
    pub arms: String,
    pub estimate: Option<String>,
    pub estimate_type: String,
    pub ci: Option<(String, String, String)>,
    pub p_value: Option<String>,
    pub method: Option<String>,
}

/// One outcome: its arms in first-seen order, its rows and its comparisons.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    pub endpoint: String,
    pub arms: Vec<String>,
    pub rows: Vec<Row>,
    pub analyses: Vec<Analysis>,
}

/// Whether a cell holds a value to show: a `value` cell, or one value of a conflicting one.
pub fn has_value(c: &Cell) -> bool {
    matches!(c.status.as_str(), "value" | "conflicting") && c.value.is_some()
}

/// The outcomes of a page's efficacy cells, in the page's order.
pub fn outcomes(cells: &[Cell]) -> Vec<Outcome> {
    let mut order: Vec<String> = Vec::new();
    let mut by: BTreeMap<String, Vec<&Cell>> = BTreeMap::new();
    for c in cells
        .iter()
        .filter(|c| c.section == "efficacy" && has_value(c))
    {
        let Some(e) = &c.endpoint else { continue };
        if !by.contains_key(e) {
            order.push(e.clone());
        }
        by.entry(e.clone()).or_default().push(c);
    }
    order
        .into_iter()
        .map(|e| outcome(&e, &by[&e]))
        .filter(|o| !o.rows.is_empty() || !o.analyses.is_empty())
        .collect()
}

/// The cells of one field at one population and arm, in page order.
fn matching<'a, 'b>(
    cells: &'b [&'a Cell],
    field: &'b str,
    pop: &'b str,
    arm: &'b str,
) -> impl Iterator<Item = &'a Cell> + 'b {
    cells.iter().copied().filter(move |c| {
        c.field == field
            && c.population.as_deref().unwrap_or("") == pop
            && c.arm.as_deref().unwrap_or("") == arm
    })
}

fn get<'a>(cells: &[&'a Cell], field: &str, pop: &str, arm: &str) -> Option<&'a Cell> {
    matching(cells, field, pop, arm).next()
}

fn val(c: Option<&Cell>) -> Option<String> {
    c.and_then(|c| c.value.clone())
}

fn spread(cells: &[&Cell], pop: &str, arm: &str) -> Option<String> {
    for (f, name) in [
        ("efficacy.sd", "SD"),
        ("efficacy.se", "SE"),
        ("efficacy.dispersion", ""),
    ] {
        if let Some(c) = get(cells, f, pop, arm) {
            let label = if name.is_empty() {
                c.unit.clone().unwrap_or_default()
            } else {
                name.to_string()
            };
            return Some(format!("{label} {}", c.value.clone().unwrap_or_default()));
        }
    }
    for (lo, hi, name) in [
        ("efficacy.ci_lower", "efficacy.ci_upper", None),
        ("efficacy.iqr_lower", "efficacy.iqr_upper", Some("IQR")),
        ("efficacy.range_min", "efficacy.range_max", Some("range")),
        ("efficacy.limit_lower", "efficacy.limit_upper", None),
    ] {
        let (l, h) = (get(cells, lo, pop, arm), get(cells, hi, pop, arm));
        if l.is_none() && h.is_none() {
            continue;
        }
        let unit = l.or(h).and_then(|c| c.unit.clone()).unwrap_or_default();
        let label = name.map(str::to_string).unwrap_or(unit);
        return Some(format!(
            "{label} {}–{}",
            val(l).unwrap_or_else(|| "?".into()),
            val(h).unwrap_or_else(|| "?".into())
        ));
    }
    None
}

fn outcome(endpoint: &str, cells: &[&Cell]) -> Outcome {
    let mut o = Outcome {
        endpoint: endpoint.to_string(),
        ..Outcome::default()
    };
    let mut pops: Vec<String> = Vec::new();
    for c in cells.iter().filter(|c| c.field == "efficacy.value") {
        let arm = c.arm.clone().unwrap_or_default();
        if !o.arms.contains(&arm) {
            o.arms.push(arm);
        }
        let pop = c.population.clone().unwrap_or_default();
        if !pops.contains(&pop) {
            pops.push(pop);
        }
    }
    for pop in pops {
        let arms = o
            .arms
            .iter()
            .map(|arm| {
                let v = get(cells, "efficacy.value", &pop, arm)?;
                let all: Vec<String> = matching(cells, "efficacy.value", &pop, arm)
                    .filter_map(|c| c.value.clone())
                    .collect();
                Some(ArmCell {
                    conflicting: all.len() > 1 || v.status == "conflicting",
                    value: all.join(" / "),
                    unit: v.unit.clone().unwrap_or_default(),
                    spread: spread(cells, &pop, arm),
                    n: val(get(cells, "efficacy.analyzed", &pop, arm))
                        .or_else(|| val(get(cells, "efficacy.analyzed", "", arm))),
                })
            })
            .collect();
        o.rows.push(Row {
            population: pop,
            arms,
        });
    }
    let mut keys: Vec<(String, String)> = Vec::new();
    // a posted analysis is keyed `analysis N`; a ratio read from text has no such key,
    // only its estimate's fields
    for c in cells.iter().filter(|c| {
        c.population
            .as_deref()
            .is_some_and(|p| p.starts_with("analysis "))
            || matches!(
                c.field.as_str(),
                "efficacy.effect_estimate"
                    | "efficacy.estimate_ci_lower"
                    | "efficacy.estimate_ci_upper"
            )
    }) {
        let k = (
            c.population.clone().unwrap_or_default(),
            c.arm.clone().unwrap_or_default(),
        );
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for (pop, arm) in keys {
        let est = get(cells, "efficacy.effect_estimate", &pop, &arm);
        let (lo, hi) = (
            get(cells, "efficacy.estimate_ci_lower", &pop, &arm),
            get(cells, "efficacy.estimate_ci_upper", &pop, &arm),
        );
        o.analyses.push(Analysis {
            estimate: val(est),
            estimate_type: est.and_then(|c| c.unit.clone()).unwrap_or_default(),
            ci: (lo.is_some() || hi.is_some()).then(|| {
                (
                    val(lo).unwrap_or_else(|| "?".into()),
                    val(hi).unwrap_or_else(|| "?".into()),
                    lo.or(hi).and_then(|c| c.unit.clone()).unwrap_or_default(),
                )
            }),
            p_value: val(get(cells, "efficacy.p_value", &pop, &arm)),
            method: val(get(cells, "efficacy.statistical_method", &pop, &arm)),
            population: pop,
            arms: arm,
        });
    }
    o
}

/// A ratio estimate with a two-sided interval, placed on the forest plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub label: String,
    pub kind: String,
    pub estimate: f64,
    pub lower: f64,
    pub upper: f64,
    /// The estimate and its limits as posted (`0.90`, not `0.9`).
    pub posted: String,
}

fn is_ratio(kind: &str) -> bool {
    let k = kind.to_ascii_lowercase();
    k.contains("ratio") || k.contains("hazard")
}

/// The forest plot's points: ratio estimates (hazard, odds, risk ratios) with both
/// limits, all positive (a log scale needs them). Differences have units of their own
/// and stay in the tables.
pub fn forest_points(outcomes: &[Outcome]) -> Vec<Point> {
    let num = |s: &str| crate::domain::typed::number(s);
    let mut out = Vec::new();
    for o in outcomes {
        for a in &o.analyses {
            let (Some(e), Some((l, h, _))) = (&a.estimate, &a.ci) else {
                continue;
            };
            let (l_s, h_s) = (l.clone(), h.clone());
            let (Some(e), Some(l), Some(h)) = (num(e), num(l), num(h)) else {
                continue;
            };
            if !is_ratio(&a.estimate_type) || e <= 0.0 || l <= 0.0 || h <= 0.0 || l > h {
                continue;
            }
            let title = o
                .endpoint
                .split_once(": ")
                .map_or(o.endpoint.as_str(), |(_, t)| t);
            // what the analysis covers first, so a cut label keeps it
            let label = match a.population.split_once(": ") {
                Some((_, what)) => format!("{what} · {title} · {}", a.arms),
                None => format!("{title} · {}", a.arms),
            };
            out.push(Point {
                posted: format!("{} ({}–{})", a.estimate.as_deref().unwrap_or(""), l_s, h_s),
                label,
                kind: a.estimate_type.clone(),
                estimate: e,
                lower: l,
                upper: h,
            });
        }
    }
    out
}

/// One outcome as an HTML table: a row per population with the arms side by side, then
/// a row per comparison.
pub fn outcome_html(o: &Outcome) -> Markup {
    html! {
        table class="comparison" data-endpoint=(o.endpoint) {
            caption { (o.endpoint) }
            thead { tr {
                th { "Population" }
                @for a in &o.arms { th { (a) } }
            } }
            tbody {
                @for r in &o.rows {
                    tr class="arms" {
                        td { (r.population) }
                        @for c in &r.arms {
                            td {
                                @if let Some(c) = c {
                                    span class="value" { (c.value) } " " (c.unit)
                                    @if c.conflicting {
                                        " " a class="badge status-conflicting" href="#conflicts" title="the sources disagree: see both in Conflicts" { "Sources disagree" }
                                    }
                                    @if let Some(s) = &c.spread { div class="detail" { (s) } }
                                    @if let Some(n) = &c.n { div class="detail" { "n = " (n) } }
                                }
                            }
                        }
                    }
                }
                @for a in &o.analyses {
                    tr class="analysis" {
                        td { (a.population) }
                        td colspan=(o.arms.len().max(1)) {
                            strong { (a.arms) } ": "
                            @if let Some(e) = &a.estimate { span class="value" { (e) } " " (a.estimate_type) }
                            @if let Some((l, h, u)) = &a.ci { " (" (u) " " (l) "–" (h) ")" }
                            @if let Some(p) = &a.p_value { "; " (crate::access::present::p_words(p)) }
                            @if let Some(m) = &a.method { " · " (m) }
                        }
                    }
                }
            }
        }
    }
}

/// One outcome as a Markdown table (cells escaped by `esc`).
pub fn outcome_md(o: &Outcome, esc: impl Fn(&str) -> String) -> String {
    let mut s = format!("**{}**\n\n| Population |", esc(&o.endpoint));
    for a in &o.arms {
        s.push_str(&format!(" {} |", esc(a)));
    }
    s.push_str("\n|---|");
    s.push_str(&"---|".repeat(o.arms.len()));
    s.push('\n');
    for r in &o.rows {
        s.push_str(&format!("| {} |", esc(&r.population)));
        for c in &r.arms {
            let text = c.as_ref().map_or(String::new(), |c| {
                let mut t = format!("{} {}", c.value, c.unit);
                if c.conflicting {
                    t.push_str(" (sources disagree)");
                }
                if let Some(x) = &c.spread {
                    t.push_str(&format!("; {x}"));
                }
                if let Some(n) = &c.n {
                    t.push_str(&format!("; n = {n}"));
                }
                t
            });
            s.push_str(&format!(" {} |", esc(text.trim())));
        }
        s.push('\n');
    }
    for a in &o.analyses {
        let mut t = format!("{}: ", a.arms);
        if let Some(e) = &a.estimate {
            t.push_str(&format!("{e} {}", a.estimate_type));
        }
        if let Some((l, h, u)) = &a.ci {
            t.push_str(&format!(" ({u} {l}–{h})"));
        }
        if let Some(p) = &a.p_value {
            t.push_str(&format!("; {}", crate::access::present::p_words(p)));
        }
        s.push_str(&format!("| {} | {} |", esc(&a.population), esc(&t)));
        s.push_str(&" |".repeat(o.arms.len().saturating_sub(1)));
        s.push('\n');
    }
    s.push('\n');
    s
}

/// The forest plot as inline SVG: one row per point, log-scaled x axis with the line of
/// no effect at 1. Text goes through maud's escaping like the rest of the page.
pub fn forest_svg(points: &[Point]) -> Option<Markup> {
    if points.is_empty() {
        return None;
    }
    // a label column, the plot, and the numbers as posted
    let (w, label_w, plot_w, row) = (960.0_f64, 430.0_f64, 340.0_f64, 22.0_f64);
    let min = points
        .iter()
        .map(|p| p.lower)
        .fold(f64::MAX, f64::min)
        .min(1.0);
    let max = points
        .iter()
        .map(|p| p.upper)
        .fold(f64::MIN, f64::max)
        .max(1.0);
    let (lmin, lmax) = (min.ln() - 0.1, max.ln() + 0.1);
    let x = |v: f64| label_w + 10.0 + (v.ln() - lmin) / (lmax - lmin) * (plot_w - 20.0);
    let h = row * (points.len() as f64 + 2.0);
    let ticks: Vec<f64> = [0.01, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 10.0, 100.0]
        .into_iter()
        .filter(|t| *t >= min && *t <= max)
        .collect();
    let short = |s: &str| -> String {
        if s.chars().count() <= 68 {
            s.to_string()
        } else {
            format!("{}…", s.chars().take(67).collect::<String>())
        }
    };
    Some(html! {
        svg class="forest" xmlns="http://www.w3.org/2000/svg" width=(w) height=(h)
            viewBox={ "0 0 " (w) " " (h) } role="img" aria-label="forest plot of ratio estimates" {
            line x1=(x(1.0)) x2=(x(1.0)) y1="0" y2=(h - row) stroke="#8a96a3" stroke-dasharray="4 3" {}
            @for (i, p) in points.iter().enumerate() {
                @let y = row * (i as f64 + 1.0);
                g class="point" data-estimate=(p.estimate) data-lower=(p.lower) data-upper=(p.upper) {
                    title { (p.label) ": " (p.kind) " " (p.posted) }
                    text x="0" y=(y + 4.0) font-size="11" fill="#1b1f24" { (short(&p.label)) }
                    line x1=(x(p.lower)) x2=(x(p.upper)) y1=(y) y2=(y) stroke="#1b1f24" stroke-width="1.5" {}
                    rect x=(x(p.estimate) - 4.0) y=(y - 4.0) width="8" height="8" fill="#2b36a8" {}
                    text x=(label_w + plot_w + 10.0) y=(y + 4.0) font-size="11" fill="#1b1f24" {
                        (p.kind) " " (p.posted)
                    }
                }
            }
            @for t in &ticks {
                text x=(x(*t)) y=(h - 4.0) font-size="11" text-anchor="middle" fill="#5c6770" { (t) }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(field: &str, pop: &str, arm: &str, value: &str, unit: &str) -> Cell {
        Cell {
            asset_id: "a".into(),
            section: "efficacy".into(),
            field: field.into(),
            endpoint: Some("NCT1 Primary: ASDAS-MI [Week 52]".into()),
            population: (!pop.is_empty()).then(|| pop.into()),
            arm: Some(arm.into()),
            value: Some(value.into()),
            unit: (!unit.is_empty()).then(|| unit.into()),
            status: "value".into(),
            ..Cell::default()
        }
    }

    fn sample() -> Vec<Cell> {
        let d = "CZP vs Placebo";
        vec![
            cell(
                "efficacy.value",
                "",
                "Placebo",
                "7.0",
                "percentage of participants",
            ),
            cell("efficacy.analyzed", "", "Placebo", "126", "participants"),
            cell(
                "efficacy.value",
                "",
                "CZP",
                "47.2",
                "percentage of participants",
            ),
            cell("efficacy.analyzed", "", "CZP", "125", "participants"),
            cell(
                "efficacy.ci_lower",
                "",
                "CZP",
                "38.5",
                "95% Confidence Interval",
            ),
            cell(
                "efficacy.ci_upper",
                "",
                "CZP",
                "56.0",
                "95% Confidence Interval",
            ),
            cell(
                "efficacy.effect_estimate",
                "analysis 1",
                d,
                "15.231",
                "Odds Ratio (OR)",
            ),
            cell(
                "efficacy.estimate_ci_lower",
                "analysis 1",
                d,
                "7.336",
                "95% CI, two-sided",
            ),
            cell(
                "efficacy.estimate_ci_upper",
                "analysis 1",
                d,
                "31.623",
                "95% CI, two-sided",
            ),
            cell("efficacy.p_value", "analysis 1", d, "<0.001", ""),
        ]
    }

    #[test]
    fn arms_sit_side_by_side_with_the_comparison_on_its_row() {
        let o = outcomes(&sample());
        assert_eq!(o.len(), 1);
        let o = &o[0];
        assert_eq!(o.arms, vec!["Placebo", "CZP"]);
        assert_eq!(o.rows.len(), 1);
        let czp = o.rows[0].arms[1].as_ref().unwrap();
        assert_eq!(czp.value, "47.2");
        assert_eq!(czp.n.as_deref(), Some("125"));
        assert_eq!(
            czp.spread.as_deref(),
            Some("95% Confidence Interval 38.5–56.0")
        );
        assert_eq!(o.rows[0].arms[0].as_ref().unwrap().spread, None);
        let a = &o.analyses[0];
        assert_eq!(a.arms, "CZP vs Placebo");
        assert_eq!(a.estimate.as_deref(), Some("15.231"));
        assert_eq!(
            a.ci,
            Some(("7.336".into(), "31.623".into(), "95% CI, two-sided".into()))
        );
        assert_eq!(a.p_value.as_deref(), Some("<0.001"));
    }

    #[test]
    fn the_forest_plot_holds_ratios_only_on_a_log_scale() {
        let mut cells = sample();
        // a difference has units of its own: not on the ratio plot
        cells.push(cell(
            "efficacy.effect_estimate",
            "analysis 2",
            "CZP vs Placebo",
            "-1.9",
            "Difference",
        ));
        cells.push(cell(
            "efficacy.estimate_ci_lower",
            "analysis 2",
            "CZP vs Placebo",
            "-2.6",
            "95% CI, two-sided",
        ));
        cells.push(cell(
            "efficacy.estimate_ci_upper",
            "analysis 2",
            "CZP vs Placebo",
            "-1.2",
            "95% CI, two-sided",
        ));
        let pts = forest_points(&outcomes(&cells));
        assert_eq!(pts.len(), 1);
        assert_eq!(
            (pts[0].estimate, pts[0].lower, pts[0].upper),
            (15.231, 7.336, 31.623)
        );
        let svg = forest_svg(&pts).unwrap().into_string();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("data-estimate=\"15.231\""));
        assert!(svg.contains("15.231 (7.336–31.623)"), "numbers as posted");
        assert!(!svg.contains("<script"));
        assert!(forest_svg(&[]).is_none());
    }
}
