//! The analyst session's view of the lake: an object store that keeps, for the
//! statement being run, the bytes it read from the start of each small object, and
//! serves later reads inside them from memory.
//!
//! A run writes one Parquet part per asset and table, each a few dozen kilobytes.
//! DataFusion reads a part's footer with a prefetch larger than the part (so the first
//! read of a part is the whole part), keeps the decoded footer, and then reads the
//! same part again for its column chunks: every part was opened and read twice by the
//! first execution of a query. With this store the second read is a slice of the first.
//!
//! Only a batch of ranged reads (how DataFusion reads Parquet) is served or kept: a
//! single range from byte 0, at most [`OBJECT_LIMIT`] long, is kept until
//! [`PrefixCache::clear`] (called before each statement) or while [`TOTAL_LIMIT`] bytes
//! are held. A range outside the bytes held, every other read and every write go to the
//! inner store unchanged.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use bytes::Bytes;
use futures::stream::BoxStream;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult, Result,
};

/// The longest read kept (a part larger than this is read as DataFusion asks).
pub const OBJECT_LIMIT: u64 = 1 << 20;
/// The most bytes held at once; reads past it are not kept.
pub const TOTAL_LIMIT: usize = 256 << 20;

#[derive(Debug, Default)]
struct Held {
    /// path → its first bytes
    objects: HashMap<Path, Bytes>,
    bytes: usize,
}

#[derive(Debug)]
pub struct PrefixCache {
    inner: Arc<dyn ObjectStore>,
    held: Mutex<Held>,
}

impl std::fmt::Display for PrefixCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PrefixCache({})", self.inner)
    }
}

impl PrefixCache {
    pub fn new(inner: Arc<dyn ObjectStore>) -> PrefixCache {
        PrefixCache {
            inner,
            held: Mutex::new(Held::default()),
        }
    }

    /// Forgets every byte held: the next statement reads the lake afresh.
    pub fn clear(&self) {
        let mut held = self.held.lock().expect("cache lock");
        held.objects.clear();
        held.bytes = 0;
    }

    /// The bytes held for `location` when they cover `range`.
    fn slice(&self, location: &Path, range: &Range<u64>) -> Option<Bytes> {
        let held = self.held.lock().expect("cache lock");
        let bytes = held.objects.get(location)?;
        let (start, end) = (
            usize::try_from(range.start).ok()?,
            usize::try_from(range.end).ok()?,
        );
        (start < end && end <= bytes.len()).then(|| bytes.slice(start..end))
    }

    /// Keeps what a read from byte 0 returned, within the limits.
    fn keep(&self, location: &Path, bytes: &Bytes) {
        if bytes.len() as u64 > OBJECT_LIMIT {
            return;
        }
        let mut held = self.held.lock().expect("cache lock");
        if held.bytes + bytes.len() > TOTAL_LIMIT || held.objects.contains_key(location) {
            return;
        }
        held.bytes += bytes.len();
        held.objects.insert(location.clone(), bytes.clone());
    }
}

#[async_trait]
impl ObjectStore for PrefixCache {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> Result<PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> Result<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        self.inner.get_opts(location, options).await
    }

    async fn get_ranges(&self, location: &Path, ranges: &[Range<u64>]) -> Result<Vec<Bytes>> {
        let held: Option<Vec<Bytes>> = ranges.iter().map(|r| self.slice(location, r)).collect();
        if let Some(all) = held {
            return Ok(all);
        }
        let got = self.inner.get_ranges(location, ranges).await?;
        // a single read from byte 0 is what a footer prefetch over a whole part looks like
        if let ([r], [bytes]) = (ranges, got.as_slice())
            && r.start == 0
            && bytes.len() as u64 == r.end
        {
            self.keep(location, bytes);
        }
        Ok(got)
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, Result<Path>>,
    ) -> BoxStream<'static, Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    fn list_with_offset(
        &self,
        prefix: Option<&Path>,
        offset: &Path,
    ) -> BoxStream<'static, Result<ObjectMeta>> {
        self.inner.list_with_offset(prefix, offset)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
        self.inner.copy_opts(from, to, options).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use object_store::ObjectStoreExt;
    use object_store::memory::InMemory;

    /// A read from byte 0 is kept and later ranges inside it come from memory (the inner
    /// object was rewritten since, and the old bytes still answer), until `clear`; a range
    /// past the bytes held, and an object over the limit, are read from the inner store.
    #[tokio::test]
    async fn keeps_a_read_from_the_start_until_cleared() {
        let inner = Arc::new(InMemory::new());
        let part = Path::from("t/run_id=r/asset_id=a/part-0.parquet");
        let big = Path::from("t/big.parquet");
        let old: Vec<u8> = (0..100u8).collect();
        inner.put(&part, old.clone().into()).await.unwrap();
        let huge = vec![7u8; OBJECT_LIMIT as usize + 1];
        inner.put(&big, huge.clone().into()).await.unwrap();
        let store = PrefixCache::new(inner.clone());

        let first = store.get_ranges(&part, &[0..60]).await.unwrap();
        assert_eq!(first[0].as_ref(), &old[..60]);
        inner.put(&part, vec![1u8; 100].into()).await.unwrap();
        let held = store.get_ranges(&part, &[10..20, 50..60]).await.unwrap();
        assert_eq!(held[0].as_ref(), &old[10..20]);
        assert_eq!(held[1].as_ref(), &old[50..60]);
        // past the 60 bytes held: the inner store's current bytes
        let past = store.get_ranges(&part, &[50..70]).await.unwrap();
        assert_eq!(past[0].as_ref(), &[1u8; 20][..]);
        store.clear();
        let fresh = store.get_ranges(&part, &[10..20]).await.unwrap();
        assert_eq!(fresh[0].as_ref(), &[1u8; 10][..]);

        store
            .get_ranges(&big, &[0..huge.len() as u64])
            .await
            .unwrap();
        inner.put(&big, vec![8u8; huge.len()].into()).await.unwrap();
        let again = store.get_ranges(&big, &[0..4]).await.unwrap();
        assert_eq!(
            again[0].as_ref(),
            &[8u8; 4][..],
            "an object over the limit is not kept"
        );
    }
}
