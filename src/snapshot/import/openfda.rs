//! openFDA responses (`{meta, results[]}`): `drug/label.json` (one record per label,
//! keyed by set_id) and `drug/drugsfda.json` (one record per application). Each record's
//! raw bytes are the exact slice of its `results[]` element. `meta.last_updated` is the
//! dataset date: used as retrieved-at when no sidecar says otherwise.

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::{Draft, ImportError, ImportFile, Parsed, compact_date, strings_at};
use crate::domain::{Facets, Fields, Record};
use crate::snapshot::text::{Wanted, json};

struct Result_<'a> {
    /// The record's tree, or (when its leaves were streamed) its root keys that the
    /// family's `kept` names.
    value: &'a Value,
    /// Its leaves.
    fields: Fields,
    raw: &'a RawValue,
    index: usize,
}

/// A page read in one pass: each element of `results[]` stays a slice of the file
/// until its turn, so a large page (a bulk download of a million labels) never exists
/// as one tree; only one record's tree at a time does.
#[derive(Deserialize)]
struct Page<'a> {
    #[serde(borrow, default)]
    results: Option<Vec<&'a RawValue>>,
    #[serde(default)]
    meta: Option<Value>,
}

/// Each record of a page, built by `build`. A record's leaves (those `wanted` takes)
/// are read without its tree and only its root keys in `kept` are parsed whole, unless
/// it repeats a key (the tree keeps the last value at the first key's place): then its
/// tree is walked.
fn with_results(
    f: &ImportFile,
    kept: &[&str],
    wanted: Wanted<'_>,
    build: impl Fn(Result_<'_>, Option<String>) -> Result<Record, ImportError>,
) -> Result<Parsed, ImportError> {
    let page: Page<'_> = serde_json::from_slice(&f.bytes).map_err(|e| {
        if e.is_data() {
            f.field_err("results", format!("not an array of records: {e}"))
        } else {
            f.text_err(crate::snapshot::text::TextError::json(&e))
        }
    })?;
    let raws = page
        .results
        .ok_or_else(|| f.field_err("results", "missing: not an openFDA response"))?;
    let last_updated = page
        .meta
        .as_ref()
        .and_then(|m| m.pointer("/last_updated"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let mut out = Vec::with_capacity(raws.len());
    for (index, raw) in raws.into_iter().enumerate() {
        let (value, fields) =
            match json::leaves_streamed(raw.get().as_bytes(), kept, wanted, &mut |_, _, _| {}) {
                Ok(Some(s)) => (Value::Object(s.kept), s.fields),
                _ => {
                    let value: Value = serde_json::from_str(raw.get())
                        .map_err(|e| f.text_err(crate::snapshot::text::TextError::json(&e)))?;
                    let mut fields = Fields::new();
                    json::leaves_wanted(&value, "", wanted, &mut fields);
                    (value, fields)
                }
            };
        out.push(build(
            Result_ {
                value: &value,
                fields,
                raw,
                index,
            },
            last_updated.clone(),
        )?);
    }
    Ok(Parsed::Records(out))
}

fn openfda_facets(v: &Value) -> Facets {
    Facets {
        drug_names: strings_at(
            v,
            &[
                "/openfda/brand_name",
                "/openfda/generic_name",
                "/openfda/substance_name",
            ],
        ),
        organizations: strings_at(v, &["/openfda/manufacturer_name"]),
        pharm_classes: strings_at(v, &["/openfda/pharm_class_epc", "/openfda/pharm_class_moa"]),
        ..Facets::default()
    }
}

/// The root keys of a label that its record reads.
const LABEL_KEPT: [&str; 4] = [
    "set_id",
    "effective_time",
    "openfda",
    "indications_and_usage",
];
/// The root keys of an application that its record reads.
const DRUGSFDA_KEPT: [&str; 5] = [
    "application_number",
    "openfda",
    "products",
    "sponsor_name",
    "submissions",
];

pub fn parse_labels(f: &ImportFile, wanted: Wanted<'_>) -> Result<Parsed, ImportError> {
    with_results(f, &LABEL_KEPT, wanted, |r, last_updated| {
        let v = r.value;
        let set_id = v
            .get("set_id")
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .ok_or_else(|| {
                f.field_err(
                    &format!("results[{}].set_id", r.index),
                    "missing: a label needs its key",
                )
            })?;
        let mut facets = openfda_facets(v);
        facets.indication_text = strings_at(v, &["/indications_and_usage"]).join("\n");
        let title = strings_at(v, &["/openfda/brand_name", "/openfda/generic_name"])
            .into_iter()
            .next();
        Ok(f.record(Draft {
            key: set_id.to_string(),
            url: format!("https://dailymed.nlm.nih.gov/dailymed/lookup.cfm?setid={set_id}"),
            retrieved_at: last_updated,
            cutoff_date: v
                .get("effective_time")
                .and_then(Value::as_str)
                .and_then(compact_date),
            title,
            media_type: "application/json",
            raw: f.bytes.slice_ref(r.raw.get().as_bytes()),
            fields: r.fields,
            facets,
        }))
    })
}

pub fn parse_drugsfda(f: &ImportFile, wanted: Wanted<'_>) -> Result<Parsed, ImportError> {
    with_results(f, &DRUGSFDA_KEPT, wanted, |r, last_updated| {
        let v = r.value;
        let appl = v
            .get("application_number")
            .and_then(Value::as_str)
            .filter(|s| s.bytes().any(|b| b.is_ascii_digit()))
            .ok_or_else(|| {
                f.field_err(
                    &format!("results[{}].application_number", r.index),
                    "missing: an application needs its key",
                )
            })?;
        let digits: String = appl.chars().filter(char::is_ascii_digit).collect();
        let mut facets = openfda_facets(v);
        if let Some(products) = v.get("products").and_then(Value::as_array) {
            for p in products {
                facets.drug_names.extend(strings_at(p, &["/brand_name"]));
                if let Some(ais) = p.get("active_ingredients").and_then(Value::as_array) {
                    for ai in ais {
                        facets.drug_names.extend(strings_at(ai, &["/name"]));
                    }
                }
            }
        }
        facets
            .organizations
            .extend(strings_at(v, &["/sponsor_name"]));
        // The latest action date stated by the record is its version date.
        let cutoff = v
            .get("submissions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|s| s.get("submission_status_date").and_then(Value::as_str))
            .filter_map(compact_date)
            .max();
        let title = strings_at(v, &["/products/0/brand_name", "/openfda/brand_name"])
            .into_iter()
            .next();
        Ok(f.record(Draft {
            key: appl.to_string(),
            url: format!(
                "https://www.accessdata.fda.gov/scripts/cder/daf/index.cfm?event=overview.process&ApplNo={digits}"
            ),
            retrieved_at: last_updated,
            cutoff_date: cutoff,
            title,
            media_type: "application/json",
            raw: f.bytes.slice_ref(r.raw.get().as_bytes()),
            fields: r.fields,
            facets,
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Family;
    use crate::snapshot::import::{outcome, test_file};

    fn page_with(family: Family, body: &str, wanted: Wanted<'_>) -> Vec<Record> {
        let f = test_file(family, "x.json", body);
        let parsed = match family {
            Family::FdaLabel => parse_labels(&f, wanted),
            _ => parse_drugsfda(&f, wanted),
        };
        outcome(parsed).unwrap()
    }

    fn page(family: Family, body: &str) -> Vec<Record> {
        page_with(family, body, Wanted::All)
    }

    /// Keeping only the competitor rows' fields, streamed or walked, a record has its
    /// tree's leaves under those prefixes, and is otherwise the same record.
    #[test]
    fn records_keep_only_the_wanted_leaves() {
        let label = r#"{"set_id":"s-1","openfda":{"brand_name":["Zelno"]},"indications_and_usage":["For asthma."],"adverse_reactions":["Headache"],"boxed_warning":["{\"k\":[1]}"]}"#;
        let repeated = r#"{"set_id":"s-2","openfda":{"brand_name":["A"]},"openfda":{"brand_name":["B"]},"x":"y"}"#;
        let app = r#"{"application_number":"NDA021234","products":[{"brand_name":"Zelno"}],"submissions":[{"submission_status_date":"20200101"}],"application_docs":[{"url":"u"}]}"#;
        let wanted = Wanted::Under(&crate::lake::bundle::COMPETITOR_KEEP);
        for (family, raws) in [
            (Family::FdaLabel, vec![label, repeated]),
            (Family::Drugsfda, vec![app]),
        ] {
            let body = format!(r#"{{"results":[{}]}}"#, raws.join(","));
            let all = page(family, &body);
            let some = page_with(family, &body, wanted);
            for ((a, s), raw) in all.iter().zip(&some).zip(&raws) {
                let tree: Value = serde_json::from_str(raw).unwrap();
                let mut fields = Fields::new();
                json::leaves_wanted(&tree, "", wanted, &mut fields);
                assert_eq!(s.fields, fields, "{raw}");
                assert!(s.fields.len() < a.fields.len(), "{raw}");
                assert_eq!(
                    Record {
                        fields: s.fields.clone(),
                        ..a.clone()
                    },
                    *s
                );
            }
        }
        let locators: Vec<String> = page_with(
            Family::FdaLabel,
            &format!(r#"{{"results":[{label}]}}"#),
            wanted,
        )[0]
        .fields
        .iter()
        .map(|f| f.locator.to_string())
        .collect();
        assert_eq!(
            locators,
            [
                "/set_id",
                "/openfda/brand_name/0",
                "/indications_and_usage/0",
                "/boxed_warning/0!json/k/0"
            ]
        );
    }

    /// Each record's leaves are its tree's, streamed or (with a repeated key) walked,
    /// and its facets come from the keys kept whole.
    #[test]
    fn records_have_their_trees_leaves_and_facets_whether_streamed_or_not() {
        let label = r#"{"set_id":"s-1","effective_time":"20240102","openfda":{"brand_name":["Zelno"],"generic_name":["zelnorib"],"pharm_class_epc":["Kinase Inhibitor [EPC]"],"manufacturer_name":["Acme"]},"indications_and_usage":["Zelno is indicated for asthma."],"adverse_reactions":["Headache (12%)","{\"k\":[1]}"],"n":[1,2.5,-3]}"#;
        let repeated = r#"{"set_id":"s-2","openfda":{"brand_name":["A"]},"openfda":{"brand_name":["B"]},"x":"y"}"#;
        let body =
            format!(r#"{{"meta":{{"last_updated":"2024-05-01"}},"results":[{label},{repeated}]}}"#);
        let records = page(Family::FdaLabel, &body);
        for (r, raw) in records.iter().zip([label, repeated]) {
            let tree: Value = serde_json::from_str(raw).unwrap();
            let mut fields = Fields::new();
            json::leaves(&tree, "", &mut fields);
            assert_eq!(r.fields, fields, "{raw}");
            assert_eq!(&r.raw[..], raw.as_bytes());
        }
        assert_eq!(records[0].title.as_deref(), Some("Zelno"));
        assert_eq!(records[0].cutoff_date.as_deref(), Some("2024-01-02"));
        assert_eq!(records[0].facets.pharm_classes, ["Kinase Inhibitor [EPC]"]);
        assert_eq!(
            records[0].facets.indication_text,
            "Zelno is indicated for asthma."
        );
        assert_eq!(records[1].title.as_deref(), Some("B"));

        let app = r#"{"application_number":"NDA021234","sponsor_name":"Acme","products":[{"brand_name":"Zelno","active_ingredients":[{"name":"ZELNORIB"}]}],"submissions":[{"submission_status_date":"20200101"},{"submission_status_date":"20230405"}],"openfda":{"generic_name":["zelnorib"]}}"#;
        let records = page(Family::Drugsfda, &format!(r#"{{"results":[{app}]}}"#));
        let tree: Value = serde_json::from_str(app).unwrap();
        let mut fields = Fields::new();
        json::leaves(&tree, "", &mut fields);
        assert_eq!(records[0].fields, fields);
        assert_eq!(records[0].cutoff_date.as_deref(), Some("2023-04-05"));
        assert_eq!(
            records[0].facets.drug_names,
            ["zelnorib", "Zelno", "ZELNORIB"]
        );
        assert_eq!(records[0].facets.organizations, ["Acme"]);
    }
}
