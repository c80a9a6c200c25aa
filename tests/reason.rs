//! End-to-end tests of `dossier run`: the profile schema and cell statuses, the
//! extractive reasoner on the fixtures and the real corpus, and the LLM reasoner against
//! a loopback fake endpoint with scripted answers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{Value, json};

mod common;
use common::*;

/// `dossier run` with extra args; returns the run id.
fn run(lake: &Path, args: &[&str]) -> String {
    run_err(lake, args).0
}

/// The files of a run's tables, by key.
fn table_files(lake: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for t in ["claims", "rejections", "profile_cells", "conflicts"] {
        let mut stack = vec![lake.join("tables").join(t)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    out.insert(
                        p.strip_prefix(lake).unwrap().display().to_string(),
                        std::fs::read(&p).unwrap(),
                    );
                }
            }
        }
    }
    out
}

#[test]
fn every_field_of_every_fixture_asset_gets_a_status_and_accepted_claims_reverify() {
    let lake = fixture_snapshot();
    let run_id = run(lake.path(), &[]);
    assert!(run_id.starts_with("r-"), "{run_id}");
    let cells = sql_json(lake.path(), "SELECT * FROM profile_cells");
    let statuses = [
        "value",
        "conflicting",
        "not_yet_published",
        "source_empty",
        "skipped",
        "fetch_failed",
    ];
    let mut fields: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for c in &cells {
        assert!(statuses.contains(&s(c, "status")), "{c}");
        fields
            .entry(s(c, "asset_id"))
            .or_default()
            .insert(s(c, "field"));
        // A value cell (and each value of a conflicting one) carries its evidence; an
        // empty cell says why.
        if matches!(s(c, "status"), "value" | "conflicting") {
            assert!(
                !s(c, "value").is_empty() && !s(c, "label").is_empty(),
                "{c}"
            );
            if s(c, "label") == "fact" {
                assert!(
                    !s(c, "quote").is_empty() && s(c, "url").starts_with("https://"),
                    "{c}"
                );
            }
        } else {
            assert!(c.get("value").is_none_or(Value::is_null), "{c}");
            assert!(!s(c, "detail").is_empty(), "{c}");
        }
    }
    let schema = sql_json(
        lake.path(),
        "SELECT count(DISTINCT field) n FROM profile_cells",
    )[0]["n"]
        .as_i64()
        .unwrap();
    assert!(schema >= 35, "{schema} fields");
    assert_eq!(fields.len(), 3);
    for (a, f) in &fields {
        assert_eq!(f.len() as i64, schema, "{a} lacks fields");
    }
    let status = |asset: &str, field: &str| -> BTreeSet<String> {
        cells
            .iter()
            .filter(|c| s(c, "asset_id") == asset && s(c, "field") == field)
            .map(|c| s(c, "status").to_string())
            .collect()
    };
    // quorvimab's trial has posted no results: its efficacy and safety cells say so.
    for f in [
        "efficacy.value",
        "efficacy.p_value",
        "safety.serious_ae_rate",
    ] {
        assert_eq!(
            status("quorvimab", f),
            ["not_yet_published".to_string()].into()
        );
    }
    assert_eq!(
        status("velantide", "financials.revenue"),
        ["skipped".to_string()].into()
    );
    // zelnorib is approved with an incidence in its market section: modeled; quorvimab
    // has no epidemiology, so its model is source_empty (the detail names the input).
    assert_eq!(
        status("zelnorib", "valuation.rnpv"),
        ["value".to_string()].into()
    );
    assert_eq!(
        status("quorvimab", "valuation.peak_sales"),
        ["source_empty".to_string()].into()
    );
    assert_eq!(
        status("velantide", "regulatory.boxed_warning"),
        ["fetch_failed".to_string()].into()
    );

    // zelnorib's primary endpoint: each arm's value in its own cell; the two copies of
    // the study at one cutoff disagree on imatinib's, so both of its values stand
    let mmr: BTreeSet<(String, String, String)> = cells
        .iter()
        .filter(|c| {
            s(c, "asset_id") == "zelnorib"
                && s(c, "field") == "efficacy.value"
                && s(c, "endpoint").contains("Major Molecular Response")
        })
        .map(|c| {
            (
                s(c, "arm").to_string(),
                s(c, "value").to_string(),
                s(c, "status").to_string(),
            )
        })
        .collect();
    let row = |a: &str, v: &str, st: &str| (a.to_string(), v.to_string(), st.to_string());
    assert_eq!(
        mmr,
        [
            row("Zelnorib", "67.5", "value"),
            row("Imatinib", "49.0", "conflicting"),
            row("Imatinib", "48.1", "conflicting"),
        ]
        .into()
    );
    let derived = cells
        .iter()
        .find(|c| s(c, "field") == "safety.serious_ae_rate" && s(c, "arm") == "Zelnorib")
        .unwrap();
    assert_eq!(
        (s(derived, "value"), s(derived, "label")),
        ("12.2", "derived")
    );

    // Every accepted fact claim passes `dossier verify` on its own.
    let claims = sql_json(
        lake.path(),
        "SELECT claim_id, asset_id, field, value, label, source, quote, locator, unit, endpoint, population, arm FROM claims WHERE accepted AND label = 'fact'",
    );
    assert!(claims.len() > 40);
    let mut text = String::new();
    for c in &claims {
        let mut line = json!({
            "id": c["claim_id"], "asset": c["asset_id"], "field": c["field"], "value": c["value"],
            "label": "fact", "source": c["source"], "quote": c["quote"], "locator": c["locator"],
        });
        for k in ["unit", "endpoint", "population", "arm"] {
            if !c[k].is_null() {
                line[k] = c[k].clone();
            }
        }
        text.push_str(&line.to_string());
        text.push('\n');
    }
    let file = lake.path().join("accepted.jsonl");
    std::fs::write(&file, text).unwrap();
    let out = verify(lake.path(), &file);
    let verdicts = json_lines(&out.stdout);
    assert_eq!(verdicts.len(), claims.len());
    assert!(
        verdicts.iter().all(|v| v["verdict"] == "accepted"),
        "{:?}",
        verdicts.iter().find(|v| v["verdict"] != "accepted")
    );
}

