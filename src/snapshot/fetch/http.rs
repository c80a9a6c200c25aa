//! The polite HTTP client of live snapshots. One rate gate per API (openFDA, SEC, NCBI,
//! CT.gov, NLM Clinical Tables; each press or epidemiology host its own) is shared by
//! every concurrent task: requests are spaced by a GCRA limiter (governor) with no burst,
//! and a 429 or 503 with Retry-After closes the gate for the whole API until then.
//! Timeouts, connection errors, bodies that break off, 5xx and responses the caller
//! rejects as malformed are retried with capped exponential backoff and full jitter;
//! other 4xx are not. Bodies are read in chunks under a size cap (after gzip decoding).
//! Every request is counted per API, for the summary and the rate benchmark.

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use bytes::{Bytes, BytesMut};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

/// A rate limit: `requests` per `per`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    pub requests: u32,
    pub per: Duration,
}

impl Limit {
    pub fn per_second(&self) -> f64 {
        self.requests as f64 / self.per.as_secs_f64()
    }
}

#[derive(Clone, Debug)]
pub struct HttpConfig {
    pub user_agent: String,
    /// Whole-request timeout (connect, headers and body).
    pub timeout: Duration,
    /// The largest body accepted, after decoding.
    pub max_bytes: u64,
    /// Retries after the first attempt.
    pub retries: u32,
    pub backoff_base: Duration,
    pub backoff_cap: Duration,
    /// The longest Retry-After honoured; a longer one fails the request.
    pub max_retry_after: Duration,
    /// Requests are paced at this fraction of each limit (so arrival jitter on the way
    /// cannot push a server-side window over it).
    pub headroom: f64,
    pub limits: BTreeMap<String, Limit>,
    /// The limit of an API with no entry (press and epidemiology hosts).
    pub default_limit: Limit,
}

/// Why a request gave up.
#[derive(Debug, Clone, thiserror::Error)]
pub enum FetchError {
    #[error("HTTP {status} from {url}: {snippet}")]
    Status {
        url: String,
        status: u16,
        snippet: String,
    },
    #[error("{url}: body larger than the {limit}-byte cap")]
    TooLarge { url: String, limit: u64 },
    #[error("{url}: Retry-After of {secs} s exceeds the {max} s this snapshot waits")]
    RetryAfterTooLong { url: String, secs: u64, max: u64 },
    #[error("{url}: gave up after {attempts} attempts; last error: {last}")]
    Exhausted {
        url: String,
        attempts: u32,
        last: String,
    },
}

/// A response the caller accepted.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub body: Bytes,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// 304: the stored body is still current (`body` is empty).
    pub not_modified: bool,
    pub attempts: u32,
}

/// Per-API counters.
#[derive(Debug, Clone, Default)]
pub struct ApiStats {
    pub requests: u64,
    pub retries: u64,
    pub bytes: u64,
    pub not_modified: u64,
    pub failures: u64,
    pub first: Option<Instant>,
    pub last: Option<Instant>,
}

impl ApiStats {
    /// Requests per second between the first and the last request sent.
    pub fn rate(&self) -> Option<f64> {
        let span = self.last?.duration_since(self.first?).as_secs_f64();
        (self.requests > 1 && span > 0.0).then(|| (self.requests - 1) as f64 / span)
    }
}

struct Gate {
    limiter: DefaultDirectRateLimiter,
    closed_until: Mutex<Option<Instant>>,
    /// The last `requests` send instants: the oldest must be a whole window (plus a
    /// guard) ago before another request goes, so a send that left late (a busy machine,
    /// a slow connect) cannot squeeze one request too many into a server's window.
    sent: Mutex<std::collections::VecDeque<Instant>>,
    requests: usize,
    window: Duration,
}

