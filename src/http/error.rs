//! The one error type of the HTTP layer: every variant names the URL it is about and
//! keeps the error underneath as its `source`, so callers print the whole chain.
//! Whether an error is worth another attempt is decided here (`is_retryable`), not by
//! the clients. No I/O and no policy numbers live in this file.

/// What a caller gets back from the HTTP layer when a request did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// The `reqwest` client could not be built (TLS backend, bad user agent).
    #[error("building the HTTP client")]
    Build(#[source] reqwest::Error),
    /// The request never produced a response: refused, reset, timed out.
    #[error("{url}: the request failed")]
    Transport {
        url: String,
        #[source]
        source: reqwest::Error,
    },
    /// A response came but its body broke off (or timed out) while being read.
    #[error("{url}: reading the body failed")]
    Body {
        url: String,
        #[source]
        source: reqwest::Error,
    },
    /// An unsuccessful status; `snippet` is the start of the body on one line.
    #[error("HTTP {status} from {url}: {snippet}")]
    Status {
        url: String,
        status: u16,
        snippet: String,
    },
    /// The body went past the cap; reading stopped there.
    #[error("{url}: body larger than the {limit}-byte cap")]
    TooLarge { url: String, limit: u64 },
    /// The server asked for a longer wait than the client is configured to honour.
    #[error("{url}: Retry-After of {secs} s exceeds the {max} s this client waits")]
    RetryAfterTooLong { url: String, secs: u64, max: u64 },
    /// The caller rejected a complete body (it did not parse as what was asked for).
    #[error("{url}: malformed response")]
    Malformed {
        url: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Every attempt failed in a retryable way; `last` is the final attempt's error.
    #[error("{url}: gave up after {attempts} attempts")]
    Exhausted {
        url: String,
        attempts: u32,
        #[source]
        last: Box<HttpError>,
    },
}

impl HttpError {
    /// Whether another attempt may succeed: connection errors and timeouts (but not a
    /// request that could not be built or a redirect loop), bodies that broke off,
    /// malformed bodies, and the statuses `policy::is_retryable_status` names. A body
    /// over the cap, a Retry-After beyond the maximum and an exhausted budget are final.
    pub fn is_retryable(&self) -> bool {
        match self {
            HttpError::Transport { source, .. } => !(source.is_builder() || source.is_redirect()),
            HttpError::Body { .. } | HttpError::Malformed { .. } => true,
            HttpError::Status { status, .. } => super::policy::is_retryable_status(*status),
            HttpError::Build(_)
            | HttpError::TooLarge { .. }
            | HttpError::RetryAfterTooLong { .. }
            | HttpError::Exhausted { .. } => false,
        }
    }

    /// The HTTP status, when the error is one.
    pub fn status(&self) -> Option<u16> {
        match self {
            HttpError::Status { status, .. } => Some(*status),
            HttpError::Exhausted { last, .. } => last.status(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(code: u16) -> HttpError {
        HttpError::Status {
            url: "http://x/".into(),
            status: code,
            snippet: String::new(),
        }
    }

    #[test]
    fn statuses_retry_only_when_the_server_may_recover() {
        for code in [429, 500, 502, 503, 504] {
            assert!(status(code).is_retryable(), "{code}");
        }
        for code in [400, 401, 403, 404, 410, 422] {
            assert!(!status(code).is_retryable(), "{code}");
        }
    }

    #[test]
    fn final_errors_are_not_retried() {
        let big = HttpError::TooLarge {
            url: "u".into(),
            limit: 1,
        };
        let long = HttpError::RetryAfterTooLong {
            url: "u".into(),
            secs: 3600,
            max: 60,
        };
        let spent = HttpError::Exhausted {
            url: "u".into(),
            attempts: 3,
            last: Box::new(status(500)),
        };
        let bad = HttpError::Malformed {
            url: "u".into(),
            source: "cut mid-way".into(),
        };
        assert!(!big.is_retryable() && !long.is_retryable() && !spent.is_retryable());
        assert!(bad.is_retryable());
        assert_eq!(spent.status(), Some(500));
    }

    #[test]
    fn the_chain_keeps_the_last_error_and_the_url() {
        let spent = HttpError::Exhausted {
            url: "http://x/a".into(),
            attempts: 5,
            last: Box::new(status(500)),
        };
        let text = crate::error::chain(&spent);
        assert!(text.contains("gave up after 5 attempts"), "{text}");
        assert!(text.contains("HTTP 500 from http://x/"), "{text}");
    }
}
