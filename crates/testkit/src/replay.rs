//! A loopback stand-in for the public APIs, for tests and benchmarks of live snapshots
//! (no machine here reaches the internet). It serves a world read from an import
//! directory through the same routes as the real services, under one prefix each:
//! `/ctgov/api/v2/studies`, `/openfda/drug/{label,drugsfda}.json`,
//! `/sec/api/xbrl/companyfacts/CIK….json` and `/sec/submissions/CIK….json`,
//! `/ncbi/entrez/eutils/{esearch,efetch}.fcgi`, `/icd10/api/icd10cm/v3/search`, and any
//! press or epidemiology URL as `/web/<scheme>/<host>/<path>`. Search answers are built
//! from each record's exact bytes, so a fetched record hashes as its imported self.
//! openFDA pages carry `meta.results.total` and a `Link: rel="next"` on api.fda.gov, as
//! the real one does; CT.gov states `totalCount` when asked. Recorded exchanges
//! (cassettes) are served as recorded. Faults are injected on request
//! (429 with Retry-After, 5xx, a hang, a body cut short, malformed JSON, a wrong content
//! type, a slow drip), ETags answer conditional requests with 304, an optional limit per
//! API answers excess with 429, and every request is logged with the instant it arrived.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use dossier::Error;
use dossier::domain::Portfolio;
use dossier::domain::{Family, Record, sha256_hex};

/// A canned response.
#[derive(Clone, Debug)]
pub struct Canned {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Canned {
    pub fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Canned {
        Canned {
            status,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: body.into(),
        }
    }
}

/// A fault served instead of the real answer.
#[derive(Clone, Debug)]
pub enum Fault {
    /// 429 with `Retry-After: secs`.
    TooMany(u64),
    /// This status with a short text body.
    Status(u16),
    /// Accept the request and never answer.
    Hang,
    /// Announce the full length, send half the body, close.
    Truncate,
    /// 200 with a JSON body cut mid-way (declared length matches).
    Malformed,
    /// 200 with an HTML error page.
    WrongType,
    /// The real answer, a few bytes every `Duration`.
    Drip(Duration),
}

struct Rule {
    matches: String,
    fault: Fault,
    remaining: usize,
}

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub at: Instant,
    pub api: String,
    pub target: String,
    pub status: u16,
}

/// The records the server answers from.
#[derive(Default)]
pub struct World {
    /// ctgov v2 studies by NCT id (the latest version of each), with their text.
    studies: BTreeMap<String, (Vec<u8>, String)>,
    labels: Vec<(Vec<u8>, String)>,
    drugsfda: Vec<(Vec<u8>, String)>,
    openfda_updated: Option<String>,
    /// SEC objects by path: `companyfacts/CIK….json`, `submissions/CIK….json`.
    sec: BTreeMap<String, Vec<u8>>,
    /// PubMed articles by PMID, with their text.
    articles: BTreeMap<String, (Vec<u8>, String)>,
    /// ICD-10 answers by search terms.
    icd10: BTreeMap<String, Vec<u8>>,
    /// Press and epidemiology bodies by URL.
    web: BTreeMap<String, (Vec<u8>, &'static str)>,
}

fn lower_text(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw).to_lowercase()
}

