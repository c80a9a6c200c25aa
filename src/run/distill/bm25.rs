//! Okapi BM25 over a bundle's spans, and distillation: the best spans for a query that
//! fit a token budget, with tokens counted by a real BPE tokenizer (tiktoken's
//! `cl100k_base`, from the `tiktoken-rs` crate). Pure.
//!
//! Terms: lower-cased runs of letters and digits of at least 2 characters (numbers and
//! short acronyms matter in this domain). idf = ln((N - df + 0.5) / (df + 0.5) + 1).

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use hashbrown::HashTable;

use crate::run::distill::spans::Span;

pub const K1: f64 = 1.2;
pub const B: f64 = 0.75;

/// Terms of an already lower-cased text.
fn terms_of(lower: &str) -> impl Iterator<Item = &str> {
    lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| t.chars().nth(1).is_some())
}

/// Terms of a text, lower-cased.
pub fn terms(text: &str) -> Vec<String> {
    terms_of(&text.to_lowercase()).map(str::to_string).collect()
}

/// Lower-cases `text` into `buf` (reused across documents) exactly as
/// `str::to_lowercase` does: per character, except for the one mapping that depends on
/// context (a final capital sigma), for which the whole text goes through
/// `to_lowercase`.
fn lower_into(text: &str, buf: &mut String) {
    buf.clear();
    if text.is_ascii() {
        buf.push_str(text);
        buf.make_ascii_lowercase();
    } else if text.contains('\u{3A3}') {
        buf.push_str(&text.to_lowercase());
    } else {
        let mut rest = text;
        while !rest.is_empty() {
            let ascii = rest
                .bytes()
                .position(|b| !b.is_ascii())
                .unwrap_or(rest.len());
            let from = buf.len();
            buf.push_str(&rest[..ascii]);
            buf[from..].make_ascii_lowercase();
            let Some(c) = rest[ascii..].chars().next() else {
                break;
            };
            buf.extend(c.to_lowercase());
            rest = &rest[ascii + c.len_utf8()..];
        }
    }
}

/// Calls `each` with the terms of a lower-cased text in order, what [`terms_of`] gives,
/// each with its [`Key`].
/// The text is read 64 bytes at a time into a bit mask of the bytes that belong to a
/// letter or digit (eight ASCII bytes per word operation; a character is decoded only
/// where a byte is not ASCII), and terms are the runs of set bits.
fn each_term(lower: &str, mut each: impl FnMut(&str, Key)) {
    let bytes = lower.as_bytes();
    // where the open run started, if one is open at the end of the previous chunk
    let mut open: Option<usize> = None;
    // bits of this chunk already classed by a character that began in the last one
    let mut spill = (0u64, 0u64);
    for (ci, chunk) in bytes.chunks(64).enumerate() {
        let base = ci * 64;
        let m = chunk_mask(lower, base, chunk, &mut spill);
        let prev = (m << 1) | open.is_some() as u64;
        // Runs alternate: the n-th end closes the n-th start, or first the run left
        // open by the last chunk.
        let (mut starts, mut ends) = (m & !prev, !m & prev);
        if let Some(s) = open
            && ends != 0
        {
            emit(lower, s, base + ends.trailing_zeros() as usize, &mut each);
            ends &= ends - 1;
            open = None;
        }
        while starts != 0 {
            let s = base + starts.trailing_zeros() as usize;
            starts &= starts - 1;
            if ends == 0 {
                open = Some(s);
                break;
            }
            emit(lower, s, base + ends.trailing_zeros() as usize, &mut each);
            ends &= ends - 1;
        }
    }
    if let Some(s) = open {
        emit(lower, s, bytes.len(), &mut each);
    }
}

