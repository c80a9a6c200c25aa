//! Evidence spans: passages of the text-like fields of a bundle (label sections,
//! abstracts, descriptions, press paragraphs), each an exact byte range of one field.
//! A span never crosses a paragraph break (`\n\n`) or a field, is longer than 60 bytes
//! and holds about [`MAX_WORDS`] words, cut at a sentence end where one is near.
//! Span id = sha256 of (source id, locator, start, end, text). Pure.

use crate::domain::sha256_hex;

/// Target passage length in words; a passage is cut at the first sentence end after
/// this many words, or at 1.5 times this many words.
pub const MAX_WORDS: usize = 120;
/// Passages of this many bytes or fewer are dropped (numbers, codes, names).
pub const MIN_BYTES: usize = 60;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub id: String,
    pub source_id: String,
    pub url: String,
    pub locator: String,
    /// Byte offsets of the passage inside its field's text.
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// Splits one field's text into passages (byte ranges).
pub fn passages(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut para_start = 0;
    for para in text.split("\n\n") {
        chunk(text, para_start, para, &mut out);
        para_start += para.len() + 2;
    }
    out
}

fn chunk(full: &str, base: usize, para: &str, out: &mut Vec<(usize, usize)>) {
    let mut start: Option<usize> = None;
    let mut words = 0;
    let mut last_end = 0;
    let push = |s: usize, e: usize, out: &mut Vec<(usize, usize)>| {
        let slice = &full[base + s..base + e];
        if slice.len() > MIN_BYTES {
            out.push((base + s, base + e));
        }
    };
    for (i, w) in word_spans(para) {
        let s = *start.get_or_insert(i);
        words += 1;
        last_end = i + w.len();
        let sentence_end = w.ends_with(['.', '?', '!', ';']);
        if (words >= MAX_WORDS && sentence_end) || words >= MAX_WORDS * 3 / 2 {
            push(s, last_end, out);
            start = None;
            words = 0;
        }
    }
    if let Some(s) = start {
        push(s, last_end, out);
    }
}

/// Whitespace-separated words of `s` with their byte offsets.
fn word_spans(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - s.as_ptr() as usize, w))
}

/// The id of a span: sha256 over its source, locator, offsets and text.
pub fn span_id(source_id: &str, locator: &str, start: usize, end: usize, text: &str) -> String {
    sha256_hex(format!("{source_id}\0{locator}\0{start}\0{end}\0{text}").as_bytes())
}

/// Whether a field is prose worth splitting (not a number, code or short label).
pub fn is_text_like(kind: &str, text: &str) -> bool {
    matches!(kind, "string" | "element" | "passage")
        && text.len() > MIN_BYTES
        && text.split_whitespace().nth(7).is_some()
}

/// Spans of one record's fields.
pub fn spans_of(source_id: &str, url: &str, fields: &[(String, String, String)]) -> Vec<Span> {
    let mut out = Vec::new();
    for (locator, kind, text) in fields {
        if !is_text_like(kind, text) {
            continue;
        }
        for (start, end) in passages(text) {
            let t = &text[start..end];
            out.push(Span {
                id: span_id(source_id, locator, start, end, t),
                source_id: source_id.to_string(),
                url: url.to_string(),
                locator: locator.clone(),
                start,
                end,
                text: t.to_string(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn passages_split_at_paragraphs_and_drop_short_ones() {
        let text = format!(
            "Short.\n\n{}\n\nTail paragraph that is long enough to keep as a passage of its own here.",
            "word ".repeat(200)
        );
        let p = passages(&text);
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(p.iter().all(|(s, e)| !text[*s..*e].contains("\n\n")));
        assert!(text[p[2].0..p[2].1].starts_with("Tail"));
    }

    proptest! {
        /// Every passage is an exact, in-bounds slice of its field, longer than the minimum.
        #[test]
        fn passages_are_exact_slices(text in "[a-z .\\n≥×]{0,600}") {
            for (s, e) in passages(&text) {
                prop_assert!(s < e && e <= text.len());
                prop_assert!(text.is_char_boundary(s) && text.is_char_boundary(e));
                prop_assert!(text[s..e].len() > MIN_BYTES);
                prop_assert!(!text[s..e].contains("\n\n"));
            }
        }
    }
}
