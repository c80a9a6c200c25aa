//! The valuation step: peak sales and a risk-adjusted NPV per asset, modeled from the
//! profile's own facts (approval, lead-trial phase, indication, prevalence or incidence)
//! and the assumptions of `jobs/valuation.toml`. Every input is a claim: the facts are
//! the claims earlier steps emitted, each assumption is an `assumption` claim naming
//! the file, its key and hash, and the two outputs are `modeled` claims naming all of
//! them with the formula. A missing fact leaves the outputs `source_empty` naming it;
//! facts that disagree leave them `skipped`. Pure.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::domain::{Claim, Label};

use super::{Emit, Input, Key};

/// The assumptions file as shipped; a run uses this copy.
pub const BOOK_PATH: &str = "jobs/valuation.toml";
const BOOK_TEXT: &str = include_str!("../../../jobs/valuation.toml");

/// One assumption: the value used, its sensitivity range, unit and provenance.
#[derive(Clone, Debug, Deserialize, serde::Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub base: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub unit: String,
    pub provenance: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Area {
    terms: Vec<String>,
}

/// The parsed assumptions file with its hash.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Book {
    #[serde(default)]
    area: BTreeMap<String, Area>,
    assumption: BTreeMap<String, Entry>,
    #[serde(skip)]
    sha256: String,
    /// The file's name (`valuation.toml`): claims name it, not a machine's path, so a
    /// run stays a function of its inputs wherever the file sits.
    #[serde(skip)]
    path: String,
}

impl Book {
    /// The file's sha256 (hex).
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// Parses an assumptions file read from `path`; every entry needs a unit and a
    /// provenance, and a base inside its low..high range.
    pub fn parse(text: &str, path: &str) -> Result<Book, String> {
        let mut b: Book = toml::from_str(text).map_err(|e| e.to_string())?;
        for (k, e) in &b.assumption {
            if e.unit.trim().is_empty() || e.provenance.trim().is_empty() {
                return Err(format!("assumption {k:?} needs a unit and a provenance"));
            }
            if e.low.is_some_and(|l| l > e.base) || e.high.is_some_and(|h| h < e.base) {
                return Err(format!(
                    "assumption {k:?}: base {} is outside low..high",
                    e.base
                ));
            }
        }
        b.sha256 = crate::domain::sha256_hex(text.as_bytes());
        b.path = std::path::Path::new(path)
            .file_name()
            .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned());
        Ok(b)
    }

    /// The shipped book (checked by a test, so it always parses).
    pub fn shipped() -> &'static Book {
        static B: std::sync::OnceLock<Book> = std::sync::OnceLock::new();
        B.get_or_init(|| Book::parse(BOOK_TEXT, BOOK_PATH).expect("jobs/valuation.toml parses"))
    }

    /// The shipped book, shared.
    pub fn shipped_arc() -> std::sync::Arc<Book> {
        std::sync::Arc::new(Book::shipped().clone())
    }

    /// The entry for `name` in `area`, falling back to `name.all`, then to `name`.
    fn get(&self, name: &str, area: &str) -> Option<(String, &Entry)> {
        [
            format!("{name}.{area}"),
            format!("{name}.all"),
            name.to_string(),
        ]
        .into_iter()
        .find_map(|k| self.assumption.get(&k).map(|e| (k, e)))
    }

    /// The therapeutic area whose terms the indication mentions, else `all`.
    fn area_of(&self, indication: &str) -> String {
        self.area
            .iter()
            .find(|(_, a)| a.terms.iter().any(|t| super::mentions(indication, t)))
            .map(|(n, _)| n.clone())
            .unwrap_or_else(|| "all".into())
    }
}

/// How far the asset is: approved (with its year) or the stage it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    Phase(u8),
    Approved(i32),
}

impl Stage {
    fn key(self) -> &'static str {
        match self {
            Stage::Phase(1) => "phase_1",
            Stage::Phase(2) => "phase_2",
            Stage::Phase(_) => "phase_3",
            Stage::Approved(_) => "approved",
        }
    }
}