/// A run of letter and digit bytes is a term when it holds at least 2 characters.
#[inline]
fn emit(lower: &str, start: usize, end: usize, each: &mut impl FnMut(&str, Key)) {
    let t = &lower[start..end];
    if t.len() < 2 || !(t.as_bytes()[..2].is_ascii() || t.chars().nth(1).is_some()) {
        return;
    }
    // one load of the 8 or 16 bytes from the term's start when the text has them
    let bytes = lower.as_bytes();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let low = |n: usize| u64::MAX >> (64 - 8 * n);
    let key = match t.len() {
        n @ ..=8 if start + 8 <= bytes.len() => Key::Short(word(start) & low(n)),
        n @ 9..=16 if start + 16 <= bytes.len() => {
            Key::Medium(word(start), word(start + 8) & low(n - 8))
        }
        _ => key_of(t),
    };
    each(t, key);
}

const HIGH: u64 = 0x8080_8080_8080_8080;
const ONES: u64 = 0x0101_0101_0101_0101;

/// Bit i set when byte i of an all-ASCII word is a lower-case letter or a digit: each
/// range test is an add and a subtract that never carry across bytes below 0x80.
#[inline]
fn ascii_word_mask(x: u64) -> u64 {
    let letter =
        x.wrapping_add(ONES * (0x80 - b'a' as u64)) & (ONES * (0x80 + b'z' as u64)).wrapping_sub(x);
    let digit =
        x.wrapping_add(ONES * (0x80 - b'0' as u64)) & (ONES * (0x80 + b'9' as u64)).wrapping_sub(x);
    // gather the high bit of each byte into the low 8 bits
    (((letter | digit) & HIGH) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Bit j set when byte `base + j` belongs to an alphanumeric character. A word of 8
/// ASCII bytes is classed at once; elsewhere each character is classed as a whole, over
/// all of its bytes. `spill` carries the bits of a character that runs over into the
/// next chunk: (class bits, bits decided).
#[inline]
fn chunk_mask(text: &str, base: usize, chunk: &[u8], spill: &mut (u64, u64)) -> u64 {
    let (mut m, mut decided) = std::mem::take(spill);
    let mut byte_by_byte = |from: usize, to: usize, m: &mut u64, decided: &mut u64| {
        let mut j = from;
        while j < to {
            let b = chunk[j];
            if *decided >> j & 1 == 1 {
                // a continuation byte, classed with its character
            } else if b.is_ascii() {
                *m |= ((b.is_ascii_lowercase() || b.is_ascii_digit()) as u64) << j;
            } else {
                let c = text[base + j..]
                    .chars()
                    .next()
                    .expect("j is a char boundary");
                let alnum = c.is_alphanumeric() as u64;
                for k in j + 1..j + c.len_utf8() {
                    if k < 64 {
                        *m |= alnum << k;
                        *decided |= 1 << k;
                    } else {
                        spill.0 |= alnum << (k - 64);
                        spill.1 |= 1 << (k - 64);
                    }
                }
                *m |= alnum << j;
            }
            j += 1;
        }
    };
    let mut words = chunk.chunks_exact(8);
    for (k, w) in words.by_ref().enumerate() {
        let x = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        if x & HIGH == 0 {
            m |= ascii_word_mask(x) << (8 * k);
        } else {
            byte_by_byte(8 * k, 8 * k + 8, &mut m, &mut decided);
        }
    }
    let done = chunk.len() - words.remainder().len();
    byte_by_byte(done, chunk.len(), &mut m, &mut decided);
    m
}

/// The end of a term's chain of postings.
const NONE: u32 = u32::MAX;

/// A term's postings: the chain of its nodes in [`Store::nodes`], newest document
/// first, from the last document added and its node. Eight bytes, so that a short
/// term's whole entry is sixteen.
#[derive(Clone, Copy, Debug)]
struct Postings {
    last: u32,
    head: u32,
}

impl Postings {
    const EMPTY: Postings = Postings {
        last: NONE,
        head: NONE,
    };

    /// (document, term frequency, next node) of each node of the chain.
    fn iter<'a>(&self, nodes: &'a [(u32, u32, u32)]) -> impl Iterator<Item = (u32, u32, u32)> + 'a {
        std::iter::successors(
            (self.head != NONE).then(|| nodes[self.head as usize]),
            |&(_, _, next)| (next != NONE).then(|| nodes[next as usize]),
        )
    }
}

