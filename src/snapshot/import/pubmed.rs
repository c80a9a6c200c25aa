//! PubMed efetch XML: each `PubmedArticle` of a `PubmedArticleSet` is one record
//! (its exact bytes), keyed by PMID. NCT accession numbers, substances and MeSH
//! headings feed resolution; the electronic article date (else the issue date) is the
//! cutoff.

use super::{Draft, ImportError, ImportFile, Parsed, loose_date};
use crate::domain::Facets;
use crate::domain::is_nct_id;
use crate::snapshot::text::{TextError, xml};

pub fn parse(f: &ImportFile) -> Result<Parsed, ImportError> {
    // Validate the whole document first so a truncated file is an error, not fewer records.
    let all = xml::leaves(&f.bytes).map_err(|e| f.text_err(e))?;
    let root_ok = all.first().is_none_or(|l| {
        l.path.starts_with("/PubmedArticleSet") || l.path.starts_with("/PubmedArticle/")
    });
    if !root_ok {
        return Err(f.text_err(TextError::Xml {
            position: 0,
            message: "root element is neither <PubmedArticleSet> nor <PubmedArticle>".into(),
        }));
    }
    let spans = if all
        .first()
        .is_some_and(|l| l.path.starts_with("/PubmedArticle/"))
    {
        std::iter::once(0..f.bytes.len()).collect()
    } else {
        xml::child_spans(&f.bytes, "PubmedArticle").map_err(|e| f.text_err(e))?
    };
    let mut out = Vec::with_capacity(spans.len());
    for (i, span) in spans.into_iter().enumerate() {
        let raw = f.bytes.slice(span);
        let leaves = xml::leaves(&raw).map_err(|e| f.text_err(e))?;
        let find = |suffix: &str| -> Vec<String> {
            leaves
                .iter()
                .filter(|l| l.path.ends_with(suffix))
                .map(|l| l.text.trim().to_string())
                .collect()
        };
        let pmid = find("/PubmedArticle/MedlineCitation/PMID")
            .into_iter()
            .find(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| {
                f.field_err(
                    &format!("PubmedArticle[{}]/MedlineCitation/PMID", i + 1),
                    "missing: an article needs its key",
                )
            })?;
        let date = |prefix: &str| -> Option<String> {
            let y = find(&format!("{prefix}/Year")).into_iter().next()?;
            let m = find(&format!("{prefix}/Month"))
                .into_iter()
                .next()
                .unwrap_or_else(|| "01".into());
            let d = find(&format!("{prefix}/Day"))
                .into_iter()
                .next()
                .unwrap_or_else(|| "01".into());
            let m = if m.bytes().all(|b| b.is_ascii_digit()) {
                format!("{m:0>2}")
            } else {
                m
            };
            loose_date(&format!("{y}-{m}-{d:0>2}")).or_else(|| loose_date(&format!("{m} {d}, {y}")))
        };
        let cutoff = date("/Article/ArticleDate").or_else(|| date("/JournalIssue/PubDate"));
        let nct_ids: Vec<String> = find("/AccessionNumber")
            .into_iter()
            .filter(|a| is_nct_id(a))
            .collect();
        let mut abstract_text = find("/Abstract/AbstractText");
        let title = find("/Article/ArticleTitle").into_iter().next();
        abstract_text.extend(title.clone());
        out.push(f.record(Draft {
            url: format!("https://pubmed.ncbi.nlm.nih.gov/{pmid}/"),
            key: pmid,
            retrieved_at: None,
            cutoff_date: cutoff,
            title,
            media_type: "application/xml",
            raw,
            facets: Facets {
                drug_names: find("/Chemical/NameOfSubstance"),
                nct_ids,
                conditions: find("/MeshHeading/DescriptorName"),
                indication_text: abstract_text.join("\n"),
                organizations: find("/Grant/Agency"),
                ..Facets::default()
            },
            fields: leaves.into_iter().map(xml::XmlLeaf::into_field).collect(),
        }));
    }
    Ok(Parsed::Records(out))
}
