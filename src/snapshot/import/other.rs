//! Families whose files do not state their own URL: epidemiology tables (JSON, SEER's
//! JSON-in-a-string payloads, or CSV), NLM Clinical Tables ICD-10-CM answers, and press
//! releases (HTML or plain text). Their URL comes from a sidecar or the portfolio's
//! `[[source]]`; a file without one parses but is reported as unplaced, because a
//! record nobody can click is not a source.

use serde_json::Value;

use super::{Draft, ImportError, ImportFile, Parsed};
use crate::domain::{Facets, Family, Fields};
use crate::snapshot::text::{html, json, plain};

fn no_url(f: &ImportFile) -> Parsed {
    Parsed::Unplaced(format!(
        "parsed, but no source URL: add `url` in {}{} or a [[source]] entry with file = {:?} in the portfolio",
        f.rel,
        super::SIDECAR_SUFFIX,
        f.rel
    ))
}

fn ext(rel: &str) -> String {
    rel.rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default()
}

/// A page that yielded no text where its format has text is an error, not a record.
fn with_text(f: &ImportFile, fields: &Fields, format: &'static str) -> Result<(), ImportError> {
    if fields.is_empty() {
        return Err(ImportError::NoText {
            file: f.rel.clone(),
            format,
        });
    }
    Ok(())
}

/// The formats (file extensions) a family's pages come in, the usual one first.
fn formats(family: Family) -> &'static [&'static str] {
    match family {
        Family::Epi => &["json", "csv"],
        Family::Press => &["html", "txt", "md"],
        _ => &[],
    }
}

/// The format a Content-Type names.
fn declared(content_type: &str) -> Option<&'static str> {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    Some(match essence.as_str() {
        "application/json" | "text/json" => "json",
        e if e.ends_with("+json") => "json",
        "text/csv" | "application/csv" | "text/comma-separated-values" => "csv",
        "text/html" | "application/xhtml+xml" => "html",
        "text/plain" => "txt",
        "text/markdown" | "text/x-markdown" => "md",
        _ => return None,
    })
}

/// The format a body looks like from its first byte (after a BOM and white space).
fn sniffed(body: &[u8]) -> Option<&'static str> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    match body.iter().find(|b| !b.is_ascii_whitespace())? {
        b'{' | b'[' | b'"' => Some("json"),
        b'<' => Some("html"),
        _ => None,
    }
}

/// The format of a fetched press or epidemiology page: the one its Content-Type names,
/// then the one its body looks like, then its URL's extension, then the family's other
/// formats (never plain text for a body that is markup); the first of the family's
/// formats that parses to text wins (SEER's `.php`
/// endpoints answer JSON, some servers label JSON `text/html` or CSV `text/plain`). None
/// that does is an error naming what was tried.
pub fn web_format(
    family: Family,
    content_type: Option<&str>,
    body: &[u8],
    url_ext: Option<&str>,
) -> Result<&'static str, ImportError> {
    let allowed = formats(family);
    let mut tried: Vec<&'static str> = Vec::new();
    let candidates = [content_type.and_then(declared), sniffed(body)]
        .into_iter()
        .flatten()
        .chain(url_ext.and_then(|e| allowed.iter().copied().find(|a| a.eq_ignore_ascii_case(e))))
        .chain(allowed.iter().copied());
    // markup is never plain text: an HTML page without text stays without text
    let markup = sniffed(body) == Some("html") && allowed.contains(&"html");
    for ext in candidates {
        if !allowed.contains(&ext) || tried.contains(&ext) || (markup && ext != "html") {
            continue;
        }
        tried.push(ext);
        let probe = ImportFile {
            family,
            rel: format!("{family}/probe.{ext}"),
            bytes: bytes::Bytes::copy_from_slice(body),
            meta: Some(crate::domain::SourceMeta {
                url: Some("https://format.probe.invalid/".into()),
                ..Default::default()
            }),
        };
        if matches!(super::parse_file(&probe), Ok(Parsed::Records(_))) {
            return Ok(ext);
        }
    }
    Err(ImportError::NoFormat {
        content_type: content_type.map_or("an untyped".into(), |c| format!("a {c:?}")),
        tried: tried.join(", "),
    })
}

