//! A lake table as the analyst session reads it: its Parquet parts listed under their
//! hive directories (`run_id=<run>/asset_id=<asset>/part-0.parquet`), whose keys are
//! declared as partition columns, and its columns in the order dossier writes them.
//!
//! Each key's value is also a column inside every part. Declared as a partition column,
//! a filter on it (`WHERE asset_id = 'x'`) chooses directories before any part is
//! opened; read from the parts, it could only skip a part after reading the part's
//! footer, and that needed every footer read while the statement is planned.
//! DataFusion puts partition columns after the columns it reads from the files, so the
//! table here puts them back where the parts have them: `SELECT *` shows the columns in
//! the written order.

use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::{DataType, Schema, SchemaRef};
use datafusion::catalog::{ScanArgs, ScanResult, Session, TableProvider};
use datafusion::datasource::TableType;
use datafusion::error::Result;
use datafusion::logical_expr::{Expr, TableProviderFilterPushDown};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::{ParquetReadOptions, SessionContext};

/// The hive keys of a part's key below its table (`tables/t/k1=v1/k2=v2/part-0.parquet`
/// gives `k1`, `k2`), in directory order.
pub fn hive_keys(part_key: &str) -> Vec<String> {
    part_key
        .split('/')
        .filter_map(|segment| segment.split_once('=').map(|(k, _)| k.to_string()))
        .collect()
}

/// Registers the parts under `url` as table `name`, with `schema` (the parts' schema,
/// from one part's footer) and the hive `keys` as partition columns. A key that is not a
/// column of the parts is not declared: the table keeps exactly the parts' columns.
pub async fn register(
    ctx: &SessionContext,
    name: &str,
    url: &str,
    schema: &Schema,
    keys: &[String],
) -> Result<()> {
    let partition_cols: Vec<(String, DataType)> = keys
        .iter()
        .filter_map(|k| {
            Some((
                k.clone(),
                schema.field_with_name(k).ok()?.data_type().clone(),
            ))
        })
        .collect();
    let file_schema = Schema::new(
        schema
            .fields()
            .iter()
            .filter(|f| !partition_cols.iter().any(|(k, _)| k == f.name()))
            .cloned()
            .collect::<Vec<_>>(),
    );
    let declared = !partition_cols.is_empty();
    // registered under its own name first, then replaced by the reordering table
    ctx.register_parquet(
        name,
        url,
        ParquetReadOptions::default()
            .schema(&file_schema)
            .table_partition_cols(partition_cols),
    )
    .await?;
    if !declared {
        return Ok(());
    }
    let inner = ctx
        .table_provider(name)
        .await
        .map_err(|e| e.context(format!("table {name}")))?;
    ctx.deregister_table(name)?;
    ctx.register_table(name, Arc::new(Written::new(inner, schema)?))?;
    Ok(())
}

/// A table whose columns are `inner`'s in another order: the parts' written order.
#[derive(Debug)]
struct Written {
    inner: Arc<dyn TableProvider>,
    schema: SchemaRef,
    /// for each column of `schema`, its index in `inner`'s schema
    to_inner: Vec<usize>,
}

impl Written {
    fn new(inner: Arc<dyn TableProvider>, written: &Schema) -> Result<Written> {
        let inner_schema = inner.schema();
        let mut fields = Vec::with_capacity(written.fields().len());
        let mut to_inner = Vec::with_capacity(written.fields().len());
        for f in written.fields() {
            let i = inner_schema.index_of(f.name())?;
            to_inner.push(i);
            fields.push(inner_schema.field(i).clone());
        }
        Ok(Written {
            inner,
            schema: Arc::new(Schema::new_with_metadata(
                fields,
                inner_schema.metadata().clone(),
            )),
            to_inner,
        })
    }

    /// The inner columns of a projection of this table's columns (all of them, in this
    /// table's order, when there is none).
    fn inner_projection(&self, projection: Option<&[usize]>) -> Vec<usize> {
        match projection {
            Some(p) => p.iter().map(|i| self.to_inner[*i]).collect(),
            None => self.to_inner.clone(),
        }
    }
}

