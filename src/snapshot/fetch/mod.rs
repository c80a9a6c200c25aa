//! `dossier snapshot --live`: Layer 1 from the public APIs. Each asset's families are
//! fetched concurrently through the polite client (`http.rs`); every response becomes an
//! import file (the same family parsers as `--import`, so a live snapshot and an import
//! of the responses it saved give the same bundles) and goes through the same resolution,
//! bundling and manifest. A family whose fetch failed after retries is `fetch_failed`
//! with its error in the manifest and the catalog, never empty, and keeps whatever its
//! other requests brought; other families are untouched.
//!
//! Nightly incrementality: every URL's ETag, Last-Modified and body hash are kept under
//! `fetch/cache/` in the lake and its body as a content-addressed object; the next
//! snapshot asks conditionally, reuses the stored body on 304, and keeps the first
//! retrieval time of unchanged content, so an unchanged world gives the same snapshot id.

mod error;
pub mod http;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::StreamExt;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::domain::{Asset, Portfolio, SourceMeta};
use crate::domain::{Family, FamilyStatus, Hash256, sha256_hex};
use crate::lake::Lake;
use crate::lake::manifest::{CappedSearch, Diagnostics, FetchFailure, SnapshotManifest};
use crate::snapshot::import::{self, ImportFile, Parsed};
use crate::snapshot::{self, SnapshotOutcome};
pub use error::LiveError;
use http::{Client, HttpConfig, Invalid, Limit};

/// Live-fetch settings: `[live]` of a TOML file (`--live-config`), with API keys and the
/// SEC contact also from the environment.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LiveConfig {
    /// Sent on every request; SEC requires a contact (name and email).
    pub user_agent: String,
    pub openfda_api_key: Option<String>,
    pub ncbi_api_key: Option<String>,
    pub ncbi_tool: String,
    pub ncbi_email: Option<String>,
    /// Base URLs (mirrors, tests).
    pub ctgov_base: String,
    pub openfda_base: String,
    pub sec_base: String,
    pub ncbi_base: String,
    pub icd10_base: String,
    /// Press and epidemiology URLs are fetched as `{web_mirror}/{scheme}/{host}/{path}`
    /// when set (the record keeps its own URL).
    pub web_mirror: Option<String>,
    /// Requests per minute per API: ctgov, openfda, sec, ncbi, icd10, web (per host).
    pub per_minute: BTreeMap<String, f64>,
    pub timeout_secs: f64,
    pub max_bytes: u64,
    pub retries: u32,
    pub backoff_base_ms: u64,
    pub backoff_cap_ms: u64,
    pub max_retry_after_secs: u64,
    pub headroom: f64,
    /// Assets fetched at once. Each API's gate paces its own requests, so this only
    /// needs to be large enough to keep every gate busy.
    pub concurrency: usize,
    /// Pages followed per CT.gov search, of `ctgov_page_size` studies each.
    pub ctgov_max_pages: usize,
    pub ctgov_page_size: usize,
    /// Pages followed per openFDA search (its `Link: rel="next"`, else `skip` up to
    /// `meta.results.total`), of `openfda_page_size` results each.
    pub openfda_max_pages: usize,
    pub openfda_page_size: usize,
    /// PMIDs taken per PubMed search (`retmax`).
    pub pubmed_max: usize,
    /// Families not fetched, on purpose: their status is `skipped`, saying so.
    pub skip: Vec<Family>,
}

impl Default for LiveConfig {
    fn default() -> LiveConfig {
        LiveConfig {
            user_agent: format!(
                "dossier/{} (set live.user_agent to a name and contact email)",
                env!("CARGO_PKG_VERSION")
            ),
            openfda_api_key: None,
            ncbi_api_key: None,
            ncbi_tool: "dossier".into(),
            ncbi_email: None,
            ctgov_base: "https://clinicaltrials.gov".into(),
            openfda_base: "https://api.fda.gov".into(),
            sec_base: "https://data.sec.gov".into(),
            ncbi_base: "https://eutils.ncbi.nlm.nih.gov".into(),
            icd10_base: "https://clinicaltables.nlm.nih.gov".into(),
            web_mirror: None,
            per_minute: BTreeMap::new(),
            timeout_secs: 30.0,
            max_bytes: 256 << 20,
            retries: 4,
            backoff_base_ms: 500,
            backoff_cap_ms: 30_000,
            max_retry_after_secs: 300,
            headroom: 0.97,
            concurrency: 512,
            ctgov_max_pages: 5,
            ctgov_page_size: 100,
            openfda_max_pages: 10,
            openfda_page_size: 100,
            pubmed_max: 20,
            skip: Vec::new(),
        }
    }
}

/// Whether a User-Agent names a contact: an email address (`name@domain.tld`).
fn has_contact(agent: &str) -> bool {
    agent
        .split(|c: char| c.is_whitespace() || "()<>,;\"'".contains(c))
        .any(|t| {
            t.split_once('@').is_some_and(|(local, domain)| {
                !local.is_empty()
                    && !domain.contains('@')
                    && domain.split('.').count() >= 2
                    && domain.split('.').all(|p| !p.is_empty())
            })
        })
}

