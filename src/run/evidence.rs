//! The evidence index of a snapshot: every record's text fields joined once into one
//! searchable string (fields separated by NUL, so no match can span two fields), the
//! catalog URLs, and the bare labels (NCT id, PMID, set_id, application number, CIK)
//! that resolve to records. Built from the snapshot's sources object. Pure.

use std::collections::HashMap;

use datafusion::arrow::array::RecordBatch;

use crate::lake::bundle::{BundleError, Row};

use crate::domain::Family;

/// One record, ready for the quote and locator gates.
#[derive(Debug)]
pub struct EvidenceRecord {
    pub source_id: String,
    pub family: Family,
    pub record_key: String,
    pub url: String,
    pub cutoff_date: Option<String>,
    pub raw: Vec<u8>,
    pub locators: Vec<String>,
    /// Field texts joined by `\0`.
    pub joined: String,
    /// Byte offset of each field in `joined`.
    pub starts: Vec<usize>,
    /// A record of the snapshot outside the asset's bundle, known by its catalog entry
    /// alone (no text): a claim of the asset that cites it fails the scope rule.
    pub outside: bool,
}

impl EvidenceRecord {
    /// A record of text fields `(locator, text)` for tests: its key is the source id's
    /// (`family:KEY@sha`), its URL made up from the key.
    #[cfg(test)]
    pub(crate) fn of_fields(source_id: &str, family: Family, fields: &[(&str, &str)]) -> Self {
        let mut joined = String::new();
        let mut starts = Vec::new();
        for (i, (_, t)) in fields.iter().enumerate() {
            if i > 0 {
                joined.push('\0');
            }
            starts.push(joined.len());
            joined.push_str(t);
        }
        let key = source_id
            .split_once(':')
            .map_or(source_id, |(_, k)| k)
            .split('@')
            .next()
            .unwrap_or_default();
        EvidenceRecord {
            source_id: source_id.into(),
            family,
            record_key: key.into(),
            url: format!("https://example.org/{key}"),
            cutoff_date: None,
            raw: Vec::new(),
            locators: fields.iter().map(|(l, _)| l.to_string()).collect(),
            joined,
            starts,
            outside: false,
        }
    }

    /// A record known by its catalog entry alone (no text, no bytes), marked `outside`:
    /// what a run's catalog holds of every record, and an asset's evidence of a record
    /// outside its bundle.
    pub fn outside(
        source_id: String,
        family: Family,
        record_key: String,
        url: String,
        cutoff_date: Option<String>,
    ) -> EvidenceRecord {
        EvidenceRecord {
            source_id,
            family,
            record_key,
            url,
            cutoff_date,
            raw: Vec::new(),
            locators: Vec::new(),
            joined: String::new(),
            starts: Vec::new(),
            outside: true,
        }
    }

    pub fn field_text(&self, i: usize) -> &str {
        let end = self
            .starts
            .get(i + 1)
            .map(|s| s - 1)
            .unwrap_or(self.joined.len());
        &self.joined[self.starts[i]..end]
    }

    /// The index of the field holding `quote`, if one does. `quote` must not hold NUL.
    pub fn find(&self, quote: &str) -> Option<usize> {
        let pos = memchr::memmem::find(self.joined.as_bytes(), quote.as_bytes())?;
        Some(self.starts.partition_point(|s| *s <= pos) - 1)
    }
}

#[derive(Debug, Default)]
pub struct Evidence {
    pub records: Vec<EvidenceRecord>,
    by_url: HashMap<String, Vec<usize>>,
    by_label: HashMap<(Family, String), Vec<usize>>,
    by_source_id: HashMap<String, usize>,
    /// Labels by the application numbers their openFDA block lists (`NDA021977`): a bare
    /// application number that names no Drugs@FDA record names that application's labels.
    by_application: HashMap<String, Vec<usize>>,
}