#[test]
fn a_rerun_replaces_the_same_rows_and_one_asset_reruns_alone() {
    let lake = fixture_snapshot();
    let id = run(lake.path(), &[]);
    let first = table_files(lake.path());
    assert_eq!(first.len(), 12, "4 tables x 3 assets");
    assert_eq!(
        run(lake.path(), &[]),
        id,
        "the default run id is a pure function"
    );
    assert_eq!(
        table_files(lake.path()),
        first,
        "byte-identical after a rerun"
    );
    run(lake.path(), &["--assets", "zelnorib", "--run-id", &id]);
    assert_eq!(table_files(lake.path()), first);
    let dup = sql_json(
        lake.path(),
        "SELECT dedup_key, count(*) n FROM profile_cells GROUP BY dedup_key HAVING count(*) > 1",
    );
    assert!(dup.is_empty(), "{dup:?}");
    // A ranks file that does not parse is a clear error before anything is written.
    let bad = lake.path().join("ranks.csv");
    std::fs::write(&bad, "family,rank\nclinvar,1\n").unwrap();
    let out = dossier()
        .args([
            "--lake",
            lake.path().to_str().unwrap(),
            "run",
            "--run-id",
            "x",
            "--ranks",
        ])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown family \"clinvar\""));
    // A bad run id never reaches an object key.
    let out = dossier()
        .args([
            "--lake",
            lake.path().to_str().unwrap(),
            "run",
            "--run-id",
            "../x",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn real_corpus_values_land_in_their_own_arm_endpoint_and_version() {
    let Some(real) = real_sources() else { return };
    let lake = real_snapshot(&real);
    run(lake.path(), &[]);
    let cells = sql_json(
        lake.path(),
        "SELECT asset_id, field, endpoint, population, arm, value, unit, status, source_id, cutoff_date FROM profile_cells",
    );
    let find = |asset: &str, field: &str, endpoint: &str, arm: &str| -> Vec<&Value> {
        cells
            .iter()
            .filter(|c| {
                s(c, "asset_id") == asset
                    && s(c, "field") == field
                    && s(c, "endpoint").contains(endpoint)
                    && s(c, "arm") == arm
            })
            .collect()
    };
    // NCT02552212 ASDAS-MI at week 52: placebo 7.0, CZP 47.2; odds ratio 15.231.
    let ep = "Primary: Percentage of Subjects With Ankylosing Spondylitis Disease Activity Score Major Improvement (ASDAS-MI) Response Criteria Response at Week 52 [Week 52]";
    let pl = find("certolizumab", "efficacy.value", ep, "Placebo (FAS)");
    let czp = find("certolizumab", "efficacy.value", ep, "CZP 200 mg Q2W (FAS)");
    assert_eq!(pl.len(), 1, "{pl:?}");
    assert_eq!((s(pl[0], "value"), s(czp[0], "value")), ("7.0", "47.2"));
    // Both data versions hold it; the cell cites the later one.
    assert_eq!(s(czp[0], "cutoff_date"), "2024-01-03");
    // The odds ratio reads in the direction the analysis states ("Odds ratio:
    // CZP/Placebo"), not in the order of its groupIds (placebo first).
    let czp_pl = "CZP 200 mg Q2W (FAS) vs Placebo (FAS)";
    let or = find("certolizumab", "efficacy.effect_estimate", ep, czp_pl);
    assert_eq!(s(or[0], "value"), "15.231");
    assert_eq!(s(or[0], "unit"), "Odds Ratio (OR)");
    assert_eq!(
        s(
            find("certolizumab", "efficacy.comparison", ep, czp_pl)[0],
            "value"
        ),
        "CZP/Placebo"
    );
    let or_ci = find("certolizumab", "efficacy.estimate_ci_lower", ep, czp_pl);
    assert_eq!(
        (s(or_ci[0], "value"), s(or_ci[0], "unit")),
        ("7.336", "95% CI, two-sided")
    );
    assert!(
        cells
            .iter()
            .all(|c| !s(c, "arm").starts_with("Placebo (FAS) vs")),
        "a comparison still reads placebo-first"
    );
    // an analysis that states no direction says so rather than implying one
    assert!(cells.iter().any(|c| s(c, "asset_id") == "remdesivir"
        && s(c, "field") == "efficacy.effect_estimate"
        && s(c, "arm") == "Placebo and Remdesivir (direction not stated)"));
    // CI fields hold only confidence intervals; ranges and IQRs have their own fields
    for c in &cells {
        if s(c, "status") == "value" && s(c, "field").starts_with("efficacy.ci_") {
            assert!(
                s(c, "unit").contains("Confidence Interval"),
                "a CI cell holds a {}: {c:?}",
                s(c, "unit")
            );
        }
    }
    for f in ["efficacy.iqr_lower", "efficacy.range_max", "efficacy.sd"] {
        assert!(
            cells
                .iter()
                .any(|c| s(c, "field") == f && s(c, "status") == "value"),
            "no {f} cell"
        );
    }
    // CheckMate 017 (legacy XML): median OS per arm, and the hazard ratio.
    let os = "Overall Survival (OS) Time in Months for All Randomized Participants at Updated Survival Follow-up";
    assert_eq!(
        s(
            find("nivolumab", "efficacy.value", os, "Nivolumab")[0],
            "value"
        ),
        "9.23"
    );
    assert_eq!(
        s(
            find("nivolumab", "efficacy.value", os, "Docetaxel")[0],
            "value"
        ),
        "6.01"
    );
    assert_eq!(
        s(
            find("nivolumab", "efficacy.ci_lower", os, "Nivolumab")[0],
            "value"
        ),
        "7.33"
    );
    // legacy XML analyses are read: the primary OS hazard ratio with its own interval,
    // at the level the record states, in the direction it states
    let os1 = "Primary: Overall Survival (OS) Time in Months for All Randomized Participants at Primary Endpoint";
    let nd = "Nivolumab vs Docetaxel";
    let one = |field: &str| -> (String, String) {
        let c = find("nivolumab", field, os1, nd);
        assert_eq!(c.len(), 1, "{field}: {c:?}");
        (s(c[0], "value").to_string(), s(c[0], "unit").to_string())
    };
    assert_eq!(
        one("efficacy.effect_estimate"),
        ("0.59".into(), "Hazard Ratio (HR)".into())
    );
    assert_eq!(one("efficacy.p_value").0, "0.0002");
    assert_eq!(
        one("efficacy.estimate_ci_lower"),
        ("0.43".into(), "96.85% CI, two-sided".into())
    );
    assert_eq!(one("efficacy.estimate_ci_upper").0, "0.81");
    assert_eq!(one("efficacy.statistical_method").0, "Log Rank");
    assert_eq!(one("efficacy.comparison").0, "Nivolumab over Docetaxel");
    // a median not reached (posted NA) keeps the limit the record states
    let dor = "Duration of Objective Response (DOR) in Months for All Confirmed Responders at Primary Endpoint";
    assert_eq!(
        s(
            find("nivolumab", "efficacy.ci_lower", dor, "Nivolumab")[0],
            "value"
        ),
        "9.76"
    );
    assert!(find("nivolumab", "efficacy.value", dor, "Nivolumab").is_empty());
    // a class with its own denominators shows the count behind each value
    let tb = "Time to Recovery by Race";
    let asian = cells
        .iter()
        .find(|c| {
            s(c, "asset_id") == "remdesivir"
                && s(c, "field") == "efficacy.analyzed"
                && s(c, "endpoint").contains(tb)
                && s(c, "population") == "Asian"
                && s(c, "arm") == "Placebo"
        })
        .expect("the Asian class's own count");
    assert_eq!(s(asian, "value"), "56");
    let sae = find(
        "nivolumab",
        "safety.serious_ae_affected",
        "NCT01642004",
        "NIVOLUMAB",
    );
    assert_eq!(s(sae[0], "value"), "61");
    // a combined phase 2/3 study: each listed phase says what it is part of, and no
    // population reads as another phase ("listed phase 1" beside PHASE2)
    let phases: Vec<(String, String)> = cells
        .iter()
        .filter(|c| {
            s(c, "asset_id") == "remdesivir"
                && s(c, "field") == "trials.phase"
                && s(c, "endpoint") == "NCT04431453"
        })
        .map(|c| (s(c, "population").to_string(), s(c, "value").to_string()))
        .collect();
    assert_eq!(
        phases,
        vec![
            ("PHASE2 of PHASE2/PHASE3".to_string(), "PHASE2".to_string()),
            ("PHASE3 of PHASE2/PHASE3".to_string(), "PHASE3".to_string())
        ]
    );
    // remdesivir's two neonatal cohorts had nobody at risk: no "0 of 0" safety cells, while
    // the study's other cohorts keep theirs
    let at_risk: Vec<&Value> = cells
        .iter()
        .filter(|c| {
            s(c, "asset_id") == "remdesivir" && s(c, "field") == "safety.serious_ae_at_risk"
        })
        .collect();
    assert!(!at_risk.is_empty());
    assert!(at_risk.iter().all(|c| s(c, "value") != "0"), "{at_risk:?}");
    assert!(
        cells.iter().all(|c| !(s(c, "asset_id") == "remdesivir"
            && s(c, "field").starts_with("safety.serious_ae")
            && s(c, "arm").contains("Cohort 6"))),
        "a cohort with nobody at risk still has safety cells"
    );
    // Trials: CheckMate 017 is flagged pivotal (an inference over phase and allocation);
    // GET73's record has no results section: "not posted", an inference, not a fact.
    let trial = |asset: &str, field: &str| -> (String, String) {
        let c = cells
            .iter()
            .find(|c| s(c, "asset_id") == asset && s(c, "field") == field)
            .unwrap();
        (s(c, "value").to_string(), s(c, "status").to_string())
    };
    assert_eq!(
        trial("nivolumab", "trials.pivotal"),
        ("pivotal (phase 3, randomized)".into(), "value".into())
    );
    assert_eq!(trial("nivolumab", "trials.allocation").0, "Randomized");
    assert_eq!(trial("get73", "trials.results_posted").0, "not posted");
    assert_eq!(
        trial("dupilumab", "trials.pivotal").1,
        "source_empty",
        "a phase 2 trial"
    );
    // GET73 has no posted results: no efficacy number, only the status.
    let get73: Vec<&Value> = cells
        .iter()
        .filter(|c| s(c, "asset_id") == "get73" && s(c, "field").starts_with("efficacy."))
        .collect();
    assert!(!get73.is_empty());
    assert!(
        get73.iter().all(|c| s(c, "status") == "not_yet_published"),
        "{get73:?}"
    );
    // No cell holds two winning values.
    let mut keys = BTreeSet::new();
    for c in cells.iter().filter(|c| s(c, "status") == "value") {
        let k = (
            s(c, "asset_id"),
            s(c, "field"),
            s(c, "endpoint"),
            s(c, "population"),
            s(c, "arm"),
        );
        assert!(keys.insert(k), "two values for {k:?}");
    }
    // Assets without a sponsor_cik have their financials skipped; dupilumab's filer has no
    // record in the corpus: source_empty.
    let fin = |a: &str| -> BTreeSet<&str> {
        cells
            .iter()
            .filter(|c| s(c, "asset_id") == a && s(c, "field").starts_with("financials."))
            .map(|c| s(c, "status"))
            .collect()
    };
    assert_eq!(fin("adalimumab"), ["skipped"].into());
    assert_eq!(fin("dupilumab"), ["source_empty"].into());
}

/// A loopback OpenAI-compatible endpoint: answers each POST with the next scripted
/// (status, body), repeating the last, and records every request body.
#[test]
fn real_corpus_label_and_identity_cells_hold_what_their_names_promise() {
    let Some(real) = real_sources() else { return };
    let lake = real_snapshot(&real);
    run(lake.path(), &[]);
    let cells = sql_json(
        lake.path(),
        "SELECT asset_id, field, endpoint, population, value, status, detail FROM profile_cells WHERE section IN ('identity', 'regulatory', 'safety', 'trials')",
    );
    let of = |asset: &str, field: &str| -> Vec<&Value> {
        cells
            .iter()
            .filter(|c| s(c, "asset_id") == asset && s(c, "field") == field)
            .collect()
    };
    let values = |asset: &str, field: &str| -> Vec<String> {
        of(asset, field)
            .iter()
            .filter(|c| s(c, "status") == "value")
            .map(|c| s(c, "value").to_string())
            .collect()
    };
    // Humira: one cell per indication statement, under its subsection, never starting
    // at a section heading
    let ind = of("adalimumab", "regulatory.approved_indications");
    assert!(ind.len() >= 10, "{ind:?}");
    for c in &ind {
        assert!(s(c, "value").starts_with("HUMIRA is indicated"), "{c}");
        assert!(s(c, "value").ends_with('.'), "{c}");
    }
    assert!(ind.iter().any(|c| s(c, "population") == "1.10 Uveitis"));
    // Vyvanse: both most-common statements, whole, not cut at 600 bytes
    let ar = values("lisdexamfetamine", "safety.common_adverse_reactions");
    assert_eq!(ar.len(), 2, "{ar:?}");
    assert!(ar[0].contains("and/or adults with ADHD") && ar[0].ends_with("(6.1)"));
    assert!(ar.iter().any(|v| v.contains("adults with BED")));
    // Ambien's boxed_warning field holds medication-guide text: no box is claimed
    let bw = of("zolpidem", "regulatory.boxed_warning");
    assert_eq!(bw.len(), 1);
    assert_eq!(s(bw[0], "status"), "source_empty");
    assert!(
        s(bw[0], "detail").contains("not a boxed warning"),
        "{}",
        bw[0]
    );
    assert_eq!(
        values("adalimumab", "regulatory.boxed_warning"),
        vec!["WARNING: SERIOUS INFECTIONS AND MALIGNANCY".to_string()]
    );
    // the repackager on Ambien's label is its labeler, not its sponsor
    assert_eq!(
        values("zolpidem", "identity.labeler"),
        vec!["STAT Rx USA LLC".to_string()]
    );
    let sp = of("zolpidem", "identity.sponsor");
    assert_eq!(s(sp[0], "status"), "source_empty");
    assert!(s(sp[0], "detail").contains("labeler"), "{}", sp[0]);
    // peptides filed as NDAs: the application type does not decide modality
    for a in ["semaglutide", "tirzepatide"] {
        let m = of(a, "identity.modality");
        assert_eq!(s(m[0], "status"), "source_empty", "{a}");
        assert!(s(m[0], "detail").contains("does not decide modality"));
    }
    assert_eq!(
        values("adalimumab", "identity.modality"),
        vec!["biologic (BLA)".to_string()]
    );
    // every stated class is kept, the mechanism apart from the pharmacologic class
    let moa = values("tirzepatide", "identity.mechanism");
    assert_eq!(moa.len(), 2, "{moa:?}");
    assert!(moa.iter().any(|m| m.contains("GLP-1")));
    assert!(
        values("tirzepatide", "identity.pharmacologic_class")
            .iter()
            .any(|m| m.contains("Insulinotropic"))
    );
    // an application's original approval is not the molecule's first: imatinib's
    // NDA021588 is a new dosage form; tirzepatide's NDA215866 is a new molecular entity
    let first = of("imatinib", "regulatory.first_approval_date");
    assert_eq!(s(first[0], "status"), "source_empty");
    assert!(
        s(first[0], "detail").contains("Type 3 - New Dosage Form"),
        "{}",
        first[0]
    );
    assert_eq!(
        values("imatinib", "regulatory.original_approval_date"),
        vec!["20030418".to_string()]
    );
    assert_eq!(
        values("tirzepatide", "regulatory.first_approval_date"),
        vec!["20220513".to_string()]
    );
    assert_eq!(
        values("semaglutide", "regulatory.first_approval_date"),
        Vec::<String>::new(),
        "two later NDAs, neither the first"
    );
    // empty cells say what was read and why it does not decide them
    let pv = of("dupilumab", "trials.pivotal");
    assert!(
        s(pv[0], "detail").contains("NCT02210780 lists phase PHASE2"),
        "{}",
        pv[0]
    );
    let fs = of("fluconazole", "identity.sponsor");
    assert!(
        s(fs[0], "detail").contains("lead sponsor (Daniel Benjamin"),
        "{}",
        fs[0]
    );
    // CT.gov conditions name the indication in other words
    assert_eq!(
        values("nivolumab", "identity.indication"),
        vec!["Squamous Cell Non-small Cell Lung Cancer".to_string()]
    );
}

fn llm_run(lake: &Path, base: &str, run_id: &str) -> std::process::Output {
    dossier()
        .args([
            "--lake",
            lake.to_str().unwrap(),
            "run",
            "--assets",
            "zelnorib",
            "--reasoner",
            "llm",
        ])
        .args([
            "--run-id",
            run_id,
            "--llm-base-url",
            base,
            "--llm-model",
            "scripted",
            "--llm-budget",
            "3000",
        ])
        .env_remove("DOSSIER_LLM_API_KEY")
        .output()
        .unwrap()
}

#[test]
fn llm_claims_pass_the_same_gates_and_replay_from_the_journal() {
    let lake = fixture_snapshot();
    // The locators of each arm's MMR value, from the structured reading.
    run(lake.path(), &["--assets", "zelnorib", "--run-id", "base"]);
    let at = |arm: &str| -> (String, String) {
        let r = sql_json(
            lake.path(),
            &format!(
                "SELECT endpoint, locator FROM claims WHERE field = 'efficacy.value' AND arm = '{arm}' AND endpoint LIKE '%Major Molecular%'"
            ),
        );
        (
            s(&r[0], "endpoint").to_string(),
            s(&r[0], "locator").to_string(),
        )
    };
    let (ep, zel_loc) = at("Zelnorib");
    let (_, ima_loc) = at("Imatinib");
    let ct = "https://clinicaltrials.gov/study/NCT09000001";
    let press = "https://investors.halcyon-tx.example/news/2026-03-02-zelnorib-phase-3";
    let answer = json!({"claims": [
        // true, and bound to its arm by locator: accepted
        {"field": "efficacy.value", "value": "67.5", "label": "fact", "endpoint": ep, "arm": "Zelnorib",
         "unit": "percentage of participants (number)", "source": ct, "quote": "67.5", "locator": zel_loc},
        // the imatinib arm's number moved to the zelnorib arm, quote and locator true
        {"field": "efficacy.value", "value": "49.0", "label": "fact", "endpoint": ep, "arm": "Zelnorib",
         "source": ct, "quote": "49.0", "locator": ima_loc},
        // the same move from press text, where nothing binds a number to an arm
        {"field": "efficacy.value", "value": "49.0", "label": "fact", "endpoint": ep, "arm": "Zelnorib",
         "source": press, "quote": "versus 49.0% on imatinib"},
        // fabricated number
        {"field": "trials.enrollment", "value": "450", "label": "fact", "endpoint": "NCT09000001",
         "source": "NCT09000001", "quote": "412"},
        // invented NCT id
        {"field": "trials.status", "value": "COMPLETED", "label": "fact", "endpoint": "NCT09999999",
         "source": "NCT09999999", "quote": "COMPLETED"},
        // a true quote with a wrong number
        {"field": "market.incidence", "value": "12.5", "label": "fact", "source": press,
         "quote": "Serious adverse events: 12.2% zelnorib, 15.2% imatinib."},
        // valuation presented as a fact
        {"field": "valuation.peak_sales", "value": "1.2 billion USD", "label": "fact", "source": press,
         "quote": "67.5% of patients"},
        // not a claim at all
        {"oops": true},
        // visible assumptions and a model over them: accepted with their labels
        {"id": "price", "field": "valuation.assumption", "value": "annual net price 150000 USD", "label": "assumption", "endpoint": "price"},
        {"id": "share", "field": "valuation.assumption", "value": "peak share 10% of 6470 incident patients", "label": "assumption", "endpoint": "share"},
        {"field": "valuation.peak_sales", "value": "97 million USD", "label": "modeled", "inputs": ["price", "share"],
         "formula": "150000 x 0.10 x 6470"},
        // a model over an input that is no visible assumption
        {"field": "valuation.rnpv", "value": "300 million USD", "label": "modeled", "inputs": ["price", "ghost"],
         "formula": "made up"},
    ]});
    let fake = fake_llm(vec![
        (500, "{\"error\": \"warming up\"}".into()),
        (200, chat(&answer)),
    ]);
    let out = llm_run(lake.path(), &fake.addr, "llm-1");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let requests = fake.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2, "one retry after the 500");
    let body: Value = serde_json::from_str(&requests[1]).unwrap();
    assert_eq!(body["model"], "scripted");
    let prompt = body["messages"][1]["content"].as_str().unwrap();
    assert!(
        prompt.contains("major molecular response"),
        "passages from the bundle"
    );
    assert!(
        !prompt.to_lowercase().contains("velantide"),
        "nothing from another asset"
    );

    let cells = sql_json(
        lake.path(),
        "SELECT field, endpoint, arm, value, label, status FROM profile_cells WHERE run_id = 'llm-1'",
    );
    for bad in ["450", "12.5", "1.2 billion USD"] {
        assert!(
            cells.iter().all(|c| s(c, "value") != bad),
            "{bad} reached the profile"
        );
    }
    let zel: Vec<&Value> = cells
        .iter()
        .filter(|c| {
            s(c, "field") == "efficacy.value" && s(c, "arm") == "Zelnorib" && s(c, "endpoint") == ep
        })
        .collect();
    assert_eq!(zel.len(), 1);
    assert_eq!((s(zel[0], "value"), s(zel[0], "status")), ("67.5", "value"));
    // the model's peak sales stands beside the valuation step's own (both modeled)
    let peaks: BTreeSet<(&str, &str)> = cells
        .iter()
        .filter(|c| s(c, "field") == "valuation.peak_sales")
        .map(|c| (s(c, "value"), s(c, "label")))
        .collect();
    assert!(peaks.contains(&("97 million USD", "modeled")), "{peaks:?}");
    assert!(peaks.iter().all(|(_, l)| *l == "modeled"), "{peaks:?}");

    let rej = sql_json(
        lake.path(),
        "SELECT field, gate, value, source FROM rejections WHERE run_id = 'llm-1' ORDER BY field, gate",
    );
    let gates = |value: &str| -> BTreeSet<&str> {
        rej.iter()
            .filter(|r| s(r, "value") == value)
            .map(|r| s(r, "gate"))
            .collect()
    };
    assert_eq!(gates("450"), ["number"].into());
    assert!(gates("COMPLETED").contains("citation"));
    assert_eq!(gates("12.5"), ["number"].into());
    assert!(gates("1.2 billion USD").contains("schema"));
    assert_eq!(gates("300 million USD"), ["label"].into());
    let moved: Vec<&str> = rej
        .iter()
        .filter(|r| s(r, "value") == "49.0")
        .map(|r| s(r, "gate"))
        .collect();
    // at the posted place both the binding check and the entailment gate (its arm rule)
    // see the move; in the press page's text, the gate's text binder does
    assert_eq!(moved, ["binding", "entailment", "entailment"], "{rej:?}");
    assert!(rej.iter().any(|r| s(r, "field") == "llm.malformed"));

    // Replay: the endpoint is gone, the journal answers; the tables come out identical.
    let before = table_files(lake.path());
    drop(fake);
    let out = llm_run(lake.path(), "http://127.0.0.1:9/v1", "llm-1");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(table_files(lake.path()), before);
    // A new run id has no journal entry and no endpoint: a clear error, exit 2.
    let out = llm_run(lake.path(), "http://127.0.0.1:9/v1", "llm-2");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("LLM endpoint"));
}