impl Gate {
    async fn pass(&self) {
        loop {
            let closed = *self.closed_until.lock().expect("gate lock");
            if let Some(t) = closed
                && t > Instant::now()
            {
                tokio::time::sleep_until(t.into()).await;
                continue;
            }
            self.limiter.until_ready().await;
            // a Retry-After may have closed the gate while this task waited its turn
            let closed = *self.closed_until.lock().expect("gate lock");
            if closed.is_some_and(|t| t > Instant::now()) {
                continue;
            }
            // the permit is this task's: wait out the window without giving it back
            loop {
                let wait = {
                    let mut sent = self.sent.lock().expect("gate lock");
                    let now = Instant::now();
                    match sent.front() {
                        Some(oldest)
                            if sent.len() >= self.requests && now < *oldest + self.window =>
                        {
                            Some(*oldest + self.window)
                        }
                        _ => {
                            sent.push_back(now);
                            while sent.len() > self.requests {
                                sent.pop_front();
                            }
                            None
                        }
                    }
                };
                match wait {
                    None => return,
                    Some(t) => tokio::time::sleep_until(t.into()).await,
                }
            }
        }
    }

    fn close_for(&self, wait: Duration) {
        let until = Instant::now() + wait;
        let mut c = self.closed_until.lock().expect("gate lock");
        if c.is_none_or(|t| t < until) {
            *c = Some(until);
        }
    }
}

pub struct Client {
    http: reqwest::Client,
    cfg: HttpConfig,
    gates: Mutex<BTreeMap<String, Arc<Gate>>>,
    stats: Mutex<BTreeMap<String, ApiStats>>,
}

/// What the caller says about a body it received.
pub type Validate<'a> = &'a (dyn Fn(&[u8]) -> Result<(), String> + Sync);

