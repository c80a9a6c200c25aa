//! ClinicalTrials.gov: API v2 study JSON (one study, or a search page with
//! `studies[]`, each study its own record with its exact bytes) and legacy
//! `clinical_study` XML. The data version (`versionHolder`, else the last update
//! posted) is the record's cutoff date.

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::{Draft, ImportError, ImportFile, Parsed, loose_date, strings_at};
use crate::domain::is_nct_id;
use crate::domain::{Facets, Fields};
use crate::snapshot::text::{TextError, Wanted, json, xml};

/// `wanted`: the text fields a study's record keeps.
pub fn parse(f: &ImportFile, wanted: Wanted<'_>) -> Result<Parsed, ImportError> {
    let first = f
        .bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace() && **b != 0xEF && **b != 0xBB && **b != 0xBF);
    if first == Some(&b'<') {
        return parse_legacy_xml(f, wanted).map(|r| Parsed::Records(vec![r]));
    }
    if let Some(parsed) = parse_streamed(f, wanted) {
        return parsed;
    }
    parse_tree(f, wanted)
}

/// The root keys of a v2 study that its facets read: kept whole when its leaves are
/// streamed. `resultsSection`, most of a study with results, is only walked.
const STUDY_KEPT: [&str; 3] = ["protocolSection", "derivedSection", "hasResults"];

/// [`parse`] of v2 JSON, each study's leaves read without its tree: `None` when the
/// tree must decide (bytes that are not one JSON object, a repeated key, a page whose
/// `studies` is not an array, neither kind), which then gives the same records or the
/// same error.
fn parse_streamed(f: &ImportFile, wanted: Wanted<'_>) -> Option<Result<Parsed, ImportError>> {
    #[derive(Deserialize)]
    struct Root<'a> {
        #[serde(borrow)]
        studies: Option<&'a RawValue>,
        #[serde(rename = "protocolSection")]
        protocol: Option<serde::de::IgnoredAny>,
    }
    let root: Root<'_> = serde_json::from_slice(&f.bytes).ok()?;
    if let Some(studies) = root.studies {
        let studies: Vec<&RawValue> = serde_json::from_str(studies.get()).ok()?;
        let mut out = Vec::with_capacity(studies.len());
        for (i, raw) in studies.iter().enumerate() {
            let raw = f.bytes.slice_ref(raw.get().as_bytes());
            match study_streamed(f, raw, &format!("studies[{i}]."), wanted)? {
                Ok(r) => out.push(r),
                Err(e) => return Some(Err(e)),
            }
        }
        return Some(Ok(Parsed::Records(out)));
    }
    root.protocol?;
    Some(study_streamed(f, f.bytes.clone(), "", wanted)?.map(|r| Parsed::Records(vec![r])))
}

fn study_streamed(
    f: &ImportFile,
    raw: bytes::Bytes,
    at: &str,
    wanted: Wanted<'_>,
) -> Option<Result<crate::domain::Record, ImportError>> {
    let s = json::leaves_streamed(&raw, &STUDY_KEPT, wanted, &mut |_, _, _| {}).ok()??;
    let results = s.top_keys.iter().any(|k| k == "resultsSection");
    Some(v2_study(
        f,
        &Value::Object(s.kept),
        results,
        s.fields,
        raw,
        at,
    ))
}

/// [`parse`] of v2 JSON by the parsed tree.
fn parse_tree(f: &ImportFile, wanted: Wanted<'_>) -> Result<Parsed, ImportError> {
    let doc = f.json()?;
    if doc.get("studies").is_some() {
        #[derive(Deserialize)]
        struct Page<'a> {
            #[serde(borrow)]
            studies: Vec<&'a RawValue>,
        }
        let page: Page<'_> = serde_json::from_slice(&f.bytes)
            .map_err(|e| f.field_err("studies", format!("not an array of studies: {e}")))?;
        let mut out = Vec::with_capacity(page.studies.len());
        for (i, raw) in page.studies.iter().enumerate() {
            let study = &doc["studies"][i];
            out.push(v2_study_tree(
                f,
                study,
                f.bytes.slice_ref(raw.get().as_bytes()),
                &format!("studies[{i}]."),
                wanted,
            )?);
        }
        return Ok(Parsed::Records(out));
    }
    if doc.get("protocolSection").is_some() {
        return Ok(Parsed::Records(vec![v2_study_tree(
            f,
            &doc,
            f.bytes.clone(),
            "",
            wanted,
        )?]));
    }
    Err(f.field_err(
        "protocolSection",
        "neither a v2 study (protocolSection) nor a search page (studies[])",
    ))
}