#[test]
fn two_data_versions_of_a_real_study_meet_in_precedence() {
    let Some(real) = real_sources() else { return };
    let ep = "Primary: Percentage of Subjects With Ankylosing Spondylitis Disease Activity Score Major Improvement (ASDAS-MI) Response Criteria Response at Week 52 [Week 52]";
    // As recorded: both versions state the same results, so every cell agrees, cites the
    // later version, and no competition is recorded.
    let lake = real_snapshot(&real);
    run(lake.path(), &[]);
    let cells = sql_json(
        lake.path(),
        "SELECT field, endpoint, arm, value, status, detail, cutoff_date FROM profile_cells WHERE asset_id = 'certolizumab' AND section = 'efficacy' AND status <> 'source_empty'",
    );
    // (fields the study has no such values for, IQRs for one, are source_empty)
    assert!(cells.len() > 100);
    for c in &cells {
        assert_eq!(
            (s(c, "status"), s(c, "cutoff_date")),
            ("value", "2024-01-03"),
            "{c}"
        );
        assert_eq!(s(c, "detail"), "2 claims agree", "{c}");
    }
    let none = sql_json(
        lake.path(),
        "SELECT * FROM conflicts WHERE asset_id = 'certolizumab'",
    );
    assert!(none.is_empty(), "{none:?}");

    // The later version corrected one value: the later cutoff wins, and the competition is
    // a conflicts row naming both versions.
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&real_import(&real), dir.path());
    let later = dir
        .path()
        .join("ctgov/NCT02552212_certolizumab_ucb_ph3_v2024-01-03.json");
    let text = std::fs::read_to_string(&later).unwrap();
    assert_eq!(text.matches("\"value\": \"47.2\"").count(), 1);
    std::fs::write(
        &later,
        text.replace("\"value\": \"47.2\"", "\"value\": \"48.0\""),
    )
    .unwrap();
    let lake = tempfile::tempdir().unwrap();
    snapshot(lake.path(), &real.join("portfolio.toml"), dir.path());
    run(lake.path(), &[]);
    let rows = sql_json(
        lake.path(),
        "SELECT field, endpoint, arm, winner_value, winner_cutoff, other_value, other_cutoff, resolution FROM conflicts WHERE asset_id = 'certolizumab'",
    );
    assert_eq!(rows.len(), 1, "{rows:?}");
    let r = &rows[0];
    assert_eq!(
        (s(r, "field"), s(r, "arm")),
        ("efficacy.value", "CZP 200 mg Q2W (FAS)")
    );
    assert!(s(r, "endpoint").ends_with(ep));
    assert_eq!(
        (
            s(r, "winner_value"),
            s(r, "winner_cutoff"),
            s(r, "other_value"),
            s(r, "other_cutoff")
        ),
        ("48.0", "2024-01-03", "47.2", "2023-12-12")
    );
    assert_eq!(s(r, "resolution"), "later_cutoff");
    let cell = sql_json(
        lake.path(),
        "SELECT value, status FROM profile_cells WHERE asset_id = 'certolizumab' AND field = 'efficacy.value' AND arm = 'CZP 200 mg Q2W (FAS)' AND endpoint LIKE '%ASDAS-MI%Week 52 [Week 52]'",
    );
    assert_eq!(cell.len(), 1);
    assert_eq!(
        (s(&cell[0], "value"), s(&cell[0], "status")),
        ("48.0", "value")
    );
}

