//! The numbers of the shared HTTP policy and the rules that need no I/O: how long a
//! request may take, how often and how far apart it is retried, the longest
//! Retry-After honoured, and which statuses are worth another attempt. It builds the
//! `reqwest` client from those timeouts; it never sends a request or sleeps.

use std::time::Duration;

use super::HttpError;

/// How long one attempt may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timeouts {
    /// The whole attempt: connect, headers and body. Default 30 s.
    pub request: Duration,
    /// Establishing the connection. Default 10 s, and never more than `request`.
    pub connect: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts::new(Duration::from_secs(30))
    }
}

impl Timeouts {
    /// A request timeout with the connect timeout derived from it (10 s at most), so a
    /// dead host fails fast even when a slow body is allowed minutes.
    pub fn new(request: Duration) -> Timeouts {
        Timeouts {
            request,
            connect: request.min(Duration::from_secs(10)),
        }
    }

    /// A `reqwest` client with these timeouts and, if given, a User-Agent.
    pub fn client(&self, user_agent: Option<&str>) -> Result<reqwest::Client, HttpError> {
        let mut b = reqwest::Client::builder()
            .timeout(self.request)
            .connect_timeout(self.connect.min(self.request));
        if let Some(ua) = user_agent {
            b = b.user_agent(ua);
        }
        b.build().map_err(HttpError::Build)
    }
}

/// Capped exponential backoff with full jitter: before retry `n` (0-based) the wait is
/// uniform in `[0, min(init_backoff * base^n, max_backoff))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BackoffConfig {
    /// The ceiling of the first wait. Default 200 ms.
    pub init_backoff: Duration,
    /// No wait is longer than this. Default 10 s.
    pub max_backoff: Duration,
    /// The ceiling's growth per retry. Default 2.
    pub base: f64,
}

impl Default for BackoffConfig {
    fn default() -> BackoffConfig {
        BackoffConfig {
            init_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(10),
            base: 2.0,
        }
    }
}

impl BackoffConfig {
    /// The largest wait before retry `n` (0-based): grows by `base` per retry and never
    /// passes `max_backoff` (nor overflows, however large `n`).
    pub fn ceiling(&self, n: u32) -> Duration {
        let factor = self.base.max(1.0).powi(n.min(64) as i32);
        let secs = self.init_backoff.as_secs_f64() * factor;
        let cap = self.max_backoff.as_secs_f64();
        Duration::from_secs_f64(if secs.is_finite() { secs.min(cap) } else { cap })
    }

    /// The wait before retry `n` for a jitter draw `fraction` in `[0, 1)`.
    pub fn delay(&self, n: u32, fraction: f64) -> Duration {
        self.ceiling(n).mul_f64(fraction.clamp(0.0, 1.0))
    }
}

/// How a request is retried.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RetryConfig {
    /// Attempts after the first. Default 3 (four attempts in all).
    pub max_retries: u32,
    pub backoff: BackoffConfig,
    /// The longest Retry-After honoured; a longer one fails the request at once with
    /// `HttpError::RetryAfterTooLong` rather than holding it for an hour. Default 60 s.
    pub max_retry_after: Duration,
}

impl Default for RetryConfig {
    fn default() -> RetryConfig {
        RetryConfig {
            max_retries: 3,
            backoff: BackoffConfig::default(),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

impl RetryConfig {
    /// Attempts in all, the first included.
    pub fn attempts(&self) -> u32 {
        self.max_retries.saturating_add(1)
    }
}

/// Whether a status is worth another attempt: 429 (slow down) and every 5xx (the
/// server's trouble). Other 4xx say the request itself is wrong and fail at once.
pub fn is_retryable_status(status: u16) -> bool {
    status == 429 || (500..600).contains(&status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ceiling_doubles_then_stays_at_the_cap() {
        let b = BackoffConfig {
            init_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(1000),
            base: 2.0,
        };
        let ms: Vec<u128> = (0..6).map(|n| b.ceiling(n).as_millis()).collect();
        assert_eq!(ms, [100, 200, 400, 800, 1000, 1000]);
        assert_eq!(b.ceiling(u32::MAX), Duration::from_millis(1000));
    }

    #[test]
    fn a_delay_scales_the_ceiling_by_the_draw_and_clamps_it() {
        let b = BackoffConfig::default();
        assert_eq!(b.delay(0, 0.5), Duration::from_millis(100));
        assert_eq!(b.delay(1, 0.0), Duration::ZERO);
        assert_eq!(b.delay(1, 7.0), Duration::from_millis(400));
        assert_eq!(b.delay(1, -1.0), Duration::ZERO);
    }

    #[test]
    fn the_connect_timeout_follows_the_request_timeout() {
        assert_eq!(
            Timeouts::new(Duration::from_secs(2)).connect,
            Duration::from_secs(2)
        );
        assert_eq!(
            Timeouts::new(Duration::from_secs(120)).connect,
            Duration::from_secs(10)
        );
        assert!(Timeouts::default().client(Some("dossier-tests")).is_ok());
    }

    #[test]
    fn only_429_and_5xx_are_retryable() {
        assert!(is_retryable_status(429) && is_retryable_status(500) && is_retryable_status(599));
        assert!(!is_retryable_status(200) && !is_retryable_status(403));
        assert!(!is_retryable_status(404) && !is_retryable_status(600));
        assert_eq!(RetryConfig::default().attempts(), 4);
    }
}