/// An inverted index over documents (span texts), built in one pass over the text. Each
/// distinct term has one entry in a hash table that also holds its postings' head, and
/// every (term, document) pair is one node in one array, chained to the term's previous
/// document: an occurrence costs one table probe and one write, with nothing to sort or
/// lay out after the last document. A large text is indexed as consecutive runs of
/// documents, each with its own tables, which the pool's threads take in turn; a query
/// adds up a term's postings over the runs, so the ranking is the one a single table
/// gives, to the bit.
#[derive(Debug)]
pub struct Bm25 {
    avg_len: f64,
    /// How many documents the index holds.
    docs: usize,
    /// The runs' storage, in document order.
    runs: Vec<Store>,
}

/// The index of one run of documents.
#[derive(Debug, Default)]
struct Store {
    /// The number of the run's first document.
    first: u32,
    /// The term count of each document of the run.
    lengths: Vec<u32>,
    /// The text of every distinct term over 16 bytes, end to end.
    arena: String,
    /// (hash, byte range in `arena`, postings) of terms over 16 bytes, found by the hash
    /// of the term's text.
    table: HashTable<(u64, (u32, u32), Postings)>,
    /// (packed bytes, postings) of terms of 9 to 16 bytes, the long words of a label.
    medium: HashTable<((u64, u64), Postings)>,
    /// (packed bytes, postings) of terms of up to 8 bytes, most of them: found by the
    /// term itself as one integer, with no look at the arena.
    short: HashTable<(u64, Postings)>,
    /// (document, term frequency, next node): one per term and document that holds it;
    /// `next` is the term's node for an earlier document, or [`NONE`].
    nodes: Vec<(u32, u32, u32)>,
}

impl Store {
    /// Empties the storage, keeping its memory, for a run from document `first` over
    /// `bytes` of text.
    fn reset(&mut self, first: u32, bytes: usize) {
        self.first = first;
        self.lengths.clear();
        self.arena.clear();
        self.table.clear();
        self.table.reserve(256, |e| e.0);
        self.medium.clear();
        self.medium.reserve(256, |e| hash_medium(e.0));
        self.short.clear();
        self.short.reserve(1024, |e| hash_packed(e.0));
        // about one new (term, document) pair per 8 to 13 bytes of label text
        self.nodes.clear();
        self.nodes.reserve(bytes / 10);
    }

    /// Indexes `docs`, the run of documents from number `first`.
    fn index(&mut self, first: usize, docs: &[&str]) {
        self.reset(first as u32, docs.iter().map(|d| d.len()).sum());
        let mut buf = LOWER.take();
        for (d, text) in docs.iter().enumerate() {
            lower_into(text, &mut buf);
            let doc = (first + d) as u32;
            let mut length = 0u32;
            each_term(&buf, |t, key| {
                length += 1;
                self.add(t, key, doc);
            });
            self.lengths.push(length);
        }
        LOWER.set(buf);
    }

    /// Counts one occurrence of term `t` (of [`Key`] `key`) in document `doc`,
    /// documents coming in ascending order.
    #[inline]
    fn add(&mut self, t: &str, key: Key, doc: u32) {
        let Store {
            short,
            medium,
            table,
            arena,
            nodes,
            ..
        } = self;
        let post = match key {
            Key::Short(key) => short_entry(short, key),
            Key::Medium(low, high) => medium_entry(medium, (low, high)),
            Key::Long => long_entry(table, arena, t),
        };
        if post.last == doc {
            nodes[post.head as usize].1 += 1;
        } else {
            nodes.push((doc, 1, post.head));
            *post = Postings {
                last: doc,
                head: nodes.len() as u32 - 1,
            };
        }
    }

