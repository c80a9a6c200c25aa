//! Steps over the non-trial families: identity and regulatory facts from labels and
//! Drugs@FDA, label safety sentences, competitors, epidemiology tables, XBRL financials
//! and valuation. Fields are read from each row's text fields by locator, so the same
//! code serves the asset's own records and the trimmed competitor rows.

use std::collections::BTreeMap;

use super::{Emit, Input, Key, label, mentions, sentence_with};
use crate::domain::Family;
use crate::domain::Label;
use crate::lake::bundle::Row;

/// A row's text fields by locator.
struct Flat<'a> {
    row: &'a Row,
    map: BTreeMap<&'a str, &'a str>,
}

impl<'a> Flat<'a> {
    fn of(row: &'a Row) -> Flat<'a> {
        Flat {
            row,
            map: row
                .fields
                .iter()
                .map(|(l, _, t)| (l.as_str(), t.as_str()))
                .collect(),
        }
    }

    fn get(&self, loc: &str) -> Option<(&'a str, String)> {
        self.map.get(loc).map(|t| (*t, loc.to_string()))
    }

    /// Every `prefix/<i>` leaf of an array of strings.
    fn list(&self, prefix: &str) -> Vec<(&'a str, String)> {
        (0..)
            .map_while(|i| self.get(&format!("{prefix}/{i}")))
            .collect()
    }

    /// Indexes `i` for which `prefix/<i>/...` holds any field.
    fn indexes(&self, prefix: &str) -> Vec<usize> {
        (0..)
            .take_while(|i| {
                let p = format!("{prefix}/{i}/");
                self.map
                    .range(p.as_str()..)
                    .next()
                    .is_some_and(|(k, _)| k.starts_with(&p))
            })
            .collect()
    }

    /// The first text of a label section (`/boxed_warning/0`...).
    fn section(&self, name: &str) -> Option<(&'a str, String)> {
        self.get(&format!("/{name}/0"))
    }
}

fn subjects<'a>(input: &'a Input<'_>, f: Family) -> Vec<Flat<'a>> {
    input.subjects(f).map(Flat::of).collect()
}

/// The approved original submission of a Drugs@FDA record: its status, date and
/// submission class (`TYPE 1`, `TYPE 3`...) with their locators.
type Located<'a> = (&'a str, String);

struct Original<'a> {
    status: Located<'a>,
    date: Located<'a>,
    class: Option<Located<'a>>,
    class_words: Option<Located<'a>>,
}

fn original_approval<'a>(d: &Flat<'a>) -> Option<Original<'a>> {
    for i in d.indexes("/submissions") {
        let p = format!("/submissions/{i}");
        let kind = d.get(&format!("{p}/submission_type"))?;
        let status = d.get(&format!("{p}/submission_status"));
        if kind.0 == "ORIG"
            && let Some(st) = status.filter(|s| s.0 == "AP")
            && let Some(date) = d.get(&format!("{p}/submission_status_date"))
        {
            return Some(Original {
                status: st,
                date,
                class: d.get(&format!("{p}/submission_class_code")),
                class_words: d.get(&format!("{p}/submission_class_code_description")),
            });
        }
    }
    None
}

/// Whether a submission class says the application brought a new molecular entity
/// (`TYPE 1`, `TYPE 1/4`): its original approval is then the molecule's first.
fn new_molecular_entity(class: &str) -> bool {
    class
        .trim()
        .strip_prefix("TYPE ")
        .is_some_and(|t| t.split('/').any(|p| p.trim() == "1"))
}

/// resolve-indication: where a source states the portfolio's indication, verbatim.
pub fn indication(input: &Input<'_>, e: &mut Emit<'_>) {
    let Some(ind) = input.asset.indication.as_deref() else {
        e.skip("identity.indication", "the portfolio names no indication");
        return;
    };
    for (row, s) in input.studies() {
        // One condition per study: the exact name if listed, else the first that
        // mentions it (a study listing two matching conditions is not a conflict).
        let exact = s
            .conditions
            .iter()
            .find(|c| c.text.eq_ignore_ascii_case(ind));
        let best = exact
            .or_else(|| {
                s.conditions
                    .iter()
                    .find(|c| mentions(&c.text, ind) || mentions(ind, &c.text))
            })
            .or_else(|| s.conditions.iter().find(|c| same_words(&c.text, ind)));
        if let Some(c) = best {
            e.fact(
                "identity.indication",
                &Key::default(),
                &c.text,
                "",
                row,
                &c.text,
                &c.loc,
            );
        }
    }
    for l in subjects(input, Family::FdaLabel) {
        // the quote is the indication statement that names it, whole and without the
        // section heading; a label whose statements do not name it is searched by sentence
        let names = label_names(input, &l);
        let statement = l.section("indications_and_usage").and_then(|(text, loc)| {
            label::indications(text, &names)
                .into_iter()
                .find(|i| mentions(i.statement, ind))
                .map(|i| (i.statement, loc.clone()))
                .or_else(|| sentence_with(text, ind, 600).map(|s| (s, loc)))
        });
        if let Some((sent, loc)) = statement
            && let Some(pos) = sent.to_lowercase().find(&ind.to_lowercase())
            && sent.is_char_boundary(pos)
            && sent.is_char_boundary(pos + ind.len())
        {
            let stated = &sent[pos..pos + ind.len()];
            e.fact(
                "identity.indication",
                &Key::default(),
                stated,
                "",
                l.row,
                sent,
                &loc,
            );
        }
    }
}

