//! Domain nouns shared by every stage: source families, records, text fields,
//! family statuses and the newtype ids. Pure data: no I/O, no async.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A source family: one public source (or bulk dump) with its own parser and deep link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    FdaLabel,
    Ctgov,
    Drugsfda,
    Sec,
    Pubmed,
    Press,
    Epi,
    Icd10,
}

impl Family {
    /// Every family, in the order statuses are listed.
    pub const ALL: [Family; 8] = [
        Family::FdaLabel,
        Family::Ctgov,
        Family::Drugsfda,
        Family::Sec,
        Family::Pubmed,
        Family::Press,
        Family::Epi,
        Family::Icd10,
    ];

    /// The folder name under an import directory, and the name used in tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::FdaLabel => "fda_label",
            Family::Ctgov => "ctgov",
            Family::Drugsfda => "drugsfda",
            Family::Sec => "sec",
            Family::Pubmed => "pubmed",
            Family::Press => "press",
            Family::Epi => "epi",
            Family::Icd10 => "icd10",
        }
    }

    pub fn parse(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.as_str() == name)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a snapshot knows about one family for one asset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FamilyStatus {
    /// At least one record of the asset's own is in the bundle.
    Ok,
    /// Records exist but have not posted what matters (a study without results).
    NotYetPublished,
    /// The source was checked and holds nothing for the asset.
    SourceEmpty,
    /// Not attempted on purpose (e.g. no SEC filer named for the asset).
    Skipped,
    /// The fetch failed; the snapshot does not know.
    FetchFailed,
}

impl FamilyStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            FamilyStatus::Ok => "ok",
            FamilyStatus::NotYetPublished => "not_yet_published",
            FamilyStatus::SourceEmpty => "source_empty",
            FamilyStatus::Skipped => "skipped",
            FamilyStatus::FetchFailed => "fetch_failed",
        }
    }
}

/// Hex sha256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// One decoded text leaf of a record, where the quote gate looks.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TextField {
    /// Where the text sits in the record: a JSON pointer (`/results/0/title`), an XML
    /// path (`/clinical_study/brief_title[1]`), an HTML path, or `bytes:START-END`.
    pub locator: String,
    /// `string`, `number` (a JSON number's literal), `element`, `attribute`, `passage`, `cell`.
    pub kind: &'static str,
    /// The decoded text, verbatim.
    pub text: String,
}

/// A record's text fields, stored back to back: every locator in one buffer, every text
/// in another, and where each ends. A field is two slices and a kind; pushing one
/// allocates nothing once the buffers have grown. Kept as two Strings per field, the
/// 600,000 fields of 500 synthetic assets were 1.2 million allocations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fields {
    locators: String,
    texts: String,
    /// Per field: the end of its locator in `locators`, the end of its text in
    /// `texts`, and its kind.
    ends: Vec<(usize, usize, &'static str)>,
}

/// One field of [`Fields`], borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field<'a> {
    pub locator: &'a str,
    pub kind: &'static str,
    pub text: &'a str,
}

impl Fields {
    pub const fn new() -> Fields {
        Fields {
            locators: String::new(),
            texts: String::new(),
            ends: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn push(&mut self, locator: &str, kind: &'static str, text: &str) {
        self.push_with(locator, kind, |out| out.push_str(text));
    }

    /// Pushes a field whose text `write` appends to the text buffer (a number's literal,
    /// say), so it is never a String of its own.
    pub fn push_with(
        &mut self,
        locator: &str,
        kind: &'static str,
        write: impl FnOnce(&mut String),
    ) {
        self.locators.push_str(locator);
        write(&mut self.texts);
        self.ends
            .push((self.locators.len(), self.texts.len(), kind));
    }

    /// The `i`th field; panics past the end, as slice indexing does.
    pub fn get(&self, i: usize) -> Field<'_> {
        let (start_l, start_t) = match i {
            0 => (0, 0),
            _ => (self.ends[i - 1].0, self.ends[i - 1].1),
        };
        let (end_l, end_t, kind) = self.ends[i];
        Field {
            locator: &self.locators[start_l..end_l],
            kind,
            text: &self.texts[start_t..end_t],
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = Field<'_>> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Every locator back to back, as one string.
    pub fn locators(&self) -> &str {
        &self.locators
    }

    /// Every text back to back, as one string.
    pub fn texts(&self) -> &str {
        &self.texts
    }

    /// Per field, where its locator ends in [`Fields::locators`] and its text in
    /// [`Fields::texts`], and its kind.
    pub fn ends(&self) -> &[(usize, usize, &'static str)] {
        &self.ends
    }
}

impl Extend<TextField> for Fields {
    fn extend<I: IntoIterator<Item = TextField>>(&mut self, fields: I) {
        for f in fields {
            self.push(&f.locator, f.kind, &f.text);
        }
    }
}

impl FromIterator<TextField> for Fields {
    fn from_iter<I: IntoIterator<Item = TextField>>(fields: I) -> Fields {
        let mut out = Fields::new();
        out.extend(fields);
        out
    }
}

impl From<Vec<TextField>> for Fields {
    fn from(fields: Vec<TextField>) -> Fields {
        fields.into_iter().collect()
    }
}

/// What resolution needs to know about a record, pulled out by its parser.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facets {
    /// Drug names (brand, generic, substance, intervention, product, chemical).
    pub drug_names: Vec<String>,
    /// Sponsors, manufacturers, applicants, filer names.
    pub organizations: Vec<String>,
    /// NCT ids the record is about or cites.
    pub nct_ids: Vec<String>,
    /// Conditions, indications and MeSH terms.
    pub conditions: Vec<String>,
    /// FDA established pharmacologic classes and mechanisms.
    pub pharm_classes: Vec<String>,
    /// Longer free text searched for the indication (label indications section).
    pub indication_text: String,
    /// CT.gov: whether results are posted. `None` for other families.
    pub has_results: Option<bool>,
    /// SEC filer, 10 digits.
    pub cik: Option<String>,
    /// Asset ids named explicitly by a sidecar or the portfolio.
    pub assets: Vec<String>,
}

/// One source record, normalized, with its verbatim bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub family: Family,
    /// The family's own key: NCT id, set_id, application number, CIK file name, PMID...
    pub record_key: String,
    /// The canonical deep link (the README's source families table).
    pub url: String,
    pub retrieved_at: Option<String>,
    /// Data cutoff or version date stated by the record, `YYYY-MM-DD`.
    pub cutoff_date: Option<String>,
    pub title: Option<String>,
    pub media_type: &'static str,
    /// The record's exact bytes (a whole file, or the slice of one element of `results[]`).
    pub raw: bytes::Bytes,
    pub content_sha256: String,
    pub fields: Fields,
    pub facets: Facets,
}

impl Record {
    /// Stable id of this version of this record: `family:key@sha256[..16]`.
    pub fn source_id(&self) -> String {
        let mut id = String::new();
        self.write_source_id(&mut id)
            .expect("writing to a String never fails");
        id
    }

    /// Writes [`Record::source_id`] into `out` (a column builder, say) without a String.
    /// Its parts are written one by one, not through `write!`'s formatting: an import
    /// writes one id per bundle row (55,000 at 500 synthetic assets).
    pub fn write_source_id(&self, out: &mut impl std::fmt::Write) -> std::fmt::Result {
        out.write_str(self.family.as_str())?;
        out.write_char(':')?;
        out.write_str(&self.record_key)?;
        out.write_char('@')?;
        out.write_str(
            self.content_sha256
                .get(..16)
                .unwrap_or(&self.content_sha256),
        )
    }
}

/// Validated asset id: `[a-z0-9_-]+`, never `.` or `..`, so it is safe in object keys.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct AssetId(String);

impl AssetId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An id that fails its validation, with what was given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error(
        "invalid asset id {0:?}: use 1 to 64 characters of [a-z0-9_-] (no upper case, '/', '.' or spaces)"
    )]
    AssetId(String),
    #[error("not a sha256 hex digest: {0:?}")]
    Sha256(String),
}

