//! Import: the bulk-download path of Layer 1. Reads raw files laid out as
//! `DIR/<family>/...`, parses each with its family's parser into [`Record`]s (raw bytes,
//! key, deep link, dates, text fields, facets). Reading files is the only I/O here;
//! parsing is pure and runs in parallel, with results ordered by path so the outcome
//! never depends on the thread count or the order the file system lists files.

mod ctgov;
mod openfda;
mod other;
pub use other::web_format;
mod pubmed;
mod sec;

use std::collections::HashSet;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::domain::{Facets, Family, Fields, Record, sha256_hex};
use crate::domain::{Portfolio, SourceMeta, one_line};
use crate::snapshot::text::{TextError, Wanted};

/// Files larger than this are refused rather than parsed (1 GiB).
pub const MAX_FILE_BYTES: u64 = 1 << 30;
/// Sidecar files: `<file>.source.toml` next to the file they describe.
pub const SIDECAR_SUFFIX: &str = ".source.toml";

/// The requests a live night could not fetch, at the top of an import directory (as
/// `snapshot --live --save-responses` writes them): a JSON array of `{asset, family, url,
/// error}`. Their families read `fetch_failed`, as in the live snapshot they came from.
pub const FETCH_FAILURES_FILE: &str = "fetch_failures.json";

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("listing import directory {path}")]
    List {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("reading {path}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{path}: unknown family folder {name:?} (expected one of: fda_label, ctgov, drugsfda, sec, pubmed, press, epi, icd10)"
    )]
    UnknownFamily { path: PathBuf, name: String },
    #[error("{path}: file outside a family folder (expected DIR/<family>/<file>)")]
    Stray { path: PathBuf },
    #[error("{file}: {source}")]
    Text {
        file: String,
        #[source]
        source: TextError,
    },
    #[error("{file}: field `{field}`: {message}")]
    Field {
        file: String,
        field: String,
        message: String,
    },
    /// A page whose format has text that yielded none (e.g. JSON read as CSV).
    #[error("{file}: parses to no text as {format}")]
    NoText { file: String, format: &'static str },
    /// A press or epidemiology response that no format of its family reads as text.
    #[error("{content_type} response parses to no text as any of {tried}")]
    NoFormat { content_type: String, tried: String },
    #[error("{file}: sidecar {sidecar}: {message}")]
    Sidecar {
        file: String,
        sidecar: String,
        message: String,
    },
    #[error("{file}: {size} bytes is over the limit of {limit} bytes per file")]
    TooLarge { file: String, size: u64, limit: u64 },
    #[error("{file}: {message}")]
    FetchFailures { file: String, message: String },
    #[error("{dir}: no source files found under any family folder")]
    Empty { dir: PathBuf },
}

/// A file that parsed but cannot become a citable record (e.g. a table with no URL).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Unplaced {
    pub file: String,
    pub family: Family,
    pub reason: String,
}

/// An entry of the import directory that was not read: a link (links are never
/// followed, so nothing outside the directory and no loop is reached) or something that
/// is not a regular file (a named pipe, a socket, a device).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub path: PathBuf,
    pub reason: &'static str,
}

/// Why an entry of the import directory is not read, or `None` for a regular file or a
/// directory. Decided on the entry itself, never on what a link points at.
fn unreadable(kind: std::fs::FileType) -> Option<&'static str> {
    if kind.is_symlink() {
        Some("a symbolic link (links are not followed)")
    } else if kind.is_file() || kind.is_dir() {
        None
    } else {
        Some("not a regular file (a pipe, socket or device)")
    }
}

/// Everything an import produced, ordered by (family, key, content hash).
#[derive(Debug, Default)]
pub struct Imported {
    pub records: Vec<Record>,
    /// Requests recorded as failed (`fetch_failures.json`), sorted.
    pub fetch_failures: Vec<crate::lake::manifest::FetchFailure>,
    pub unplaced: Vec<Unplaced>,
    /// Entries of the import directory that were not read, with why.
    pub skipped: Vec<Skipped>,
    /// Raw bytes read, for throughput figures.
    pub bytes_read: u64,
    pub files: usize,
}

/// One file handed to a family parser.
pub struct ImportFile {
    pub family: Family,
    /// Path relative to the import directory, with `/` separators.
    pub rel: String,
    pub bytes: Bytes,
    /// Metadata from a sidecar or the portfolio's `[[source]]`, if any.
    pub meta: Option<SourceMeta>,
}

