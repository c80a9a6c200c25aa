//! SEC EDGAR JSON: `companyfacts` (key `CIK##########`), `submissions`
//! (key `CIK##########-submissions`) and its pagination files (key from the file name,
//! `CIK##########-submissions-001`, since their body names no filer). `cik` may be an
//! integer or a zero-padded string. The latest filing date stated is the cutoff.

use serde_json::Value;

use super::{Draft, ImportError, ImportFile, Parsed, strings_at};
use crate::domain::{Facets, Fields};
use crate::snapshot::text::json;

pub fn parse(f: &ImportFile) -> Result<Parsed, ImportError> {
    let doc = f.json()?;
    let cik = match doc.get("cik") {
        Some(Value::Number(n)) => n.as_u64().map(|n| format!("{n:010}")),
        Some(Value::String(s))
            if !s.is_empty() && s.len() <= 10 && s.bytes().all(|b| b.is_ascii_digit()) =>
        {
            Some(format!("{s:0>10}"))
        }
        Some(other) => return Err(f.field_err("cik", format!("not a CIK: {other}"))),
        None => None,
    };
    let (key, url, cutoff, cik) = if doc.get("facts").is_some() {
        let cik =
            cik.ok_or_else(|| f.field_err("cik", "missing: companyfacts need the filer's CIK"))?;
        (
            format!("CIK{cik}"),
            format!("https://data.sec.gov/api/xbrl/companyfacts/CIK{cik}.json"),
            latest_filed(&doc),
            cik,
        )
    } else if doc.get("filings").is_some() {
        let cik =
            cik.ok_or_else(|| f.field_err("cik", "missing: submissions need the filer's CIK"))?;
        (
            format!("CIK{cik}-submissions"),
            format!("https://data.sec.gov/submissions/CIK{cik}.json"),
            max_str(doc.pointer("/filings/recent/filingDate")),
            cik,
        )
    } else if doc.get("accessionNumber").is_some() {
        let stem = page_stem(&f.rel).ok_or_else(|| {
            f.field_err(
                "cik",
                "a submissions page names no filer; its file name must hold it (CIK##########-submissions-NNN.json)",
            )
        })?;
        let cik = stem[3..13].to_string();
        (
            stem.clone(),
            format!("https://data.sec.gov/submissions/{stem}.json"),
            max_str(doc.get("filingDate")),
            cik,
        )
    } else {
        return Err(f.field_err("facts", "neither companyfacts (facts), submissions (filings) nor a submissions page (accessionNumber)"));
    };
    let mut fields = Fields::new();
    json::leaves(&doc, "", &mut fields);
    let title = strings_at(&doc, &["/entityName", "/name"])
        .into_iter()
        .next();
    Ok(Parsed::Records(vec![f.record(Draft {
        key,
        url,
        retrieved_at: None,
        cutoff_date: cutoff,
        title: title.clone(),
        media_type: "application/json",
        raw: f.bytes.clone(),
        fields,
        facets: Facets {
            organizations: title.into_iter().collect(),
            cik: Some(cik),
            ..Facets::default()
        },
    })]))
}

/// The latest `filed` date over every fact of every concept and unit.
fn latest_filed(doc: &Value) -> Option<String> {
    let mut best: Option<&str> = None;
    for taxonomy in doc.get("facts")?.as_object()?.values() {
        for concept in taxonomy.as_object().into_iter().flat_map(|m| m.values()) {
            for facts in concept
                .get("units")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|m| m.values())
            {
                for fact in facts.as_array().into_iter().flatten() {
                    if let Some(d) = fact.get("filed").and_then(Value::as_str)
                        && best.is_none_or(|b| d > b)
                    {
                        best = Some(d);
                    }
                }
            }
        }
    }
    best.map(str::to_string)
}

fn max_str(v: Option<&Value>) -> Option<String> {
    v?.as_array()?
        .iter()
        .filter_map(Value::as_str)
        .max()
        .map(str::to_string)
}

/// `sec/CIK0000078003_pfizer-submissions-001.json` → `CIK0000078003-submissions-001`:
/// the CIK must open the file name and `-submissions-NNN` must end it.
fn page_stem(rel: &str) -> Option<String> {
    let name = rel.rsplit('/').next()?;
    let stem = name.strip_suffix(".json")?;
    let cik = stem
        .strip_prefix("CIK")
        .filter(|s| s.len() >= 10)?
        .get(..10)?;
    let (_, page) = stem.rsplit_once("-submissions-")?;
    let ok = cik.bytes().all(|b| b.is_ascii_digit())
        && !page.is_empty()
        && page.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| format!("CIK{cik}-submissions-{page}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_stems() {
        assert_eq!(
            page_stem("sec/CIK0000078003-submissions-001.json").as_deref(),
            Some("CIK0000078003-submissions-001")
        );
        assert_eq!(
            page_stem("sec/CIK0000078003_pfizer-submissions-001.json").as_deref(),
            Some("CIK0000078003-submissions-001")
        );
        assert_eq!(page_stem("sec/pfizer-page.json"), None);
        assert_eq!(page_stem("sec/CIK12-submissions-001.json"), None);
    }
}