impl World {
    /// Reads an import directory (the same files `snapshot --import` takes).
    pub fn from_import(dir: &Path, portfolio: &Portfolio) -> Result<World, Error> {
        let imported = dossier::snapshot::import::import_dir(dir, portfolio)?;
        let mut w = World::default();
        let mut versions: BTreeMap<String, (Option<String>, Record)> = BTreeMap::new();
        for r in imported.records {
            match r.family {
                Family::Ctgov if r.media_type == "application/json" => {
                    let newer = versions
                        .get(&r.record_key)
                        .is_none_or(|(c, _)| r.cutoff_date > *c);
                    if newer {
                        versions.insert(r.record_key.clone(), (r.cutoff_date.clone(), r));
                    }
                }
                Family::FdaLabel => w.labels.push((r.raw.to_vec(), lower_text(&r.raw))),
                Family::Drugsfda => w.drugsfda.push((r.raw.to_vec(), lower_text(&r.raw))),
                Family::Sec => {
                    let path = match r.record_key.strip_suffix("-submissions") {
                        Some(cik) => format!("submissions/{cik}.json"),
                        None if r.record_key.contains("-submissions-") => {
                            format!("submissions/{}.json", r.record_key)
                        }
                        None => format!("api/xbrl/companyfacts/{}.json", r.record_key),
                    };
                    w.sec.insert(path, r.raw.to_vec());
                }
                Family::Pubmed => {
                    w.articles
                        .insert(r.record_key.clone(), (r.raw.to_vec(), lower_text(&r.raw)));
                }
                Family::Icd10 => {
                    let terms = url::Url::parse(&r.url).ok().and_then(|u| {
                        u.query_pairs()
                            .find(|(k, _)| k == "terms")
                            .map(|(_, v)| v.to_lowercase())
                    });
                    if let Some(t) = terms {
                        w.icd10.insert(t, r.raw.to_vec());
                    }
                }
                Family::Press | Family::Epi => {
                    w.web.insert(r.url.clone(), (r.raw.to_vec(), r.media_type));
                }
                _ => {}
            }
        }
        for (nct, (_, r)) in versions {
            w.studies.insert(nct, (r.raw.to_vec(), lower_text(&r.raw)));
        }
        // openFDA's meta.last_updated, from the first openFDA file that states one
        for fam in ["fda_label", "drugsfda"] {
            let Ok(entries) = std::fs::read_dir(dir.join(fam)) else {
                continue;
            };
            for e in entries.flatten() {
                if let Ok(bytes) = std::fs::read(e.path())
                    && let Ok(v) = serde_json::from_slice::<serde_json::Value>(&bytes)
                    && let Some(u) = v.pointer("/meta/last_updated").and_then(|u| u.as_str())
                {
                    w.openfda_updated.get_or_insert_with(|| u.to_string());
                }
            }
        }
        Ok(w)
    }
}

struct State {
    world: World,
    cassettes: BTreeMap<String, Canned>,
    rules: Mutex<Vec<Rule>>,
    log: Mutex<Vec<Seen>>,
    enforce: BTreeMap<String, (usize, Duration)>,
    transit: BTreeMap<String, Duration>,
    arrivals: std::sync::atomic::AtomicU64,
}

/// A running server; stops when dropped.
pub struct Server {
    pub addr: SocketAddr,
    state: Arc<State>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The server's configuration before it starts.
#[derive(Default)]
pub struct Builder {
    world: World,
    cassettes: BTreeMap<String, Canned>,
    rules: Vec<Rule>,
    enforce: BTreeMap<String, (usize, Duration)>,
    transit: BTreeMap<String, Duration>,
}

impl Builder {
    pub fn new(world: World) -> Builder {
        Builder {
            world,
            ..Builder::default()
        }
    }

    /// Serves a recorded response for an exact path and query (e.g. `/openfda/drug/...`).
    pub fn cassette(mut self, target: &str, canned: Canned) -> Builder {
        self.cassettes.insert(target.to_string(), canned);
        self
    }

    /// Injects a fault into the next `times` requests whose path and query contain
    /// `matches`. Rules apply in the order given.
    pub fn fault(mut self, matches: &str, fault: Fault, times: usize) -> Builder {
        self.rules.push(Rule {
            matches: matches.to_string(),
            fault,
            remaining: times,
        });
        self
    }

    /// Answers 429 (Retry-After: 1) to requests of an API beyond `requests` per `per`.
    pub fn enforce(mut self, api: &str, requests: usize, per: Duration) -> Builder {
        self.enforce.insert(api.to_string(), (requests, per));
        self
    }

    /// Requests of an API take between 0 and `max` in transit (spread over the range,
    /// the same for every run): their arrival is logged that much after they were read,
    /// as a slow network or a busy sender would deliver them.
    pub fn transit(mut self, api: &str, max: Duration) -> Builder {
        self.transit.insert(api.to_string(), max);
        self
    }

    pub async fn start(self) -> std::io::Result<Server> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let state = Arc::new(State {
            world: self.world,
            cassettes: self.cassettes,
            rules: Mutex::new(self.rules),
            log: Mutex::new(Vec::new()),
            enforce: self.enforce,
            transit: self.transit,
            arrivals: std::sync::atomic::AtomicU64::new(0),
        });
        let s = state.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let s = s.clone();
                tokio::spawn(async move {
                    let _ = serve(stream, s).await;
                });
            }
        });
        Ok(Server { addr, state, task })
    }
}

