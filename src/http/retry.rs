//! The retry loop both clients run: attempts until one is done or fails for good, with
//! capped, jittered exponential backoff between them, a server's Retry-After in place
//! of the backoff when it sent one (refused past the configured maximum), and a typed
//! "gave up" error with the last attempt's error inside. What an attempt is (which
//! request, which gate it passes, what counts as a good body) is the caller's.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::clock::{Clock, Jitter, SystemClock};
use super::policy::RetryConfig;
use super::{HttpError, retry_after};

/// How one attempt ended.
#[derive(Debug)]
pub enum Attempt<T> {
    /// Success: the loop returns this.
    Done(T),
    /// Worth another attempt, after `retry_after` when the server gave one, else after
    /// the backoff.
    Retry {
        error: HttpError,
        retry_after: Option<Duration>,
    },
    /// Final: the loop returns this error as it is.
    Fail(HttpError),
}

impl<T> Attempt<T> {
    /// `Retry` (with no server hint) or `Fail`, as `HttpError::is_retryable` says.
    pub fn failed(error: HttpError) -> Attempt<T> {
        if error.is_retryable() {
            Attempt::Retry {
                error,
                retry_after: None,
            }
        } else {
            Attempt::Fail(error)
        }
    }
}

/// A retry policy with its clock and jitter source; shared by every request of a client.
pub struct Retrier {
    cfg: RetryConfig,
    clock: Arc<dyn Clock>,
    jitter: Mutex<Box<dyn Jitter>>,
}

impl Retrier {
    /// The real clock and an OS-seeded generator.
    pub fn new(cfg: RetryConfig) -> Retrier {
        Retrier::with(cfg, Arc::new(SystemClock), Box::new(fastrand::Rng::new()))
    }

    /// An injected clock and jitter source (tests: a manual clock, a seeded generator).
    pub fn with(cfg: RetryConfig, clock: Arc<dyn Clock>, jitter: Box<dyn Jitter>) -> Retrier {
        Retrier {
            cfg,
            clock,
            jitter: Mutex::new(jitter),
        }
    }

    pub fn config(&self) -> &RetryConfig {
        &self.cfg
    }

    pub fn clock(&self) -> &dyn Clock {
        self.clock.as_ref()
    }

    /// The backoff before retry `n` (0-based), with a fresh jitter draw.
    pub fn backoff(&self, n: u32) -> Duration {
        let fraction = self.jitter.lock().expect("jitter lock").fraction();
        self.cfg.backoff.delay(n, fraction)
    }

    /// Checks a server's Retry-After against the maximum: the wait, or the error that
    /// ends the request (callers that hold a shared gate use this before closing it).
    pub fn honour(&self, url: &str, wait: Duration) -> Result<Duration, HttpError> {
        retry_after::within(url, wait, self.cfg.max_retry_after)
    }

