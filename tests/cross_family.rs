//! Numbers stated in text (abstracts, a label's clinical studies, press pages) reach the
//! efficacy cells and meet posted results there: the real METRIC abstract fills
//! trametinib's cells; in the fixtures, a paper, a label and a press page agree and
//! disagree with CT.gov, and the `conflicts` table holds exactly the rows the rules call
//! for.

use std::collections::BTreeSet;

use serde_json::Value;

mod common;
use common::*;

fn cells_of(lake: &std::path::Path, asset: &str) -> Vec<Value> {
    sql_json(
        lake,
        &format!(
            "SELECT field, endpoint, population, arm, value, unit, status, family, detail, quote, cutoff_date \
             FROM profile_cells WHERE asset_id = '{asset}' AND section = 'efficacy' AND status IN ('value', 'conflicting')"
        ),
    )
}

/// A lake holding a run of the fixtures with one edit: `from`, which must occur in the
/// fixture file `file` (under `import/`), replaced by `to`.
fn run_edited_fixtures(file: &str, from: &str, to: &str) -> tempfile::TempDir {
    let work = tempfile::tempdir().unwrap();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    copy_dir(&fixtures, work.path());
    let path = work.path().join("import").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} lacks {from:?}");
    std::fs::write(&path, text.replace(from, to)).unwrap();
    let lake = tempfile::tempdir().unwrap();
    snapshot(
        lake.path(),
        &work.path().join("portfolio.toml"),
        &work.path().join("import"),
    );
    succeeds(lake.path(), &["run"]);
    lake
}

#[test]
fn the_metric_abstract_fills_trametinib_efficacy_cells() {
    let Some(real) = real_sources() else { return };
    let lake = real_snapshot(&real);
    succeeds(lake.path(), &["run"]);
    let cells = cells_of(lake.path(), "trametinib");
    let got: BTreeSet<(String, String, String, String, String)> = cells
        .iter()
        .map(|c| {
            (
                s(c, "field").to_string(),
                s(c, "endpoint").to_string(),
                s(c, "arm").to_string(),
                s(c, "value").to_string(),
                s(c, "unit").to_string(),
            )
        })
        .collect();
    let row = |f: &str, e: &str, a: &str, v: &str, u: &str| {
        (
            f.to_string(),
            e.to_string(),
            a.to_string(),
            v.to_string(),
            u.to_string(),
        )
    };
    let vs = "trametinib vs chemotherapy";
    let want: BTreeSet<_> = [
        row(
            "efficacy.value",
            "NCT01245062 PFS",
            "trametinib",
            "4.8",
            "months",
        ),
        row(
            "efficacy.value",
            "NCT01245062 PFS",
            "chemotherapy",
            "1.5",
            "months",
        ),
        row(
            "efficacy.effect_estimate",
            "NCT01245062 PFS",
            vs,
            "0.45",
            "hazard ratio",
        ),
        row(
            "efficacy.estimate_ci_lower",
            "NCT01245062 PFS",
            vs,
            "0.33",
            "95% CI",
        ),
        row(
            "efficacy.estimate_ci_upper",
            "NCT01245062 PFS",
            vs,
            "0.63",
            "95% CI",
        ),
        row(
            "efficacy.value",
            "NCT01245062 OS at week 26",
            "trametinib",
            "81",
            "%",
        ),
        row(
            "efficacy.value",
            "NCT01245062 OS at week 26",
            "chemotherapy",
            "67",
            "%",
        ),
        row(
            "efficacy.effect_estimate",
            "NCT01245062 OS",
            vs,
            "0.54",
            "hazard ratio",
        ),
        row(
            "efficacy.estimate_ci_lower",
            "NCT01245062 OS",
            vs,
            "0.32",
            "95% CI",
        ),
        row(
            "efficacy.estimate_ci_upper",
            "NCT01245062 OS",
            vs,
            "0.92",
            "95% CI",
        ),
    ]
    .into();
    assert_eq!(got, want);
    for c in &cells {
        assert_eq!((s(c, "family"), s(c, "status")), ("pubmed", "value"), "{c}");
        // a paper's date is when it was published, not when its data were cut, and the
        // abstract states no cutoff
        assert!(c["cutoff_date"].is_null(), "{c}");
        assert!(s(c, "quote").contains(s(c, "value")), "{c}");
    }
    // What the reasoner read in the abstract is no structured place for `dossier verify`
    // either: a bare 0.54 claimed as the PFS ratio is read in the text, where it is the
    // ratio for death.
    let claims = lake.path().join("claims.jsonl");
    std::fs::write(
        &claims,
        r#"{"id": "c1", "asset": "trametinib", "field": "efficacy.effect_estimate", "value": "0.54", "unit": "hazard ratio", "endpoint": "PFS (hazard ratio for disease progression or death)", "arm": "trametinib vs chemotherapy", "label": "fact", "source": "PMID:22663011", "quote": "0.54"}"#,
    )
    .unwrap();
    let out = verify(lake.path(), &claims);
    let v = json_lines(&out.stdout);
    assert_eq!(
        (s(&v[0], "verdict"), s(&v[0], "rule")),
        ("rejected", "endpoint"),
        "{v:?}"
    );
    // Humira's label names its studies RA-I to RA-V, never by NCT id: none of its numbers
    // can be bound to a trial, and each is dropped with that reason.
    let humira = cells_of(lake.path(), "adalimumab");
    assert!(
        humira.iter().all(|c| s(c, "family") != "fda_label"),
        "{humira:?}"
    );
    let dropped = sql_json(
        lake.path(),
        "SELECT gate, reason FROM rejections WHERE asset_id = 'adalimumab' AND field = 'efficacy.value'",
    );
    assert!(!dropped.is_empty());
    assert!(
        dropped
            .iter()
            .all(|r| ["binding", "entailment"].contains(&s(r, "gate")))
    );
    assert!(
        dropped
            .iter()
            .any(|r| s(r, "reason").contains("must name its trial")),
        "{dropped:?}"
    );
}