impl Evidence {
    pub fn add(&mut self, r: EvidenceRecord) {
        let i = self.records.len();
        self.by_url.entry(r.url.clone()).or_default().push(i);
        self.by_source_id.insert(r.source_id.clone(), i);
        self.by_label
            .entry((r.family, r.record_key.clone()))
            .or_default()
            .push(i);
        if r.family == Family::FdaLabel {
            for (j, l) in r.locators.iter().enumerate() {
                if l.starts_with("/openfda/application_number/") {
                    let app = r.field_text(j).trim().to_ascii_uppercase();
                    let apps = self.by_application.entry(app).or_default();
                    if !apps.contains(&i) {
                        apps.push(i);
                    }
                }
            }
        }
        self.records.push(r);
    }

    /// Records a citation resolves to: an exact source id (`family:key@sha16`, one
    /// version of a record), an exact catalog URL, or a bare label. Several
    /// records share a key when a snapshot holds several versions of one record; they
    /// come oldest cutoff first (unknown cutoffs before any date).
    pub fn resolve(&self, source: &str) -> Vec<usize> {
        if let Some(i) = self.by_source_id.get(source) {
            return vec![*i];
        }
        let mut found = match self.by_url.get(source) {
            Some(v) => v.clone(),
            None => match bare_label(source) {
                Some(key) => match self.by_label.get(&key) {
                    Some(v) => v.clone(),
                    None if key.0 == Family::Drugsfda => {
                        self.by_application.get(&key.1).cloned().unwrap_or_default()
                    }
                    None => Vec::new(),
                },
                None => Vec::new(),
            },
        };
        found.sort_by(|a, b| {
            let (ra, rb) = (&self.records[*a], &self.records[*b]);
            (&ra.cutoff_date, &ra.source_id).cmp(&(&rb.cutoff_date, &rb.source_id))
        });
        found
    }

    /// The data cutoff the text of the record with this source id states in words ("data
    /// cutoff: January 31, 2026", "data cut-off 31 March 2025", "cutoff date 2025-06-30"),
    /// when it states exactly one.
    pub fn stated_cutoff(&self, source_id: &str) -> Option<String> {
        let r = &self.records[*self.by_source_id.get(source_id)?];
        let lower = r.joined.to_ascii_lowercase();
        let mut found: Vec<String> = Vec::new();
        for cue in [
            "data cutoff",
            "data cut-off",
            "data cut off",
            "cutoff date",
            "cut-off date",
        ] {
            for (at, _) in lower.match_indices(cue) {
                let after = &r.joined[at + cue.len()..];
                let mut end = after.len().min(48);
                while !after.is_char_boundary(end) {
                    end -= 1;
                }
                let window = &after[..end];
                if let Some(d) = date_in(window)
                    && !found.contains(&d)
                {
                    found.push(d);
                }
            }
        }
        (found.len() == 1).then(|| found.pop()).flatten()
    }

    /// The data cutoff of the record with this source id.
    pub fn cutoff_of(&self, source_id: &str) -> Option<String> {
        self.by_source_id
            .get(source_id)
            .and_then(|i| self.records[*i].cutoff_date.clone())
    }

    /// Adds the records of one batch of a sources object (bundle schema), whole.
    pub fn add_batch(&mut self, batch: &RecordBatch) -> Result<(), BundleError> {
        for row in crate::lake::bundle::rows(std::slice::from_ref(batch))? {
            self.add_row(row);
        }
        Ok(())
    }

    fn add_row(&mut self, row: Row) {
        let Some(family) = Family::parse(&row.family) else {
            return;
        };
        let mut joined = String::new();
        let mut starts = Vec::with_capacity(row.fields.len());
        let mut locators = Vec::with_capacity(row.fields.len());
        for (j, (loc, _, text)) in row.fields.into_iter().enumerate() {
            if j > 0 {
                joined.push('\0');
            }
            starts.push(joined.len());
            joined.push_str(&text);
            locators.push(loc);
        }
        self.add(EvidenceRecord {
            source_id: row.source_id,
            family,
            record_key: row.record_key,
            url: row.url,
            cutoff_date: row.cutoff_date,
            raw: row.raw,
            locators,
            joined,
            starts,
            outside: false,
        });
    }