impl Server {
    /// The base URL of one API prefix, e.g. `base("ctgov")`.
    pub fn base(&self, api: &str) -> String {
        format!("http://{}/{api}", self.addr)
    }

    /// Every request seen so far, in arrival order.
    pub fn log(&self) -> Vec<Seen> {
        self.state.log.lock().expect("log lock").clone()
    }
}

/// The most requests of one API inside any window of `per` (from the arrival log).
pub fn max_in_window(log: &[Seen], api: &str, per: Duration) -> usize {
    let times: Vec<Instant> = log.iter().filter(|s| s.api == api).map(|s| s.at).collect();
    let mut best = 0;
    let mut start = 0;
    for end in 0..times.len() {
        while times[end].duration_since(times[start]) >= per {
            start += 1;
        }
        best = best.max(end - start + 1);
    }
    best
}

/// Per API, from the arrival log: requests, arrival rate between the first and the last,
/// and the most requests seen in any 1 s and any 60 s window (`GET /__stats`).
pub fn stats_json(log: &[Seen]) -> String {
    let mut apis: BTreeMap<&str, Vec<Instant>> = BTreeMap::new();
    for s in log {
        apis.entry(s.api.as_str()).or_default().push(s.at);
    }
    let mut out = serde_json::Map::new();
    for (api, times) in apis {
        let span = times
            .last()
            .zip(times.first())
            .map(|(l, f)| l.duration_since(*f).as_secs_f64())
            .unwrap_or(0.0);
        let rate = if span > 0.0 {
            (times.len() - 1) as f64 / span
        } else {
            0.0
        };
        out.insert(
            api.to_string(),
            serde_json::json!({
                "requests": times.len(),
                "span_secs": span,
                "rate_per_sec": rate,
                "max_in_1s": max_in_window(log, api, Duration::from_secs(1)),
                "max_in_60s": max_in_window(log, api, Duration::from_secs(60)),
            }),
        );
    }
    serde_json::Value::Object(out).to_string()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        304 => "Not Modified",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

async fn serve(mut stream: TcpStream, state: Arc<State>) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await?;
        if n == 0 || head.len() > 64 * 1024 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&head).into_owned();
    let mut lines = text.split("\r\n");
    let target = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .unwrap_or("/")
        .to_string();
    let headers: BTreeMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let api = target
        .trim_start_matches('/')
        .split('/')
        .next()
        .unwrap_or("")
        .to_string();
    if let Some(max) = state.transit.get(&api) {
        let n = state
            .arrivals
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // 0, 0.37, 0.74, 0.11, ... of the maximum: late and early ones side by side
        let frac = (n.wrapping_mul(37) % 100) as f64 / 100.0;
        tokio::time::sleep(max.mul_f64(frac)).await;
    }
    let at = Instant::now();
    let fault = {
        let mut rules = state.rules.lock().expect("rules lock");
        rules
            .iter_mut()
            .find(|r| r.remaining > 0 && target.contains(&r.matches))
            .map(|r| {
                r.remaining -= 1;
                r.fault.clone()
            })
    };
    let over_limit = state.enforce.get(&api).is_some_and(|(n, per)| {
        let log = state.log.lock().expect("log lock");
        log.iter()
            .filter(|s| s.api == api && s.status != 429 && at.duration_since(s.at) < *per)
            .count()
            >= *n
    });
    if target == "/__stats" {
        let body = stats_json(&state.log.lock().expect("log lock"));
        let c = Canned::new(200, "application/json", body);
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            c.body.len()
        );
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(&c.body).await?;
        return Ok(());
    }
    let mut answer = if over_limit {
        let mut c = Canned::new(429, "text/plain", "rate limit exceeded");
        c.headers.push(("Retry-After".into(), "1".into()));
        c
    } else {
        route(&state, &target)
    };
    let mut drip = None;
    let mut truncate = false;
    match fault {
        None => {}
        Some(Fault::TooMany(secs)) => {
            answer = Canned::new(429, "text/plain", "slow down");
            answer
                .headers
                .push(("Retry-After".into(), secs.to_string()));
        }
        Some(Fault::Status(code)) => answer = Canned::new(code, "text/plain", "injected fault"),
        Some(Fault::Hang) => {
            log(&state, at, &api, &target, 0);
            tokio::time::sleep(Duration::from_secs(3600)).await;
            return Ok(());
        }
        Some(Fault::Truncate) => truncate = true,
        Some(Fault::Malformed) => {
            let cut = answer.body.len() / 2;
            answer.body.truncate(cut.max(1));
        }
        Some(Fault::WrongType) => {
            answer = Canned::new(
                200,
                "text/html",
                "<html><body><h1>Service temporarily unavailable</h1></body></html>",
            )
        }
        Some(Fault::Drip(every)) => drip = Some(every),
    }
    // conditional requests: an ETag per body
    if answer.status == 200 && !truncate {
        let etag = format!("\"{}\"", &sha256_hex(&answer.body)[..16]);
        if headers.get("if-none-match") == Some(&etag) {
            answer = Canned {
                status: 304,
                headers: vec![],
                body: vec![],
            };
        }
        answer.headers.push(("ETag".into(), etag));
    }
    log(&state, at, &api, &target, answer.status);
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        answer.status,
        reason(answer.status),
        answer.body.len()
    );
    for (k, v) in &answer.headers {
        if !k.eq_ignore_ascii_case("content-length")
            && !k.eq_ignore_ascii_case("content-encoding")
            && !k.eq_ignore_ascii_case("transfer-encoding")
            && !k.eq_ignore_ascii_case("connection")
        {
            out.push_str(&format!("{k}: {v}\r\n"));
        }
    }
    out.push_str("\r\n");
    stream.write_all(out.as_bytes()).await?;
    if truncate {
        stream
            .write_all(&answer.body[..answer.body.len() / 2])
            .await?;
    } else if let Some(every) = drip {
        for chunk in answer.body.chunks(16) {
            stream.write_all(chunk).await?;
            stream.flush().await?;
            tokio::time::sleep(every).await;
        }
    } else {
        stream.write_all(&answer.body).await?;
    }
    stream.flush().await?;
    let _ = stream.shutdown().await;
    Ok(())
}

