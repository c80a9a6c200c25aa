//! Bundle encoding: one asset's records (its own and its competitors') as one Parquet
//! file, a row per record with its exact raw bytes. A record's text fields are not
//! stored beside its raw bytes: they are a pure function of them ([`fields_of`]), and
//! every reader gets them from there ([`rows`]). A competitor's record is stored once
//! per snapshot, in its competitors object, with no raw bytes and the few fields it
//! keeps ([`competitor_fields`]); an asset bundle's competitor row only names it
//! ([`Member::thin`], [`rows_with`]). The encoding is
//! deterministic (fixed row order, fixed writer properties, no timestamps), so equal
//! content gives equal bytes and so an equal content address. Pure; no I/O.

use std::sync::{Arc, LazyLock};

use bytes::Bytes;
use datafusion::arrow::array::{
    Array, ArrayRef, BinaryArray, BinaryBuilder, ListArray, RecordBatch, StringArray,
    StringBuilder, StructArray,
};
use datafusion::arrow::buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use datafusion::arrow::datatypes::{DataType, Field, Fields, Schema, SchemaRef};
use datafusion::arrow::error::ArrowError;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion::parquet::arrow::arrow_writer::{
    ArrowColumnChunk, ArrowColumnWriter, ArrowLeafColumn, compute_leaves,
};
use datafusion::parquet::arrow::{ArrowSchemaConverter, ArrowWriter};
use datafusion::parquet::basic::{Compression, Encoding};
use datafusion::parquet::errors::ParquetError;
use datafusion::parquet::file::properties::{EnabledStatistics, WriterProperties};
use rayon::prelude::*;

use crate::domain::{Field as TextField, Fields as TextFields, Record};
use crate::snapshot::resolve::Role;
use crate::snapshot::text::{Wanted, fields_of};

#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("encoding bundle of asset {asset}")]
    Encode {
        asset: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    #[error("decoding bundle {what}")]
    Decode {
        what: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// Columns of a bundle row, in order. `fields` is a list of (locator, kind, text): the
/// kept fields of a competitors object's row (or of an older bundle's competitor row),
/// and empty for every other row.
pub const COLUMNS: [&str; 14] = [
    "asset_id",
    "role",
    "source_id",
    "family",
    "record_key",
    "url",
    "retrieved_at",
    "cutoff_date",
    "title",
    "media_type",
    "content_sha256",
    "raw_bytes",
    "raw",
    "fields",
];

fn field_struct() -> Fields {
    Fields::from(vec![
        Field::new("locator", DataType::Utf8, false),
        Field::new("kind", DataType::Utf8, false),
        Field::new("text", DataType::Utf8, false),
    ])
}

pub fn schema() -> SchemaRef {
    let s = |name: &str, nullable| Field::new(name, DataType::Utf8, nullable);
    Arc::new(Schema::new(vec![
        s("asset_id", false),
        s("role", false),
        s("source_id", false),
        s("family", false),
        s("record_key", false),
        s("url", false),
        s("retrieved_at", true),
        s("cutoff_date", true),
        s("title", true),
        s("media_type", false),
        s("content_sha256", false),
        Field::new("raw_bytes", DataType::UInt64, false),
        Field::new("raw", DataType::Binary, false),
        Field::new(
            "fields",
            DataType::List(Arc::new(Field::new(
                "item",
                DataType::Struct(field_struct()),
                true,
            ))),
            false,
        ),
    ]))
}

/// The large columns: the raw bytes and the text fields' locators and text hold nearly
/// all of a bundle's bytes, and are compressed with LZ4. Every other column is a few
/// bytes a row, written as a dictionary or with LZ4.
const LARGE_COLUMNS: [&str; 3] = ["raw", "locator", "text"];
/// Columns of few distinct values, written as dictionaries.
const DICTIONARY_COLUMNS: [&str; 7] = [
    "asset_id",
    "role",
    "family",
    "media_type",
    "kind",
    "retrieved_at",
    "cutoff_date",
];
/// Rows per row group of a bundle.
const ROW_GROUP_ROWS: usize = 4096;

/// The asset id of the snapshot's sources object, which holds every record.
pub const SOURCES: &str = "*";

/// Every bundle's properties, the sources and competitors objects' too. Their large
/// columns are compressed with LZ4, not zstd: a zstd column costs a compression context
/// per column chunk, and on the real corpus zstd (level 1) held the sources object's
/// encoder for about as long as the asset bundles together (a 2.6 MB companyfacts
/// record is one page). With LZ4 the real corpus's objects take 1.33 MB instead of
/// 1.02, and the synthetic corpus's 7.8 MB instead of 7.4.
static PROPS: LazyLock<WriterProperties> = LazyLock::new(writer_props);

fn writer_props() -> WriterProperties {
    let mut props = WriterProperties::builder()
        .set_created_by("dossier bundle v1".to_string())
        .set_compression(Compression::UNCOMPRESSED)
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        // Text and raw bytes rarely repeat exactly: dictionaries cost time for nothing.
        .set_dictionary_enabled(false)
        .set_data_page_size_limit(1 << 20);
    let parquet = ArrowSchemaConverter::new()
        .convert(&schema())
        .expect("the bundle schema converts to Parquet");
    for column in parquet.columns() {
        let path = column.path();
        let leaf = path.parts().last().map(String::as_str).unwrap_or_default();
        // a record's locators run in document order and share long prefixes
        if leaf == "locator" {
            props = props.set_column_encoding(path.clone(), Encoding::DELTA_BYTE_ARRAY);
        }
        if LARGE_COLUMNS.contains(&leaf) {
            // Nothing prunes on the bounds of raw bytes or text; computing them compared
            // every value with the bounds so far.
            props = props.set_column_statistics_enabled(path.clone(), EnabledStatistics::None);
        }
        if DICTIONARY_COLUMNS.contains(&leaf) {
            props = props.set_column_dictionary_enabled(path.clone(), true);
        } else {
            props = props.set_column_compression(path.clone(), Compression::LZ4_RAW);
        }
    }
    props.build()
}

/// Locator prefixes a competitor row keeps: identity, indication and approval fields,
/// enough for the competitors section. The full record is in the snapshot's `sources`
/// object; copying every competitor label whole into every bundle of its class would
/// make bundles grow with the square of the portfolio.
pub const COMPETITOR_KEEP: [&str; 9] = [
    "/set_id",
    "/effective_time",
    "/openfda/",
    "/indications_and_usage/",
    "/application_number",
    "/sponsor_name",
    "/products/",
    "/submissions/",
    "/boxed_warning/",
];

fn kept(tf: &TextField) -> bool {
    Wanted::Under(&COMPETITOR_KEEP).takes(tf.locator)
}

/// The text fields a competitor row of `record` keeps, packed back to back as a
/// record's own are. A snapshot packs them once per record: a label is a competitor in
/// every bundle of its class, and testing each of its fields again for each of those
/// bundles grew with the square of the portfolio; packed, each bundle copies them as a
/// subject row copies its record's, a buffer at a time.
pub fn competitor_fields(record: &Record) -> TextFields {
    let mut out = TextFields::new();
    for tf in record.fields.iter().filter(kept) {
        out.push(tf.locator, tf.kind, tf.text);
    }
    out
}

/// The `competitor_fields` of a row that is not a competitor's: no fields, and never
/// read.
pub static NO_FIELDS: TextFields = TextFields::new();

/// One row of a bundle being encoded: a record, its role, and for a competitor row the
/// fields it keeps ([`competitor_fields`]).
#[derive(Clone, Copy)]
pub struct Member<'a> {
    pub role: Role,
    pub record: &'a Record,
    /// Read only when `role` is [`Role::Competitor`].
    pub competitor_fields: &'a TextFields,
    /// A competitor row of an asset bundle that names its record and no more: its
    /// source id, role, family, media type and length. Everything else of it (key, URL,
    /// dates, title, hash, kept fields) is stored once per snapshot, in its competitors
    /// object ([`Competitors`]): a label is a competitor in every bundle of its class,
    /// and each copy was written again.
    pub thin: bool,
}

impl<'a> Member<'a> {
    /// The text fields the row stores: a competitor's kept ones, and none for a row with
    /// raw bytes, whose readers read its fields from them.
    fn carried(&self) -> &'a TextFields {
        match self.role {
            Role::Competitor if !self.thin => self.competitor_fields,
            _ => &NO_FIELDS,
        }
    }

    /// The text fields the row stores, one by one.
    #[cfg(test)]
    fn fields(&self) -> impl Iterator<Item = TextField<'a>> + use<'a> {
        self.carried().iter()
    }

    /// How many text fields the row stores, and their locators' and texts' bytes.
    fn field_sizes(&self) -> (usize, usize, usize) {
        let fields = self.carried();
        (fields.len(), fields.locators().len(), fields.texts().len())
    }

    /// The raw bytes the row carries: none for a competitor.
    fn raw(&self) -> &'a [u8] {
        if self.role == Role::Competitor {
            &[]
        } else {
            &self.record.raw
        }
    }
}