    /// The postings of a term in this run, if it has the term.
    fn lookup(&self, t: &str) -> Option<Postings> {
        match key_of(t) {
            Key::Short(key) => self
                .short
                .find(hash_packed(key), |e| e.0 == key)
                .map(|e| e.1),
            Key::Medium(low, high) => self
                .medium
                .find(hash_medium((low, high)), |e| e.0 == (low, high))
                .map(|e| e.1),
            Key::Long => {
                let hash = hash_of(t);
                self.table
                    .find(hash, |e| {
                        e.0 == hash && &self.arena[e.1.0 as usize..e.1.1 as usize] == t
                    })
                    .map(|e| e.2)
            }
        }
    }
}

/// The text of a run of documents. Smaller runs share a text out more evenly; but a
/// text of two runs of 16 KiB was slower to index than in one run, because the run the
/// other thread took began late and ran on its cold caches: with 16 KiB, the synthetic
/// corpus's bundles (36 KB of text each) took 107-130 us per asset against 80-91 in one
/// run; with 32 KiB they stay whole, and the real corpus's mean fell from 205-218 us to
/// 152-166 (`bench/bm25_compare.sh`).
const RUN_BYTES: usize = 32 << 10;
/// The most runs an index is cut into, and the most storages a thread keeps.
const MAX_RUNS: usize = 64;

thread_local! {
    /// A run's lower-cased text, kept for the next run indexed on this thread.
    static LOWER: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
    /// The storage of the runs of the indexes last dropped on this thread (up to
    /// [`MAX_RUNS`]), emptied by the next build: `distill` builds and drops one index per
    /// asset, and fresh storage was mapped, faulted in page by page and unmapped again
    /// for each.
    static SPARE: std::cell::Cell<Vec<Store>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Bm25 {
    fn drop(&mut self) {
        let mut spare = SPARE.take();
        spare.append(&mut self.runs);
        spare.truncate(MAX_RUNS);
        SPARE.set(spare);
    }
}

fn hash_of(t: &str) -> u64 {
    foldhash::fast::FixedState::default().hash_one(t)
}

/// How a term is found: a term of up to 8 bytes as one integer, of 9 to 16 as two
/// (terms hold no zero byte, so the zero padding is unambiguous), a longer one by the
/// hash of its text.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Key {
    Short(u64),
    Medium(u64, u64),
    Long,
}

/// The [`Key`] of a term.
fn key_of(t: &str) -> Key {
    let pack = |b: &[u8]| {
        b.iter()
            .enumerate()
            .fold(0u64, |word, (i, &byte)| word | (byte as u64) << (8 * i))
    };
    let b = t.as_bytes();
    match b.len() {
        ..=8 => Key::Short(pack(b)),
        9..=16 => Key::Medium(pack(&b[..8]), pack(&b[8..])),
        _ => Key::Long,
    }
}

#[inline]
fn hash_packed(key: u64) -> u64 {
    foldhash::fast::FixedState::default().hash_one(key)
}

/// The postings of the term of up to 8 bytes packed as `key`, made empty when new.
#[inline]
fn short_entry(short: &mut HashTable<(u64, Postings)>, key: u64) -> &mut Postings {
    let entry = short.entry(hash_packed(key), |e| e.0 == key, |e| hash_packed(e.0));
    &mut entry.or_insert((key, Postings::EMPTY)).into_mut().1
}

/// The postings of the term of 9 to 16 bytes packed as `key`, made empty when new.
#[inline]
fn medium_entry(medium: &mut HashTable<((u64, u64), Postings)>, key: (u64, u64)) -> &mut Postings {
    let entry = medium.entry(hash_medium(key), |e| e.0 == key, |e| hash_medium(e.0));
    &mut entry.or_insert((key, Postings::EMPTY)).into_mut().1
}

#[inline]
fn hash_medium(key: (u64, u64)) -> u64 {
    foldhash::fast::FixedState::default().hash_one(key)
}