#[test]
fn text_values_meet_posted_ones_and_conflicts_hold_exactly_what_the_rules_call_for() {
    let lake = fixture_snapshot();
    succeeds(lake.path(), &["run"]);
    let ep = "NCT09000001 Primary: Major Molecular Response (MMR) Rate at Week 48 [Week 48]";
    // Every family's numbers land in the posted cell of the same trial, endpoint, time
    // point and arm: CT.gov (two copies), the paper, the label (twice) and the press page.
    let claims = sql_json(
        lake.path(),
        &format!(
            "SELECT arm, value, split_part(source_id, ':', 1) AS family FROM claims \
             WHERE asset_id = 'zelnorib' AND field = 'efficacy.value' AND endpoint = '{ep}' AND accepted"
        ),
    );
    let families: BTreeSet<&str> = claims.iter().map(|c| s(c, "family")).collect();
    assert_eq!(
        families,
        ["ctgov", "fda_label", "press", "pubmed"].into(),
        "{claims:?}"
    );
    // the press page's numbers compete at the data cutoff its text states; the paper's,
    // which states none, at an unknown one
    let cutoffs = sql_json(
        lake.path(),
        "SELECT DISTINCT split_part(source_id, ':', 1) AS family, cutoff_date FROM claims \
         WHERE asset_id = 'zelnorib' AND field = 'efficacy.value' AND split_part(source_id, ':', 1) IN ('press', 'pubmed')",
    );
    let cutoffs: BTreeSet<(&str, Option<&str>)> = cutoffs
        .iter()
        .map(|c| (s(c, "family"), c["cutoff_date"].as_str()))
        .collect();
    assert_eq!(
        cutoffs,
        [("press", Some("2026-01-31")), ("pubmed", None)].into()
    );
    let zel: Vec<(&str, &str)> = claims
        .iter()
        .filter(|c| s(c, "arm") == "Zelnorib")
        .map(|c| (s(c, "value"), s(c, "family")))
        .collect();
    assert_eq!(zel.len(), 6, "{zel:?}");

    // The cells: zelnorib's 67.5 is stated by five claims and beats the label's 66.1 on
    // the later cutoff; imatinib's two posted copies still disagree at one cutoff, and the
    // label's 49 agrees with the posted 49.0 at the label's precision.
    let cells = cells_of(lake.path(), "zelnorib");
    let mmr: Vec<(&str, &str, &str, &str)> = cells
        .iter()
        .filter(|c| s(c, "field") == "efficacy.value" && s(c, "endpoint") == ep)
        .map(|c| (s(c, "arm"), s(c, "value"), s(c, "status"), s(c, "family")))
        .collect();
    let mmr: BTreeSet<_> = mmr.into_iter().collect();
    assert_eq!(
        mmr,
        [
            ("Imatinib", "48.1", "conflicting", "ctgov"),
            ("Imatinib", "49.0", "conflicting", "ctgov"),
            ("Zelnorib", "67.5", "value", "ctgov"),
        ]
        .into()
    );
    let zel_cell = cells
        .iter()
        .find(|c| {
            s(c, "field") == "efficacy.value" && s(c, "arm") == "Zelnorib" && s(c, "endpoint") == ep
        })
        .unwrap();
    assert!(
        s(zel_cell, "detail").contains("5 claims agree"),
        "{zel_cell}"
    );

    let conflicts = sql_json(
        lake.path(),
        "SELECT asset_id, field, arm, winner_value, winner_family, other_value, other_family, resolution FROM conflicts",
    );
    let got: BTreeSet<Vec<String>> = conflicts
        .iter()
        .map(|c| {
            [
                "asset_id",
                "field",
                "arm",
                "winner_value",
                "winner_family",
                "other_value",
                "other_family",
                "resolution",
            ]
            .iter()
            .map(|k| s(c, k).to_string())
            .collect()
        })
        .collect();
    let row = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    let want: BTreeSet<Vec<String>> = [
        // a real cross-family conflict: the label's central review against the registry
        row(&[
            "zelnorib",
            "efficacy.value",
            "Zelnorib",
            "67.5",
            "ctgov",
            "66.1",
            "fda_label",
            "later_cutoff",
        ]),
        // and one the rules cannot decide: two copies of the study at one cutoff
        row(&[
            "zelnorib",
            "efficacy.value",
            "Imatinib",
            "48.1",
            "ctgov",
            "49.0",
            "ctgov",
            "unresolved",
        ]),
    ]
    .into();
    assert_eq!(got, want);
}

