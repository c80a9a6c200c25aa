//! Live snapshots against the loopback replay server (`dossier_testkit::replay`): the fixture
//! world fetched and compared with an import of the same responses, an unchanged nightly
//! rerun, injected faults that are retried away, failures that stay `fetch_failed`
//! without losing other families, per-API rate limits checked from the arrival times the
//! server saw, and the recorded openFDA and SEC exchanges of ../shared/real-sources.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use dossier::domain::Portfolio;
use dossier::lake::Lake;
use dossier::snapshot::fetch::http::{Client, FetchError, HttpConfig, Limit};
use dossier::snapshot::fetch::{LiveConfig, LiveStats, snapshot_live};
use dossier_testkit::replay::{self, Builder, Canned, Fault, World};

mod common;
use common::*;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn portfolio() -> Portfolio {
    Portfolio::load(&fixtures().join("portfolio.toml")).unwrap()
}

fn world() -> World {
    World::from_import(&fixtures().join("import"), &portfolio()).unwrap()
}

/// Settings that point every API at the server, with quick backoff and short timeouts.
fn config(server: &replay::Server) -> LiveConfig {
    let mut c = LiveConfig {
        user_agent: "dossier-tests (tests@example.com)".into(),
        ctgov_base: server.base("ctgov"),
        openfda_base: server.base("openfda"),
        sec_base: server.base("sec"),
        ncbi_base: server.base("ncbi"),
        icd10_base: server.base("icd10"),
        web_mirror: Some(server.base("web")),
        timeout_secs: 2.0,
        backoff_base_ms: 10,
        backoff_cap_ms: 100,
        ..LiveConfig::default()
    };
    for api in ["ctgov", "openfda", "sec", "ncbi", "icd10", "web"] {
        c.per_minute.insert(api.into(), 60_000.0);
    }
    c
}

async fn live(
    lake: &Lake,
    cfg: &LiveConfig,
    save: Option<&Path>,
) -> (dossier::snapshot::SnapshotOutcome, LiveStats) {
    snapshot_live(lake, &portfolio(), cfg, false, save)
        .await
        .unwrap()
}

