//! Families whose files do not state their own URL: epidemiology tables (JSON, SEER's
//! JSON-in-a-string payloads, or CSV), NLM Clinical Tables ICD-10-CM answers, and press
//! releases (HTML or plain text). Their URL comes from a sidecar or the portfolio's
//! `[[source]]`; a file without one parses but is reported as unplaced, because a
//! record nobody can click is not a source.

use serde_json::Value;

use super::{Draft, ImportError, ImportFile, Parsed};
use crate::domain::Facets;
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

pub fn parse_epi(f: &ImportFile) -> Result<Parsed, ImportError> {
    let (fields, media_type, conditions) = if ext(&f.rel) == "csv" {
        let (_, cells) = plain::csv_cells(&f.bytes).map_err(|e| f.text_err(e))?;
        (cells, "text/csv", Vec::new())
    } else {
        let doc = f.json()?;
        let mut fields = Vec::new();
        json::leaves(&doc, "", &mut fields);
        (fields, "application/json", Vec::new())
    };
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
    let mut fields = Vec::new();
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
            (title, fields, "text/html")
        }
        "txt" | "text" | "md" => {
            let fields = plain::passages(text);
            let title = fields
                .first()
                .map(|p| p.text.lines().next().unwrap_or_default().to_string());
            (title, fields, "text/plain")
        }
        _ => {
            return Err(f.field_err(
                "file name",
                format!("press pages must be .html, .htm, .txt or .md, not .{e}"),
            ));
        }
    };
    let Some(url) = f.meta_url() else {
        return Ok(no_url(f));
    };
    Ok(Parsed::Records(vec![
        f.record(Draft {
            key: url.to_string(),
            url: url.to_string(),
            retrieved_at: None,
            cutoff_date: None,
            title,
            media_type,
            raw: f.bytes.clone(),
            facets: Facets {
                indication_text: fields
                    .iter()
                    .map(|x| x.text.as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
                ..Facets::default()
            },
            fields,
        }),
    ]))
}
