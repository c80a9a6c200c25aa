//! Analyst access: the views of `dossier sql` and its interactive prompt, the reports (in
//! headless Chromium when it is installed; `.ci/run` installs it and requires it), the
//! Flight SQL server with the ADBC driver, and the lake read by DuckDB and pyarrow (the
//! Python packages are installed and required by `.ci/run`; elsewhere these tests say
//! they skip).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

mod common;
use common::*;

/// `dossier run` on the lake's latest snapshot under a run id.
fn run(lake: &Path, run_id: &str) {
    let out = succeeds(lake, &["run", "--run-id", run_id]);
    assert_eq!(out.trim(), run_id);
}

/// A planted script, and an image whose error handler would mark the page.
const PLANTED: &str = "<script>document.title='PWNED'</script><img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">";

/// The fixtures with hostile markup planted in two source texts that become cells (an
/// outcome title and the label's adverse-reactions sentence) and a later data version of
/// the zelnorib trial that corrects one arm's value (so the run has a conflict).
fn hostile_fixtures() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    copy_dir(&fixtures.join("import"), &dir.path().join("import"));
    let import = dir.path().join("import");
    let edit = |path: &Path, f: &dyn Fn(&mut Value)| {
        let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        f(&mut v);
        std::fs::write(path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    };
    let label = import.join("fda_label/zelvanta_label.json");
    edit(&label, &|v| {
        let ar = &mut v["results"][0]["adverse_reactions"][0];
        let text = ar
            .as_str()
            .unwrap()
            .replace("were rash, nausea", &format!("were rash, {PLANTED} nausea"));
        *ar = Value::String(text);
    });
    let trial = import.join("ctgov/NCT09000001_zelnorib_ph3.json");
    edit(&trial, &|v| {
        let om = &mut v["resultsSection"]["outcomeMeasuresModule"]["outcomeMeasures"][0];
        om["title"] = Value::String(format!("{} {PLANTED}", om["title"].as_str().unwrap()));
    });
    let later = import.join("ctgov/NCT09000001_zelnorib_ph3_v2.json");
    std::fs::copy(&trial, &later).unwrap();
    edit(&later, &|v| {
        v["derivedSection"]["miscInfoModule"]["versionHolder"] = "2026-03-20".into();
        let m = &mut v["resultsSection"]["outcomeMeasuresModule"]["outcomeMeasures"][0]["classes"]
            [0]["categories"][0]["measurements"][0];
        assert_eq!(m["value"], "67.5");
        m["value"] = "68.1".into();
    });
    std::fs::copy(
        fixtures.join("portfolio.toml"),
        dir.path().join("portfolio.toml"),
    )
    .unwrap();
    let lake = dir.path().join("lake");
    snapshot(&lake, &dir.path().join("portfolio.toml"), &import);
    run(&lake, "hostile");
    (dir, lake)
}