#[test]
fn shards_of_one_run_write_the_same_tables_as_one_machine() {
    let Some(real) = real_sources() else { return };
    let whole = real_snapshot(&real);
    run(whole.path(), &["--run-id", "nightly", "--jobs", "1"]);
    let sharded = real_snapshot(&real);
    let mut seen = BTreeSet::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        run(sharded.path(), &["--run-id", "nightly", "--shard", &shard]);
        let m: Value = serde_json::from_slice(
            &std::fs::read(
                sharded
                    .path()
                    .join(format!("runs/nightly/manifest-shard-{i}-of-3.json")),
            )
            .unwrap(),
        )
        .unwrap();
        for a in m["assets"].as_object().unwrap().keys() {
            assert!(seen.insert(a.clone()), "{a} in two shards");
        }
    }
    assert_eq!(seen.len(), 17, "the shards cover the portfolio");
    assert_eq!(table_files(sharded.path()), table_files(whole.path()));
    let out = dossier()
        .args([
            "--lake",
            sharded.path().to_str().unwrap(),
            "run",
            "--shard",
            "3/3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `dossier run` returning (run id, stderr); asserts success. LLM settings of the
/// environment are not passed on.
fn run_err(lake: &Path, args: &[&str]) -> (String, String) {
    let out = dossier()
        .args(["--lake", lake.to_str().unwrap(), "run"])
        .args(args)
        .env_remove("DOSSIER_LLM_BASE_URL")
        .env_remove("DOSSIER_LLM_MODEL")
        .env_remove("DOSSIER_LLM_API_KEY")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "run failed: {err}");
    (
        String::from_utf8(out.stdout).unwrap().trim().to_string(),
        err,
    )
}

#[test]
fn a_run_resumes_from_its_journal_without_recomputing_finished_steps() {
    let lake = fixture_snapshot();
    let (id, err) = run_err(lake.path(), &["--run-id", "r1"]);
    assert!(!err.contains("resumed"), "{err}");
    let first = table_files(lake.path());
    // Everything finished: nothing is recomputed, nothing changes.
    let (_, err) = run_err(lake.path(), &["--run-id", &id]);
    assert!(
        err.contains("resumed from the journal: 3 of 3 assets, and the rules"),
        "{err}"
    );
    assert_eq!(table_files(lake.path()), first);
    // A crash after zelnorib's tables were written but before its step was journaled,
    // and before the rules finished: zelnorib and the rules are redone, the rest is not.
    let journal = lake.path().join("runs/r1/journal");
    let mut removed = 0;
    for step in ["asset", "rules"] {
        for e in std::fs::read_dir(journal.join(step)).unwrap() {
            let p = e.unwrap().path();
            let text = std::fs::read_to_string(&p).unwrap();
            if step == "rules" || text.contains("\"asset\":\"zelnorib\"") {
                std::fs::remove_file(&p).unwrap();
                removed += 1;
            }
        }
    }
    assert_eq!(removed, 2);
    std::fs::remove_dir_all(
        lake.path()
            .join("tables/profile_cells/run_id=r1/asset_id=zelnorib"),
    )
    .unwrap();
    let (_, err) = run_err(lake.path(), &["--run-id", &id]);
    assert!(
        err.contains("resumed from the journal: 2 of 3 assets"),
        "{err}"
    );
    assert!(!err.contains("and the rules"), "{err}");
    assert_eq!(
        table_files(lake.path()),
        first,
        "identical to the uninterrupted run"
    );
}

#[test]
fn two_runs_writing_one_lake_at_once_leave_the_same_tables() {
    let alone = fixture_snapshot();
    run(alone.path(), &["--run-id", "same"]);
    let shared = fixture_snapshot();
    let spawn = || {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("dossier"))
            .args([
                "--lake",
                shared.path().to_str().unwrap(),
                "--quiet",
                "run",
                "--run-id",
                "same",
            ])
            .env_remove("DOSSIER_LAKE")
            .spawn()
            .unwrap()
    };
    let (mut a, mut b) = (spawn(), spawn());
    assert!(a.wait().unwrap().success() && b.wait().unwrap().success());
    assert_eq!(table_files(shared.path()), table_files(alone.path()));
}

