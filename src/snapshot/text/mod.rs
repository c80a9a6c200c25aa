//! Text-field extraction: every decoded text leaf of a record, with a locator that
//! points back into the record. This is what the quote gate searches, so nothing here
//! rewrites text (except HTML, whose whitespace is collapsed as a browser shows it).
//! Pure functions over bytes; no I/O.

pub mod html;
pub mod json;
pub mod plain;
pub mod xml;

use crate::domain::Fields;

#[derive(Debug, thiserror::Error)]
pub enum TextError {
    #[error("malformed JSON at line {line} column {column}: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("malformed XML at byte {position}: {message}")]
    Xml { position: u64, message: String },
    #[error("not UTF-8 text at byte {position}")]
    Utf8 { position: usize },
    #[error("malformed CSV: {message}")]
    Csv { message: String },
    #[error("no text fields are read from media type {0:?}")]
    MediaType(String),
}

impl TextError {
    pub fn utf8(e: &std::str::Utf8Error) -> TextError {
        TextError::Utf8 {
            position: e.valid_up_to(),
        }
    }

    pub fn json(e: &serde_json::Error) -> TextError {
        TextError::Json {
            line: e.line(),
            column: e.column(),
            message: crate::domain::one_line(&e.to_string()),
        }
    }
}

/// Which of a record's text fields a reading keeps, by locator. A snapshot reads every
/// record while importing, but keeps the fields of only a few ([`Wanted::Under`] the
/// competitor rows' prefixes for approved-drug records); every reader of a bundle reads
/// them all ([`fields_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted<'a> {
    All,
    Nothing,
    /// The fields whose locator starts with one of these, or is one of them without its
    /// trailing `/`.
    Under(&'a [&'a str]),
}

impl Wanted<'_> {
    /// Whether a field at `locator` is kept.
    pub fn takes(&self, locator: &str) -> bool {
        match self {
            Wanted::All => true,
            Wanted::Nothing => false,
            Wanted::Under(prefixes) => prefixes
                .iter()
                .any(|p| locator.starts_with(p) || locator == p.trim_end_matches('/')),
        }
    }

    /// Whether any field may be kept.
    pub fn any(&self) -> bool {
        *self != Wanted::Nothing
    }
}

/// The text fields of a record's raw bytes, read as its media type says: exactly the
/// fields its import gave it (every family's parser reads a record's fields from its
/// own raw bytes this way). A bundle stores a record's raw bytes and not these, so
/// every reader of a bundle gets them from here.
pub fn fields_of(media_type: &str, raw: &[u8]) -> Result<Fields, TextError> {
    let utf8 = || std::str::from_utf8(raw).map_err(|e| TextError::utf8(&e));
    Ok(match media_type {
        "application/json" => match json::leaves_streamed(raw, &[], Wanted::All, &mut |_, _, _| {})
        {
            Ok(Some(s)) => s.fields,
            // a repeated key: the tree decides which value is the leaf
            Ok(None) => {
                let tree: serde_json::Value =
                    serde_json::from_slice(raw).map_err(|e| TextError::json(&e))?;
                let mut fields = Fields::new();
                json::leaves(&tree, "", &mut fields);
                fields
            }
            Err(e) => return Err(TextError::json(&e)),
        },
        "application/xml" => xml::leaves(raw)?
            .into_iter()
            .map(xml::XmlLeaf::into_field)
            .collect(),
        "text/html" => Fields::from(html::leaves(utf8()?).1),
        "text/plain" => Fields::from(plain::passages(utf8()?)),
        "text/csv" => Fields::from(plain::csv_cells(raw)?.1),
        other => return Err(TextError::MediaType(other.to_string())),
    })
}
