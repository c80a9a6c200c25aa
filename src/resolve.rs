//! Resolution: which records belong to which asset, and what each family's status is.
//! A record is the asset's own (`subject`) when it names the asset (drug names, trial
//! hints, filer CIK, listed URLs); an approved-drug record that is not the asset's own
//! is a `competitor` when it shares a pharmacologic class with the asset's own labels
//! or its label's indications mention the asset's indication. Pure; no I/O.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::model::{Family, FamilyStatus, Record};
use crate::portfolio::Asset;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Subject,
    Competitor,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Subject => "subject",
            Role::Competitor => "competitor",
        }
    }
}

/// A family's outcome for one asset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FamilyOutcome {
    pub status: FamilyStatus,
    /// The asset's own records of this family.
    pub records: usize,
    pub detail: String,
}

/// One asset's selection: indexes into the record list, in record order.
#[derive(Clone, Debug)]
pub struct Selection {
    pub members: Vec<(Role, usize)>,
    pub families: BTreeMap<Family, FamilyOutcome>,
}

/// Lower-case words of `s`, joined by single spaces and padded, for whole-word search.
fn words(s: &str) -> String {
    let mut out = String::from(" ");
    for w in s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        out.push_str(&w.to_lowercase());
        out.push(' ');
    }
    out
}

/// Whether any of `haystacks` contains any of `needles` as whole words.
fn mentions(haystacks: &[String], needles: &[String]) -> bool {
    let needles: Vec<String> = needles.iter().map(|n| words(n)).filter(|n| n.trim().len() >= 3).collect();
    haystacks.iter().any(|h| {
        let h = words(h);
        needles.iter().any(|n| h.contains(n.as_str()))
    })
}

fn is_subject(asset: &Asset, r: &Record, trial_ids: &BTreeSet<String>) -> bool {
    let f = &r.facets;
    if f.assets.iter().any(|a| a == asset.id.as_str()) {
        return true;
    }
    match r.family {
        Family::Ctgov => {
            f.nct_ids.iter().any(|n| trial_ids.contains(n)) || mentions(&f.drug_names, &asset.names)
        }
        Family::FdaLabel | Family::Drugsfda => mentions(&f.drug_names, &asset.names),
        Family::Sec => asset.sponsor_cik.is_some() && f.cik == asset.sponsor_cik,
        Family::Pubmed => {
            f.nct_ids.iter().any(|n| trial_ids.contains(n))
                || mentions(&f.drug_names, &asset.names)
                || mentions(std::slice::from_ref(&f.indication_text), &asset.names)
        }
        Family::Press => {
            asset.press.contains(&r.url) || mentions(&r.title.iter().cloned().collect::<Vec<_>>(), &asset.names)
        }
        Family::Epi => asset.epi.contains(&r.url),
        Family::Icd10 => asset
            .icd10_terms()
            .iter()
            .any(|t| words(t) == words(&r.record_key)),
    }
}

/// Selects each asset's records. `records` must be in their canonical order.
pub fn resolve(assets: &[Asset], records: &[Record]) -> Vec<Selection> {
    assets.iter().map(|a| resolve_one(a, records)).collect()
}

fn resolve_one(asset: &Asset, records: &[Record]) -> Selection {
    // Trials named in the portfolio or found by drug name; PubMed links through both.
    let mut trial_ids: BTreeSet<String> = asset.trials.iter().cloned().collect();
    for r in records.iter().filter(|r| r.family == Family::Ctgov) {
        if mentions(&r.facets.drug_names, &asset.names) {
            trial_ids.extend(r.facets.nct_ids.iter().cloned());
        }
    }
    let subject: Vec<bool> = records.iter().map(|r| is_subject(asset, r, &trial_ids)).collect();
    let own_classes: Vec<String> = records
        .iter()
        .zip(&subject)
        .filter(|(r, s)| **s && matches!(r.family, Family::FdaLabel | Family::Drugsfda))
        .flat_map(|(r, _)| r.facets.pharm_classes.iter().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let indication: Vec<String> = asset.indication.iter().cloned().collect();
    let mut members = Vec::new();
    for (i, r) in records.iter().enumerate() {
        if subject[i] {
            members.push((Role::Subject, i));
        } else if matches!(r.family, Family::FdaLabel | Family::Drugsfda) {
            let shares_class = r.facets.pharm_classes.iter().any(|c| own_classes.contains(c));
            let shares_indication = mentions(std::slice::from_ref(&r.facets.indication_text), &indication);
            if shares_class || shares_indication {
                members.push((Role::Competitor, i));
            }
        }
    }
    let families = Family::ALL
        .into_iter()
        .map(|fam| (fam, family_outcome(asset, fam, records, &members)))
        .collect();
    Selection { members, families }
}

fn family_outcome(asset: &Asset, fam: Family, records: &[Record], members: &[(Role, usize)]) -> FamilyOutcome {
    let own: Vec<&Record> = members
        .iter()
        .filter(|(role, i)| *role == Role::Subject && records[*i].family == fam)
        .map(|(_, i)| &records[*i])
        .collect();
    let n = own.len();
    if fam == Family::Sec && asset.sponsor_cik.is_none() {
        return FamilyOutcome {
            status: FamilyStatus::Skipped,
            records: n,
            detail: "no sponsor_cik in the portfolio: no SEC filer to look up".into(),
        };
    }
    if n == 0 {
        let mut detail = format!("no {fam} record of this asset in the snapshot");
        if fam == Family::Ctgov && !asset.trials.is_empty() {
            detail = format!("{} named in the portfolio, not in the snapshot", asset.trials.join(", "));
        }
        return FamilyOutcome {
            status: FamilyStatus::SourceEmpty,
            records: 0,
            detail,
        };
    }
    if fam == Family::Ctgov && own.iter().all(|r| r.facets.has_results == Some(false)) {
        let ids: Vec<&str> = own.iter().map(|r| r.record_key.as_str()).collect();
        return FamilyOutcome {
            status: FamilyStatus::NotYetPublished,
            records: n,
            detail: format!("no posted results: {}", ids.join(", ")),
        };
    }
    FamilyOutcome {
        status: FamilyStatus::Ok,
        records: n,
        detail: format!("{n} record{}", if n == 1 { "" } else { "s" }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_word_mentions_only() {
        let h = vec!["BICTEGRAVIR SODIUM, EMTRICITABINE, AND TENOFOVIR".to_string()];
        assert!(mentions(&h, &["emtricitabine".into()]));
        assert!(!mentions(&h, &["citabine".into()]));
        // Names under three characters never match on their own.
        assert!(!mentions(&["AB".to_string()], &["ab".into()]));
        assert!(mentions(&["Certolizumab Pegol 200 mg".into()], &["certolizumab pegol".into()]));
    }
}
