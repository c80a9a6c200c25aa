//! HTML leaves for saved press pages: the text of each block element (title, headings,
//! paragraphs, list items, table cells, quotes) with its whitespace collapsed as a
//! browser shows it, and an element path as locator. Scripts and styles are never text.

use scraper::{ElementRef, Html, Selector};

use crate::domain::TextField;

const BLOCKS: &str =
    "title, h1, h2, h3, h4, h5, h6, p, li, td, th, dt, dd, blockquote, pre, figcaption, caption";

/// The page title (if any) and its block texts.
pub fn leaves(source: &str) -> (Option<String>, Vec<TextField>) {
    let doc = Html::parse_document(source);
    let blocks = Selector::parse(BLOCKS).expect("static selector is valid");
    let mut title = None;
    let mut out = Vec::new();
    for el in doc.select(&blocks) {
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
    let mut words = Vec::new();
    for node in el.descendants() {
        let Some(t) = node.value().as_text() else {
            continue;
        };
        let hidden = node.ancestors().any(|a| {
            a.value()
                .as_element()
                .is_some_and(|e| matches!(e.name(), "script" | "style" | "noscript" | "template"))
        });
        if !hidden {
            words.extend(t.split_whitespace().map(str::to_string));
        }
    }
    words.join(" ")
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
        parts.push(format!("{name}[{pos}]"));
        cur = e.parent().and_then(ElementRef::wrap);
    }
    parts.reverse();
    format!("html:/{}", parts.join("/"))
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
}