fn retry_after(h: &reqwest::header::HeaderMap) -> Option<Duration> {
    let v = h.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = httpdate::parse_http_date(v).ok()?;
    Some(
        at.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

fn header(h: &reqwest::header::HeaderMap, name: reqwest::header::HeaderName) -> Option<String> {
    h.get(name)?.to_str().ok().map(str::to_string)
}

impl Client {
    pub fn new(cfg: HttpConfig) -> Result<Client, String> {
        let http = reqwest::Client::builder()
            .user_agent(cfg.user_agent.clone())
            .timeout(cfg.timeout)
            .connect_timeout(cfg.timeout.min(Duration::from_secs(10)))
            .build()
            .map_err(|e| format!("building the HTTP client: {e}"))?;
        Ok(Client {
            http,
            cfg,
            gates: Mutex::new(BTreeMap::new()),
            stats: Mutex::new(BTreeMap::new()),
        })
    }

    pub fn config(&self) -> &HttpConfig {
        &self.cfg
    }

    pub fn limit(&self, api: &str) -> Limit {
        self.cfg
            .limits
            .get(api)
            .copied()
            .unwrap_or(self.cfg.default_limit)
    }

    fn gate(&self, api: &str) -> Arc<Gate> {
        let mut gates = self.gates.lock().expect("gates lock");
        gates
            .entry(api.to_string())
            .or_insert_with(|| {
                let limit = self.limit(api);
                let headroom = self.cfg.headroom.clamp(0.01, 1.0);
                let period = limit.per.as_secs_f64() / (limit.requests.max(1) as f64) / headroom;
                let quota = Quota::with_period(Duration::from_secs_f64(period))
                    .expect("a positive period")
                    .allow_burst(NonZeroU32::MIN);
                Arc::new(Gate {
                    limiter: RateLimiter::direct(quota),
                    closed_until: Mutex::new(None),
                    sent: Mutex::new(std::collections::VecDeque::new()),
                    requests: limit.requests.max(1) as usize,
                    window: limit.per.mul_f64(2.0 - headroom),
                })
            })
            .clone()
    }

    fn count(&self, api: &str, f: impl FnOnce(&mut ApiStats)) {
        let mut s = self.stats.lock().expect("stats lock");
        f(s.entry(api.to_string()).or_default());
    }

    pub fn stats(&self) -> BTreeMap<String, ApiStats> {
        self.stats.lock().expect("stats lock").clone()
    }

    fn backoff(&self, attempt: u32) -> Duration {
        let ceiling = self
            .cfg
            .backoff_base
            .saturating_mul(1u32 << attempt.min(16))
            .min(self.cfg.backoff_cap);
        ceiling.mul_f64(fastrand::f64())
    }

    /// GETs a URL through the API's gate. `conditional` holds a stored ETag and
    /// Last-Modified; a 404 is returned (the caller decides what it means); `validate`
    /// rejects a malformed body, which is retried like a transport error.
    pub async fn get(
        &self,
        api: &str,
        url: &str,
        conditional: (Option<&str>, Option<&str>),
        validate: Validate<'_>,
    ) -> Result<Response, FetchError> {
        let gate = self.gate(api);
        let attempts = self.cfg.retries + 1;
        let mut last = String::new();
        for attempt in 0..attempts {
            if attempt > 0 {
                self.count(api, |s| s.retries += 1);
            }
            gate.pass().await;
            let now = Instant::now();
            self.count(api, |s| {
                s.requests += 1;
                s.first.get_or_insert(now);
                s.last = Some(now);
            });
            let mut req = self.http.get(url);
            if let Some(etag) = conditional.0 {
                req = req.header(reqwest::header::IF_NONE_MATCH, etag);
            }
            if let Some(lm) = conditional.1 {
                req = req.header(reqwest::header::IF_MODIFIED_SINCE, lm);
            }
            let resp = match req.send().await {
                Ok(r) => r,
                Err(e) => {
                    last = crate::error::chain(&e);
                    tokio::time::sleep(self.backoff(attempt)).await;
                    continue;
                }
            };
            let status = resp.status().as_u16();
            let headers = resp.headers().clone();
            if status == 304 {
                self.count(api, |s| s.not_modified += 1);
                return Ok(Response {
                    status,
                    body: Bytes::new(),
                    etag: header(&headers, reqwest::header::ETAG),
                    last_modified: header(&headers, reqwest::header::LAST_MODIFIED),
                    not_modified: true,
                    attempts: attempt + 1,
                });
            }
            if status == 429 || status == 503 {
                last = format!("HTTP {status}");
                match retry_after(&headers) {
                    Some(wait) if wait > self.cfg.max_retry_after => {
                        self.count(api, |s| s.failures += 1);
                        return Err(FetchError::RetryAfterTooLong {
                            url: url.to_string(),
                            secs: wait.as_secs(),
                            max: self.cfg.max_retry_after.as_secs(),
                        });
                    }
                    Some(wait) => gate.close_for(wait),
                    None => tokio::time::sleep(self.backoff(attempt)).await,
                }
                continue;
            }
            let body = match self.read_body(resp).await {
                Ok(b) => b,
                Err(BodyError::TooLarge) => {
                    self.count(api, |s| s.failures += 1);
                    return Err(FetchError::TooLarge {
                        url: url.to_string(),
                        limit: self.cfg.max_bytes,
                    });
                }
                Err(BodyError::Broken(e)) => {
                    last = format!("reading the body: {e}");
                    tokio::time::sleep(self.backoff(attempt)).await;
                    continue;
                }
            };
            self.count(api, |s| s.bytes += body.len() as u64);
            if status >= 500 {
                last = format!("HTTP {status}");
                tokio::time::sleep(self.backoff(attempt)).await;
                continue;
            }
            if status != 404 && !(200..300).contains(&status) {
                self.count(api, |s| s.failures += 1);
                return Err(FetchError::Status {
                    url: url.to_string(),
                    status,
                    snippet: crate::domain::one_line(&String::from_utf8_lossy(
                        &body[..body.len().min(200)],
                    )),
                });
            }
            if status != 404
                && let Err(e) = validate(&body)
            {
                last = format!("malformed response: {e}");
                tokio::time::sleep(self.backoff(attempt)).await;
                continue;
            }
            return Ok(Response {
                status,
                body,
                etag: header(&headers, reqwest::header::ETAG),
                last_modified: header(&headers, reqwest::header::LAST_MODIFIED),
                not_modified: false,
                attempts: attempt + 1,
            });
        }
        self.count(api, |s| s.failures += 1);
        Err(FetchError::Exhausted {
            url: url.to_string(),
            attempts,
            last,
        })
    }

    async fn read_body(&self, mut resp: reqwest::Response) -> Result<Bytes, BodyError> {
        let mut buf = BytesMut::new();
        while let Some(chunk) = resp
            .chunk()
            .await
            .map_err(|e| BodyError::Broken(crate::error::chain(&e)))?
        {
            if (buf.len() + chunk.len()) as u64 > self.cfg.max_bytes {
                return Err(BodyError::TooLarge);
            }
            buf.extend_from_slice(&chunk);
        }
        Ok(buf.freeze())
    }
}

enum BodyError {
    TooLarge,
    Broken(String),
}