/// The numbers the model runs on, each already chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    pub stage: Stage,
    pub patients: f64,
    pub valuation_year: i32,
    pub discount_rate: f64,
    /// Likelihood of approval from the stage (1 for an approved asset).
    pub pos: f64,
    /// Years from the valuation year to launch (0 when approved).
    pub launch_lag: i32,
    pub peak_share: f64,
    pub price: f64,
    pub years_to_peak: f64,
    pub exclusivity_years: i32,
    pub erosion: f64,
    pub tail_years: i32,
    pub margin: f64,
    pub tax_rate: f64,
}

/// One modeled year.
#[derive(Clone, Debug, PartialEq)]
pub struct Year {
    pub year: i32,
    pub sales: f64,
    pub cash_flow: f64,
    pub present_value: f64,
}

/// Peak sales: patients x peak share x price per patient-year.
pub fn peak_sales(i: &Inputs) -> f64 {
    i.patients * i.peak_share * i.price
}

/// The launch year: the approval year, or the valuation year plus the launch lag.
pub fn launch_year(i: &Inputs) -> i32 {
    match i.stage {
        Stage::Approved(y) => y,
        Stage::Phase(_) => i.valuation_year + i.launch_lag,
    }
}

/// Sales, after-tax cash flow and its present value for each year after the valuation
/// year until the eroded tail ends. Sales ramp linearly to peak over `years_to_peak`
/// from launch (the launch year counts as year one), hold until loss of exclusivity
/// (`exclusivity_years` after launch), then lose `erosion` of the year before each year
/// for `tail_years`. Cash flow = sales x margin x (1 - tax); it is discounted at the end
/// of each year to the valuation year.
pub fn cash_flows(i: &Inputs) -> Vec<Year> {
    let peak = peak_sales(i);
    let launch = launch_year(i);
    let loe = launch + i.exclusivity_years;
    let ramp = |y: i32| peak * (f64::from(y - launch + 1) / i.years_to_peak.max(1.0)).min(1.0);
    let mut out = Vec::new();
    for year in (i.valuation_year + 1)..(loe + i.tail_years) {
        let sales = if year < launch {
            0.0
        } else if year < loe {
            ramp(year)
        } else {
            ramp(loe - 1) * (1.0 - i.erosion).powi(year - loe + 1)
        };
        let cash_flow = sales * i.margin * (1.0 - i.tax_rate);
        let present_value = cash_flow / (1.0 + i.discount_rate).powi(year - i.valuation_year);
        out.push(Year {
            year,
            sales,
            cash_flow,
            present_value,
        });
    }
    out
}

/// rNPV: the likelihood of approval times the sum of the discounted cash flows.
pub fn rnpv(i: &Inputs) -> f64 {
    i.pos * cash_flows(i).iter().map(|y| y.present_value).sum::<f64>()
}

/// The formula both outputs state, in words an analyst can recompute.
pub const PEAK_FORMULA: &str = "peak_sales = patients x peak_share x price_per_patient_year; patients = prevalence (or incidence x patient_years_per_incident_case), a rate per 100,000 times us_population / 100,000";
pub const RNPV_FORMULA: &str = "rnpv = pos x sum over years y after valuation_year of sales(y) x operating_margin x (1 - tax_rate) / (1 + discount_rate)^(y - valuation_year); sales ramp linearly from launch (approval year, or valuation_year + launch_lag) to peak_sales over years_to_peak, hold until launch + exclusivity_years, then lose erosion_after_loe a year for tail_years; development costs are not modeled";

/// The fields this step fills.
const FIELDS: [&str; 4] = [
    "valuation.assumption",
    "valuation.peak_sales",
    "valuation.rnpv",
    "valuation.rnpv_sensitivity",
];

/// How many assumptions the sensitivity view shows (those that move rNPV most).
pub const SENSITIVITY_TOP: usize = 3;