#[async_trait]
impl TableProvider for Written {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn table_type(&self) -> TableType {
        self.inner.table_type()
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let projection = self.inner_projection(projection.map(Vec::as_slice));
        self.inner
            .scan(state, Some(&projection), filters, limit)
            .await
    }

    async fn scan_with_args<'a>(
        &self,
        state: &dyn Session,
        args: ScanArgs<'a>,
    ) -> Result<ScanResult> {
        let projection = self.inner_projection(args.projection());
        let args = args.with_projection(Some(&projection));
        self.inner.scan_with_args(state, args).await
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<TableProviderFilterPushDown>> {
        // filters name their columns, which are the same in both tables
        self.inner.supports_filters_pushdown(filters)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion::arrow::array::{RecordBatch, StringArray};
    use datafusion::arrow::datatypes::Field;
    use datafusion::parquet::arrow::ArrowWriter;

    /// Writes one part of `dir` under `run_id=<run>/asset_id=<asset>/`, its columns in
    /// the order dossier writes them: the keys first, then `value`.
    fn part(dir: &std::path::Path, run: &str, asset: &str, value: &str) {
        let schema = Arc::new(Schema::new(vec![
            Field::new("run_id", DataType::Utf8, false),
            Field::new("asset_id", DataType::Utf8, false),
            Field::new("value", DataType::Utf8, true),
        ]));
        let batch = RecordBatch::try_new(
            schema.clone(),
            vec![
                Arc::new(StringArray::from(vec![run])),
                Arc::new(StringArray::from(vec![asset])),
                Arc::new(StringArray::from(vec![value])),
            ],
        )
        .unwrap();
        let at = dir.join(format!("run_id={run}/asset_id={asset}"));
        std::fs::create_dir_all(&at).unwrap();
        let file = std::fs::File::create(at.join("part-0.parquet")).unwrap();
        let mut w = ArrowWriter::try_new(file, schema, None).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
    }

    async fn rows(ctx: &SessionContext, q: &str) -> Vec<String> {
        let batches = ctx.sql(q).await.unwrap().collect().await.unwrap();
        let text = datafusion::arrow::util::pretty::pretty_format_batches(&batches)
            .unwrap()
            .to_string();
        text.lines()
            .filter(|l| l.starts_with('|'))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    }

    #[tokio::test]
    async fn a_table_keeps_its_written_column_order_and_a_key_filter_skips_other_directories() {
        let dir = tempfile::tempdir().unwrap();
        part(dir.path(), "r1", "a", "alpha");
        part(dir.path(), "r1", "b", "beta");
        let written = Schema::new(vec![
            Field::new("run_id", DataType::Utf8, false),
            Field::new("asset_id", DataType::Utf8, false),
            Field::new("value", DataType::Utf8, true),
        ]);
        let ctx = SessionContext::new();
        let url = format!("{}/", dir.path().display());
        let keys = hive_keys("t/run_id=r1/asset_id=a/part-0.parquet");
        register(&ctx, "t", &url, &written, &keys).await.unwrap();

        assert_eq!(
            rows(&ctx, "SELECT * FROM t ORDER BY asset_id").await,
            [
                "| run_id | asset_id | value |",
                "| r1 | a | alpha |",
                "| r1 | b | beta |",
            ]
        );
        assert_eq!(
            rows(
                &ctx,
                "SELECT value, asset_id FROM t WHERE run_id = 'r1' ORDER BY 1"
            )
            .await,
            ["| value | asset_id |", "| alpha | a |", "| beta | b |"]
        );
        // a filter on a key never opens another directory's part, even an unreadable one
        std::fs::write(
            dir.path().join("run_id=r1/asset_id=a/part-0.parquet"),
            b"not parquet",
        )
        .unwrap();
        assert_eq!(
            rows(&ctx, "SELECT value FROM t WHERE asset_id = 'b'").await,
            ["| value |", "| beta |"]
        );
    }

    #[test]
    fn the_hive_keys_are_the_directories_with_an_equals_sign_in_order() {
        assert_eq!(
            hive_keys("tables/claims/run_id=r-1/asset_id=a_b/part-0.parquet"),
            ["run_id", "asset_id"]
        );
        assert!(hive_keys("tables/claims/part-0.parquet").is_empty());
    }
}
