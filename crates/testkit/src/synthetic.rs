//! A synthetic import corpus and portfolio of N fictional assets, in the real schemas,
//! for benchmarks and the rate-limit tests. Deterministic: the same options give the same
//! bytes. Also candidate-claim tables for the precedence benchmark.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use serde_json::json;

/// What to write besides the corpus itself.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub assets: usize,
    /// Also write this many claims to OUT/claims.jsonl (about 1 in 10 fabricated).
    pub claims: usize,
    /// Give every fourth study with results a second data version that changes one
    /// value: at the same data cutoff for every eighth (an unresolved conflict), a later
    /// one otherwise (resolved by cutoff).
    pub revisions: bool,
    /// Make each study's primary outcome an objective response rate at week 24 and have
    /// the asset's paper, label and press page state it, agreeing or disagreeing with the
    /// posted value by a planted pattern; OUT/planted.csv lists the conflicts the
    /// precedence rules must find (see [`planted`]).
    pub cross_family: bool,
}

/// What the cross-family corpus plants for asset `i`, whose study has results or not:
/// the family that states the primary outcome's drug-arm value otherwise, and the value
/// it states, or None when every text source agrees with the posted value (the paper
/// rounds placebo's to its precision, which is agreement, not conflict).
fn planted(i: usize, has_results: bool) -> Option<&'static str> {
    if !has_results {
        return None;
    }
    match i % 4 {
        1 => Some("pubmed"),
        2 => Some("fda_label"),
        3 => Some("press"),
        _ => None,
    }
}

/// Writes OUT/portfolio.toml and OUT/import/<family>/... for `opts.assets` assets.
pub fn write_corpus(out: &Path, opts: &Options) -> anyhow::Result<()> {
    let imp = out.join("import");
    let mut portfolio = String::from("# Synthetic portfolio written by dossier-gen.\n");
    let mut planted_rows = String::from("asset_id,arm,winner_family,other_family,resolution\n");
    for i in 0..opts.assets {
        let drug = name(i);
        let nct = format!("NCT{:08}", 80_000_000 + i);
        let _ = writeln!(
            portfolio,
            "\n[[asset]]\nid = \"{drug}\"\nnames = [\"{drug}\", \"BRAND{i}\"]\nsponsor = \"Sponsor {} Inc\"\nsponsor_cik = \"{:010}\"\nindication = \"{}\"\ntrials = [\"{nct}\"]\npress = [\"https://press.example/{drug}\"]",
            i / 3,
            9_000_000 + i / 3,
            INDICATIONS[i % 5]
        );
        let mut trial = study(i, &nct, &drug);
        let cross = opts
            .cross_family
            .then(|| cross_family(&mut trial, i, &drug));
        write(
            &imp.join(format!("ctgov/{nct}.json")),
            &serde_json::to_vec_pretty(&trial)?,
        )?;
        if opts.revisions && i.is_multiple_of(4) && trial["hasResults"] == true {
            let mut revised = trial.clone();
            let m = &mut revised["resultsSection"]["outcomeMeasuresModule"]["outcomeMeasures"][0]["classes"]
                [0]["categories"][0]["measurements"][0]["value"];
            *m = format!("{}.5", 60 + i % 30).into();
            if !i.is_multiple_of(8) {
                revised["derivedSection"]["miscInfoModule"]["versionHolder"] = "2025-12-31".into();
            }
            write(
                &imp.join(format!("ctgov/{nct}_v2.json")),
                &serde_json::to_vec_pretty(&revised)?,
            )?;
        }
        let mut lbl = label(i, &drug);
        let mut abstract_text = pubmed(i, &nct, &drug);
        let mut press_text = format!(
            "<p>{drug} met its primary endpoint with a {}% response rate.</p>",
            num(i, 11) % 90
        )
        .repeat(20);
        if let Some(c) = &cross {
            lbl["results"][0]["effective_time"] = c.label_time.clone().into();
            let studies = &mut lbl["results"][0]["clinical_studies"][0];
            *studies = format!("{}{}", studies.as_str().unwrap_or(""), c.label).into();
            abstract_text =
                abstract_text.replace("</AbstractText>", &format!("{}</AbstractText>", c.paper));
            press_text.push_str(&format!("<p>{}</p>", c.press));
            planted_rows.push_str(&c.planted);
        }
        write(
            &imp.join(format!("fda_label/{drug}.json")),
            &serde_json::to_vec_pretty(&lbl)?,
        )?;
        write(
            &imp.join(format!("pubmed/{drug}.xml")),
            abstract_text.as_bytes(),
        )?;
        let page = format!(
            "<html><head><title>{drug} update</title></head><body><h1>{drug} update</h1>{press_text}</body></html>"
        );
        write(&imp.join(format!("press/{drug}.html")), page.as_bytes())?;
        write(
            &imp.join(format!("press/{drug}.html.source.toml")),
            format!("url = \"https://press.example/{drug}\"\n").as_bytes(),
        )?;
        if i % 3 == 0 {
            write(
                &imp.join(format!("sec/CIK{:010}.json", 9_000_000 + i / 3)),
                &serde_json::to_vec(&companyfacts(i / 3))?,
            )?;
        }
    }
    write(&out.join("portfolio.toml"), portfolio.as_bytes())?;
    if opts.cross_family {
        write(&out.join("planted.csv"), planted_rows.as_bytes())?;
    }
    if opts.claims > 0 {
        write(
            &out.join("claims.jsonl"),
            claims(opts.assets, opts.claims).as_bytes(),
        )?;
    }
    Ok(())
}