/// `inputs` with the assumption `name` (a key of the book, `pos.phase_2.oncology`) set
/// to `v`; `None` for an assumption the model does not vary.
pub fn with_assumption(i: &Inputs, name: &str, v: f64) -> Option<Inputs> {
    let mut o = i.clone();
    let head = name.split('.').next().unwrap_or(name);
    match head {
        "discount_rate" => o.discount_rate = v,
        "pos" => o.pos = v,
        "launch_lag" => o.launch_lag = v as i32,
        "peak_share" => o.peak_share = v,
        "price_per_patient_year" => o.price = v,
        "years_to_peak" => o.years_to_peak = v,
        "exclusivity_years" => o.exclusivity_years = v as i32,
        "erosion_after_loe" => o.erosion = v,
        "operating_margin" => o.margin = v,
        _ => return None,
    }
    Some(o)
}

/// The sensitivity view: for each varied assumption with a low and a high value,
/// (key, low, high, rNPV at low, rNPV at high), the widest swings first, at most `top`.
pub fn sensitivity(
    i: &Inputs,
    used: &[(String, Entry)],
    top: usize,
) -> Vec<(String, f64, f64, f64, f64)> {
    let mut rows: Vec<(String, f64, f64, f64, f64)> = used
        .iter()
        .filter_map(|(k, e)| {
            let (lo, hi) = (e.low?, e.high?);
            let at_lo = rnpv(&with_assumption(i, k, lo)?);
            let at_hi = rnpv(&with_assumption(i, k, hi)?);
            Some((k.clone(), lo, hi, at_lo, at_hi))
        })
        .collect();
    rows.sort_by(|a, b| {
        let swing = |r: &(String, f64, f64, f64, f64)| (r.4 - r.3).abs();
        swing(b).total_cmp(&swing(a)).then_with(|| a.0.cmp(&b.0))
    });
    rows.truncate(top);
    rows
}

/// The step: reads the facts earlier steps emitted for this asset.
pub fn valuation(input: &Input<'_>, e: &mut Emit<'_>) {
    let book = input.book;
    // The chosen inputs are owned, so the borrow of the claims ends here.
    match model_inputs(&e.out.claims, book) {
        Err(Missing::Empty(why)) => {
            for f in FIELDS {
                e.undecided(f, why.clone());
            }
        }
        Err(Missing::Conflict(why)) => {
            for f in FIELDS {
                e.skip(f, why.clone());
            }
        }
        Ok(chosen) => {
            let unknown: Vec<&String> = input
                .asset
                .valuation
                .keys()
                .filter(|k| !book.assumption.contains_key(*k))
                .collect();
            if let Some(k) = unknown.first() {
                let why = format!(
                    "the portfolio sets the assumption {k:?} for this asset, which {} does not hold",
                    book.path
                );
                for f in FIELDS {
                    e.skip(f, why.clone());
                }
                return;
            }
            emit(e, book, &input.asset.valuation, &chosen)
        }
    }
}

/// Why the model cannot run.
enum Missing {
    /// An input fact is absent: `source_empty`, naming it.
    Empty(String),
    /// Input facts disagree: `skipped` until the conflict is resolved.
    Conflict(String),
}

/// The facts chosen for the model: the claims and what they give.
struct Chosen {
    stage: Stage,
    stage_claims: Vec<String>,
    area: String,
    indication_claim: Option<String>,
    /// (claim id, value, is it a rate per 100,000, is it incidence)
    epi: (String, f64, bool, bool),
}

fn distinct<'c>(cs: impl Iterator<Item = &'c Claim>) -> BTreeSet<&'c str> {
    cs.map(|c| c.value.as_str()).collect()
}