/// A snapshot and a run into an S3 lake (moto's server in CI) give the same profile as a
/// local lake. Runs when DOSSIER_TEST_S3_URL names a bucket (`.ci/run` sets it).
#[test]
fn snapshot_and_run_against_s3_match_a_local_lake() {
    let Ok(base) = std::env::var("DOSSIER_TEST_S3_URL") else {
        eprintln!("DOSSIER_TEST_S3_URL not set: the S3 run is left to .ci/run");
        return;
    };
    let url = format!("{base}/e2e-{}", std::process::id());
    let remote = Path::new(&url); // the lake argument is passed on as given
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    snapshot(
        remote,
        &fixtures.join("portfolio.toml"),
        &fixtures.join("import"),
    );
    run(remote, &["--run-id", "s3"]);
    // Resuming against S3 reads the journal back.
    let (_, err) = run_err(remote, &["--run-id", "s3"]);
    assert!(err.contains("3 of 3 assets"), "{err}");
    let q = "SELECT asset_id, field, endpoint, population, arm, value, status FROM profile_cells ORDER BY 1, 2, 3, 4, 5, 6";
    let local = fixture_snapshot();
    run(local.path(), &["--run-id", "s3"]);
    let cells = sql_json(remote, q);
    assert!(cells.len() > 100);
    assert_eq!(cells, sql_json(local.path(), q));
}