/// Writes OUT/accepted.parquet (`n` accepted candidate claims) and OUT/empty.parquet
/// (the empty cells of their assets), the inputs of `dossier rules`.
pub fn write_candidates(out: &Path, n: usize) -> anyhow::Result<()> {
    let (accepted, empty) = candidates(n)?;
    write(&out.join("accepted.parquet"), &accepted)?;
    write(&out.join("empty.parquet"), &empty)?;
    Ok(())
}

const CLASSES: [&str; 5] = [
    "Kinase Inhibitor [EPC]",
    "Tumor Necrosis Factor Blocker [EPC]",
    "GLP-1 Receptor Agonist [EPC]",
    "Programmed Death Receptor-1 Blocking Antibody [EPC]",
    "Interleukin-4 Receptor alpha Antagonist [EPC]",
];
const INDICATIONS: [&str; 5] = [
    "chronic myeloid leukemia",
    "rheumatoid arthritis",
    "type 2 diabetes",
    "non-small cell lung cancer",
    "atopic dermatitis",
];

/// A cheap deterministic pseudo-random number for asset `i`, salt `s`.
fn num(i: usize, s: usize) -> usize {
    let mut x = (i as u64)
        .wrapping_mul(6364136223846793005)
        .wrapping_add((s as u64).wrapping_mul(1442695040888963407));
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51afd7ed558ccd);
    (x >> 20) as usize
}

fn name(i: usize) -> String {
    const A: [&str; 8] = ["zel", "quor", "vel", "tra", "mor", "lin", "dex", "ober"];
    const B: [&str; 8] = ["ano", "ivi", "eta", "oxa", "umi", "ara", "ope", "ile"];
    format!(
        "{}{}{}",
        A[i % 8],
        B[(i / 8) % 8],
        ["rib", "mab", "tide", "stat"][i % 4]
    ) + &format!("{i}")
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::create_dir_all(path.parent().context("no parent")?)?;
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}

fn study(i: usize, nct: &str, drug: &str) -> serde_json::Value {
    let measures: Vec<_> = (0..12)
        .map(|k| {
            json!({
                "type": if k == 0 { "PRIMARY" } else { "SECONDARY" },
                "title": format!("Endpoint {k} of {drug}: change from baseline at week {}", 12 + k * 4),
                "description": "Least squares mean change from baseline, mixed model for repeated measures. ".repeat(3),
                "populationDescription": "Full analysis set: all randomized participants who received at least one dose.",
                "paramType": "LEAST_SQUARES_MEAN",
                "unitOfMeasure": "units on a scale",
                "timeFrame": format!("Baseline, Week {}", 12 + k * 4),
                "groups": [{"id": "OG000", "title": drug}, {"id": "OG001", "title": "Placebo"}],
                "classes": [{"categories": [{"measurements": [
                    {"groupId": "OG000", "value": format!("{}.{}", num(i, k) % 60, num(i, k + 1) % 10)},
                    {"groupId": "OG001", "value": format!("{}.{}", num(i, k + 2) % 30, num(i, k + 3) % 10)}
                ]}]}]
            })
        })
        .collect();
    json!({
        "protocolSection": {
            "identificationModule": {"nctId": nct, "briefTitle": format!("A Phase 3 Study of {drug} in {}", INDICATIONS[i % 5])},
            "statusModule": {"overallStatus": "COMPLETED", "lastUpdatePostDateStruct": {"date": format!("2025-{:02}-{:02}", 1 + i % 12, 1 + i % 28)}},
            "sponsorCollaboratorsModule": {"leadSponsor": {"name": format!("Sponsor {} Inc", i / 3)}},
            "conditionsModule": {"conditions": [INDICATIONS[i % 5]]},
            "armsInterventionsModule": {"interventions": [{"type": "DRUG", "name": drug}, {"type": "DRUG", "name": "Placebo"}]},
            "eligibilityModule": {"eligibilityCriteria": "Inclusion Criteria:\n\n* Age \\>= 18 years\n* HbA1c ≥ 7.0%\n".repeat(10)}
        },
        "resultsSection": {"outcomeMeasuresModule": {"outcomeMeasures": measures}},
        "derivedSection": {"miscInfoModule": {"versionHolder": "2025-11-30"}},
        "hasResults": !i.is_multiple_of(7)
    })
}