/// Encodes one asset's members. Rows are ordered subject first, then by family, key
/// and content hash, whatever order `rows` came in. Competitor rows store their kept
/// fields ([`competitor_fields`]) and no raw bytes (`raw` empty, `raw_bytes` still the
/// record's full length); subject and source rows store their raw bytes and no fields.
pub fn encode(asset_id: &str, mut rows: Vec<Member>) -> Result<Vec<u8>, BundleError> {
    rows.sort_by(|a, b| {
        let (ra, rb) = (a.record, b.record);
        (a.role, ra.family, &ra.record_key, &ra.content_sha256).cmp(&(
            b.role,
            rb.family,
            &rb.record_key,
            &rb.content_sha256,
        ))
    });
    let enc_err = |e: Box<dyn std::error::Error + Send + Sync>| BundleError::Encode {
        asset: asset_id.to_string(),
        source: e,
    };
    write_rows(asset_id, &rows, &PROPS, CHUNK_BYTES).map_err(|e| enc_err(Box::new(e)))
}

/// Raw and text bytes of the rows made into one Arrow batch at a time while a bundle is
/// written. A sources object holds every record of the snapshot; made into one batch
/// whole, it copied them all at once, beside the records themselves. In chunks, the
/// peak memory of an import of 500 synthetic assets went from 291 to 245 MB, and fresh
/// memory is costly here: the kernel zeroes every page of it. An asset bundle is
/// nearly always one chunk.
const CHUNK_BYTES: usize = 2 << 20;

/// Row-group-sized runs of `rows`, each cut into chunks of about `chunk_bytes` of raw
/// bytes and text (a chunk holds at least one row).
fn chunks<'r, 'a>(
    rows: &'r [Member<'a>],
    chunk_bytes: usize,
) -> impl Iterator<Item = Vec<&'r [Member<'a>]>> {
    rows.chunks(ROW_GROUP_ROWS).map(move |group| {
        let mut out = Vec::new();
        let (mut start, mut bytes) = (0, 0);
        for (i, m) in group.iter().enumerate() {
            let (_, locators, texts) = m.field_sizes();
            let size = m.raw().len() + locators + texts;
            if i > start && bytes + size > chunk_bytes {
                out.push(&group[start..i]);
                (start, bytes) = (i, 0);
            }
            bytes += size;
        }
        out.push(&group[start..]);
        out
    })
}

/// Writes `rows` as a bundle file: row groups of [`ROW_GROUP_ROWS`] rows, each made
/// into Arrow batches a chunk at a time ([`CHUNK_BYTES`]) and fed to its column
/// writers, which encode side by side on the thread pool; the column chunks are then
/// appended in order. A row group of one chunk has the bytes `ArrowWriter` writes for
/// the same batch and properties. A sources object's raw bytes, locators and text are
/// each as large as the rest of its columns together: encoded one after another, they
/// left every other core idle. A row group of several chunks goes column by column
/// instead ([`write_apart`]); each writer is fed the same leaves in the same order
/// either way, so the bytes are the same.
fn write_rows(
    asset_id: &str,
    rows: &[Member],
    props: &WriterProperties,
    chunk_bytes: usize,
) -> Result<Vec<u8>, ParquetError> {
    let mut out = Vec::new();
    let writer = ArrowWriter::try_new(&mut out, schema(), Some(props.clone()))?;
    let (mut file, factory) = writer.into_serialized_writer()?;
    for (group, parts) in chunks(rows, chunk_bytes).enumerate() {
        let mut writers = factory.create_column_writers(group)?;
        if let [part] = parts[..] {
            let batch = to_batch(asset_id, part)?;
            let mut leaves = Vec::new();
            for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
                leaves.extend(compute_leaves(field, column)?);
            }
            writers
                .par_iter_mut()
                .zip(leaves.par_iter())
                .try_for_each(|(w, leaf)| w.write(leaf))?;
        } else {
            write_apart(asset_id, &parts, &mut writers)?;
        }
        let chunks: Vec<ArrowColumnChunk> = writers
            .into_par_iter()
            .map(|w| w.close())
            .collect::<Result<_, ParquetError>>()?;
        // the file grows once by the row group's bytes, not by doubling and copying
        let bytes: u64 = chunks.iter().map(|c| c.close().bytes_written).sum();
        file.inner_mut()
            .reserve(usize::try_from(bytes).unwrap_or(0));
        let mut row_group = file.next_row_group()?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut row_group)?;
        }
        row_group.close()?;
    }
    file.close()?;
    Ok(out)
}