#[test]
fn real_corpus_values_can_be_computed_with() {
    let Some(real) = real_sources() else { return };
    let lake = real_snapshot(&real);
    run(lake.path(), &[]);
    // the same date written three ways sorts as one type
    let dates = sql_json(
        lake.path(),
        "SELECT asset_id, field, value, CAST(value_date AS VARCHAR) AS d FROM profile WHERE status = 'value' AND value_date IS NOT NULL ORDER BY value_date",
    );
    let d = |asset: &str, field: &str| -> String {
        let c = dates
            .iter()
            .find(|c| s(c, "asset_id") == asset && s(c, "field") == field)
            .unwrap_or_else(|| panic!("no dated {asset} {field}"));
        s(c, "d").to_string()
    };
    assert_eq!(d("nivolumab", "trials.results_posted"), "2016-03-17");
    assert_eq!(
        d("tirzepatide", "regulatory.original_approval_date"),
        "2022-05-13"
    );
    assert_eq!(d("dupilumab", "trials.results_posted"), "2020-05-07");
    let sorted: Vec<&str> = dates.iter().map(|c| s(c, "d")).collect();
    assert!(sorted.windows(2).all(|w| w[0] <= w[1]));
    // numbers filter as numbers; text that only looks numeric stays NULL
    let big = sql_json(
        lake.path(),
        "SELECT value, value_num FROM profile WHERE field = 'efficacy.value' AND value_num > 40",
    );
    assert!(!big.is_empty());
    for c in &big {
        let n = c["value_num"].as_f64().unwrap();
        assert!(n > 40.0);
        assert_eq!(s(c, "value").replace(',', "").parse::<f64>().unwrap(), n);
    }
    let p = sql_json(
        lake.path(),
        "SELECT value, value_num FROM profile WHERE field = 'efficacy.p_value' AND value = '<0.001'",
    );
    assert!(!p.is_empty());
    assert!(p.iter().all(|c| c["value_num"].is_null()), "{p:?}");
}

#[test]
fn a_study_with_results_but_no_posted_date_says_so() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixtures.join("import"), dir.path());
    std::fs::remove_file(
        dir.path()
            .join("ctgov/NCT09000001_zelnorib_ph3_second_copy.json"),
    )
    .unwrap();
    let study = dir.path().join("ctgov/NCT09000001_zelnorib_ph3.json");
    let text = std::fs::read_to_string(&study).unwrap();
    let cut = text.replace(
        "      \"resultsFirstPostDateStruct\": {\"date\": \"2026-01-20\", \"type\": \"ACTUAL\"},\n",
        "",
    );
    assert_ne!(cut, text, "the fixture states the date");
    std::fs::write(&study, cut).unwrap();
    let lake = tempfile::tempdir().unwrap();
    snapshot(lake.path(), &fixtures.join("portfolio.toml"), dir.path());
    run(lake.path(), &[]);
    let cells = sql_json(
        lake.path(),
        "SELECT asset_id, status, detail FROM profile_cells WHERE field = 'trials.results_posted'",
    );
    let z = cells
        .iter()
        .find(|c| s(c, "asset_id") == "zelnorib")
        .unwrap();
    // not "checked; none states it" while its results fill the efficacy cells
    assert_eq!(s(z, "status"), "source_empty");
    assert!(s(z, "detail").contains("holds a results section"), "{z}");
    let v = cells
        .iter()
        .find(|c| s(c, "asset_id") == "velantide")
        .unwrap();
    assert_eq!(s(v, "status"), "value", "{v}");
}

