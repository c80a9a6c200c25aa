//! The portfolio file (TOML): which assets to profile, and optional metadata for
//! imported files that carry none (press pages, epidemiology tables, ICD-10 answers).
//! Parsing and validation only; never touches the lake.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::domain::AssetId;

#[derive(Debug, thiserror::Error)]
pub enum PortfolioError {
    #[error("reading portfolio {path}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("portfolio {path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("portfolio {path}: asset[{index}] ({id}): {message}")]
    Invalid {
        path: PathBuf,
        index: usize,
        id: String,
        message: String,
    },
    #[error("portfolio {path}: no [[asset]] entries")]
    Empty { path: PathBuf },
    #[error("portfolio {path}: source[{index}]")]
    Source {
        path: PathBuf,
        index: usize,
        #[source]
        source: MetaError,
    },
}

/// A source URL or date that cannot stand in the catalog (which is the citation
/// allowlist): the key, the value as given (shortened) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{key}` {value}: {problem}")]
pub struct MetaError {
    pub key: &'static str,
    pub value: String,
    pub problem: &'static str,
}

/// The longest source URL accepted (browsers and servers commonly stop near 2,000).
pub const MAX_URL_LEN: usize = 2048;

/// Checks a source URL: an absolute `http(s)` URL with a host, at most
/// [`MAX_URL_LEN`] bytes, with no spaces or control characters (the URL parser would
/// silently drop a newline or tab, so the raw text is checked first).
pub fn check_source_url(key: &'static str, url: &str) -> Result<(), MetaError> {
    let err = |problem| MetaError {
        key,
        value: shown(url),
        problem,
    };
    if url.len() > MAX_URL_LEN {
        return Err(err("longer than 2048 bytes"));
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(err("holds spaces or control characters"));
    }
    let parsed = url::Url::parse(url).map_err(|_| err("not an absolute URL"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(err("not an http(s) URL"));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(err("has no host"));
    }
    Ok(())
}

/// A value quoted for a message: at most 80 characters, escapes for control characters.
fn shown(v: &str) -> String {
    let cut: String = v.chars().take(80).collect();
    let mut s = format!("{cut:?}");
    if cut.len() < v.len() {
        s.push_str(&format!(" (first 80 of {} bytes)", v.len()));
    }
    s
}

/// One asset to profile. Field names are the portfolio contract (the README's "Portfolio (TOML)").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Asset {
    pub id: AssetId,
    /// Generic name, brand names and code names; the first is the display name.
    pub names: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sponsor: Option<String>,
    /// SEC filer (10 digits, zero-padded; shorter numbers are padded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sponsor_cik: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indication: Option<String>,
    /// NCT ids known to belong to the asset; discovery also searches by names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trials: Vec<String>,
    /// Press-release URLs of the asset.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub press: Vec<String>,
    /// Epidemiology table URLs for the asset's indication.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub epi: Vec<String>,
    /// ICD-10-CM search terms; defaults to the indication.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icd10: Vec<String>,
    /// This asset's own values of valuation assumptions, by key of the assumptions file
    /// (`peak_share = 0.2`): each replaces the file's base and is cited to the portfolio.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub valuation: BTreeMap<String, Assumed>,
}

/// A number an analyst chose for one asset (compared bit for bit).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Assumed(pub f64);

impl Eq for Assumed {}

impl Asset {
    /// The ICD-10 search terms: explicit ones, else the indication.
    pub fn icd10_terms(&self) -> Vec<String> {
        if !self.icd10.is_empty() {
            return self.icd10.clone();
        }
        self.indication.iter().cloned().collect()
    }
}

/// Metadata for one imported file that does not state its own URL (a saved press page,
/// an epidemiology export, an ICD-10 answer). A sidecar `<file>.source.toml` with the
/// same keys (without `file`) does the same job.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceMeta {
    /// Path relative to the import directory, e.g. `press/acme-2024-05-01.html`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieved_at: Option<String>,
    /// Publication date or data cutoff, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cutoff_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Assets the file belongs to, when its URL is not listed on them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assets: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Portfolio {
    #[serde(default)]
    pub asset: Vec<Asset>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source: Vec<SourceMeta>,
}

impl SourceMeta {
    /// Checks what would enter the catalog: the URL ([`check_source_url`]),
    /// `retrieved_at` (an RFC 3339 time or a `YYYY-MM-DD` date) and `cutoff_date`
    /// (a real `YYYY-MM-DD` date).
    pub fn validate(&self) -> Result<(), MetaError> {
        if let Some(u) = &self.url {
            check_source_url("url", u)?;
        }
        if let Some(r) = &self.retrieved_at {
            let t = r.trim();
            if chrono::DateTime::parse_from_rfc3339(t).is_err()
                && chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d").is_err()
            {
                return Err(MetaError {
                    key: "retrieved_at",
                    value: shown(r),
                    problem: "not an RFC 3339 time or a YYYY-MM-DD date",
                });
            }
        }
        if let Some(c) = &self.cutoff_date
            && chrono::NaiveDate::parse_from_str(c.trim(), "%Y-%m-%d").is_err()
        {
            return Err(MetaError {
                key: "cutoff_date",
                value: shown(c),
                problem: "not a YYYY-MM-DD date",
            });
        }
        Ok(())
    }
}

impl Portfolio {
    pub fn load(path: &Path) -> Result<Portfolio, PortfolioError> {
        let text = std::fs::read_to_string(path).map_err(|source| PortfolioError::Read {
            path: path.to_owned(),
            source,
        })?;
        Portfolio::parse(&text, path)
    }

