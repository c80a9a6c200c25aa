//! The Rust types a table column may have, with their Arrow type and how a column of
//! them is built and read back. Reading casts first (a view may hand back `Utf8View`).

use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, BooleanArray, RecordBatch, StringArray, UInt64Array,
};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::arrow::error::ArrowError;

#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("table {table} has no column {column}")]
    MissingColumn {
        table: &'static str,
        column: &'static str,
    },
    #[error("reading column {column} of {table}")]
    Cast {
        table: &'static str,
        column: &'static str,
        #[source]
        source: ArrowError,
    },
    #[error("column {column} of {table} is NULL in row {row}, where a value is required")]
    Null {
        table: &'static str,
        column: &'static str,
        row: usize,
    },
}

/// A column's Rust type.
pub trait Column: Sized {
    /// Whether the type holds NULL (`Option`).
    const OPTIONAL: bool;
    fn data_type() -> DataType;
    /// A column of these values.
    fn array<'a>(values: impl Iterator<Item = &'a Self>) -> ArrayRef
    where
        Self: 'a;
    /// The named column of a batch, cast to this type's Arrow type.
    fn column(
        batch: &RecordBatch,
        table: &'static str,
        name: &'static str,
    ) -> Result<ArrayRef, TableError> {
        let a = batch
            .column_by_name(name)
            .ok_or(TableError::MissingColumn {
                table,
                column: name,
            })?;
        cast(a, &Self::data_type()).map_err(|source| TableError::Cast {
            table,
            column: name,
            source,
        })
    }
    /// Row `i` of a column from [`Column::column`]; `None` where a required value is NULL.
    fn read(column: &ArrayRef, i: usize) -> Option<Self>;
}

fn strings(column: &ArrayRef) -> &StringArray {
    column
        .as_any()
        .downcast_ref::<StringArray>()
        .expect("Column::column cast it to Utf8")
}

impl Column for String {
    const OPTIONAL: bool = false;
    fn data_type() -> DataType {
        DataType::Utf8
    }
    fn array<'a>(values: impl Iterator<Item = &'a Self>) -> ArrayRef {
        Arc::new(StringArray::from_iter_values(values.map(String::as_str)))
    }
    fn read(column: &ArrayRef, i: usize) -> Option<Self> {
        let a = strings(column);
        (!a.is_null(i)).then(|| a.value(i).to_string())
    }
}

impl Column for Option<String> {
    const OPTIONAL: bool = true;
    fn data_type() -> DataType {
        DataType::Utf8
    }
    fn array<'a>(values: impl Iterator<Item = &'a Self>) -> ArrayRef {
        Arc::new(StringArray::from_iter(values.map(Option::as_deref)))
    }
    fn read(column: &ArrayRef, i: usize) -> Option<Self> {
        Some(String::read(column, i))
    }
}

impl Column for bool {
    const OPTIONAL: bool = false;
    fn data_type() -> DataType {
        DataType::Boolean
    }
    fn array<'a>(values: impl Iterator<Item = &'a Self>) -> ArrayRef {
        Arc::new(BooleanArray::from(values.copied().collect::<Vec<_>>()))
    }
    fn read(column: &ArrayRef, i: usize) -> Option<Self> {
        let a = column.as_any().downcast_ref::<BooleanArray>()?;
        (!a.is_null(i)).then(|| a.value(i))
    }
}

impl Column for u64 {
    const OPTIONAL: bool = false;
    fn data_type() -> DataType {
        DataType::UInt64
    }
    fn array<'a>(values: impl Iterator<Item = &'a Self>) -> ArrayRef {
        Arc::new(UInt64Array::from_iter_values(values.copied()))
    }
    fn read(column: &ArrayRef, i: usize) -> Option<Self> {
        let a = column.as_any().downcast_ref::<UInt64Array>()?;
        (!a.is_null(i)).then(|| a.value(i))
    }
}