impl LiveConfig {
    /// Refuses a live snapshot that would fetch SEC without a contact in the User-Agent
    /// (SEC answers every such request with 403): either name one or skip SEC on purpose.
    pub fn check(&self, portfolio: &Portfolio) -> Result<(), LiveError> {
        let needs_sec = !self.skip.contains(&Family::Sec)
            && portfolio.asset.iter().any(|a| a.sponsor_cik.is_some());
        if needs_sec && !has_contact(&self.user_agent) {
            return Err(LiveError::NoContact {
                agent: self.user_agent.clone(),
            });
        }
        Ok(())
    }

    /// The limit of each API: the documented ones unless configured (openFDA 240/min,
    /// SEC 10/s, NCBI 3/s or 10/s with a key; CT.gov and NLM 10/s; web hosts 1/s).
    pub fn limits(&self) -> (BTreeMap<String, Limit>, Limit) {
        let ncbi = if self.ncbi_api_key.is_some() {
            600.0
        } else {
            180.0
        };
        let defaults = [
            ("ctgov", 600.0),
            ("openfda", 240.0),
            ("sec", 600.0),
            ("ncbi", ncbi),
            ("icd10", 600.0),
            ("web", 60.0),
        ];
        // the window a limit is stated in: a second when it is whole requests per second
        // (SEC, NCBI), else a minute (openFDA's 240/min is 4/s, so a second too), else one
        // request per its share of a minute
        let limit = |per_min: f64| {
            let per_min = per_min.max(1e-3);
            let per_sec = per_min / 60.0;
            if per_sec >= 1.0 && (per_sec - per_sec.round()).abs() < 1e-9 {
                Limit {
                    requests: per_sec.round() as u32,
                    per: Duration::from_secs(1),
                }
            } else if per_min >= 1.0 && (per_min - per_min.round()).abs() < 1e-9 {
                Limit {
                    requests: per_min.round() as u32,
                    per: Duration::from_secs(60),
                }
            } else {
                Limit {
                    requests: 1,
                    per: Duration::from_secs_f64(60.0 / per_min),
                }
            }
        };
        let mut out = BTreeMap::new();
        for (api, d) in defaults {
            out.insert(
                api.to_string(),
                limit(self.per_minute.get(api).copied().unwrap_or(d)),
            );
        }
        let web = out["web"];
        (out, web)
    }

    fn http(&self) -> HttpConfig {
        let (limits, default_limit) = self.limits();
        HttpConfig {
            user_agent: self.user_agent.clone(),
            timeout: Duration::from_secs_f64(self.timeout_secs),
            max_bytes: self.max_bytes,
            retries: self.retries,
            backoff_base: Duration::from_millis(self.backoff_base_ms),
            backoff_cap: Duration::from_millis(self.backoff_cap_ms),
            max_retry_after: Duration::from_secs(self.max_retry_after_secs),
            headroom: self.headroom,
            limits,
            default_limit,
            credentials: [
                ("openfda", &self.openfda_api_key),
                ("ncbi", &self.ncbi_api_key),
            ]
            .into_iter()
            .filter_map(|(api, key)| {
                let key = key.as_ref()?;
                Some((api.to_string(), vec![("api_key".to_string(), key.clone())]))
            })
            .collect(),
        }
    }
}

/// What the lake remembers of one URL, for conditional requests.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct CacheEntry {
    url: String,
    etag: Option<String>,
    last_modified: Option<String>,
    /// The body's Content-Type (absent in entries written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    content_type: Option<String>,
    /// The response's next page (`Link: rel="next"`), needed again on 304.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    next: Option<String>,
    body_sha256: String,
    /// When this exact body was first retrieved.
    retrieved_at: String,
}

/// One fetched body and its retrieval time.
#[derive(Clone)]
struct Got {
    status: u16,
    body: Bytes,
    content_type: Option<String>,
    next: Option<String>,
    retrieved_at: String,
}

/// The outcome of one family of one asset.
#[derive(Default)]
struct FamilyFetch {
    files: Vec<ImportFile>,
    /// Every request of the family that failed after retries: (URL, error).
    failures: Vec<(String, String)>,
    /// Searches that stopped at a configured cap with results left.
    capped: Vec<Capped>,
}

/// A search that stopped at its cap: its first page, what was fetched of how many.
struct Capped {
    url: String,
    fetched: u64,
    total: Option<u64>,
    cap: String,
}

impl FamilyFetch {
    /// Records a failed request of the family (each URL once).
    fn fail(&mut self, url: &str, why: String) {
        if !self.failures.iter().any(|(u, _)| u == url) {
            self.failures.push((url.to_string(), why));
        }
    }

    /// Keeps a fetched body as an import file named `rel`.
    fn push(&mut self, family: Family, rel: String, g: Got, meta_url: Option<String>) {
        self.files.push(ImportFile {
            family,
            rel,
            bytes: g.body,
            meta: Some(SourceMeta {
                url: meta_url,
                retrieved_at: Some(g.retrieved_at),
                ..SourceMeta::default()
            }),
        });
    }

    /// Records a failed fetch with its whole chain of causes.
    fn failed(&mut self, url: &str, e: &LiveError) {
        self.fail(url, crate::error::chain(e));
    }
}

/// Counters for the summary.
#[derive(Default, Debug, Clone)]
pub struct LiveStats {
    pub requests: BTreeMap<String, http::ApiStats>,
    pub reused: u64,
    pub downloaded_bytes: u64,
    pub limits: BTreeMap<String, f64>,
    pub fetch_secs: f64,
}

