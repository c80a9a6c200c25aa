//! XML leaves: the string value of every element that holds text of its own (so a
//! PubMed `AbstractText` with inline `<i>` markup is one field), and every attribute.
//! Locators are XPath-like with 1-based sibling positions: `/a[1]/b[2]/@c`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;

use quick_xml::Reader;
use quick_xml::events::{BytesRef, Event};

use super::TextError;
use crate::domain::TextField;

/// One text leaf with both its exact locator and its position-free path
/// (`/clinical_study/intervention/intervention_name`), which parsers match on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XmlLeaf {
    pub locator: String,
    pub path: String,
    pub attribute: bool,
    pub text: String,
}

impl XmlLeaf {
    pub fn into_field(self) -> TextField {
        TextField {
            locator: self.locator,
            kind: if self.attribute {
                "attribute"
            } else {
                "element"
            },
            text: self.text,
        }
    }
}

struct Frame {
    locator_len: usize,
    path_len: usize,
    text_start: usize,
    direct: bool,
    children: HashMap<String, usize>,
}

fn xml_err(reader: &Reader<&[u8]>, e: impl std::fmt::Display) -> TextError {
    TextError::Xml {
        position: reader.error_position(),
        message: crate::domain::one_line(&e.to_string()),
    }
}

/// Every text leaf of a well-formed document, in document order.
pub fn leaves(bytes: &[u8]) -> Result<Vec<XmlLeaf>, TextError> {
    let mut reader = Reader::from_reader(bytes);
    reader.config_mut().check_end_names = true;
    let mut out = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut root_children: HashMap<String, usize> = HashMap::new();
    let (mut locator, mut path, mut text) = (String::new(), String::new(), String::new());
    let mut saw_root = false;
    loop {
        let event = reader.read_event().map_err(|e| xml_err(&reader, e))?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                if stack.is_empty() && saw_root {
                    return Err(xml_err(&reader, "more than one root element"));
                }
                saw_root = true;
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                let counts = match stack.last_mut() {
                    Some(f) => &mut f.children,
                    None => &mut root_children,
                };
                let n = counts.entry(name.clone()).or_insert(0);
                *n += 1;
                let frame = Frame {
                    locator_len: locator.len(),
                    path_len: path.len(),
                    text_start: text.len(),
                    direct: false,
                    children: HashMap::new(),
                };
                let _ = write!(locator, "/{name}[{n}]");
                path.push('/');
                path.push_str(&name);
                for attr in e.attributes() {
                    let attr = attr.map_err(|err| xml_err(&reader, err))?;
                    let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
                    let value = attr
                        .decode_and_unescape_value(reader.decoder())
                        .map_err(|err| xml_err(&reader, err))?;
                    if !value.is_empty() {
                        out.push(XmlLeaf {
                            locator: format!("{locator}/@{key}"),
                            path: format!("{path}/@{key}"),
                            attribute: true,
                            text: value.into_owned(),
                        });
                    }
                }
                if matches!(event, Event::Empty(_)) {
                    locator.truncate(frame.locator_len);
                    path.truncate(frame.path_len);
                } else {
                    stack.push(frame);
                }
            }
            Event::End(_) => {
                let frame = stack
                    .pop()
                    .ok_or_else(|| xml_err(&reader, "unexpected end tag"))?;
                if frame.direct {
                    out.push(XmlLeaf {
                        locator: locator.clone(),
                        path: path.clone(),
                        attribute: false,
                        text: text[frame.text_start..].to_string(),
                    });
                }
                locator.truncate(frame.locator_len);
                path.truncate(frame.path_len);
                if stack.is_empty() {
                    text.clear();
                }
            }
            Event::Text(t) => {
                let s = t.decode().map_err(|e| xml_err(&reader, e))?;
                push_text(&mut stack, &mut text, &s);
            }
            Event::CData(c) => {
                let s = c.decode().map_err(|e| xml_err(&reader, e))?;
                push_text(&mut stack, &mut text, &s);
            }
            Event::GeneralRef(r) => {
                let s = resolve_ref(&r).map_err(|e| xml_err(&reader, e))?;
                push_text(&mut stack, &mut text, &s);
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::DocType(_) | Event::Comment(_) => {}
        }
    }
    if !stack.is_empty() {
        return Err(xml_err(&reader, "document ends inside an element"));
    }
    if !saw_root {
        return Err(xml_err(&reader, "no root element"));
    }
    Ok(out)
}

