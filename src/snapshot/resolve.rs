//! Resolution: which records belong to which asset, and what each family's status is.
//! A record is the asset's own (`subject`) when it names the asset (drug names, trial
//! hints, filer CIK, listed URLs); an approved-drug record that is not the asset's own
//! is a `competitor` when it shares a pharmacologic class with the asset's own labels
//! or its label's indications mention the asset's indication. Pure; no I/O.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rayon::prelude::*;

use serde::{Deserialize, Serialize};

use crate::domain::Asset;
use crate::domain::{Family, FamilyStatus, Record};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Subject,
    Competitor,
    /// A row of the snapshot-wide `sources` object, which holds every record in full.
    Source,
}

impl Role {
    /// The role a bundle row names (`subject`, `competitor` or `source`).
    pub fn parse(s: &str) -> Option<Role> {
        [Role::Subject, Role::Competitor, Role::Source]
            .into_iter()
            .find(|r| r.as_str() == s)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Subject => "subject",
            Role::Competitor => "competitor",
            Role::Source => "source",
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
    for w in s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        out.push_str(&w.to_lowercase());
        out.push(' ');
    }
    out
}

/// Whether any of `haystacks` contains any of `needles` as whole words.
#[cfg(test)]
fn mentions(haystacks: &[String], needles: &[String]) -> bool {
    let needles: Vec<String> = needles
        .iter()
        .map(|n| words(n))
        .filter(|n| n.trim().len() >= 3)
        .collect();
    haystacks.iter().any(|h| {
        let h = words(h);
        needles.iter().any(|n| h.contains(n.as_str()))
    })
}

/// Normalized text of every record plus a first-token index, built once per snapshot
/// so each asset's lookups touch only candidate records (linear, not assets x records).
/// Normalized token -> records holding it, in record order.
type Posting = HashMap<String, Vec<usize>>;

/// Which normalized field of a record a lookup searches.
#[derive(Clone, Copy)]
enum Where {
    Drug,
    Text,
    Title,
}

struct Index {
    drugs: Vec<Vec<String>>,
    text: Vec<String>,
    title: Vec<String>,
    by_drug: Posting,
    by_text: Posting,
    by_title: Posting,
}

fn tokens(normalized: &str) -> impl Iterator<Item = &str> {
    normalized.split(' ').filter(|t| !t.is_empty())
}

impl Index {
    /// Normalizes on every core, and builds the three postings side by side.
    fn new(records: &[Record]) -> Index {
        let drugs: Vec<Vec<String>> = records
            .par_iter()
            .map(|r| r.facets.drug_names.iter().map(|d| words(d)).collect())
            .collect();
        let text: Vec<String> = records
            .par_iter()
            .map(|r| words(&r.facets.indication_text))
            .collect();
        let title: Vec<String> = records
            .par_iter()
            .map(|r| words(r.title.as_deref().unwrap_or("")))
            .collect();
        fn post<'a>(items: impl Iterator<Item = (usize, &'a str)>) -> Posting {
            let mut m: Posting = HashMap::new();
            for (i, t) in items {
                // a token already seen costs no allocation
                match m.get_mut(t) {
                    Some(v) if v.last() == Some(&i) => {}
                    Some(v) => v.push(i),
                    None => {
                        m.insert(t.to_string(), vec![i]);
                    }
                }
            }
            m
        }
        let each = |all: &[String]| {
            post(
                all.iter()
                    .enumerate()
                    .flat_map(|(i, d)| tokens(d).map(move |t| (i, t))),
            )
        };
        let (by_drug, (by_text, by_title)) = rayon::join(
            || {
                post(drugs.iter().enumerate().flat_map(|(i, ds)| {
                    ds.iter().flat_map(move |d| tokens(d).map(move |t| (i, t)))
                }))
            },
            || rayon::join(|| each(&text), || each(&title)),
        );
        Index {
            drugs,
            text,
            title,
            by_drug,
            by_text,
            by_title,
        }
    }

    /// Records whose field (`drug`, `text` or `title`) mentions any needle as whole words.
    fn hits(&self, field: Where, needles: &[String]) -> BTreeSet<usize> {
        let posting = match field {
            Where::Drug => &self.by_drug,
            Where::Text => &self.by_text,
            Where::Title => &self.by_title,
        };
        let hay = |i: usize, n: &str| match field {
            Where::Drug => self.drugs[i].iter().any(|d| d.contains(n)),
            Where::Text => self.text[i].contains(n),
            Where::Title => self.title[i].contains(n),
        };
        let mut out = BTreeSet::new();
        for n in needles
            .iter()
            .map(|n| words(n))
            .filter(|n| n.trim().len() >= 3)
        {
            let Some(first) = tokens(&n).next() else {
                continue;
            };
            for &i in posting.get(first).map(Vec::as_slice).unwrap_or(&[]) {
                if hay(i, &n) {
                    out.insert(i);
                }
            }
        }
        out
    }
}

