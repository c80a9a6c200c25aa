//! Why one URL of a live snapshot could not be had: the request itself (the shared
//! HTTP error), or the lake's cache of earlier responses. It only names failures; the
//! manifest's record of them (`FetchFailure`) is written by the fetcher.

use crate::http::HttpError;
use crate::lake::LakeError;

#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    #[error(transparent)]
    Http(#[from] HttpError),
    /// The server said the stored body is current, but there is none.
    #[error("{url}: 304 Not Modified, but the lake holds no cached body for it")]
    NotModifiedUncached { url: String },
    /// A cache entry whose body hash is not a sha256 digest.
    #[error("{key}: unusable cache entry: {reason}")]
    BadCacheEntry { key: String, reason: String },
    #[error(transparent)]
    Lake(#[from] LakeError),
    /// SEC refuses requests whose User-Agent names no contact.
    #[error(
        "live.user_agent {agent:?} names no contact email, and SEC refuses every request without one: set live.user_agent (or DOSSIER_USER_AGENT) to a name and email, e.g. \"Acme Research ops@acme.example\", or skip SEC on purpose with live.skip = [\"sec\"]"
    )]
    NoContact { agent: String },
    /// `--save-responses` could not write a response or its sidecar.
    #[error("writing {}", path.display())]
    SaveResponses {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}
