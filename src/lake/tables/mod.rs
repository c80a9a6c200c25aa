//! The lake's tables as types: one row struct and one Arrow schema per table, shared by
//! the writers, the precedence rules and the readers (report, tests). Columns are found
//! by name, never by position. Pure: batches and Parquet bytes, no I/O.
//!
//! | table | row | written under |
//! |---|---|---|
//! | `catalog` | [`CatalogRow`] | `tables/catalog/snapshot_id=…/` |
//! | `asset_families` | [`AssetFamilyRow`] | `tables/asset_families/snapshot_id=…/` |
//! | `claims` | [`ClaimRow`] | `tables/claims/run_id=…/asset_id=…/` |
//! | `rejections` | [`RejectionRow`] | `tables/rejections/run_id=…/asset_id=…/` |
//! | `profile_cells` | [`CellRow`] | `tables/profile_cells/run_id=…/asset_id=…/` |
//! | `conflicts` | [`ConflictRow`] | `tables/conflicts/run_id=…/asset_id=…/` |
//! | `cell_changes` | [`CellChangeRow`] | `tables/cell_changes/run_id=…/asset_id=…/` |
//!
//! The rules' inputs ([`AcceptedRow`], [`EmptyCellRow`]) and outputs ([`RulesCellRow`],
//! [`ConflictRow`]) and the analyst views the report reads ([`ProfileRow`],
//! [`ProfileConflictRow`]) have row types too.

mod column;
mod run;
mod snapshot;
mod views;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::error::ArrowError;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::errors::ParquetError;
use datafusion::parquet::file::properties::{EnabledStatistics, WriterProperties};

pub use column::{Column, Day, Number, TableError};
pub use run::{
    AcceptedRow, CellChangeRow, CellRow, ClaimRow, ConflictRow, EmptyCellRow, RejectionRow,
    RulesCellRow,
};
pub use snapshot::{AssetFamilyRow, CatalogRow, asset_families, catalog};
pub use views::{ProfileConflictRow, ProfileRow};

/// A table's row type: its name, columns and schema, and the conversions to and from
/// Arrow batches (by column name; extra columns of a batch are ignored).
pub trait Table: Sized {
    const NAME: &'static str;
    const COLUMNS: &'static [&'static str];
    fn schema() -> SchemaRef;
    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError>;
    fn from_batch(batch: &RecordBatch) -> Result<Vec<Self>, TableError>;

    /// Rows of several batches, in order.
    fn from_batches(batches: &[RecordBatch]) -> Result<Vec<Self>, TableError> {
        let mut out = Vec::new();
        for b in batches {
            out.extend(Self::from_batch(b)?);
        }
        Ok(out)
    }
}

/// Declares a table's row struct and its [`Table`] impl. `nullable = true` makes every
/// column nullable whatever its Rust type (the run tables, whose partitions must share
/// one schema); `false` makes `Option` columns nullable and the rest required.
macro_rules! table {
    (
        $(#[$meta:meta])*
        pub struct $row:ident in $name:literal, nullable = $all:literal {
            $( $(#[$fmeta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
        pub struct $row {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl $crate::lake::tables::Table for $row {
            const NAME: &'static str = $name;
            const COLUMNS: &'static [&'static str] = &[$(stringify!($field)),*];

            fn schema() -> datafusion::arrow::datatypes::SchemaRef {
                use $crate::lake::tables::Column;
                std::sync::Arc::new(datafusion::arrow::datatypes::Schema::new(vec![$(
                    datafusion::arrow::datatypes::Field::new(
                        stringify!($field),
                        <$ty as Column>::data_type(),
                        $all || <$ty as Column>::OPTIONAL,
                    ),
                )*]))
            }

            fn to_batch(
                rows: &[Self],
            ) -> Result<datafusion::arrow::array::RecordBatch, datafusion::arrow::error::ArrowError> {
                use $crate::lake::tables::Column;
                datafusion::arrow::array::RecordBatch::try_new(
                    Self::schema(),
                    vec![$( <$ty as Column>::array(rows.iter().map(|r| &r.$field)), )*],
                )
            }

            fn from_batch(
                batch: &datafusion::arrow::array::RecordBatch,
            ) -> Result<Vec<Self>, $crate::lake::tables::TableError> {
                use $crate::lake::tables::Column;
                $( let $field = <$ty as Column>::column(batch, $name, stringify!($field))?; )*
                (0..batch.num_rows())
                    .map(|row| {
                        Ok($row {
                            $( $field: <$ty as Column>::read(&$field, row)
                                .ok_or_else(|| $crate::lake::tables::TableError::Null {
                                    table: $name,
                                    column: stringify!($field),
                                    row,
                                })?, )*
                        })
                    })
                    .collect()
            }
        }
    };
}
pub(crate) use table;

/// Deterministic Parquet bytes of one batch. Statistics are kept per column chunk, not
/// per page: a part is one asset's rows, and no reader skips pages inside one; the page
/// indexes only made every footer larger to read (`bench/analyst_queries.sh`, the
/// portfolio query's first execution over 500 parts: 129 ms -> 125 ms, medians of nine).
pub fn to_parquet(batch: &RecordBatch) -> Result<Vec<u8>, ParquetError> {
    let props = WriterProperties::builder()
        .set_created_by("dossier table v1".to_string())
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, batch.schema(), Some(props))?;
    w.write(batch)?;
    w.close()?;
    Ok(out)
}

/// `Some` unless empty: the rules hold '' in key columns where the tables hold NULL.
pub fn non_empty(v: Option<String>) -> Option<String> {
    v.filter(|s| !s.is_empty())
}