pub enum Parsed {
    Records(Vec<Record>),
    Unplaced(String),
}

impl ImportFile {
    pub(crate) fn field_err(&self, field: &str, message: impl Into<String>) -> ImportError {
        ImportError::Field {
            file: self.rel.clone(),
            field: field.to_string(),
            message: message.into(),
        }
    }

    pub(crate) fn text_err(&self, source: TextError) -> ImportError {
        ImportError::Text {
            file: self.rel.clone(),
            source,
        }
    }

    pub(crate) fn json(&self) -> Result<serde_json::Value, ImportError> {
        serde_json::from_slice(&self.bytes).map_err(|e| self.text_err(TextError::json(&e)))
    }

    pub(crate) fn utf8(&self) -> Result<&str, ImportError> {
        std::str::from_utf8(&self.bytes).map_err(|e| self.text_err(TextError::utf8(&e)))
    }

    pub(crate) fn meta_url(&self) -> Option<&str> {
        self.meta.as_ref().and_then(|m| m.url.as_deref())
    }

    /// Builds a record from parts; `raw` is the record's exact bytes.
    pub(crate) fn record(&self, draft: Draft) -> Record {
        let meta = self.meta.as_ref();
        Record {
            family: self.family,
            content_sha256: sha256_hex(&draft.raw),
            record_key: draft.key,
            url: draft.url,
            retrieved_at: meta
                .and_then(|m| m.retrieved_at.clone())
                .or(draft.retrieved_at),
            cutoff_date: meta
                .and_then(|m| m.cutoff_date.clone())
                .or(draft.cutoff_date),
            title: meta.and_then(|m| m.title.clone()).or(draft.title),
            media_type: draft.media_type,
            raw: draft.raw,
            fields: draft.fields,
            facets: Facets {
                assets: meta.map(|m| m.assets.clone()).unwrap_or_default(),
                ..draft.facets
            },
        }
    }
}

/// A record before its hash and file metadata are attached.
pub(crate) struct Draft {
    pub key: String,
    pub url: String,
    pub retrieved_at: Option<String>,
    pub cutoff_date: Option<String>,
    pub title: Option<String>,
    pub media_type: &'static str,
    pub raw: Bytes,
    pub fields: Fields,
    pub facets: Facets,
}

/// Which text fields an import gives its records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Texts {
    /// Every field, as every reader of a bundle reads them again from the raw bytes
    /// ([`fields_of`](crate::snapshot::text::fields_of)).
    All,
    /// Only what a snapshot reads of them: an approved-drug record's (label, Drugs@FDA)
    /// competitor fields ([`COMPETITOR_KEEP`](crate::lake::bundle::COMPETITOR_KEEP)),
    /// and the whole text of press, epidemiology, ICD-10 and PubMed records, whose
    /// parsers read it. CT.gov and SEC records get none: a bundle stores their raw bytes,
    /// not their fields, and at 500 synthetic assets their fields were most of the
    /// import's 600,000.
    Snapshot,
}

impl Texts {
    /// The fields of a `family` record that are kept.
    pub fn of(self, family: Family) -> Wanted<'static> {
        match (self, family) {
            (Texts::All, _) => Wanted::All,
            (Texts::Snapshot, Family::FdaLabel | Family::Drugsfda) => {
                Wanted::Under(&crate::lake::bundle::COMPETITOR_KEEP)
            }
            (Texts::Snapshot, Family::Ctgov | Family::Sec) => Wanted::Nothing,
            (Texts::Snapshot, Family::Pubmed | Family::Epi | Family::Icd10 | Family::Press) => {
                Wanted::All
            }
        }
    }
}

/// Reads and parses every file under `dir` for a snapshot ([`Texts::Snapshot`]). Any
/// malformed file fails the whole import, naming the file and field, so a snapshot is
/// never built from half a corpus.
pub fn import_dir(dir: &Path, portfolio: &Portfolio) -> Result<Imported, ImportError> {
    import_dir_with(dir, portfolio, Texts::Snapshot)
}

