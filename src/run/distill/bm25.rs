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
        for c in text.chars() {
            if c.is_ascii() {
                buf.push(c.to_ascii_lowercase());
            } else {
                buf.extend(c.to_lowercase());
            }
        }
    }
}

/// Calls `each` with the terms of a lower-cased text in order: what [`terms_of`] gives,
/// read byte by byte, with a character decoded only where a byte is not ASCII.
fn each_term(lower: &str, mut each: impl FnMut(&str)) {
    let bytes = lower.as_bytes();
    let (mut i, mut start, mut chars) = (0, 0, 0);
    while i < bytes.len() {
        let b = bytes[i];
        let (alnum, width) = if b.is_ascii() {
            (b.is_ascii_alphanumeric(), 1)
        } else {
            let c = lower[i..].chars().next().expect("i is a char boundary");
            (c.is_alphanumeric(), c.len_utf8())
        };
        if alnum {
            if chars == 0 {
                start = i;
            }
            chars += 1;
        } else {
            if chars >= 2 {
                each(&lower[start..i]);
            }
            chars = 0;
        }
        i += width;
    }
    if chars >= 2 {
        each(&lower[start..]);
    }
}

/// An inverted index over documents (span texts). Each distinct term is stored once in
/// one string and numbered, and the postings of every term sit in one array: building it
/// allocates nothing per term or per occurrence.
#[derive(Debug, Default)]
pub struct Bm25 {
    lengths: Vec<u32>,
    avg_len: f64,
    /// Every distinct term, end to end; `spans[id]` is term `id`'s byte range in it.
    arena: String,
    spans: Vec<(u32, u32)>,
    /// (hash, term number), found by the hash of the term's text.
    table: HashTable<(u64, u32)>,
    /// Term `id`'s postings are `postings[offsets[id]..offsets[id + 1]]`: (document,
    /// term frequency), documents in ascending order.
    offsets: Vec<u32>,
    postings: Vec<(u32, u32)>,
}

fn hash_of(t: &str) -> u64 {
    foldhash::fast::FixedState::default().hash_one(t)
}

fn term_at<'a>(arena: &'a str, spans: &[(u32, u32)], id: u32) -> &'a str {
    let (start, end) = spans[id as usize];
    &arena[start as usize..end as usize]
}

impl Bm25 {
    pub fn build<'a>(docs: impl IntoIterator<Item = &'a str>) -> Bm25 {
        let mut index = Bm25 {
            table: HashTable::with_capacity(1024),
            ..Bm25::default()
        };
        let mut buf = String::new();
        // Every document's term numbers, end to end; `ends[d]` closes document d.
        let (mut ids, mut ends) = (Vec::new(), Vec::new());
        for text in docs {
            lower_into(text, &mut buf);
            each_term(&buf, |t| ids.push(index.intern(t)));
            ends.push(ids.len());
        }
        let doc_terms = |d: usize| &ids[if d == 0 { 0 } else { ends[d - 1] }..ends[d]];
        index.lengths = (0..ends.len()).map(|d| doc_terms(d).len() as u32).collect();
        // Two passes: how many documents hold each term, then the postings in place.
        let terms = index.spans.len();
        let mut last = vec![u32::MAX; terms];
        let mut df = vec![0u32; terms];
        for d in 0..ends.len() {
            for &t in doc_terms(d) {
                if last[t as usize] != d as u32 {
                    last[t as usize] = d as u32;
                    df[t as usize] += 1;
                }
            }
        }
        let mut offsets = Vec::with_capacity(terms + 1);
        offsets.push(0u32);
        for f in &df {
            offsets.push(offsets.last().expect("pushed") + f);
        }
        let mut postings = vec![(0u32, 0u32); *offsets.last().expect("pushed") as usize];
        let mut fill: Vec<u32> = offsets[..terms].to_vec();
        last.fill(u32::MAX);
        for d in 0..ends.len() {
            for &t in doc_terms(d) {
                let t = t as usize;
                if last[t] != d as u32 {
                    last[t] = d as u32;
                    postings[fill[t] as usize] = (d as u32, 1);
                    fill[t] += 1;
                } else {
                    postings[fill[t] as usize - 1].1 += 1;
                }
            }
        }
        index.offsets = offsets;
        index.postings = postings;
        let total: u64 = index.lengths.iter().map(|l| *l as u64).sum();
        index.avg_len = if index.lengths.is_empty() {
            0.0
        } else {
            total as f64 / index.lengths.len() as f64
        };
        index
    }

    /// The postings of term `id`.
    fn postings_of(&self, id: u32) -> &[(u32, u32)] {
        let (a, b) = (self.offsets[id as usize], self.offsets[id as usize + 1]);
        &self.postings[a as usize..b as usize]
    }

    /// The number of a term, if the index has it.
    fn lookup(&self, t: &str) -> Option<u32> {
        self.find(hash_of(t), t)
    }

    fn find(&self, hash: u64, t: &str) -> Option<u32> {
        let (arena, spans) = (&self.arena, &self.spans);
        self.table
            .find(hash, |&(h, id)| h == hash && term_at(arena, spans, id) == t)
            .map(|&(_, id)| id)
    }

    /// The number of a term, numbering it when it is new.
    fn intern(&mut self, t: &str) -> u32 {
        let hash = hash_of(t);
        if let Some(id) = self.find(hash, t) {
            return id;
        }
        let id = self.spans.len() as u32;
        let start = self.arena.len() as u32;
        self.arena.push_str(t);
        self.spans.push((start, self.arena.len() as u32));
        self.table.insert_unique(hash, (hash, id), |&(h, _)| h);
        id
    }

    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// Documents with a positive score, best first (ties by document order).
    pub fn search(&self, query: &str) -> Vec<(usize, f64)> {
        let n = self.lengths.len() as f64;
        let mut scores = vec![0.0f64; self.lengths.len()];
        let mut seen: Vec<String> = Vec::new();
        for t in terms(query) {
            if seen.contains(&t) {
                continue;
            }
            let id = self.lookup(&t);
            seen.push(t);
            let Some(id) = id else {
                continue;
            };
            let post = self.postings_of(id);
            let df = post.len() as f64;
            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
            for &(d, f) in post {
                let f = f as f64;
                let norm = 1.0 - B + B * self.lengths[d as usize] as f64 / self.avg_len.max(1e-9);
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

    #[test]
    fn a_term_seen_again_in_a_later_document_is_one_term() {
        let idx = Bm25::build(["Alpha beta ALPHA", "x", "alpha Beta"]);
        // 'x' is one character: no term. 'alpha' and 'beta' are numbered once each.
        assert_eq!(idx.spans.len(), 2);
        assert_eq!(idx.lengths, vec![3, 0, 2]);
        let alpha = idx.lookup("alpha").unwrap();
        assert_eq!(idx.postings_of(alpha), &[(0, 2), (2, 1)][..]);
        assert_eq!(idx.lookup("Alpha"), None, "lookups take lower-cased terms");
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
