//! End-to-end tests of the `dossier` binary: the real corpus in ../shared/real-sources,
//! the demo fixtures, determinism, tampering and bad input.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod common;
use common::*;

#[test]
fn real_portfolio_parses() {
    let Some(real) = real_sources() else { return };
    let p = dossier::domain::Portfolio::load(&real.join("portfolio.toml")).unwrap();
    assert_eq!(p.asset.len(), 17);
    let dupi = p
        .asset
        .iter()
        .find(|a| a.id.as_str() == "dupilumab")
        .unwrap();
    assert_eq!(dupi.sponsor_cik.as_deref(), Some("0000872589"));
}

/// Imports `import` for `portfolio` and checks that every record's text fields are
/// read back from its raw bytes alone, as a bundle's reader reads them; and that a
/// snapshot's import, which keeps only the fields it reads, gives the same records
/// with those of the fields. The number of records checked.
fn fields_read_back(portfolio: &Path, import: &Path) -> usize {
    use dossier::snapshot::import::{Texts, import_dir, import_dir_with};
    let p = dossier::domain::Portfolio::load(portfolio).unwrap();
    let all = import_dir_with(import, &p, Texts::All).unwrap();
    let snapshot = import_dir(import, &p).unwrap();
    assert_eq!(all.records.len(), snapshot.records.len());
    for (r, s) in all.records.iter().zip(&snapshot.records) {
        let back = dossier::snapshot::text::fields_of(r.media_type, &r.raw)
            .unwrap_or_else(|e| panic!("{} {}: {e}", r.family.as_str(), r.record_key));
        assert!(
            back == r.fields,
            "{} {}: {} fields read back, {} imported",
            r.family.as_str(),
            r.record_key,
            back.len(),
            r.fields.len()
        );
        let wanted = Texts::Snapshot.of(r.family);
        let kept: dossier::domain::Fields = back
            .iter()
            .filter(|f| wanted.takes(f.locator))
            .map(|f| dossier::domain::TextField {
                locator: f.locator.to_string(),
                kind: f.kind,
                text: f.text.to_string(),
            })
            .collect();
        assert!(
            kept == s.fields,
            "{} {}: {} fields wanted, {} kept",
            r.family.as_str(),
            r.record_key,
            kept.len(),
            s.fields.len()
        );
        let rest = dossier::domain::Record {
            fields: s.fields.clone(),
            ..r.clone()
        };
        assert!(rest == *s, "{} {}", r.family.as_str(), r.record_key);
    }
    all.records.len()
}

#[test]
fn every_record_s_fields_are_read_back_from_its_raw_bytes() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let n = fields_read_back(&fixtures.join("portfolio.toml"), &fixtures.join("import"));
    assert!(n > 10, "{n} fixture records");
    let dir = tempfile::tempdir().unwrap();
    let opts = dossier_testkit::synthetic::Options {
        assets: 24,
        cross_family: true,
        revisions: true,
        ..Default::default()
    };
    dossier_testkit::synthetic::write_corpus(dir.path(), &opts).unwrap();
    let n = fields_read_back(
        &dir.path().join("portfolio.toml"),
        &dir.path().join("import"),
    );
    assert!(n > 24, "{n} synthetic records");
    let Some(real) = real_sources() else { return };
    let n = fields_read_back(&real.join("portfolio.toml"), &real_import(&real));
    assert!(n > 20, "{n} real records");
}