pub fn identity(input: &Input<'_>, e: &mut Emit<'_>) {
    let holder = subjects(input, Family::Drugsfda)
        .iter()
        .any(|d| d.get("/sponsor_name").is_some());
    for l in subjects(input, Family::FdaLabel)
        .iter()
        .chain(&subjects(input, Family::Drugsfda))
    {
        for (kind, loc) in [
            ("brand", "/openfda/brand_name"),
            ("generic", "/openfda/generic_name"),
        ] {
            for (name, at) in l.list(loc) {
                let k = Key {
                    endpoint: kind.into(),
                    population: name.to_uppercase(),
                    arm: String::new(),
                };
                e.fact("identity.names", &k, name, "", l.row, name, &at);
            }
        }
        // every class openFDA states, each kind in its own field: the mechanism of action
        // apart from the established pharmacologic class, physiologic effect and
        // chemical structure
        for (field, kind, loc) in [
            ("identity.mechanism", "MoA", "/openfda/pharm_class_moa"),
            (
                "identity.pharmacologic_class",
                "EPC",
                "/openfda/pharm_class_epc",
            ),
            (
                "identity.pharmacologic_class",
                "PE",
                "/openfda/pharm_class_pe",
            ),
            (
                "identity.pharmacologic_class",
                "CS",
                "/openfda/pharm_class_cs",
            ),
        ] {
            for (m, at) in l.list(loc) {
                let k = Key {
                    endpoint: kind.into(),
                    population: m.to_string(),
                    arm: String::new(),
                };
                e.fact(field, &k, m, "", l.row, m, &at);
            }
        }
        // Drugs@FDA's sponsor_name is the application holder; a label's
        // manufacturer_name is its labeler, who may be a repackager (Ambien's "STAT Rx
        // USA LLC"): the labeler is the sponsor only where it names the portfolio's sponsor
        if let Some((s, at)) = l.get("/sponsor_name") {
            e.fact("identity.sponsor", &Key::default(), s, "", l.row, s, &at);
        }
        for (s, at) in l.list("/openfda/manufacturer_name") {
            e.fact("identity.labeler", &Key::default(), s, "", l.row, s, &at);
            if holder {
                // the holder is stated; the labeler's spelling of it would only compete
            } else if names_sponsor(input, s) {
                e.fact("identity.sponsor", &Key::default(), s, "", l.row, s, &at);
            } else {
                e.undecided(
                    "identity.sponsor",
                    format!(
                        "the label names only its labeler ({s}, see identity.labeler), who may \
                         be a repackager, and no Drugs@FDA record names the application holder"
                    ),
                );
            }
        }
    }
    // A trial's lead sponsor names the asset's sponsor only where it is the portfolio's
    // sponsor (an academic group running a trial of the drug is not its sponsor); every
    // trial's sponsor is a trials.sponsor cell.
    for (row, s) in input.studies() {
        if let Some(v) = &s.sponsor
            && !names_sponsor(input, &v.text)
        {
            let ours = match input.asset.sponsor.as_deref() {
                Some(o) => format!("the portfolio's sponsor is {o}"),
                None => "the portfolio names no sponsor".to_string(),
            };
            e.undecided(
                "identity.sponsor",
                format!(
                    "{}'s lead sponsor ({}, see trials.sponsor) is not taken as the asset's \
                     sponsor: {ours}",
                    s.nct, v.text
                ),
            );
        }
        if let Some(v) = &s.sponsor
            && names_sponsor(input, &v.text)
        {
            e.fact(
                "identity.sponsor",
                &Key::default(),
                &v.text,
                "",
                row,
                &v.text,
                &v.loc,
            );
        }
    }
    for row in input.subjects(Family::Icd10) {
        let f = Flat::of(row);
        for (code, at) in f.list("/1") {
            e.fact(
                "identity.icd10_codes",
                &Key::endpoint(code),
                code,
                "",
                row,
                code,
                &at,
            );
        }
    }
}

