//! Okapi BM25 over a bundle's spans, and distillation: the best spans for a query that
//! fit a token budget, with tokens counted by a real BPE tokenizer (tiktoken's
//! `cl100k_base`, from the `tiktoken-rs` crate). Pure.
//!
//! Terms: lower-cased runs of letters and digits of at least 2 characters (numbers and
//! short acronyms matter in this domain). idf = ln((N - df + 0.5) / (df + 0.5) + 1).

use std::hash::BuildHasher;

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
/// lay out after the last document.
#[derive(Debug)]
pub struct Bm25 {
    avg_len: f64,
    store: Store,
}

/// An index's storage.
#[derive(Debug, Default)]
struct Store {
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
    /// Empties the storage, keeping its memory, for a build over `bytes` of text.
    fn reset(&mut self, bytes: usize) {
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
}

thread_local! {
    /// A build's lower-cased text, kept for the next build.
    static LOWER: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
    /// The storage of the last index dropped on this thread, emptied by the next build:
    /// `distill` builds and drops one index per asset, and fresh storage was mapped,
    /// faulted in page by page and unmapped again for each.
    static SPARE: std::cell::Cell<Option<Store>> = const { std::cell::Cell::new(None) };
}

impl Drop for Bm25 {
    fn drop(&mut self) {
        SPARE.set(Some(std::mem::take(&mut self.store)));
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
    pub fn build<'a, I>(docs: I) -> Bm25
    where
        I: IntoIterator<Item = &'a str>,
        I::IntoIter: Clone,
    {
        let docs = docs.into_iter();
        let bytes: usize = docs.clone().map(str::len).sum();
        let mut store = SPARE.take().unwrap_or_default();
        store.reset(bytes);
        let mut index = Bm25 {
            avg_len: 0.0,
            store,
        };
        let mut buf = LOWER.take();
        for (d, text) in docs.enumerate() {
            lower_into(text, &mut buf);
            let mut length = 0u32;
            each_term(&buf, |t, key| {
                length += 1;
                index.add(t, key, d as u32);
            });
            index.store.lengths.push(length);
        }
        LOWER.set(buf);
        let lengths = &index.store.lengths;
        let total: u64 = lengths.iter().map(|l| *l as u64).sum();
        index.avg_len = if lengths.is_empty() {
            0.0
        } else {
            total as f64 / lengths.len() as f64
        };
        index
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
        } = &mut self.store;
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

    /// The postings of a term, if the index has it.
    fn lookup(&self, t: &str) -> Option<Postings> {
        match key_of(t) {
            Key::Short(key) => self
                .store
                .short
                .find(hash_packed(key), |e| e.0 == key)
                .map(|e| e.1),
            Key::Medium(low, high) => self
                .store
                .medium
                .find(hash_medium((low, high)), |e| e.0 == (low, high))
                .map(|e| e.1),
            Key::Long => {
                let hash = hash_of(t);
                self.store
                    .table
                    .find(hash, |e| {
                        e.0 == hash && &self.store.arena[e.1.0 as usize..e.1.1 as usize] == t
                    })
                    .map(|e| e.2)
            }
        }
    }

    /// (document, term frequency) of each document that holds term `t`, in ascending
    /// order of document.
    #[cfg(test)]
    fn postings_of(&self, t: &str) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = self
            .lookup(t)
            .iter()
            .flat_map(|p| p.iter(&self.store.nodes).map(|(d, f, _)| (d, f)))
            .collect();
        out.reverse();
        out
    }

    /// How many distinct terms the index holds.
    #[cfg(test)]
    fn terms(&self) -> usize {
        self.store.short.len() + self.store.medium.len() + self.store.table.len()
    }

    pub fn len(&self) -> usize {
        self.store.lengths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.store.lengths.is_empty()
    }

    /// Documents with a positive score, best first (ties by document order).
    pub fn search(&self, query: &str) -> Vec<(usize, f64)> {
        let n = self.store.lengths.len() as f64;
        let mut scores = vec![0.0f64; self.store.lengths.len()];
        let mut seen: Vec<String> = Vec::new();
        for t in terms(query) {
            if seen.contains(&t) {
                continue;
            }
            let post = self.lookup(&t);
            seen.push(t);
            let Some(post) = post else {
                continue;
            };
            let df = post.iter(&self.store.nodes).count() as f64;
            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
            for (d, f, _) in post.iter(&self.store.nodes) {
                let f = f as f64;
                let norm =
                    1.0 - B + B * self.store.lengths[d as usize] as f64 / self.avg_len.max(1e-9);
                scores[d as usize] += idf * f * (K1 + 1.0) / (f + K1 * norm);
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
        ) {
            let idx = Bm25::build(docs.iter().map(String::as_str));
            proptest::prop_assert_eq!(idx.len(), docs.len());
            proptest::prop_assert_eq!(idx.search(&query), reference(&docs, &query));
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
        assert_eq!(idx.store.lengths, vec![3, 0, 2]);
        assert_eq!(idx.postings_of("alpha"), vec![(0, 2), (2, 1)]);
        assert_eq!(idx.postings_of("beta"), vec![(0, 1), (2, 1)]);
        assert!(
            idx.lookup("Alpha").is_none(),
            "lookups take lower-cased terms"
        );
    }

    #[test]
    fn an_index_on_a_dropped_ones_storage_holds_nothing_of_it() {
        let long = "pharmacokinetically ".repeat(3);
        let first = Bm25::build(["alpha beta gamma", "bioequivalence", long.as_str()]);
        assert_eq!(first.terms(), 5);
        drop(first);
        let idx = Bm25::build(["delta alpha"]);
        assert_eq!(idx.terms(), 2);
        assert_eq!(idx.store.lengths, vec![2]);
        assert_eq!(idx.postings_of("alpha"), vec![(0, 1)]);
        assert!(idx.lookup("beta").is_none() && idx.lookup("bioequivalence").is_none());
        assert!(idx.lookup("pharmacokinetically").is_none());
        assert_eq!(idx.search("gamma beta"), vec![]);
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
