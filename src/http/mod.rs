//! The HTTP policy shared by the live snapshot fetchers and the LLM client: timeouts,
//! which outcomes are retried (connection errors, timeouts, broken or malformed bodies,
//! 429, 5xx; every other status fails at once), capped exponential backoff with full
//! jitter, Retry-After as seconds or an HTTP date (refused beyond a maximum), and a
//! size-capped body reader. Clock and jitter are injected (`Clock`, `Jitter`) so the
//! policy is tested without sleeping. Rate limiting, caching and what a request means
//! belong to the clients, not here.

mod body;
mod clock;
mod error;
mod policy;
mod retry;
pub mod retry_after;

pub use body::{Chunks, SNIPPET_BYTES, read_capped, snippet, status_error};
pub use clock::{Clock, Jitter, ManualClock, SystemClock};
pub use error::HttpError;
pub use policy::{BackoffConfig, RetryConfig, Timeouts, is_retryable_status};
pub use retry::{Attempt, Retrier};