#[test]
fn views_show_the_latest_run_unless_one_is_pinned() {
    let lake = fixture_snapshot();
    run(lake.path(), "first");
    run(lake.path(), "second");
    let runs = sql_json(
        lake.path(),
        "SELECT run_id, assets FROM runs ORDER BY finished_at",
    );
    assert_eq!(runs.len(), 2);
    assert_eq!(s(&runs[1], "run_id"), "second");
    assert_eq!(runs[0]["assets"], 3);
    let shown = |args: &[&str]| {
        let out = sql(lake.path(), args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        json_lines(&out.stdout)
    };
    let q = "SELECT DISTINCT run_id FROM profile";
    assert_eq!(
        shown(&[q, "--format", "json"]),
        vec![serde_json::json!({"run_id": "second"})]
    );
    assert_eq!(
        shown(&[q, "--format", "json", "--run", "first"]),
        vec![serde_json::json!({"run_id": "first"})]
    );
    let err = sql(lake.path(), &[q, "--run", "nope"]);
    assert_eq!(err.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&err.stderr).contains("run nope has no manifest"));

    // one asset's profile is one short query, with its source titles beside the citations
    let profile = sql_json(
        lake.path(),
        "SELECT * FROM profile WHERE asset_id = 'zelnorib'",
    );
    let cells = sql_json(
        lake.path(),
        "SELECT * FROM profile_cells WHERE asset_id = 'zelnorib' AND run_id = 'second'",
    );
    assert_eq!(profile.len(), cells.len());
    let cited: Vec<&Value> = profile
        .iter()
        .filter(|c| !s(c, "source_id").is_empty())
        .collect();
    assert!(cited.len() > 10);
    for c in cited {
        assert!(!s(c, "source_title").is_empty(), "{c}");
    }
    let efficacy = sql_json(
        lake.path(),
        "SELECT * FROM efficacy WHERE asset_id = 'zelnorib'",
    );
    assert_eq!(
        efficacy.len(),
        cells
            .iter()
            .filter(|c| s(c, "section") == "efficacy")
            .count()
    );
    let counts = sql_json(
        lake.path(),
        "SELECT SUM(cells) AS n FROM status_counts WHERE asset_id = 'zelnorib'",
    );
    assert_eq!(counts[0]["n"], cells.len());

    // several statements in one invocation; the session's own view lives as long as it
    let out = sql(
        lake.path(),
        &[
            "CREATE VIEW mine AS SELECT asset_id FROM profile WHERE status = 'value'; SELECT COUNT(DISTINCT asset_id) AS n FROM mine",
            "--format",
            "json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json_lines(&out.stdout), vec![serde_json::json!({"n": 3})]);
}

#[test]
fn the_prompt_runs_multi_line_statements_lists_tables_and_keeps_history() {
    let lake = fixture_snapshot();
    run(lake.path(), "r1");
    let home = tempfile::tempdir().unwrap();
    let history = home.path().join("history");
    let bin = assert_cmd::cargo::cargo_bin("dossier");
    let mut cmd = Command::new(bin);
    cmd.args(["--lake", lake.path().to_str().unwrap(), "sql"])
        .env("DOSSIER_HISTORY", &history)
        .env("TERM", "dumb")
        .env_remove("DOSSIER_LAKE");
    let mut p = rexpect::session::spawn_command(cmd, Some(30_000)).unwrap();
    p.exp_string("Views show run r1.").unwrap();
    p.exp_string("dossier> ").unwrap();
    p.send_line("\\d").unwrap();
    // the first listing has the bundle tables too
    let listing = p.exp_string("dossier> ").unwrap();
    for t in ["profile_conflicts", "records", "text_fields", "sources"] {
        assert!(listing.contains(t), "{t}: {listing}");
    }
    p.send_line("\\d efficacy").unwrap();
    p.exp_string("view efficacy").unwrap();
    p.exp_string("endpoint").unwrap();
    p.exp_string("dossier> ").unwrap();
    p.send_line("\\format csv").unwrap();
    p.exp_string("dossier> ").unwrap();
    p.send_line("SELECT asset_id, COUNT(*) AS n").unwrap();
    p.exp_string("...> ").unwrap();
    p.send_line("FROM profile WHERE status = 'value' -- the sourced cells;")
        .unwrap();
    p.exp_string("...> ").unwrap();
    p.send_line("GROUP BY asset_id ORDER BY asset_id;").unwrap();
    p.exp_string("asset_id,n").unwrap();
    p.exp_string("(3 rows)").unwrap();
    // an error is reported once and the prompt goes on
    p.send_line("SELECT no_such_column FROM profile;").unwrap();
    p.exp_string("error:").unwrap();
    let said = p.exp_string("dossier> ").unwrap();
    assert_eq!(said.matches("no_such_column").count(), 1, "{said}");
    assert_eq!(said.matches("Valid fields are").count(), 1, "{said}");
    p.send_line("SELEC 1;").unwrap();
    let said = p.exp_string("dossier> ").unwrap();
    assert_eq!(said.matches("sql parser error").count(), 1, "{said}");
    assert_eq!(said.matches("found: SELEC").count(), 1, "{said}");
    // a command in the middle of a statement runs, and the statement goes on
    p.send_line("SELECT 41 + 1").unwrap();
    p.exp_string("...> ").unwrap();
    p.send_line("\\run").unwrap();
    p.exp_string("views show run r1").unwrap();
    p.exp_string("the unfinished statement is kept").unwrap();
    p.exp_string("...> ").unwrap();
    p.send_line("AS answer;").unwrap();
    p.exp_string("answer").unwrap();
    p.exp_string("42").unwrap();
    p.exp_string("(1 row)").unwrap();
    p.send_line("SELECT COUNT(*) AS records FROM records;")
        .unwrap();
    p.exp_string("(1 row)").unwrap();
    p.send_line("\\q").unwrap();
    p.exp_eof().unwrap();
    let saved = std::fs::read_to_string(&history).unwrap();
    assert!(
        saved.contains("GROUP BY asset_id ORDER BY asset_id;"),
        "{saved}"
    );
    assert!(saved.contains("\\format csv"), "{saved}");
}

/// The pages of a run's report, written by `dossier report --out`.
fn report_dir(lake: &Path, format: &str) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    succeeds(lake, &["report", "--format", format, "--out", dir]);
    out
}

#[test]
fn reports_show_every_cell_with_its_status_and_both_sides_of_a_conflict() {
    let (_dir, lake) = hostile_fixtures();
    let cells = sql_json(&lake, "SELECT * FROM profile WHERE asset_id = 'zelnorib'");
    let conflicts = sql_json(&lake, "SELECT * FROM profile_conflicts");
    let corrected: Vec<&Value> = conflicts
        .iter()
        .filter(|c| s(c, "field") == "efficacy.value" && s(c, "other_family") == "ctgov")
        .collect();
    assert_eq!(corrected.len(), 1, "{conflicts:?}");
    assert_eq!(
        (
            s(corrected[0], "winner_value"),
            s(corrected[0], "other_value"),
            s(corrected[0], "resolution")
        ),
        ("68.1", "67.5", "later_cutoff")
    );

    let md = report_dir(&lake, "md");
    let page = std::fs::read_to_string(md.path().join("zelnorib.md")).unwrap();
    let rows: Vec<&str> = page.lines().filter(|l| l.starts_with("| ")).collect();
    // the cell tables, leaving out the outcome tables that restate efficacy cells
    let mut in_outcomes = false;
    let (mut cell_rows, mut outcome_rows) = (Vec::new(), Vec::new());
    let mut in_sensitivity = false;
    for l in page.lines() {
        if l.starts_with("## ") {
            in_outcomes = l.contains("outcomes, arms side by side");
            in_sensitivity = l.contains("rNPV sensitivity (model output, not a fact");
        }
        if l.starts_with("| ") && !in_sensitivity {
            if in_outcomes {
                outcome_rows.push(l)
            } else {
                cell_rows.push(l)
            }
        }
    }
    let table_rows = cell_rows
        .iter()
        .filter(|l| !l.starts_with("| Field") && !l.starts_with("| Cell"))
        .count();
    assert!(page.contains("## efficacy: outcomes, arms side by side"));
    assert_eq!(table_rows, cells.len() + conflicts.len());
    // a planted tag is text, and never breaks a table row
    assert!(!page.contains("<script>") && !page.contains("<img"));
    assert!(page.contains("&lt;script&gt;"));
    let pipes = |row: &str| {
        row.match_indices('|')
            .filter(|(i, _)| !row[..*i].ends_with('\\'))
            .count()
    };
    for row in &cell_rows {
        assert!(pipes(row) == 6 || pipes(row) == 5, "{row}");
    }
    // an outcome table's rows have as many columns as its header
    let mut header = 0;
    for row in &outcome_rows {
        if row.starts_with("| Population") {
            header = pipes(row);
        } else {
            assert_eq!(pipes(row), header, "{row}");
        }
    }
    assert!(!outcome_rows.is_empty() && rows.len() > cell_rows.len());
    assert!(page.contains("the later data cutoff wins"));
    assert!(page.contains("**68\\.1 percentage") && page.contains("**67\\.5 percentage"));
    let index = std::fs::read_to_string(md.path().join("index.md")).unwrap();
    for a in ["zelnorib", "quorvimab", "velantide"] {
        assert!(index.contains(&format!("(<{a}.md>)")), "{index}");
    }

    // one asset to stdout gives the same page as the directory
    let one = dossier()
        .args([
            "--lake",
            lake.to_str().unwrap(),
            "report",
            "--run",
            "hostile",
        ])
        .args(["--asset", "zelnorib", "--format", "md"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&one.stdout), page);
    let bad = dossier()
        .args([
            "--lake",
            lake.to_str().unwrap(),
            "report",
            "--asset",
            "../x",
        ])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// Headless Chromium, when installed (`DOSSIER_CHROMIUM` or /usr/bin/chromium);
/// `DOSSIER_REQUIRE_BROWSER=1` (set by .ci/run) makes its absence a failure.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("DOSSIER_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var("DOSSIER_REQUIRE_BROWSER").is_err(),
        "DOSSIER_REQUIRE_BROWSER is set but {} does not exist",
        path.display()
    );
    eprintln!("skipped: no Chromium at {}", path.display());
    None
}