pub fn parse_epi(f: &ImportFile) -> Result<Parsed, ImportError> {
    let (fields, media_type, conditions) = if ext(&f.rel) == "csv" {
        let (_, cells) = plain::csv_cells(&f.bytes).map_err(|e| f.text_err(e))?;
        (Fields::from(cells), "text/csv", Vec::new())
    } else {
        let doc = f.json()?;
        let mut fields = Fields::new();
        json::leaves(&doc, "", &mut fields);
        (fields, "application/json", Vec::new())
    };
    with_text(f, &fields, media_type)?;
    let Some(url) = f.meta_url() else {
        return Ok(no_url(f));
    };
    Ok(Parsed::Records(vec![f.record(Draft {
        key: url.to_string(),
        url: url.to_string(),
        retrieved_at: None,
        cutoff_date: None,
        title: None,
        media_type,
        raw: f.bytes.clone(),
        fields,
        facets: Facets {
            conditions,
            ..Facets::default()
        },
    })]))
}

/// `[total, [codes], extra|null, [[code, name], ...]]` from `/api/icd10cm/v3/search`.
pub fn parse_icd10(f: &ImportFile) -> Result<Parsed, ImportError> {
    let doc = f.json()?;
    let arr = doc
        .as_array()
        .filter(|a| a.len() >= 4 && a[0].is_u64() && a[1].is_array())
        .ok_or_else(|| {
            f.field_err(
                "[0..3]",
                "not a Clinical Tables answer [total, codes, extra, display]",
            )
        })?;
    let display = arr[3]
        .as_array()
        .ok_or_else(|| f.field_err("[3]", "display rows are not an array"))?;
    let mut names = Vec::new();
    for (i, row) in display.iter().enumerate() {
        let cols = row
            .as_array()
            .filter(|c| c.iter().all(Value::is_string))
            .ok_or_else(|| {
                f.field_err(
                    &format!("[3][{i}]"),
                    "display row is not an array of strings",
                )
            })?;
        names.extend(
            cols.iter()
                .skip(1)
                .filter_map(Value::as_str)
                .map(str::to_string),
        );
    }
    let mut fields = Fields::new();
    json::leaves(&doc, "", &mut fields);
    let Some(url) = f.meta_url() else {
        return Ok(no_url(f));
    };
    let terms = url::Url::parse(url)
        .ok()
        .and_then(|u| {
            u.query_pairs()
                .find(|(k, _)| k == "terms")
                .map(|(_, v)| v.into_owned())
        })
        .ok_or_else(|| f.field_err("url", format!("{url:?} has no terms= query parameter")))?;
    Ok(Parsed::Records(vec![f.record(Draft {
        url: format!(
            "https://clinicaltables.nlm.nih.gov/api/icd10cm/v3/search?terms={}",
            url::form_urlencoded::byte_serialize(terms.as_bytes()).collect::<String>()
        ),
        title: Some(format!("ICD-10-CM search: {terms}")),
        key: terms.clone(),
        retrieved_at: None,
        cutoff_date: None,
        media_type: "application/json",
        raw: f.bytes.clone(),
        fields,
        facets: Facets {
            conditions: std::iter::once(terms).chain(names).collect(),
            ..Facets::default()
        },
    })]))
}