/// Where the raw bytes are among a bundle's columns, and among its leaves (the column
/// writers' order): each column before it is one leaf, and after it come the `fields`
/// column's three leaves (locator, kind, text).
const RAW_LEAF: usize = 12;
const LEAVES: usize = RAW_LEAF + 4;

/// Writes a row group of several chunks as four tasks side by side, each going through
/// every chunk for its own leaves: the small columns with the fields' kinds, the raw
/// bytes, the locators, the texts. Fed chunk by chunk to all sixteen writers at once,
/// each chunk waited for its slowest leaf before the next began, and one large record
/// is a chunk of its own: on the real corpus, a 2.6 MB companyfacts record's texts held
/// the sources object's writers for about as long as every other chunk together, one
/// core idle.
fn write_apart(
    asset_id: &str,
    parts: &[&[Member]],
    writers: &mut [ArrowColumnWriter],
) -> Result<(), ParquetError> {
    let schema = schema();
    let fields = schema.fields();
    let [small @ .., raw, locator, kind, text] = writers else {
        return Err(ParquetError::General(format!(
            "a bundle row group has {} column writers, not {LEAVES}",
            writers.len()
        )));
    };
    let fields_leaf = |part: &[Member], want: FieldLeaf| -> Result<ArrowLeafColumn, ParquetError> {
        let list: ArrayRef = Arc::new(fields_array(part, Some(want))?);
        compute_leaves(&fields[RAW_LEAF + 1], &list)?
            .into_iter()
            .nth(want as usize)
            .ok_or_else(|| ParquetError::General("the fields column has three leaves".into()))
    };
    let small_and_kinds = || -> Result<(), ParquetError> {
        for part in parts {
            let columns = small_columns(asset_id, part)?;
            let mut leaves = Vec::with_capacity(RAW_LEAF);
            for (field, column) in fields.iter().zip(&columns) {
                leaves.extend(compute_leaves(field, column)?);
            }
            for (w, leaf) in small.iter_mut().zip(&leaves) {
                w.write(leaf)?;
            }
            kind.write(&fields_leaf(part, FieldLeaf::Kind)?)?;
        }
        Ok(())
    };
    let raw_bytes = || -> Result<(), ParquetError> {
        for part in parts {
            let column = raw_bytes_of(part);
            for leaf in compute_leaves(&fields[RAW_LEAF], &column)? {
                raw.write(&leaf)?;
            }
        }
        Ok(())
    };
    let one = |w: &mut ArrowColumnWriter, want: FieldLeaf| -> Result<(), ParquetError> {
        for part in parts {
            w.write(&fields_leaf(part, want)?)?;
        }
        Ok(())
    };
    let ((a, b), (c, d)) = rayon::join(
        || rayon::join(small_and_kinds, raw_bytes),
        || {
            rayon::join(
                || one(locator, FieldLeaf::Locator),
                || one(text, FieldLeaf::Text),
            )
        },
    );
    a.and(b).and(c).and(d)
}

/// The leaves of the `fields` column, in order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FieldLeaf {
    Locator = 0,
    Kind = 1,
    Text = 2,
}

fn to_batch(asset_id: &str, rows: &[Member]) -> Result<RecordBatch, ParquetError> {
    let mut columns = small_columns(asset_id, rows)?;
    columns.push(raw_bytes_of(rows));
    columns.push(Arc::new(fields_array(rows, None)?));
    Ok(RecordBatch::try_new(schema(), columns)?)
}

/// The raw bytes column of `rows`.
fn raw_bytes_of(rows: &[Member]) -> ArrayRef {
    // Sized up front: the raw bytes and text fields are most of a bundle, and growing
    // their buffers by doubling copied them again and again.
    let raw_bytes: usize = rows.iter().map(|m| m.raw().len()).sum();
    let mut raw = BinaryBuilder::with_capacity(rows.len(), raw_bytes);
    for m in rows {
        raw.append_value(m.raw());
    }
    Arc::new(raw.finish())
}

/// The twelve columns of `rows` before the raw bytes.
fn small_columns(asset_id: &str, rows: &[Member]) -> Result<Vec<ArrayRef>, ParquetError> {
    // Each text column is written straight into its builder: a String per row and
    // column was half a million allocations for a bundle of 500 assets' competitors.
    // a thin row's text is empty where the column needs a value, else null
    let text = |f: &dyn Fn(&Record) -> Option<&str>, thin: Option<&'static str>| -> ArrayRef {
        let bytes = rows
            .iter()
            .map(|m| if m.thin { thin } else { f(m.record) }.map_or(0, str::len))
            .sum();
        let mut b = StringBuilder::with_capacity(rows.len(), bytes);
        for m in rows {
            b.append_option(if m.thin { thin } else { f(m.record) });
        }
        Arc::new(b.finish())
    };
    let label = |v: &dyn for<'m> Fn(&'m Member) -> &'m str| -> ArrayRef {
        let mut b = StringBuilder::with_capacity(rows.len(), 0);
        for m in rows {
            b.append_value(v(m));
        }
        Arc::new(b.finish())
    };
    let mut source_ids = StringBuilder::with_capacity(rows.len(), rows.len() * 48);
    for m in rows {
        m.record
            .write_source_id(&mut source_ids)
            .map_err(|e| datafusion::arrow::error::ArrowError::ExternalError(Box::new(e)))?;
        source_ids.append_value("");
    }
    Ok(vec![
        Arc::new(StringArray::from_iter_values(std::iter::repeat_n(
            asset_id,
            rows.len(),
        ))),
        label(&|m| m.role.as_str()),
        Arc::new(source_ids.finish()),
        label(&|m| m.record.family.as_str()),
        text(&|r| Some(&r.record_key), Some("")),
        text(&|r| Some(&r.url), Some("")),
        text(&|r| r.retrieved_at.as_deref(), None),
        text(&|r| r.cutoff_date.as_deref(), None),
        text(&|r| r.title.as_deref(), None),
        label(&|m| m.record.media_type),
        text(&|r| Some(&r.content_sha256), Some("")),
        Arc::new(datafusion::arrow::array::UInt64Array::from_iter_values(
            rows.iter().map(|m| m.record.raw.len() as u64),
        )),
    ])
}

