//! `dossier sql`: registers the lake's tables with DataFusion and renders results.
//! Every directory under `tables/` is a Parquet table (hive-style partitions); the
//! bundles of one snapshot (default `latest`) are read through the verifying lake and
//! exposed as `records` (one row per asset and member record), `text_fields` (one row
//! per text leaf, what the quote gate searches) and `sources` (every record of the
//! snapshot once, in full, from its sources object). `runs` lists the run manifests;
//! `current_run` holds the run the analyst views of `sql/views/analyst.sql` show (the
//! latest finished run unless one is pinned).

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, RecordBatch, StringArray, UInt64Array};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::datasource::MemTable;
use datafusion::execution::context::SQLOptions;
use datafusion::execution::memory_pool::MemoryLimit;
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::logical_expr::{DdlStatement, LogicalPlan};
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion::prelude::SessionContext;
use datafusion::sql::parser::{CopyToSource, DFParser, Statement};
use datafusion::sql::sqlparser::ast::{Expr, Select, Visit, Visitor};
use datafusion::sql::sqlparser::dialect::GenericDialect;
use datafusion::sql::sqlparser::tokenizer::{Token, Tokenizer};
use futures::StreamExt;
use std::ops::ControlFlow;

use crate::Error;
use crate::access::AccessError;
use crate::lake::Lake;
use crate::lake::bundle;
pub use crate::run::history::{RunRow, runs};
use crate::snapshot;

/// The analyst views, created over the lake's tables when their inputs exist.
pub const VIEWS: &str = include_str!("../../sql/views/analyst.sql");
/// The `changes` view, where the lake has `cell_changes`.
pub const CHANGE_VIEWS: &str = include_str!("../../sql/views/changes.sql");
const VIEW_INPUTS: [&str; 3] = ["profile_cells", "conflicts", "catalog"];

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Format {
    Table,
    Csv,
    Json,
}

/// Builds a session over the lake. Bundles are loaded only when `with_bundles`; the
/// analyst views show `run` (an id), or the latest finished run when `None`.
pub async fn context(
    lake: &Lake,
    snapshot_ref: &str,
    with_bundles: bool,
    run: Option<&str>,
) -> Result<SessionContext, Error> {
    // information_schema gives `SHOW TABLES`, `SHOW COLUMNS FROM t` and
    // `SELECT … FROM information_schema.columns`, as in datafusion-cli
    // the lake as the session reads it: a statement reads each small part once
    let store = Arc::new(super::prefix_cache::PrefixCache::new(lake.store()));
    let config = crate::config::sql_session()?
        .with_information_schema(true)
        .with_extension(store.clone());
    // Operators that track memory (sorts, joins, aggregates) fail cleanly past the limit;
    // `execute` holds the collected result to the same limit.
    let limit = crate::config::sql_memory_limit()?;
    let runtime = RuntimeEnvBuilder::new()
        .with_memory_limit(limit, 1.0)
        .build_arc()?;
    let ctx = SessionContext::new_with_config_rt(config, runtime);
    super::bounded::register(&ctx, limit);
    ctx.register_object_store(lake.store_url(), store);
    let (names, _) = lake.list_level("tables/").await?;
    let mut tables = BTreeSet::new();
    for name in &names {
        // A table directory holds at least one Parquet part (else there is no schema).
        // dossier writes every part of a table with one schema, so the first part's
        // footer gives it: inferring it from all parts would read every footer.
        let Some(first) = lake
            .first_key(&format!("tables/{name}/"), ".parquet")
            .await?
        else {
            continue;
        };
        let footer = ParquetRecordBatchReaderBuilder::try_new(lake.get(&first).await?)?;
        let schema = footer.schema().clone();
        let url = lake.table_url(&format!("tables/{name}"));
        super::parts::register(&ctx, name, &url, &schema, &super::parts::hive_keys(&first)).await?;
        tables.insert(name.clone());
    }
    register_runs(&ctx, lake, run).await?;
    if VIEW_INPUTS.iter().all(|t| tables.contains(*t)) {
        for stmt in DFParser::parse_sql(VIEWS)? {
            execute(&ctx, stmt, Guard::Trusted).await?;
        }
    }
    if tables.contains("cell_changes") {
        for stmt in DFParser::parse_sql(CHANGE_VIEWS)? {
            execute(&ctx, stmt, Guard::Trusted).await?;
        }
    }
    if with_bundles {
        register_bundles(&ctx, lake, snapshot_ref).await?;
    }
    Ok(ctx)
}