/// The postings of a term of over 16 bytes, its text kept in `arena` when new.
#[inline(never)]
fn long_entry<'a>(
    table: &'a mut HashTable<(u64, (u32, u32), Postings)>,
    arena: &mut String,
    t: &str,
) -> &'a mut Postings {
    let hash = hash_of(t);
    let text = &*arena;
    let entry = table.entry(
        hash,
        |e| e.0 == hash && &text[e.1.0 as usize..e.1.1 as usize] == t,
        |e| e.0,
    );
    let entry = match entry {
        hashbrown::hash_table::Entry::Occupied(e) => e,
        hashbrown::hash_table::Entry::Vacant(v) => {
            let start = arena.len() as u32;
            arena.push_str(t);
            v.insert((hash, (start, arena.len() as u32), Postings::EMPTY))
        }
    };
    &mut entry.into_mut().2
}

impl Bm25 {
    /// The index of `docs`. On a thread of the pool, a text of two [`RUN_BYTES`] or more
    /// is indexed in runs of about that size, shared with the pool's other threads;
    /// elsewhere, in one run.
    pub fn build<'a, I>(docs: I) -> Bm25
    where
        I: IntoIterator<Item = &'a str>,
    {
        let docs: Vec<&str> = docs.into_iter().collect();
        let bytes: usize = docs.iter().map(|d| d.len()).sum();
        let runs = match rayon::current_thread_index() {
            Some(_) => (bytes / RUN_BYTES).clamp(1, MAX_RUNS),
            None => 1,
        };
        Bm25::build_in_runs(&docs, runs)
    }