/// One string column of the `fields` list being made: its bytes and offsets.
struct TextColumn {
    values: Vec<u8>,
    offsets: Vec<i32>,
}

impl TextColumn {
    fn with_capacity(n: usize, bytes: usize) -> TextColumn {
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        TextColumn {
            values: Vec::with_capacity(bytes),
            offsets,
        }
    }

    fn offset(len: usize) -> Result<i32, ArrowError> {
        i32::try_from(len).map_err(|_| {
            ArrowError::InvalidArgumentError(format!(
                "a chunk's fields column reaches offset {len}, past what its offsets can hold"
            ))
        })
    }

    /// Appends a record's buffer whole, with one offset per field: where each field
    /// ends in `all`.
    fn push_all(&mut self, all: &str, ends: impl Iterator<Item = usize>) -> Result<(), ArrowError> {
        let base = self.values.len();
        self.values.extend_from_slice(all.as_bytes());
        for end in ends {
            self.offsets.push(Self::offset(base + end)?);
        }
        Ok(())
    }

    fn finish(self) -> Result<ArrayRef, ArrowError> {
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
        Ok(Arc::new(StringArray::try_new(
            offsets,
            Buffer::from_vec(self.values),
            None,
        )?))
    }
}

/// The `fields` column of `rows`: each row copies the locator and text buffers of the
/// fields it carries (its record's, or a competitor's packed kept ones) whole, one copy
/// each, and takes its offsets from their ends. The
/// arrays are those a list builder makes field by field (no null buffers), so the
/// bundle's bytes are the same. With `only`, the other two leaves are left empty (a
/// string of no bytes per field): the list's offsets, and so the leaf's levels, are the
/// same.
fn fields_array(rows: &[Member], only: Option<FieldLeaf>) -> Result<ListArray, ArrowError> {
    let wants = |leaf: FieldLeaf| only.is_none_or(|o| o == leaf);
    let (n, locator_bytes, text_bytes) = rows
        .iter()
        .map(Member::field_sizes)
        .fold((0, 0, 0), |(n, l, t), (rn, rl, rt)| {
            (n + rn, l + rl, t + rt)
        });
    let mut locators =
        wants(FieldLeaf::Locator).then(|| TextColumn::with_capacity(n, locator_bytes));
    let mut texts = wants(FieldLeaf::Text).then(|| TextColumn::with_capacity(n, text_bytes));
    let mut kinds = wants(FieldLeaf::Kind).then(|| StringBuilder::with_capacity(n, n * KIND_BYTES));
    let mut list_offsets = Vec::with_capacity(rows.len() + 1);
    list_offsets.push(0i32);
    let mut fields_so_far = 0usize;
    for m in rows {
        let fields = m.carried();
        let ends = fields.ends();
        if let Some(locators) = &mut locators {
            locators.push_all(fields.locators(), ends.iter().map(|e| e.0))?;
        }
        if let Some(texts) = &mut texts {
            texts.push_all(fields.texts(), ends.iter().map(|e| e.1))?;
        }
        if let Some(kinds) = &mut kinds {
            for e in ends {
                kinds.append_value(e.2);
            }
        }
        fields_so_far += ends.len();
        list_offsets.push(TextColumn::offset(fields_so_far)?);
    }
    let text_or_empty = |built: Option<TextColumn>| {
        built.map_or_else(|| Ok(empty_strings(fields_so_far)), TextColumn::finish)
    };
    let values = StructArray::try_new(
        field_struct(),
        vec![
            text_or_empty(locators)?,
            kinds.map_or_else(
                || empty_strings(fields_so_far),
                |mut k| Arc::new(k.finish()) as ArrayRef,
            ),
            text_or_empty(texts)?,
        ],
        None,
    )?;
    let item = Arc::new(Field::new("item", DataType::Struct(field_struct()), true));
    ListArray::try_new(
        item,
        OffsetBuffer::new(ScalarBuffer::from(list_offsets)),
        Arc::new(values),
        None,
    )
}

/// `n` empty strings: a leaf of the `fields` column that is not being written.
fn empty_strings(n: usize) -> ArrayRef {
    Arc::new(StringArray::new(
        OffsetBuffer::new_zeroed(n),
        Buffer::from_vec(Vec::<u8>::new()),
        None,
    ))
}

/// The bytes per field a kind column is sized for: `attribute`, the longest kind the
/// text walkers give (a longer one would only grow the buffer).
const KIND_BYTES: usize = 9;

/// Decodes a bundle's batches (already hash-verified by the lake).
pub fn decode(bytes: Bytes, what: &str) -> Result<Vec<RecordBatch>, BundleError> {
    let mut out = Vec::new();
    decode_each(bytes, what, |b| {
        out.push(b);
        Ok(())
    })?;
    Ok(out)
}

/// Decodes a bundle one batch at a time, handing each to `each`, so a caller that keeps
/// less than the batches (the evidence index) never holds the whole decoded bundle. The
/// first error `each` returns ends the decoding.
pub fn decode_each(
    bytes: Bytes,
    what: &str,
    mut each: impl FnMut(RecordBatch) -> Result<(), BundleError>,
) -> Result<(), BundleError> {
    let dec_err = |e: Box<dyn std::error::Error + Send + Sync>| BundleError::Decode {
        what: what.to_string(),
        source: e,
    };
    // small batches: a sources object's records are large, and a caller indexing them
    // holds one batch beside what it keeps
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes)
        .map_err(|e| dec_err(Box::new(e)))?
        .with_batch_size(256)
        .build()
        .map_err(|e| dec_err(Box::new(e)))?;
    for b in reader {
        each(b.map_err(|e| dec_err(Box::new(e)))?)?;
    }
    Ok(())
}

/// One decoded bundle row: its identity, raw bytes and text fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub asset_id: String,
    /// `subject`, `competitor` or `source`.
    pub role: String,
    pub source_id: String,
    pub family: String,
    pub record_key: String,
    pub url: String,
    pub cutoff_date: Option<String>,
    pub raw: Vec<u8>,
    /// (locator, kind, text)
    pub fields: Vec<(String, String, String)>,
}