    /// Runs `attempt(n)` for n = 0, 1, ... until it is done or fails for good, or until
    /// `max_retries + 1` attempts have failed (`HttpError::Exhausted`, naming the last
    /// error). A Retry-After beyond the maximum ends the loop at once, even on the last
    /// attempt, so the error says why.
    pub async fn run<T, F, Fut>(&self, url: &str, mut attempt: F) -> Result<T, HttpError>
    where
        F: FnMut(u32) -> Fut,
        Fut: Future<Output = Attempt<T>>,
    {
        let attempts = self.cfg.attempts();
        let mut n = 0;
        loop {
            let (error, hint) = match attempt(n).await {
                Attempt::Done(t) => return Ok(t),
                Attempt::Fail(e) => return Err(e),
                Attempt::Retry { error, retry_after } => (error, retry_after),
            };
            let wait = match hint {
                Some(d) => self.honour(url, d)?,
                None => self.backoff(n),
            };
            n += 1;
            if n >= attempts {
                return Err(HttpError::Exhausted {
                    url: url.to_string(),
                    attempts,
                    last: Box::new(error),
                });
            }
            self.clock.sleep(wait).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::super::clock::ManualClock;
    use super::super::policy::BackoffConfig;
    use super::*;

    /// Always the same draw, so waits are exact.
    struct Fixed(f64);

    impl Jitter for Fixed {
        fn fraction(&mut self) -> f64 {
            self.0
        }
    }

    fn cfg(max_retries: u32) -> RetryConfig {
        RetryConfig {
            max_retries,
            backoff: BackoffConfig {
                init_backoff: Duration::from_millis(100),
                max_backoff: Duration::from_millis(500),
                base: 2.0,
            },
            max_retry_after: Duration::from_secs(60),
        }
    }

    fn retrier(max_retries: u32, jitter: Box<dyn Jitter>) -> (Retrier, Arc<ManualClock>) {
        let clock = Arc::new(ManualClock::at(SystemTime::UNIX_EPOCH));
        (
            Retrier::with(cfg(max_retries), clock.clone(), jitter),
            clock,
        )
    }

    fn server_error() -> HttpError {
        HttpError::Status {
            url: "http://x/".into(),
            status: 503,
            snippet: String::new(),
        }
    }

    fn run<T>(r: &Retrier, mut script: Vec<Attempt<T>>) -> (Result<T, HttpError>, u32) {
        script.reverse();
        let mut calls = 0;
        let out = futures::executor::block_on(r.run("http://x/", |_| {
            calls += 1;
            std::future::ready(script.pop().expect("an attempt past the script"))
        }));
        (out, calls)
    }

    fn retry<T>() -> Attempt<T> {
        Attempt::failed(server_error())
    }

    #[test]
    fn waits_grow_to_the_cap_and_the_budget_ends_with_the_last_error() {
        let (r, clock) = retrier(5, Box::new(Fixed(1.0)));
        let (out, calls) = run::<()>(&r, (0..6).map(|_| retry()).collect());
        assert_eq!(calls, 6);
        let ms: Vec<u128> = clock.slept().iter().map(Duration::as_millis).collect();
        assert_eq!(ms, [100, 200, 400, 500, 500]);
        match out {
            Err(HttpError::Exhausted { attempts, last, .. }) => {
                assert_eq!(attempts, 6);
                assert_eq!(last.status(), Some(503));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn seeded_jitter_stays_under_each_ceiling_and_repeats() {
        let waits = |seed| {
            let (r, clock) = retrier(4, Box::new(fastrand::Rng::with_seed(seed)));
            let _ = run::<()>(&r, (0..5).map(|_| retry()).collect());
            clock.slept()
        };
        let a = waits(42);
        assert_eq!(a.len(), 4);
        for (n, w) in a.iter().enumerate() {
            assert!(*w < cfg(4).backoff.ceiling(n as u32), "retry {n}: {w:?}");
        }
        assert_eq!(a, waits(42));
        assert_ne!(a, waits(43));
    }

    #[test]
    fn success_after_a_retry_returns_the_value() {
        let (r, clock) = retrier(3, Box::new(Fixed(0.5)));
        let (out, calls) = run(&r, vec![retry(), Attempt::Done(7)]);
        assert_eq!((out.unwrap(), calls), (7, 2));
        assert_eq!(clock.slept(), [Duration::from_millis(50)]);
    }

    #[test]
    fn a_final_error_is_returned_without_a_retry() {
        let (r, clock) = retrier(3, Box::new(Fixed(0.5)));
        let forbidden = HttpError::Status {
            url: "http://x/".into(),
            status: 403,
            snippet: "no".into(),
        };
        let (out, calls) = run::<()>(&r, vec![Attempt::failed(forbidden)]);
        assert_eq!(calls, 1);
        assert!(matches!(out, Err(HttpError::Status { status: 403, .. })));
        assert!(clock.slept().is_empty());
    }

    #[test]
    fn retry_after_replaces_the_backoff_and_too_long_ends_at_once() {
        let (r, clock) = retrier(3, Box::new(Fixed(1.0)));
        let hinted = |secs| Attempt::Retry {
            error: server_error(),
            retry_after: Some(Duration::from_secs(secs)),
        };
        let (out, _) = run(&r, vec![hinted(2), Attempt::Done(())]);
        assert!(out.is_ok());
        assert_eq!(clock.slept(), [Duration::from_secs(2)]);
        let (out, calls) = run::<()>(&r, vec![hinted(3600)]);
        assert_eq!(calls, 1);
        assert!(matches!(
            out,
            Err(HttpError::RetryAfterTooLong {
                secs: 3600,
                max: 60,
                ..
            })
        ));
        assert_eq!(clock.slept().len(), 1, "no wait for a refused Retry-After");
    }

    #[test]
    fn no_retries_means_one_attempt() {
        let (r, clock) = retrier(0, Box::new(Fixed(1.0)));
        let (out, calls) = run::<()>(&r, vec![retry()]);
        assert_eq!(calls, 1);
        assert!(matches!(out, Err(HttpError::Exhausted { attempts: 1, .. })));
        assert!(clock.slept().is_empty());
    }
}