    /// The index of `docs` in up to `runs` runs of about equal text. This thread and as
    /// many of the pool's as there are runs to share each take the next run not yet
    /// taken. On a thread of the pool, the helpers wait in its own queue: when a helper
    /// has not been taken by another thread by the time this thread has taken the last
    /// run, this thread finds it there and ends it at once. A build then never waits
    /// for a thread to wake, only for a run another thread has begun. Called from
    /// outside the pool, it waits for the helpers to be taken.
    fn build_in_runs(docs: &[&str], runs: usize) -> Bm25 {
        let bytes: usize = docs.iter().map(|d| d.len()).sum();
        // a run ends before the first document past its share of the text
        let mut cuts = vec![0];
        let mut before = 0;
        for (i, d) in docs.iter().enumerate() {
            if cuts.len() < runs && i > cuts[cuts.len() - 1] && before * runs >= bytes * cuts.len()
            {
                cuts.push(i);
            }
            before += d.len();
        }
        cuts.push(docs.len());
        let mut spare = SPARE.take();
        let stores: Vec<Mutex<Store>> = cuts[1..]
            .iter()
            .map(|_| Mutex::new(spare.pop().unwrap_or_default()))
            .collect();
        SPARE.set(spare);
        let next = AtomicUsize::new(0);
        let work = || {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&[from, to]) = cuts.get(i..i + 2) else {
                    break;
                };
                let mut store = stores[i].lock().unwrap_or_else(PoisonError::into_inner);
                store.index(from, &docs[from..to]);
            }
        };
        let helpers = stores.len().min(rayon::current_num_threads()) - 1;
        if helpers == 0 {
            work();
        } else {
            rayon::in_place_scope(|scope| {
                for _ in 0..helpers {
                    scope.spawn(|_| work());
                }
                work();
            });
        }
        let runs: Vec<Store> = stores
            .into_iter()
            .map(|s| s.into_inner().unwrap_or_else(PoisonError::into_inner))
            .collect();
        let total: u64 = runs
            .iter()
            .flat_map(|s| &s.lengths)
            .map(|l| *l as u64)
            .sum();
        Bm25 {
            avg_len: if docs.is_empty() {
                0.0
            } else {
                total as f64 / docs.len() as f64
            },
            docs: docs.len(),
            runs,
        }
    }

    /// (document, term frequency) of each document that holds term `t`, in ascending
    /// order of document.
    #[cfg(test)]
    fn postings_of(&self, t: &str) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for run in &self.runs {
            let mut of_run: Vec<(u32, u32)> = run
                .lookup(t)
                .iter()
                .flat_map(|p| p.iter(&run.nodes).map(|(d, f, _)| (d, f)))
                .collect();
            of_run.reverse();
            out.extend(of_run);
        }
        out
    }

    /// How many term entries the index holds, over all its runs.
    #[cfg(test)]
    fn terms(&self) -> usize {
        self.runs
            .iter()
            .map(|r| r.short.len() + r.medium.len() + r.table.len())
            .sum()
    }

    /// The term count of every document, in order.
    #[cfg(test)]
    fn lengths(&self) -> Vec<u32> {
        self.runs.iter().flat_map(|r| r.lengths.clone()).collect()
    }

    /// Whether the index holds term `t`.
    #[cfg(test)]
    fn has(&self, t: &str) -> bool {
        self.runs.iter().any(|r| r.lookup(t).is_some())
    }

    pub fn len(&self) -> usize {
        self.docs
    }

    pub fn is_empty(&self) -> bool {
        self.docs == 0
    }

    /// Documents with a positive score, best first (ties by document order).
    pub fn search(&self, query: &str) -> Vec<(usize, f64)> {
        let n = self.docs as f64;
        let mut scores = vec![0.0f64; self.docs];
        let mut seen: Vec<String> = Vec::new();
        let mut found: Vec<(&Store, Postings)> = Vec::new();
        for t in terms(query) {
            if seen.contains(&t) {
                continue;
            }
            found.clear();
            found.extend(
                self.runs
                    .iter()
                    .filter_map(|run| run.lookup(&t).map(|p| (run, p))),
            );
            seen.push(t);
            if found.is_empty() {
                continue;
            }
            let df = found
                .iter()
                .map(|(run, p)| p.iter(&run.nodes).count())
                .sum::<usize>() as f64;
            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
            for (run, post) in &found {
                for (d, f, _) in post.iter(&run.nodes) {
                    let f = f as f64;
                    let length = run.lengths[(d - run.first) as usize];
                    let norm = 1.0 - B + B * length as f64 / self.avg_len.max(1e-9);
                    scores[d as usize] += idf * f * (K1 + 1.0) / (f + K1 * norm);
                }
            }
        }
        let mut ranked: Vec<(usize, f64)> = scores
            .into_iter()
            .enumerate()
            .filter(|(_, s)| *s > 0.0)
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked
    }
}

/// Tokens of a text under `cl100k_base`.
pub fn count_tokens(text: &str) -> usize {
    tiktoken_rs::cl100k_base_singleton()
        .encode_ordinary(text)
        .len()
}

/// A selected span with its score and token count.
#[derive(Clone, Debug)]
pub struct Pick {
    pub span: usize,
    pub score: f64,
    pub tokens: usize,
}

