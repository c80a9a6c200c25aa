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
use crate::snapshot::text::{TextError, json, xml};

pub fn parse(f: &ImportFile) -> Result<Parsed, ImportError> {
    let first = f
        .bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace() && **b != 0xEF && **b != 0xBB && **b != 0xBF);
    if first == Some(&b'<') {
        return parse_legacy_xml(f).map(|r| Parsed::Records(vec![r]));
    }
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
            out.push(v2_study(
                f,
                study,
                f.bytes.slice_ref(raw.get().as_bytes()),
                &format!("studies[{i}]."),
            )?);
        }
        return Ok(Parsed::Records(out));
    }
    if doc.get("protocolSection").is_some() {
        return Ok(Parsed::Records(vec![v2_study(
            f,
            &doc,
            f.bytes.clone(),
            "",
        )?]));
    }
    Err(f.field_err(
        "protocolSection",
        "neither a v2 study (protocolSection) nor a search page (studies[])",
    ))
}

fn v2_study(
    f: &ImportFile,
    study: &Value,
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
        .unwrap_or_else(|| study.get("resultsSection").is_some());
    let cutoff = study
        .pointer("/derivedSection/miscInfoModule/versionHolder")
        .or_else(|| study.pointer("/protocolSection/statusModule/lastUpdatePostDateStruct/date"))
        .and_then(Value::as_str)
        .and_then(loose_date);
    let mut fields = Fields::new();
    json::leaves(study, "", &mut fields);
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

fn parse_legacy_xml(f: &ImportFile) -> Result<crate::domain::Record, ImportError> {
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
        fields: leaves.into_iter().map(xml::XmlLeaf::into_field).collect(),
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
