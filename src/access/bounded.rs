//! String functions whose result can be far larger than their input (`repeat`, `lpad`,
//! `rpad`) run behind a size check: the result's size is computed from the arguments
//! before the function allocates it, and one over the query memory limit is refused.
//! (Operators are held to the limit by DataFusion's memory pool, and collected results
//! by `sql::execute`; a scalar function allocates outside both.)

use datafusion::arrow::array::{Array, Int64Array};
use datafusion::arrow::compute::cast;
use datafusion::arrow::compute::kernels::length::length;
use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature,
};
use datafusion::prelude::SessionContext;

/// How a function's result size follows from its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Growth {
    /// `repeat(s, n)`: the bytes of `s` times `n`, per row.
    Repeat,
    /// `lpad(s, n [, fill])`, `rpad`: at least `n` bytes per row.
    Pad,
}

#[derive(Debug, PartialEq, Eq, Hash)]
struct Bounded {
    inner: ScalarUDF,
    growth: Growth,
    limit: usize,
}

/// Puts `repeat`, `lpad` and `rpad` of the session behind the size check.
pub fn register(ctx: &SessionContext, limit: usize) {
    for (name, growth) in [
        ("repeat", Growth::Repeat),
        ("lpad", Growth::Pad),
        ("rpad", Growth::Pad),
    ] {
        if let Some(inner) = ctx.state().scalar_functions().get(name).cloned() {
            ctx.register_udf(ScalarUDF::new_from_impl(Bounded {
                inner: (*inner).clone(),
                growth,
                limit,
            }));
        }
    }
}

/// The argument as one Int64 value per row (NULL where it is NULL or not a number).
fn counts(arg: &ColumnarValue, rows: usize) -> Result<Int64Array> {
    let a = cast(&arg.to_array(rows)?, &DataType::Int64)?;
    Ok(a.as_any()
        .downcast_ref::<Int64Array>()
        .cloned()
        .unwrap_or_else(|| Int64Array::from(vec![None; rows])))
}

impl Bounded {
    /// A lower bound of the result's bytes, over every row.
    fn result_bytes(&self, args: &ScalarFunctionArgs) -> Result<u128> {
        let rows = args.number_rows.max(1);
        let Some(n) = args.args.get(1) else {
            return Ok(0);
        };
        let n = counts(n, rows)?;
        let per_row: Box<dyn Fn(usize) -> u128> = match self.growth {
            Growth::Pad => Box::new(|_| 1),
            Growth::Repeat => {
                let lens = counts(
                    &ColumnarValue::Array(length(&args.args[0].to_array(rows)?)?),
                    rows,
                )?;
                Box::new(move |i| {
                    lens.is_valid(i)
                        .then(|| lens.value(i).max(0) as u128)
                        .unwrap_or(0)
                })
            }
        };
        let mut total: u128 = 0;
        for i in 0..n.len() {
            if n.is_valid(i) {
                total = total.saturating_add(n.value(i).max(0) as u128 * per_row(i));
            }
        }
        Ok(total)
    }
}

impl ScalarUDFImpl for Bounded {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn aliases(&self) -> &[String] {
        self.inner.aliases()
    }
    fn signature(&self) -> &Signature {
        self.inner.signature()
    }
    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        self.inner.return_type(arg_types)
    }
    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        self.inner.return_field_from_args(args)
    }
    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        self.inner.coerce_types(arg_types)
    }
    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let bytes = self.result_bytes(&args)?;
        if bytes > self.limit as u128 {
            return Err(DataFusionError::ResourcesExhausted(format!(
                "{}() would build {:.1} MiB, over the query memory limit of {:.1} MiB (set DOSSIER_SQL_MEMORY_LIMIT, e.g. 8G)",
                self.name(),
                bytes as f64 / 1048576.0,
                self.limit as f64 / 1048576.0
            )));
        }
        self.inner.invoke_with_args(args)
    }
}