fn headless(browser: &Path, profile: &Path, args: &[&str], page: &Path) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=3000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn reports_in_a_real_browser_show_badges_and_catalog_links_and_run_no_planted_script() {
    let Some(browser) = chromium() else { return };
    let (_dir, lake) = hostile_fixtures();
    let html = report_dir(&lake, "html");
    let profile = tempfile::tempdir().unwrap();
    let catalog: BTreeSet<String> = sql_json(&lake, "SELECT url FROM catalog")
        .iter()
        .map(|r| s(r, "url").to_string())
        .collect();
    let cells = sql_json(&lake, "SELECT * FROM profile WHERE asset_id = 'zelnorib'");
    let words = [
        "Value",
        "Sources disagree",
        "Not yet published",
        "Nothing in source",
        "Skipped",
        "Fetch failed",
    ];

    for page in ["zelnorib", "index"] {
        let path = html.path().join(format!("{page}.html"));
        let out = headless(&browser, profile.path(), &["--dump-dom"], &path);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dom = scraper::Html::parse_document(&String::from_utf8_lossy(&out.stdout));
        let sel = |q: &str| scraper::Selector::parse(q).unwrap();
        // the DOM after the browser ran the page: no script element, no handler fired
        assert_eq!(dom.select(&sel("script")).count(), 0);
        assert_eq!(dom.select(&sel("img")).count(), 0);
        assert_eq!(dom.select(&sel("[data-pwned]")).count(), 0);
        let title: String = dom.select(&sel("title")).next().unwrap().text().collect();
        assert!(!title.contains("PWNED"), "{title}");
        // every outbound link is a catalog URL
        let mut outbound = 0;
        for a in dom.select(&sel("a[href]")) {
            let href = a.value().attr("href").unwrap();
            if href.starts_with('#') || href.ends_with(".html") {
                continue;
            }
            outbound += 1;
            assert!(catalog.contains(href), "{href} is not a catalog URL");
        }
        let badges: Vec<String> = dom
            .select(&sel(".badge[data-status]"))
            .map(|b| b.text().collect())
            .collect();
        assert!(
            badges.iter().all(|b| words.contains(&b.as_str())),
            "{badges:?}"
        );
        if page == "index" {
            assert_eq!(dom.select(&sel("table.assets tbody tr")).count(), 3);
            continue;
        }
        // one row and one status badge per cell, in the analyst's words, as in the table
        let rows: Vec<_> = dom.select(&sel("tr.cell")).collect();
        assert_eq!(rows.len(), cells.len());
        let mut by_status: BTreeMap<String, usize> = BTreeMap::new();
        for r in &rows {
            *by_status
                .entry(r.value().attr("data-status").unwrap().into())
                .or_default() += 1;
        }
        let mut expected: BTreeMap<String, usize> = BTreeMap::new();
        for c in &cells {
            *expected.entry(s(c, "status").into()).or_default() += 1;
        }
        assert_eq!(by_status, expected);
        assert!(
            badges.iter().any(|b| b == "Value")
                && badges
                    .iter()
                    .any(|b| b == "Skipped" || b == "Nothing in source"),
            "{badges:?}"
        );
        let labelled = cells
            .iter()
            .filter(|c| !matches!(s(c, "label"), "" | "fact"))
            .count();
        assert!(labelled > 0);
        assert_eq!(dom.select(&sel(".badge.label")).count(), labelled);
        // a cited cell links to its source; the quote is on the page
        let cited = cells.iter().filter(|c| !s(c, "url").is_empty()).count();
        assert!(
            outbound >= cited,
            "{outbound} links for {cited} cited cells"
        );
        let text: String = dom.root_element().text().collect();
        assert!(text.contains(PLANTED), "the planted markup shows as text");
        assert!(text.contains("The most common adverse reactions"));
        // both sides of the conflict, each with its source
        let sides: Vec<String> = dom
            .select(&sel(".conflict .side .value"))
            .map(|v| v.text().collect())
            .collect();
        let conflicts = sql_json(&lake, "SELECT * FROM profile_conflicts");
        assert_eq!(dom.select(&sel(".conflict")).count(), conflicts.len());
        assert_eq!(sides.len(), 2 * conflicts.len());
        let unit = "percentage of participants (number)";
        let pair = sides
            .windows(2)
            .any(|w| w[0] == format!("68.1 {unit}") && w[1] == format!("67.5 {unit}"));
        assert!(pair, "{sides:?}");
        assert_eq!(
            dom.select(&sel(".conflict .side a.cite")).count(),
            sides.len()
        );
        assert!(
            dom.select(&sel("footer"))
                .next()
                .unwrap()
                .text()
                .collect::<String>()
                .contains("hostile")
        );
    }

    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-zelnorib.png");
    let _ = std::fs::remove_file(&shot);
    let out = headless(
        &browser,
        profile.path(),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1280,2400",
        ],
        &html.path().join("zelnorib.html"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        png.len() > 20_000,
        "a blank page would be tiny: {} bytes",
        png.len()
    );
    eprintln!("screenshot: {}", shot.display());
}