fn statuses(m: &dossier::lake::manifest::SnapshotManifest) -> BTreeMap<(String, String), String> {
    m.assets
        .iter()
        .flat_map(|(a, e)| {
            e.families
                .iter()
                .map(move |(f, o)| ((a.clone(), f.to_string()), o.status.as_str().to_string()))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_snapshot_equals_an_import_of_its_responses_and_an_unchanged_rerun_downloads_nothing()
 {
    let server = Builder::new(world()).start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let lake = Lake::open(dir.path().join("lake").to_str().unwrap()).unwrap();
    let saved = dir.path().join("responses");
    let (first, stats) = live(&lake, &config(&server), Some(&saved)).await;
    let st = statuses(&first.manifest);
    assert_eq!(first.manifest.mode, "live");
    assert!(first.manifest.fetch_failures.is_empty());
    for fam in [
        "ctgov",
        "fda_label",
        "drugsfda",
        "sec",
        "pubmed",
        "press",
        "epi",
        "icd10",
    ] {
        assert_eq!(st[&("zelnorib".into(), fam.into())], "ok", "{fam}: {st:?}");
    }
    // the study without results is found and says so; the legacy XML study is not served
    // by the v2 API, so velantide's trials come back empty, not failed
    assert_eq!(
        st[&("quorvimab".into(), "ctgov".into())],
        "not_yet_published"
    );
    assert_eq!(st[&("velantide".into(), "ctgov".into())], "source_empty");
    assert!(stats.requests["ctgov"].requests >= 3);

    // an import of the saved responses gives the same bundles
    let other = tempfile::tempdir().unwrap();
    let (imported_id, _) = snapshot(other.path(), &fixtures().join("portfolio.toml"), &saved);
    let imported = manifest(other.path(), &imported_id);
    for (asset, e) in &first.manifest.assets {
        assert_eq!(
            imported["assets"][asset]["bundle"].as_str().unwrap(),
            e.bundle.as_str(),
            "{asset}"
        );
    }

    // the nightly rerun of an unchanged world: conditional requests only, same snapshot
    let seen_before = server.log().len();
    let (again, stats2) = live(&lake, &config(&server), None).await;
    assert_eq!(again.id, first.id);
    let rerun: Vec<_> = server.log()[seen_before..].to_vec();
    assert!(!rerun.is_empty());
    let full = rerun.iter().filter(|s| s.status == 200).count();
    assert_eq!(full, 0, "every unchanged body answered 304: {rerun:?}");
    assert!(stats2.reused > 0);
    // only the small "no matches" answers (404), which are not cached, come again
    assert!(
        stats2.downloaded_bytes * 50 < stats.downloaded_bytes,
        "{} of {} bytes downloaded again",
        stats2.downloaded_bytes,
        stats.downloaded_bytes
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn injected_faults_are_retried_away_and_change_nothing() {
    let clean_server = Builder::new(world()).start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let clean_lake = Lake::open(dir.path().join("clean").to_str().unwrap()).unwrap();
    let (clean, _) = live(&clean_lake, &config(&clean_server), None).await;

    let server = Builder::new(world())
        .fault("/ctgov/", Fault::TooMany(1), 1)
        .fault("/openfda/drug/label.json", Fault::Status(500), 2)
        // zelnorib's own approvals: a search that always finds (a "no matches" 404 is
        // not parsed, so a malformed one would not be retried)
        .fault(
            "drugsfda.json?search=openfda.brand_name%3A%22zelnorib%22",
            Fault::Malformed,
            1,
        )
        .fault("/sec/", Fault::Hang, 1)
        .fault("efetch.fcgi", Fault::Truncate, 1)
        .fault("/icd10/", Fault::WrongType, 1)
        .fault(
            "/web/https/investors",
            Fault::Drip(Duration::from_millis(5)),
            1,
        )
        .fault("/web/https/seer", Fault::Status(503), 1)
        .start()
        .await
        .unwrap();
    let lake = Lake::open(dir.path().join("faulty").to_str().unwrap()).unwrap();
    let (faulty, stats) = live(&lake, &config(&server), None).await;
    assert!(
        faulty.manifest.fetch_failures.is_empty(),
        "{:?}",
        faulty.manifest.fetch_failures
    );
    assert_eq!(statuses(&faulty.manifest), statuses(&clean.manifest));
    // the same record versions (retrieval times differ, so bundles do)
    for (asset, e) in &clean.manifest.assets {
        assert_eq!(faulty.manifest.assets[asset].members, e.members, "{asset}");
    }
    let retries: u64 = stats.requests.values().map(|s| s.retries).sum();
    // one retry per fault, but the drip, which is slow and whole
    assert_eq!(retries, 8, "{stats:?}");
    // Retry-After held the whole API: after the requests already on their way when the
    // 429 left (a few ms), no CT.gov request arrived until its second was over, and the
    // retry came after it
    let log = server.log();
    let limited = log.iter().find(|s| s.status == 429).unwrap();
    let after: Vec<Duration> = log
        .iter()
        .filter(|s| s.api == "ctgov" && s.at > limited.at)
        .map(|s| s.at.duration_since(limited.at))
        .collect();
    for d in &after {
        assert!(
            *d < Duration::from_millis(50) || *d >= Duration::from_millis(990),
            "{d:?} after the 429"
        );
    }
    assert!(after.iter().any(|d| *d >= Duration::from_millis(990)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_family_is_fetch_failed_with_its_error_and_the_others_lose_nothing() {
    let clean_server = Builder::new(world()).start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let clean_lake = Lake::open(dir.path().join("clean").to_str().unwrap()).unwrap();
    let (clean, _) = live(&clean_lake, &config(&clean_server), None).await;

    // SEC answers 500 for good; openFDA labels refuse with a 403 (never retried)
    let server = Builder::new(world())
        .fault("/sec/", Fault::Status(500), 1000)
        .fault("/openfda/drug/label.json", Fault::Status(403), 1000)
        .start()
        .await
        .unwrap();
    let path = dir.path().join("lake");
    let lake = Lake::open(path.to_str().unwrap()).unwrap();
    let (out, stats) = live(&lake, &config(&server), None).await;
    let st = statuses(&out.manifest);
    for asset in ["zelnorib", "quorvimab"] {
        assert_eq!(st[&(asset.into(), "sec".into())], "fetch_failed");
        let o = &out.manifest.assets[asset].families[&dossier::domain::Family::Sec];
        assert!(o.detail.contains("HTTP 500"), "{}", o.detail);
    }
    assert_eq!(st[&("zelnorib".into(), "fda_label".into())], "fetch_failed");
    // velantide names no filer: skipped, as without the fault
    assert_eq!(
        st[&("velantide".into(), "sec".into())],
        statuses(&clean.manifest)[&("velantide".into(), "sec".into())]
    );
    // every other family is as in the clean run
    for (k, v) in statuses(&clean.manifest) {
        if k.1 != "sec" && k.1 != "fda_label" {
            assert_eq!(st[&k], v, "{k:?}");
        }
    }
    // 403: one request per distinct label URL, no retry; 500: every retry spent
    let log = server.log();
    let labels: Vec<_> = log
        .iter()
        .filter(|s| s.target.contains("label.json"))
        .collect();
    let distinct: std::collections::BTreeSet<_> = labels.iter().map(|s| &s.target).collect();
    assert_eq!(labels.len(), distinct.len());
    assert_eq!(
        stats.requests["sec"].retries,
        4 * stats.requests["sec"].failures
    );
    // the errors are in the catalog table too
    let failed = sql_json(
        &path,
        "SELECT family, url, error FROM catalog WHERE fetch_status = 'fetch_failed' ORDER BY family, url",
    );
    assert!(failed.iter().any(|r| {
        r["family"] == "sec"
            && r["error"]
                .as_str()
                .unwrap()
                .contains("gave up after 5 attempts")
    }));
    assert!(
        failed.iter().any(
            |r| r["family"] == "fda_label" && r["error"].as_str().unwrap().contains("HTTP 403")
        )
    );
    // zelnorib and quorvimab share a filer: each failed SEC URL (facts and submissions,
    // not just the first) names both assets, one row each
    let sec = sql_json(
        &path,
        "SELECT url, list_sort(array_agg(record_key)) AS assets, count(DISTINCT source_id) AS n \
         FROM catalog WHERE fetch_status = 'fetch_failed' AND family = 'sec' GROUP BY url ORDER BY url",
    );
    assert_eq!(sec.len(), 2, "{sec:?}");
    for r in &sec {
        assert_eq!(
            r["assets"],
            serde_json::json!(["quorvimab", "zelnorib"]),
            "{r}"
        );
        assert_eq!(r["n"], 2, "{r}");
    }
    let o = &out.manifest.assets["zelnorib"].families[&dossier::domain::Family::Sec];
    assert!(o.detail.contains("1 more failed request"), "{}", o.detail);
}

/// The rate tests measure time: the one that loads every core must not run beside the
/// one that checks the achieved rates.
static PACED: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_keep_each_apis_rate_limit_across_concurrent_assets() {
    let _alone = PACED.lock().await;
    // a synthetic world of 24 assets, with limits low enough to bind
    let dir = tempfile::tempdir().unwrap();
    let opts = dossier_testkit::synthetic::Options {
        assets: 24,
        ..Default::default()
    };
    dossier_testkit::synthetic::write_corpus(&dir.path().join("syn"), &opts).unwrap();
    let p = Portfolio::load(&dir.path().join("syn/portfolio.toml")).unwrap();
    let w = World::from_import(&dir.path().join("syn/import"), &p).unwrap();
    let server = Builder::new(w)
        .enforce("openfda", 20, Duration::from_secs(1))
        .enforce("sec", 10, Duration::from_secs(1))
        .start()
        .await
        .unwrap();
    let mut cfg = config(&server);
    cfg.per_minute.insert("openfda".into(), 1200.0); // 20/s
    cfg.per_minute.insert("sec".into(), 600.0); // 10/s, SEC's own limit
    cfg.per_minute.insert("ncbi".into(), 180.0); // 3/s, NCBI without a key
    let lake = Lake::open(dir.path().join("lake").to_str().unwrap()).unwrap();
    let (snap, stats) = snapshot_live(&lake, &p, &cfg, false, None).await.unwrap();
    assert!(snap.manifest.fetch_failures.is_empty());
    let log = server.log();
    assert!(
        log.iter().all(|s| s.status != 429),
        "the server's limit was hit"
    );
    for (api, limit) in [("openfda", 20), ("sec", 10), ("ncbi", 3)] {
        let max = replay::max_in_window(&log, api, Duration::from_secs(1));
        assert!(max <= limit, "{api}: {max} requests in one second");
        let rate = stats.requests[api].rate().unwrap();
        assert!(rate <= limit as f64, "{api}: {rate}/s");
        // a slot frees a window after its answer, so a machine busy with the other tests
        // answers later and sends less: the floor is loose here, and bench/live_rates.sh
        // measures the figures (97% of every limit, quiet or loaded)
        assert!(
            rate >= 0.75 * limit as f64,
            "{api}: only {rate}/s of {limit}/s"
        );
    }
}

/// The real limits with every core busy and up to 250 ms in transit: a request that
/// arrives late still never puts one too many into any window at the server (the gate
/// frees a request's slot a whole window after its answer, the latest the server can have
/// counted it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_window_goes_over_a_limit_with_the_cpu_loaded() {
    let _alone = PACED.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let opts = dossier_testkit::synthetic::Options {
        assets: 12,
        ..Default::default()
    };
    dossier_testkit::synthetic::write_corpus(&dir.path().join("syn"), &opts).unwrap();
    let p = Portfolio::load(&dir.path().join("syn/portfolio.toml")).unwrap();
    let w = World::from_import(&dir.path().join("syn/import"), &p).unwrap();
    let mut b = Builder::new(w);
    let limits = [("ctgov", 10), ("openfda", 4), ("sec", 10), ("ncbi", 3)];
    for (api, _) in limits {
        b = b.transit(api, Duration::from_millis(250));
    }
    let server = b.start().await.unwrap();
    let mut cfg = config(&server);
    for (api, per_sec) in limits {
        cfg.per_minute.insert(api.into(), 60.0 * per_sec as f64);
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let burners: Vec<_> = (0..2 * std::thread::available_parallelism().map_or(2, |n| n.get()))
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                    std::hint::black_box(x);
                }
            })
        })
        .collect();
    let lake = Lake::open(dir.path().join("lake").to_str().unwrap()).unwrap();
    let result = snapshot_live(&lake, &p, &cfg, false, None).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for b in burners {
        b.join().unwrap();
    }
    let (snap, _) = result.unwrap();
    assert!(snap.manifest.fetch_failures.is_empty());
    let log = server.log();
    // the limits bind: more requests than one window allows went to each paced API
    for (api, limit) in [("openfda", 4), ("ncbi", 3)] {
        assert!(
            log.iter().filter(|s| s.api == api).count() > 2 * limit,
            "{api}"
        );
    }
    for (api, limit) in limits {
        let max = replay::max_in_window(&log, api, Duration::from_secs(1));
        assert!(
            max <= limit,
            "{api}: {max} requests in one second (limit {limit})"
        );
    }
}

fn vcr(real: &Path, name: &str) -> Vec<(String, Canned)> {
    let text = std::fs::read_to_string(real.join("http").join(name)).unwrap();
    let doc: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).unwrap();
    let mut out = Vec::new();
    for i in doc["http_interactions"].as_sequence().unwrap() {
        let uri = i["request"]["uri"].as_str().unwrap();
        let target = uri.strip_prefix("https://api.fda.gov").unwrap();
        let r = &i["response"];
        let status = r["status"]
            .as_u64()
            .or_else(|| r["status"]["status_code"].as_u64())
            .unwrap() as u16;
        let mut headers = Vec::new();
        for (k, v) in r["headers"].as_mapping().unwrap() {
            let v = match v {
                serde_yaml_ng::Value::Sequence(s) => s[0].as_str().unwrap_or("").to_string(),
                other => other.as_str().unwrap_or("").to_string(),
            };
            headers.push((k.as_str().unwrap().to_string(), v));
        }
        let body = r["body"]["string"]
            .as_str()
            .unwrap_or("")
            .as_bytes()
            .to_vec();
        out.push((
            format!("/openfda{target}"),
            Canned {
                status,
                headers,
                body,
            },
        ));
    }
    out
}

fn client() -> Client {
    Client::new(HttpConfig {
        user_agent: "dossier-tests (tests@example.com)".into(),
        timeout: Duration::from_secs(2),
        max_bytes: 1 << 20,
        retries: 2,
        backoff_base: Duration::from_millis(5),
        backoff_cap: Duration::from_millis(20),
        max_retry_after: Duration::from_secs(5),
        headroom: 1.0,
        limits: BTreeMap::new(),
        default_limit: Limit {
            requests: 1000,
            per: Duration::from_secs(1),
        },
        credentials: BTreeMap::new(),
    })
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recorded_openfda_and_sec_exchanges_replay_with_their_headers_and_the_403() {
    let Some(real) = real_sources() else { return };
    let mut b = Builder::new(World::default());
    let mut cassettes = vcr(&real, "vcr_openFDA-R_examples_gilead.yml");
    cassettes.extend(vcr(
        &real,
        "vcr_openFDA-R_test-paging_semaglutide_tirzepatide.yml",
    ));
    for (t, c) in &cassettes {
        b = b.cassette(t, c.clone());
    }
    // SEC bodies with their recorded headers; the recorded sha256 must match what arrives
    let mut sec = Vec::new();
    for (headers, file) in [
        (
            "CIK0000078003_pfizer.json.headers.json",
            "CIK0000078003_pfizer.json",
        ),
        (
            "CIK0000078003_pfizer-submissions-001.json.headers.json",
            "CIK0000078003_pfizer-submissions-001.json",
        ),
    ] {
        let h: serde_json::Value =
            serde_json::from_slice(&std::fs::read(real.join("http").join(headers)).unwrap())
                .unwrap();
        let body = std::fs::read(real.join("import/sec").join(file)).unwrap();
        let target = h["url"]
            .as_str()
            .unwrap()
            .replace("https://data.sec.gov", "/sec");
        let hs = h["headers"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect();
        b = b.cassette(
            &target,
            Canned {
                status: 200,
                headers: hs,
                body,
            },
        );
        sec.push((target, h["sha256"].as_str().unwrap().to_string()));
    }
    let server = b.start().await.unwrap();
    let c = client();
    let base = format!("http://{}", server.addr);
    let any = |_: &[u8], _: Option<&str>| Ok(());
    let (mut ok, mut linked) = (0, 0);
    for (target, canned) in &cassettes {
        let url = format!("{base}{target}");
        let got = c.get("openfda", &url, (None, None), &any).await;
        match canned.status {
            200 => {
                let r = got.unwrap();
                assert_eq!(r.body.as_ref(), canned.body.as_slice());
                assert!(r.etag.is_some());
                let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
                assert!(v["results"].as_array().is_some_and(|a| !a.is_empty()));
                // the recorded `Link: rel="next"` (openFDA pages by skip, and past 25,000
                // by search_after) is read
                let link = canned
                    .headers
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case("link"))
                    .map(|(_, v)| v.as_str());
                if let Some(l) = link {
                    let next = r
                        .next
                        .as_deref()
                        .unwrap_or_else(|| panic!("no next in {l}"));
                    assert!(next.starts_with("https://api.fda.gov/drug/"), "{next}");
                    assert!(
                        next.contains("search_after=") || next.contains("skip="),
                        "{next}"
                    );
                    linked += 1;
                }
                ok += 1;
            }
            403 => {
                let e = got.unwrap_err();
                assert!(matches!(e, FetchError::Status { status: 403, .. }), "{e}");
            }
            s => panic!("unexpected recorded status {s}"),
        }
    }
    assert!(ok >= 5);
    assert!(linked >= 1, "no recorded response carried a next link");
    let refused: Vec<_> = server
        .log()
        .into_iter()
        .filter(|s| s.status == 403)
        .collect();
    assert_eq!(refused.len(), 1, "a 403 is asked once: {refused:?}");
    for (target, sha) in sec {
        let r = c
            .get("sec", &format!("{base}{target}"), (None, None), &any)
            .await
            .unwrap();
        assert_eq!(dossier::domain::sha256_hex(&r.body), sha);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn huge_bodies_and_long_retry_after_fail_cleanly() {
    let big = vec![b'x'; 2 << 20];
    let server = Builder::new(World::default())
        .cassette("/big", Canned::new(200, "text/plain", big))
        .fault("/later", Fault::TooMany(3600), 10)
        .fault("/slow", Fault::Hang, 10)
        .start()
        .await
        .unwrap();
    let c = client();
    let any = |_: &[u8], _: Option<&str>| Ok(());
    let base = format!("http://{}", server.addr);
    let e = c
        .get("x", &format!("{base}/big"), (None, None), &any)
        .await
        .unwrap_err();
    assert!(matches!(e, FetchError::TooLarge { .. }), "{e}");
    let e = c
        .get("x", &format!("{base}/later"), (None, None), &any)
        .await
        .unwrap_err();
    assert!(
        matches!(e, FetchError::RetryAfterTooLong { secs: 3600, .. }),
        "{e}"
    );
    let e = c
        .get("x", &format!("{base}/slow"), (None, None), &any)
        .await
        .unwrap_err();
    assert!(
        matches!(e, FetchError::Exhausted { attempts: 3, .. }),
        "{e}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_reads_its_live_config_and_refuses_a_bad_one() {
    let server = Builder::new(world()).start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("live.toml");
    let mut doc = BTreeMap::new();
    doc.insert("live", config(&server));
    std::fs::write(&file, toml::to_string(&doc).unwrap()).unwrap();
    let lake = dir.path().join("lake");
    let args = |cfg: &Path| {
        let mut c = dossier();
        c.args(["--lake", lake.to_str().unwrap(), "snapshot", "--portfolio"])
            .arg(fixtures().join("portfolio.toml"))
            .args(["--live", "--live-config"])
            .arg(cfg);
        c
    };
    let mut good = args(&file);
    let out = tokio::task::spawn_blocking(move || good.output().unwrap())
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim().len(), 64);
    assert!(
        stderr.contains("ctgov: ") && stderr.contains("% of"),
        "{stderr}"
    );
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[live]\nretries = 2\nretry = 3\n").unwrap();
    let mut refused = args(&bad);
    let out = tokio::task::spawn_blocking(move || refused.output().unwrap())
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.toml") && stderr.contains("retry"),
        "{stderr}"
    );
}

/// Every file under a folder that holds `needle`, as paths.
fn files_holding(dir: &Path, needle: &[u8]) -> Vec<PathBuf> {
    files_under(dir)
        .into_iter()
        .filter(|p| {
            std::fs::read(p)
                .unwrap()
                .windows(needle.len())
                .any(|w| w == needle)
        })
        .collect()
}

/// API keys go out with the requests and never into the lake: the server receives them,
/// while no object, table, manifest, cache entry or saved response holds them, nor the
/// summary, also where the requests that carried them failed (a refusal, a 500, a hang).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_keys_reach_the_server_and_never_the_lake() {
    const OPENFDA_KEY: &str = "PLANTED-openfda-key-7f3a";
    const NCBI_KEY: &str = "PLANTED-ncbi-key-91c2";
    let server = Builder::new(world())
        .fault("/openfda/drug/label.json", Fault::Status(403), 1000)
        .fault("/ncbi/entrez/eutils/efetch", Fault::Status(500), 1000)
        .fault("/openfda/drug/drugsfda.json", Fault::Hang, 1000)
        .start()
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lake");
    let saved = dir.path().join("saved");
    let lake = Lake::open(path.to_str().unwrap()).unwrap();
    let mut cfg = config(&server);
    cfg.openfda_api_key = Some(OPENFDA_KEY.into());
    cfg.ncbi_api_key = Some(NCBI_KEY.into());
    cfg.timeout_secs = 0.5;
    cfg.retries = 1;
    let (out, _) = live(&lake, &cfg, Some(&saved)).await;
    let log = server.log();
    for (api, key) in [("/openfda/", OPENFDA_KEY), ("/ncbi/", NCBI_KEY)] {
        let sent: Vec<_> = log.iter().filter(|s| s.target.contains(api)).collect();
        assert!(!sent.is_empty(), "no request to {api}");
        assert!(
            sent.iter()
                .all(|s| s.target.contains(&format!("api_key={key}"))),
            "{api}: a request went out without its key"
        );
    }
    assert!(
        !out.manifest.fetch_failures.is_empty(),
        "the faults should leave failures to record"
    );
    let summary = format!("{out}");
    for key in [OPENFDA_KEY, NCBI_KEY] {
        assert!(!summary.contains(key), "summary: {summary}");
        for root in [&path, &saved] {
            let found = files_holding(root, key.as_bytes());
            assert!(found.is_empty(), "{key} stored in {found:?}");
        }
    }
    // and the lake's tables say where the failures were, by their public URLs
    let failed = sql_json(
        &path,
        "SELECT url, error FROM catalog WHERE fetch_status = 'fetch_failed'",
    );
    assert!(!failed.is_empty());
    assert!(
        failed.iter().all(|r| !r.to_string().contains("api_key")),
        "{failed:?}"
    );
}

/// SEC refuses requests without a contact in the User-Agent, so a live snapshot that needs
/// SEC does not start without one (exit 2 naming `live.user_agent`, no request sent);
/// skipping SEC on purpose runs, and the status says it was skipped and why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sec_needs_a_contact_or_a_deliberate_skip() {
    let server = Builder::new(world()).start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let lake = Lake::open(dir.path().join("lake").to_str().unwrap()).unwrap();
    let mut cfg = config(&server);
    cfg.user_agent = LiveConfig::default().user_agent;
    let err = snapshot_live(&lake, &portfolio(), &cfg, false, None)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("live.user_agent"), "{err}");
    assert!(
        server.log().is_empty(),
        "requests went out: {:?}",
        server.log()
    );
    // a contact that is not an email is no contact either
    cfg.user_agent = "dossier (see our website)".into();
    assert!(
        snapshot_live(&lake, &portfolio(), &cfg, false, None)
            .await
            .is_err()
    );

    // the CLI: exit 2, naming the key
    let file = dir.path().join("live.toml");
    let mut doc = BTreeMap::new();
    doc.insert("live", cfg.clone());
    std::fs::write(&file, toml::to_string(&doc).unwrap()).unwrap();
    let mut cmd = dossier();
    cmd.env_remove("DOSSIER_USER_AGENT")
        .args(["--lake", dir.path().join("cli-lake").to_str().unwrap()])
        .args(["snapshot", "--portfolio"])
        .arg(fixtures().join("portfolio.toml"))
        .args(["--live", "--live-config"])
        .arg(&file);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("live.user_agent"), "{stderr}");
    assert!(server.log().is_empty());

    // SEC skipped on purpose: no SEC request, and every asset's sec status says so
    cfg.skip = vec![dossier::domain::Family::Sec];
    let (snap, _) = snapshot_live(&lake, &portfolio(), &cfg, false, None)
        .await
        .unwrap();
    assert!(server.log().iter().all(|s| s.api != "sec"));
    assert!(server.log().iter().any(|s| s.api == "ctgov"));
    for (asset, e) in &snap.manifest.assets {
        let o = &e.families[&dossier::domain::Family::Sec];
        assert_eq!(o.status.as_str(), "skipped", "{asset}");
        assert!(o.detail.contains("live.skip"), "{asset}: {}", o.detail);
    }
    assert_eq!(
        statuses(&snap.manifest)[&("zelnorib".into(), "ctgov".into())],
        "ok"
    );
}