/// [`import_dir`], its records given the text fields `texts` says.
pub fn import_dir_with(
    dir: &Path,
    portfolio: &Portfolio,
    texts: Texts,
) -> Result<Imported, ImportError> {
    let mut skipped = Vec::new();
    let (files, sidecars) = list_files(dir, &mut skipped)?;
    let inputs: Vec<Result<ImportFile, ImportError>> = files
        .par_iter()
        .map(|(family, path)| read_input(dir, *family, path, &sidecars, portfolio))
        .collect();
    let mut ok = Vec::with_capacity(inputs.len());
    for input in inputs {
        ok.push(input?);
    }
    if ok.is_empty() {
        return Err(ImportError::Empty {
            dir: dir.to_owned(),
        });
    }
    let bytes_read = ok.iter().map(|f| f.bytes.len() as u64).sum();
    // Largest first, one file per task: a large file begun last held one core while
    // the others idled (on the real corpus, a 2.6 MB companyfacts record is 44% of the
    // bytes). The results are put back in the listing's order.
    let mut order: Vec<usize> = (0..ok.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(ok[i].bytes.len()));
    let mut parsed_in_order: Vec<(usize, Result<Parsed, ImportError>)> = order
        .into_par_iter()
        .with_max_len(1)
        .map(|i| (i, parse_file_with(&ok[i], texts)))
        .collect();
    parsed_in_order.sort_by_key(|(i, _)| *i);
    let parsed: Vec<(String, Family, Result<Parsed, ImportError>)> = ok
        .into_iter()
        .zip(parsed_in_order)
        .map(|(f, (_, result))| (f.rel, f.family, result))
        .collect();
    let files = parsed.len();
    let mut ok = Vec::with_capacity(files);
    for (file, family, result) in parsed {
        ok.push((file, family, result?));
    }
    let mut imported = assemble(ok, bytes_read, files);
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    imported.skipped = skipped;
    imported.fetch_failures = read_fetch_failures(dir, portfolio)?;
    Ok(imported)
}

/// Reads `fetch_failures.json` when the directory has one: each failure must name an
/// asset of the portfolio and a family, and its error is kept on one line.
fn read_fetch_failures(
    dir: &Path,
    portfolio: &Portfolio,
) -> Result<Vec<crate::lake::manifest::FetchFailure>, ImportError> {
    let path = dir.join(FETCH_FAILURES_FILE);
    let bad = |message: String| ImportError::FetchFailures {
        file: FETCH_FAILURES_FILE.to_string(),
        message,
    };
    let Ok(meta) = std::fs::symlink_metadata(&path) else {
        return Ok(Vec::new());
    };
    if !meta.is_file() {
        return Ok(Vec::new());
    }
    if meta.len() > MAX_FETCH_FAILURES_BYTES {
        return Err(ImportError::TooLarge {
            file: FETCH_FAILURES_FILE.to_string(),
            size: meta.len(),
            limit: MAX_FETCH_FAILURES_BYTES,
        });
    }
    let bytes = std::fs::read(&path).map_err(|source| ImportError::Read {
        path: path.clone(),
        source,
    })?;
    let mut failures: Vec<crate::lake::manifest::FetchFailure> =
        serde_json::from_slice(&bytes).map_err(|e| bad(one_line(&e.to_string())))?;
    for f in &mut failures {
        if !portfolio.asset.iter().any(|a| a.id.as_str() == f.asset) {
            return Err(bad(format!(
                "asset {:?} is not in the portfolio",
                one_line(&f.asset)
            )));
        }
        f.error = one_line(&f.error);
        f.url = one_line(&f.url);
    }
    failures.sort_by(|a, b| {
        (&a.asset, a.family, &a.url, &a.error).cmp(&(&b.asset, b.family, &b.url, &b.error))
    });
    failures.dedup();
    Ok(failures)
}

/// A failure list is a few lines per request; anything this large is not one.
const MAX_FETCH_FAILURES_BYTES: u64 = 16 << 20;

/// Gathers parsed files into the import: records sorted by family, key and content,
/// the same bytes from two files kept once, unplaced files with their reason.
pub fn assemble(parsed: Vec<(String, Family, Parsed)>, bytes_read: u64, files: usize) -> Imported {
    let n_records = parsed
        .iter()
        .map(|(_, _, p)| match p {
            Parsed::Records(rs) => rs.len(),
            Parsed::Unplaced(_) => 0,
        })
        .sum();
    let mut out = Imported {
        bytes_read,
        files,
        records: Vec::with_capacity(n_records),
        ..Imported::default()
    };
    for (file, family, result) in parsed {
        match result {
            Parsed::Records(rs) => out.records.extend(rs),
            Parsed::Unplaced(reason) => out.unplaced.push(Unplaced {
                file,
                family,
                reason,
            }),
        }
    }
    out.records.sort_by(|a, b| {
        (a.family, &a.record_key, &a.content_sha256).cmp(&(
            b.family,
            &b.record_key,
            &b.content_sha256,
        ))
    });
    // The same bytes imported twice (two file names) are one record.
    out.records.dedup_by(|a, b| {
        a.family == b.family && a.record_key == b.record_key && a.content_sha256 == b.content_sha256
    });
    out
}

