//! The polite HTTP client of live snapshots. One rate gate per API (openFDA, SEC, NCBI,
//! CT.gov, NLM Clinical Tables; each press or epidemiology host its own) is shared by
//! every concurrent task: requests are spaced by a GCRA limiter (governor) with no burst,
//! at most N of a limit of N per window are between their send and a window after their
//! answer, and a 429 or 5xx with Retry-After closes the gate for the whole API until then.
//! Conditional requests (ETag, Last-Modified) and per-API counters live here too. What
//! is retried, how long to wait and how much body to accept is the shared policy of
//! `crate::http`; this file must not grow its own retry loop or body reader.

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use crate::http::{
    Attempt, BackoffConfig, Retrier, RetryConfig, Timeouts, is_retryable_status, read_capped,
    retry_after, status_error,
};

/// Why a request gave up: the shared HTTP error (status, body over the cap, Retry-After
/// too long, retries exhausted with the last error inside).
pub use crate::http::HttpError as FetchError;

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
    /// The ceiling of the first backoff; it doubles per retry up to `backoff_cap`.
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
    /// Credentials per API (`api_key`), as query parameters added to a request as it
    /// leaves and nowhere else: the URL that callers, cache keys and entries, the catalog,
    /// the manifest and every message see is the one without them.
    pub credentials: BTreeMap<String, Vec<(String, String)>>,
}

impl HttpConfig {
    /// The shared retry policy with this client's numbers (backoff doubling per retry).
    pub fn retry(&self) -> RetryConfig {
        RetryConfig {
            max_retries: self.retries,
            backoff: BackoffConfig {
                init_backoff: self.backoff_base,
                max_backoff: self.backoff_cap,
                base: 2.0,
            },
            max_retry_after: self.max_retry_after,
        }
    }
}

/// A response the caller accepted.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub body: Bytes,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// The response's Content-Type, as sent.
    pub content_type: Option<String>,
    /// The `Link: <…>; rel="next"` target, where the API pages that way (openFDA).
    pub next: Option<String>,
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
    /// One slot per request a window allows. A request takes one before it is sent and
    /// gives it back a whole window after its answer (or its failure) came back: that is
    /// the latest instant the server can have counted it, so however late a busy machine
    /// sends a request after its permit, no window at the server ever holds one too many.
    slots: Arc<tokio::sync::Semaphore>,
    window: Duration,
}

/// A request's place in its API's window, held from before it is sent until a window
/// after its answer.
struct Slot {
    permit: tokio::sync::OwnedSemaphorePermit,
    window: Duration,
}

impl Slot {
    /// The answer (or failure) is in: the slot frees a window from now.
    fn answered(self) {
        let Slot { permit, window } = self;
        tokio::spawn(async move {
            tokio::time::sleep(window).await;
            drop(permit);
        });
    }
}

impl Gate {
    async fn pass(&self) -> Slot {
        let permit = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .expect("the gate's semaphore is never closed");
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
            return Slot {
                permit,
                window: self.window,
            };
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
    retry: Retrier,
    gates: Mutex<BTreeMap<String, Arc<Gate>>>,
    stats: Mutex<BTreeMap<String, ApiStats>>,
}

/// Why the caller rejected a body; the request is retried like a transport error.
pub type Invalid = Box<dyn std::error::Error + Send + Sync>;

/// What the caller says about a body it received, with its Content-Type.
pub type Validate<'a> = &'a (dyn Fn(&[u8], Option<&str>) -> Result<(), Invalid> + Sync);

/// The target of `rel="next"` in a Link header (RFC 8288):
/// `<https://…&search_after=…>; rel="next"`, among other links and parameters.
pub fn next_link(value: &str) -> Option<String> {
    let mut rest = value;
    while let Some(open) = rest.find('<') {
        let close = open + rest[open..].find('>')?;
        let target = &rest[open + 1..close];
        let params_end = rest[close..].find('<').map_or(rest.len(), |i| close + i);
        let is_next = rest[close + 1..params_end].split(';').any(|p| {
            p.trim()
                .trim_end_matches(',')
                .split_once('=')
                .is_some_and(|(k, v)| {
                    k.trim().eq_ignore_ascii_case("rel")
                        && v.trim()
                            .trim_matches('"')
                            .split_ascii_whitespace()
                            .any(|r| r.eq_ignore_ascii_case("next"))
                })
        });
        if is_next {
            return Some(target.to_string());
        }
        rest = &rest[params_end..];
    }
    None
}

fn header(h: &reqwest::header::HeaderMap, name: reqwest::header::HeaderName) -> Option<String> {
    h.get(name)?.to_str().ok().map(str::to_string)
}

impl Client {
    /// A client with the real clock and OS-seeded jitter.
    pub fn new(cfg: HttpConfig) -> Result<Client, FetchError> {
        let retry = Retrier::new(cfg.retry());
        Client::with_retrier(cfg, retry)
    }

