//! Plain-text passages (blank-line separated, located by byte range) and CSV cells
//! (located as `/<row>/<column>`, rows counted from 0 after the header).

use super::TextError;
use crate::domain::TextField;

/// Passages of a text document; `text` is the exact slice `bytes:START-END` of the input.
pub fn passages(source: &str) -> Vec<TextField> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut end = 0;
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if body.trim().is_empty() {
            if let Some(s) = start.take() {
                out.push(passage(source, s, end));
            }
        } else {
            if start.is_none() {
                start = Some(offset);
            }
            end = offset + body.len();
        }
        offset += line.len();
    }
    if let Some(s) = start {
        out.push(passage(source, s, end));
    }
    out
}

fn passage(source: &str, start: usize, end: usize) -> TextField {
    TextField {
        locator: format!("bytes:{start}-{end}"),
        kind: "passage",
        text: source[start..end].to_string(),
    }
}

/// Every non-empty cell of a CSV table with a header row.
pub fn csv_cells(bytes: &[u8]) -> Result<(Vec<String>, Vec<TextField>), TextError> {
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(bytes);
    let csv_err = |e: csv::Error| TextError::Csv {
        message: crate::domain::one_line(&e.to_string()),
    };
    let header: Vec<String> = reader
        .headers()
        .map_err(csv_err)?
        .iter()
        .map(str::to_string)
        .collect();
    let mut out = Vec::new();
    for (row, rec) in reader.records().enumerate() {
        let rec = rec.map_err(csv_err)?;
        for (col, cell) in header.iter().zip(rec.iter()) {
            if !cell.trim().is_empty() {
                out.push(TextField {
                    locator: format!("/{row}/{}", col.replace('~', "~0").replace('/', "~1")),
                    kind: "cell",
                    text: cell.to_string(),
                });
            }
        }
    }
    Ok((header, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passages_are_exact_byte_slices() {
        let src = "Title line\r\n\r\nFirst para\nstill first.\n\n\nSecond 18.4%\n";
        let p = passages(src);
        assert_eq!(p.len(), 3);
        for f in &p {
            let (a, b) = f.locator["bytes:".len()..].split_once('-').unwrap();
            assert_eq!(
                &src[a.parse::<usize>().unwrap()..b.parse::<usize>().unwrap()],
                f.text
            );
        }
        assert_eq!(p[1].text, "First para\nstill first.");
    }

    #[test]
    fn csv_cells_and_ragged_rows() {
        let (h, cells) = csv_cells(b"year,rate\n2019,12.5\n2020,\n").unwrap();
        assert_eq!(h, vec!["year", "rate"]);
        assert_eq!(cells.len(), 3);
        assert_eq!(cells[1].locator, "/0/rate");
        assert!(csv_cells(b"a,b\n1,2,3\n").is_err());
    }
}