/// The names a label's statements may start at: the portfolio's, and the label's brand
/// and generic names.
fn label_names<'a>(input: &'a Input<'_>, l: &Flat<'a>) -> Vec<&'a str> {
    let mut names: Vec<&str> = input.asset.names.iter().map(String::as_str).collect();
    names.extend(l.list("/openfda/brand_name").iter().map(|x| x.0));
    names.extend(l.list("/openfda/generic_name").iter().map(|x| x.0));
    names
}

/// Whether one name's words all occur in the other ("Squamous Cell Non-small Cell Lung
/// Cancer" and "squamous non-small cell lung cancer"), whatever their order and hyphens.
fn same_words(a: &str, b: &str) -> bool {
    let words = |s: &str| -> std::collections::BTreeSet<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let (x, y) = (words(a), words(b));
    !x.is_empty() && !y.is_empty() && (x.is_subset(&y) || y.is_subset(&x))
}

/// Whether a company name names the portfolio's sponsor for the asset.
fn names_sponsor(input: &Input<'_>, name: &str) -> bool {
    let ours = input.asset.sponsor.as_deref().unwrap_or("");
    !ours.is_empty() && (mentions(name, ours) || mentions(ours, name))
}

fn application_numbers<'a>(l: &Flat<'a>) -> Vec<(&'a str, String)> {
    let mut v: Vec<_> = l.get("/application_number").into_iter().collect();
    v.extend(l.list("/openfda/application_number"));
    v
}

pub fn regulatory(input: &Input<'_>, e: &mut Emit<'_>) {
    // applications whose original approval is not shown to be the molecule's first
    let mut unshown: Vec<String> = Vec::new();
    for d in subjects(input, Family::Drugsfda) {
        for (app, at) in application_numbers(&d) {
            let k = Key::endpoint(app);
            let id = e.fact(
                "regulatory.application_numbers",
                &k,
                app,
                "",
                d.row,
                app,
                &at,
            );
            modality(e, app, id);
        }
        let Some((app, _)) = d.get("/application_number") else {
            continue;
        };
        let k = Key::endpoint(app);
        let Some(o) = original_approval(&d) else {
            continue;
        };
        let (st, st_at) = o.status;
        e.fact(
            "regulatory.status",
            &k,
            &format!("{st} (approved)"),
            "",
            d.row,
            st,
            &st_at,
        );
        let (date, date_at) = o.date;
        let date_id = e.fact(
            "regulatory.original_approval_date",
            &k,
            date,
            "YYYYMMDD",
            d.row,
            date,
            &date_at,
        );
        let class_id = o
            .class_words
            .as_ref()
            .or(o.class.as_ref())
            .map(|(c, at)| e.fact("regulatory.submission_class", &k, c, "", d.row, c, at));
        match (&o.class, class_id) {
            (Some((code, _)), Some(cid)) if new_molecular_entity(code) => {
                e.over(
                    Label::Inference,
                    "regulatory.first_approval_date",
                    &Key::default(),
                    date,
                    "YYYYMMDD",
                    vec![date_id, cid],
                    "the original approval of a Type 1 (new molecular entity) application is \
                     the molecule's first approval",
                );
            }
            (code, _) => {
                let what = o
                    .class_words
                    .as_ref()
                    .or(code.as_ref())
                    .map_or("of no stated class", |c| c.0);
                unshown.push(format!("{app}'s original submission is {what}"));
            }
        }
    }
    if !unshown.is_empty() {
        e.undecided(
            "regulatory.first_approval_date",
            format!(
                "no record shows the molecule's first approval: {}; a new dosage form, \
                 formulation or indication follows an earlier approval not in the bundle",
                unshown.join("; ")
            ),
        );
    }
    for l in subjects(input, Family::FdaLabel) {
        for (app, at) in application_numbers(&l) {
            let id = e.fact(
                "regulatory.application_numbers",
                &Key::endpoint(app),
                app,
                "",
                l.row,
                app,
                &at,
            );
            modality(e, app, id);
        }
        let set_id = l.get("/set_id").map(|x| x.0).unwrap_or(&l.row.record_key);
        let k = Key::endpoint(set_id);
        // one cell per indication statement, under its subsection heading; every
        // leaf of the section is read (openFDA splits some subsections off)
        let names = label_names(input, &l);
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut stated: Vec<&str> = Vec::new();
        for (text, loc) in l.list("/indications_and_usage") {
            for ind in label::indications(text, &names) {
                if stated.contains(&ind.statement) {
                    continue;
                }
                stated.push(ind.statement);
                let n = seen.entry(ind.heading.clone()).or_default();
                *n += 1;
                let k = Key {
                    population: if *n > 1 {
                        format!("{} #{n}", ind.heading).trim().to_string()
                    } else {
                        ind.heading.clone()
                    },
                    ..k.clone()
                };
                let s = ind.statement;
                e.fact("regulatory.approved_indications", &k, s, "", l.row, s, &loc);
            }
        }
        if let Some((text, loc)) = l.section("boxed_warning") {
            match label::boxed_title(text) {
                Some(title) => {
                    e.fact(
                        "regulatory.boxed_warning",
                        &k,
                        title,
                        "",
                        l.row,
                        title,
                        &loc,
                    );
                }
                None => e.undecided(
                    "regulatory.boxed_warning",
                    "the label's boxed_warning field holds text that is not a boxed warning \
                     (no WARNING title: medication-guide text); the label states no box",
                ),
            }
        }
    }
}