fn v2_study_tree(
    f: &ImportFile,
    study: &Value,
    raw: bytes::Bytes,
    at: &str,
    wanted: Wanted<'_>,
) -> Result<crate::domain::Record, ImportError> {
    let mut fields = Fields::new();
    json::leaves_wanted(study, "", wanted, &mut fields);
    let results = study.get("resultsSection").is_some();
    v2_study(f, study, results, fields, raw, at)
}

/// A v2 study's record: its facets from `study` (at least its [`STUDY_KEPT`] keys),
/// whether it has a `resultsSection`, and its leaves.
fn v2_study(
    f: &ImportFile,
    study: &Value,
    results_section: bool,
    fields: Fields,
    raw: bytes::Bytes,
    at: &str,
) -> Result<crate::domain::Record, ImportError> {
    let nct = study
        .pointer("/protocolSection/identificationModule/nctId")
        .and_then(Value::as_str)
        .filter(|s| is_nct_id(s))
        .ok_or_else(|| {
            f.field_err(
                &format!("{at}protocolSection.identificationModule.nctId"),
                "missing or not an NCT id: a study needs its key",
            )
        })?
        .to_ascii_uppercase();
    let has_results = study
        .get("hasResults")
        .and_then(Value::as_bool)
        .unwrap_or(results_section);
    let cutoff = study
        .pointer("/derivedSection/miscInfoModule/versionHolder")
        .or_else(|| study.pointer("/protocolSection/statusModule/lastUpdatePostDateStruct/date"))
        .and_then(Value::as_str)
        .and_then(loose_date);
    let mut drug_names = Vec::new();
    if let Some(items) = study
        .pointer("/protocolSection/armsInterventionsModule/interventions")
        .and_then(Value::as_array)
    {
        for i in items {
            drug_names.extend(strings_at(i, &["/name", "/otherNames"]));
        }
    }
    let mut organizations = strings_at(
        study,
        &["/protocolSection/sponsorCollaboratorsModule/leadSponsor/name"],
    );
    if let Some(cs) = study
        .pointer("/protocolSection/sponsorCollaboratorsModule/collaborators")
        .and_then(Value::as_array)
    {
        for c in cs {
            organizations.extend(strings_at(c, &["/name"]));
        }
    }
    let conditions = strings_at(
        study,
        &[
            "/protocolSection/conditionsModule/conditions",
            "/protocolSection/conditionsModule/keywords",
        ],
    );
    Ok(f.record(Draft {
        url: format!("https://clinicaltrials.gov/study/{nct}"),
        title: strings_at(study, &["/protocolSection/identificationModule/briefTitle"]).pop(),
        key: nct.clone(),
        retrieved_at: None,
        cutoff_date: cutoff,
        media_type: "application/json",
        raw,
        fields,
        facets: Facets {
            drug_names,
            organizations,
            nct_ids: vec![nct],
            conditions,
            has_results: Some(has_results),
            ..Facets::default()
        },
    }))
}