/// Python with the named modules, when importable; `DOSSIER_REQUIRE_PY=1` (set by
/// .ci/run) makes their absence a failure.
fn python_with(modules: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("DOSSIER_REQUIRE_PY").is_err(),
            "DOSSIER_REQUIRE_PY is set but python3 cannot import {modules}"
        );
        eprintln!("skipped: python3 cannot import {modules}");
    }
    ok
}

fn engines(args: &[&str]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py/engines.py");
    let out = Command::new("python3")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json_lines(&out.stdout)
}

const KEY: &str = "asset_id, field, endpoint, population, arm, value, unit, status, dedup_key";

fn sorted(mut rows: Vec<Value>) -> Vec<Value> {
    rows.sort_by_key(|r| r.to_string());
    rows
}

/// Fills absent keys with null (DataFusion's JSON lines omit nulls).
fn full(rows: Vec<Value>) -> Vec<Value> {
    rows.into_iter()
        .map(|r| {
            let mut m = serde_json::Map::new();
            for k in KEY.split(", ") {
                m.insert(k.into(), r.get(k).cloned().unwrap_or(Value::Null));
            }
            Value::Object(m)
        })
        .collect()
}

#[test]
fn duckdb_and_pyarrow_read_the_same_rows() {
    if !python_with("duckdb, pyarrow") {
        return;
    }
    let (_dir, lake) = hostile_fixtures();
    run(&lake, "again");
    let ours = |q: &str| sorted(full(sql_json(&lake, q)));
    // DuckDB runs the analyst views' own SQL file over the Parquet files
    let duck = sorted(full(engines(&[
        "duckdb",
        lake.to_str().unwrap(),
        "hostile",
    ])));
    let profile = ours(&format!(
        "SELECT {KEY} FROM profile_cells WHERE run_id = 'hostile'"
    ));
    assert!(profile.len() > 50);
    assert_eq!(duck, profile);
    let arrow = sorted(full(engines(&["pyarrow", lake.to_str().unwrap()])));
    assert_eq!(arrow, ours(&format!("SELECT {KEY} FROM profile_cells")));
    assert_eq!(arrow.len(), 2 * profile.len());
}