/// Every row of bundle batches, with its text fields: a competitor row's as stored,
/// every other row's read from its raw bytes ([`fields_of`]). A bundle written before
/// fields were left out stores them for every row, and they are taken as stored.
/// Batches without the bundle columns are skipped. Raw bytes that do not read as their
/// media type says are an error naming the record.
pub fn rows(batches: &[RecordBatch]) -> Result<Vec<Row>, BundleError> {
    rows_with(batches, &Competitors::default())
}

/// A snapshot's competitor records as its competitors object stores them, once each,
/// by source id: what a thin competitor row of an asset bundle ([`Member::thin`])
/// leaves out. Empty for a snapshot written before competitors objects, whose
/// competitor rows are whole.
#[derive(Debug, Default)]
pub struct Competitors {
    by_id: std::collections::HashMap<String, Competitor>,
}

/// One record of a competitors object: what a thin competitor row leaves out.
#[derive(Debug)]
pub struct Competitor {
    pub family: String,
    pub record_key: String,
    pub url: String,
    pub retrieved_at: Option<String>,
    pub cutoff_date: Option<String>,
    pub title: Option<String>,
    pub content_sha256: String,
    /// The kept fields: (locator, kind, text).
    pub fields: Vec<(String, String, String)>,
}

impl Competitors {
    /// The records of a competitors object's batches.
    pub fn of(batches: &[RecordBatch]) -> Result<Competitors, BundleError> {
        let mut by_id = std::collections::HashMap::new();
        for b in batches {
            let text = |n: &str| -> Result<StringArray, BundleError> {
                b.column_by_name(n)
                    .and_then(|c| c.as_any().downcast_ref::<StringArray>().cloned())
                    .ok_or_else(|| BundleError::Decode {
                        what: "the competitors object".into(),
                        source: format!("no text column {n}").into(),
                    })
            };
            let [sid, family, key, url, retrieved, cutoff, title, sha] = [
                "source_id",
                "family",
                "record_key",
                "url",
                "retrieved_at",
                "cutoff_date",
                "title",
                "content_sha256",
            ]
            .map(text);
            let (sid, family, key, url) = (sid?, family?, key?, url?);
            let (retrieved, cutoff, title, sha) = (retrieved?, cutoff?, title?, sha?);
            let opt = |a: &StringArray, i: usize| (!a.is_null(i)).then(|| a.value(i).to_string());
            let fields = rows(std::slice::from_ref(b))?;
            if fields.len() != b.num_rows() {
                return Err(BundleError::Decode {
                    what: "the competitors object".into(),
                    source: format!("{} of its {} rows read", fields.len(), b.num_rows()).into(),
                });
            }
            for (i, row) in fields.into_iter().enumerate() {
                by_id.insert(
                    sid.value(i).to_string(),
                    Competitor {
                        family: family.value(i).to_string(),
                        record_key: key.value(i).to_string(),
                        url: url.value(i).to_string(),
                        retrieved_at: opt(&retrieved, i),
                        cutoff_date: opt(&cutoff, i),
                        title: opt(&title, i),
                        content_sha256: sha.value(i).to_string(),
                        fields: row.fields,
                    },
                );
            }
        }
        Ok(Competitors { by_id })
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The record a thin competitor row names.
    fn get(&self, source_id: &str) -> Result<&Competitor, BundleError> {
        self.by_id
            .get(source_id)
            .ok_or_else(|| BundleError::Decode {
                what: format!("competitor row {source_id}"),
                source: "not in the snapshot's competitors object".into(),
            })
    }
}

/// Whether row `i` of these columns is a thin competitor row ([`Member::thin`]): a
/// competitor's whose key is left out (a record's key is never empty).
fn is_thin(role: &StringArray, key: &StringArray, i: usize) -> bool {
    key.value(i).is_empty() && role.value(i) == Role::Competitor.as_str()
}

/// A bundle batch with its thin competitor rows made whole from `competitors`, as the
/// asset bundles of a snapshot before competitors objects stored them (the `records`
/// table). A batch without thin rows is returned as it is.
pub fn with_competitors(
    batch: &RecordBatch,
    competitors: &Competitors,
) -> Result<RecordBatch, BundleError> {
    let err = |e: ArrowError| BundleError::Decode {
        what: "a bundle's competitor rows".into(),
        source: Box::new(e),
    };
    let text = |n: &str| {
        batch
            .column_by_name(n)
            .and_then(|c| c.as_any().downcast_ref::<StringArray>().cloned())
    };
    let (Some(role), Some(key), Some(sid)) = (text("role"), text("record_key"), text("source_id"))
    else {
        return Ok(batch.clone());
    };
    let thin: Vec<usize> = (0..batch.num_rows())
        .filter(|&i| is_thin(&role, &key, i))
        .collect();
    if thin.is_empty() {
        return Ok(batch.clone());
    }
    let mut whole = std::collections::HashMap::new();
    for &i in &thin {
        whole.insert(i, competitors.get(sid.value(i))?);
    }
    let fill = |n: &str, part: &dyn Fn(&Competitor) -> Option<&str>| -> Option<ArrayRef> {
        let col = text(n)?;
        let mut b = StringBuilder::with_capacity(col.len(), col.value_data().len());
        for i in 0..col.len() {
            match whole.get(&i) {
                Some(c) => b.append_option(part(c)),
                None if col.is_null(i) => b.append_null(),
                None => b.append_value(col.value(i)),
            }
        }
        Some(Arc::new(b.finish()))
    };
    let mut columns = batch.columns().to_vec();
    let parts: [(&str, &dyn Fn(&Competitor) -> Option<&str>); 7] = [
        ("family", &|c| Some(&c.family)),
        ("record_key", &|c| Some(&c.record_key)),
        ("url", &|c| Some(&c.url)),
        ("retrieved_at", &|c| c.retrieved_at.as_deref()),
        ("cutoff_date", &|c| c.cutoff_date.as_deref()),
        ("title", &|c| c.title.as_deref()),
        ("content_sha256", &|c| Some(&c.content_sha256)),
    ];
    for (name, part) in parts {
        if let (Ok(at), Some(col)) = (batch.schema().index_of(name), fill(name, part)) {
            columns[at] = col;
        }
    }
    RecordBatch::try_new(batch.schema(), columns).map_err(err)
}

/// [`rows`] of an asset bundle whose thin competitor rows ([`Member::thin`]) are made
/// whole from the snapshot's `competitors`; a thin row whose record is not there is an
/// error naming it.
pub fn rows_with(
    batches: &[RecordBatch],
    competitors: &Competitors,
) -> Result<Vec<Row>, BundleError> {
    let mut out = Vec::new();
    for b in batches {
        let s = |n: &str| {
            b.column_by_name(n)
                .and_then(|c| c.as_any().downcast_ref::<StringArray>().cloned())
        };
        let raw = b
            .column_by_name("raw")
            .and_then(|c| c.as_any().downcast_ref::<BinaryArray>().cloned());
        let list = b
            .column_by_name("fields")
            .and_then(|c| c.as_any().downcast_ref::<ListArray>().cloned());
        let (Some(asset), Some(role), Some(sid), Some(fam), Some(key), Some(url), Some(cut)) = (
            s("asset_id"),
            s("role"),
            s("source_id"),
            s("family"),
            s("record_key"),
            s("url"),
            s("cutoff_date"),
        ) else {
            continue;
        };
        let (Some(media), Some(raw), Some(list)) = (s("media_type"), raw, list) else {
            continue;
        };
        // reading fields from raw bytes is most of the work: rows side by side
        let read: Vec<Option<Row>> = (0..b.num_rows())
            .into_par_iter()
            .map(|row| {
                let items = list.value(row);
                let Some(st) = items.as_any().downcast_ref::<StructArray>() else {
                    return Ok(None);
                };
                let part = |i: usize| st.column(i).as_any().downcast_ref::<StringArray>().cloned();
                let (Some(loc), Some(kind), Some(text)) = (part(0), part(1), part(2)) else {
                    return Ok(None);
                };
                if is_thin(&role, &key, row) {
                    let c = competitors.get(sid.value(row))?;
                    return Ok(Some(Row {
                        asset_id: asset.value(row).to_string(),
                        role: role.value(row).to_string(),
                        source_id: sid.value(row).to_string(),
                        family: c.family.clone(),
                        record_key: c.record_key.clone(),
                        url: c.url.clone(),
                        cutoff_date: c.cutoff_date.clone(),
                        raw: Vec::new(),
                        fields: c.fields.clone(),
                    }));
                }
                let fields = if st.is_empty() && role.value(row) != Role::Competitor.as_str() {
                    fields_of(media.value(row), raw.value(row))
                        .map_err(|e| BundleError::Decode {
                            what: format!("the text fields of {}", sid.value(row)),
                            source: Box::new(e),
                        })?
                        .iter()
                        .map(|f| {
                            (
                                f.locator.to_string(),
                                f.kind.to_string(),
                                f.text.to_string(),
                            )
                        })
                        .collect()
                } else {
                    (0..st.len())
                        .map(|j| {
                            (
                                loc.value(j).to_string(),
                                kind.value(j).to_string(),
                                text.value(j).to_string(),
                            )
                        })
                        .collect()
                };
                Ok(Some(Row {
                    asset_id: asset.value(row).to_string(),
                    role: role.value(row).to_string(),
                    source_id: sid.value(row).to_string(),
                    family: fam.value(row).to_string(),
                    record_key: key.value(row).to_string(),
                    url: url.value(row).to_string(),
                    cutoff_date: (!cut.is_null(row)).then(|| cut.value(row).to_string()),
                    raw: raw.value(row).to_vec(),
                    fields,
                }))
            })
            .collect::<Result<_, BundleError>>()?;
        out.extend(read.into_iter().flatten());
    }
    Ok(out)
}

/// Flattens bundle rows into the `text_fields` shape:
/// (asset_id, source_id, family, locator, kind, text).
pub fn text_field_rows(rows: &[Row]) -> Result<RecordBatch, datafusion::arrow::error::ArrowError> {
    let mut cols: [StringBuilder; 6] = Default::default();
    for r in rows {
        for (loc, kind, text) in &r.fields {
            for (b, v) in
                cols.iter_mut()
                    .zip([&r.asset_id, &r.source_id, &r.family, loc, kind, text])
            {
                b.append_value(v);
            }
        }
    }
    let names = ["asset_id", "source_id", "family", "locator", "kind", "text"];
    let schema = Arc::new(Schema::new(
        names
            .iter()
            .map(|n| Field::new(*n, DataType::Utf8, false))
            .collect::<Vec<_>>(),
    ));
    let arrays: Vec<ArrayRef> = cols
        .iter_mut()
        .map(|b| Arc::new(b.finish()) as ArrayRef)
        .collect();
    RecordBatch::try_new(schema, arrays)
}

/// The raw bytes of each row, for tests and the verify step.
pub fn raw_column(batch: &RecordBatch) -> Option<&BinaryArray> {
    batch
        .column_by_name("raw")?
        .as_any()
        .downcast_ref::<BinaryArray>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Facets, Family, TextField, sha256_hex};
    use datafusion::arrow::array::{ListBuilder, StructBuilder};
    use proptest::prelude::*;