/// Parses one file with its family's parser.
pub fn parse_file(f: &ImportFile) -> Result<Parsed, ImportError> {
    parse_file_with(f, Texts::Snapshot)
}

/// [`parse_file`], its records given the text fields `texts` says.
pub fn parse_file_with(f: &ImportFile, texts: Texts) -> Result<Parsed, ImportError> {
    let wanted = texts.of(f.family);
    match f.family {
        Family::Ctgov => ctgov::parse(f, wanted),
        Family::FdaLabel => openfda::parse_labels(f, wanted),
        Family::Drugsfda => openfda::parse_drugsfda(f, wanted),
        Family::Sec => sec::parse(f, wanted),
        Family::Pubmed => pubmed::parse(f),
        Family::Epi => other::parse_epi(f),
        Family::Icd10 => other::parse_icd10(f),
        Family::Press => other::parse_press(f),
    }
}

/// The files to import, by family, and the sidecars (`*.source.toml`) seen beside them.
fn list_files(
    dir: &Path,
    skipped: &mut Vec<Skipped>,
) -> Result<(Vec<(Family, PathBuf)>, HashSet<PathBuf>), ImportError> {
    let list_err = |source| ImportError::List {
        path: dir.to_owned(),
        source,
    };
    let mut out = Vec::new();
    let mut sidecars = HashSet::new();
    for entry in std::fs::read_dir(dir).map_err(list_err)? {
        let entry = entry.map_err(list_err)?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let kind = entry.file_type().map_err(list_err)?;
        if let Some(reason) = unreadable(kind) {
            skipped.push(Skipped { path, reason });
            continue;
        }
        if name == FETCH_FAILURES_FILE && kind.is_file() {
            continue;
        }
        if !kind.is_dir() {
            return Err(ImportError::Stray { path });
        }
        let family = Family::parse(&name).ok_or_else(|| ImportError::UnknownFamily {
            path: path.clone(),
            name: name.clone(),
        })?;
        walk(
            &path,
            &mut |p| out.push((family, p)),
            &mut sidecars,
            skipped,
        )?;
    }
    out.sort();
    Ok((out, sidecars))
}

fn walk(
    dir: &Path,
    push: &mut dyn FnMut(PathBuf),
    sidecars: &mut HashSet<PathBuf>,
    skipped: &mut Vec<Skipped>,
) -> Result<(), ImportError> {
    let list_err = |source| ImportError::List {
        path: dir.to_owned(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(list_err)? {
        let entry = entry.map_err(list_err)?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if name.ends_with(SIDECAR_SUFFIX) {
            // read with the file it describes, which says what kind of entry it is
            sidecars.insert(path);
            continue;
        }
        let kind = entry.file_type().map_err(list_err)?;
        if let Some(reason) = unreadable(kind) {
            skipped.push(Skipped { path, reason });
        } else if kind.is_dir() {
            walk(&path, push, sidecars, skipped)?;
        } else {
            push(path);
        }
    }
    Ok(())
}

/// Reads one listed file, and its sidecar when the listing saw one (`sidecars`).
fn read_input(
    dir: &Path,
    family: Family,
    path: &Path,
    sidecars: &HashSet<PathBuf>,
    portfolio: &Portfolio,
) -> Result<ImportFile, ImportError> {
    let rel = path
        .strip_prefix(dir)
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    let read_err = |source| ImportError::Read {
        path: path.to_owned(),
        source,
    };
    let too_large = |size: u64| ImportError::TooLarge {
        file: rel.clone(),
        size,
        limit: MAX_FILE_BYTES,
    };
    // opened once: its size and its bytes come from the same handle
    let mut file = std::fs::File::open(path).map_err(read_err)?;
    let size = file.metadata().map_err(read_err)?.len();
    if size > MAX_FILE_BYTES {
        return Err(too_large(size));
    }
    let mut buf = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // a file that grew after its size was read is still read whole, up to the limit
    (&mut file)
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(read_err)?;
    if buf.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(buf.len() as u64));
    }
    drop(file);
    let bytes = Bytes::from(buf);
    let mut sidecar_path = path.as_os_str().to_owned();
    sidecar_path.push(SIDECAR_SUFFIX);
    let sidecar_path = PathBuf::from(sidecar_path);
    let sidecar_kind = sidecars
        .contains(&sidecar_path)
        .then(|| std::fs::symlink_metadata(&sidecar_path).map(|m| m.file_type()));
    let meta = if let Some(Ok(kind)) = sidecar_kind {
        let sidecar_err = |message: String| ImportError::Sidecar {
            file: rel.clone(),
            sidecar: sidecar_path.display().to_string(),
            message,
        };
        if let Some(reason) = unreadable(kind).or((!kind.is_file()).then_some("not a file")) {
            return Err(sidecar_err(reason.to_string()));
        }
        let text = std::fs::read_to_string(&sidecar_path).map_err(|source| ImportError::Read {
            path: sidecar_path.clone(),
            source,
        })?;
        let meta: SourceMeta =
            toml::from_str(&text).map_err(|e| sidecar_err(one_line(&e.to_string())))?;
        meta.validate().map_err(|e| sidecar_err(e.to_string()))?;
        Some(meta)
    } else {
        portfolio.source_for(&rel).cloned()
    };
    Ok(ImportFile {
        family,
        rel,
        bytes,
        meta,
    })
}

