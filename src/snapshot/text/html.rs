//! HTML leaves for saved press pages: the text of each block element (title, headings,
//! paragraphs, list items, table cells, quotes) with its whitespace collapsed as a
//! browser shows it, and an element path as locator. Scripts and styles are never text.

use std::fmt::Write as _;
use std::sync::LazyLock;

use scraper::{ElementRef, Html, Selector};

use crate::domain::TextField;

const BLOCKS: &str =
    "title, h1, h2, h3, h4, h5, h6, p, li, td, th, dt, dd, blockquote, pre, figcaption, caption";

/// [`BLOCKS`] parsed once, not once per page.
static BLOCK_SELECTOR: LazyLock<Selector> =
    LazyLock::new(|| Selector::parse(BLOCKS).expect("static selector is valid"));

/// How deep elements may nest, as in browsers (Blink builds no deeper than 512). The
/// tree builder scans the stack of open elements for many start tags, so a page of
/// 150,000 unclosed `<div>`s would take time quadratic in its size.
pub const MAX_DEPTH: usize = 512;

/// The page title (if any) and its block texts.
pub fn leaves(source: &str) -> (Option<String>, Vec<TextField>) {
    let capped = cap_depth(source, MAX_DEPTH);
    let doc = Html::parse_document(capped.as_deref().unwrap_or(source));
    let mut title = None;
    let mut out = Vec::new();
    for el in doc.select(&BLOCK_SELECTOR) {
        let text = visible_text(el);
        if text.is_empty() {
            continue;
        }
        if title.is_none() && (el.value().name() == "title" || el.value().name() == "h1") {
            title = Some(text.clone());
        }
        out.push(TextField {
            locator: element_path(el),
            kind: "element",
            text,
        });
    }
    (title, out)
}

fn visible_text(el: ElementRef<'_>) -> String {
    use ego_tree::iter::Edge;
    let mut words = String::new();
    // one walk of the block's subtree; text under a script, style, noscript or template
    // is skipped by counting how many such elements are open
    let mut hidden = 0usize;
    for edge in el.traverse() {
        match edge {
            Edge::Open(node) => match node.value() {
                scraper::Node::Element(e) if is_hidden(e.name()) => hidden += 1,
                scraper::Node::Text(t) if hidden == 0 => {
                    for word in t.split_whitespace() {
                        if !words.is_empty() {
                            words.push(' ');
                        }
                        words.push_str(word);
                    }
                }
                _ => {}
            },
            Edge::Close(node) => {
                if let scraper::Node::Element(e) = node.value()
                    && is_hidden(e.name())
                {
                    hidden -= 1;
                }
            }
        }
    }
    words
}

fn is_hidden(name: &str) -> bool {
    matches!(name, "script" | "style" | "noscript" | "template")
}

/// Elements that never have content, so their start tag opens nothing.
fn is_void(name: &[u8]) -> bool {
    const VOID: &[&[u8]] = &[
        b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta",
        b"param", b"source", b"track", b"wbr",
    ];
    VOID.iter().any(|v| v.eq_ignore_ascii_case(name))
}

/// Elements whose content is raw text up to their own end tag.
fn is_raw_text(name: &[u8]) -> bool {
    const RAW: &[&[u8]] = &[
        b"script",
        b"style",
        b"textarea",
        b"title",
        b"xmp",
        b"iframe",
        b"noembed",
        b"noframes",
        b"plaintext",
    ];
    RAW.iter().any(|v| v.eq_ignore_ascii_case(name))
}

/// Elements a new start tag of the same name closes by itself (`<li>` after `<li>`).
fn closes_itself(name: &[u8]) -> bool {
    const SELF: &[&[u8]] = &[
        b"p", b"li", b"dt", b"dd", b"tr", b"td", b"th", b"option", b"rt", b"rp",
    ];
    SELF.iter().any(|v| v.eq_ignore_ascii_case(name))
}

