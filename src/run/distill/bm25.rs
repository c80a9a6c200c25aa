//! Okapi BM25 over a bundle's spans, and distillation: the best spans for a query that
//! fit a token budget, with tokens counted by a real BPE tokenizer (tiktoken's
//! `cl100k_base`, from the `tiktoken-rs` crate). Pure.
//!
//! Terms: lower-cased runs of letters and digits of at least 2 characters (numbers and
//! short acronyms matter in this domain). idf = ln((N - df + 0.5) / (df + 0.5) + 1).

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use crate::run::distill::spans::Span;

pub const K1: f64 = 1.2;
pub const B: f64 = 0.75;

/// Terms of an already lower-cased text.
fn terms_of(lower: &str) -> impl Iterator<Item = &str> {
    lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| t.chars().nth(1).is_some())
}

/// Lower-cases a text, borrowing it when it has nothing to change.
fn lower(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        if text.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(text.to_ascii_lowercase())
        } else {
            Cow::Borrowed(text)
        }
    } else {
        Cow::Owned(text.to_lowercase())
    }
}

/// Terms of a text, lower-cased.
pub fn terms(text: &str) -> Vec<String> {
    terms_of(&text.to_lowercase()).map(str::to_string).collect()
}

/// An inverted index over documents (span texts).
#[derive(Debug, Default)]
pub struct Bm25 {
    lengths: Vec<u32>,
    avg_len: f64,
    postings: FxHashMap<String, Vec<(u32, u32)>>,
}

impl Bm25 {
    pub fn build<'a>(docs: impl IntoIterator<Item = &'a str>) -> Bm25 {
        let lowered: Vec<Cow<'a, str>> = docs.into_iter().map(lower).collect();
        let mut postings: FxHashMap<&str, Vec<(u32, u32)>> = FxHashMap::default();
        let mut tf: FxHashMap<&str, u32> = FxHashMap::default();
        let mut lengths = Vec::with_capacity(lowered.len());
        for (d, text) in lowered.iter().enumerate() {
            let mut n = 0u32;
            for t in terms_of(text) {
                *tf.entry(t).or_insert(0) += 1;
                n += 1;
            }
            lengths.push(n);
            for (t, f) in tf.drain() {
                postings.entry(t).or_default().push((d as u32, f));
            }
        }
        let total: u64 = lengths.iter().map(|l| *l as u64).sum();
        let avg_len = if lengths.is_empty() {
            0.0
        } else {
            total as f64 / lengths.len() as f64
        };
        Bm25 {
            postings: postings
                .into_iter()
                .map(|(t, p)| (t.to_string(), p))
                .collect(),
            lengths,
            avg_len,
        }
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
            let Some(post) = self.postings.get(&t) else {
                seen.push(t);
                continue;
            };
            seen.push(t);
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