/// The best spans for `query` whose token counts add up to at most `budget`, best
/// first; a span too large for what is left is skipped for a smaller one.
pub fn distill(ranked: &[(usize, f64)], spans: &[Span], budget: usize) -> Vec<Pick> {
    let mut used = 0;
    let mut out = Vec::new();
    for &(d, score) in ranked {
        let tokens = count_tokens(&spans[d].text);
        if used + tokens <= budget {
            used += tokens;
            out.push(Pick {
                span: d,
                score,
                tokens,
            });
        }
        if budget.saturating_sub(used) < 8 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bm25_prefers_rare_terms_and_short_documents() {
        let docs = [
            "hazard ratio for progression was 0.45 in the trametinib group",
            "the trametinib group and the chemotherapy group",
            "rash and diarrhea were common in the trametinib group and were managed with dose interruption, the most common toxic effects",
        ];
        let idx = Bm25::build(docs);
        let r = idx.search("hazard ratio trametinib");
        assert_eq!(r[0].0, 0);
        assert!(r.iter().all(|(_, s)| *s > 0.0));
        assert!(idx.search("nothing matches zzz").is_empty());
        // Same term frequency, shorter document scores higher.
        let r = idx.search("trametinib");
        assert_eq!(r[0].0, 1);
    }

    /// BM25 straight from its definition, over `terms`: what the index must rank.
    fn reference(docs: &[String], query: &str) -> Vec<(usize, f64)> {
        let toks: Vec<Vec<String>> = docs.iter().map(|d| terms(d)).collect();
        let avg = toks.iter().map(Vec::len).sum::<usize>() as f64 / toks.len().max(1) as f64;
        let n = docs.len() as f64;
        let mut scores = vec![0.0f64; docs.len()];
        let mut seen = Vec::new();
        for q in terms(query) {
            if seen.contains(&q) {
                continue;
            }
            seen.push(q.clone());
            let df = toks.iter().filter(|t| t.contains(&q)).count() as f64;
            if df == 0.0 {
                continue;
            }
            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
            for (d, t) in toks.iter().enumerate() {
                let f = t.iter().filter(|x| **x == q).count() as f64;
                if f > 0.0 {
                    let norm = 1.0 - B + B * t.len() as f64 / avg.max(1e-9);
                    scores[d] += idf * f * (K1 + 1.0) / (f + K1 * norm);
                }
            }
        }
        let mut ranked: Vec<(usize, f64)> = scores
            .into_iter()
            .enumerate()
            .filter(|(_, s)| *s > 0.0)
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked
    }

    proptest::proptest! {
        /// The index ranks as the definition does, to the bit, on mixed-case ASCII and
        /// on Unicode text (where letters such as É and Σ lower-case differently).
        #[test]
        fn the_index_ranks_as_the_definition(
            docs in proptest::collection::vec("[a-cA-C0-2 .,/-]{0,30}|[a-cÉéΣσßİµ² 1.-]{0,20}|[a-cAİµ≥ 1]{0,20}", 0..12),
            query in "[a-cA-CÉΣ0-2 ]{0,16}",
            runs in 1usize..5,
        ) {
            let idx = Bm25::build(docs.iter().map(String::as_str));
            proptest::prop_assert_eq!(idx.len(), docs.len());
            let want = reference(&docs, &query);
            proptest::prop_assert_eq!(idx.search(&query), want.clone());
            // the same documents cut into runs, each with its own tables
            let refs: Vec<&str> = docs.iter().map(String::as_str).collect();
            let split = Bm25::build_in_runs(&refs, runs);
            proptest::prop_assert!(split.runs.len() <= runs.min(docs.len().max(1)));
            proptest::prop_assert_eq!(split.len(), docs.len());
            proptest::prop_assert_eq!(split.search(&query), want);
        }
    }

    proptest::proptest! {
        /// The 64-byte mask reader finds the terms the character-by-character split
        /// finds, with its packed form, on texts long enough to cross chunks and with
        /// characters of 2, 3 and 4 bytes straddling a chunk's end.
        #[test]
        fn the_mask_reader_splits_as_the_definition(
            text in "([a-z0-9]{1,20}|[ .,/-]{1,3}|[éσßµ²≥中𝔸𝟘]{1,3}){0,120}",
        ) {
            let mut got = Vec::new();
            each_term(&text, |t, key| got.push((t.to_string(), key)));
            let want: Vec<(String, Key)> =
                terms_of(&text).map(|t| (t.to_string(), key_of(t))).collect();
            proptest::prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn a_term_seen_again_in_a_later_document_is_one_term() {
        let idx = Bm25::build(["Alpha beta ALPHA", "x", "alpha Beta"]);
        // 'x' is one character: no term. 'alpha' and 'beta' are entered once each.
        assert_eq!(idx.terms(), 2);
        assert_eq!(idx.lengths(), vec![3, 0, 2]);
        assert_eq!(idx.postings_of("alpha"), vec![(0, 2), (2, 1)]);
        assert_eq!(idx.postings_of("beta"), vec![(0, 1), (2, 1)]);
        assert!(!idx.has("Alpha"), "lookups take lower-cased terms");
    }

    #[test]
    fn an_index_on_a_dropped_ones_storage_holds_nothing_of_it() {
        let long = "pharmacokinetically ".repeat(3);
        let first = Bm25::build(["alpha beta gamma", "bioequivalence", long.as_str()]);
        assert_eq!(first.terms(), 5);
        drop(first);
        let idx = Bm25::build(["delta alpha"]);
        assert_eq!(idx.terms(), 2);
        assert_eq!(idx.lengths(), vec![2]);
        assert_eq!(idx.postings_of("alpha"), vec![(0, 1)]);
        assert!(!idx.has("beta") && !idx.has("bioequivalence"));
        assert!(!idx.has("pharmacokinetically"));
        assert_eq!(idx.search("gamma beta"), vec![]);
    }

    #[test]
    fn a_large_text_is_indexed_in_runs_that_rank_as_one_index() {
        let docs: Vec<String> = (0..1000)
            .map(|i| {
                format!(
                    "Patients in arm {} had a hazard ratio of 0.{} versus placebo; response rate {}% at week {}. {}",
                    i % 7,
                    i % 97,
                    i % 61,
                    i % 52,
                    "Adverse reactions were mild. ".repeat(i % 5)
                )
            })
            .collect();
        let refs: Vec<&str> = docs.iter().map(String::as_str).collect();
        assert!(refs.iter().map(|d| d.len()).sum::<usize>() > 2 * RUN_BYTES);
        // one run off the pool; runs on it
        assert_eq!(Bm25::build(refs.iter().copied()).runs.len(), 1);
        let idx = rayon::scope(|_| Bm25::build(refs.iter().copied()));
        assert!(idx.runs.len() >= 2);
        let firsts: Vec<u32> = idx.runs.iter().map(|r| r.first).collect();
        assert!(firsts[0] == 0 && firsts.is_sorted(), "{firsts:?}");
        let query = "hazard ratio response rate placebo week 12 arm";
        let want = reference(&docs, query);
        assert!(want.len() > 100);
        assert_eq!(idx.search(query), want);
        let lengths = idx.lengths();
        drop(idx);
        // runs cut elsewhere, on the storage the last index left
        let idx = Bm25::build_in_runs(&refs, 3);
        assert_eq!(idx.runs.len(), 3);
        assert_eq!(idx.lengths(), lengths);
        assert_eq!(idx.search(query), want);
        drop(idx);
        let idx = Bm25::build(["delta alpha"]);
        assert_eq!((idx.runs.len(), idx.terms()), (1, 2));
        assert_eq!(idx.postings_of("hazard"), vec![]);
    }

    #[test]
    fn tokens_are_bpe_not_words() {
        // cl100k_base splits these differently from whitespace.
        assert_eq!(count_tokens("hello world"), 2);
        assert!(count_tokens("pembrolizumab") > 1);
        assert_eq!(count_tokens(""), 0);
    }

    #[test]
    fn distill_respects_the_budget() {
        let spans: Vec<Span> = (0..20)
            .map(|i| Span {
                id: i.to_string(),
                source_id: "s".into(),
                url: "u".into(),
                locator: "/x".into(),
                start: 0,
                end: 1,
                text: format!("trametinib response rate {i} percent in cohort {i} with many extra words to pad"),
            })
            .collect();
        let idx = Bm25::build(spans.iter().map(|s| s.text.as_str()));
        let picks = distill(&idx.search("trametinib response"), &spans, 50);
        let used: usize = picks.iter().map(|p| p.tokens).sum();
        assert!(used <= 50 && !picks.is_empty());
        assert!(picks.len() < spans.len());
    }
}