#[test]
fn flight_sql_serves_the_views_to_the_adbc_driver_read_only() {
    if !python_with("adbc_driver_flightsql.dbapi, pyarrow") {
        return;
    }
    let (_dir, lake) = hostile_fixtures();
    let bin = assert_cmd::cargo::cargo_bin("dossier");
    let mut server = Command::new(bin)
        .args([
            "--lake",
            lake.to_str().unwrap(),
            "serve",
            "--addr",
            "127.0.0.1:0",
        ])
        .env_remove("DOSSIER_LAKE")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _server = Kill(server);
    let uri = line.trim().to_string();
    assert!(uri.starts_with("grpc://127.0.0.1:"), "{uri}");
    let q = format!("SELECT {KEY} FROM profile WHERE section = 'efficacy'");
    let got = engines(&["flight", &uri, &q]);
    let got = &got[0];
    let expected = sorted(full(sql_json(&lake, &q)));
    assert!(expected.len() > 5);
    for key in ["plain", "prepared"] {
        let rows = sorted(full(got[key].as_array().unwrap().clone()));
        assert_eq!(rows, expected, "{key}");
    }
    let refused = s(got, "refused");
    assert!(refused.contains("read-only"), "{refused}");
    let tables: Vec<&str> = got["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    for t in [
        "profile:VIEW",
        "profile_cells:TABLE",
        "conflicts:TABLE",
        "runs:TABLE",
    ] {
        assert!(tables.contains(&t), "{t} missing from {tables:?}");
    }
}

/// Every file of a lake with its bytes, to show that a session left it as it was.
fn lake_files(lake: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    files_under(lake)
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect()
}