    /// A record whose fields are those of its raw bytes, as an import gives them.
    fn record(key: &str, text: &str) -> Record {
        let raw = serde_json::json!({"k": key, "t": text})
            .to_string()
            .into_bytes();
        let fields = fields_of("application/json", &raw).unwrap();
        Record {
            family: Family::Ctgov,
            record_key: key.to_string(),
            url: format!("https://clinicaltrials.gov/study/{key}"),
            retrieved_at: None,
            cutoff_date: Some("2024-01-03".into()),
            title: None,
            media_type: "application/json",
            content_sha256: sha256_hex(&raw),
            raw: raw.into(),
            fields,
            facets: Facets::default(),
        }
    }

    /// Encodes (role, record) pairs, finding each competitor's kept fields as a
    /// snapshot does.
    fn encode_pairs(asset_id: &str, members: &[(Role, &Record)]) -> Vec<u8> {
        let kept = kept_fields(members);
        encode(asset_id, member_rows(members, &kept)).unwrap()
    }

    /// Each competitor's kept fields, as a snapshot finds them (none for other roles).
    fn kept_fields(members: &[(Role, &Record)]) -> Vec<TextFields> {
        members
            .iter()
            .map(|(role, r)| match role {
                Role::Competitor => competitor_fields(r),
                _ => TextFields::new(),
            })
            .collect()
    }