/// `None` when the page nests no deeper than `max` (as good as every real page: it is
/// then parsed exactly as written). Otherwise the text to parse instead: before a start
/// tag that would open an element deeper than `max`, an end tag for the deepest open
/// element is inserted, so the new element becomes its sibling (browsers flatten the
/// same way) and the tree builder never holds more than `max` open elements. One linear
/// scan: comments, declarations, quoted attribute values and raw-text elements are
/// stepped over; an end tag closes up to the open element of its name.
fn cap_depth(source: &str, max: usize) -> Option<String> {
    let b = source.as_bytes();
    let find = |from: usize, pat: &[u8]| -> usize {
        memchr::memmem::find(&b[from.min(b.len())..], pat).map_or(b.len(), |i| from + i)
    };
    let tag_name = |from: usize| -> usize {
        b[from..]
            .iter()
            .position(|c| c.is_ascii_whitespace() || matches!(c, b'/' | b'>'))
            .map_or(b.len(), |p| from + p)
    };
    let mut open: Vec<&[u8]> = Vec::new();
    let mut inserts: Vec<(usize, &[u8])> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let Some(off) = memchr::memchr(b'<', &b[i..]) else {
            break;
        };
        let lt = i + off;
        let rest = &b[lt + 1..];
        if rest.starts_with(b"!--") {
            i = find(lt + 4, b"-->") + 3;
        } else if rest.first().is_some_and(|c| matches!(c, b'!' | b'?')) {
            i = find(lt + 1, b">") + 1;
        } else if rest.first() == Some(&b'/') {
            let name = &b[lt + 2..tag_name(lt + 2)];
            if let Some(at) = open.iter().rposition(|n| n.eq_ignore_ascii_case(name)) {
                open.truncate(at);
            }
            i = find(lt + 1, b">") + 1;
        } else if rest.first().is_some_and(u8::is_ascii_alphabetic) {
            let name_end = tag_name(lt + 1);
            let name = &b[lt + 1..name_end];
            // the tag ends at the first `>` outside a quoted attribute value
            let (mut j, mut quote) = (name_end, None);
            while j < b.len() {
                match (quote, b[j]) {
                    (None, b'"' | b'\'') => quote = Some(b[j]),
                    (Some(q), c) if c == q => quote = None,
                    (None, b'>') => break,
                    _ => {}
                }
                j += 1;
            }
            let end = (j + 1).min(b.len());
            let self_closing = b[j.min(b.len() - 1)] == b'>' && b[j - 1] == b'/';
            if !is_void(name) && !self_closing {
                if closes_itself(name) && open.last().is_some_and(|t| t.eq_ignore_ascii_case(name))
                {
                    open.pop();
                }
                if open.len() >= max {
                    let top = open.pop().expect("max is at least 1");
                    inserts.push((lt, top));
                }
                open.push(name);
            }
            i = end;
            if is_raw_text(name) && !self_closing {
                // step over the raw text to the element's own end tag
                let mut k = end;
                loop {
                    k = find(k, b"</");
                    if k >= b.len()
                        || b[k + 2..]
                            .get(..name.len())
                            .is_some_and(|n| n.eq_ignore_ascii_case(name))
                    {
                        break;
                    }
                    k += 2;
                }
                i = k;
            }
        } else {
            i = lt + 1;
        }
    }
    if inserts.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() + inserts.len() * 8);
    let mut from = 0;
    for (at, name) in inserts {
        out.extend_from_slice(&b[from..at]);
        out.extend_from_slice(b"</");
        out.extend_from_slice(name);
        out.push(b'>');
        from = at;
    }
    out.extend_from_slice(&b[from..]);
    // whole ASCII tags were inserted between whole tags, so this is still UTF-8
    Some(String::from_utf8(out).expect("inserting tags keeps UTF-8"))
}

fn element_path(el: ElementRef<'_>) -> String {
    let mut parts = Vec::new();
    let mut cur = Some(el);
    while let Some(e) = cur {
        let name = e.value().name();
        let pos = 1 + e
            .prev_siblings()
            .filter_map(ElementRef::wrap)
            .filter(|s| s.value().name() == name)
            .count();
        parts.push((name, pos));
        cur = e.parent().and_then(ElementRef::wrap);
    }
    let mut out = String::from("html:");
    for (name, pos) in parts.iter().rev() {
        let _ = write!(out, "/{name}[{pos}]");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_with_collapsed_whitespace_and_no_scripts() {
        let page = "<html><head><title>Acme  news</title><script>alert(1)</script></head>\
            <body><p>Phase 3 met\n   its <b>primary</b> endpoint.</p><p><script>x()</script>ORR 42%</p></body></html>";
        let (title, f) = leaves(page);
        assert_eq!(title.as_deref(), Some("Acme news"));
        let texts: Vec<&str> = f.iter().map(|x| x.text.as_str()).collect();
        assert_eq!(
            texts,
            vec!["Acme news", "Phase 3 met its primary endpoint.", "ORR 42%"]
        );
        assert_eq!(f[2].locator, "html:/html[1]/body[1]/p[2]");
    }

    #[test]
    fn pages_within_the_depth_limit_are_parsed_as_written() {
        let page = "<!-- <div><div> --><div title='a>b'><p>x</p><br><img src=y/><script>if (a<b) {}</script>\
            <div><span>y</span></div></div>";
        assert_eq!(cap_depth(page, 3), None);
        // a thousand list items without end tags nest nothing
        let list = format!("<ul>{}</ul>", "<li>item".repeat(1000));
        assert_eq!(cap_depth(&list, 100), None);
        let deep = format!("<p>top</p>{}<p>bottom 42</p>", "<div>".repeat(2000));
        let capped = cap_depth(&deep, 100).expect("over the limit");
        assert_eq!(capped.matches("</div>").count(), 1901);
        let (_, f) = leaves(&deep);
        let texts: Vec<&str> = f.iter().map(|x| x.text.as_str()).collect();
        assert_eq!(texts, vec!["top", "bottom 42"]);
    }
}