/// One URL's fetch, shared by every asset that asks for it (errors behind an `Arc`, as
/// the transport errors inside them cannot be cloned).
type Fetched = Result<Got, Arc<LiveError>>;
type Shared = Arc<tokio::sync::OnceCell<Fetched>>;

struct Fetcher<'a> {
    cfg: &'a LiveConfig,
    client: Client,
    lake: &'a Lake,
    /// One fetch per URL per snapshot, shared by every asset that needs it.
    memo: Mutex<BTreeMap<String, Shared>>,
    reused: Mutex<u64>,
}

fn now() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

fn cache_key(url: &str) -> String {
    format!("fetch/cache/{}.json", sha256_hex(url.as_bytes()))
}

/// A validator that runs the family parser over a candidate body.
fn parses<'a>(
    family: Family,
    rel: &'a str,
    url: Option<&'a str>,
) -> impl Fn(&[u8], Option<&str>) -> Result<(), Invalid> + Sync + 'a {
    move |bytes: &[u8], _content_type: Option<&str>| {
        let f = ImportFile {
            family,
            rel: rel.to_string(),
            bytes: Bytes::copy_from_slice(bytes),
            meta: Some(SourceMeta {
                url: Some(url.unwrap_or("https://validation.invalid/").to_string()),
                ..SourceMeta::default()
            }),
        };
        import::parse_file(&f).map(|_| ()).map_err(Invalid::from)
    }
}