fn parse_legacy_xml(
    f: &ImportFile,
    wanted: Wanted<'_>,
) -> Result<crate::domain::Record, ImportError> {
    let leaves = xml::leaves(&f.bytes).map_err(|e| f.text_err(e))?;
    let find = |path: &str| -> Vec<String> {
        leaves
            .iter()
            .filter(|l| l.path == path)
            .map(|l| l.text.trim().to_string())
            .collect()
    };
    if leaves
        .first()
        .is_some_and(|l| !l.path.starts_with("/clinical_study"))
    {
        return Err(f.text_err(TextError::Xml {
            position: 0,
            message: "root element is not <clinical_study>".into(),
        }));
    }
    let nct = find("/clinical_study/id_info/nct_id")
        .into_iter()
        .find(|s| is_nct_id(s))
        .ok_or_else(|| {
            f.field_err(
                "clinical_study/id_info/nct_id",
                "missing or not an NCT id: a study needs its key",
            )
        })?
        .to_ascii_uppercase();
    let has_results = leaves
        .iter()
        .any(|l| l.path.starts_with("/clinical_study/clinical_results/"));
    let cutoff = find("/clinical_study/last_update_posted")
        .into_iter()
        .chain(find("/clinical_study/lastchanged_date"))
        .find_map(|s| loose_date(&s));
    let mut drug_names = find("/clinical_study/intervention/intervention_name");
    drug_names.extend(find("/clinical_study/intervention/other_name"));
    let mut organizations = find("/clinical_study/sponsors/lead_sponsor/agency");
    organizations.extend(find("/clinical_study/sponsors/collaborator/agency"));
    let mut conditions = find("/clinical_study/condition");
    conditions.extend(find("/clinical_study/keyword"));
    let title = find("/clinical_study/brief_title").into_iter().next();
    Ok(f.record(Draft {
        url: format!("https://clinicaltrials.gov/study/{nct}"),
        key: nct.clone(),
        title,
        retrieved_at: None,
        cutoff_date: cutoff,
        media_type: "application/xml",
        raw: f.bytes.clone(),
        fields: leaves
            .into_iter()
            .map(xml::XmlLeaf::into_field)
            .filter(|tf| wanted.takes(&tf.locator))
            .collect(),
        facets: Facets {
            drug_names,
            organizations,
            nct_ids: vec![nct],
            conditions,
            has_results: Some(has_results),
            ..Facets::default()
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Family, Record};
    use crate::snapshot::import::{outcome as records, test_file};

    /// Streamed and by the tree, every document gives the same records or the same error.
    #[test]
    fn streamed_studies_give_the_records_and_errors_of_the_tree() {
        let study = |nct: &str, tail: &str| {
            format!(
                r#"{{"protocolSection":{{"identificationModule":{{"nctId":"{nct}","briefTitle":"A trial"}},"statusModule":{{"lastUpdatePostDateStruct":{{"date":"2024-03"}}}},"sponsorCollaboratorsModule":{{"leadSponsor":{{"name":"Acme"}},"collaborators":[{{"name":"Beta"}}]}},"conditionsModule":{{"conditions":["Asthma"],"keywords":["lung"]}},"armsInterventionsModule":{{"interventions":[{{"name":"zelnorib","otherNames":["ZN-1"]}}]}}}}{tail}}}"#
            )
        };
        let results = r#","resultsSection":{"outcomeMeasuresModule":{"outcomeMeasures":[{"title":"ORR","classes":[{"categories":[{"measurements":[{"groupId":"OG000","value":"67.5"}]}]}]}]}}"#;
        let docs = [
            study("NCT01234567", results),
            study(
                "nct01234567",
                &format!(
                    r#"{results},"hasResults":false,"derivedSection":{{"miscInfoModule":{{"versionHolder":"2024-05-06"}}}}"#
                ),
            ),
            format!(
                r#"{{"totalCount":2,"studies":[{},{}],"nextPageToken":"x"}}"#,
                study("NCT01234567", results),
                study("NCT07654321", "")
            ),
            // a repeated key: the tree keeps the last value at the first key's place
            study("NCT01234567", r#","hasResults":true,"hasResults":false"#),
            // errors: a repeated page key (the page reader refuses it), no NCT id (in the
            // second study of a page), studies not an array, neither kind, not JSON, not
            // an object
            format!(
                r#"{{"studies":[{}],"studies":[]}}"#,
                study("NCT01234567", "")
            ),
            format!(
                r#"{{"studies":[{},{}]}}"#,
                study("NCT01234567", ""),
                study("X", "")
            ),
            r#"{"studies":null}"#.to_string(),
            r#"{"other":1}"#.to_string(),
            r#"{"protocolSection":"#.to_string(),
            "[1]".to_string(),
        ];
        for (i, body) in docs.iter().enumerate() {
            let f = test_file(Family::Ctgov, "ctgov/x.json", body);
            for wanted in [Wanted::All, Wanted::Nothing] {
                let streamed = records(parse(&f, wanted));
                assert_eq!(
                    streamed,
                    records(parse_tree(&f, wanted)),
                    "document {i}: {body}"
                );
                assert_eq!(streamed.is_ok(), i < 4, "document {i}: {streamed:?}");
            }
        }
        let f = test_file(Family::Ctgov, "ctgov/x.json", &docs[1]);
        let r = &records(parse(&f, Wanted::All)).unwrap()[0];
        assert_eq!(r.record_key, "NCT01234567");
        assert_eq!(r.cutoff_date.as_deref(), Some("2024-05-06"));
        assert_eq!(r.facets.has_results, Some(false));
        assert_eq!(r.facets.drug_names, ["zelnorib", "ZN-1"]);
        assert!(r.fields.iter().any(|f| f.text == "67.5"));
        // without its fields, the same record otherwise
        let bare = &records(parse(&f, Wanted::Nothing)).unwrap()[0];
        assert!(bare.fields.is_empty());
        assert_eq!(
            Record {
                fields: Fields::new(),
                ..r.clone()
            },
            *bare
        );
    }
}