#[test]
fn real_corpus_pages_show_outcomes_side_by_side_with_a_forest_plot() {
    let Some(real) = real_sources() else { return };
    let lake = real_snapshot(&real);
    run(lake.path(), &[]);
    let page = |asset: &str, format: &str| -> String {
        succeeds(
            lake.path(),
            &["report", "--asset", asset, "--format", format],
        )
    };
    let html = page("certolizumab", "html");
    // the ASDAS-MI outcome: both arms on one row, the odds ratio in the source's direction
    let table = html
        .split("<table class=\"comparison\"")
        .skip(1)
        .find(|t| t.contains("ASDAS-MI) Response Criteria Response at Week 52 [Week 52]"))
        .expect("the ASDAS-MI outcome table");
    let table = &table[..table.find("</table>").unwrap()];
    assert!(table.contains("47.2") && table.contains("7.0"), "{table}");
    assert!(table.contains("CZP 200 mg Q2W (FAS) vs Placebo (FAS)"));
    assert!(table.contains("15.231") && table.contains("7.336–31.623"));
    // the forest plot: ratios with their intervals, inline SVG and no script
    assert!(html.contains("<svg class=\"forest\""));
    assert!(html.contains("data-estimate=\"15.231\""));
    assert!(!html.contains("<script"));
    // nivolumab's legacy XML hazard ratios reach the plot, as posted
    let niv = page("nivolumab", "html");
    assert!(
        niv.contains("Hazard Ratio (HR) 0.59 (0.43–0.81)"),
        "the OS HR"
    );
    // on every page: one mark per ratio estimate with both limits, at its value, its
    // line spanning its interval
    let marks = sql_json(
        lake.path(),
        "SELECT e.asset_id, e.value_num AS est, l.value_num AS lo, u.value_num AS hi \
         FROM profile e \
         JOIN profile l ON l.asset_id = e.asset_id AND l.endpoint = e.endpoint \
           AND coalesce(l.population, '') = coalesce(e.population, '') \
           AND coalesce(l.arm, '') = coalesce(e.arm, '') AND l.field = 'efficacy.estimate_ci_lower' \
         JOIN profile u ON u.asset_id = e.asset_id AND u.endpoint = e.endpoint \
           AND coalesce(u.population, '') = coalesce(e.population, '') \
           AND coalesce(u.arm, '') = coalesce(e.arm, '') AND u.field = 'efficacy.estimate_ci_upper' \
         WHERE e.field = 'efficacy.effect_estimate' \
           AND (lower(e.unit) LIKE '%ratio%' OR lower(e.unit) LIKE '%hazard%') \
           AND e.value_num > 0 AND l.value_num > 0 AND u.value_num >= l.value_num",
    );
    let assets: BTreeSet<String> = marks.iter().map(|m| s(m, "asset_id").to_string()).collect();
    assert!(assets.len() >= 3, "{assets:?}");
    let sel = |q: &str| scraper::Selector::parse(q).unwrap();
    for asset in &assets {
        let mut want: Vec<(f64, f64, f64)> = marks
            .iter()
            .filter(|m| s(m, "asset_id") == asset)
            .map(|m| {
                (
                    m["est"].as_f64().unwrap(),
                    m["lo"].as_f64().unwrap(),
                    m["hi"].as_f64().unwrap(),
                )
            })
            .collect();
        let dom = scraper::Html::parse_document(&page(asset, "html"));
        let attr = |e: &scraper::ElementRef, k: &str| -> f64 {
            e.value().attr(k).unwrap().parse().unwrap()
        };
        let mut got = Vec::new();
        for g in dom.select(&sel("svg.forest g.point")) {
            let (est, lo, hi) = (
                attr(&g, "data-estimate"),
                attr(&g, "data-lower"),
                attr(&g, "data-upper"),
            );
            let line = g.select(&sel("line")).next().unwrap();
            let rect = g.select(&sel("rect")).next().unwrap();
            let centre = attr(&rect, "x") + attr(&rect, "width") / 2.0;
            assert!(
                attr(&line, "x1") <= centre + 1e-6 && centre <= attr(&line, "x2") + 1e-6,
                "{asset}: the mark of {est} lies outside its interval line"
            );
            got.push((est, lo, hi));
        }
        let key = |v: &mut Vec<(f64, f64, f64)>| v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        key(&mut want);
        key(&mut got);
        assert_eq!(got, want, "{asset}");
    }
    let md = page("certolizumab", "md");
    assert!(md.contains("efficacy: outcomes, arms side by side"));
    assert!(md.contains("15\\.231"));
}

/// The valuation of an asset as the tables hold it: (field, endpoint) -> (value, label,
/// status, detail), and its claims' ids by field.
type Valuation = (
    BTreeMap<(String, String), (String, String, String, String)>,
    BTreeMap<String, BTreeSet<String>>,
);

fn valuation_of(lake: &Path, run_id: &str, asset: &str) -> Valuation {
    let cells = sql_json(
        lake,
        &format!(
            "SELECT field, concat_ws(' ', endpoint, population) AS endpoint, value, label, status, detail FROM profile_cells \
             WHERE run_id = '{run_id}' AND asset_id = '{asset}' AND section = 'valuation'"
        ),
    );
    let cells = cells
        .iter()
        .map(|c| {
            (
                (s(c, "field").to_string(), s(c, "endpoint").to_string()),
                (
                    s(c, "value").to_string(),
                    s(c, "label").to_string(),
                    s(c, "status").to_string(),
                    s(c, "detail").to_string(),
                ),
            )
        })
        .collect();
    let mut claims: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for c in sql_json(
        lake,
        &format!(
            "SELECT field, claim_id FROM claims WHERE run_id = '{run_id}' AND asset_id = '{asset}'"
        ),
    ) {
        claims
            .entry(s(&c, "field").to_string())
            .or_default()
            .insert(s(&c, "claim_id").to_string());
    }
    (cells, claims)
}