    /// One asset's evidence: the records of its bundle (its own whole, its competitors'
    /// as the bundle keeps them, which is what its reasoner read), and, for each of
    /// `citations` that names no bundle record but names records of the snapshot's
    /// `catalog`, those records as catalog entries marked `outside`. Memory holds one
    /// asset's records, not the snapshot's.
    pub fn of_bundle<'a>(
        rows: &[Row],
        catalog: &Evidence,
        citations: impl IntoIterator<Item = &'a str>,
    ) -> Evidence {
        let mut ev = Evidence::default();
        for r in rows {
            ev.add_row(r.clone());
        }
        for source in citations {
            if !ev.resolve(source).is_empty() {
                continue;
            }
            for i in catalog.resolve(source) {
                let r = &catalog.records[i];
                if !ev.by_source_id.contains_key(&r.source_id) {
                    ev.add(EvidenceRecord::outside(
                        r.source_id.clone(),
                        r.family,
                        r.record_key.clone(),
                        r.url.clone(),
                        r.cutoff_date.clone(),
                    ));
                }
            }
        }
        ev
    }
}

/// The first date written in `s` (after a colon, "of" or "on" at most), as ISO
/// `YYYY-MM-DD`: `January 31, 2026`, `Jan 31, 2026`, `31 January 2026` or `2026-01-31`.
fn date_in(s: &str) -> Option<String> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let words: Vec<&str> = s
        .split(|c: char| c.is_whitespace() || c == ',' || c == ':' || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .take(6)
        .collect();
    let month = |w: &str| {
        let w = w.trim_end_matches('.').to_ascii_lowercase();
        (w.len() >= 3)
            .then(|| MONTHS.iter().position(|m| w.starts_with(m)))
            .flatten()
            .map(|i| i + 1)
    };
    let num = |w: &str, lo: u32, hi: u32| {
        let w = w.trim_end_matches(['.', ';']);
        w.parse::<u32>().ok().filter(|n| (lo..=hi).contains(n))
    };
    let iso = |y: u32, m: usize, d: u32| format!("{y:04}-{m:02}-{d:02}");
    for (i, w) in words.iter().enumerate() {
        let w = w.trim_end_matches(['.', ';']);
        // 2026-01-31
        let parts: Vec<&str> = w.split('-').collect();
        if let [y, m, d] = parts[..]
            && let (Some(y), Some(m), Some(d)) = (num(y, 1900, 2100), num(m, 1, 12), num(d, 1, 31))
        {
            return Some(iso(y, m as usize, d));
        }
        // January 31, 2026
        if let Some(m) = month(w)
            && let (Some(d), Some(y)) = (
                words.get(i + 1).and_then(|x| num(x, 1, 31)),
                words.get(i + 2).and_then(|x| num(x, 1900, 2100)),
            )
        {
            return Some(iso(y, m, d));
        }
        // 31 January 2026
        if let Some(d) = num(w, 1, 31)
            && let (Some(m), Some(y)) = (
                words.get(i + 1).and_then(|x| month(x)),
                words.get(i + 2).and_then(|x| num(x, 1900, 2100)),
            )
        {
            return Some(iso(y, m, d));
        }
    }
    None
}