/// `20160829` → `2016-08-29`; anything else → `None`.
pub(crate) fn compact_date(s: &str) -> Option<String> {
    let s = s.trim();
    (s.len() == 8 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{}-{}-{}", &s[..4], &s[4..6], &s[6..]))
}

/// `April 10, 2018`, `2023-12-07`, `2023-12` → ISO date (month-only dates get day 01).
pub(crate) fn loose_date(s: &str) -> Option<String> {
    let s = s.trim();
    if let Ok(d) = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        return Some(d.to_string());
    }
    if let Ok(d) = chrono::NaiveDate::parse_from_str(&format!("{s}-01"), "%Y-%m-%d") {
        return Some(d.to_string());
    }
    for fmt in ["%B %d, %Y", "%b %d, %Y"] {
        if let Ok(d) = chrono::NaiveDate::parse_from_str(s, fmt) {
            return Some(d.to_string());
        }
    }
    for fmt in ["%B %Y", "%b %Y"] {
        if let Ok(d) = chrono::NaiveDate::parse_from_str(&format!("1 {s}"), &format!("%d {fmt}")) {
            return Some(d.to_string());
        }
    }
    compact_date(s)
}

/// Strings found at JSON pointers, skipping absent ones; arrays of strings are flattened.
pub(crate) fn strings_at(v: &serde_json::Value, pointers: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for p in pointers {
        match v.pointer(p) {
            Some(serde_json::Value::String(s)) => out.push(s.clone()),
            Some(serde_json::Value::Array(items)) => {
                out.extend(items.iter().filter_map(|i| i.as_str().map(str::to_string)))
            }
            _ => {}
        }
    }
    out
}

/// A file of `family` at `rel` holding `body`, as the import reads it.
#[cfg(test)]
pub(crate) fn test_file(family: Family, rel: &str, body: &str) -> ImportFile {
    ImportFile {
        family,
        rel: rel.to_string(),
        bytes: Bytes::copy_from_slice(body.as_bytes()),
        meta: None,
    }
}

/// A parse's records, or what it said instead, as one value to compare.
#[cfg(test)]
pub(crate) fn outcome(parsed: Result<Parsed, ImportError>) -> Result<Vec<Record>, String> {
    match parsed {
        Ok(Parsed::Records(r)) => Ok(r),
        Ok(Parsed::Unplaced(why)) => Err(format!("unplaced: {why}")),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_normalize() {
        assert_eq!(compact_date("20160829").as_deref(), Some("2016-08-29"));
        assert_eq!(loose_date("April 10, 2018").as_deref(), Some("2018-04-10"));
        assert_eq!(loose_date("2023-12-07").as_deref(), Some("2023-12-07"));
        assert_eq!(loose_date("2019-05").as_deref(), Some("2019-05-01"));
        assert_eq!(loose_date("May 2018").as_deref(), Some("2018-05-01"));
        assert_eq!(loose_date("soon"), None);
    }
}