/// Forgets the lake bytes the session's earlier statements read, so a statement sees
/// the lake as it is when it starts (parts a run rewrote since are read again).
pub fn fresh_reads(ctx: &SessionContext) {
    if let Some(cache) = ctx
        .state()
        .config()
        .get_extension::<super::prefix_cache::PrefixCache>()
    {
        cache.clear();
    }
}

/// The run the analyst views show: the pinned one (which must exist), else the latest.
pub fn pick_run<'a>(runs: &'a [RunRow], pin: Option<&str>) -> Result<Option<&'a RunRow>, Error> {
    match pin {
        None => Ok(runs.last()),
        Some(id) => match runs.iter().find(|r| r.run_id == id) {
            Some(r) => Ok(Some(r)),
            None => Err(AccessError::NoSuchRun {
                id: id.to_string(),
                known: if runs.is_empty() {
                    "none".to_string()
                } else {
                    runs.iter()
                        .map(|r| r.run_id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            }
            .into()),
        },
    }
}

async fn register_runs(ctx: &SessionContext, lake: &Lake, pin: Option<&str>) -> Result<(), Error> {
    let all = runs(lake).await?;
    let current: Vec<&RunRow> = pick_run(&all, pin)?.into_iter().collect();
    let batch = |rows: &[&RunRow]| -> Result<RecordBatch, Error> {
        let text = |f: &dyn Fn(&RunRow) -> Option<String>| -> ArrayRef {
            Arc::new(StringArray::from(
                rows.iter().map(|r| f(r)).collect::<Vec<_>>(),
            ))
        };
        let count = |f: &dyn Fn(&RunRow) -> u64| -> ArrayRef {
            Arc::new(UInt64Array::from(
                rows.iter().map(|r| f(r)).collect::<Vec<_>>(),
            ))
        };
        let cols: Vec<(&str, ArrayRef)> = vec![
            ("run_id", text(&|r| Some(r.run_id.clone()))),
            ("snapshot_id", text(&|r| Some(r.snapshot_id.clone()))),
            ("reasoner", text(&|r| Some(r.reasoner.clone()))),
            ("model", text(&|r| r.model.clone())),
            ("started_at", text(&|r| Some(r.started_at.clone()))),
            ("finished_at", text(&|r| Some(r.finished_at.clone()))),
            ("assets", count(&|r| r.assets)),
            ("manifests", count(&|r| r.manifests)),
        ];
        let schema = Schema::new(
            cols.iter()
                .map(|(n, a)| Field::new(*n, a.data_type().clone(), *n == "model"))
                .collect::<Vec<_>>(),
        );
        Ok(RecordBatch::try_new(
            Arc::new(schema),
            cols.into_iter().map(|(_, a)| a).collect(),
        )?)
    };
    let all_refs: Vec<&RunRow> = all.iter().collect();
    for (name, rows) in [("runs", &all_refs), ("current_run", &current)] {
        let b = batch(rows)?;
        ctx.register_table(
            name,
            Arc::new(MemTable::try_new(b.schema(), vec![vec![b]])?),
        )?;
    }
    Ok(())
}

pub async fn register_bundles(
    ctx: &SessionContext,
    lake: &Lake,
    snapshot_ref: &str,
) -> Result<(), Error> {
    let (id, manifest) = snapshot::load(lake, snapshot_ref).await?;
    let competitors = snapshot::competitors(lake, &manifest).await?;
    let mut batches = Vec::new();
    for (asset, entry) in &manifest.assets {
        batches
            .extend(snapshot::read_bundle(lake, &entry.bundle, &format!("asset {asset}")).await?);
    }
    let fields = bundle::text_field_rows(&bundle::rows_with(&batches, &competitors)?)?;
    // a competitor's row shows its record whole, as its asset's bundle names it
    let records: Vec<RecordBatch> = batches
        .iter()
        .map(|b| {
            let whole = bundle::with_competitors(b, &competitors)?;
            Ok::<_, Error>(with_snapshot_column(&id.to_string(), &whole, &["fields"])?)
        })
        .collect::<Result<_, _>>()?;
    let records_schema = match records.first() {
        Some(b) => b.schema(),
        None => with_snapshot_column(
            &id.to_string(),
            &RecordBatch::new_empty(bundle::schema()),
            &["fields"],
        )?
        .schema(),
    };
    ctx.register_table(
        "records",
        Arc::new(MemTable::try_new(records_schema, vec![records])?),
    )?;
    let fields = with_snapshot_column(&id.to_string(), &fields, &[])?;
    ctx.register_table(
        "text_fields",
        Arc::new(MemTable::try_new(fields.schema(), vec![vec![fields]])?),
    )?;
    let sources: Vec<RecordBatch> =
        snapshot::read_bundle(lake, &manifest.sources_bundle, "sources")
            .await?
            .iter()
            .map(|b| with_snapshot_column(&id.to_string(), b, &["fields", "asset_id", "role"]))
            .collect::<Result<_, _>>()?;
    if let Some(first) = sources.first() {
        ctx.register_table(
            "sources",
            Arc::new(MemTable::try_new(first.schema(), vec![sources])?),
        )?;
    }
    Ok(())
}

/// Prepends a constant `snapshot_id` column and drops the named columns.
fn with_snapshot_column(id: &str, b: &RecordBatch, drop: &[&str]) -> Result<RecordBatch, Error> {
    let mut fields = vec![Field::new("snapshot_id", DataType::Utf8, false)];
    let mut cols: Vec<ArrayRef> = vec![Arc::new(StringArray::from(vec![id; b.num_rows()]))];
    for (f, c) in b.schema().fields().iter().zip(b.columns()) {
        if !drop.contains(&f.name().as_str()) {
            fields.push(f.as_ref().clone());
            cols.push(c.clone());
        }
    }
    Ok(RecordBatch::try_new(Arc::new(Schema::new(fields)), cols)?)
}

/// Whether a query mentions the bundle tables (loading bundles costs a full read), or
/// lists the session's tables (which should then include them).
pub fn needs_bundles(query: &str) -> bool {
    let q = query.to_ascii_lowercase();
    [
        "records",
        "text_fields",
        "sources",
        "information_schema",
        "show tables",
    ]
    .iter()
    .any(|t| q.contains(t))
}

/// Parses one or more `;`-separated statements (the last `;` is optional).
/// How deep expressions may nest in one statement (a sum of N terms is N deep): the
/// planner's rewrites take time quadratic in the depth.
pub const MAX_EXPR_DEPTH: usize = 1000;
/// How many SELECTs one statement may hold (each `UNION ALL` adds one).
pub const MAX_SELECTS: usize = 1000;

/// Parses one or more `;`-separated statements (the last `;` is optional); a statement
/// deeper or larger than [`MAX_EXPR_DEPTH`] and [`MAX_SELECTS`] allow is refused here,
/// before any planning.
pub fn parse(text: &str) -> Result<Vec<Statement>, Error> {
    let stmts: Vec<Statement> = DFParser::parse_sql(text)?.into_iter().collect();
    for s in &stmts {
        check_size(s)?;
    }
    Ok(stmts)
}

/// Measures a statement's expression depth and SELECT count in one walk.
#[derive(Default)]
struct Size {
    depth: usize,
    deepest: usize,
    selects: usize,
}

impl Visitor for Size {
    type Break = ();
    fn pre_visit_expr(&mut self, _: &Expr) -> ControlFlow<()> {
        self.depth += 1;
        self.deepest = self.deepest.max(self.depth);
        if self.deepest > MAX_EXPR_DEPTH {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
    fn post_visit_expr(&mut self, _: &Expr) -> ControlFlow<()> {
        self.depth -= 1;
        ControlFlow::Continue(())
    }
    fn pre_visit_select(&mut self, _: &Select) -> ControlFlow<()> {
        self.selects += 1;
        if self.selects > MAX_SELECTS {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

fn check_size(stmt: &Statement) -> Result<(), AccessError> {
    let mut size = Size::default();
    let _ = match stmt {
        Statement::Statement(s) => s.visit(&mut size),
        Statement::CopyTo(c) => match &c.source {
            CopyToSource::Query(q) => q.visit(&mut size),
            CopyToSource::Relation(_) => ControlFlow::Continue(()),
        },
        Statement::Explain(e) => return check_size(&e.statement),
        _ => ControlFlow::Continue(()),
    };
    if size.deepest > MAX_EXPR_DEPTH {
        return Err(AccessError::TooLarge(format!(
            "expressions nest more than {MAX_EXPR_DEPTH} deep"
        )));
    }
    if size.selects > MAX_SELECTS {
        return Err(AccessError::TooLarge(format!(
            "more than {MAX_SELECTS} SELECTs"
        )));
    }
    Ok(())
}

/// Whether the text typed so far ends a statement: it tokenizes (no open quote or
/// comment) and its last token other than whitespace and comments is `;`.
pub fn complete(text: &str) -> bool {
    match Tokenizer::new(&GenericDialect {}, text).tokenize() {
        Err(_) => false,
        Ok(tokens) => matches!(
            tokens
                .iter()
                .rev()
                .find(|t| !matches!(t, Token::Whitespace(_))),
            Some(Token::SemiColon)
        ),
    }
}

/// Whether the text typed so far ends inside an open quote or comment (it does not
/// tokenize), where a backslash is text.
pub fn open_literal(text: &str) -> bool {
    Tokenizer::new(&GenericDialect {}, text).tokenize().is_err()
}

/// Who issued a statement, and so what it may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// dossier's own statements (the analyst views): anything.
    Trusted,
    /// An analyst's statement in `dossier sql`: reading the lake, and views and in-memory
    /// tables of the session itself. Never a write (INSERT, UPDATE, DELETE, `COPY … TO`);
    /// files outside the lake (`CREATE EXTERNAL TABLE`) only when `read_files` is set.
    Analyst { read_files: bool },
}

/// Refuses an analyst's plan that would write anywhere or, unless allowed, read files
/// that are not the lake's; the error names what the statement would have done.
pub fn check(plan: &LogicalPlan, guard: Guard) -> Result<(), AccessError> {
    let Guard::Analyst { read_files } = guard else {
        return Ok(());
    };
    let mut refused = None;
    plan.apply_with_subqueries(|p| {
        refused = match p {
            LogicalPlan::Dml(d) => Some(format!("{} writes into table {}", d.op, d.table_name)),
            LogicalPlan::Copy(c) => Some(format!("COPY writes to {}", c.output_url)),
            LogicalPlan::Ddl(DdlStatement::CreateExternalTable(t)) if !read_files => Some(format!(
                "CREATE EXTERNAL TABLE reads {} (pass --read-files to allow files outside the lake)",
                t.locations.join(", ")
            )),
            _ => None,
        };
        Ok(if refused.is_some() {
            TreeNodeRecursion::Stop
        } else {
            TreeNodeRecursion::Continue
        })
    })
    .map_err(|e| AccessError::ReadOnly(e.to_string()))?;
    match refused {
        Some(why) => Err(AccessError::ReadOnly(why)),
        None => Ok(()),
    }
}

/// Plans and runs one statement under `guard`.
pub async fn execute(
    ctx: &SessionContext,
    stmt: Statement,
    guard: Guard,
) -> Result<Vec<RecordBatch>, Error> {
    fresh_reads(ctx);
    let plan = match ctx.state().statement_to_plan(stmt).await {
        Ok(plan) => plan,
        Err(e) => return Err(unknown_table(ctx, &e).map_or_else(|| e.into(), Into::into)),
    };
    check(&plan, guard)?;
    let df = ctx.execute_logical_plan(plan).await?;
    let schema = Arc::new(df.schema().as_arrow().clone());
    let limit = match ctx.runtime_env().memory_pool.memory_limit() {
        MemoryLimit::Finite(n) => n,
        MemoryLimit::Infinite | MemoryLimit::Unknown => usize::MAX,
    };
    let mut stream = df.execute_stream().await?;
    let mut batches = Vec::new();
    let mut held = 0usize;
    while let Some(batch) = stream.next().await {
        let batch = batch?;
        held = held.saturating_add(batch.get_array_memory_size());
        if held > limit {
            return Err(AccessError::ResultTooLarge { limit }.into());
        }
        batches.push(batch);
    }
    // no rows still has columns: a table or CSV header, not nothing
    if batches.is_empty() && !schema.fields().is_empty() {
        return Ok(vec![RecordBatch::new_empty(schema)]);
    }
    Ok(batches)
}

/// The analyst views, which exist only once a run has finished.
const VIEW_NAMES: [&str; 5] = [
    "profile",
    "profile_conflicts",
    "efficacy",
    "status_counts",
    "changes",
];

/// A planning error that names a missing table, said in the analyst's terms: a view
/// that needs a run, or the tables and views the session does have.
fn unknown_table(
    ctx: &SessionContext,
    e: &datafusion::error::DataFusionError,
) -> Option<AccessError> {
    let text = e.to_string();
    let start = text.find("table '")? + "table '".len();
    let end = start + text[start..].find("' not found")?;
    let name = text[start..end].rsplit('.').next()?.to_string();
    let mut known: Vec<String> = ctx
        .catalog("datafusion")
        .and_then(|c| c.schema("public"))
        .map(|s| s.table_names())
        .unwrap_or_default();
    known.sort();
    if VIEW_NAMES.contains(&name.as_str()) && !known.iter().any(|k| *k == name) {
        return Some(AccessError::NoRunForView { name });
    }
    // the bundle tables load when a statement names them
    for b in ["records", "text_fields", "sources"] {
        if !known.iter().any(|k| k == b) {
            known.push(format!("{b} (loaded when named)"));
        }
    }
    Some(AccessError::UnknownTable {
        name,
        known: known.join(", "),
    })
}

/// Where a session's results go: stdout, or a file outside the lake.
pub enum Sink {
    Stdout,
    /// `path` as given (for messages) and its checked target; the file is created at
    /// the first result, so a statement that fails leaves an existing file as it was.
    File {
        path: std::path::PathBuf,
        target: std::path::PathBuf,
        file: Option<std::io::BufWriter<std::fs::File>>,
    },
}

impl Sink {
    /// Stdout, or `path` for the results (created, or truncated, at the first one). A path
    /// inside a local lake, directly or through a link, is refused: exports never land in
    /// the lake.
    pub fn open(lake: &Lake, path: Option<&Path>) -> Result<Sink, AccessError> {
        let Some(path) = path else {
            return Ok(Sink::Stdout);
        };
        let write_err = |source| AccessError::Write {
            path: path.to_owned(),
            source,
        };
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = path.file_name().ok_or_else(|| {
            write_err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a file name",
            ))
        })?;
        let mut target = std::fs::canonicalize(parent).map_err(write_err)?.join(name);
        if let Ok(real) = std::fs::canonicalize(&target) {
            target = real;
        }
        if lake.local_dir().is_some_and(|dir| target.starts_with(dir)) {
            return Err(AccessError::ExportIntoLake {
                path: path.to_owned(),
            });
        }
        Ok(Sink::File {
            path: path.to_owned(),
            target,
            file: None,
        })
    }

    pub fn write(&mut self, text: &str) -> Result<(), AccessError> {
        use std::io::Write;
        match self {
            Sink::Stdout => {
                print!("{text}");
                Ok(())
            }
            Sink::File { path, target, file } => {
                let write = |file: &mut Option<std::io::BufWriter<std::fs::File>>| {
                    if file.is_none() {
                        *file = Some(std::io::BufWriter::new(std::fs::File::create(&*target)?));
                    }
                    let f = file.as_mut().expect("created above");
                    f.write_all(text.as_bytes())?;
                    f.flush()
                };
                write(file).map_err(|source| AccessError::Write {
                    path: path.clone(),
                    source,
                })
            }
        }
    }
}

/// Options for a read-only session: queries only (no DDL, DML or `SET`).
pub fn read_only() -> SQLOptions {
    SQLOptions::new()
        .with_allow_ddl(false)
        .with_allow_dml(false)
        .with_allow_statements(false)
}

/// Every table and view of the session's default schema, sorted by name: its name,
/// whether it is a view, and its Arrow schema. The prompt's `\d` and the Flight SQL
/// server's table listing both read this.
pub async fn tables(
    ctx: &SessionContext,
) -> Result<Vec<(String, bool, datafusion::arrow::datatypes::SchemaRef)>, Error> {
    let catalog = ctx
        .catalog("datafusion")
        .ok_or_else(|| Error::Internal("no default catalog".into()))?;
    let schema = catalog
        .schema("public")
        .ok_or_else(|| Error::Internal("no default schema".into()))?;
    let mut names = schema.table_names();
    names.sort();
    let mut out = Vec::new();
    for n in names {
        if let Some(t) = schema.table(&n).await? {
            let view = t.table_type() == datafusion::datasource::TableType::View;
            out.push((n, view, t.schema()));
        }
    }
    Ok(out)
}

/// The views, tables and their columns, for the prompt's `\d`.
pub async fn describe(
    ctx: &SessionContext,
    name: Option<&str>,
) -> Result<Vec<(String, String, Vec<(String, String)>)>, Error> {
    let out: Vec<_> = tables(ctx)
        .await?
        .into_iter()
        .filter(|(n, _, _)| name.is_none_or(|w| w == n))
        .map(|(n, view, schema)| {
            let cols = schema
                .fields()
                .iter()
                .map(|f| (f.name().clone(), f.data_type().to_string()))
                .collect();
            (n, if view { "view" } else { "table" }.to_string(), cols)
        })
        .collect();
    if let Some(n) = name
        && out.is_empty()
    {
        return Err(AccessError::NoSuchTable(n.to_string()).into());
    }
    Ok(out)
}

pub fn render(batches: &[RecordBatch], format: Format) -> Result<String, Error> {
    match format {
        Format::Table => {
            Ok(datafusion::arrow::util::pretty::pretty_format_batches(batches)?.to_string())
        }
        Format::Csv => {
            let mut out = Vec::new();
            {
                let mut w = datafusion::arrow::csv::WriterBuilder::new()
                    .with_header(true)
                    .build(&mut out);
                for b in batches {
                    w.write(b)?;
                }
            }
            Ok(String::from_utf8_lossy(&out).into_owned())
        }
        Format::Json => {
            let mut out = Vec::new();
            {
                let mut w = datafusion::arrow::json::LineDelimitedWriter::new(&mut out);
                for b in batches {
                    w.write(b)?;
                }
                w.finish()?;
            }
            Ok(String::from_utf8_lossy(&out).into_owned())
        }
    }
}
