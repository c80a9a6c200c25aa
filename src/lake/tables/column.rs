//! The Rust types a table column may have, with their Arrow type and how a column of
//! them is built and read back. Reading casts first (a view may hand back `Utf8View`).

use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, BooleanArray, Date32Array, Float64Array, RecordBatch, StringArray, UInt64Array,
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

/// A number column (`DOUBLE`); equality by bits, so rows stay `Eq`.
#[derive(Debug, Clone, Copy, Default, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Number(pub f64);

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for Number {}

impl Column for Option<Number> {
    const OPTIONAL: bool = true;
    fn data_type() -> DataType {
        DataType::Float64
    }
    fn array<'a>(values: impl Iterator<Item = &'a Self>) -> ArrayRef {
        Arc::new(Float64Array::from_iter(values.map(|v| v.map(|n| n.0))))
    }
    fn read(column: &ArrayRef, i: usize) -> Option<Self> {
        let a = column.as_any().downcast_ref::<Float64Array>()?;
        Some((!a.is_null(i)).then(|| Number(a.value(i))))
    }
}

/// A calendar date column (`DATE`), as days since 1970-01-01.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Day(pub i32);

impl Column for Option<Day> {
    const OPTIONAL: bool = true;
    fn data_type() -> DataType {
        DataType::Date32
    }
    fn array<'a>(values: impl Iterator<Item = &'a Self>) -> ArrayRef {
        Arc::new(Date32Array::from_iter(values.map(|v| v.map(|d| d.0))))
    }
    fn read(column: &ArrayRef, i: usize) -> Option<Self> {
        let a = column.as_any().downcast_ref::<Date32Array>()?;
        Some((!a.is_null(i)).then(|| Day(a.value(i))))
    }
}
