//! Claims: one value for one cell with its evidence, and the six labels that say what
//! kind of statement it is. Parsing of the claims file (JSON Lines) lives here; a line
//! that does not parse becomes a [`ClaimLine::Malformed`], never an abort. Pure.

use serde::{Deserialize, Serialize};

/// What kind of statement a claim is. Only `fact` may be shown as a sourced fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Label {
    /// Stated verbatim in a source: needs a citation and a quote.
    Fact,
    /// Computed from named fact claims by a stated formula.
    Derived,
    /// Reasoned from named claims, stated nowhere.
    Inference,
    /// An input chosen, not found (a discount rate).
    Assumption,
    /// The output of a model over visible assumptions (peak sales, rNPV).
    Modeled,
    /// A possibility worth checking, not supported yet.
    Hypothesis,
}

impl Label {
    /// The label's name in tables and claims files (`fact`, `modeled`, …).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl Label {
    /// Labels whose claims must name input claims.
    pub fn needs_inputs(self) -> bool {
        matches!(self, Label::Derived | Label::Inference)
    }
}

/// A claim as written by anyone (the extractive reasoner, an LLM, an analyst).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub id: String,
    pub asset: String,
    pub field: String,
    /// The value as text; numbers in it must occur in the quote.
    pub value: String,
    pub label: Label,
    /// A catalog URL or a bare label (NCT id, PMID, set_id, application number, CIK).
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub quote: Option<String>,
    /// JSON pointer, XML path, HTML path or `bytes:START-END` into the cited record.
    #[serde(default)]
    pub locator: Option<String>,
    #[serde(default)]
    pub unit: Option<String>,
    #[serde(default)]
    pub endpoint: Option<String>,
    #[serde(default)]
    pub population: Option<String>,
    #[serde(default)]
    pub arm: Option<String>,
    /// Claim ids a `derived` or `inference` claim is built from.
    #[serde(default)]
    pub inputs: Vec<String>,
    /// The formula (derived) or reasoning (inference).
    #[serde(default)]
    pub formula: Option<String>,
}

/// One line of a claims file.
#[derive(Clone, Debug, PartialEq)]
pub enum ClaimLine {
    Claim(Box<Claim>),
    /// The line did not parse; `id` is recovered when the line had one.
    Malformed {
        line: usize,
        id: Option<String>,
        reason: String,
    },
}

/// Parses JSON Lines; blank lines are skipped, every other line gives one entry. A line
/// that is not UTF-8 is malformed on its own: the lines around it still parse.
pub fn parse_lines(bytes: &[u8]) -> Vec<ClaimLine> {
    let mut out = Vec::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let line = match std::str::from_utf8(raw) {
            Ok(line) => line,
            Err(e) => {
                out.push(ClaimLine::Malformed {
                    line: i + 1,
                    id: None,
                    reason: format!(
                        "line {}: not UTF-8 (invalid byte at column {})",
                        i + 1,
                        e.valid_up_to() + 1
                    ),
                });
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Claim>(line) {
            Ok(c) => out.push(ClaimLine::Claim(Box::new(c))),
            Err(e) => {
                let id = serde_json::from_str::<serde_json::Value>(line)
                    .ok()
                    .and_then(|v| v.get("id").and_then(|x| x.as_str()).map(str::to_string));
                out.push(ClaimLine::Malformed {
                    line: i + 1,
                    id,
                    reason: format!(
                        "line {}: not a claim: {}",
                        i + 1,
                        crate::domain::one_line(&e.to_string())
                    ),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_or_become_malformed_entries() {
        let text = r#"{"id":"c1","asset":"a","field":"f","value":"1","label":"fact","source":"NCT00000001","quote":"1","locator":null}

{"id":"c2","asset":"a","field":"f","value":"1","label":"guess"}
not json at all
{"id":"c3","asset":"a","field":"f","value":"1","label":"modeled","extra":1}"#;
        let lines = parse_lines(text.as_bytes());
        assert_eq!(lines.len(), 4);
        assert!(matches!(&lines[0], ClaimLine::Claim(c) if c.id == "c1" && c.label == Label::Fact));
        assert!(
            matches!(&lines[1], ClaimLine::Malformed { id: Some(id), line: 3, .. } if id == "c2")
        );
        assert!(matches!(
            &lines[2],
            ClaimLine::Malformed {
                id: None,
                line: 4,
                ..
            }
        ));
        assert!(matches!(&lines[3], ClaimLine::Malformed { id: Some(id), .. } if id == "c3"));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_malformed_alone() {
        let good = br#"{"id":"c1","asset":"a","field":"f","value":"1","label":"hypothesis"}"#;
        let mut text = good.to_vec();
        text.extend_from_slice(b"\r\n{\"id\":\"c2\",\"value\":\"\xff\xfe\"}\n");
        text.extend_from_slice(
            br#"{"id":"c3","asset":"a","field":"f","value":"1","label":"hypothesis"}"#,
        );
        let lines = parse_lines(&text);
        assert_eq!(lines.len(), 3);
        assert!(matches!(&lines[0], ClaimLine::Claim(c) if c.id == "c1"));
        assert!(matches!(
            &lines[1],
            ClaimLine::Malformed { line: 2, id: None, reason } if reason.contains("not UTF-8")
        ));
        assert!(matches!(&lines[2], ClaimLine::Claim(c) if c.id == "c3"));
    }
}