#[test]
fn user_agents_with_and_without_a_contact() {
    let p = portfolio();
    let cfg = |ua: &str| LiveConfig {
        user_agent: ua.into(),
        ..LiveConfig::default()
    };
    for ok in [
        "Acme Research ops@acme.example",
        "dossier/0.1 (Jane Doe; jane.doe@lab.example.org)",
        "<sec-contact@fund.example>",
    ] {
        assert!(cfg(ok).check(&p).is_ok(), "{ok}");
    }
    for bad in [
        LiveConfig::default().user_agent.as_str(),
        "dossier/0.1",
        "me@localhost",
        "@example.com",
        "a@b@c.example",
        "x@example.",
    ] {
        assert!(cfg(bad).check(&p).is_err(), "{bad}");
    }
    // a portfolio without any filer needs no contact
    let mut none = p.clone();
    for a in &mut none.asset {
        a.sponsor_cik = None;
    }
    assert!(cfg("dossier/0.1").check(&none).is_ok());
}

/// Press and epidemiology formats follow the response (Content-Type, then the body), not
/// the URL: SEER's `.php` endpoint answers JSON (here labelled `text/html`, as PHP does by
/// default), a table without an extension answers CSV as `text/plain`, a press release
/// at `.aspx` is plain text. Each is saved under its real format, so a re-import reads it
/// the same way; an HTML error page where a table should be reads as no text and fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn formats_follow_the_response_not_the_url() {
    use dossier::domain::Family;
    let seer = match real_sources() {
        Some(real) => {
            std::fs::read(real.join("import/epi/seer_explorer_survival_site97_CML.json")).unwrap()
        }
        None => {
            br#""{\"data\":{\"5_1_1_1_97\":{\"data_series\":[[1975,\"17.98\",218]]}}}""#.to_vec()
        }
    };
    let seer_url = "https://seer.cancer.gov/statistics-network/explorer/source/content_writers/render_region_5.php?site=97&data_type=4";
    let csv_url = "https://epi.example/tables/ad-prevalence";
    let press_url = "https://ir.halcyon.example/news/release.aspx?id=7";
    let broken_url = "https://epi.example/diabetes.csv";
    let target = |u: &str| format!("/web/{}", u.replacen("://", "/", 1));
    let server = Builder::new(world())
        .cassette(
            &target(seer_url),
            Canned::new(200, "text/html; charset=UTF-8", seer),
        )
        .cassette(
            &target(csv_url),
            Canned::new(
                200,
                "text/plain; charset=utf-8",
                "year,prevalence\n2024,7.3%\n",
            ),
        )
        .cassette(
            &target(press_url),
            Canned::new(
                200,
                "text/plain",
                "Halcyon reports quorvimab results\n\nEASI-75 was reached by 48% of patients.\n",
            ),
        )
        .cassette(
            &target(broken_url),
            Canned::new(
                200,
                "text/html",
                "<html><body><h1>Service temporarily unavailable</h1></body></html>",
            ),
        )
        .start()
        .await
        .unwrap();
    let mut p = portfolio();
    for a in &mut p.asset {
        match a.id.as_str() {
            "quorvimab" => {
                a.epi = vec![seer_url.into(), csv_url.into()];
                a.press = vec![press_url.into()];
            }
            "velantide" => a.epi = vec![broken_url.into()],
            _ => {}
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let lake = Lake::open(dir.path().join("lake").to_str().unwrap()).unwrap();
    let saved = dir.path().join("saved");
    let cfg = config(&server);
    let (out, _) = snapshot_live(&lake, &p, &cfg, false, Some(&saved))
        .await
        .unwrap();
    let q = &out.manifest.assets["quorvimab"].families;
    assert_eq!(
        q[&Family::Epi].status.as_str(),
        "ok",
        "{:?}",
        q[&Family::Epi]
    );
    assert_eq!(q[&Family::Epi].records, 2);
    assert_eq!(q[&Family::Press].status.as_str(), "ok");
    for f in [
        "epi/quorvimab-0.json",
        "epi/quorvimab-1.csv",
        "press/quorvimab-0.txt",
    ] {
        assert!(saved.join(f).is_file(), "{f} not saved");
    }
    let v = &out.manifest.assets["velantide"].families[&Family::Epi];
    assert_eq!(v.status.as_str(), "fetch_failed");
    assert!(v.detail.contains("parses to no text"), "{}", v.detail);
    // the failure names the public URL, not the mirror's
    assert!(
        out.manifest
            .fetch_failures
            .iter()
            .any(|f| f.url == broken_url && f.asset == "velantide")
    );
    // a re-import of the saved responses reads every page as the live snapshot did
    let portfolio_file = dir.path().join("portfolio.toml");
    std::fs::write(&portfolio_file, toml::to_string(&p).unwrap()).unwrap();
    let other = tempfile::tempdir().unwrap();
    let (id, _) = snapshot(other.path(), &portfolio_file, &saved);
    let imported = manifest(other.path(), &id);
    assert_eq!(
        imported["assets"]["quorvimab"]["bundle"].as_str().unwrap(),
        out.manifest.assets["quorvimab"].bundle.as_str()
    );
    // and its failures too: the saved night's failed request reads fetch_failed again
    assert!(saved.join("fetch_failures.json").is_file());
    let epi = &imported["assets"]["velantide"]["families"]["epi"];
    assert_eq!(epi["status"], "fetch_failed", "{epi}");
    assert_eq!(epi["detail"].as_str(), Some(v.detail.as_str()));
    assert_eq!(
        imported["fetch_failures"].as_array().unwrap().len(),
        out.manifest.fetch_failures.len()
    );
}

/// The (family, record key, content) of every record of a snapshot.
fn records(m: &dossier::lake::manifest::SnapshotManifest) -> std::collections::BTreeSet<String> {
    m.sources
        .iter()
        .map(|s| format!("{}:{}@{}", s.family, s.record_key, s.content_sha256))
        .collect()
}

/// openFDA searches page through to the total (its `Link: rel="next"`, whose echoed
/// api_key is never kept); CT.gov, openFDA and PubMed searches that stop at a configured
/// cap with results left say so in the family's detail and the manifest, never ok and
/// silent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_page_to_the_total_and_a_capped_one_says_so() {
    use dossier::domain::Family;
    const KEY: &str = "PLANTED-openfda-key-paging";
    // the fixture world with more of everything zelnorib's searches find: two more
    // labels and approvals, another study and another article
    let dir = tempfile::tempdir().unwrap();
    let import = dir.path().join("import");
    copy_dir(&fixtures().join("import"), &import);
    let copies = |from: &str, to: &str, ids: &[(&str, &str)]| {
        let text = std::fs::read_to_string(import.join(from)).unwrap();
        for (i, (old, new)) in ids.iter().enumerate() {
            let path = import.join(format!("{to}-{i}"));
            std::fs::write(path, text.replace(old, new)).unwrap();
        }
    };
    let label: serde_json::Value = serde_json::from_slice(
        &std::fs::read(import.join("fda_label/zelvanta_label.json")).unwrap(),
    )
    .unwrap();
    let set_id = label["results"][0]["set_id"].as_str().unwrap().to_string();
    copies(
        "fda_label/zelvanta_label.json",
        "fda_label/more.json",
        &[
            (&set_id, "00000000-0000-0000-0000-000000000001"),
            (&set_id, "00000000-0000-0000-0000-000000000002"),
        ],
    );
    copies(
        "drugsfda/zelnorib_NDA299001.json",
        "drugsfda/more.json",
        &[("NDA299001", "NDA299002"), ("NDA299001", "NDA299003")],
    );
    copies(
        "ctgov/NCT09000001_zelnorib_ph3.json",
        "ctgov/more.json",
        &[("NCT09000001", "NCT09000011")],
    );
    copies(
        "pubmed/efetch_zelnorib_zenith1.xml",
        "pubmed/more.xml",
        &[("99000001", "99000002")],
    );
    // the copies are named `more.json-0`: give them their extension back
    for e in files_under(&import) {
        let name = e.file_name().unwrap().to_string_lossy().into_owned();
        if let Some((stem, i)) = name.rsplit_once('-')
            && (stem.ends_with(".json") || stem.ends_with(".xml"))
        {
            let (base, ext) = stem.rsplit_once('.').unwrap();
            std::fs::rename(&e, e.with_file_name(format!("{base}{i}.{ext}"))).unwrap();
        }
    }
    let p = portfolio();
    let w = World::from_import(&import, &p).unwrap();
    let server = Builder::new(w).start().await.unwrap();
    let live = |lake: &Lake, cfg: &LiveConfig| {
        let (lake, cfg, p) = (lake.clone(), cfg.clone(), p.clone());
        async move { snapshot_live(&lake, &p, &cfg, false, None).await.unwrap() }
    };
    let whole = Lake::open(dir.path().join("whole").to_str().unwrap()).unwrap();
    let (reference, _) = live(&whole, &config(&server)).await;
    assert!(reference.manifest.capped_searches.is_empty());

    // one result per page: the same records, over more requests, and no cap reached
    let paged_path = dir.path().join("paged");
    let paged_lake = Lake::open(paged_path.to_str().unwrap()).unwrap();
    let mut cfg = config(&server);
    cfg.openfda_page_size = 1;
    cfg.openfda_max_pages = 50;
    cfg.ctgov_page_size = 1;
    cfg.ctgov_max_pages = 50;
    cfg.openfda_api_key = Some(KEY.into());
    let before = server.log().len();
    let (paged, _) = live(&paged_lake, &cfg).await;
    assert!(
        paged.manifest.capped_searches.is_empty(),
        "{:?}",
        paged.manifest.capped_searches
    );
    assert_eq!(records(&paged.manifest), records(&reference.manifest));
    let log = server.log()[before..].to_vec();
    let next_pages = log
        .iter()
        .filter(|s| s.target.contains("/openfda/") && s.target.contains("skip="))
        .count();
    assert!(next_pages >= 2, "openFDA was never paged: {log:?}");
    assert!(
        files_holding(&paged_path, KEY.as_bytes()).is_empty(),
        "the api_key echoed in a next link was stored"
    );

    // caps below what the sources hold: stated per family, the records taken kept
    let capped_lake = Lake::open(dir.path().join("capped").to_str().unwrap()).unwrap();
    cfg.openfda_max_pages = 1;
    cfg.ctgov_max_pages = 1;
    cfg.pubmed_max = 1;
    let (capped, _) = live(&capped_lake, &cfg).await;
    let caps = &capped.manifest.capped_searches;
    for fam in [
        Family::Ctgov,
        Family::FdaLabel,
        Family::Drugsfda,
        Family::Pubmed,
    ] {
        let c = caps
            .iter()
            .find(|c| c.family == fam)
            .unwrap_or_else(|| panic!("no capped {fam} search: {caps:?}"));
        assert!(c.total.is_some_and(|t| t > c.fetched), "{c:?}");
        let o = &capped.manifest.assets[&c.asset].families[&fam];
        assert!(
            o.detail.contains("capped at") && o.detail.contains(&c.cap),
            "{fam}: {}",
            o.detail
        );
    }
    assert!(caps.iter().any(|c| c.cap == "openfda_max_pages = 1"));
    assert!(caps.iter().any(|c| c.cap == "pubmed_max = 1"));
    assert!(records(&capped.manifest).len() < records(&reference.manifest).len());
}