#[test]
fn real_corpus_imports_with_the_expected_records_and_statuses() {
    let Some(real) = real_sources() else { return };
    let lake = tempfile::tempdir().unwrap();
    let (id, stderr) = snapshot(
        lake.path(),
        &real.join("portfolio.toml"),
        &real_import(&real),
    );
    let m = manifest(lake.path(), &id);

    // Every file parsed: the only files not placed are the two SEER tables, which name no URL.
    let diag = diagnostics(lake.path(), &id);
    let unplaced: Vec<&str> = diag["unplaced"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        unplaced,
        vec![
            "epi/seer_explorer_site_catalog.json",
            "epi/seer_explorer_survival_site97_CML.json"
        ]
    );
    assert!(stderr.contains("no source URL"), "{stderr}");

    let sources = m["sources"].as_array().unwrap();
    let by_key =
        |key: &str| -> Vec<&Value> { sources.iter().filter(|s| s["record_key"] == key).collect() };
    // The ACTT-1 search page yields its study, with the study's own bytes.
    let actt = by_key("NCT04280705");
    assert_eq!(actt.len(), 1);
    assert_eq!(
        actt[0]["url"],
        "https://clinicaltrials.gov/study/NCT04280705"
    );
    assert_eq!(actt[0]["cutoff_date"], "2025-03-21");
    // Two data versions of NCT02552212 are two records with different hashes.
    let czp = by_key("NCT02552212");
    assert_eq!(czp.len(), 2);
    assert_ne!(czp[0]["content_sha256"], czp[1]["content_sha256"]);
    let mut cutoffs: Vec<&str> = czp
        .iter()
        .map(|s| s["cutoff_date"].as_str().unwrap())
        .collect();
    cutoffs.sort();
    assert_eq!(cutoffs, vec!["2023-12-12", "2024-01-03"]);
    // Keys for every family in the corpus.
    for key in [
        "608d4f0d-b19f-46d3-749a-7159aa5f933d",
        "NDA215866",
        "CIK0001640147",
        "CIK0000078003-submissions",
        "CIK0000078003-submissions-001",
        "22663011",
        "NCT01642004",
    ] {
        assert_eq!(by_key(key).len(), 1, "{key}");
    }
    let fam = |asset: &str, family: &str| {
        m["assets"][asset]["families"][family]["status"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(fam("get73", "ctgov"), "not_yet_published");
    assert_eq!(fam("certolizumab", "ctgov"), "ok");
    assert_eq!(fam("trametinib", "pubmed"), "ok");
    assert_eq!(fam("trametinib", "ctgov"), "source_empty");
    assert_eq!(fam("dupilumab", "sec"), "source_empty");
    assert_eq!(fam("adalimumab", "sec"), "skipped");
    assert_eq!(fam("adalimumab", "fda_label"), "ok");
    // Records that belong to no asset stay out of every bundle.
    for a in m["assets"].as_object().unwrap().values() {
        for member in a["members"].as_array().unwrap() {
            let sid = member["source_id"].as_str().unwrap();
            assert!(
                !sid.contains("CIK0001640147") && !sid.contains("NCT05594173"),
                "{sid}"
            );
        }
    }
}

#[test]
fn raw_bytes_in_bundles_match_the_source_slices() {
    let Some(real) = real_sources() else { return };
    let lake = real_snapshot(&real);
    let rows = sql_json(
        lake.path(),
        "SELECT record_key, content_sha256, raw_bytes FROM records WHERE asset_id = 'certolizumab' ORDER BY cutoff_date",
    );
    assert_eq!(rows.len(), 2);
    // Single-study files: the record is the whole file, byte for byte.
    let old = std::fs::read(
        real_import(&real).join("ctgov/NCT02552212_certolizumab_ucb_ph3_v2023-12-12.json"),
    )
    .unwrap();
    assert_eq!(rows[0]["content_sha256"], dossier::domain::sha256_hex(&old));
    assert_eq!(rows[0]["raw_bytes"], old.len());
    // Text leaves keep Unicode and CT.gov's markdown escapes verbatim.
    let hits = sql_json(
        lake.path(),
        "SELECT count(*) AS n FROM text_fields WHERE asset_id = 'certolizumab' AND text LIKE '%\\>=%'",
    );
    assert!(hits[0]["n"].as_u64().unwrap() > 0, "{hits:?}");
}

#[test]
fn competitor_rows_are_trimmed_and_the_sources_object_keeps_every_record_whole() {
    let Some(real) = real_sources() else { return };
    let lake = real_snapshot(&real);
    // Tirzepatide and semaglutide share the GLP-1 class: each rides in the other's bundle.
    let comp = sql_json(
        lake.path(),
        "SELECT record_key, raw_bytes, raw = CAST('' AS BYTEA) AS empty FROM records WHERE asset_id = 'tirzepatide' AND role = 'competitor' ORDER BY record_key",
    );
    let keys: Vec<&str> = comp
        .iter()
        .map(|r| r["record_key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, vec!["NDA213051", "NDA215256"]);
    for r in &comp {
        assert_eq!(r["empty"], true, "competitor rows carry no raw bytes: {r}");
        assert!(r["raw_bytes"].as_u64().unwrap() > 1000);
    }
    let trimmed = sql_json(
        lake.path(),
        "SELECT count(*) AS n FROM text_fields WHERE asset_id = 'tirzepatide' AND source_id LIKE 'drugsfda:NDA213051%' AND locator LIKE '/submissions/%'",
    );
    assert!(
        trimmed[0]["n"].as_u64().unwrap() > 0,
        "approval history kept for competitors"
    );
    // Every record of the catalog, including those of no asset, is whole in `sources`.
    let all = sql_json(
        lake.path(),
        "SELECT count(*) AS n, sum(CASE WHEN encode(sha256(raw), 'hex') = content_sha256 THEN 1 ELSE 0 END) AS whole FROM sources",
    );
    let cat = sql_json(lake.path(), "SELECT count(*) AS n FROM catalog");
    assert_eq!(all[0]["n"], cat[0]["n"]);
    assert_eq!(all[0]["whole"], cat[0]["n"]);
    let snow = sql_json(
        lake.path(),
        "SELECT title FROM sources WHERE record_key = 'CIK0001640147'",
    );
    assert_eq!(snow[0]["title"], "SNOWFLAKE INC.");
}

#[test]
fn snapshots_are_deterministic_across_threads_and_file_order() {
    let Some(real) = real_sources() else { return };
    let portfolio = real.join("portfolio.toml");
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let out_a = dossier()
        .env("RAYON_NUM_THREADS", "1")
        .args([
            "--lake",
            a.path().to_str().unwrap(),
            "snapshot",
            "--portfolio",
        ])
        .arg(&portfolio)
        .arg("--import")
        .arg(real_import(&real))
        .output()
        .unwrap();
    // Same files, copied into a new tree in another order, many threads.
    let shuffled = tempfile::tempdir().unwrap();
    let mut fams: Vec<_> = std::fs::read_dir(real_import(&real))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    fams.reverse();
    for f in fams {
        copy_dir(&f, &shuffled.path().join(f.file_name().unwrap()));
    }
    let out_b = dossier()
        .env("RAYON_NUM_THREADS", "4")
        .args([
            "--lake",
            b.path().to_str().unwrap(),
            "snapshot",
            "--portfolio",
        ])
        .arg(&portfolio)
        .arg("--import")
        .arg(shuffled.path())
        .output()
        .unwrap();
    assert!(out_a.status.success() && out_b.status.success());
    assert_eq!(out_a.stdout, out_b.stdout, "snapshot ids differ");
    assert_eq!(
        bundle_files(a.path()),
        bundle_files(b.path()),
        "bundles differ"
    );
}

#[test]
fn changing_one_record_changes_only_the_bundles_that_hold_it() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let work = tempfile::tempdir().unwrap();
    copy_dir(&fixtures, work.path());
    let (l1, l2) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let p = work.path().join("portfolio.toml");
    let (id1, _) = snapshot(l1.path(), &p, &work.path().join("import"));
    let page = work
        .path()
        .join("import/press/halcyon-2026-03-02-zelnorib.html");
    let text = std::fs::read_to_string(&page)
        .unwrap()
        .replace("67.5%", "68.5%");
    std::fs::write(&page, text).unwrap();
    let (id2, _) = snapshot(l2.path(), &p, &work.path().join("import"));
    assert_ne!(id1, id2);
    let (m1, m2) = (manifest(l1.path(), &id1), manifest(l2.path(), &id2));
    for asset in ["zelnorib", "quorvimab", "velantide"] {
        let same = m1["assets"][asset]["bundle"] == m2["assets"][asset]["bundle"];
        assert_eq!(same, asset != "zelnorib", "{asset}");
    }
}

#[test]
fn demo_runs_offline_and_covers_every_family() {
    let lake = tempfile::tempdir().unwrap();
    let dir = lake.path().join("demo");
    let out = dossier()
        .args(["--lake", dir.to_str().unwrap(), "demo"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("What to look at next"));
    let rows = sql_json(
        &dir,
        "SELECT family, count(*) AS n FROM catalog GROUP BY family ORDER BY family",
    );
    let families: Vec<&str> = rows.iter().map(|r| r["family"].as_str().unwrap()).collect();
    assert_eq!(
        families,
        vec![
            "ctgov",
            "drugsfda",
            "epi",
            "fda_label",
            "icd10",
            "press",
            "pubmed",
            "sec"
        ]
    );
    let st = sql_json(
        &dir,
        "SELECT status FROM asset_families WHERE asset_id = 'quorvimab' AND family = 'ctgov'",
    );
    assert_eq!(st[0]["status"], "not_yet_published");
    // Competitor selection: the other kinase-inhibitor label rides along in zelnorib's bundle.
    let comp = sql_json(
        &dir,
        "SELECT title FROM records WHERE asset_id = 'zelnorib' AND role = 'competitor'",
    );
    assert_eq!(comp.len(), 1);
    assert_eq!(comp[0]["title"], "FICTINIB");
    // Hostile text in a press page is stored as text, scripts never become text.
    let hostile = sql_json(
        &dir,
        "SELECT text FROM text_fields WHERE family = 'press' AND text LIKE '%alert%'",
    );
    assert_eq!(hostile.len(), 1);
    assert!(
        hostile[0]["text"]
            .as_str()
            .unwrap()
            .contains("<script>alert(\"xss\")</script>")
    );
    let injected = sql_json(
        &dir,
        "SELECT text FROM text_fields WHERE text LIKE '%injected%'",
    );
    assert!(injected.is_empty());
    // The demo also reasons: every asset has profile cells, with values and statuses.
    let cells = sql_json(
        &dir,
        "SELECT asset_id, count(*) AS n, sum(CASE WHEN status = 'value' THEN 1 ELSE 0 END) AS v FROM profile_cells GROUP BY asset_id ORDER BY asset_id",
    );
    assert_eq!(cells.len(), 3, "{cells:?}");
    assert!(cells.iter().all(|c| c["v"].as_i64().unwrap() > 0));
    // ... and writes the analyst's pages: the index links every asset's page
    let index = std::fs::read_to_string(dir.join("report/index.html")).unwrap();
    for a in ["quorvimab", "velantide", "zelnorib"] {
        assert!(index.contains(&format!("href=\"{a}.html\"")), "{index}");
        let page = std::fs::read_to_string(dir.join(format!("report/{a}.html"))).unwrap();
        assert!(page.contains("data-status=\"value\""), "{a}");
    }
    // A second demo into the same lake starts fresh and gives the same id.
    let again = dossier()
        .args(["--lake", dir.to_str().unwrap(), "demo"])
        .output()
        .unwrap();
    assert_eq!(again.stdout, out.stdout);
}

#[test]
fn a_tampered_bundle_is_refused_with_exit_2_naming_the_object() {
    let lake = fixture_snapshot();
    let (name, bytes) = bundle_files(lake.path()).into_iter().next().unwrap();
    let path = lake
        .path()
        .join("objects/sha256")
        .join(&name[..2])
        .join(&name);
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap(); // truncated
    let out = sql(lake.path(), &["SELECT count(*) FROM records"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&name) && err.contains("corrupt"), "{err}");
}

/// The canonical bytes are written in pieces side by side; they must be what
/// `serde_json` writes for the whole manifest, whatever is set or empty, or the ids of
/// every snapshot would change.
#[test]
fn a_manifest_written_in_pieces_is_the_manifest_written_whole() {
    use dossier::lake::manifest::{CappedSearch, SnapshotManifest};
    let lake = fixture_snapshot();
    let id = std::fs::read_to_string(lake.path().join("snapshots/latest")).unwrap();
    let id = id.trim();
    let stored = std::fs::read(lake.path().join("snapshots").join(format!("{id}.json"))).unwrap();
    let fixture: SnapshotManifest = serde_json::from_slice(&stored).unwrap();
    assert!(!fixture.fetch_failures.is_empty() && fixture.competitors_bundle.is_some());
    assert_eq!(fixture.canonical(), stored);
    let whole = |m: &SnapshotManifest| serde_json::to_vec(m).unwrap();
    // more assets than a window of pieces holds, with names that need escaping
    let mut many = fixture.clone();
    let entry = many.assets.values().next().unwrap().clone();
    for i in 0..600 {
        many.assets
            .insert(format!("asset \"{i}\" é\n"), entry.clone());
    }
    many.competitors_bundle = None;
    many.capped_searches.push(CappedSearch {
        asset: "x".into(),
        family: dossier::domain::Family::Pubmed,
        url: "https://x.example/?q=1".into(),
        fetched: 3,
        total: None,
        cap: "pubmed_max = 3".into(),
    });
    let mut empty = fixture.clone();
    empty.assets.clear();
    empty.sources.clear();
    empty.fetch_failures.clear();
    let mut one = fixture.clone();
    one.assets
        .retain(|k, _| k == fixture.assets.keys().next().unwrap());
    for m in [&fixture, &many, &empty, &one] {
        let canonical = m.canonical();
        assert_eq!(
            String::from_utf8_lossy(&canonical),
            String::from_utf8_lossy(&whole(m))
        );
        assert_eq!(
            &serde_json::from_slice::<SnapshotManifest>(&canonical).unwrap(),
            m
        );
    }
}

/// A manifest is read as it streams in and hashed on the way: one altered byte (a run, a
/// verify) or a truncated file is refused with exit 2 naming it, and nothing is written.
#[test]
fn a_tampered_manifest_is_refused_by_run_and_verify() {
    let lake = fixture_snapshot();
    let id = std::fs::read_to_string(lake.path().join("snapshots/latest")).unwrap();
    let path = lake.path().join(format!("snapshots/{}.json", id.trim()));
    let good = std::fs::read(&path).unwrap();
    let mut altered = good.clone();
    let at = altered.len() / 2;
    altered[at] = if altered[at] == b'a' { b'b' } else { b'a' };
    let claims = lake.path().join("claims.jsonl");
    std::fs::write(&claims, "").unwrap();
    for bytes in [altered, good[..good.len() / 2].to_vec()] {
        std::fs::write(&path, &bytes).unwrap();
        let out = dossier()
            .args(["--lake", lake.path().to_str().unwrap(), "run", "--all"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(id.trim()) && err.contains("corrupt"), "{err}");
        assert!(!lake.path().join("runs").exists());
        let out = verify_cmd(lake.path(), &claims).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("corrupt"));
    }
}

#[test]
fn sql_formats_csv_and_table() {
    let lake = fixture_snapshot();
    let q = "SELECT DISTINCT record_key, cutoff_date FROM catalog WHERE family = 'ctgov' ORDER BY record_key";
    let csv = sql(lake.path(), &[q, "--format", "csv"]);
    assert_eq!(
        String::from_utf8_lossy(&csv.stdout),
        "record_key,cutoff_date\nNCT09000001,2026-02-13\nNCT09000002,2026-05-22\nNCT09000003,2026-02-27\n"
    );
    let table = sql(lake.path(), &[q]);
    assert!(String::from_utf8_lossy(&table.stdout).contains("| NCT09000003 | 2026-02-27  |"));
    let bad = sql(lake.path(), &["SELECT nope FROM catalog"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// One way to break an input tree.
enum Edit {
    Write(&'static str, &'static str),
    WriteOwned(&'static str, String),
    Mkdir(&'static str),
    AppendPortfolio(&'static str),
    ReplacePortfolio(&'static str),
}

impl Edit {
    fn apply(&self, dir: &Path) {
        let portfolio = dir.join("portfolio.toml");
        match self {
            Edit::Write(rel, text) => std::fs::write(dir.join(rel), text).unwrap(),
            Edit::WriteOwned(rel, text) => std::fs::write(dir.join(rel), text).unwrap(),
            Edit::Mkdir(rel) => std::fs::create_dir_all(dir.join(rel)).unwrap(),
            Edit::AppendPortfolio(text) => {
                let s = std::fs::read_to_string(&portfolio).unwrap() + text;
                std::fs::write(portfolio, s).unwrap();
            }
            Edit::ReplacePortfolio(text) => std::fs::write(portfolio, text).unwrap(),
        }
    }
}

/// Each case: a broken import or portfolio must exit 2 with one line naming the
/// file and field, and leave no manifest behind.
#[test]
fn bad_input_fails_cleanly_and_writes_nothing() {
    use Edit::*;
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let cases = [
        (
            "malformed json",
            Write("import/ctgov/bad.json", "{\"protocolSection\": {"),
            "ctgov/bad.json",
        ),
        (
            "a file name with a newline",
            Write("import/ctgov/bad\nname.json", "{\"protocolSection\": {"),
            "bad\\nname.json",
        ),
        (
            "malformed xml",
            Write("import/pubmed/bad.xml", "<PubmedArticleSet><PubmedArticle>"),
            "pubmed/bad.xml",
        ),
        (
            "unknown family",
            Mkdir("import/tweets"),
            "unknown family folder \"tweets\"",
        ),
        (
            "record without key",
            Write(
                "import/fda_label/nokey.json",
                r#"{"results":[{"openfda":{}}]}"#,
            ),
            "fda_label/nokey.json: field `results[0].set_id`",
        ),
        (
            "study without nct id",
            Write(
                "import/ctgov/nokey.json",
                r#"{"protocolSection":{"identificationModule":{}}}"#,
            ),
            "protocolSection.identificationModule.nctId",
        ),
        (
            "asset id with slash",
            AppendPortfolio("[[asset]]\nid = \"a/b\"\nnames = [\"x\"]\n"),
            "invalid asset id",
        ),
        (
            "asset id with dots",
            AppendPortfolio("[[asset]]\nid = \"..\"\nnames = [\"x\"]\n"),
            "invalid asset id",
        ),
        (
            "asset id upper case",
            AppendPortfolio("[[asset]]\nid = \"Zel\"\nnames = [\"x\"]\n"),
            "invalid asset id",
        ),
        (
            "duplicate asset id",
            AppendPortfolio("[[asset]]\nid = \"zelnorib\"\nnames = [\"x\"]\n"),
            "duplicate asset id",
        ),
        (
            "empty portfolio",
            ReplacePortfolio("# nothing\n"),
            "no [[asset]] entries",
        ),
        (
            "bad sidecar",
            Write(
                "import/epi/cml_incidence_seer_style.csv.source.toml",
                "url = 3\n",
            ),
            "sidecar",
        ),
    ];
    // What a sidecar or the portfolio names becomes a catalog URL, the citation
    // allowlist: only absolute http(s) URLs of sane length, and real dates.
    const SIDECAR: &str = "import/epi/cml_incidence_seer_style.csv.source.toml";
    let long = format!("url = \"https://seer.example/{}\"\n", "a".repeat(1 << 20));
    let meta_cases = [
        (
            "javascript url",
            Write(SIDECAR, "url = \"javascript:alert(1)\"\n"),
            "not an http(s) URL",
        ),
        (
            "file url",
            Write(SIDECAR, "url = \"file:///etc/passwd\"\n"),
            "not an http(s) URL",
        ),
        (
            "data url",
            Write(SIDECAR, "url = \"data:text/html,<b>x</b>\"\n"),
            "not an http(s) URL",
        ),
        (
            "empty url",
            Write(SIDECAR, "url = \"\"\n"),
            "not an absolute URL",
        ),
        (
            "relative url",
            Write(SIDECAR, "url = \"epi/table.csv\"\n"),
            "not an absolute URL",
        ),
        (
            "url with a newline",
            Write(SIDECAR, "url = \"https://seer.example/a\\nb\"\n"),
            "control characters",
        ),
        (
            "huge url",
            WriteOwned(SIDECAR, long),
            "longer than 2048 bytes",
        ),
        (
            "retrieved_at in words",
            Write(
                SIDECAR,
                "url = \"https://seer.example/t.csv\"\nretrieved_at = \"yesterday\"\n",
            ),
            "`retrieved_at`",
        ),
        (
            "impossible cutoff",
            Write(
                SIDECAR,
                "url = \"https://seer.example/t.csv\"\ncutoff_date = \"2026-13-45\"\n",
            ),
            "`cutoff_date`",
        ),
        (
            "portfolio source url",
            AppendPortfolio("[[source]]\nfile = \"press/x.html\"\nurl = \"ftp://x.example/a\"\n"),
            "source[0]",
        ),
        (
            "portfolio press url",
            AppendPortfolio(
                "[[asset]]\nid = \"other\"\nnames = [\"x\"]\npress = [\"javascript:alert(1)\"]\n",
            ),
            "`press`",
        ),
    ];
    for (name, edit, want) in cases.into_iter().chain(meta_cases) {
        let work = tempfile::tempdir().unwrap();
        copy_dir(&fixtures, work.path());
        edit.apply(work.path());
        let lake = work.path().join("lake");
        let out = dossier()
            .args(["--lake", lake.to_str().unwrap(), "snapshot", "--portfolio"])
            .arg(work.path().join("portfolio.toml"))
            .arg("--import")
            .arg(work.path().join("import"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(want), "{name}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{name}: not one line: {err}");
        assert!(
            !lake.join("snapshots").exists(),
            "{name}: a manifest was written"
        );
    }
}

#[test]
fn a_lake_that_cannot_be_opened_is_exit_2() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let file = tempfile::NamedTempFile::new().unwrap();
    for lake in ["ftp://example.org/lake", file.path().to_str().unwrap()] {
        let out = dossier()
            .args(["--lake", lake, "snapshot", "--portfolio"])
            .arg(fixtures.join("portfolio.toml"))
            .arg("--import")
            .arg(fixtures.join("import"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("opening lake"),
            "{lake}"
        );
    }
}

/// A failed import leaves no empty lake behind (an existing directory stays), and the
/// analyst views on a lake without a run, or a misspelled table, say what to do.
#[test]
fn failed_commands_say_what_to_do_and_leave_nothing_behind() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let dir = tempfile::tempdir().unwrap();
    let failed_import = |lake: &Path| {
        let out = dossier()
            .args(["--lake", lake.to_str().unwrap(), "snapshot", "--portfolio"])
            .arg(fixtures.join("portfolio.toml"))
            .args(["--import", "/nonexistent/import"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
    };
    let fresh = dir.path().join("lake");
    failed_import(&fresh);
    assert!(!fresh.exists(), "a failed import left a lake behind");
    let kept = dir.path().join("kept");
    std::fs::create_dir(&kept).unwrap();
    failed_import(&kept);
    assert!(kept.is_dir(), "an existing directory is the user's");

    let lake = fixture_snapshot();
    let out = sql(lake.path(), &["SELECT count(*) FROM profile"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no finished run: run `dossier run` first"),
        "{err}"
    );
    assert!(!err.contains("datafusion.public"), "{err}");
    let out = sql(lake.path(), &["SELECT * FROM profile_cell"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no table or view named profile_cell (this session has: ")
            && err.contains("catalog"),
        "{err}"
    );
    assert_eq!(
        err.matches("no table or view").count(),
        1,
        "said once: {err}"
    );
}

/// Each error a new user meets says, on one line and with exit 2, what to do next:
/// the command or option that fixes it, or the valid names beside the wrong one.
#[test]
fn each_error_is_one_line_that_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nowhere");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let demo = dir.path().join("demo");
    let out = dossier()
        .args(["--quiet", "--lake", demo.to_str().unwrap(), "demo"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stderr.is_empty(), "--quiet quiets the demo");
    let l = |p: &Path| p.to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![l(&missing), "run".into(), "--all".into()],
            "no such directory (check --lake",
        ),
        (
            vec![l(&empty), "run".into(), "--all".into()],
            "has no snapshot yet: run `dossier --lake",
        ),
        (
            vec![l(&demo), "run".into(), "--assets".into(), "nope".into()],
            "asset \"nope\" is not in the snapshot; it has quorvimab, velantide, zelnorib",
        ),
        (
            vec![l(&demo), "report".into(), "--asset".into(), "nope".into()],
            "its assets are quorvimab, velantide, zelnorib",
        ),
        (
            vec![l(&demo), "sql".into(), "SELEC 1".into()],
            "query failed: sql parser error: Expected: an SQL statement, found: SELEC",
        ),
        (
            vec![l(&demo), "sql".into(), "SELECT nope FROM profile".into()],
            "No field named nope. Valid fields are profile.asset_id",
        ),
        (
            vec![l(&demo), "sql".into(), "SELECT * FROM profiles".into()],
            "no table or view named profiles (this session has: ",
        ),
    ];
    for (args, says) in cases {
        let out = dossier().arg("--lake").args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "{args:?}: one line: {err}"
        );
        // said once: no wrapper repeats its cause
        let head: String = says.chars().take(24).collect();
        assert_eq!(err.matches(head.as_str()).count(), 1, "{args:?}: {err}");
    }
    // the demo's help names the lake it writes
    let help = dossier().args(["demo", "--help"]).output().unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("./demo-lake for `demo`"));
}

/// A failed request recorded in the import directory (`fetch_failures.json`, as a live
/// night saves it) makes its family `fetch_failed` with the error, in the manifest, the
/// catalog and the cells; one naming an asset outside the portfolio is refused.
#[test]
fn recorded_fetch_failures_are_imported_as_failed_families() {
    let lake = fixture_snapshot();
    let fams = sql_json(
        lake.path(),
        "SELECT asset_id, family, status, detail FROM asset_families WHERE status = 'fetch_failed'",
    );
    assert_eq!(fams.len(), 1, "{fams:?}");
    assert_eq!(
        (s(&fams[0], "asset_id"), s(&fams[0], "family")),
        ("velantide", "fda_label")
    );
    assert!(s(&fams[0], "detail").contains("HTTP 503"), "{fams:?}");
    let failed = sql_json(
        lake.path(),
        "SELECT url, error FROM catalog WHERE fetch_status = 'fetch_failed'",
    );
    assert_eq!(failed.len(), 1);
    assert!(s(&failed[0], "url").starts_with("https://api.fda.gov/drug/label.json"));

    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let work = tempfile::tempdir().unwrap();
    copy_dir(&fixtures, work.path());
    std::fs::write(
        work.path().join("import/fetch_failures.json"),
        r#"[{"asset": "nobody", "family": "sec", "url": "https://x.example/", "error": "timeout"}]"#,
    )
    .unwrap();
    let out = dossier()
        .args([
            "--lake",
            work.path().join("lake").to_str().unwrap(),
            "snapshot",
        ])
        .arg("--portfolio")
        .arg(work.path().join("portfolio.toml"))
        .arg("--import")
        .arg(work.path().join("import"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("fetch_failures.json: asset \"nobody\" is not in the portfolio"),
        "{err}"
    );
}

/// Links are never followed and only regular files are read: a link out of the import
/// directory, a link loop and a named pipe are skipped and said, and the snapshot is the
/// one the plain fixtures give (the same id).
#[test]
fn links_and_pipes_in_the_import_directory_are_skipped_and_said() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let plain = tempfile::tempdir().unwrap();
    let (plain_id, _) = snapshot(
        plain.path(),
        &fixtures.join("portfolio.toml"),
        &fixtures.join("import"),
    );
    let work = tempfile::tempdir().unwrap();
    copy_dir(&fixtures, work.path());
    let import = work.path().join("import");
    std::os::unix::fs::symlink("/etc/passwd", import.join("press/passwd.txt")).unwrap();
    std::fs::write(
        import.join("press/passwd.txt.source.toml"),
        "url = \"https://press.example/passwd\"\n",
    )
    .unwrap();
    std::os::unix::fs::symlink("..", import.join("press/loop")).unwrap();
    std::os::unix::fs::symlink(import.join("ctgov"), work.path().join("elsewhere")).unwrap();
    std::os::unix::fs::symlink(work.path().join("elsewhere"), import.join("pubmed/more")).unwrap();
    let fifo = import.join("epi/pipe.csv");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success(),
        "mkfifo"
    );
    let lake = work.path().join("lake");
    let out = dossier()
        .args(["--lake", lake.to_str().unwrap(), "snapshot", "--portfolio"])
        .arg(work.path().join("portfolio.toml"))
        .arg("--import")
        .arg(&import)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    for name in [
        "press/passwd.txt",
        "press/loop",
        "pubmed/more",
        "epi/pipe.csv",
    ] {
        assert!(
            err.lines()
                .any(|l| l.contains("skipped") && l.contains(name)),
            "{name} not said: {err}"
        );
    }
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), plain_id);
    let rows = sql_json(
        &lake,
        "SELECT COUNT(*) AS n FROM catalog WHERE url LIKE '%passwd%'",
    );
    assert_eq!(rows[0]["n"], 0);
}

/// Every option that takes a snapshot or run id checks it the same way, before the id
/// can name an object.
#[test]
fn every_id_option_is_validated_the_same_way() {
    let lake = tempfile::tempdir().unwrap();
    let lake = lake.path().to_str().unwrap();
    let claims = tempfile::NamedTempFile::new().unwrap();
    let claims = claims.path().to_str().unwrap();
    let cases: [&[&str]; 8] = [
        &["sql", "SELECT 1", "--snapshot", "../../etc"],
        &["sql", "SELECT 1", "--run", "../r"],
        &["serve", "--addr", "127.0.0.1:0", "--snapshot", "../x"],
        &["verify", "--snapshot", "ABC", "--claims", claims],
        &["distill", "--snapshot", "../x", "--query", "q"],
        &["run", "--snapshot", "/etc/passwd"],
        &["report", "--run", "../x"],
        &["report", "--run", "R1"],
    ];
    for args in cases {
        let out = dossier()
            .args(["--lake", lake])
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("--snapshot") || err.contains("run id"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn concurrent_snapshots_into_one_lake_agree_and_leave_it_readable() {
    let lake = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let spawn = || {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("dossier"))
            .args([
                "--quiet",
                "--lake",
                lake.path().to_str().unwrap(),
                "snapshot",
                "--portfolio",
            ])
            .arg(fixtures.join("portfolio.toml"))
            .arg("--import")
            .arg(fixtures.join("import"))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let children: Vec<_> = (0..4).map(|_| spawn()).collect();
    let ids: Vec<String> = children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            assert!(out.status.success());
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        })
        .collect();
    assert!(ids.windows(2).all(|w| w[0] == w[1]), "{ids:?}");
    // The lake reads back whole: every bundle verifies.
    let n = sql_json(
        lake.path(),
        "SELECT count(DISTINCT asset_id) AS n FROM records",
    );
    assert_eq!(n[0]["n"], 3);
}

#[test]
fn a_snapshot_interrupted_before_its_manifest_is_invisible_and_a_rerun_completes_it() {
    let lake = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let (id, _) = snapshot(
        lake.path(),
        &fixtures.join("portfolio.toml"),
        &fixtures.join("import"),
    );
    // Simulate a crash after the objects were written: drop the manifest and pointer.
    std::fs::remove_file(lake.path().join(format!("snapshots/{id}.json"))).unwrap();
    std::fs::remove_file(lake.path().join("snapshots/latest")).unwrap();
    let out = sql(lake.path(), &["SELECT count(*) FROM records"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "no snapshot is visible without its manifest"
    );
    let (again, _) = snapshot(
        lake.path(),
        &fixtures.join("portfolio.toml"),
        &fixtures.join("import"),
    );
    assert_eq!(again, id);
    assert_eq!(
        sql_json(
            lake.path(),
            "SELECT count(DISTINCT asset_id) AS n FROM records"
        )[0]["n"],
        3
    );
}

#[test]
fn a_seer_table_with_a_sidecar_is_placed_and_its_inner_json_is_searchable() {
    let Some(real) = real_sources() else { return };
    let work = tempfile::tempdir().unwrap();
    copy_dir(&real_import(&real), &work.path().join("import"));
    std::fs::write(
        work.path().join("import/epi/seer_explorer_survival_site97_CML.json.source.toml"),
        "url = \"https://seer.cancer.gov/statistics-network/explorer/application.html?site=97\"\nretrieved_at = \"2026-08-11T00:00:00Z\"\n",
    )
    .unwrap();
    let mut portfolio = std::fs::read_to_string(real.join("portfolio.toml")).unwrap();
    portfolio = portfolio.replace(
        "names = [\"imatinib\", \"imatinib mesylate\", \"Gleevec\"]",
        "names = [\"imatinib\", \"imatinib mesylate\", \"Gleevec\"]\nepi = [\"https://seer.cancer.gov/statistics-network/explorer/application.html?site=97\"]",
    );
    std::fs::write(work.path().join("portfolio.toml"), portfolio).unwrap();
    let lake = work.path().join("lake");
    let (id, _) = snapshot(
        &lake,
        &work.path().join("portfolio.toml"),
        &work.path().join("import"),
    );
    let m = manifest(&lake, &id);
    assert_eq!(m["assets"]["imatinib"]["families"]["epi"]["status"], "ok");
    assert_eq!(
        diagnostics(&lake, &id)["unplaced"]
            .as_array()
            .unwrap()
            .len(),
        1,
        "only the site catalog stays unplaced"
    );
    // The payload is a JSON string holding JSON: its inner values are fields of their own.
    let hit = sql_json(
        &lake,
        "SELECT text FROM text_fields WHERE asset_id = 'imatinib' AND locator = '!json/data/5_1_1_1_97/data_series/0/1'",
    );
    assert_eq!(hit.len(), 1);
    assert_eq!(hit[0]["text"], "17.987433");
}

/// The adversarial table of the gates issue, over the real corpus: every fabricated or
/// altered claim is rejected by the right gate and every true claim is accepted.
#[test]
fn verify_rejects_adversarial_claims_and_accepts_true_ones() {
    let Some(real) = real_sources() else { return };
    let lake = real_snapshot(&real);
    let pfs = "Median progression-free survival was 4.8 months in the trametinib group and 1.5 months in the chemotherapy group";
    let ms = "/resultsSection/outcomeMeasuresModule/outcomeMeasures/0/classes/0/categories/0/measurements";
    let claim = |id: &str,
                 asset: &str,
                 value: &str,
                 source: &str,
                 quote: &str,
                 locator: Option<String>| {
        serde_json::json!({"id": id, "asset": asset, "field": "efficacy", "value": value, "label": "fact",
                           "source": source, "quote": quote, "locator": locator})
    };
    let lines = vec![
        // True claims.
        claim(
            "true-pubmed",
            "trametinib",
            "4.8 months",
            "PMID:22663011",
            pfs,
            None,
        ),
        claim(
            "true-url",
            "trametinib",
            "1.5 months",
            "https://pubmed.ncbi.nlm.nih.gov/22663011/",
            pfs,
            None,
        ),
        claim(
            "true-ctgov",
            "certolizumab",
            "47.2%",
            "NCT02552212",
            "47.2",
            Some(format!("{ms}/1/value")),
        ),
        claim(
            "true-label",
            "adalimumab",
            "boxed warning: serious infections and malignancy",
            "608d4f0d-b19f-46d3-749a-7159aa5f933d",
            "WARNING: SERIOUS INFECTIONS AND MALIGNANCY",
            Some("/boxed_warning/0".into()),
        ),
        // Adversarial claims, each with the gate that must catch it.
        claim(
            "fabricated-number",
            "trametinib",
            "5.8 months",
            "PMID:22663011",
            pfs,
            None,
        ),
        claim(
            "digit-swap",
            "trametinib",
            "0.54",
            "PMID:22663011",
            "hazard ratio for disease progression or death in the trametinib group, 0.45",
            None,
        ),
        claim(
            "seven-vs-seventy",
            "certolizumab",
            "70%",
            "NCT02552212",
            "7.0",
            Some(format!("{ms}/0/value")),
        ),
        claim(
            "moved-arm",
            "certolizumab",
            "47.2%",
            "NCT02552212",
            "47.2",
            Some(format!("{ms}/0/value")),
        ),
        claim(
            "one-char",
            "trametinib",
            "4.8 months",
            "PMID:22663011",
            &pfs.replace("survival", "surviva1"),
            None,
        ),
        claim(
            "spliced",
            "trametinib",
            "4.8",
            "PMID:22663011",
            "overall survival was a secondary end point. Median progression-free survival was 4.8",
            None,
        ),
        claim(
            "wrong-record",
            "trametinib",
            "4.8 months",
            "NCT04280705",
            pfs,
            None,
        ),
        claim(
            "invented-nct",
            "trametinib",
            "4.8 months",
            "NCT99999999",
            pfs,
            None,
        ),
        claim(
            "url-not-in-catalog",
            "trametinib",
            "4.8 months",
            "https://pubmed.ncbi.nlm.nih.gov/99999999/",
            pfs,
            None,
        ),
        claim(
            "number-not-in-quote",
            "trametinib",
            "81%",
            "PMID:22663011",
            pfs,
            None,
        ),
        claim(
            "whitespace",
            "trametinib",
            "4.8 months",
            "PMID:22663011",
            &pfs.replace("was 4.8", "was  4.8"),
            None,
        ),
        claim(
            "bad-locator",
            "certolizumab",
            "47.2%",
            "NCT02552212",
            "47.2",
            Some("/no/such/field".into()),
        ),
        serde_json::json!({"id": "fact-no-quote", "asset": "trametinib", "field": "f", "value": "4.8", "label": "fact", "source": "PMID:22663011"}),
        serde_json::json!({"id": "derived-ok", "asset": "trametinib", "field": "f", "value": "3.3 months", "label": "derived",
                           "inputs": ["true-pubmed", "true-url"], "formula": "4.8 - 1.5"}),
        serde_json::json!({"id": "derived-bad-input", "asset": "trametinib", "field": "f", "value": "1.1", "label": "derived",
                           "inputs": ["true-pubmed", "fabricated-number"], "formula": "5.8 - 4.8"}),
        serde_json::json!({"id": "modeled-ok", "asset": "trametinib", "field": "peak_sales", "value": "$1.2B", "label": "modeled"}),
        serde_json::json!({"id": "unknown-asset", "asset": "nosuchdrug", "field": "f", "value": "4.8", "label": "fact", "source": "PMID:22663011", "quote": pfs}),
    ];
    let mut text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    text.push_str("{this is not json\n");
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), text).unwrap();
    let out = verify(lake.path(), file.path());
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let verdicts: Vec<Value> = json_lines(&out.stdout);
    assert_eq!(
        verdicts.len(),
        lines.len() + 1,
        "one verdict per line, in order"
    );
    let expect = [
        ("true-pubmed", None),
        ("true-url", None),
        ("true-ctgov", None),
        ("true-label", None),
        ("fabricated-number", Some("number")),
        ("digit-swap", Some("number")),
        ("seven-vs-seventy", Some("number")),
        ("moved-arm", Some("locator")),
        ("one-char", Some("quote")),
        ("spliced", Some("quote")),
        ("wrong-record", Some("quote")),
        ("invented-nct", Some("citation")),
        ("url-not-in-catalog", Some("citation")),
        ("number-not-in-quote", Some("number")),
        ("whitespace", Some("quote")),
        ("bad-locator", Some("locator")),
        ("fact-no-quote", Some("label")),
        ("derived-ok", None),
        ("derived-bad-input", Some("label")),
        ("modeled-ok", None),
        ("unknown-asset", Some("malformed")),
    ];
    for (v, (id, gate)) in verdicts.iter().zip(expect) {
        assert_eq!(v["id"], id);
        match gate {
            None => assert_eq!(v["verdict"], "accepted", "{v}"),
            Some(g) => {
                assert_eq!(v["verdict"], "rejected", "{v}");
                let gates: Vec<&str> = v["gates_failed"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_str().unwrap())
                    .collect();
                assert!(gates.contains(&g), "{id}: wanted {g}, got {v}");
                assert!(!v["reason"].as_str().unwrap().is_empty());
            }
        }
    }
    assert_eq!(
        verdicts[0]["url"],
        "https://pubmed.ncbi.nlm.nih.gov/22663011/"
    );
    // The CT.gov bare label resolves to the latest version of the study that holds the quote.
    assert_eq!(
        verdicts[2]["source_id"], "ctgov:NCT02552212@688b819da94ff2dc",
        "the 2024-01-03 version"
    );
    let last = verdicts.last().unwrap();
    assert_eq!(last["gates_failed"][0], "malformed");
}

#[test]
fn distill_returns_exact_spans_under_the_token_budget() {
    let Some(real) = real_sources() else { return };
    let lake = real_snapshot(&real);
    let out = dossier()
        .args([
            "--lake",
            lake.path().to_str().unwrap(),
            "distill",
            "--assets",
            "trametinib,adalimumab",
        ])
        .args([
            "--query",
            "median progression-free survival hazard ratio",
            "--budget",
            "400",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let picks: Vec<Value> = json_lines(&out.stdout);
    let tram: Vec<&Value> = picks
        .iter()
        .filter(|p| p["asset"] == "trametinib")
        .collect();
    assert!(!tram.is_empty());
    assert!(
        tram[0]["text"]
            .as_str()
            .unwrap()
            .contains("progression-free survival"),
        "{}",
        tram[0]
    );
    for asset in ["trametinib", "adalimumab"] {
        let used: u64 = picks
            .iter()
            .filter(|p| p["asset"] == asset)
            .map(|p| p["tokens"].as_u64().unwrap())
            .sum();
        assert!(used <= 400, "{asset}: {used} tokens");
    }
    for p in &picks {
        // Each span is the exact byte range of its field, and its id is the hash of it.
        let q = format!(
            "SELECT text FROM text_fields WHERE asset_id = '{}' AND source_id = '{}' AND locator = '{}'",
            p["asset"].as_str().unwrap(),
            p["source_id"].as_str().unwrap(),
            p["locator"].as_str().unwrap().replace('\'', "''")
        );
        let field = sql_json(lake.path(), &q);
        let text = field[0]["text"].as_str().unwrap();
        let (s, e) = (
            p["start"].as_u64().unwrap() as usize,
            p["end"].as_u64().unwrap() as usize,
        );
        assert_eq!(&text[s..e], p["text"].as_str().unwrap());
        let id = dossier::run::distill::spans::span_id(
            p["source_id"].as_str().unwrap(),
            p["locator"].as_str().unwrap(),
            s,
            e,
            &text[s..e],
        );
        assert_eq!(p["span_id"], id.as_str());
    }
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(
        summary.contains("assets=2") && summary.contains("reduction="),
        "{summary}"
    );
}

/// The snapshot id hashes content: the same records under other folder and file names
/// give the same id, and what differs (where an unplaced table lay, an unread link) is in
/// the diagnostics beside the manifest, not in it.
#[test]
fn the_snapshot_id_ignores_where_files_lay_and_the_diagnostics_say_it() {
    let fixtures = || Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let work = tempfile::tempdir().unwrap();
    let table = br#"{"rows": [{"year": 2020, "rate": "1.9"}]}"#;
    let a = work.path().join("a/import");
    copy_dir(&fixtures().join("import"), &a);
    std::fs::write(a.join("epi/table-one.json"), table).unwrap();
    let b = work.path().join("b/elsewhere/renamed");
    copy_dir(&fixtures().join("import"), &b);
    std::fs::write(b.join("epi/other-name.json"), table).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(b.join("epi/other-name.json"), b.join("epi/link.json")).unwrap();
    let portfolio = fixtures().join("portfolio.toml");
    let (lake_a, lake_b) = (work.path().join("lake-a"), work.path().join("lake-b"));
    let (id_a, _) = snapshot(&lake_a, &portfolio, &a);
    let (id_b, stderr_b) = snapshot(&lake_b, &portfolio, &b);
    assert_eq!(id_a, id_b, "the same content gave two snapshot ids");
    assert_eq!(
        std::fs::read(lake_a.join(format!("snapshots/{id_a}.json"))).unwrap(),
        std::fs::read(lake_b.join(format!("snapshots/{id_b}.json"))).unwrap()
    );
    let files = |lake: &Path, id: &str| -> Vec<String> {
        diagnostics(lake, id)["unplaced"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["file"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(files(&lake_a, &id_a), vec!["epi/table-one.json"]);
    assert_eq!(files(&lake_b, &id_b), vec!["epi/other-name.json"]);
    #[cfg(unix)]
    {
        let skipped = diagnostics(&lake_b, &id_b)["skipped"].to_string();
        assert!(skipped.contains("link.json"), "{skipped}");
        assert!(stderr_b.contains("link.json"), "{stderr_b}");
    }
}

/// A rerun of the same snapshot changes nothing, conflicting cells included: the demo's
/// two copies of zelnorib's study disagree on imatinib's MMR rate (48.1 vs 49.0), and
/// that cell's two rows pair by value, not crosswise into two invented changes.
#[test]
fn a_rerun_with_a_conflicting_cell_is_no_change() {
    let lake = fixture_snapshot();
    succeeds(
        lake.path(),
        &["run", "--snapshot", "latest", "--run-id", "first"],
    );
    succeeds(
        lake.path(),
        &["run", "--snapshot", "latest", "--run-id", "second"],
    );
    let conflicting = sql_json(
        lake.path(),
        "SELECT count(*) AS n FROM profile_cells WHERE run_id = 'second' AND status = 'conflicting' AND field = 'efficacy.value'",
    );
    assert!(
        conflicting[0]["n"].as_u64().unwrap() >= 2,
        "{conflicting:?}"
    );
    let out = dossier()
        .args([
            "--lake",
            lake.path().to_str().unwrap(),
            "diff",
            "--from",
            "first",
            "--to",
            "second",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let table = sql_json(
        lake.path(),
        "SELECT count(*) AS n FROM cell_changes WHERE run_id = 'second'",
    );
    assert_eq!(table[0]["n"], 0);
}

/// Two nights: zelnorib's study posts a new version in which one number moved, and
/// quorvimab's study posts its results. `dossier diff` and the second run's
/// `cell_changes` say exactly that (value 67.5 -> 68.1 with both sources; efficacy cells
/// `not_yet_published` -> values); the snapshot diff names the replaced record versions;
/// a run against itself is no change (exit 0).
#[test]
fn diffs_and_cell_changes_say_what_changed_overnight() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let work = tempfile::tempdir().unwrap();
    copy_dir(&fixtures, work.path());
    let lake = work.path().join("lake");
    let portfolio = work.path().join("portfolio.toml");
    let import = work.path().join("import");
    // one copy of the zelnorib study, so the night's edits are the only changes
    std::fs::remove_file(import.join("ctgov/NCT09000001_zelnorib_ph3_second_copy.json")).unwrap();
    let night = |run: &str| {
        snapshot(&lake, &portfolio, &import);
        succeeds(&lake, &["run", "--snapshot", "latest", "--run-id", run]);
    };
    night("night1");

    // the next night's records
    let zel = import.join("ctgov/NCT09000001_zelnorib_ph3.json");
    let text = std::fs::read_to_string(&zel).unwrap();
    assert_eq!(text.matches("\"67.5\"").count(), 1);
    std::fs::write(&zel, text.replace("\"67.5\"", "\"68.1\"")).unwrap();
    let z: Value = serde_json::from_str(&std::fs::read_to_string(&zel).unwrap()).unwrap();
    let qpath = import.join("ctgov/NCT09000002_quorvimab_ph2_noresults.json");
    let mut q: Value = serde_json::from_str(&std::fs::read_to_string(&qpath).unwrap()).unwrap();
    let mut results = z["resultsSection"].clone();
    let om = &mut results["outcomeMeasuresModule"]["outcomeMeasures"][0];
    om["title"] = "EASI-75 Response at Week 16".into();
    om["timeFrame"] = "Week 16".into();
    om["groups"][0]["title"] = "Quorvimab".into();
    om["groups"][1]["title"] = "Placebo".into();
    q["resultsSection"] = results;
    q["hasResults"] = true.into();
    std::fs::write(&qpath, serde_json::to_vec(&q).unwrap()).unwrap();
    // and Drugs@FDA names zelnorib's applicant anew: one competing sponsor goes, another comes
    let fda = import.join("drugsfda/zelnorib_NDA299001.json");
    let text = std::fs::read_to_string(&fda).unwrap();
    assert!(text.contains("HALCYON THERAPEUTICS"));
    std::fs::write(
        &fda,
        text.replace("HALCYON THERAPEUTICS", "HALCYON BIOPHARMA"),
    )
    .unwrap();
    night("night2");

    let diff = |args: &[&str]| {
        dossier()
            .args(["--lake", lake.to_str().unwrap(), "diff"])
            .args(args)
            .output()
            .unwrap()
    };
    let out = diff(&["--from", "night1", "--to", "night2", "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = json_lines(&out.stdout);
    let moved: Vec<&Value> = rows
        .iter()
        .filter(|r| r["asset_id"] == "zelnorib" && r["change"] == "value_changed")
        .collect();
    assert!(
        moved
            .iter()
            .any(|r| r["old_value"] == "67.5" && r["new_value"] == "68.1"),
        "{rows:?}"
    );
    for r in &moved {
        assert!(r["old_quote"].as_str().is_some() && r["new_quote"].as_str().is_some());
        assert_ne!(
            r["old_source_id"], r["new_source_id"],
            "a new record version"
        );
    }
    let posted: Vec<&Value> = rows
        .iter()
        .filter(|r| r["asset_id"] == "quorvimab" && r["change"] == "status_changed")
        .collect();
    assert!(
        posted
            .iter()
            .any(|r| r["old_status"] == "not_yet_published" && r["new_status"] == "value"),
        "{rows:?}"
    );
    let conflict = |change: &str, other: &str| {
        rows.iter().any(|r| {
            r["asset_id"] == "zelnorib"
                && r["field"] == "identity.sponsor"
                && r["change"] == change
                && r["old_value"] == other
        })
    };
    assert!(conflict("conflict_opened", "HALCYON BIOPHARMA"), "{rows:?}");
    // night1's "HALCYON THERAPEUTICS" agreed with "Halcyon Therapeutics" (a name in
    // capitals is the same name), so there was no conflict to resolve
    assert!(
        !rows
            .iter()
            .any(|r| r["field"] == "identity.sponsor" && r["change"] == "conflict_resolved"),
        "{rows:?}"
    );
    // velantide's records did not change: nothing of it is listed
    assert!(
        rows.iter().all(|r| r["asset_id"] != "velantide"),
        "{rows:?}"
    );
    // the second run wrote the same changes into cell_changes, against night1
    let table = sql_json(
        &lake,
        "SELECT count(*) AS n, min(baseline_run_id) AS b FROM cell_changes WHERE run_id = 'night2'",
    );
    assert_eq!(table[0]["n"], rows.len());
    assert_eq!(table[0]["b"], "night1");
    // and the `changes` view shows them for the latest run
    let view = sql_json(&lake, "SELECT count(*) AS n FROM changes");
    assert_eq!(view[0]["n"], rows.len());
    // `previous` and `latest` are the two nights; the digest lists the moved value
    let md = diff(&["--format", "md"]);
    assert_eq!(md.status.code(), Some(1));
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(md.contains("run night1 to run night2"), "{md}");
    assert!(md.contains("## zelnorib") && md.contains("68\\.1"), "{md}");
    assert!(md.contains("now cite a newer version"), "{md}");
    // the report marks the moved value on zelnorib's page and lists the night's changes
    // first on the index
    let out = dossier()
        .args([
            "--lake",
            lake.to_str().unwrap(),
            "report",
            "--format",
            "md",
            "--out",
        ])
        .arg(work.path().join("report"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(work.path().join("report/zelnorib.md")).unwrap();
    assert!(
        page.contains("changed: 67\\.5 percentage of participants \\(number\\) → 68\\.1")
            && page.contains("since run night1"),
        "{page}"
    );
    let index = std::fs::read_to_string(work.path().join("report/index.md")).unwrap();
    let changed = index
        .find("## Changed since run night1")
        .expect("no changes section");
    assert!(
        changed < index.find("| Asset | Sponsor").unwrap(),
        "{index}"
    );
    assert!(index.contains("not yet published → "), "{index}");
    // the nightly digest job writes both diffs into one Markdown file
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_dossier"))
        .parent()
        .unwrap()
        .to_owned();
    let digest = work.path().join("digest.md");
    let out = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("jobs/nightly-digest.sh"))
        .env(
            "PATH",
            format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap()),
        )
        .env("DOSSIER_LAKE", &lake)
        .env("OUT", &digest)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&digest).unwrap();
    assert!(
        text.contains("# Changes from run night1 to run night2"),
        "{text}"
    );
    assert!(text.contains("# Changes from snapshot "), "{text}");
    assert!(text.contains("record_replaced"), "{text}");
    // a run against itself: no change, exit 0
    let same = diff(&["--from", "night2", "--to", "night2", "--format", "json"]);
    assert_eq!(same.status.code(), Some(0));
    assert!(json_lines(&same.stdout).is_empty());
    // the snapshots: both studies replaced by new versions, nothing else
    let snaps = diff(&[
        "--from",
        "snapshot:previous",
        "--to",
        "snapshot:latest",
        "--format",
        "json",
    ]);
    assert_eq!(
        snaps.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&snaps.stderr)
    );
    let snaps = json_lines(&snaps.stdout);
    let replaced: std::collections::BTreeSet<(String, String)> = snaps
        .iter()
        .filter(|r| r["change"] == "record_replaced" && r["family"] == "ctgov")
        .map(|r| {
            (
                r["asset_id"].as_str().unwrap().to_string(),
                r["record_key"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        replaced.contains(&("zelnorib".into(), "NCT09000001".into())),
        "{snaps:?}"
    );
    assert!(
        replaced.contains(&("quorvimab".into(), "NCT09000002".into())),
        "{snaps:?}"
    );
    // a run compared with a snapshot is an error
    assert_eq!(
        diff(&["--from", "night1", "--to", "snapshot:latest"])
            .status
            .code(),
        Some(2)
    );
}

/// The rules run once per chunk of assets: with a chunk per asset the run writes the same
/// cells and conflicts as with one chunk for the whole portfolio, and a rerun finds every
/// chunk's rules step in the journal.
#[test]
fn rules_in_chunks_give_the_same_cells_and_resume() {
    let lake = fixture_snapshot();
    let run = |id: &str, chunk: &str| {
        let out = dossier()
            .env("DOSSIER_RULES_CHUNK_ROWS", chunk)
            .args(["--lake", lake.path().to_str().unwrap()])
            .args(["run", "--snapshot", "latest", "--run-id", id])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    run("whole", "1000000000");
    let first = run("chunked", "1");
    assert!(!first.contains("and the rules"), "{first}");
    let cols = "asset_id, section, field, endpoint, population, arm, value, unit, status, detail, \
                claim_id, source_id, quote, dedup_key";
    for (table, cols) in [
        ("profile_cells", cols),
        (
            "conflicts",
            "asset_id, field, endpoint, population, arm, winner_value, other_value, resolution",
        ),
    ] {
        // dedup_key hashes the run id: compare it through the other columns only
        let cols = cols.replace(", dedup_key", "");
        let rows = |id: &str| {
            sql_json(
                lake.path(),
                &format!("SELECT {cols} FROM {table} WHERE run_id = '{id}' ORDER BY {cols}"),
            )
        };
        let (whole, chunked) = (rows("whole"), rows("chunked"));
        assert!(!whole.is_empty(), "{table} is empty");
        assert_eq!(whole, chunked, "{table}");
    }
    let conflicts = sql_json(
        lake.path(),
        "SELECT count(*) AS n FROM conflicts WHERE run_id = 'chunked'",
    );
    assert!(conflicts[0]["n"].as_u64().unwrap() > 0, "{conflicts:?}");
    let again = run("chunked", "1");
    assert!(again.contains("and the rules"), "{again}");
    let bad = dossier()
        .env("DOSSIER_RULES_CHUNK_ROWS", "0")
        .args(["--lake", lake.path().to_str().unwrap()])
        .args(["run", "--snapshot", "latest", "--run-id", "bad"])
        .output()
        .unwrap();
    assert_ne!(bad.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("DOSSIER_RULES_CHUNK_ROWS"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}