/// Normalizes a bare label to the (family, record key) it names:
/// `NCT01234567`, `PMID:22663011` or `22663011`, a set_id UUID, `NDA215866`/`BLA125057`/
/// `ANDA…`, `CIK0000078003` or `CIK78003`.
pub fn bare_label(s: &str) -> Option<(Family, String)> {
    let t = s.trim();
    let upper = t.to_ascii_uppercase();
    let digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
    if crate::domain::is_nct_id(t) {
        return Some((Family::Ctgov, upper));
    }
    if let Some(rest) = upper.strip_prefix("PMID") {
        let rest = rest.trim_start_matches([':', ' ']);
        return digits(rest).then(|| (Family::Pubmed, rest.to_string()));
    }
    if digits(t) && t.len() <= 9 {
        return Some((Family::Pubmed, t.to_string()));
    }
    if let Some(rest) = upper.strip_prefix("CIK") {
        return (digits(rest) && rest.len() <= 10)
            .then(|| (Family::Sec, format!("CIK{rest:0>10}")));
    }
    for p in ["NDA", "BLA", "ANDA"] {
        if let Some(rest) = upper.strip_prefix(p)
            && digits(rest)
        {
            return Some((Family::Drugsfda, upper));
        }
    }
    let is_uuid = t.len() == 36
        && t.char_indices().all(|(i, c)| {
            if [8, 13, 18, 23].contains(&i) {
                c == '-'
            } else {
                c.is_ascii_hexdigit()
            }
        });
    is_uuid.then(|| (Family::FdaLabel, t.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_read_in_the_usual_spellings() {
        assert_eq!(
            date_in(": January 31, 2026, after").as_deref(),
            Some("2026-01-31")
        );
        assert_eq!(date_in(" of 31 March 2025.").as_deref(), Some("2025-03-31"));
        assert_eq!(date_in(" (Sept. 5, 2024)").as_deref(), Some("2024-09-05"));
        assert_eq!(date_in(" 2025-06-30;").as_deref(), Some("2025-06-30"));
        assert_eq!(date_in(" was reached in 412 patients"), None);
        // a window cut inside a character is no panic
        let mut ev = Evidence::default();
        let mut r = EvidenceRecord::outside(
            "press:p@1".into(),
            Family::Press,
            "p".into(),
            "u".into(),
            None,
        );
        r.joined = format!("data cutoff {}", "é".repeat(40));
        r.starts = vec![0];
        ev.add(r);
        assert_eq!(ev.stated_cutoff("press:p@1"), None);
    }

    #[test]
    fn bare_labels_normalize() {
        assert_eq!(
            bare_label("nct02552212"),
            Some((Family::Ctgov, "NCT02552212".into()))
        );
        assert_eq!(
            bare_label("PMID: 22663011"),
            Some((Family::Pubmed, "22663011".into()))
        );
        assert_eq!(
            bare_label("CIK78003"),
            Some((Family::Sec, "CIK0000078003".into()))
        );
        assert_eq!(
            bare_label("BLA125057"),
            Some((Family::Drugsfda, "BLA125057".into()))
        );
        assert_eq!(
            bare_label("608D4F0D-B19F-46D3-749A-7159AA5F933D"),
            Some((
                Family::FdaLabel,
                "608d4f0d-b19f-46d3-749a-7159aa5f933d".into()
            ))
        );
        assert_eq!(bare_label("https://example.org"), None);
        assert_eq!(bare_label("NCT123"), None);
    }

    #[test]
    fn a_bare_application_number_names_its_labels_when_no_approval_record_has_it() {
        let record = EvidenceRecord::of_fields;
        let mut ev = Evidence::default();
        ev.add(record(
            "fda_label:a@1",
            Family::FdaLabel,
            &[
                ("/openfda/brand_name/0", "Vyvanse"),
                ("/openfda/application_number/0", "NDA021977"),
            ],
        ));
        ev.add(record(
            "fda_label:b@2",
            Family::FdaLabel,
            &[("/openfda/application_number/0", "NDA215866")],
        ));
        ev.add(record(
            "drugsfda:NDA215866@3",
            Family::Drugsfda,
            &[("/application_number", "NDA215866")],
        ));
        assert_eq!(ev.resolve("NDA021977"), vec![0]);
        assert_eq!(ev.resolve("nda021977"), vec![0]);
        // an application with its own approval record is that record
        assert_eq!(ev.resolve("NDA215866"), vec![2]);
        assert!(ev.resolve("NDA999999").is_empty());
        // a brand name is no application number
        assert!(ev.resolve("Vyvanse").is_empty());
    }

    #[test]
    fn find_never_spans_fields() {
        let mut ev = Evidence::default();
        ev.add(EvidenceRecord {
            source_id: "s".into(),
            family: Family::Press,
            record_key: "k".into(),
            url: "u".into(),
            cutoff_date: None,
            raw: Vec::new(),
            locators: vec!["a".into(), "b".into()],
            joined: "ORR was\0 42%".into(),
            starts: vec![0, 8],
            outside: false,
        });
        let r = &ev.records[0];
        assert_eq!(r.find("42%"), Some(1));
        assert_eq!(r.find("ORR"), Some(0));
        assert_eq!(r.field_text(0), "ORR was");
        assert_eq!(r.find("was 42%"), None);
    }
}