/// A night when CT.gov cannot be fetched reads as fetch failures, not as values that
/// vanished: every cell the study filled is `fetch_failed` in the diff, none `removed`,
/// and the digest names the family first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_night_reads_as_fetch_failures_in_the_diff() {
    let dir = tempfile::tempdir().unwrap();
    let lake = Lake::open(dir.path().join("lake").to_str().unwrap()).unwrap();
    let run = |lake: Lake, id: &'static str| async move {
        dossier::run::run(
            &lake,
            dossier::run::Options {
                snapshot: "latest".into(),
                assets: vec![],
                reasoner: dossier::run::Reasoner::Extractive,
                run_id: Some(id.into()),
                llm: None,
                ranks: dossier::run::precedence::Ranks::default_ranks(),
                shard: None,
                jobs: 2,
                progress: false,
                baseline: None,
                assumptions: dossier::run::reason::valuation::Book::shipped_arc(),
                judge: None,
            },
        )
        .await
        .unwrap()
    };
    let good = Builder::new(world()).start().await.unwrap();
    live(&lake, &config(&good), None).await;
    run(lake.clone(), "good-night").await;
    let bad = Builder::new(world())
        .fault("/ctgov/", Fault::Status(500), 10_000)
        .start()
        .await
        .unwrap();
    let mut cfg = config(&bad);
    cfg.retries = 1;
    live(&lake, &cfg, None).await;
    let second = run(lake.clone(), "bad-night").await;
    assert_eq!(
        second.manifest.baseline_run_id.as_deref(),
        Some("good-night")
    );
    use dossier::access::diff;
    let changes = diff::diff(
        &lake,
        &diff::Side::Run("good-night".into()),
        &diff::Side::Run("bad-night".into()),
        None,
    )
    .await
    .unwrap();
    let diff::Changes::Cells { rows, .. } = &changes else {
        panic!("a run diff gives cells")
    };
    let failed: Vec<_> = rows.iter().filter(|r| r.change == "fetch_failed").collect();
    assert!(failed.len() >= 5, "{rows:?}");
    assert!(
        failed
            .iter()
            .all(|r| r.new_status.as_deref() == Some("fetch_failed"))
    );
    assert!(
        failed.iter().any(|r| r.old_value.is_some()),
        "the last values are kept beside the failure"
    );
    assert!(
        rows.iter().all(|r| r.change != "removed"),
        "{:?}",
        rows.iter()
            .filter(|r| r.change == "removed")
            .collect::<Vec<_>>()
    );
    let md = changes.markdown();
    let at = |s: &str| md.find(s).unwrap_or_else(|| panic!("no {s:?} in {md}"));
    assert!(at("## Fetch failures") < at("## zelnorib"), "{md}");
    assert!(md.contains("- ctgov: could not be fetched for"), "{md}");
}