pub fn parse_press(f: &ImportFile) -> Result<Parsed, ImportError> {
    let text = f.utf8()?;
    let e = ext(&f.rel);
    let (title, fields, media_type) = match e.as_str() {
        "html" | "htm" | "xhtml" => {
            let (title, fields) = html::leaves(text);
            (title, Fields::from(fields), "text/html")
        }
        "txt" | "text" | "md" => {
            let fields = plain::passages(text);
            let title = fields
                .first()
                .map(|p| p.text.lines().next().unwrap_or_default().to_string());
            (title, Fields::from(fields), "text/plain")
        }
        _ => {
            return Err(f.field_err(
                "file name",
                format!("press pages must be .html, .htm, .txt or .md, not .{e}"),
            ));
        }
    };
    with_text(f, &fields, media_type)?;
    let Some(url) = f.meta_url() else {
        return Ok(no_url(f));
    };
    Ok(Parsed::Records(vec![f.record(Draft {
        key: url.to_string(),
        url: url.to_string(),
        retrieved_at: None,
        cutoff_date: None,
        title,
        media_type,
        raw: f.bytes.clone(),
        facets: Facets {
            indication_text: fields.iter().map(|x| x.text).collect::<Vec<_>>().join("\n"),
            ..Facets::default()
        },
        fields,
    })]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_is_the_responses_whatever_the_url_says() {
        let json = br#"{"rows":[{"year":2024,"rate":"7.3"}]}"#;
        let csv = b"year,rate\n2024,7.3\n";
        let html = b"<html><body><p>Phase 3 met its primary endpoint.</p></body></html>";
        let epi = |ct: Option<&str>, body: &[u8], ext: Option<&str>| {
            web_format(Family::Epi, ct, body, ext)
        };
        // declared and true
        assert_eq!(
            epi(Some("application/json"), json, Some("csv")).unwrap(),
            "json"
        );
        assert_eq!(epi(Some("text/csv"), csv, Some("json")).unwrap(), "csv");
        // declared wrongly, or not at all: the body decides
        assert_eq!(epi(Some("text/csv"), json, Some("csv")).unwrap(), "json");
        assert_eq!(epi(Some("application/json"), csv, None).unwrap(), "csv");
        assert_eq!(
            epi(Some("text/html; charset=UTF-8"), json, Some("php")).unwrap(),
            "json"
        );
        assert_eq!(epi(None, csv, Some("php")).unwrap(), "csv");
        // a JSON string holding JSON (SEER) is JSON
        let seer = br#""{\"data\":[[1975,\"17.98\"]]}""#;
        assert_eq!(epi(Some("text/html"), seer, Some("php")).unwrap(), "json");
        // an HTML error page where a table should be, or nothing at all: no text
        let e = epi(Some("text/html"), html, Some("csv")).unwrap_err();
        assert!(e.to_string().contains("\"text/html\""), "{e}");
        assert!(e.to_string().contains("csv, json"), "{e}");
        assert!(epi(None, b"", None).is_err());
        assert!(epi(Some("text/csv"), b"year,rate\n", None).is_err());
        // press: HTML by type or by body, plain text by type
        let press = |ct: Option<&str>, body: &[u8], ext: Option<&str>| {
            web_format(Family::Press, ct, body, ext)
        };
        assert_eq!(press(None, html, Some("aspx")).unwrap(), "html");
        assert_eq!(
            press(Some("text/plain"), b"Results\n\nMet.", None).unwrap(),
            "txt"
        );
        assert_eq!(
            press(Some("text/markdown"), b"# Results\n", Some("html")).unwrap(),
            "md"
        );
        assert!(press(Some("text/html"), b"<html><body></body></html>", None).is_err());
    }

    #[test]
    fn an_imported_page_without_text_is_an_error() {
        let f = ImportFile {
            family: Family::Epi,
            rel: "epi/table.csv".into(),
            bytes: bytes::Bytes::from_static(b"\"{\\\"data\\\":1}\""),
            meta: None,
        };
        let e = parse_epi(&f)
            .err()
            .expect("a JSON payload read as CSV has no text");
        assert!(e.to_string().contains("no text as text/csv"), "{e}");
    }
}