/// A BLA is a biologics license, so it says the asset is a biologic. An NDA or ANDA does
/// not decide modality (semaglutide and tirzepatide are peptides filed as NDAs), so it
/// leaves the field to what a source states.
fn modality(e: &mut Emit<'_>, app: &str, input: String) {
    if app.starts_with("BLA") {
        e.over(
            Label::Inference,
            "identity.modality",
            &Key::default(),
            "biologic (BLA)",
            "",
            vec![input],
            "a biologics license application (BLA) is filed for a biologic",
        );
    } else if app.starts_with("NDA") || app.starts_with("ANDA") {
        e.undecided(
            "identity.modality",
            format!(
                "the application type ({app}) does not decide modality: NDAs cover small \
                 molecules and synthetic peptides alike; no record read states it"
            ),
        );
    }
}

pub fn label_safety(input: &Input<'_>, e: &mut Emit<'_>) {
    for l in subjects(input, Family::FdaLabel) {
        let set_id = l.get("/set_id").map(|x| x.0).unwrap_or(&l.row.record_key);
        if let Some((text, loc)) = l.section("adverse_reactions") {
            let all = label::common_adverse_reactions(text);
            for (i, s) in all.iter().enumerate() {
                let k = Key {
                    endpoint: set_id.to_string(),
                    population: if all.len() > 1 {
                        format!("statement {} of {}", i + 1, all.len())
                    } else {
                        String::new()
                    },
                    arm: String::new(),
                };
                e.fact("safety.common_adverse_reactions", &k, s, "", l.row, s, &loc);
            }
        }
    }
}

pub fn competitors(input: &Input<'_>, e: &mut Emit<'_>) {
    for row in input.competitors() {
        let c = Flat::of(row);
        let app = c
            .get("/application_number")
            .map(|x| x.0.to_string())
            .or_else(|| {
                c.list("/openfda/application_number")
                    .first()
                    .map(|x| x.0.to_string())
            })
            .unwrap_or_else(|| row.record_key.clone());
        let k = Key::endpoint(app);
        let brand = c
            .list("/openfda/brand_name")
            .into_iter()
            .next()
            .or_else(|| c.get("/products/0/brand_name"));
        if let Some((b, at)) = brand {
            e.fact("competitors.approved_drug", &k, b, "", row, b, &at);
        }
        if let Some(Original {
            date: (date, at), ..
        }) = original_approval(&c)
        {
            e.fact(
                "competitors.approval_date",
                &k,
                date,
                "YYYYMMDD",
                row,
                date,
                &at,
            );
        }
    }
}