fn push_text(stack: &mut [Frame], text: &mut String, s: &str) {
    let Some(top) = stack.last_mut() else {
        return; // whitespace between prolog items
    };
    if !s.trim().is_empty() {
        top.direct = true;
    }
    text.push_str(s);
}

fn resolve_ref(r: &BytesRef<'_>) -> Result<String, quick_xml::Error> {
    if let Some(c) = r.resolve_char_ref()? {
        return Ok(c.to_string());
    }
    let name = r.decode()?;
    match quick_xml::escape::resolve_predefined_entity(&name) {
        Some(s) => Ok(s.to_string()),
        // Keep an entity we cannot resolve as written rather than lose the text.
        None => Ok(format!("&{name};")),
    }
}

/// Byte ranges of the children of the root element named `name` (e.g. each
/// `PubmedArticle` of a `PubmedArticleSet`), so each can be its own record.
pub fn child_spans(bytes: &[u8], name: &str) -> Result<Vec<Range<usize>>, TextError> {
    let mut reader = Reader::from_reader(bytes);
    let mut depth = 0usize;
    let mut spans = Vec::new();
    let mut start = None;
    loop {
        let before = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| xml_err(&reader, e))?;
        match event {
            Event::Start(e) => {
                depth += 1;
                if depth == 2 && e.name().as_ref() == name.as_bytes() {
                    start = Some(before);
                }
            }
            Event::Empty(e) if depth == 1 && e.name().as_ref() == name.as_bytes() => {
                spans.push(before..reader.buffer_position() as usize);
            }
            Event::End(_) => {
                if depth == 2
                    && let Some(s) = start.take()
                {
                    spans.push(s..reader.buffer_position() as usize);
                }
                depth = depth.saturating_sub(1);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixed_content_entities_and_attributes() {
        let xml = br#"<?xml version="1.0"?>
<set><a n="1 &amp; 2"><t>BRAF <i>V600E</i> &lt; 5&#215;</t><t>second</t></a><a/></set>"#;
        let got = leaves(xml).unwrap();
        let pairs: Vec<(&str, &str)> = got
            .iter()
            .map(|l| (l.locator.as_str(), l.text.as_str()))
            .collect();
        assert_eq!(
            pairs,
            vec![
                ("/set[1]/a[1]/@n", "1 & 2"),
                ("/set[1]/a[1]/t[1]/i[1]", "V600E"),
                ("/set[1]/a[1]/t[1]", "BRAF V600E < 5×"),
                ("/set[1]/a[1]/t[2]", "second"),
            ]
        );
        assert_eq!(got[2].path, "/set/a/t");
    }

    #[test]
    fn malformed_documents_are_errors() {
        for bad in [
            &b"<a><b></a>"[..],
            b"<a>",
            b"",
            b"<a></a><b></b>",
            b"<a x='1' x='2'/>",
        ] {
            assert!(
                leaves(bad).is_err(),
                "{:?} accepted",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn child_spans_cut_exact_elements() {
        let xml = b"<S>\n<P><x>1</x></P><P><x>2</x></P><Q/></S>";
        let spans = child_spans(xml, "P").unwrap();
        let parts: Vec<&[u8]> = spans.iter().map(|r| &xml[r.clone()]).collect();
        assert_eq!(parts, vec![&b"<P><x>1</x></P>"[..], b"<P><x>2</x></P>"]);
    }
}