fn log(state: &State, at: Instant, api: &str, target: &str, status: u16) {
    state.log.lock().expect("log lock").push(Seen {
        at,
        api: api.to_string(),
        target: target.to_string(),
        status,
    });
}

fn not_found() -> Canned {
    Canned::new(404, "text/plain", "not found")
}

/// Quoted terms of an openFDA `search` (`field:"value"` joined by OR, `+` or spaces).
fn quoted(search: &str) -> Vec<String> {
    search
        .split('"')
        .skip(1)
        .step_by(2)
        .map(|t| t.to_lowercase())
        .filter(|t| !t.is_empty())
        .collect()
}

fn json_list(items: &[&[u8]]) -> Vec<u8> {
    let mut out = b"[".to_vec();
    for (i, raw) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(raw);
    }
    out.push(b']');
    out
}

fn route(state: &State, target: &str) -> Canned {
    if let Some(c) = state.cassettes.get(target) {
        return c.clone();
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let q: BTreeMap<String, String> = url::form_urlencoded::parse(query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let w = &state.world;
    let num = |k: &str, d: usize| q.get(k).and_then(|v| v.parse().ok()).unwrap_or(d);
    match path {
        "/ctgov/api/v2/studies" => {
            let ids: Vec<String> = q
                .get("filter.ids")
                .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
                .unwrap_or_default();
            let terms: Vec<String> = q
                .get("query.intr")
                .map(|v| {
                    v.split(" OR ")
                        .map(|t| t.trim().trim_matches('"').to_lowercase())
                        .filter(|t| !t.is_empty())
                        .collect()
                })
                .unwrap_or_default();
            let hits: Vec<&[u8]> = w
                .studies
                .iter()
                .filter(|(nct, (_, text))| {
                    (ids.is_empty() || ids.contains(nct))
                        && (terms.is_empty() || terms.iter().any(|t| text.contains(t.as_str())))
                })
                .map(|(_, (raw, _))| raw.as_slice())
                .collect();
            let size = num("pageSize", 10).clamp(1, 1000);
            let start = num("pageToken", 0);
            let page: Vec<&[u8]> = hits.iter().skip(start).take(size).copied().collect();
            let mut body = b"{\"studies\":".to_vec();
            body.extend(json_list(&page));
            if q.get("countTotal").is_some_and(|v| v == "true") {
                body.extend(format!(",\"totalCount\":{}", hits.len()).into_bytes());
            }
            if start + size < hits.len() {
                body.extend(format!(",\"nextPageToken\":\"{}\"", start + size).into_bytes());
            }
            body.push(b'}');
            Canned::new(200, "application/json", body)
        }
        "/openfda/drug/label.json" | "/openfda/drug/drugsfda.json" => {
            let records = if path.ends_with("label.json") {
                &w.labels
            } else {
                &w.drugsfda
            };
            let terms = quoted(q.get("search").map(String::as_str).unwrap_or(""));
            let hits: Vec<&[u8]> = records
                .iter()
                .filter(|(_, text)| {
                    terms
                        .iter()
                        .any(|t| text.contains(&format!("\"{t}\"")) || text.contains(t.as_str()))
                })
                .map(|(raw, _)| raw.as_slice())
                .collect();
            if hits.is_empty() {
                return Canned::new(
                    404,
                    "application/json",
                    r#"{"error":{"code":"NOT_FOUND","message":"No matches found!"}}"#,
                );
            }
            let (skip, limit) = (num("skip", 0), num("limit", 1).clamp(1, 1000));
            let page: Vec<&[u8]> = hits.iter().skip(skip).take(limit).copied().collect();
            let meta = serde_json::json!({
                "last_updated": w.openfda_updated.clone().unwrap_or_else(|| "2026-01-01".into()),
                "results": {"skip": skip, "limit": limit, "total": hits.len()}
            });
            let mut body = format!("{{\"meta\":{meta},\"results\":").into_bytes();
            body.extend(json_list(&page));
            body.push(b'}');
            let mut c = Canned::new(200, "application/json", body);
            if skip + limit < hits.len() {
                // as openFDA does: the next page as an absolute link on its own host, the
                // request's parameters echoed (an api_key among them)
                let mut next = url::form_urlencoded::Serializer::new(String::new());
                for (k, v) in &q {
                    if k != "skip" {
                        next.append_pair(k, v);
                    }
                }
                next.append_pair("skip", &(skip + limit).to_string());
                let link = format!(
                    "<https://api.fda.gov{}?{}>; rel=\"next\"",
                    &path["/openfda".len()..],
                    next.finish()
                );
                c.headers.push(("Link".into(), link));
            }
            c
        }
        p if p.starts_with("/sec/") => match w.sec.get(&p["/sec/".len()..]) {
            Some(raw) => Canned::new(200, "application/json", raw.clone()),
            None => not_found(),
        },
        "/ncbi/entrez/eutils/esearch.fcgi" => {
            let terms: Vec<String> = quoted(q.get("term").map(String::as_str).unwrap_or(""));
            let max = num("retmax", 20);
            let hits: Vec<&String> = w
                .articles
                .iter()
                .filter(|(_, (_, text))| terms.iter().any(|t| text.contains(t.as_str())))
                .map(|(id, _)| id)
                .collect();
            // as E-utilities: the count of every match, the ids up to retmax
            let ids: Vec<&String> = hits.iter().take(max).copied().collect();
            let body = serde_json::json!({"esearchresult": {"count": hits.len().to_string(), "retmax": max.to_string(), "idlist": ids}});
            Canned::new(200, "application/json", body.to_string())
        }
        "/ncbi/entrez/eutils/efetch.fcgi" => {
            let mut body = b"<?xml version=\"1.0\" ?>\n<PubmedArticleSet>\n".to_vec();
            for id in q.get("id").map(String::as_str).unwrap_or("").split(',') {
                if let Some((raw, _)) = w.articles.get(id.trim()) {
                    body.extend_from_slice(raw);
                    body.push(b'\n');
                }
            }
            body.extend_from_slice(b"</PubmedArticleSet>\n");
            Canned::new(200, "text/xml", body)
        }
        "/icd10/api/icd10cm/v3/search" => {
            let terms = q.get("terms").map(|t| t.to_lowercase()).unwrap_or_default();
            match w.icd10.get(&terms) {
                Some(raw) => Canned::new(200, "application/json", raw.clone()),
                None => Canned::new(200, "application/json", "[0,[],null,[]]"),
            }
        }
        p if p.starts_with("/web/") => {
            let rest = &target["/web/".len()..];
            let url = rest
                .split_once('/')
                .map(|(scheme, r)| format!("{scheme}://{r}"));
            match url.and_then(|u| w.web.get(&u)) {
                Some((raw, media)) => Canned::new(200, media, raw.clone()),
                None => not_found(),
            }
        }
        _ => not_found(),
    }
}
