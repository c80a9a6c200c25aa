//! Reading response bodies: whole under a size cap (after gzip decoding), or only the
//! first bytes of an error page for a message. Reading stops as soon as the cap is
//! passed, so a runaway body costs at most one chunk over it. This file does not look
//! at statuses or retry anything.

use std::future::Future;

use bytes::{Bytes, BytesMut};

use super::HttpError;

/// Bytes of an error body kept for its message.
pub const SNIPPET_BYTES: usize = 200;

/// A body read chunk by chunk; `reqwest::Response` in production, a queue in tests.
pub trait Chunks: Send {
    /// The next chunk, `None` at the end.
    fn next_chunk(&mut self) -> impl Future<Output = Result<Option<Bytes>, reqwest::Error>> + Send;
}

impl Chunks for reqwest::Response {
    fn next_chunk(&mut self) -> impl Future<Output = Result<Option<Bytes>, reqwest::Error>> + Send {
        self.chunk()
    }
}

/// The whole body, if it is at most `cap` bytes: a body of exactly `cap` bytes passes,
/// one byte more is `HttpError::TooLarge`. A body that breaks off is `HttpError::Body`.
pub async fn read_capped(mut body: impl Chunks, url: &str, cap: u64) -> Result<Bytes, HttpError> {
    let mut buf = BytesMut::new();
    while let Some(chunk) = body.next_chunk().await.map_err(|source| HttpError::Body {
        url: url.to_string(),
        // the URL this error would name is the one sent, which may carry credentials
        source: source.without_url(),
    })? {
        if (buf.len() + chunk.len()) as u64 > cap {
            return Err(HttpError::TooLarge {
                url: url.to_string(),
                limit: cap,
            });
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf.freeze())
}

/// The first `n` bytes of a body on one line (whitespace collapsed), reading no further;
/// what could not be read is left out rather than reported.
pub async fn snippet(mut body: impl Chunks, n: usize) -> String {
    let mut buf = Vec::new();
    while buf.len() < n {
        match body.next_chunk().await {
            Ok(Some(chunk)) => buf.extend_from_slice(&chunk[..chunk.len().min(n - buf.len())]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&buf)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The error for an unsuccessful response: its status and the start of its body.
pub async fn status_error(resp: reqwest::Response, url: &str) -> HttpError {
    let status = resp.status().as_u16();
    HttpError::Status {
        url: url.to_string(),
        status,
        snippet: snippet(resp, SNIPPET_BYTES).await,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;

    /// Chunks from a queue; counts how many were taken.
    struct Queue(VecDeque<Bytes>, usize);

    impl Chunks for Queue {
        fn next_chunk(
            &mut self,
        ) -> impl Future<Output = Result<Option<Bytes>, reqwest::Error>> + Send {
            let next = self.0.pop_front();
            self.1 += usize::from(next.is_some());
            std::future::ready(Ok(next))
        }
    }

    fn queue(sizes: &[usize]) -> Queue {
        Queue(
            sizes.iter().map(|n| Bytes::from(vec![b'x'; *n])).collect(),
            0,
        )
    }

    fn read(q: &mut Queue, cap: u64) -> Result<Bytes, HttpError> {
        futures::executor::block_on(read_capped(q, "http://x/big", cap))
    }

    impl Chunks for &mut Queue {
        fn next_chunk(
            &mut self,
        ) -> impl Future<Output = Result<Option<Bytes>, reqwest::Error>> + Send {
            (**self).next_chunk()
        }
    }

    #[test]
    fn a_body_exactly_at_the_cap_passes() {
        let b = read(&mut queue(&[4, 4, 2]), 10).unwrap();
        assert_eq!(b.len(), 10);
        assert_eq!(read(&mut queue(&[]), 0).unwrap().len(), 0);
    }

    #[test]
    fn one_byte_over_the_cap_fails_with_the_cap_and_the_url() {
        match read(&mut queue(&[4, 4, 3]), 10) {
            Err(HttpError::TooLarge { url, limit }) => {
                assert_eq!((url.as_str(), limit), ("http://x/big", 10));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reading_stops_at_the_chunk_that_passes_the_cap() {
        let mut q = queue(&[8, 8, 8, 8, 8]);
        assert!(read(&mut q, 10).is_err());
        assert_eq!(q.1, 2, "chunks taken");
        assert_eq!(q.0.len(), 3, "chunks never read");
    }

    #[test]
    fn a_snippet_is_short_and_on_one_line() {
        let mut q = Queue(
            VecDeque::from([
                Bytes::from("  Service\n\tUnavailable  "),
                Bytes::from("x".repeat(500)),
            ]),
            0,
        );
        let s = futures::executor::block_on(snippet(&mut q, 30));
        assert_eq!(s, "Service Unavailable xxxxxx");
        let mut q = queue(&[100, 100, 100, 100]);
        let s = futures::executor::block_on(snippet(&mut q, SNIPPET_BYTES));
        assert_eq!((s.len(), q.1), (SNIPPET_BYTES, 2));
    }
}