/// The data team's edit: one assumption changed in a copy of jobs/valuation.toml moves
/// exactly the cells and claims that use it, under a run id of its own; an assumption
/// taken out leaves the model `source_empty` naming it.
#[test]
fn an_edited_assumptions_file_changes_exactly_the_modeled_cells() {
    let lake = fixture_snapshot();
    let base = run(lake.path(), &[]);
    let (cells, claims) = valuation_of(lake.path(), &base, "zelnorib");
    let rnpv = &cells[&("valuation.rnpv".to_string(), String::new())];
    assert_eq!((rnpv.1.as_str(), rnpv.2.as_str()), ("modeled", "value"));
    let peak = &cells[&("valuation.peak_sales".to_string(), String::new())];
    // CML incidence 1.9 per 100,000 x 335,000,000 people x 10% x 150,000 USD
    assert_eq!(peak.0, "95475000");
    // Modeled cells are never facts, in the cells and in the claims.
    let labels = sql_json(
        lake.path(),
        "SELECT DISTINCT label FROM claims WHERE field LIKE 'valuation.%' \
         UNION SELECT DISTINCT label FROM profile_cells WHERE field LIKE 'valuation.%' AND label IS NOT NULL \
         UNION SELECT DISTINCT label FROM profile WHERE field LIKE 'valuation.%' AND value IS NOT NULL",
    );
    assert!(!labels.is_empty());
    for l in &labels {
        assert!(["modeled", "assumption"].contains(&s(l, "label")), "{l}");
    }

    let book =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("jobs/valuation.toml"))
            .unwrap();
    let edited = book.replacen(
        "[assumption.\"discount_rate\"]\nbase = 0.10",
        "[assumption.\"discount_rate\"]\nbase = 0.11",
        1,
    );
    assert_ne!(
        edited, book,
        "the shipped file has the discount rate at 0.10"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("valuation.toml");
    std::fs::write(&file, &edited).unwrap();
    let other = run(lake.path(), &["--assumptions", file.to_str().unwrap()]);
    assert_ne!(other, base, "another assumptions file is another run");
    let (cells2, claims2) = valuation_of(lake.path(), &other, "zelnorib");
    let changed: BTreeSet<&(String, String)> = cells
        .keys()
        .chain(cells2.keys())
        .filter(|k| cells.get(*k) != cells2.get(*k))
        .collect();
    // the discount rate's own cell, rNPV and its sensitivity rows (each discounted);
    // peak sales and every other assumption stay
    let expected: BTreeSet<&(String, String)> = cells
        .keys()
        .filter(|(f, e)| {
            (f == "valuation.assumption" && e == "discount_rate")
                || f == "valuation.rnpv"
                || f == "valuation.rnpv_sensitivity"
        })
        .collect();
    assert!(expected.len() >= 5, "{expected:?}");
    assert_eq!(changed, expected, "{cells:?}\n{cells2:?}");
    let r1: f64 = rnpv.0.parse().unwrap();
    let r2: f64 = cells2[&("valuation.rnpv".to_string(), String::new())]
        .0
        .parse()
        .unwrap();
    assert!(r2 < r1, "a higher discount rate lowers rNPV: {r1} -> {r2}");
    let moved: BTreeSet<&String> = claims
        .keys()
        .chain(claims2.keys())
        .filter(|f| claims.get(*f) != claims2.get(*f))
        .collect();
    assert_eq!(
        moved,
        [
            &"valuation.assumption".to_string(),
            &"valuation.rnpv".to_string(),
            &"valuation.rnpv_sensitivity".to_string(),
        ]
        .into()
    );
    // the other assets' cells did not move either
    for asset in ["quorvimab", "velantide"] {
        assert_eq!(
            valuation_of(lake.path(), &base, asset),
            valuation_of(lake.path(), &other, asset)
        );
    }

    // No population assumption: a rate per 100,000 cannot become patients.
    let start = edited.find("[assumption.\"us_population\"]").unwrap();
    let end = start + edited[start..].find("\n\n").unwrap();
    std::fs::write(&file, format!("{}{}", &edited[..start], &edited[end..])).unwrap();
    let third = run(lake.path(), &["--assumptions", file.to_str().unwrap()]);
    let (cells3, _) = valuation_of(lake.path(), &third, "zelnorib");
    for f in ["valuation.peak_sales", "valuation.rnpv"] {
        let c = &cells3[&(f.to_string(), String::new())];
        assert_eq!(c.2, "source_empty", "{f}: {c:?}");
        assert!(c.3.contains("us_population"), "{f}: {c:?}");
    }

    // The page shows the sensitivity view beside the number, labelled as a model.
    let page = succeeds(
        lake.path(),
        &[
            "report", "--run", &base, "--asset", "zelnorib", "--format", "md", "-q",
        ],
    );
    let at = page
        .find("## valuation: rNPV sensitivity (model output, not a fact; base $172.0M)")
        .unwrap_or_else(|| panic!("{page}"));
    let rows: Vec<&str> = page[at..]
        .lines()
        .skip(4)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows[0].starts_with("| peak\\_share |"), "{rows:?}");
    let html = succeeds(
        lake.path(),
        &["report", "--run", &base, "--asset", "zelnorib", "-q"],
    );
    assert!(html.contains("<figure class=\"tornado\">"), "no tornado");
    assert_eq!(html.matches("data-low=").count(), 3);
    assert!(html.contains("Model output"));

    // A file that is not the assumptions shape says so and runs nothing.
    std::fs::write(&file, "[assumption.x]\nbase = \"ten\"\n").unwrap();
    let out = dossier()
        .args(["--lake", lake.path().to_str().unwrap(), "run"])
        .args(["--assumptions", file.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("assumptions") && err.contains("valuation.toml"),
        "{err}"
    );
}

/// An analyst's per-asset value in the portfolio replaces the file's base for that asset
/// only, cited to the portfolio; an override of an assumption the file lacks says so.
#[test]
fn a_portfolio_override_is_cited_to_the_portfolio_and_moves_only_its_asset() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let text = std::fs::read_to_string(fixtures.join("portfolio.toml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let with = |extra: &str| {
        let edited = text.replacen(
            "epi = [\"https://seer.example/explorer/cml-incidence.csv\"]\n",
            &format!("epi = [\"https://seer.example/explorer/cml-incidence.csv\"]\n{extra}\n"),
            1,
        );
        assert_ne!(edited, text);
        let p = dir.path().join(format!("p{}.toml", extra.len()));
        std::fs::write(&p, edited).unwrap();
        let lake = tempfile::tempdir().unwrap();
        snapshot(lake.path(), &p, &fixtures.join("import"));
        let id = run(lake.path(), &[]);
        (lake, id)
    };
    let (lake, id) = with("valuation = { peak_share = 0.2 }");
    let (cells, _) = valuation_of(lake.path(), &id, "zelnorib");
    let peak = &cells[&("valuation.peak_sales".to_string(), String::new())];
    assert_eq!(peak.0, "190950000", "twice the shipped share's 95475000");
    let share = sql_json(
        lake.path(),
        &format!(
            "SELECT value, locator, formula FROM claims WHERE run_id = '{id}' \
             AND asset_id = 'zelnorib' AND field = 'valuation.assumption' AND endpoint = 'peak_share'"
        ),
    );
    assert_eq!(share.len(), 1, "{share:?}");
    assert_eq!(s(&share[0], "value"), "0.2");
    assert_eq!(
        s(&share[0], "locator"),
        "portfolio.toml#asset.zelnorib.valuation.peak_share"
    );
    assert!(s(&share[0], "formula").contains("portfolio override for zelnorib"));

    let (lake, id) = with("valuation = { peak_shares = 0.2 }");
    let (cells, _) = valuation_of(lake.path(), &id, "zelnorib");
    let rnpv = &cells[&("valuation.rnpv".to_string(), String::new())];
    assert_eq!(rnpv.2, "skipped", "{rnpv:?}");
    assert!(rnpv.3.contains("peak_shares"), "{rnpv:?}");
}