    fn member_rows<'a>(members: &[(Role, &'a Record)], kept: &'a [TextFields]) -> Vec<Member<'a>> {
        members
            .iter()
            .zip(kept)
            .map(|((role, record), kept)| Member {
                role: *role,
                record,
                competitor_fields: kept,
                thin: false,
            })
            .collect()
    }

    proptest! {
        /// The bytes of a bundle do not depend on the order its members arrive in.
        #[test]
        fn encoding_is_order_independent(texts in proptest::collection::vec("[ -~≥×]{0,40}", 1..8), seed in any::<u64>()) {
            let records: Vec<Record> = texts.iter().enumerate().map(|(i, t)| record(&format!("NCT{:08}", i), t)).collect();
            let members: Vec<(Role, &Record)> = records.iter().enumerate()
                .map(|(i, r)| (if i % 3 == 0 { Role::Competitor } else { Role::Subject }, r)).collect();
            let mut shuffled = members.clone();
            let n = shuffled.len();
            for i in 0..n {
                shuffled.swap(i, (seed as usize).wrapping_add(i * 7) % n);
            }
            prop_assert_eq!(encode_pairs("a", &members), encode_pairs("a", &shuffled));
        }
    }

    /// The bundle writer writes the bytes the plain Arrow writer writes, over more than
    /// one row group, and every row reads back; written in many small chunks, it writes
    /// the bytes of the same chunks fed to the Arrow writer one by one, and the same rows
    /// read back in the same order.
    #[test]
    fn the_bundle_writer_writes_the_arrow_writers_bytes_and_chunks_keep_every_row() {
        let n = ROW_GROUP_ROWS + 37;
        let records: Vec<Record> = (0..n)
            .map(|i| {
                record(
                    &format!("NCT{i:08}"),
                    &format!("rate {i}% at week {}", i % 52),
                )
            })
            .collect();
        let rows: Vec<Member> = records
            .iter()
            .map(|record| Member {
                role: Role::Source,
                record,
                competitor_fields: &NO_FIELDS,
                thin: false,
            })
            .collect();
        let batch = to_batch("*", &rows).unwrap();
        let mut serial = Vec::new();
        let mut writer = ArrowWriter::try_new(&mut serial, schema(), Some(PROPS.clone())).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        let whole = write_rows("*", &rows, &PROPS, CHUNK_BYTES).unwrap();
        assert!(
            whole == serial,
            "the bundle writer's bytes and ArrowWriter's differ"
        );
        let reader = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(whole)).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 2);
        let read: usize = reader.build().unwrap().map(|b| b.unwrap().num_rows()).sum();
        assert_eq!(read, n);
        // chunks of about 1 KB: a dozen rows each, several per row group
        let parts: Vec<usize> = chunks(&rows, 1 << 10).map(|p| p.len()).collect();
        assert_eq!(parts.len(), 2);
        assert!(parts.iter().all(|n| *n > 1), "{parts:?}");
        let chunked = write_rows("*", &rows, &PROPS, 1 << 10).unwrap();
        // the Arrow writer fed the same chunks one batch at a time gives every column
        // writer the same leaves in the same order: the same bytes
        let mut fed = Vec::new();
        let mut writer = ArrowWriter::try_new(&mut fed, schema(), Some(PROPS.clone())).unwrap();
        for group in chunks(&rows, 1 << 10) {
            for part in group {
                writer.write(&to_batch("*", part).unwrap()).unwrap();
            }
        }
        writer.close().unwrap();
        assert!(
            chunked == fed,
            "chunks written column by column differ from the same chunks fed to ArrowWriter"
        );
        let expect = rows_of(serial);
        assert_eq!(expect.len(), n);
        assert!(rows_of(chunked) == expect, "chunked rows differ");
    }

    /// The `fields` column made from the records' buffers is the column a list builder
    /// makes field by field: competitor rows with some or none of their fields kept, and
    /// no fields stored for subject and source rows.
    #[test]
    fn the_fields_column_is_the_one_built_field_by_field() {
        let label = |key: &str, fields: &[(&str, &'static str, &str)]| {
            let mut r = record(key, "");
            r.family = Family::FdaLabel;
            r.fields = fields
                .iter()
                .map(|(locator, kind, text)| TextField {
                    locator: locator.to_string(),
                    kind,
                    text: text.to_string(),
                })
                .collect();
            r
        };
        let full = label(
            "a",
            &[
                ("/set_id", "string", "s-1"),
                ("/adverse_reactions/0", "string", "nausea ≥ 5% × 2"),
                ("/openfda/brand_name/0", "string", "Brandé"),
                ("/version", "number", "3"),
            ],
        );
        let empty = label("b", &[]);
        let nothing_kept = label("c", &[("/warnings/0", "string", "none kept")]);
        let members = [
            (Role::Subject, &full),
            (Role::Subject, &empty),
            (Role::Competitor, &full),
            (Role::Competitor, &nothing_kept),
            (Role::Source, &nothing_kept),
        ];
        let kept = kept_fields(&members);
        assert_eq!(
            kept[2].iter().collect::<Vec<_>>(),
            vec![full.fields.get(0), full.fields.get(2)],
            "the competitor row keeps set_id and openfda"
        );
        let rows = member_rows(&members, &kept);
        let mut builder = ListBuilder::new(StructBuilder::new(
            field_struct(),
            vec![
                Box::new(StringBuilder::new()),
                Box::new(StringBuilder::new()),
                Box::new(StringBuilder::new()),
            ],
        ));
        for m in &rows {
            let sb = builder.values();
            for tf in m.fields() {
                for (i, v) in [&*tf.locator, tf.kind, &*tf.text].into_iter().enumerate() {
                    sb.field_builder::<StringBuilder>(i)
                        .unwrap()
                        .append_value(v);
                }
                sb.append(true);
            }
            builder.append(true);
        }
        let built = builder.finish();
        let made = fields_array(&rows, None).unwrap();
        assert_eq!(made.value_offsets(), &[0, 0, 0, 2, 2, 2]);
        assert_eq!(made.value_offsets(), built.value_offsets());
        assert_eq!(made.values().to_data(), built.values().to_data());
        assert!(made.nulls().is_none() && made.values().nulls().is_none());
    }

    fn rows_of(bytes: Vec<u8>) -> Vec<Row> {
        rows(&decode(Bytes::from(bytes), "test").unwrap()).unwrap()
    }

    /// A subject row reads back its raw bytes and, from them, every field of its
    /// record; a competitor row reads back the fields it keeps.
    #[test]
    fn round_trip_keeps_raw_bytes_and_fields() {
        let r = record("NCT00000001", "HR 0.45 ≥ 18");
        let mut label = record("L1", "");
        label.family = Family::FdaLabel;
        label.fields = [("/set_id", "s-1"), ("/warnings/0", "not kept")]
            .into_iter()
            .map(|(locator, text)| TextField {
                locator: locator.into(),
                kind: "string",
                text: text.into(),
            })
            .collect();
        let bytes = encode_pairs("a", &[(Role::Subject, &r), (Role::Competitor, &label)]);
        let batches = decode(Bytes::from(bytes), "test").unwrap();
        assert_eq!(raw_column(&batches[0]).unwrap().value(0), &r.raw[..]);
        let read = rows(&batches).unwrap();
        let triples = |fields: &TextFields| -> Vec<(String, String, String)> {
            fields
                .iter()
                .map(|f| (f.locator.into(), f.kind.into(), f.text.into()))
                .collect()
        };
        assert_eq!(read[0].fields, triples(&r.fields));
        assert!(read[0].fields.iter().any(|f| f.2 == "HR 0.45 ≥ 18"));
        assert_eq!(read[1].fields, triples(&competitor_fields(&label)));
        assert_eq!(read[1].fields.len(), 1);
        let tf = text_field_rows(&read).unwrap();
        assert_eq!(tf.num_rows(), r.fields.len() + 1);
        assert!(decode(Bytes::from_static(b"not parquet"), "junk").is_err());
    }

    /// A bundle written before fields were left out stores every row's fields: a reader
    /// takes a subject row's stored fields as they are, and does not read its raw bytes.
    #[test]
    fn stored_fields_of_an_older_bundle_are_read_as_stored() {
        let r = record("NCT00000003", "from raw");
        let stored: TextFields = [TextField {
            locator: "/stored".into(),
            kind: "string",
            text: "as stored".into(),
        }]
        .into_iter()
        .collect();
        // the row as an older writer wrote it: a subject row with raw bytes and fields
        let row = [Member {
            role: Role::Competitor,
            record: &r,
            competitor_fields: &stored,
            thin: false,
        }];
        let batch = to_batch("a", &row).unwrap();
        let mut columns = batch.columns().to_vec();
        let at = |name: &str| batch.schema().index_of(name).unwrap();
        columns[at("role")] = Arc::new(StringArray::from(vec!["subject"]));
        columns[at("raw")] = Arc::new(BinaryArray::from(vec![&r.raw[..]]));
        let older = RecordBatch::try_new(batch.schema(), columns).unwrap();
        let read = rows(&[older]).unwrap();
        assert_eq!(
            read[0].fields,
            vec![("/stored".into(), "string".into(), "as stored".into())]
        );
        assert_eq!(read[0].raw, &r.raw[..]);
    }

    /// A thin competitor row names its record and no more; read with the snapshot's
    /// competitors object it is the whole row an older bundle stored, and read without
    /// it, or with an object that lacks its record, it is an error naming the record.
    #[test]
    fn thin_competitor_rows_read_whole_from_the_competitors_object() {
        let subject = record("NCT00000001", "subject text");
        let mut label = record("set-1", "label");
        label.family = crate::domain::Family::FdaLabel;
        label.title = Some("Zelno".into());
        label.retrieved_at = Some("2024-05-01".into());
        label.fields = [
            ("/set_id", "set-1"),
            ("/openfda/brand_name/0", "Zelno"),
            ("/adverse_reactions/0", "not kept"),
        ]
        .into_iter()
        .map(|(locator, text)| TextField {
            locator: locator.into(),
            kind: "string",
            text: text.into(),
        })
        .collect();
        let kept = competitor_fields(&label);
        let member = |role, record, thin| Member {
            role,
            record,
            competitor_fields: if role == Role::Competitor {
                &kept
            } else {
                &NO_FIELDS
            },
            thin,
        };
        let older = encode(
            "a",
            vec![
                member(Role::Subject, &subject, false),
                member(Role::Competitor, &label, false),
            ],
        )
        .unwrap();
        let thin = encode(
            "a",
            vec![
                member(Role::Subject, &subject, false),
                member(Role::Competitor, &label, true),
            ],
        )
        .unwrap();
        let object = encode(SOURCES, vec![member(Role::Competitor, &label, false)]).unwrap();
        assert!(thin.len() < older.len());
        let batches = |b: &Vec<u8>| decode(Bytes::from(b.clone()), "test").unwrap();
        let competitors = Competitors::of(&batches(&object)).unwrap();
        assert_eq!(competitors.len(), 1);
        let whole = rows(&batches(&older)).unwrap();
        assert_eq!(rows_with(&batches(&thin), &competitors).unwrap(), whole);
        assert_eq!(whole[1].fields.len(), 2);
        assert_eq!(whole[1].record_key, "set-1");
        // the records table's batch: the same columns an older bundle stored
        let made_whole = with_competitors(&batches(&thin)[0], &competitors).unwrap();
        assert_eq!(made_whole.column_by_name("fields").unwrap().len(), 2);
        for name in &COLUMNS[..12] {
            assert_eq!(
                made_whole.column_by_name(name),
                batches(&older)[0].column_by_name(name),
                "{name}"
            );
        }
        for missing in [
            Competitors::default(),
            Competitors::of(&batches(
                &encode(SOURCES, vec![member(Role::Competitor, &subject, false)]).unwrap(),
            ))
            .unwrap(),
        ] {
            let err = rows_with(&batches(&thin), &missing).unwrap_err();
            let shown = format!("{err}: {}", std::error::Error::source(&err).unwrap());
            assert!(shown.contains(&label.source_id()), "{shown}");
            assert!(with_competitors(&batches(&thin)[0], &missing).is_err());
        }
    }

    /// Raw bytes that no longer read as their media type says are an error naming the
    /// record, not a row without fields.
    #[test]
    fn raw_bytes_that_do_not_read_are_an_error() {
        let mut r = record("NCT00000002", "x");
        r.media_type = "application/xml";
        let bytes = encode_pairs("a", &[(Role::Subject, &r)]);
        let batches = decode(Bytes::from(bytes), "test").unwrap();
        let err = rows(&batches).unwrap_err();
        let shown = format!("{err}: {}", std::error::Error::source(&err).unwrap());
        assert!(shown.contains(&r.source_id()), "{shown}");
    }
}
