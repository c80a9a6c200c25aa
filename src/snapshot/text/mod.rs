//! Text-field extraction: every decoded text leaf of a record, with a locator that
//! points back into the record. This is what the quote gate searches, so nothing here
//! rewrites text (except HTML, whose whitespace is collapsed as a browser shows it).
//! Pure functions over bytes; no I/O.

pub mod html;
pub mod json;
pub mod plain;
pub mod xml;

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
}

impl TextError {
    pub fn json(e: &serde_json::Error) -> TextError {
        TextError::Json {
            line: e.line(),
            column: e.column(),
            message: crate::domain::one_line(&e.to_string()),
        }
    }
}