impl Fetcher<'_> {
    /// GETs a URL once per snapshot (memoized), conditionally against the lake's cache.
    async fn get(&self, api: &str, url: &str, validate: http::Validate<'_>) -> Fetched {
        let cell = self
            .memo
            .lock()
            .expect("memo lock")
            .entry(url.to_string())
            .or_default()
            .clone();
        cell.get_or_init(|| async {
            self.get_uncached(api, url, validate)
                .await
                .map_err(Arc::new)
        })
        .await
        .clone()
    }

    async fn get_uncached(
        &self,
        api: &str,
        url: &str,
        validate: http::Validate<'_>,
    ) -> Result<Got, LiveError> {
        let key = cache_key(url);
        let cached: Option<CacheEntry> = match self.lake.get(&key).await {
            Ok(b) => serde_json::from_slice(&b).ok(),
            Err(_) => None,
        };
        let cond = cached
            .as_ref()
            .map(|c| (c.etag.as_deref(), c.last_modified.as_deref()))
            .unwrap_or((None, None));
        let resp = self.client.get(api, url, cond, validate).await?;
        if resp.not_modified {
            let c = cached.ok_or_else(|| LiveError::NotModifiedUncached {
                url: url.to_string(),
            })?;
            let hash =
                Hash256::try_from(c.body_sha256.clone()).map_err(|e| LiveError::BadCacheEntry {
                    key,
                    reason: e.to_string(),
                })?;
            let body = self.lake.get_object(&hash).await?;
            *self.reused.lock().expect("reused lock") += 1;
            return Ok(Got {
                status: 200,
                body,
                content_type: c.content_type,
                next: c.next,
                retrieved_at: c.retrieved_at,
            });
        }
        if resp.status != 200 {
            return Ok(Got {
                status: resp.status,
                body: resp.body,
                content_type: resp.content_type,
                next: resp.next,
                retrieved_at: now(),
            });
        }
        let sha = sha256_hex(&resp.body);
        let retrieved_at = match &cached {
            Some(c) if c.body_sha256 == sha => c.retrieved_at.clone(),
            _ => now(),
        };
        self.lake.put_object(resp.body.clone()).await?;
        let entry = CacheEntry {
            url: url.to_string(),
            etag: resp.etag,
            last_modified: resp.last_modified,
            content_type: resp.content_type.clone(),
            next: resp.next.clone(),
            body_sha256: sha,
            retrieved_at: retrieved_at.clone(),
        };
        let bytes = serde_json::to_vec(&entry).expect("cache entries serialize");
        self.lake.put_overwrite(&key, bytes.into()).await?;
        Ok(Got {
            status: 200,
            body: resp.body,
            content_type: resp.content_type,
            next: resp.next,
            retrieved_at,
        })
    }

    /// Fetches one URL into an import file of `family` named `rel`; 404 and empty are
    /// `Ok(None)`.
    async fn file(
        &self,
        out: &mut FamilyFetch,
        family: Family,
        api: &str,
        url: &str,
        rel: String,
        meta_url: Option<String>,
    ) -> Option<Got> {
        let (name, meta) = (rel.clone(), meta_url.clone());
        let validate = parses(family, &name, meta.as_deref());
        match self.get(api, url, &validate).await {
            Err(e) => {
                out.failed(url, &e);
                None
            }
            Ok(g) if g.status == 404 => None,
            Ok(g) => {
                out.push(family, rel, g.clone(), meta_url);
                Some(g)
            }
        }
    }

    fn url(base: &str, path: &str, query: &[(&str, &str)]) -> String {
        let mut u = format!("{}{path}", base.trim_end_matches('/'));
        if !query.is_empty() {
            u.push('?');
            u.push_str(
                &url::form_urlencoded::Serializer::new(String::new())
                    .extend_pairs(query)
                    .finish(),
            );
        }
        u
    }

    async fn ctgov(&self, a: &Asset) -> FamilyFetch {
        let mut out = FamilyFetch::default();
        let ids = a.trials.join(",");
        let names = a
            .names
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(" OR ");
        let mut searches: Vec<(&str, Vec<(&str, String)>)> = Vec::new();
        if !a.trials.is_empty() {
            searches.push(("ids", vec![("filter.ids", ids)]));
        }
        searches.push(("intr", vec![("query.intr", names)]));
        let size = self.cfg.ctgov_page_size.clamp(1, 1000).to_string();
        for (tag, params) in searches {
            let mut token: Option<String> = None;
            let (mut fetched, mut total, mut first) = (0u64, None, String::new());
            for page in 1..=self.cfg.ctgov_max_pages {
                let mut q: Vec<(&str, &str)> =
                    params.iter().map(|(k, v)| (*k, v.as_str())).collect();
                q.push(("pageSize", &size));
                match &token {
                    Some(t) => q.push(("pageToken", t)),
                    None => q.push(("countTotal", "true")),
                }
                let url = Self::url(&self.cfg.ctgov_base, "/api/v2/studies", &q);
                let rel = format!("ctgov/{}-{tag}-p{page}.json", a.id.as_str());
                let Some(got) = self
                    .file(&mut out, Family::Ctgov, "ctgov", &url, rel, None)
                    .await
                else {
                    break;
                };
                let v = serde_json::from_slice::<serde_json::Value>(&got.body).ok();
                let v = v.as_ref();
                fetched += v
                    .and_then(|v| v["studies"].as_array())
                    .map_or(0, |s| s.len() as u64);
                if page == 1 {
                    total = v.and_then(|v| v["totalCount"].as_u64());
                    first = url;
                }
                token = v.and_then(|v| v["nextPageToken"].as_str().map(str::to_string));
                if token.is_none() {
                    break;
                }
                if page == self.cfg.ctgov_max_pages {
                    out.capped.push(Capped {
                        url: first.clone(),
                        fetched,
                        total,
                        cap: format!("ctgov_max_pages = {page}"),
                    });
                }
            }
        }
        out
    }

    fn openfda_query(&self, search: &str, limit: &str) -> Vec<(&'static str, String)> {
        vec![("search", search.to_string()), ("limit", limit.to_string())]
    }

    fn name_search(a: &Asset) -> String {
        a.names
            .iter()
            .flat_map(|n| {
                [
                    format!("openfda.brand_name:\"{n}\""),
                    format!("openfda.generic_name:\"{n}\""),
                ]
            })
            .collect::<Vec<_>>()
            .join(" OR ")
    }

    /// An openFDA search, page by page: the `Link: rel="next"` openFDA sends, else `skip`
    /// up to `meta.results.total`, within `openfda_max_pages`. Returns every page's body.
    async fn openfda(
        &self,
        a: &Asset,
        family: Family,
        endpoint: &str,
        search: &str,
        tag: &str,
        out: &mut FamilyFetch,
    ) -> Vec<Bytes> {
        let size = self.cfg.openfda_page_size.clamp(1, 1000);
        let limit = size.to_string();
        let q = self.openfda_query(search, &limit);
        let qr: Vec<(&str, &str)> = q.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let first = Self::url(&self.cfg.openfda_base, endpoint, &qr);
        let mut url = first.clone();
        let (mut bodies, mut fetched) = (Vec::new(), 0u64);
        for page in 1..=self.cfg.openfda_max_pages.max(1) {
            let rel = match page {
                1 => format!("{family}/{}-{tag}.json", a.id.as_str()),
                n => format!("{family}/{}-{tag}-p{n}.json", a.id.as_str()),
            };
            let Some(got) = self.file(out, family, "openfda", &url, rel, None).await else {
                break;
            };
            let v = serde_json::from_slice::<serde_json::Value>(&got.body).ok();
            let n = v
                .as_ref()
                .and_then(|v| v["results"].as_array())
                .map_or(0, |r| r.len() as u64);
            let total = v
                .as_ref()
                .and_then(|v| v.pointer("/meta/results/total"))
                .and_then(|t| t.as_u64());
            fetched += n;
            bodies.push(got.body);
            let next = match got
                .next
                .as_deref()
                .and_then(|l| self.openfda_next(endpoint, l))
            {
                Some(link) => Some(link),
                None => match total {
                    Some(t) if fetched < t && n > 0 => {
                        let skip = fetched.to_string();
                        let mut qs = qr.clone();
                        qs.push(("skip", &skip));
                        Some(Self::url(&self.cfg.openfda_base, endpoint, &qs))
                    }
                    _ => None,
                },
            };
            let Some(next) = next else { break };
            if total.is_some_and(|t| fetched >= t) || n == 0 {
                break;
            }
            if page == self.cfg.openfda_max_pages.max(1) {
                out.capped.push(Capped {
                    url: first.clone(),
                    fetched,
                    total,
                    cap: format!("openfda_max_pages = {page}"),
                });
                break;
            }
            url = next;
        }
        bodies
    }

    /// openFDA's next-page link on the configured base (a mirror, a test server), only for
    /// the same endpoint (the client has already taken out the api_key it echoes).
    fn openfda_next(&self, endpoint: &str, link: &str) -> Option<String> {
        let link = url::Url::parse(link).ok()?;
        if !link.path().ends_with(endpoint) {
            return None;
        }
        let query: Vec<(String, String)> = link
            .query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        let pairs: Vec<(&str, &str)> = query
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        Some(Self::url(&self.cfg.openfda_base, endpoint, &pairs))
    }

    /// The label by the asset's names; the pharmacologic classes it states.
    async fn label(&self, a: &Asset) -> (FamilyFetch, Vec<String>) {
        let mut out = FamilyFetch::default();
        let bodies = self
            .openfda(
                a,
                Family::FdaLabel,
                "/drug/label.json",
                &Self::name_search(a),
                "names",
                &mut out,
            )
            .await;
        let mut classes = Vec::new();
        for v in bodies
            .iter()
            .filter_map(|b| serde_json::from_slice::<serde_json::Value>(b).ok())
        {
            for r in v["results"].as_array().into_iter().flatten() {
                for c in r
                    .pointer("/openfda/pharm_class_epc")
                    .and_then(|c| c.as_array())
                    .into_iter()
                    .flatten()
                {
                    if let Some(s) = c.as_str()
                        && !classes.iter().any(|x| x == s)
                    {
                        classes.push(s.to_string());
                    }
                }
            }
        }
        (out, classes)
    }

    /// Approvals by the asset's names, and competitors by its pharmacologic classes.
    async fn drugsfda(&self, a: &Asset, classes: &[String]) -> FamilyFetch {
        let mut out = FamilyFetch::default();
        self.openfda(
            a,
            Family::Drugsfda,
            "/drug/drugsfda.json",
            &Self::name_search(a),
            "names",
            &mut out,
        )
        .await;
        if !classes.is_empty() {
            let search = classes
                .iter()
                .map(|c| format!("openfda.pharm_class_epc:\"{c}\""))
                .collect::<Vec<_>>()
                .join(" OR ");
            self.openfda(
                a,
                Family::Drugsfda,
                "/drug/drugsfda.json",
                &search,
                "class",
                &mut out,
            )
            .await;
        }
        out
    }

    async fn sec(&self, a: &Asset) -> FamilyFetch {
        let mut out = FamilyFetch::default();
        let Some(cik) = &a.sponsor_cik else {
            return out;
        };
        let cik = format!("{cik:0>10}");
        for path in [
            format!("/api/xbrl/companyfacts/CIK{cik}.json"),
            format!("/submissions/CIK{cik}.json"),
        ] {
            let url = Self::url(&self.cfg.sec_base, &path, &[]);
            let rel = format!(
                "sec/CIK{cik}-{}.json",
                if path.contains("xbrl") {
                    "facts"
                } else {
                    "submissions"
                }
            );
            self.file(&mut out, Family::Sec, "sec", &url, rel, None)
                .await;
        }
        out
    }

    fn ncbi_query<'q>(&'q self, mut q: Vec<(&'q str, &'q str)>) -> Vec<(&'q str, &'q str)> {
        q.push(("tool", &self.cfg.ncbi_tool));
        if let Some(e) = &self.cfg.ncbi_email {
            q.push(("email", e));
        }
        q
    }

    async fn pubmed(&self, a: &Asset) -> FamilyFetch {
        let mut out = FamilyFetch::default();
        let term = a
            .names
            .iter()
            .map(|n| format!("\"{n}\"[tiab]"))
            .collect::<Vec<_>>()
            .join(" OR ");
        let max = self.cfg.pubmed_max.to_string();
        let q = self.ncbi_query(vec![
            ("db", "pubmed"),
            ("term", &term),
            ("retmax", &max),
            ("retmode", "json"),
        ]);
        let url = Self::url(&self.cfg.ncbi_base, "/entrez/eutils/esearch.fcgi", &q);
        let json_ok = |b: &[u8], _: Option<&str>| -> Result<(), Invalid> {
            let v = serde_json::from_slice::<serde_json::Value>(b)?;
            v.pointer("/esearchresult/idlist")
                .and_then(|l| l.as_array())
                .map(|_| ())
                .ok_or_else(|| "no esearchresult.idlist".into())
        };
        let found = match self.get("ncbi", &url, &json_ok).await {
            Err(e) => {
                out.failed(&url, &e);
                return out;
            }
            Ok(g) => serde_json::from_slice::<serde_json::Value>(&g.body).ok(),
        };
        let result = found.as_ref().and_then(|v| v.get("esearchresult"));
        let ids: Vec<String> = result
            .and_then(|r| r["idlist"].as_array())
            .map(|l| {
                l.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        // E-utilities states the count as a string
        let count = result.and_then(|r| match &r["count"] {
            serde_json::Value::String(c) => c.parse::<u64>().ok(),
            c => c.as_u64(),
        });
        if let Some(total) = count
            && total > ids.len() as u64
        {
            out.capped.push(Capped {
                url: url.clone(),
                fetched: ids.len() as u64,
                total: Some(total),
                cap: format!("pubmed_max = {}", self.cfg.pubmed_max),
            });
        }
        if ids.is_empty() {
            return out;
        }
        let joined = ids.join(",");
        let q = self.ncbi_query(vec![("db", "pubmed"), ("id", &joined), ("retmode", "xml")]);
        let url = Self::url(&self.cfg.ncbi_base, "/entrez/eutils/efetch.fcgi", &q);
        let rel = format!("pubmed/{}.xml", a.id.as_str());
        self.file(&mut out, Family::Pubmed, "ncbi", &url, rel, None)
            .await;
        out
    }

    async fn icd10(&self, a: &Asset) -> FamilyFetch {
        let mut out = FamilyFetch::default();
        for (i, terms) in a.icd10_terms().iter().enumerate() {
            let q = [("sf", "code,name"), ("terms", terms.as_str())];
            let url = Self::url(&self.cfg.icd10_base, "/api/icd10cm/v3/search", &q);
            let canonical = Self::url(
                "https://clinicaltables.nlm.nih.gov",
                "/api/icd10cm/v3/search",
                &q,
            )
            .replace('+', "%20");
            let rel = format!("icd10/{}-{i}.json", a.id.as_str());
            let empty = b"[0,[],null,[]]";
            if let Some(b) = self
                .file(&mut out, Family::Icd10, "icd10", &url, rel, Some(canonical))
                .await
                && b.body.starts_with(b"[0,")
                && b.body.len() <= empty.len() + 8
            {
                out.files.pop();
            }
        }
        out
    }

    /// Press or epidemiology pages named in the portfolio. The format (and so the saved
    /// file's extension) is the response's, by Content-Type then body, not the URL's: a
    /// body that no format of the family reads as text fails the request.
    async fn web(&self, a: &Asset, family: Family, urls: &[String]) -> FamilyFetch {
        let mut out = FamilyFetch::default();
        for (i, u) in urls.iter().enumerate() {
            let parsed = match url::Url::parse(u) {
                Ok(p) => p,
                Err(e) => {
                    out.fail(u, format!("not a URL: {e}"));
                    continue;
                }
            };
            let fetch_url = match &self.cfg.web_mirror {
                Some(m) => mirrored(m, &parsed),
                None => u.clone(),
            };
            let url_ext = parsed
                .path()
                .rsplit_once('.')
                .map(|(_, e)| e.to_ascii_lowercase());
            let format =
                |b: &[u8], ct: Option<&str>| import::web_format(family, ct, b, url_ext.as_deref());
            let validate =
                |b: &[u8], ct: Option<&str>| format(b, ct).map(|_| ()).map_err(Invalid::from);
            let api = format!("web:{}", parsed.host_str().unwrap_or(""));
            let got = match self.get(&api, &fetch_url, &validate).await {
                Err(e) => {
                    out.failed(u, &e);
                    continue;
                }
                Ok(g) if g.status == 404 => {
                    out.fail(u, "HTTP 404: a page named in the portfolio is gone".into());
                    continue;
                }
                Ok(g) => g,
            };
            // a body reused on 304 was checked when it was first stored
            match format(&got.body, got.content_type.as_deref()) {
                Ok(ext) => {
                    let rel = format!("{family}/{}-{i}.{ext}", a.id.as_str());
                    out.push(family, rel, got, Some(u.clone()));
                }
                Err(e) => out.fail(u, crate::error::chain(&e)),
            }
        }
        out
    }

    /// A family's fetch, or nothing when the config skips it.
    async fn unless_skipped(
        &self,
        family: Family,
        fetch: impl std::future::Future<Output = FamilyFetch>,
    ) -> FamilyFetch {
        if self.cfg.skip.contains(&family) {
            FamilyFetch::default()
        } else {
            fetch.await
        }
    }

    async fn asset(&self, a: &Asset, bars: &Bars) -> Vec<(Family, FamilyFetch)> {
        // competitors need the label's classes; nothing else waits on another family
        let openfda = async {
            let (label, classes) = if self.cfg.skip.contains(&Family::FdaLabel) {
                (FamilyFetch::default(), Vec::new())
            } else {
                self.label(a).await
            };
            let drugsfda = self.unless_skipped(Family::Drugsfda, self.drugsfda(a, &classes));
            (label, drugsfda.await)
        };
        let (ctgov, (label, drugsfda), sec, pubmed, icd10, press, epi) = futures::join!(
            self.unless_skipped(Family::Ctgov, self.ctgov(a)),
            openfda,
            self.unless_skipped(Family::Sec, self.sec(a)),
            self.unless_skipped(Family::Pubmed, self.pubmed(a)),
            self.unless_skipped(Family::Icd10, self.icd10(a)),
            self.unless_skipped(Family::Press, self.web(a, Family::Press, &a.press)),
            self.unless_skipped(Family::Epi, self.web(a, Family::Epi, &a.epi)),
        );
        let out = vec![
            (Family::Ctgov, ctgov),
            (Family::FdaLabel, label),
            (Family::Drugsfda, drugsfda),
            (Family::Sec, sec),
            (Family::Pubmed, pubmed),
            (Family::Icd10, icd10),
            (Family::Press, press),
            (Family::Epi, epi),
        ];
        for (f, r) in &out {
            bars.family(*f, !r.failures.is_empty());
        }
        bars.overall.inc(1);
        out
    }
}

/// A press or epidemiology URL on a mirror: `{mirror}/{scheme}/{host}{path}?{query}`.
fn mirrored(mirror: &str, u: &url::Url) -> String {
    format!(
        "{}/{}/{}{}{}",
        mirror.trim_end_matches('/'),
        u.scheme(),
        u.host_str().unwrap_or(""),
        u.path(),
        u.query().map(|q| format!("?{q}")).unwrap_or_default()
    )
}

/// Progress on stderr: one bar per family and one overall, hidden when quiet.
struct Bars {
    overall: ProgressBar,
    families: BTreeMap<Family, ProgressBar>,
    _multi: MultiProgress,
}

impl Bars {
    fn new(assets: u64, show: bool) -> Bars {
        let multi = MultiProgress::with_draw_target(if show {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        });
        let style = ProgressStyle::with_template("{prefix:>10} [{bar:30}] {pos}/{len} {msg}")
            .expect("static template")
            .progress_chars("=> ");
        let overall = multi.add(ProgressBar::new(assets).with_style(style.clone()));
        overall.set_prefix("assets");
        let mut families = BTreeMap::new();
        for f in Family::ALL {
            let b = multi.add(ProgressBar::new(assets).with_style(style.clone()));
            b.set_prefix(f.to_string());
            families.insert(f, b);
        }
        Bars {
            overall,
            families,
            _multi: multi,
        }
    }

    fn family(&self, f: Family, failed: bool) {
        if let Some(b) = self.families.get(&f) {
            b.inc(1);
            if failed {
                b.set_message("(failures)");
            }
        }
    }

    fn finish(&self) {
        for b in self.families.values() {
            b.finish_and_clear();
        }
        self.overall.finish_and_clear();
    }
}

/// `dossier snapshot --live`: fetch, parse, resolve, bundle, write. `save` keeps every
/// response as an import directory (what `--import` reads).
pub async fn snapshot_live(
    lake: &Lake,
    portfolio: &Portfolio,
    cfg: &LiveConfig,
    progress: bool,
    save: Option<&Path>,
) -> Result<(SnapshotOutcome, LiveStats), Error> {
    cfg.check(portfolio)?;
    let started = Instant::now();
    let client = Client::new(cfg.http())?;
    let fetcher = Fetcher {
        cfg,
        client,
        lake,
        memo: Mutex::new(BTreeMap::new()),
        reused: Mutex::new(0),
    };
    let bars = Bars::new(portfolio.asset.len() as u64, progress);
    let mut results: Vec<(String, Vec<(Family, FamilyFetch)>)> =
        futures::stream::iter(portfolio.asset.iter().map(|a| {
            let (f, b) = (&fetcher, &bars);
            async move { (a.id.to_string(), f.asset(a, b).await) }
        }))
        .buffer_unordered(cfg.concurrency.max(1))
        .collect()
        .await;
    results.sort_by(|a, b| a.0.cmp(&b.0));
    bars.finish();
    let fetch_secs = started.elapsed().as_secs_f64();

    let mut files = Vec::new();
    let mut failures = Vec::new();
    let mut capped = Vec::new();
    for (asset, fams) in results {
        for (family, r) in fams {
            for c in r.capped {
                capped.push(CappedSearch {
                    asset: asset.clone(),
                    family,
                    url: c.url,
                    fetched: c.fetched,
                    total: c.total,
                    cap: c.cap,
                });
            }
            for (url, error) in r.failures {
                failures.push(FetchFailure {
                    asset: asset.clone(),
                    family,
                    url,
                    error,
                });
            }
            files.extend(r.files);
        }
    }
    // the same URL fetched for two assets is one file
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    if let Some(dir) = save {
        save_responses(dir, &files, &failures)?;
    }
    let raw_bytes: u64 = files.iter().map(|f| f.bytes.len() as u64).sum();
    let n_files = files.len();
    let portfolio_c = portfolio.clone();
    let cfg_skip = cfg.skip.clone();
    let sink = snapshot::BlobSink::new(lake);
    let (imported, manifest) = crate::blocking(move || -> Result<_, Error> {
        let parsed = files
            .iter()
            .map(|f| (f.rel.clone(), f.family, import::parse_file(f)))
            .collect::<Vec<_>>();
        let mut ok: Vec<(String, Family, Parsed)> = Vec::new();
        for (rel, fam, p) in parsed {
            ok.push((rel, fam, p?));
        }
        let mut imported = import::assemble(ok, raw_bytes, n_files);
        let mut manifest = snapshot::build(&portfolio_c, &mut imported, "live", &sink)?;
        say_what_was_not_got(&mut manifest, &failures, &capped, &cfg_skip);
        manifest.capped_searches = capped;
        Ok((imported, manifest))
    })
    .await?;
    let mut diagnostics = Diagnostics {
        unplaced: imported.unplaced.clone(),
        ..Diagnostics::default()
    };
    let id = snapshot::write(lake, &manifest, &mut diagnostics).await?;
    let requests = fetcher.client.stats();
    let stats = LiveStats {
        downloaded_bytes: requests.values().map(|s| s.bytes).sum(),
        requests,
        reused: *fetcher.reused.lock().expect("reused lock"),
        limits: cfg
            .limits()
            .0
            .into_iter()
            .map(|(k, l)| (k, l.per_second()))
            .collect(),
        fetch_secs,
    };
    Ok((
        SnapshotOutcome {
            id,
            files: n_files,
            raw_bytes,
            records: imported.records.len(),
            manifest,
            import_secs: fetch_secs,
            total_secs: started.elapsed().as_secs_f64(),
            diagnostics,
        },
        stats,
    ))
}

/// Writes into the family statuses what the fetch did not get: failed requests
/// (`fetch_failed`, the first error and how many more), families skipped on purpose, and
/// searches that stopped at a cap.
fn say_what_was_not_got(
    manifest: &mut SnapshotManifest,
    failures: &[FetchFailure],
    capped: &[CappedSearch],
    skip: &[Family],
) {
    crate::snapshot::mark_failures(manifest, failures);
    for entry in manifest.assets.values_mut() {
        for family in skip {
            if let Some(o) = entry.families.get_mut(family) {
                o.status = FamilyStatus::Skipped;
                o.records = 0;
                o.detail = format!("skipped on purpose: live.skip names {family}");
            }
        }
    }
    for c in capped {
        if let Some(entry) = manifest.assets.get_mut(&c.asset)
            && let Some(o) = entry.families.get_mut(&c.family)
        {
            let of = c.total.map_or("more".to_string(), |t| t.to_string());
            o.detail.push_str(&format!(
                "{}capped at {}: {} of {of} results of {}",
                if o.detail.is_empty() { "" } else { "; " },
                c.cap,
                c.fetched,
                c.url
            ));
        }
    }
}

/// Writes responses as an import directory, with sidecars for their URL and retrieval time.
fn save_responses(
    dir: &Path,
    files: &[ImportFile],
    failures: &[FetchFailure],
) -> Result<(), Error> {
    let io = |p: &Path, source: std::io::Error| LiveError::SaveResponses {
        path: p.to_owned(),
        source,
    };
    // the failed requests too, so an import of the saved night reads as that night did
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let listed = dir.join(import::FETCH_FAILURES_FILE);
    if failures.is_empty() {
        match std::fs::remove_file(&listed) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&listed, e).into()),
            _ => {}
        }
    } else {
        let text =
            serde_json::to_vec_pretty(failures).map_err(|e| Error::Internal(e.to_string()))?;
        std::fs::write(&listed, text).map_err(|e| io(&listed, e))?;
    }
    for f in files {
        let path = dir.join(&f.rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
        }
        std::fs::write(&path, &f.bytes).map_err(|e| io(&path, e))?;
        if let Some(meta) = &f.meta {
            let side = dir.join(format!("{}{}", f.rel, import::SIDECAR_SUFFIX));
            let text = toml::to_string(meta).map_err(|e| Error::Internal(e.to_string()))?;
            std::fs::write(&side, text).map_err(|e| io(&side, e))?;
        }
    }
    Ok(())
}

