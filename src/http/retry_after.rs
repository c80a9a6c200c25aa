//! The Retry-After header: delta-seconds or an HTTP date, read against an injected
//! "now", and held to the configured maximum. It only turns a header into a wait (or
//! a refusal); it neither sleeps nor decides whether a status is retried.

use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, RETRY_AFTER};

use super::HttpError;

/// The wait a Retry-After value asks for: `120` (seconds) or an HTTP date such as
/// `Wed, 21 Oct 2015 07:28:00 GMT`. A date already past is no wait at all; anything
/// else (empty, negative, fractional, garbage) is `None`, and the caller backs off as
/// if the header were absent.
pub fn parse(value: &str, now: SystemTime) -> Option<Duration> {
    let v = value.trim();
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        // more digits than a u64 holds is still "very long", not garbage
        return Some(Duration::from_secs(v.parse().unwrap_or(u64::MAX)));
    }
    let at = httpdate::parse_http_date(v).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The Retry-After of a response, if it has a readable one.
pub fn from_headers(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    parse(headers.get(RETRY_AFTER)?.to_str().ok()?, now)
}

/// `wait` if it is within `max`; otherwise the error that ends the request.
pub fn within(url: &str, wait: Duration, max: Duration) -> Result<Duration, HttpError> {
    if wait > max {
        return Err(HttpError::RetryAfterTooLong {
            url: url.to_string(),
            secs: wait.as_secs(),
            max: max.as_secs(),
        });
    }
    Ok(wait)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2015-10-21T07:28:00Z, the date of RFC 9110's example.
    fn now() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480)
    }

    #[test]
    fn delta_seconds() {
        assert_eq!(parse("120", now()), Some(Duration::from_secs(120)));
        assert_eq!(parse(" 0 ", now()), Some(Duration::ZERO));
        assert_eq!(
            parse("99999999999999999999999", now()),
            Some(Duration::from_secs(u64::MAX))
        );
    }

    #[test]
    fn an_http_date_is_read_against_now() {
        assert_eq!(
            parse("Wed, 21 Oct 2015 07:28:30 GMT", now()),
            Some(Duration::from_secs(30))
        );
        // the obsolete formats HTTP still allows
        assert_eq!(
            parse("Wednesday, 21-Oct-15 07:29:00 GMT", now()),
            Some(Duration::from_secs(60))
        );
    }

    #[test]
    fn a_past_date_is_no_wait() {
        assert_eq!(
            parse("Wed, 21 Oct 2015 07:00:00 GMT", now()),
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn garbage_is_ignored() {
        for v in [
            "",
            "soon",
            "-5",
            "1.5",
            "12s",
            "Wed, 32 Oct 2015 07:28:00 GMT",
        ] {
            assert_eq!(parse(v, now()), None, "{v:?}");
        }
    }

    #[test]
    fn the_header_is_found_by_name() {
        let mut h = HeaderMap::new();
        assert_eq!(from_headers(&h, now()), None);
        h.insert(RETRY_AFTER, "7".parse().unwrap());
        assert_eq!(from_headers(&h, now()), Some(Duration::from_secs(7)));
    }

    #[test]
    fn a_wait_beyond_the_maximum_is_refused_with_both_numbers() {
        let max = Duration::from_secs(300);
        assert_eq!(within("u", max, max).unwrap(), max);
        let far = parse("Wed, 21 Oct 2015 08:28:00 GMT", now()).unwrap();
        match within("http://x/later", far, max) {
            Err(HttpError::RetryAfterTooLong { url, secs, max }) => {
                assert_eq!((url.as_str(), secs, max), ("http://x/later", 3600, 300));
            }
            other => panic!("{other:?}"),
        }
    }
}