/// The sentences a cross-family asset's paper, label and press page add, and the planted
/// conflict's row of OUT/planted.csv (empty when none is planted).
struct Cross {
    /// The label's effective time (YYYYMMDD).
    label_time: String,
    paper: String,
    label: String,
    press: String,
    planted: String,
}

/// Rewrites the study's primary outcome as an objective response rate at week 24 (one
/// decimal, as registries post it) and writes what the text sources say of it.
fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

fn cross_family(trial: &mut serde_json::Value, i: usize, drug: &str) -> Cross {
    let has_results = trial["hasResults"] == true;
    let nct = trial["protocolSection"]["identificationModule"]["nctId"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let (v, p) = (20 + num(i, 21) % 50, 5 + num(i, 22) % 15);
    let (vd, pd) = (num(i, 23) % 10, num(i, 24) % 10);
    let posted = format!("{v}.{vd}");
    let om = &mut trial["resultsSection"]["outcomeMeasuresModule"]["outcomeMeasures"][0];
    om["title"] = "Objective Response Rate (ORR) at Week 24".into();
    om["paramType"] = "NUMBER".into();
    om["unitOfMeasure"] = "percentage of participants".into();
    om["timeFrame"] = "Week 24".into();
    om["classes"][0]["categories"][0]["measurements"][0]["value"] = posted.clone().into();
    om["classes"][0]["categories"][0]["measurements"][1]["value"] = format!("{p}.{pd}").into();
    // the posted odds ratio, drug over placebo, that the paper states too
    let or = 100 + num(i, 25) % 300;
    let (lo, hi) = (or * 6 / 10, or * 16 / 10);
    let two = |x: usize| format!("{}.{:02}", x / 100, x % 100);
    om["analyses"] = json!([{
        "groupIds": ["OG000", "OG001"],
        "paramType": "Odds Ratio (OR)",
        "paramValue": two(or),
        "ciPctValue": "95",
        "ciNumSides": "TWO_SIDED",
        "ciLowerLimit": two(lo),
        "ciUpperLimit": two(hi),
        "estimateComment": format!("Odds ratio: {drug}/Placebo")
    }]);
    let ratio = format!(
        " (odds ratio, {}; 95% CI, {} to {})",
        two(or),
        two(lo),
        two(hi)
    );
    // placebo rounded to the paper's precision: agreement; 4.5 rounds either way, so the
    // half is kept off it
    let placebo_rounded = if pd == 5 {
        format!("{p}.{pd}")
    } else {
        format!("{}", if pd > 5 { p + 1 } else { p })
    };
    let family = planted(i, has_results);
    let off = |f: &str, d: u32| {
        if family == Some(f) {
            format!("{}.{vd}", v + d as usize)
        } else {
            posted.clone()
        }
    };
    let sentence = |value: String, with_placebo: bool| {
        let mut s = format!("The objective response rate at week 24 was {value}% with {drug}");
        if with_placebo {
            s.push_str(&format!(" and {placebo_rounded}% with placebo{ratio}"));
        }
        s.push_str(". ");
        s
    };
    // What the rules must find, from the records' dates: the study's data version is
    // 2025-11-30; the label's date is its effective time, earlier or later; a paper and a
    // press page state no cutoff, so family rank decides against them.
    let study_cutoff = trial["derivedSection"]["miscInfoModule"]["versionHolder"]
        .as_str()
        .unwrap_or("")
        .to_string();
    // every other planted label is a later revision than the study's data version
    let label_date = if family == Some("fda_label") && (i / 4) % 2 == 1 {
        "2025-12-15".to_string()
    } else {
        format!("2025-{:02}-{:02}", 1 + i % 12, 1 + i % 28)
    };
    let label_first = label_date >= study_cutoff;
    let best_agreeing = if label_first { "fda_label" } else { "ctgov" };
    let planted = match family {
        Some(f @ ("pubmed" | "press")) => {
            format!("{drug},{drug},{best_agreeing},{f},family_rank\n")
        }
        Some("fda_label") if label_date == study_cutoff => {
            format!("{drug},{drug},fda_label,ctgov,family_rank\n")
        }
        Some("fda_label") if label_first => format!("{drug},{drug},fda_label,ctgov,later_cutoff\n"),
        Some("fda_label") => format!("{drug},{drug},ctgov,fda_label,later_cutoff\n"),
        _ => String::new(),
    };
    Cross {
        label_time: label_date.replace('-', ""),
        paper: sentence(off("pubmed", 2), true),
        // a label names its study: by its NCT id here
        label: format!(
            "In {nct}, {}",
            lowercase_first(&sentence(off("fda_label", 3), false))
        ),
        press: sentence(off("press", 4), false),
        planted,
    }
}

fn label(i: usize, drug: &str) -> serde_json::Value {
    let para = format!(
        "In a randomized trial, {drug} reduced the primary endpoint by {}.{}% versus placebo (hazard ratio 0.{}; 95% CI 0.{} to 0.{}). ",
        num(i, 1) % 40,
        num(i, 2) % 10,
        40 + num(i, 3) % 50,
        30 + num(i, 4) % 10,
        80 + num(i, 5) % 15
    );
    json!({
        "meta": {"last_updated": "2025-11-30", "results": {"skip": 0, "limit": 1, "total": 1}},
        "results": [{
            "set_id": format!("{:08x}-0000-4000-8000-{:012x}", num(i, 9) as u32, i),
            "effective_time": format!("2025{:02}{:02}", 1 + i % 12, 1 + i % 28),
            "indications_and_usage": [format!("1 INDICATIONS AND USAGE {} is indicated for adults with {}.", drug.to_uppercase(), INDICATIONS[i % 5])],
            "clinical_studies": [para.repeat(150)],
            "adverse_reactions": ["The most common adverse reactions (≥10%) were nausea, headache and fatigue. ".repeat(30)],
            "openfda": {"brand_name": [format!("BRAND{i}")], "generic_name": [drug.to_uppercase()], "pharm_class_epc": [CLASSES[i % 5]]}
        }]
    })
}

fn pubmed(i: usize, nct: &str, drug: &str) -> String {
    let mut s = String::from("<?xml version=\"1.0\" ?>\n<PubmedArticleSet>\n");
    let _ = write!(
        s,
        "<PubmedArticle><MedlineCitation Status=\"MEDLINE\"><PMID Version=\"1\">{}</PMID><Article><Journal><JournalIssue><PubDate><Year>2025</Year><Month>Mar</Month></PubDate></JournalIssue></Journal>\
<ArticleTitle>{drug} in {}: a randomized trial.</ArticleTitle><Abstract><AbstractText Label=\"RESULTS\">{}</AbstractText></Abstract>\
<DataBankList><DataBank><DataBankName>ClinicalTrials.gov</DataBankName><AccessionNumberList><AccessionNumber>{nct}</AccessionNumber></AccessionNumberList></DataBank></DataBankList></Article>\
<ChemicalList><Chemical><NameOfSubstance UI=\"C0\">{drug}</NameOfSubstance></Chemical></ChemicalList></MedlineCitation></PubmedArticle>\n</PubmedArticleSet>\n",
        90_000_000 + i,
        INDICATIONS[i % 5],
        format!(
            "The response rate was {}% with {drug} and {}% with placebo (P&lt;0.001). ",
            num(i, 7) % 80,
            num(i, 8) % 30
        )
        .repeat(8)
    );
    s
}

fn companyfacts(c: usize) -> serde_json::Value {
    let facts: Vec<_> = (0..40)
        .map(|q| {
            json!({"start": format!("{}-01-01", 2015 + q / 4), "end": format!("{}-12-31", 2015 + q / 4), "val": num(c, q) % 900_000_000,
                   "accn": format!("{:010}-{:02}-{:06}", 9_000_000 + c, q % 100, q), "fy": 2015 + q / 4, "fp": "FY", "form": "10-K",
                   "filed": format!("{}-02-{:02}", 2016 + q / 4, 1 + q % 28)})
        })
        .collect();
    let concepts = [
        "Revenues",
        "ResearchAndDevelopmentExpense",
        "NetIncomeLoss",
        "CashAndCashEquivalentsAtCarryingValue",
    ];
    let mut gaap = serde_json::Map::new();
    for k in concepts {
        gaap.insert(
            k.into(),
            json!({"label": k, "description": "Synthetic concept.", "units": {"USD": facts}}),
        );
    }
    json!({"cik": 9_000_000 + c, "entityName": format!("SPONSOR {c} INC"), "facts": {"us-gaap": gaap}})
}

/// Claims over the synthetic corpus: true label and abstract quotes, and every tenth
/// one with a fabricated number.
fn claims(assets: usize, n: usize) -> String {
    let mut out = String::new();
    for k in 0..n {
        let i = k % assets;
        let drug = name(i);
        let (value, source, quote) = if k % 2 == 0 {
            let v = format!("{}.{}%", num(i, 1) % 40, num(i, 2) % 10);
            let set_id = format!("{:08x}-0000-4000-8000-{:012x}", num(i, 9) as u32, i);
            (
                v.clone(),
                set_id,
                format!("{drug} reduced the primary endpoint by {v} versus placebo"),
            )
        } else {
            let v = format!("{}%", num(i, 7) % 80);
            (
                v.clone(),
                format!("PMID:{}", 90_000_000 + i),
                format!("The response rate was {v} with {drug}"),
            )
        };
        let value = if k % 10 == 9 {
            format!("{}9", value.trim_end_matches('%'))
        } else {
            value
        };
        let line = json!({"id": format!("c{k}"), "asset": drug, "field": "efficacy", "value": value,
                          "label": "fact", "source": source, "quote": quote, "locator": null});
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

const FIELDS: [&str; 8] = [
    "efficacy.value",
    "efficacy.p_value",
    "efficacy.dispersion",
    "safety.serious_ae_affected",
    "trials.enrollment",
    "identity.sponsor",
    "regulatory.original_approval_date",
    "financials.revenue",
];
const FAMILIES: [&str; 8] = [
    "fda_label",
    "ctgov",
    "sec",
    "pubmed",
    "press",
    "drugsfda",
    "epi",
    "icd10",
];
const DATES: [&str; 6] = [
    "2021-06-30",
    "2022-12-31",
    "2023-12-12",
    "2024-01-03",
    "2024-06-30",
    "2025-03-21",
];

/// Candidate claims for the precedence rules: cells of 1 to 4 candidates (2.5 on
/// average) over 500 assets; a tenth of cutoffs unknown, three in ten values different.
fn candidates(n: usize) -> anyhow::Result<(Vec<u8>, Vec<u8>)> {
    use dossier::lake::tables::{AcceptedRow, EmptyCellRow, Table, to_parquet};
    let mut rows: Vec<AcceptedRow> = Vec::with_capacity(n);
    let mut c = 0usize;
    while rows.len() < n {
        let m = 1 + num(c, 1) % 4;
        let field = FIELDS[num(c, 2) % FIELDS.len()];
        for j in 0..m.min(n - rows.len()) {
            let family = FAMILIES[num(c, 3 + j) % 8];
            let value = if num(c, 30 + j) % 10 < 7 {
                format!("{}.{}", num(c, 4) % 90, num(c, 5) % 10)
            } else {
                format!("{}.{}", num(c, 40 + j) % 90, num(c, 41 + j) % 10)
            };
            let pick = |salt: usize, even: &str, odd: &str| {
                if num(c, salt).is_multiple_of(2) {
                    even
                } else {
                    odd
                }
                .to_string()
            };
            rows.push(AcceptedRow {
                run_id: "bench".into(),
                asset_id: format!("asset{:03}", c % 500),
                section: field.split('.').next().unwrap_or_default().to_string(),
                field: field.to_string(),
                endpoint: format!("E{}", c / 500),
                population: pick(6, "", "ITT"),
                arm: pick(7, "Drug", "Placebo"),
                value: value.clone(),
                unit: "%".into(),
                label: "fact".into(),
                family: Some(family.to_string()),
                claim_id: format!("c{c}-{j}"),
                source_id: Some(format!("{family}:k{c}-{j}@0")),
                url: Some(format!("https://example.org/{c}/{j}")),
                quote: Some(value),
                locator: Some(String::new()),
                cutoff_date: (!num(c, 10 + j).is_multiple_of(10))
                    .then(|| DATES[num(c, 20 + j) % 6].to_string()),
            });
        }
        c += 1;
    }
    let empty: Vec<EmptyCellRow> = (0..500)
        .map(|a| EmptyCellRow {
            run_id: "bench".into(),
            asset_id: format!("asset{a:03}"),
            section: "market".into(),
            field: "market.survival".into(),
            status: "source_empty".into(),
            detail: "no epi record for the asset".into(),
        })
        .collect();
    Ok((
        to_parquet(&AcceptedRow::to_batch(&rows)?)?,
        to_parquet(&EmptyCellRow::to_batch(&empty)?)?,
    ))
}