#[test]
fn the_sql_session_is_read_only_over_the_lake_and_exports_only_outside_it() {
    let lake = fixture_snapshot();
    run(lake.path(), "r1");
    let before = lake_files(lake.path());
    let outside = tempfile::tempdir().unwrap();
    let id = std::fs::read_to_string(lake.path().join("snapshots/latest")).unwrap();
    let manifest = lake.path().join(format!("snapshots/{}.json", id.trim()));
    let stolen = outside.path().join("pwned.json");
    let secret = outside.path().join("secret.csv");
    std::fs::write(&secret, "k,v\nsecret,42\n").unwrap();
    let refused = [
        "INSERT INTO catalog SELECT * FROM catalog".to_string(),
        format!(
            "COPY (SELECT 'x' AS pwned) TO '{}' STORED AS JSON",
            manifest.display()
        ),
        format!(
            "COPY (SELECT 'x' AS pwned) TO '{}' STORED AS JSON",
            stolen.display()
        ),
        format!(
            "CREATE EXTERNAL TABLE t STORED AS CSV LOCATION '{}' OPTIONS ('format.has_header' 'true'); SELECT * FROM t",
            secret.display()
        ),
        // a write hidden behind a harmless first statement still stops the invocation
        "SELECT 1; DELETE FROM claims".to_string(),
    ];
    for q in &refused {
        let out = sql(lake.path(), &[q]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{q}: {err}");
        assert!(err.contains("read-only over the lake"), "{q}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{q}: {err}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("42"), "{q}");
    }
    assert!(!stolen.exists());
    assert!(
        lake_files(lake.path()) == before,
        "a refused statement changed the lake"
    );

    // reading other files is opt-in
    let read = sql(
        lake.path(),
        &[
            &format!(
                "CREATE EXTERNAL TABLE t STORED AS CSV LOCATION '{}' OPTIONS ('format.has_header' 'true'); SELECT v FROM t",
                secret.display()
            ),
            "--read-files",
            "--format",
            "csv",
        ],
    );
    assert!(
        read.status.success(),
        "{}",
        String::from_utf8_lossy(&read.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&read.stdout), "v\n42\n");
    // and still never a write
    let out = sql(
        lake.path(),
        &["INSERT INTO catalog SELECT * FROM catalog", "--read-files"],
    );
    assert_eq!(out.status.code(), Some(2));

    // an export is a deliberate file outside the lake
    let export = outside.path().join("assets.csv");
    let q = "SELECT DISTINCT asset_id FROM profile ORDER BY asset_id";
    let out = sql(
        lake.path(),
        &[q, "--format", "csv", "--out", export.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let shown = sql(lake.path(), &[q, "--format", "csv"]);
    assert_eq!(std::fs::read(&export).unwrap(), shown.stdout);
    assert!(
        std::fs::read_to_string(&export)
            .unwrap()
            .starts_with("asset_id\n")
    );
    // a statement that fails leaves an existing export as it was
    let keep = outside.path().join("keep.csv");
    std::fs::write(&keep, "kept\n").unwrap();
    let out = sql(
        lake.path(),
        &[
            "SELECT no_such_column FROM profile",
            "--out",
            keep.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "kept\n");
    let link = outside.path().join("into-lake");
    std::os::unix::fs::symlink(lake.path().join("tables"), &link).unwrap();
    for target in [
        lake.path().join("tables/x.csv"),
        lake.path().join(format!("snapshots/{}.json", id.trim())),
        link.join("y.csv"),
    ] {
        let out = sql(
            lake.path(),
            &[q, "--format", "csv", "--out", target.to_str().unwrap()],
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {err}", target.display());
        assert!(err.contains("inside the lake"), "{err}");
    }
    assert!(
        lake_files(lake.path()) == before,
        "an export changed the lake"
    );
}

/// Statements up to the size limits answer; deeper or larger ones (a sum of 10,000
/// terms, 5,000 UNION ALLs) end with a one-line error before planning, never a stack
/// overflow; a query whose result would outgrow the memory limit ends with a one-line
/// error saying which setting to change.
#[test]
fn deep_statements_and_huge_results_end_cleanly() {
    let lake = fixture_snapshot();
    let sum = |n: usize| format!("SELECT {} AS n", vec!["1"; n].join(" + "));
    let unions = |n: usize| {
        format!(
            "SELECT COUNT(*) AS n FROM ({})",
            vec!["SELECT 1 AS n"; n].join(" UNION ALL ")
        )
    };
    for (q, want) in [(sum(300), "n\n300\n"), (unions(300), "n\n300\n")] {
        let out = sql(lake.path(), &[&q, "--format", "csv"]);
        assert!(
            out.status.success(),
            "{:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), want);
    }
    for (q, want) in [
        (sum(10_000), "nest more than 1000 deep"),
        (unions(5_000), "more than 1000 SELECTs"),
        (
            format!("EXPLAIN {}", sum(2_000)),
            "nest more than 1000 deep",
        ),
    ] {
        let out = sql(lake.path(), &[&q]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(want), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }

    // refused before the string is built (the campaign saw this run for ever)
    for q in [
        "SELECT repeat('x', 2000000000) AS s",
        "SELECT lpad('x', 3000000000) AS s",
        "SELECT repeat(asset_id, 100000000) FROM asset_families",
    ] {
        let huge = sql(lake.path(), &[q]);
        let err = String::from_utf8_lossy(&huge.stderr);
        assert_eq!(huge.status.code(), Some(2), "{q}: {err}");
        assert!(err.contains("DOSSIER_SQL_MEMORY_LIMIT"), "{q}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    let small = sql(
        lake.path(),
        &[
            "SELECT repeat('ab', 3) AS r, lpad('7', 3, '0') AS p",
            "--format",
            "csv",
        ],
    );
    assert_eq!(String::from_utf8_lossy(&small.stdout), "r,p\nababab,007\n");

    let small = dossier()
        .env("DOSSIER_SQL_MEMORY_LIMIT", "64K")
        .args(["--lake", lake.path().to_str().unwrap(), "sql"])
        .arg("SELECT * FROM text_fields")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&small.stderr);
    assert_eq!(small.status.code(), Some(2), "{err}");
    assert!(err.contains("memory limit"), "{err}");
    let bad = dossier()
        .env("DOSSIER_SQL_MEMORY_LIMIT", "lots")
        .args(["--lake", lake.path().to_str().unwrap(), "sql", "SELECT 1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(err.contains("DOSSIER_SQL_MEMORY_LIMIT=\"lots\""), "{err}");
}

/// The demo's pages as the browser renders them: each asset page opens with a header
/// whose fields are the profile's cells, links back to the index, lists Conflicts in its
/// menu and links each contested cell to its conflict card; every citation carries a
/// retrieval date in one format; the comparison tables hold the SQL rows' values; a
/// derived cell shows its formula and links its inputs; no label set id fills the
/// endpoint column; the index counts each asset's open conflicts.
#[test]
fn demo_pages_lead_with_a_header_and_cite_every_source_with_a_date() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let lake = dir.path().join("demo");
    succeeds(&lake, &["--quiet", "demo"]);
    let profile = tempfile::tempdir().unwrap();
    let sel = |q: &str| scraper::Selector::parse(q).unwrap();
    let text = |e: scraper::ElementRef| e.text().collect::<String>();
    let dom_of = |page: &str| {
        let path = lake.join(format!("report/{page}.html"));
        let out = headless(&browser, profile.path(), &["--dump-dom"], &path);
        assert!(out.status.success());
        scraper::Html::parse_document(&String::from_utf8_lossy(&out.stdout))
    };
    let date = regex::Regex::new(r"^retrieved \d{4}-\d{2}-\d{2}$").unwrap();
    let set_id =
        regex::Regex::new(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}").unwrap();

    let dom = dom_of("zelnorib");
    let header = |k: &str| {
        text(
            dom.select(&sel(&format!("[data-header={k}]")))
                .next()
                .unwrap(),
        )
    };
    let value = |field: &str| {
        sql_json(
            &lake,
            &format!("SELECT value FROM profile WHERE asset_id = 'zelnorib' AND field = '{field}' AND status = 'value'"),
        )
        .iter()
        .map(|r| s(r, "value").to_string())
        .collect::<Vec<_>>()
    };
    assert_eq!(header("sponsor"), value("identity.sponsor").join(" / "));
    assert_eq!(
        header("indication"),
        value("identity.indication").join(" / ")
    );
    assert!(header("approval").starts_with(&value("regulatory.status")[0]));
    assert!(header("approval").contains("first approved 2025-11-18"));
    assert!(header("lead_trial").starts_with("NCT09000001 · Phase 3"));
    // the headline is the primary outcome, the asset's arm first, the disagreement said
    let headline = header("headline");
    assert!(
        headline.contains("Zelnorib 67.5% vs Imatinib 48.1% / 49.0%")
            || headline.contains("Zelnorib 67.5% vs Imatinib 49.0% / 48.1%"),
        "{headline}"
    );
    assert!(headline.contains("Sources disagree"));
    assert_eq!(
        dom.select(&sel("nav.crumbs a[href='index.html']")).count(),
        1
    );
    assert_eq!(
        dom.select(&sel("nav.sections a[href='#conflicts']"))
            .count(),
        1
    );
    // every see-conflicts link lands on a card
    let ids: BTreeSet<String> = dom
        .select(&sel("[id]"))
        .map(|e| e.value().attr("id").unwrap().to_string())
        .collect();
    let links: Vec<_> = dom.select(&sel("a.see-conflict")).collect();
    // the contested cell's two values, and zelnorib's value that won over the label's
    // central review, each linked to its card
    assert_eq!(links.len(), 3, "{} see-conflict links", links.len());
    for a in links {
        let target = a.value().attr("href").unwrap().trim_start_matches('#');
        assert!(ids.contains(target), "{target}");
        assert!(target.starts_with("conflict-"));
    }
    // conflict cards name records by title
    let sides: Vec<String> = dom
        .select(&sel(".conflict .side a.cite"))
        .map(text)
        .collect();
    assert!(
        sides.iter().all(|t| !t.contains(':') || t.contains(' ')),
        "{sides:?}"
    );
    assert!(
        sides
            .iter()
            .any(|t| t.starts_with("Zelnorib Versus Imatinib")),
        "{sides:?}"
    );
    // every citation, in cells, cards and inputs, has a retrieval date in one format
    for page in ["zelnorib", "quorvimab", "velantide"] {
        let d = if page == "zelnorib" {
            dom.clone()
        } else {
            dom_of(page)
        };
        let cites: Vec<_> = d.select(&sel(".citation")).collect();
        assert!(!cites.is_empty());
        for c in cites {
            let r = c
                .select(&sel(".retrieved"))
                .next()
                .map(text)
                .unwrap_or_default();
            assert!(date.is_match(&r), "{page}: {:?} has {r:?}", text(c));
        }
        for row in d.select(&sel("tr.cell")) {
            let endpoint = row.select(&sel("td")).nth(1).map(text).unwrap_or_default();
            assert!(!set_id.is_match(&endpoint), "{page}: {endpoint}");
        }
    }
    // the comparison table's arm values are the SQL rows' values
    let rows = sql_json(
        &lake,
        "SELECT endpoint, arm, value FROM efficacy WHERE asset_id = 'zelnorib' AND field = 'efficacy.value' AND coalesce(population, '') = '' ORDER BY endpoint, arm, value",
    );
    let table = dom.select(&sel("table.comparison")).next().unwrap();
    let arms: Vec<String> = table.select(&sel("thead th")).skip(1).map(text).collect();
    let first = table.select(&sel("tr.arms")).next().unwrap();
    for (arm, td) in arms.iter().zip(first.select(&sel("td")).skip(1)) {
        let mut want: Vec<&str> = rows
            .iter()
            .filter(|r| s(r, "arm") == arm)
            .map(|r| s(r, "value"))
            .collect();
        let shown = td.select(&sel(".value")).next().map(text).unwrap();
        let mut got: Vec<&str> = shown.split(" / ").collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{arm}");
    }
    // a derived cell: its formula, and one linked input per input claim
    let derived = dom
        .select(&sel("tr.cell[data-field='safety.serious_ae_rate']"))
        .next()
        .unwrap();
    assert!(text(derived).contains("Formula: serious_ae_affected / serious_ae_at_risk"));
    let inputs: Vec<_> = derived.select(&sel("li.input a[href^='#cell-']")).collect();
    assert_eq!(inputs.len(), 2);
    for a in inputs {
        assert!(ids.contains(a.value().attr("href").unwrap().trim_start_matches('#')));
    }
    // readable money beside the stated value
    let revenue = dom
        .select(&sel("tr.cell[data-field='financials.revenue']"))
        .next()
        .unwrap();
    assert!(text(revenue).contains("$18.4M") && text(revenue).contains("as stated: 18400000 USD"));

    let index = dom_of("index");
    let open: BTreeMap<String, String> = index
        .select(&sel("table.assets tbody tr"))
        .map(|r| {
            (
                r.value().attr("data-asset").unwrap().to_string(),
                r.select(&sel("td[data-open]"))
                    .next()
                    .unwrap()
                    .value()
                    .attr("data-open")
                    .unwrap()
                    .to_string(),
            )
        })
        .collect();
    let unresolved = sql_json(
        &lake,
        "SELECT count(*) AS n FROM profile_conflicts WHERE asset_id = 'zelnorib' AND resolution = 'unresolved'",
    );
    assert_eq!(open["zelnorib"], unresolved[0]["n"].to_string());
    assert_eq!(open["quorvimab"], "0");
    assert!(text(index.root_element()).contains("Halcyon Therapeutics"));
}