/// Per-asset lookups, computed once from the index.
struct Hits {
    drug: BTreeSet<usize>,
    text: BTreeSet<usize>,
    title: BTreeSet<usize>,
    indication: BTreeSet<usize>,
}

fn is_subject(asset: &Asset, i: usize, r: &Record, trial_ids: &BTreeSet<String>, h: &Hits) -> bool {
    let f = &r.facets;
    if f.assets.iter().any(|a| a == asset.id.as_str()) {
        return true;
    }
    match r.family {
        Family::Ctgov => f.nct_ids.iter().any(|n| trial_ids.contains(n)) || h.drug.contains(&i),
        Family::FdaLabel | Family::Drugsfda => h.drug.contains(&i),
        Family::Sec => asset.sponsor_cik.is_some() && f.cik == asset.sponsor_cik,
        Family::Pubmed => {
            f.nct_ids.iter().any(|n| trial_ids.contains(n))
                || h.drug.contains(&i)
                || h.text.contains(&i)
        }
        Family::Press => asset.press.contains(&r.url) || h.title.contains(&i),
        Family::Epi => asset.epi.contains(&r.url),
        Family::Icd10 => asset
            .icd10_terms()
            .iter()
            .any(|t| words(t) == words(&r.record_key)),
    }
}

/// Selects each asset's records. `records` must be in their canonical order.
pub fn resolve(assets: &[Asset], records: &[Record]) -> Vec<Selection> {
    let index = Index::new(records);
    assets
        .par_iter()
        .map(|a| resolve_one(a, records, &index))
        .collect()
}

fn resolve_one(asset: &Asset, records: &[Record], index: &Index) -> Selection {
    let indication: Vec<String> = asset.indication.iter().cloned().collect();
    let h = Hits {
        drug: index.hits(Where::Drug, &asset.names),
        text: index.hits(Where::Text, &asset.names),
        title: index.hits(Where::Title, &asset.names),
        indication: index.hits(Where::Text, &indication),
    };
    // Trials named in the portfolio or found by drug name; PubMed links through both.
    let mut trial_ids: BTreeSet<String> = asset.trials.iter().cloned().collect();
    for &i in &h.drug {
        if records[i].family == Family::Ctgov {
            trial_ids.extend(records[i].facets.nct_ids.iter().cloned());
        }
    }
    let mut subject = BTreeSet::new();
    // Only records that can match at all: hits, listed URLs, explicit assets, trials, CIK.
    for (i, r) in records.iter().enumerate() {
        if is_subject(asset, i, r, &trial_ids, &h) {
            subject.insert(i);
        }
    }
    let own_classes: BTreeSet<&String> = subject
        .iter()
        .filter(|i| matches!(records[**i].family, Family::FdaLabel | Family::Drugsfda))
        .flat_map(|i| records[*i].facets.pharm_classes.iter())
        .collect();
    let mut members = Vec::new();
    for (i, r) in records.iter().enumerate() {
        if subject.contains(&i) {
            members.push((Role::Subject, i));
        } else if matches!(r.family, Family::FdaLabel | Family::Drugsfda)
            && (r
                .facets
                .pharm_classes
                .iter()
                .any(|c| own_classes.contains(c))
                || h.indication.contains(&i))
        {
            members.push((Role::Competitor, i));
        }
    }
    let families = Family::ALL
        .into_iter()
        .map(|fam| (fam, family_outcome(asset, fam, records, &members)))
        .collect();
    Selection { members, families }
}

fn family_outcome(
    asset: &Asset,
    fam: Family,
    records: &[Record],
    members: &[(Role, usize)],
) -> FamilyOutcome {
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
            detail = format!(
                "{} named in the portfolio, not in the snapshot",
                asset.trials.join(", ")
            );
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
        assert!(mentions(
            &["Certolizumab Pegol 200 mg".into()],
            &["certolizumab pegol".into()]
        ));
    }
}