#[test]
fn a_text_number_that_disagrees_at_its_precision_competes_and_one_that_agrees_does_not() {
    // the press page rounds zelnorib's rate: 68% agrees with the posted 67.5 at its
    // precision; 69% would not
    for (stated, agrees) in [("68%", true), ("69%", false)] {
        let lake = run_edited_fixtures(
            "press/halcyon-2026-03-02-zelnorib.html",
            "67.5% of patients on zelnorib",
            &format!("{stated} of patients on zelnorib"),
        );
        let rows = sql_json(
            lake.path(),
            "SELECT other_value, other_family, resolution FROM conflicts WHERE arm = 'Zelnorib'",
        );
        let press_rows: Vec<&Value> = rows
            .iter()
            .filter(|r| s(r, "other_family") == "press")
            .collect();
        if agrees {
            assert!(press_rows.is_empty(), "{rows:?}");
        } else {
            // the press page states its data cutoff (January 31, 2026), earlier than the
            // registry's: the later posted value wins on the date
            assert_eq!(press_rows.len(), 1, "{rows:?}");
            assert_eq!(
                (
                    s(press_rows[0], "other_value"),
                    s(press_rows[0], "resolution")
                ),
                (&stated[..2], "later_cutoff")
            );
        }
    }
}

#[test]
fn the_report_cites_every_source_that_states_a_cells_value_beside_it() {
    let lake = fixture_snapshot();
    succeeds(lake.path(), &["run"]);
    let html = succeeds(lake.path(), &["report", "--asset", "zelnorib"]);
    let dom = scraper::Html::parse_document(&html);
    let sel = |q: &str| scraper::Selector::parse(q).unwrap();
    let text = |e: scraper::ElementRef| e.text().collect::<String>();
    let mmr_rows: Vec<scraper::ElementRef> = dom
        .select(&sel("tr.cell"))
        .filter(|r| {
            let t = text(*r);
            t.contains("Major Molecular Response") && !t.contains("participants analysed")
        })
        .collect();
    let row_of = |value: &str, arm: &str| {
        mmr_rows
            .iter()
            .copied()
            .find(|r| {
                r.select(&sel("span.value"))
                    .next()
                    .map(text)
                    .is_some_and(|v| v.starts_with(value))
                    && text(*r).contains(arm)
            })
            .unwrap_or_else(|| panic!("no row for {value}"))
    };
    // zelnorib's 67.5: the four other claims that state it, each quoted and linked; never
    // the label's 66.1, which lost
    let zel = row_of("67.5", "Zelnorib");
    let also: Vec<scraper::ElementRef> = zel.select(&sel(".agreeing .also")).collect();
    let families: BTreeSet<&str> = also
        .iter()
        .map(|a| a.value().attr("data-family").unwrap())
        .collect();
    assert_eq!(also.len(), 4, "{}", text(zel));
    assert_eq!(families, ["ctgov", "fda_label", "press", "pubmed"].into());
    for a in &also {
        assert!(a.select(&sel("blockquote.quote")).next().is_some());
        assert!(
            a.select(&sel(".citation a[href^='https://']"))
                .next()
                .is_some()
        );
    }
    assert!(!text(zel).contains("66.1% with zelnorib"), "{}", text(zel));
    // imatinib's 49.0 is also stated as 49 by the label (its precision), shown as stated;
    // the competing 48.1 has no other source
    let ima = row_of("49.0", "Imatinib");
    assert!(
        ima.select(&sel(".agreeing .also span.value"))
            .any(|v| text(v) == "49"),
        "{}",
        text(ima)
    );
    assert_eq!(
        row_of("48.1", "Imatinib").select(&sel(".agreeing")).count(),
        0
    );
}

