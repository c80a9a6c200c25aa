//! SEC EDGAR JSON: `companyfacts` (key `CIK##########`), `submissions`
//! (key `CIK##########-submissions`) and its pagination files (key from the file name,
//! `CIK##########-submissions-001`, since their body names no filer). `cik` may be an
//! integer or a zero-padded string. The latest filing date stated is the cutoff.

use serde_json::Value;

use super::{Draft, ImportError, ImportFile, Parsed, strings_at};
use crate::domain::{Facets, Fields};
use crate::snapshot::text::Wanted;
use crate::snapshot::text::json::{self, Container};

/// `wanted`: the text fields the record keeps.
pub fn parse(f: &ImportFile, wanted: Wanted<'_>) -> Result<Parsed, ImportError> {
    // Read without the tree when it can be; a repeated key, or bytes that are not one
    // JSON document, go the tree's way (the same leaves, or the same error).
    let mut dates = Dates::default();
    let streamed = json::leaves_streamed(&f.bytes, &KEPT, wanted, &mut |containers, path, s| {
        dates.see(containers, path, s)
    });
    if let Ok(Some(streamed)) = streamed {
        let top = |k: &str| streamed.top_keys.iter().any(|t| t == k);
        let kind = if top("facts") {
            Kind::Facts(dates.filed)
        } else if top("filings") {
            Kind::Submissions(dates.recent)
        } else if top("accessionNumber") {
            Kind::Page(dates.page)
        } else {
            Kind::Neither
        };
        return record(f, &Value::Object(streamed.kept), kind, streamed.fields);
    }
    parse_tree(f, wanted)
}

/// [`parse`] by the parsed tree.
fn parse_tree(f: &ImportFile, wanted: Wanted<'_>) -> Result<Parsed, ImportError> {
    let doc = f.json()?;
    let kind = if doc.get("facts").is_some() {
        Kind::Facts(latest_filed(&doc))
    } else if doc.get("filings").is_some() {
        Kind::Submissions(max_str(doc.pointer("/filings/recent/filingDate")))
    } else if doc.get("accessionNumber").is_some() {
        Kind::Page(max_str(doc.get("filingDate")))
    } else {
        Kind::Neither
    };
    let mut fields = Fields::new();
    json::leaves_wanted(&doc, "", wanted, &mut fields);
    record(f, &doc, kind, fields)
}

/// The root keys [`record`] reads: kept whole when the leaves are streamed.
const KEPT: [&str; 3] = ["cik", "entityName", "name"];

/// What a document is, by its root keys, with the latest date it states.
enum Kind {
    /// companyfacts (`facts`): the latest `filed` of any fact
    Facts(Option<String>),
    /// submissions (`filings`): the latest `filings.recent.filingDate`
    Submissions(Option<String>),
    /// a submissions page (`accessionNumber`): the latest `filingDate`
    Page(Option<String>),
    Neither,
}

/// The latest dates of each kind, gathered from the strings as they stream by: what
/// [`latest_filed`] and [`max_str`] read from the tree, by the same containers.
#[derive(Default)]
struct Dates {
    filed: Option<String>,
    recent: Option<String>,
    page: Option<String>,
}

impl Dates {
    fn see(&mut self, containers: &[Container], path: &str, s: &str) {
        use Container::{Array as A, Object as O};
        let best = match containers {
            // /facts/<taxonomy>/<concept>/units/<unit>/<i>/filed
            // (seven containers make seven escaped segments, so no key holds a '/')
            [O, O, O, O, O, A, O] if path.ends_with("/filed") => {
                let mut parts = path.split('/');
                if parts.nth(1) == Some("facts") && parts.nth(2) == Some("units") {
                    &mut self.filed
                } else {
                    return;
                }
            }
            // /filings/recent/filingDate/<i>
            [O, O, O, A]
                if path.rsplit_once('/').map(|(p, _)| p) == Some("/filings/recent/filingDate") =>
            {
                &mut self.recent
            }
            // /filingDate/<i>
            [O, A] if path.rsplit_once('/').map(|(p, _)| p) == Some("/filingDate") => {
                &mut self.page
            }
            _ => return,
        };
        if best.as_deref().is_none_or(|b| s > b) {
            *best = Some(s.to_string());
        }
    }
}