/// The stderr lines of a live snapshot: bytes, cache reuse, and per API its requests,
/// retries and achieved rate against its limit.
impl std::fmt::Display for LiveStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "  fetched in {:.2}s: {:.1} MB downloaded, {} bodies reused from the cache (304)",
            self.fetch_secs,
            self.downloaded_bytes as f64 / 1e6,
            self.reused
        )?;
        for (api, st) in &self.requests {
            let limit = self
                .limits
                .get(api)
                .or_else(|| self.limits.get("web"))
                .copied()
                .unwrap_or(0.0);
            let rate = st
                .rate()
                .map(|r| format!("{r:.2}/s ({:.0}% of {limit:.2}/s)", 100.0 * r / limit))
                .unwrap_or_else(|| "-".into());
            writeln!(
                f,
                "  {api}: {} requests, {} retries, {} not modified, {} failed, {:.1} MB, {rate}",
                st.requests,
                st.retries,
                st.not_modified,
                st.failures,
                st.bytes as f64 / 1e6
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_urls_keep_path_and_query() {
        let m = "http://127.0.0.1:9/web/";
        let u = |s: &str| url::Url::parse(s).unwrap();
        assert_eq!(
            mirrored(m, &u("https://seer.example/explorer/cml.csv?x=1&y=2")),
            "http://127.0.0.1:9/web/https/seer.example/explorer/cml.csv?x=1&y=2"
        );
        assert_eq!(
            mirrored(m, &u("https://press.example")),
            "http://127.0.0.1:9/web/https/press.example/"
        );
    }

    #[test]
    fn limits_default_to_the_documented_ones_and_a_key_raises_ncbi() {
        let mut c = LiveConfig::default();
        let (l, web) = c.limits();
        assert!((l["openfda"].per_second() - 4.0).abs() < 1e-9);
        assert!((l["sec"].per_second() - 10.0).abs() < 1e-9);
        assert!((l["ncbi"].per_second() - 3.0).abs() < 1e-9);
        assert!((web.per_second() - 1.0).abs() < 1e-9);
        c.ncbi_api_key = Some("k".into());
        c.per_minute.insert("openfda".into(), 120.0);
        let (l, _) = c.limits();
        assert!((l["ncbi"].per_second() - 10.0).abs() < 1e-9);
        assert!((l["openfda"].per_second() - 2.0).abs() < 1e-9);
        // whole requests per second are a one-second window; others a minute, or less
        assert_eq!(
            (l["sec"].requests, l["sec"].per),
            (10, Duration::from_secs(1))
        );
        c.per_minute.insert("sec".into(), 90.0);
        c.per_minute.insert("ncbi".into(), 0.5);
        let (l, _) = c.limits();
        assert_eq!(
            (l["sec"].requests, l["sec"].per),
            (90, Duration::from_secs(60))
        );
        assert_eq!(
            (l["ncbi"].requests, l["ncbi"].per),
            (1, Duration::from_secs(120))
        );
    }
}