#[test]
fn a_synthetic_portfolio_gives_exactly_the_planted_cross_family_conflicts() {
    // dossier-gen's cross-family corpus: each study's primary outcome is also stated by
    // the asset's paper, label and press page; one of them disagrees by plan
    let dir = tempfile::tempdir().unwrap();
    let syn = dir.path().join("syn");
    let opts = dossier_testkit::synthetic::Options {
        assets: 48,
        cross_family: true,
        ..Default::default()
    };
    dossier_testkit::synthetic::write_corpus(&syn, &opts).unwrap();
    let lake = dir.path().join("lake");
    snapshot(&lake, &syn.join("portfolio.toml"), &syn.join("import"));
    succeeds(&lake, &["run", "--all"]);
    let found: BTreeSet<String> = sql_json(
        &lake,
        "SELECT asset_id, arm, winner_family, other_family, resolution FROM conflicts WHERE field = 'efficacy.value'",
    )
    .iter()
    .map(|r| {
        ["asset_id", "arm", "winner_family", "other_family", "resolution"]
            .iter()
            .map(|k| s(r, k))
            .collect::<Vec<_>>()
            .join(",")
    })
    .collect();
    let plan = std::fs::read_to_string(syn.join("planted.csv")).unwrap();
    let planted: BTreeSet<String> = plan.lines().skip(1).map(str::to_string).collect();
    // every kind of plan is there: a paper and a press page losing on rank, a label
    // losing on its earlier date and one winning on its later date
    for kind in [
        ",pubmed,family_rank",
        ",press,family_rank",
        ",fda_label,later_cutoff",
        "fda_label,ctgov,later_cutoff",
    ] {
        assert!(
            planted.iter().any(|p| p.ends_with(kind)),
            "{kind}: {planted:?}"
        );
    }
    assert_eq!(found, planted);
    // the paper's odds ratio and its limits land in the posted analysis's cells, in the
    // posted units, and agree with it there
    let ratios = sql_json(
        &lake,
        "SELECT field, population, unit, detail, value FROM profile_cells \
         WHERE field IN ('efficacy.effect_estimate', 'efficacy.estimate_ci_lower', 'efficacy.estimate_ci_upper')",
    );
    let with_results = plan.lines().count(); // at least the planted ones have results
    assert!(ratios.len() >= 3 * (with_results - 1), "{}", ratios.len());
    for r in &ratios {
        assert_eq!(s(r, "population"), "analysis 1", "{r}");
        assert_eq!(s(r, "detail"), "2 claims agree", "{r}");
        let unit = if s(r, "field") == "efficacy.effect_estimate" {
            "Odds Ratio (OR)"
        } else {
            "95% CI, two-sided"
        };
        assert_eq!(s(r, "unit"), unit, "{r}");
    }
}

#[test]
fn a_biomarker_population_meets_only_its_own_population() {
    let tail = "Grade &#8805;3 rash occurred in 4% of patients.";
    let lake = run_edited_fixtures(
        "pubmed/efetch_zelnorib_zenith1.xml",
        tail,
        &format!(
            "{tail} Among patients with PD-L1 expression &#8805;50%, the rate of major molecular response at 48 weeks was 70.2% with zelnorib and 45.1% with imatinib."
        ),
    );
    let cells = sql_json(
        lake.path(),
        "SELECT endpoint, population, arm, value, status FROM profile_cells WHERE asset_id = 'zelnorib' AND field = 'efficacy.value' AND value IN ('70.2', '45.1') ORDER BY arm",
    );
    let got: Vec<(&str, &str, &str, &str)> = cells
        .iter()
        .map(|c| {
            (
                s(c, "endpoint"),
                s(c, "population"),
                s(c, "arm"),
                s(c, "value"),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "NCT09000001 MMR at week 48",
                "PD-L1 ≥50%",
                "imatinib",
                "45.1"
            ),
            (
                "NCT09000001 MMR at week 48",
                "PD-L1 ≥50%",
                "zelnorib",
                "70.2"
            ),
        ]
    );
    // the whole population's cells and conflicts are as without the sentence
    let conflicts = sql_json(
        lake.path(),
        "SELECT other_value FROM conflicts ORDER BY other_value",
    );
    let others: Vec<&str> = conflicts.iter().map(|c| s(c, "other_value")).collect();
    assert_eq!(others, ["49.0", "66.1"]);
    // and the biomarker is a cell of its own, quoted
    let bio = sql_json(
        lake.path(),
        "SELECT endpoint, value FROM profile_cells WHERE asset_id = 'zelnorib' AND field = 'identity.biomarkers' ORDER BY endpoint",
    );
    let b: Vec<(&str, &str)> = bio
        .iter()
        .map(|c| (s(c, "endpoint"), s(c, "value")))
        .collect();
    assert_eq!(
        b,
        [
            ("PD-L1 ≥50%", "PD-L1 expression ≥50%"),
            ("Ph+", "Philadelphia chromosome-positive"),
        ]
    );
}