/// The record of a document of `kind` whose root keys (at least [`KEPT`]) are in `doc`.
fn record(f: &ImportFile, doc: &Value, kind: Kind, fields: Fields) -> Result<Parsed, ImportError> {
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
    let (key, url, cutoff, cik) = match kind {
        Kind::Facts(latest) => {
            let cik = cik
                .ok_or_else(|| f.field_err("cik", "missing: companyfacts need the filer's CIK"))?;
            (
                format!("CIK{cik}"),
                format!("https://data.sec.gov/api/xbrl/companyfacts/CIK{cik}.json"),
                latest,
                cik,
            )
        }
        Kind::Submissions(latest) => {
            let cik =
                cik.ok_or_else(|| f.field_err("cik", "missing: submissions need the filer's CIK"))?;
            (
                format!("CIK{cik}-submissions"),
                format!("https://data.sec.gov/submissions/CIK{cik}.json"),
                latest,
                cik,
            )
        }
        Kind::Page(latest) => {
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
                latest,
                cik,
            )
        }
        Kind::Neither => {
            return Err(f.field_err("facts", "neither companyfacts (facts), submissions (filings) nor a submissions page (accessionNumber)"));
        }
    };
    let title = strings_at(doc, &["/entityName", "/name"])
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
    use crate::domain::Family;
    use crate::snapshot::import::{outcome as records, test_file};

    fn file(rel: &str, body: &str) -> ImportFile {
        test_file(Family::Sec, rel, body)
    }

    /// Streamed and by the tree, every document gives the same record or the same error.
    #[test]
    fn streamed_documents_give_the_records_and_errors_of_the_tree() {
        let fact = |filed: &str| {
            format!(r#"{{"end":"2020-12-31","val":1.5e3,"accn":"0001-20-1","filed":{filed}}}"#)
        };
        let docs = [
            // companyfacts: the latest filed wins, an empty one counts, an odd shape does not
            format!(
                r#"{{"cik":1640147,"entityName":"Snow Co","facts":{{"dei":{{"A":{{"units":{{"USD":[{},{},{}]}}}}}},"us-gaap":{{"B":{{"units":{{"shares":[{}]}}}},"C":{{"units":{{"USD":{{"0":{}}}}}}}}}}}}}"#,
                fact(r#""2021-02-01""#),
                fact(r#""""#),
                fact("null"),
                fact(r#""2022-03-04""#),
                fact(r#""2099-01-01""#)
            ),
            r#"{"cik":"78003","name":"PFIZER INC","filings":{"recent":{"filingDate":["2024-01-02","","2025-05-06"],"form":["10-K"]}}}"#.to_string(),
            r#"{"accessionNumber":["a"],"filingDate":["2019-01-01","2020-02-02"]}"#.to_string(),
            // a repeated key: the tree keeps the last value at the first key's place
            r#"{"cik":1,"entityName":"First","facts":{},"entityName":"Second"}"#.to_string(),
            r#"{"cik":1,"facts":{"x":{"units":{"USD":[{"filed":"2020-01-01","filed":"2019-01-01"}]}}}}"#.to_string(),
            // keys that need escaping, every kind of number, embedded JSON, nesting
            r#"{"cik":2,"entityName":"E","facts":{"a/b":{"c~d":[[1,-2,3.25,1e300,18446744073709551615,-0.0],true,null,"{\"k\":[7]}",""]}}}"#.to_string(),
            // errors: a bad CIK, no CIK, neither kind, not JSON, trailing bytes, not an object
            r#"{"cik":true,"facts":{}}"#.to_string(),
            r#"{"facts":{}}"#.to_string(),
            r#"{"cik":3,"other":1}"#.to_string(),
            r#"{"cik":3,"facts":"#.to_string(),
            r#"{"cik":3,"facts":{}} x"#.to_string(),
            r#"[{"cik":3,"facts":{}}]"#.to_string(),
        ];
        for (i, body) in docs.iter().enumerate() {
            let f = file("sec/CIK0000078003-submissions-001.json", body);
            for wanted in [Wanted::All, Wanted::Nothing] {
                let streamed = records(parse(&f, wanted));
                assert_eq!(
                    streamed,
                    records(parse_tree(&f, wanted)),
                    "document {i}: {body}"
                );
                if i < 6 {
                    assert!(streamed.is_ok(), "document {i}: {streamed:?}");
                } else {
                    assert!(streamed.is_err(), "document {i}: {streamed:?}");
                }
            }
            // without its fields, the same record otherwise (dates are read all the same)
            if let (Ok(all), Ok(bare)) = (
                records(parse(&f, Wanted::All)),
                records(parse(&f, Wanted::Nothing)),
            ) {
                assert!(bare[0].fields.is_empty());
                let all = crate::domain::Record {
                    fields: Fields::new(),
                    ..all[0].clone()
                };
                assert_eq!(all, bare[0], "document {i}");
            }
        }
        let cutoff = |i: usize| {
            let f = file("sec/CIK0000078003-submissions-001.json", &docs[i]);
            records(parse(&f, Wanted::Nothing)).unwrap()[0]
                .cutoff_date
                .clone()
        };
        assert_eq!(cutoff(0).as_deref(), Some("2022-03-04"));
        assert_eq!(cutoff(1).as_deref(), Some("2025-05-06"));
        assert_eq!(cutoff(2).as_deref(), Some("2020-02-02"));
        let first = records(parse(&file("sec/x.json", &docs[3]), Wanted::All)).unwrap();
        assert_eq!(first[0].title.as_deref(), Some("Second"));
        let odd = records(parse(&file("sec/x.json", &docs[5]), Wanted::All)).unwrap();
        let texts: Vec<&str> = odd[0].fields.iter().map(|f| f.text).collect();
        assert!(
            texts.contains(&"18446744073709551615") && texts.contains(&"7"),
            "{texts:?}"
        );
    }

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