/// Epidemiology tables with a header: the latest row's incidence, prevalence or
/// survival column, chosen by column name (or the table's single rate column when its
/// URL names the measure).
pub fn market(input: &Input<'_>, e: &mut Emit<'_>) {
    for row in input.subjects(Family::Epi) {
        let f = Flat::of(row);
        let rows = f.indexes("");
        let Some(last) = rows.iter().copied().max() else {
            continue;
        };
        let prefix = format!("/{last}/");
        let cols: Vec<(&str, &str)> = f
            .map
            .range(prefix.as_str()..)
            .take_while(|(k, _)| k.starts_with(&prefix))
            .map(|(k, v)| (&k[prefix.len()..], *v))
            .collect();
        let url = row.url.to_lowercase();
        let measure_of = |col: &str| -> Option<&'static str> {
            let c = col.to_lowercase();
            for (word, field) in [
                ("incidence", "market.incidence"),
                ("prevalence", "market.prevalence"),
                ("survival", "market.survival"),
            ] {
                if c.contains(word)
                    || ((c.contains("rate") || c.contains("percent")) && url.contains(word))
                {
                    return Some(field);
                }
            }
            None
        };
        let population: Vec<&str> = cols
            .iter()
            .filter(|(c, v)| {
                measure_of(c).is_none()
                    && !c.contains("error")
                    && !c.contains("count")
                    && !v.is_empty()
            })
            .map(|(_, v)| *v)
            .collect();
        for (col, v) in &cols {
            if let Some(field) = measure_of(col) {
                let k = Key {
                    endpoint: row.record_key.clone(),
                    population: population.join(", "),
                    arm: String::new(),
                };
                e.fact(field, &k, v, col, row, v, &format!("{prefix}{col}"));
            }
        }
    }
}

/// XBRL concepts per field (companies switch concepts over the years; all are read).
pub(crate) const CONCEPTS: &[(&str, &[&str])] = &[
    (
        "financials.revenue",
        &[
            "Revenues",
            "RevenueFromContractWithCustomerExcludingAssessedTax",
            "SalesRevenueNet",
        ],
    ),
    ("financials.rd_expense", &["ResearchAndDevelopmentExpense"]),
    ("financials.net_loss", &["NetIncomeLoss"]),
    (
        "financials.cash",
        &[
            "CashAndCashEquivalentsAtCarryingValue",
            "CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents",
        ],
    ),
];

/// The period class of an XBRL fact: `annual` (a 10-K year), `quarter` (a three-month
/// period) or `instant` (a balance at a date). Year-to-date periods of 10-Qs are neither
/// and are left out, so a nine-month sum never passes for a quarter.
fn period_class(start: &str, end: &str) -> Option<&'static str> {
    if start.is_empty() {
        return Some("instant");
    }
    let d = |x: &str| chrono::NaiveDate::parse_from_str(x, "%Y-%m-%d").ok();
    let days = (d(end)? - d(start)?).num_days();
    match days {
        350..=380 => Some("annual"),
        80..=100 => Some("quarter"),
        _ => None,
    }
}

/// For each financial field, the latest USD fact of each period class across the field's
/// concepts (greatest period end, then the latest filing), from 10-K/10-Q-family forms.
pub fn financials(input: &Input<'_>, e: &mut Emit<'_>) {
    if input.asset.sponsor_cik.is_none() {
        for (field, _) in CONCEPTS {
            e.skip(field, "the portfolio names no sponsor_cik for this asset");
        }
        return;
    }
    for row in input.subjects(Family::Sec) {
        let f = Flat::of(row);
        if !f.map.keys().any(|k| k.starts_with("/facts/")) {
            continue; // a submissions record: no facts
        }
        for (field, concepts) in CONCEPTS {
            // class -> (end, filed, concept, index)
            let mut best: BTreeMap<&str, (String, String, &str, usize)> = BTreeMap::new();
            for concept in *concepts {
                let base = format!("/facts/us-gaap/{concept}/units/USD");
                for i in f.indexes(&base) {
                    let g = |k: &str| f.get(&format!("{base}/{i}/{k}")).map(|x| x.0).unwrap_or("");
                    if !matches!(g("form"), "10-K" | "10-Q" | "10-K/A" | "10-Q/A" | "20-F") {
                        continue;
                    }
                    let Some(class) = period_class(g("start"), g("end")) else {
                        continue;
                    };
                    let rank = (g("end").to_string(), g("filed").to_string(), *concept, i);
                    if best.get(class).is_none_or(|b| rank > *b) {
                        best.insert(class, rank);
                    }
                }
            }
            for (class, (end, _, concept, i)) in &best {
                let p = format!("/facts/us-gaap/{concept}/units/USD/{i}");
                let g = |k: &str| f.get(&format!("{p}/{k}")).map(|x| x.0).unwrap_or("");
                if let Some((val, at)) = f.get(&format!("{p}/val")) {
                    let period = match g("start") {
                        "" => end.clone(),
                        start => format!("{start}..{end}"),
                    };
                    let k = Key {
                        endpoint: format!("{class} {period}"),
                        population: format!("{} {} {concept}", g("form"), g("accn")),
                        arm: String::new(),
                    };
                    e.fact(field, &k, val, "USD", row, val, &at);
                }
            }
            if best.is_empty() && *field == "financials.revenue" {
                e.unpublished(field, "the filer has reported no revenue fact: pre-revenue");
            }
        }
    }
}