    /// A client whose retries run on `retry` (an injected clock and jitter source);
    /// `retry`'s own numbers win over the config's.
    pub fn with_retrier(cfg: HttpConfig, retry: Retrier) -> Result<Client, FetchError> {
        let http = Timeouts::new(cfg.timeout).client(Some(&cfg.user_agent))?;
        Ok(Client {
            http,
            cfg,
            retry,
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
                    slots: Arc::new(tokio::sync::Semaphore::new(limit.requests.max(1) as usize)),
                    window: limit.per,
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
        let out = self
            .retry
            .run(url, |n| {
                self.attempt(api, &gate, url, conditional, validate, n)
            })
            .await;
        if out.is_err() {
            self.count(api, |s| s.failures += 1);
        }
        out
    }

    /// Attempt `n` (0-based) of a GET: wait for the gate, send, and sort the answer into
    /// done (2xx, 304, 404), retry (see `crate::http`) or fail (other statuses, a body
    /// over the cap).
    async fn attempt(
        &self,
        api: &str,
        gate: &Gate,
        url: &str,
        conditional: (Option<&str>, Option<&str>),
        validate: Validate<'_>,
        n: u32,
    ) -> Attempt<Response> {
        if n > 0 {
            self.count(api, |s| s.retries += 1);
        }
        let slot = gate.pass().await;
        let now = Instant::now();
        self.count(api, |s| {
            s.requests += 1;
            s.first.get_or_insert(now);
            s.last = Some(now);
        });
        let sent = self.request(api, url, conditional).send().await;
        slot.answered();
        let resp = match sent {
            Ok(r) => r,
            Err(source) => {
                // reqwest's error names the URL it sent, credentials included
                let source = source.without_url();
                let url = url.to_string();
                return Attempt::failed(FetchError::Transport { url, source });
            }
        };
        let status = resp.status().as_u16();
        let mut done = Response {
            status,
            body: Bytes::new(),
            etag: header(resp.headers(), reqwest::header::ETAG),
            last_modified: header(resp.headers(), reqwest::header::LAST_MODIFIED),
            content_type: header(resp.headers(), reqwest::header::CONTENT_TYPE),
            next: header(resp.headers(), reqwest::header::LINK)
                .and_then(|l| next_link(&l))
                .map(|l| self.without_credentials(api, &l)),
            not_modified: status == 304,
            attempts: n + 1,
        };
        if status == 304 {
            self.count(api, |s| s.not_modified += 1);
            return Attempt::Done(done);
        }
        if is_retryable_status(status) {
            return self.later(gate, url, resp).await;
        }
        if status != 404 && !(200..300).contains(&status) {
            return Attempt::Fail(status_error(resp, url).await);
        }
        done.body = match read_capped(resp, url, self.cfg.max_bytes).await {
            Ok(b) => b,
            Err(e) => return Attempt::failed(e),
        };
        self.count(api, |s| s.bytes += done.body.len() as u64);
        if status != 404
            && let Err(source) = validate(&done.body, done.content_type.as_deref())
        {
            let url = url.to_string();
            return Attempt::failed(FetchError::Malformed { url, source });
        }
        Attempt::Done(done)
    }

    /// A URL the server sent back (a next-page link echoes the request's query) without
    /// the API's credentials, so it can be kept, logged and stored like any other.
    fn without_credentials(&self, api: &str, link: &str) -> String {
        let Some(creds) = self.cfg.credentials.get(api) else {
            return link.to_string();
        };
        let Ok(mut u) = url::Url::parse(link) else {
            return link.to_string();
        };
        let kept: Vec<(String, String)> = u
            .query_pairs()
            .filter(|(k, _)| !creds.iter().any(|(name, _)| name == k))
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        if kept.is_empty() {
            u.set_query(None);
        } else {
            u.query_pairs_mut().clear().extend_pairs(kept);
        }
        u.to_string()
    }

    /// The GET with the API's credentials and the conditional headers.
    fn request(
        &self,
        api: &str,
        url: &str,
        conditional: (Option<&str>, Option<&str>),
    ) -> reqwest::RequestBuilder {
        let mut req = self.http.get(url);
        if let Some(creds) = self.cfg.credentials.get(api) {
            req = req.query(creds);
        }
        if let Some(etag) = conditional.0 {
            req = req.header(reqwest::header::IF_NONE_MATCH, etag);
        }
        if let Some(lm) = conditional.1 {
            req = req.header(reqwest::header::IF_MODIFIED_SINCE, lm);
        }
        req
    }

    /// A 429 or 5xx. A Retry-After within the maximum closes the gate for the whole API
    /// (every task waits it out, not just this one) and is the wait before the retry; one
    /// beyond the maximum fails the request; without one the retry backs off.
    async fn later(&self, gate: &Gate, url: &str, resp: reqwest::Response) -> Attempt<Response> {
        let hint = retry_after::from_headers(resp.headers(), self.retry.clock().now());
        if let Some(wait) = hint {
            match self.retry.honour(url, wait) {
                Ok(wait) => gate.close_for(wait),
                Err(e) => return Attempt::Fail(e),
            }
        }
        Attempt::Retry {
            error: status_error(resp, url).await,
            retry_after: hint,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::next_link;

    #[test]
    fn the_next_link_is_found_among_others() {
        // as openFDA sends it (folded onto one line)
        let real = "<https://api.fda.gov/drug/drugsfda.json?search=openfda.generic_name%3A%22semaglutide%22&limit=2&skip=0&search_after=0%3DYEwDMJgBCsORzztAE_Kv>; rel=\"next\"";
        assert_eq!(
            next_link(real).unwrap(),
            "https://api.fda.gov/drug/drugsfda.json?search=openfda.generic_name%3A%22semaglutide%22&limit=2&skip=0&search_after=0%3DYEwDMJgBCsORzztAE_Kv"
        );
        let many = "<https://x.example/?p=1>; rel=\"prev\", <https://x.example/?p=3>; title=\"n\"; rel=\"last next\"";
        assert_eq!(next_link(many).unwrap(), "https://x.example/?p=3");
        assert_eq!(next_link("<https://x.example/?p=1>; rel=prev"), None);
        assert_eq!(next_link("garbage"), None);
        assert_eq!(next_link("<unclosed; rel=next"), None);
    }
}