impl TryFrom<String> for AssetId {
    type Error = IdError;
    fn try_from(s: String) -> Result<Self, IdError> {
        let ok = !s.is_empty()
            && s.len() <= 64
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
        if ok {
            Ok(AssetId(s))
        } else {
            Err(IdError::AssetId(s))
        }
    }
}

impl From<AssetId> for String {
    fn from(id: AssetId) -> String {
        id.0
    }
}

impl fmt::Display for AssetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A sha256 in lower-case hex: the id of a bundle or a snapshot.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Hash256(String);

impl Hash256 {
    pub fn of(bytes: &[u8]) -> Hash256 {
        Hash256(sha256_hex(bytes))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Hash256 {
    type Error = IdError;
    fn try_from(s: String) -> Result<Self, IdError> {
        if s.len() == 64
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            Ok(Hash256(s))
        } else {
            Err(IdError::Sha256(s))
        }
    }
}

impl From<Hash256> for String {
    fn from(h: Hash256) -> String {
        h.0
    }
}

impl fmt::Display for Hash256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_give_back_each_locator_kind_and_text_as_pushed() {
        let given = [
            ("/a/0", "string", "≥ 18 years"),
            ("/a/1", "number", "42"),
            ("/empty", "string", ""),
            ("", "passage", "text with no locator"),
        ];
        let mut f = Fields::new();
        assert!(f.is_empty());
        for (locator, kind, text) in &given[..2] {
            f.push(locator, kind, text);
        }
        for (locator, kind, text) in &given[2..] {
            f.push_with(locator, kind, |out| out.push_str(text));
        }
        assert_eq!(f.len(), 4);
        let back: Vec<(&str, &str, &str)> = f.iter().map(|x| (x.locator, x.kind, x.text)).collect();
        assert_eq!(back, given);
        assert_eq!(f.get(1).text, "42");
        let from_vec = Fields::from(
            given
                .iter()
                .map(|(l, k, t)| TextField {
                    locator: l.to_string(),
                    kind: k,
                    text: t.to_string(),
                })
                .collect::<Vec<_>>(),
        );
        assert_eq!(from_vec, f);
    }

    #[test]
    fn asset_ids_reject_path_tricks_and_upper_case() {
        for bad in ["", "a/b", "..", ".", "Dupilumab", "a b", "x.y", "é"] {
            assert!(
                AssetId::try_from(bad.to_string()).is_err(),
                "{bad:?} accepted"
            );
        }
        for good in ["dupilumab", "get73", "a_b-c"] {
            assert!(
                AssetId::try_from(good.to_string()).is_ok(),
                "{good:?} rejected"
            );
        }
    }

    #[test]
    fn hashes_must_be_lower_hex_of_64() {
        assert!(Hash256::try_from("A".repeat(64)).is_err());
        assert!(Hash256::try_from("a".repeat(63)).is_err());
        assert!(Hash256::try_from("../".repeat(21) + "a").is_err());
        assert_eq!(Hash256::of(b"").as_str().len(), 64);
    }

    #[test]
    fn family_names_round_trip() {
        for f in Family::ALL {
            assert_eq!(Family::parse(f.as_str()), Some(f));
        }
        assert_eq!(Family::parse("ctgov_v2"), None);
    }
}