/// Chooses the model's facts among the asset's claims so far (facts only).
fn model_inputs(claims: &[Claim], book: &Book) -> Result<Chosen, Missing> {
    let of = |f: &'static str| {
        claims
            .iter()
            .filter(move |c| c.label == Label::Fact && c.field == f)
    };
    // Stage: an approval date from Drugs@FDA, else the highest phase of the asset's trials.
    let approvals: Vec<&Claim> = of("regulatory.original_approval_date").collect();
    let (stage, stage_claims) = if let Some(first) = approvals
        .iter()
        .filter_map(|c| c.value.get(..4)?.parse::<i32>().ok().map(|y| (y, *c)))
        .min_by_key(|(y, _)| *y)
    {
        (Stage::Approved(first.0), vec![first.1.id.clone()])
    } else {
        let phased: Vec<(u8, &Claim)> = of("trials.phase")
            .filter_map(|c| highest_phase(&c.value).map(|p| (p, c)))
            .collect();
        let Some(top) = phased.iter().map(|(p, _)| *p).max() else {
            return Err(Missing::Empty(
                "the model needs the asset's stage: no approval date (regulatory.original_approval_date) and no trial phase (trials.phase) among its facts".into(),
            ));
        };
        let ids = phased
            .iter()
            .filter(|(p, _)| *p == top)
            .map(|(_, c)| c.id.clone())
            .collect();
        (Stage::Phase(top), ids)
    };
    let indications: Vec<&Claim> = of("identity.indication").collect();
    let (area, indication_claim) = match indications.first() {
        Some(c) => {
            let areas: BTreeSet<String> =
                indications.iter().map(|c| book.area_of(&c.value)).collect();
            if areas.len() > 1 {
                return Err(Missing::Conflict(format!(
                    "the indication facts fall in different therapeutic areas ({}): resolve identity.indication first",
                    areas.into_iter().collect::<Vec<_>>().join(", ")
                )));
            }
            (book.area_of(&c.value), Some(c.id.clone()))
        }
        None => ("all".to_string(), None),
    };
    let epi = pick_epi(of("market.prevalence").collect(), false)
        .or_else(|| pick_epi(of("market.incidence").collect(), true))
        .unwrap_or(Err(Missing::Empty(
            "the model needs the number of patients: the market section has no prevalence or incidence fact (market.prevalence, market.incidence)".into(),
        )))?;
    Ok(Chosen {
        stage,
        stage_claims,
        area,
        indication_claim,
        epi,
    })
}

/// The highest phase a CT.gov phase value names (`PHASE2, PHASE3`, `Phase 1/Phase 2`).
fn highest_phase(v: &str) -> Option<u8> {
    let u = v.to_ascii_uppercase().replace([' ', '_'], "");
    (1..=4u8)
        .rev()
        .find(|p| u.contains(&format!("PHASE{p}")))
        .map(|p| p.min(3))
}

/// The epidemiology fact to size the market with: the all-patients row ("Both Sexes",
/// or a population naming no sex) of the latest year the facts name.
fn pick_epi(
    cs: Vec<&Claim>,
    incidence: bool,
) -> Option<Result<(String, f64, bool, bool), Missing>> {
    if cs.is_empty() {
        return None;
    }
    let pop = |c: &Claim| c.population.clone().unwrap_or_default().to_lowercase();
    let everyone = |c: &&Claim| {
        let p = pop(c);
        p.contains("both sexes") || !(p.contains("male") || p.contains("female"))
    };
    let year = |c: &Claim| {
        pop(c)
            .split(|ch: char| !ch.is_ascii_digit())
            .filter(|w| w.len() == 4)
            .filter_map(|w| w.parse::<i32>().ok())
            .max()
    };
    let all: Vec<&Claim> = cs.iter().copied().filter(everyone).collect();
    let latest = all.iter().filter_map(|c| year(c)).max();
    let best: Vec<&Claim> = all.into_iter().filter(|c| year(c) == latest).collect();
    let field = if incidence {
        "market.incidence"
    } else {
        "market.prevalence"
    };
    let values = distinct(best.iter().copied());
    if values.len() != 1 {
        return Some(Err(if values.is_empty() {
            Missing::Empty(format!("{field} has no all-patients row"))
        } else {
            Missing::Conflict(format!(
                "{field} gives several all-patients values for one year ({}): resolve them first",
                values.into_iter().collect::<Vec<_>>().join(", ")
            ))
        }));
    }
    let c = best[0];
    let unit = c
        .unit
        .clone()
        .unwrap_or_default()
        .to_lowercase()
        .replace([',', ' ', '_'], "");
    let rate = unit.contains("per100000");
    let count = ["count", "cases", "persons", "patients", "people"]
        .iter()
        .any(|w| unit.contains(w));
    let Ok(n) = c.value.replace(',', "").parse::<f64>() else {
        return Some(Err(Missing::Empty(format!(
            "{field} {:?} is not a number",
            c.value
        ))));
    };
    if !rate && !count {
        return Some(Err(Missing::Empty(format!(
            "{field} is in {:?}, which the model cannot turn into patients (a rate per 100,000 or a count)",
            c.unit.clone().unwrap_or_default()
        ))));
    }
    Some(Ok((c.id.clone(), n, rate, incidence)))
}

