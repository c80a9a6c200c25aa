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
    /// Records by the exact values [`is_subject`] and the competitor test compare:
    /// what an asset can be matched on besides its names.
    keys: Keys,
}

/// Exact-value postings: each maps a value to the records holding it, in record order.
struct Keys {
    asset: Posting,
    nct: Posting,
    cik: Posting,
    url: Posting,
    icd10: Posting,
    /// pharmacologic classes of approved-drug records (labels and applications)
    class: Posting,
}

/// The postings of `items`, (record, key) pairs in record order.
fn post<S: AsRef<str>>(items: impl Iterator<Item = (usize, S)>) -> Posting {
    let mut m: Posting = HashMap::new();
    for (i, t) in items {
        let t = t.as_ref();
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

impl Keys {
    fn new(records: &[Record]) -> Keys {
        let all = || records.iter().enumerate();
        let each = |values: fn(&Record) -> &[String]| {
            post(all().flat_map(move |(i, r)| values(r).iter().map(move |v| (i, v))))
        };
        Keys {
            asset: each(|r| &r.facets.assets),
            nct: each(|r| &r.facets.nct_ids),
            cik: post(all().filter_map(|(i, r)| r.facets.cik.as_ref().map(|c| (i, c)))),
            url: post(all().map(|(i, r)| (i, &r.url))),
            icd10: post(
                all()
                    .filter(|(_, r)| r.family == Family::Icd10)
                    .map(|(i, r)| (i, words(&r.record_key))),
            ),
            class: post(
                all()
                    .filter(|(_, r)| approved(r))
                    .flat_map(|(i, r)| r.facets.pharm_classes.iter().map(move |c| (i, c))),
            ),
        }
    }

    /// The records `m` holds under any of `values`.
    fn under<'a>(
        m: &'a Posting,
        values: impl IntoIterator<Item = &'a str>,
    ) -> impl Iterator<Item = usize> {
        values
            .into_iter()
            .filter_map(move |v| m.get(v))
            .flatten()
            .copied()
    }
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
        let each = |all: &[String]| {
            post(
                all.iter()
                    .enumerate()
                    .flat_map(|(i, d)| tokens(d).map(move |t| (i, t))),
            )
        };
        let ((by_drug, keys), (by_text, by_title)) = rayon::join(
            || {
                rayon::join(
                    || {
                        post(drugs.iter().enumerate().flat_map(|(i, ds)| {
                            ds.iter().flat_map(move |d| tokens(d).map(move |t| (i, t)))
                        }))
                    },
                    || Keys::new(records),
                )
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
            keys,
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
    let (h, trial_ids) = named_in(asset, records, index);
    let members = members_of(asset, records, index, &h, &trial_ids);
    let families = Family::ALL
        .into_iter()
        .map(|fam| (fam, family_outcome(asset, fam, records, &members)))
        .collect();
    Selection { members, families }
}

/// The records naming the asset or its indication, and its trials: those named in the
/// portfolio and those of the trials found by drug name.
fn named_in(asset: &Asset, records: &[Record], index: &Index) -> (Hits, BTreeSet<String>) {
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
    (h, trial_ids)
}

/// The asset's members, in record order: its own records ([`is_subject`]), then the
/// approved-drug records sharing a class with its own labels or naming its indication.
fn members_of(
    asset: &Asset,
    records: &[Record],
    index: &Index,
    h: &Hits,
    trial_ids: &BTreeSet<String>,
) -> Vec<(Role, usize)> {
    // Only records that can match at all are tested: name hits, and the records holding
    // the asset's id, trials, CIK, listed URLs or ICD-10 terms. Every record was tested
    // for every asset before: at 10,000 synthetic assets, 430 million tests.
    let k = &index.keys;
    let icd10: Vec<String> = asset.icd10_terms().iter().map(|t| words(t)).collect();
    let mut candidates: Vec<usize> = h
        .drug
        .iter()
        .chain(&h.text)
        .chain(&h.title)
        .copied()
        .chain(Keys::under(&k.asset, [asset.id.as_str()]))
        .chain(Keys::under(&k.nct, trial_ids.iter().map(String::as_str)))
        .chain(Keys::under(&k.cik, asset.sponsor_cik.as_deref()))
        .chain(Keys::under(
            &k.url,
            asset.press.iter().chain(&asset.epi).map(String::as_str),
        ))
        .chain(Keys::under(&k.icd10, icd10.iter().map(String::as_str)))
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    let subject: BTreeSet<usize> = candidates
        .into_iter()
        .filter(|&i| is_subject(asset, i, &records[i], trial_ids, h))
        .collect();
    let own_classes = classes_of(&subject, records);
    let mut competitors: Vec<usize> = Keys::under(&k.class, own_classes.iter().map(|c| c.as_str()))
        .chain(h.indication.iter().copied())
        .filter(|i| !subject.contains(i) && approved(&records[*i]))
        .collect();
    competitors.sort_unstable();
    competitors.dedup();
    // in record order, as the members of a selection are
    let mut members: Vec<(Role, usize)> = subject
        .iter()
        .map(|&i| (Role::Subject, i))
        .chain(competitors.into_iter().map(|i| (Role::Competitor, i)))
        .collect();
    members.sort_unstable_by_key(|(_, i)| *i);
    members
}

/// Whether `r` is an approved-drug record (a label or an application): the records a
/// competitor can be.
fn approved(r: &Record) -> bool {
    matches!(r.family, Family::FdaLabel | Family::Drugsfda)
}

/// The pharmacologic classes of the approved-drug records among `own`.
fn classes_of<'r>(own: &BTreeSet<usize>, records: &'r [Record]) -> BTreeSet<&'r String> {
    own.iter()
        .filter(|i| approved(&records[**i]))
        .flat_map(|i| records[*i].facets.pharm_classes.iter())
        .collect()
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
    use crate::domain::{Facets, Fields, Portfolio};
    use proptest::prelude::*;

    /// The members by definition: every record tested against the asset.
    fn scanned(
        asset: &Asset,
        records: &[Record],
        h: &Hits,
        trial_ids: &BTreeSet<String>,
    ) -> Vec<(Role, usize)> {
        let subject: BTreeSet<usize> = (0..records.len())
            .filter(|&i| is_subject(asset, i, &records[i], trial_ids, h))
            .collect();
        let own_classes = classes_of(&subject, records);
        let mut members = Vec::new();
        for (i, r) in records.iter().enumerate() {
            if subject.contains(&i) {
                members.push((Role::Subject, i));
            } else if approved(r)
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
        members
    }

    /// A record of `family` whose every facet is picked from a small pool by `pick`,
    /// so that records and assets share names, trials, filers, URLs and classes often.
    fn pooled(family: Family, pick: &[u8; 8]) -> Record {
        let of = |pool: &[&str], k: u8| pool[usize::from(k) % pool.len()].to_string();
        let some = |pool: &[&str], k: u8| (k % 3 != 0).then(|| of(pool, k / 3));
        let names = ["alphamab", "betacept", "gammazole", "deltanib"];
        let key = if family == Family::Icd10 {
            of(&["Plaque psoriasis", "Asthma", "Gout"], pick[0])
        } else {
            format!("K{}", pick[0])
        };
        Record {
            family,
            record_key: key,
            url: of(
                &[
                    "https://a.example/1",
                    "https://a.example/2",
                    "https://b.example/3",
                ],
                pick[1],
            ),
            retrieved_at: None,
            cutoff_date: None,
            title: some(&["Alphamab wins", "Gammazole data", "Other news"], pick[2]),
            media_type: "application/json",
            content_sha256: format!("{:064}", pick[0]),
            raw: Vec::new().into(),
            fields: Fields::new(),
            facets: Facets {
                drug_names: some(&names, pick[3]).into_iter().collect(),
                nct_ids: some(&["NCT00000001", "NCT00000002", "NCT00000003"], pick[4])
                    .into_iter()
                    .collect(),
                pharm_classes: some(&["TNF blocker [EPC]", "Kinase inhibitor [EPC]"], pick[5])
                    .into_iter()
                    .collect(),
                indication_text: of(&["plaque psoriasis in adults", "asthma", "none"], pick[6]),
                cik: some(&["0000000001", "0000000002"], pick[7]),
                assets: some(&["a1", "a3"], pick[7] / 2).into_iter().collect(),
                ..Facets::default()
            },
        }
    }

    proptest! {
        /// Testing only the candidates a snapshot's postings give selects the members
        /// testing every record selects, for every asset.
        #[test]
        fn candidates_select_what_a_full_scan_selects(
            picks in proptest::collection::vec((0usize..Family::ALL.len(), any::<[u8; 8]>()), 0..60)
        ) {
            let records: Vec<Record> = picks
                .iter()
                .map(|(f, pick)| pooled(Family::ALL[*f], pick))
                .collect();
            let portfolio = Portfolio::parse(
                r#"
                [[asset]]
                id = "a1"
                names = ["Alphamab", "AM-101"]
                sponsor_cik = "0000000001"
                indication = "plaque psoriasis"
                trials = ["NCT00000002"]
                press = ["https://a.example/1"]
                [[asset]]
                id = "a2"
                names = ["gammazole"]
                indication = "asthma"
                epi = ["https://b.example/3"]
                icd10 = ["Gout"]
                [[asset]]
                id = "a3"
                names = ["deltanib"]
                sponsor_cik = "0000000002"
                "#,
                std::path::Path::new("test.toml"),
            )
            .unwrap();
            let index = Index::new(&records);
            for asset in &portfolio.asset {
                let (h, trial_ids) = named_in(asset, &records, &index);
                prop_assert_eq!(
                    members_of(asset, &records, &index, &h, &trial_ids),
                    scanned(asset, &records, &h, &trial_ids)
                );
            }
        }
    }

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