    /// Parses and validates; `path` only names the file in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Portfolio, PortfolioError> {
        let mut p: Portfolio = toml::from_str(text).map_err(|e| PortfolioError::Parse {
            path: path.to_owned(),
            message: one_line(&e.to_string()),
        })?;
        p.validate(path)?;
        for a in &mut p.asset {
            if let Some(cik) = &a.sponsor_cik {
                a.sponsor_cik = Some(format!("{:0>10}", cik.trim()));
            }
            for t in &mut a.trials {
                *t = t.trim().to_ascii_uppercase();
            }
        }
        Ok(p)
    }

    fn validate(&self, path: &Path) -> Result<(), PortfolioError> {
        if self.asset.is_empty() {
            return Err(PortfolioError::Empty {
                path: path.to_owned(),
            });
        }
        let mut seen = BTreeSet::new();
        for (index, a) in self.asset.iter().enumerate() {
            let bad = |message: String| PortfolioError::Invalid {
                path: path.to_owned(),
                index,
                id: a.id.to_string(),
                message,
            };
            if !seen.insert(a.id.as_str()) {
                return Err(bad("duplicate asset id".into()));
            }
            if a.names.iter().all(|n| n.trim().is_empty()) {
                return Err(bad("field `names` needs at least one non-empty name".into()));
            }
            if let Some(cik) = &a.sponsor_cik {
                let c = cik.trim();
                if c.is_empty() || c.len() > 10 || !c.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(bad(format!(
                        "field `sponsor_cik` {cik:?} is not 1 to 10 digits"
                    )));
                }
            }
            for t in &a.trials {
                if !is_nct_id(t.trim()) {
                    return Err(bad(format!(
                        "field `trials`: {t:?} is not an NCT id (NCT + 8 digits)"
                    )));
                }
            }
            for (key, urls) in [("press", &a.press), ("epi", &a.epi)] {
                for u in urls {
                    check_source_url(key, u).map_err(|e| bad(e.to_string()))?;
                }
            }
        }
        for (index, s) in self.source.iter().enumerate() {
            s.validate().map_err(|source| PortfolioError::Source {
                path: path.to_owned(),
                index,
                source,
            })?;
        }
        Ok(())
    }

    /// The metadata entry for an imported file, by its path relative to the import dir.
    pub fn source_for(&self, rel: &str) -> Option<&SourceMeta> {
        self.source.iter().find(|s| s.file.as_deref() == Some(rel))
    }
}

pub fn is_nct_id(s: &str) -> bool {
    s.len() == 11
        && s[..3].eq_ignore_ascii_case("NCT")
        && s[3..].bytes().all(|b| b.is_ascii_digit())
}

/// Error text from parsers can span lines; our errors are one line.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The longest error line printed; a longer message keeps its start and says how much
/// was cut (a path hundreds of segments long, a 1 MB value).
pub const MAX_MESSAGE_CHARS: usize = 2000;

/// A message made safe for one line of a terminal or log: control characters (a newline
/// in a file name, an escape sequence) are escaped, and the text is cut at
/// [`MAX_MESSAGE_CHARS`].
pub fn printable(s: &str) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for (i, c) in s.char_indices() {
        if shown >= MAX_MESSAGE_CHARS {
            out.push_str(&format!("… ({} more bytes)", s.len() - i));
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
        shown += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Portfolio, PortfolioError> {
        Portfolio::parse(s, Path::new("p.toml"))
    }

    #[test]
    fn printable_messages_are_one_short_line() {
        assert_eq!(
            printable("bad\nname\t\u{1b}[31m"),
            "bad\\nname\\t\\u{1b}[31m"
        );
        let long = "a/".repeat(5000);
        let p = printable(&long);
        assert!(p.starts_with("a/a/"));
        assert!(p.ends_with("… (8000 more bytes)"), "{}", &p[p.len() - 40..]);
        assert_eq!(printable("≥ 18 × 2"), "≥ 18 × 2");
    }

    #[test]
    fn bad_portfolios_say_what_is_wrong() {
        let cases = [
            ("", "no [[asset]]"),
            ("[[asset]]\nid = \"a/b\"\nnames=[\"x\"]", "invalid asset id"),
            ("[[asset]]\nid = \"..\"\nnames=[\"x\"]", "invalid asset id"),
            ("[[asset]]\nid = \"Abc\"\nnames=[\"x\"]", "invalid asset id"),
            (
                "[[asset]]\nid = \"a\"\nnames=[\"x\"]\n[[asset]]\nid = \"a\"\nnames=[\"y\"]",
                "duplicate asset id",
            ),
            ("[[asset]]\nid = \"a\"\nnames=[]", "names"),
            (
                "[[asset]]\nid = \"a\"\nnames=[\"x\"]\ncolour=1",
                "unknown field",
            ),
            (
                "[[asset]]\nid = \"a\"\nnames=[\"x\"]\ntrials=[\"NCT1\"]",
                "not an NCT id",
            ),
            (
                "[[asset]]\nid = \"a\"\nnames=[\"x\"]\nsponsor_cik=\"12a\"",
                "sponsor_cik",
            ),
        ];
        for (text, want) in cases {
            let err = parse(text).unwrap_err().to_string();
            assert!(err.contains(want), "{text:?}: {err}");
            assert!(err.contains("p.toml"), "{err}");
            assert!(!err.contains('\n'), "multi-line error: {err}");
        }
    }

    #[test]
    fn cik_is_padded_and_trials_upper_cased() {
        let p = parse(
            "[[asset]]\nid=\"a\"\nnames=[\"x\"]\nsponsor_cik=\"59478\"\ntrials=[\"nct01234567\"]",
        )
        .unwrap();
        assert_eq!(p.asset[0].sponsor_cik.as_deref(), Some("0000059478"));
        assert_eq!(p.asset[0].trials, vec!["NCT01234567"]);
    }
}