/// Emits the assumption claims, then peak sales and rNPV over them and the facts.
fn emit(
    e: &mut Emit<'_>,
    book: &Book,
    overrides: &BTreeMap<String, crate::domain::Assumed>,
    ch: &Chosen,
) {
    let asset = e.asset.clone();
    let mut used: Vec<(String, Entry, String)> = Vec::new();
    let mut assumption = |name: &str| -> Option<(String, f64)> {
        let (key, entry) = book.get(name, &ch.area)?;
        let at = key.clone();
        let (entry, locator) = match overrides.get(&key) {
            // The analyst's value for this asset, cited to the portfolio; the file's
            // range stays only where it still holds the value.
            Some(v) => {
                let v = v.0;
                let inside = entry.low.is_none_or(|l| l <= v) && entry.high.is_none_or(|h| h >= v);
                (
                    Entry {
                        base: v,
                        low: entry.low.filter(|_| inside),
                        high: entry.high.filter(|_| inside),
                        unit: entry.unit.clone(),
                        provenance: format!(
                            "portfolio override for {asset} (the file's base is {}: {})",
                            entry.base, entry.provenance
                        ),
                    },
                    format!("portfolio.toml#asset.{asset}.valuation.{key}"),
                )
            }
            None => {
                // The entry's own hash: an assumption that did not change keeps its claim id.
                let text = serde_json::json!([key, entry]).to_string();
                let hash = crate::domain::sha256_hex(text.as_bytes());
                (
                    entry.clone(),
                    format!("{}#{key}@sha256:{}", book.path, &hash[..16]),
                )
            }
        };
        let entry = &entry;
        let id = e.assumption(&key, entry, &locator);
        used.push((at, entry.clone(), id.clone()));
        Some((id, entry.base))
    };
    let stage_key = match ch.stage {
        Stage::Approved(_) => None,
        s => Some(s.key()),
    };
    let mut ids: Vec<String> = Vec::new();
    let mut take = |name: &str, ids: &mut Vec<String>| -> Result<f64, String> {
        let (id, v) = assumption(name).ok_or_else(|| {
            format!(
                "the model needs the assumption {name:?}, which {} does not hold",
                book.path
            )
        })?;
        ids.push(id);
        Ok(v)
    };
    let built = (|| -> Result<(Inputs, Vec<String>), String> {
        let mut peak_ids = Vec::new();
        let (epi_id, n, rate, incidence) = ch.epi.clone();
        peak_ids.push(epi_id);
        let mut patients = n;
        if rate {
            patients *= take("us_population", &mut peak_ids)? / 100_000.0;
        }
        if incidence {
            patients *= take("patient_years_per_incident_case", &mut peak_ids)?;
        }
        let peak_share = take("peak_share", &mut peak_ids)?;
        let price = take("price_per_patient_year", &mut peak_ids)?;
        let valuation_year = take("valuation_year", &mut ids)? as i32;
        let discount_rate = take("discount_rate", &mut ids)?;
        let (pos, launch_lag) = match stage_key {
            Some(s) => (
                take(&format!("pos.{}", s), &mut ids)?,
                take(&format!("launch_lag.{s}"), &mut ids)? as i32,
            ),
            None => (1.0, 0),
        };
        let inputs = Inputs {
            stage: ch.stage,
            patients,
            valuation_year,
            discount_rate,
            pos,
            launch_lag,
            peak_share,
            price,
            years_to_peak: take("years_to_peak", &mut ids)?,
            exclusivity_years: take("exclusivity_years", &mut ids)? as i32,
            erosion: take("erosion_after_loe", &mut ids)?,
            tail_years: take("tail_years", &mut ids)? as i32,
            margin: take("operating_margin", &mut ids)?,
            tax_rate: take("tax_rate", &mut ids)?,
        };
        Ok((inputs, peak_ids))
    })();
    let (inputs, mut peak_ids) = match built {
        Ok(x) => x,
        Err(why) => {
            for f in [
                "valuation.peak_sales",
                "valuation.rnpv",
                "valuation.rnpv_sensitivity",
            ] {
                e.undecided(f, why.clone());
            }
            return;
        }
    };
    if let Some(ind) = &ch.indication_claim {
        peak_ids.push(ind.clone());
    }
    let peak = e.over(
        Label::Modeled,
        "valuation.peak_sales",
        &Key::default(),
        &format!("{:.0}", peak_sales(&inputs)),
        "USD",
        peak_ids,
        PEAK_FORMULA,
    );
    let mut rnpv_ids = vec![peak];
    rnpv_ids.extend(ch.stage_claims.iter().cloned());
    rnpv_ids.extend(ids);
    let rnpv_id = e.over(
        Label::Modeled,
        "valuation.rnpv",
        &Key::default(),
        &format!("{:.0}", rnpv(&inputs)),
        "USD",
        rnpv_ids,
        RNPV_FORMULA,
    );
    let entries: Vec<(String, Entry)> = used
        .iter()
        .map(|(k, en, _)| (k.clone(), en.clone()))
        .collect();
    for (key, lo, hi, at_lo, at_hi) in sensitivity(&inputs, &entries, SENSITIVITY_TOP) {
        let id = used.iter().find(|(k, _, _)| *k == key).map(|u| u.2.clone());
        for (side, v, r) in [("low", lo, at_lo), ("high", hi, at_hi)] {
            e.over(
                Label::Modeled,
                "valuation.rnpv_sensitivity",
                &Key {
                    endpoint: key.clone(),
                    population: side.into(),
                    arm: String::new(),
                },
                &format!("{r:.0}"),
                "USD",
                id.iter().cloned().chain([rnpv_id.clone()]).collect(),
                &format!(
                    "rnpv with {key} at its {side} value {v} (base {}), every other input at base",
                    entries
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map_or(0.0, |x| x.1.base)
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_book_parses_and_every_number_has_provenance() {
        let b = Book::shipped();
        assert!(b.assumption.len() >= 20);
        for (k, e) in &b.assumption {
            assert!(!e.provenance.trim().is_empty(), "{k}");
            assert!(!e.unit.trim().is_empty(), "{k}");
            if let (Some(lo), Some(hi)) = (e.low, e.high) {
                assert!(
                    lo <= e.base && e.base <= hi,
                    "{k}: {lo} <= {} <= {hi}",
                    e.base
                );
            }
        }
        assert_eq!(b.area_of("Chronic Myeloid Leukemia"), "oncology");
        assert_eq!(b.area_of("Atopic Dermatitis"), "all");
        assert_eq!(b.get("pos.phase_2", "oncology").unwrap().1.base, 0.108);
        assert_eq!(b.get("peak_share", "oncology").unwrap().0, "peak_share");
    }

    #[test]
    fn phases_read_from_ctgov_values() {
        assert_eq!(highest_phase("PHASE3"), Some(3));
        assert_eq!(highest_phase("PHASE2, PHASE3"), Some(3));
        assert_eq!(highest_phase("Phase 1/Phase 2"), Some(2));
        assert_eq!(highest_phase("EARLY_PHASE1"), Some(1));
        assert_eq!(highest_phase("NA"), None);
    }

    /// The phase 2 asset the hand computations use.
    fn phase_2_example() -> Inputs {
        Inputs {
            stage: Stage::Phase(2),
            patients: 10_000.0,
            valuation_year: 2026,
            discount_rate: 0.10,
            pos: 0.5,
            launch_lag: 2,
            peak_share: 0.10,
            price: 100_000.0,
            years_to_peak: 2.0,
            exclusivity_years: 3,
            erosion: 0.5,
            tail_years: 2,
            margin: 0.5,
            tax_rate: 0.2,
        }
    }

    /// A phase 2 asset computed by hand, year by year.
    #[test]
    fn cash_flows_match_a_hand_computation() {
        let i = phase_2_example();
        // peak = 10,000 x 0.10 x 100,000 = 100,000,000; launch 2028, LOE 2031.
        assert_eq!(peak_sales(&i), 100_000_000.0);
        let ys = cash_flows(&i);
        let years: Vec<i32> = ys.iter().map(|y| y.year).collect();
        assert_eq!(years, vec![2027, 2028, 2029, 2030, 2031, 2032]);
        // 2027: before launch; 2028: half of peak; 2029-2030: peak; then halves.
        let sales = [0.0, 50e6, 100e6, 100e6, 50e6, 25e6];
        for (y, s) in ys.iter().zip(sales) {
            assert!((y.sales - s).abs() < 1e-6, "{}: {} vs {s}", y.year, y.sales);
            assert!((y.cash_flow - s * 0.5 * 0.8).abs() < 1e-6);
        }
        // PV: 20e6/1.1^2 + 40e6/1.1^3 + 40e6/1.1^4 + 20e6/1.1^5 + 10e6/1.1^6
        let pv = 20e6 / 1.21 + 40e6 / 1.331 + 40e6 / 1.4641 + 20e6 / 1.61051 + 10e6 / 1.771561;
        assert!(
            (rnpv(&i) - 0.5 * pv).abs() < 1e-3,
            "{} vs {}",
            rnpv(&i),
            0.5 * pv
        );
        // 0.5 x (16,528,925.6 + 30,052,592.0 + 27,320,538.2 + 12,418,426.5 + 5,644,739.3)
        assert!((rnpv(&i) - 45_982_610.8).abs() < 1.0, "{}", rnpv(&i));
    }

    /// The sensitivity rows move one assumption at a time and rank by swing.
    #[test]
    fn sensitivity_moves_one_assumption_at_a_time() {
        let i = phase_2_example();
        let entry = |base, low, high| Entry {
            base,
            low: Some(low),
            high: Some(high),
            unit: "u".into(),
            provenance: "p".into(),
        };
        let used = vec![
            ("pos.phase_2.all".to_string(), entry(0.5, 0.25, 1.0)),
            ("operating_margin".to_string(), entry(0.5, 0.4, 0.6)),
            ("tax_rate".to_string(), entry(0.2, 0.1, 0.3)),
        ];
        let rows = sensitivity(&i, &used, 3);
        // rNPV is linear in pos: half and double; margin: 0.8x and 1.2x; tax not varied
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].0, "pos.phase_2.all");
        let base = rnpv(&i);
        assert!((rows[0].3 - base / 2.0).abs() < 1e-6 && (rows[0].4 - base * 2.0).abs() < 1e-6);
        assert!((rows[1].3 - base * 0.8).abs() < 1e-6 && (rows[1].4 - base * 1.2).abs() < 1e-6);
        assert_eq!(sensitivity(&i, &used, 1).len(), 1);
    }

    #[test]
    fn an_approved_asset_counts_only_years_after_the_valuation_year() {
        let i = Inputs {
            stage: Stage::Approved(2025),
            patients: 1000.0,
            valuation_year: 2026,
            discount_rate: 0.0,
            pos: 1.0,
            launch_lag: 0,
            peak_share: 1.0,
            price: 1.0,
            years_to_peak: 4.0,
            exclusivity_years: 3,
            erosion: 1.0,
            tail_years: 1,
            margin: 1.0,
            tax_rate: 0.0,
        };
        // launch 2025 (year 1 = 250), 2026 = 500, 2027 = 750, LOE 2028: 750 x 0 = 0.
        let ys = cash_flows(&i);
        assert_eq!(
            ys.iter().map(|y| y.year).collect::<Vec<_>>(),
            vec![2027, 2028]
        );
        assert_eq!(ys[0].sales, 750.0);
        assert_eq!(ys[1].sales, 0.0);
        assert_eq!(rnpv(&i), 750.0);
    }
}
