//! Precedence and conflicts as DataFusion SQL: the numbered files of `sql/` run in order
//! over a set of accepted claims (a run's chunk of assets, or any candidate table), with
//! the family ranks of
//! `jobs/family_rank.csv` (or a file a data team passes), and produce `profile_cells` and
//! `conflicts`. The rules are compiled in, so the binary runs anywhere; the ranks are data.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray};
use datafusion::arrow::compute::{cast, concat_batches};
use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use datafusion::datasource::MemTable;
use datafusion::prelude::SessionContext;

use crate::Error;
use crate::domain::Family;

/// The rules, in the order they run.
pub const RULES: &[(&str, &str)] = &[
    (
        "10_candidates.sql",
        include_str!("../../sql/10_candidates.sql"),
    ),
    (
        "15_agreement.sql",
        include_str!("../../sql/15_agreement.sql"),
    ),
    ("20_standing.sql", include_str!("../../sql/20_standing.sql")),
    (
        "30_cell_values.sql",
        include_str!("../../sql/30_cell_values.sql"),
    ),
    (
        "40_profile_cells.sql",
        include_str!("../../sql/40_profile_cells.sql"),
    ),
    (
        "50_conflicts.sql",
        include_str!("../../sql/50_conflicts.sql"),
    ),
];

/// The default family ranks (the file in `jobs/`).
pub const DEFAULT_RANKS: &str = include_str!("../../jobs/family_rank.csv");

#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    #[error("{what}")]
    RanksCsv {
        what: String,
        #[source]
        source: csv::Error,
    },
    #[error("{what}: the header must be `family,rank`")]
    RanksHeader { what: String },
    #[error("{what}: line {line}: {problem}")]
    RanksLine {
        what: String,
        line: usize,
        problem: String,
    },
    #[error("sql/{file}")]
    Rule {
        file: &'static str,
        #[source]
        source: datafusion::error::DataFusionError,
    },
    #[error("creating {}", path.display())]
    Out {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Family ranks: lower wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranks(pub Vec<(Family, i64)>);

impl Ranks {
    /// Parses `family,rank` CSV with a header. Unknown or repeated families are errors.
    pub fn parse(text: &str, what: &str) -> Result<Ranks, RulesError> {
        let line_err = |line: usize, problem: String| RulesError::RanksLine {
            what: what.to_string(),
            line,
            problem,
        };
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(true)
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let headers = rdr
            .headers()
            .map_err(|source| RulesError::RanksCsv {
                what: what.to_string(),
                source,
            })?
            .clone();
        if headers.iter().collect::<Vec<_>>() != ["family", "rank"] {
            return Err(RulesError::RanksHeader {
                what: what.to_string(),
            });
        }
        let mut out: Vec<(Family, i64)> = Vec::new();
        for (i, rec) in rdr.records().enumerate() {
            let line = i + 2;
            let rec = rec.map_err(|e| line_err(line, e.to_string()))?;
            let family = Family::parse(&rec[0])
                .ok_or_else(|| line_err(line, format!("unknown family {:?}", &rec[0])))?;
            let rank: i64 = rec[1]
                .parse()
                .map_err(|_| line_err(line, format!("rank {:?} is not an integer", &rec[1])))?;
            if out.iter().any(|(f, _)| *f == family) {
                return Err(line_err(line, format!("{family} is ranked twice")));
            }
            out.push((family, rank));
        }
        Ok(Ranks(out))
    }

    pub fn default_ranks() -> Ranks {
        Ranks::parse(DEFAULT_RANKS, "jobs/family_rank.csv").expect("the shipped ranks parse")
    }

    fn batch(&self) -> Result<RecordBatch, Error> {
        let schema = Arc::new(Schema::new(vec![
            Field::new("family", DataType::Utf8, false),
            Field::new("rank", DataType::Int64, false),
        ]));
        Ok(RecordBatch::try_new(
            schema,
            vec![
                Arc::new(StringArray::from_iter_values(
                    self.0.iter().map(|(f, _)| f.as_str()),
                )),
                Arc::new(Int64Array::from_iter_values(self.0.iter().map(|(_, r)| *r))),
            ],
        )?)
    }
}

/// The outputs of the rules, each one batch with every column cast to Utf8.
pub struct Outcome {
    pub profile_cells: RecordBatch,
    pub conflicts: RecordBatch,
}

/// Runs the rules over the run's accepted claims and empty cells.
pub async fn apply(
    accepted: RecordBatch,
    empty: RecordBatch,
    ranks: &Ranks,
) -> Result<Outcome, Error> {
    let ctx = session()?;
    for (name, b) in [
        ("accepted", accepted),
        ("empty_cells", empty),
        ("family_rank", ranks.batch()?),
    ] {
        ctx.register_table(
            name,
            Arc::new(MemTable::try_new(b.schema(), vec![vec![b]])?),
        )?;
    }
    define_rules(&ctx).await?;
    let key = "run_id, asset_id, field, endpoint, population, arm";
    let cells = collect_utf8(
        &ctx,
        &format!("SELECT * FROM profile_cells ORDER BY {key}, value, unit, source_id"),
    )
    .await?;
    let conflicts = collect_utf8(
        &ctx,
        &format!(
            "SELECT * FROM conflicts ORDER BY {key}, other_value, other_unit, other_source_id"
        ),
    )
    .await?;
    Ok(Outcome {
        profile_cells: cells,
        conflicts,
    })
}

/// A session for the rules, configured as `config::rules_session` says.
fn session() -> Result<SessionContext, Error> {
    Ok(SessionContext::new_with_config(
        crate::config::rules_session()?,
    ))
}

/// Defines the rules' views in a session that has `accepted`, `empty_cells` and
/// `family_rank` registered.
pub async fn define_rules(ctx: &SessionContext) -> Result<(), Error> {
    for (file, text) in RULES {
        tracing::debug!(file, "defining rule");
        ctx.sql(text)
            .await
            .map_err(|source| RulesError::Rule { file, source })?
            .collect()
            .await
            .map_err(|source| RulesError::Rule { file, source })?;
    }
    Ok(())
}

/// What [`apply_files`] wrote.
#[derive(Debug)]
pub struct FilesOutcome {
    pub accepted_rows: usize,
    pub profile_cells_rows: usize,
    pub conflicts_rows: usize,
    pub secs: f64,
}

/// Runs the rules over Parquet inputs (`accepted`, `empty_cells`) and writes
/// `profile_cells.parquet` and `conflicts.parquet` into `out`: the rules as a batch job
/// over any candidate table, for audits and benchmarks.
pub async fn apply_files(
    accepted: &std::path::Path,
    empty: &std::path::Path,
    ranks: &Ranks,
    out: &std::path::Path,
) -> Result<FilesOutcome, Error> {
    use datafusion::dataframe::DataFrameWriteOptions;
    use datafusion::prelude::ParquetReadOptions;
    let t = std::time::Instant::now();
    let ctx = session()?;
    let path = |p: &std::path::Path| p.to_string_lossy().into_owned();
    ctx.register_parquet("accepted", &path(accepted), ParquetReadOptions::default())
        .await?;
    ctx.register_parquet("empty_cells", &path(empty), ParquetReadOptions::default())
        .await?;
    let r = ranks.batch()?;
    ctx.register_table(
        "family_rank",
        Arc::new(MemTable::try_new(r.schema(), vec![vec![r]])?),
    )?;
    define_rules(&ctx).await?;
    std::fs::create_dir_all(out).map_err(|source| RulesError::Out {
        path: out.to_owned(),
        source,
    })?;
    let mut rows = [0usize; 2];
    for (i, table) in ["profile_cells", "conflicts"].iter().enumerate() {
        let target = out.join(format!("{table}.parquet"));
        let written = ctx
            .table(*table)
            .await?
            .write_parquet(
                &path(&target),
                DataFrameWriteOptions::new().with_single_file_output(true),
                None,
            )
            .await?;
        rows[i] = written
            .first()
            .and_then(|b| {
                b.column(0)
                    .as_any()
                    .downcast_ref::<datafusion::arrow::array::UInt64Array>()
            })
            .map(|a| a.value(0) as usize)
            .unwrap_or(0);
    }
    let accepted_rows = ctx
        .sql("SELECT count(*) FROM accepted")
        .await?
        .collect()
        .await?
        .first()
        .and_then(|b| {
            b.column(0)
                .as_any()
                .downcast_ref::<Int64Array>()
                .map(|a| a.value(0) as usize)
        })
        .unwrap_or(0);
    Ok(FilesOutcome {
        accepted_rows,
        profile_cells_rows: rows[0],
        conflicts_rows: rows[1],
        secs: t.elapsed().as_secs_f64(),
    })
}

/// Runs a query and returns its rows as one batch with every column cast to Utf8.
pub async fn collect_utf8(ctx: &SessionContext, query: &str) -> Result<RecordBatch, Error> {
    let df = ctx.sql(query).await?;
    let schema: SchemaRef = Arc::new(df.schema().as_arrow().clone());
    let batches = df.collect().await?;
    let one = concat_batches(&schema, &batches)?;
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .map(|f| Field::new(f.name(), DataType::Utf8, true))
        .collect();
    let cols: Vec<ArrayRef> = one
        .columns()
        .iter()
        .map(|c| cast(c, &DataType::Utf8))
        .collect::<Result<_, _>>()?;
    Ok(RecordBatch::try_new(Arc::new(Schema::new(fields)), cols)?)
}

/// Reads a Utf8 column of an outcome batch.
pub fn column<'a>(b: &'a RecordBatch, name: &str) -> Result<&'a StringArray, Error> {
    b.column_by_name(name)
        .and_then(|c| c.as_any().downcast_ref::<StringArray>())
        .ok_or_else(|| Error::Internal(format!("rules output lacks a text column {name}")))
}

/// Value of row `i` of a Utf8 column, None when null.
pub fn get(a: &StringArray, i: usize) -> Option<String> {
    (!a.is_null(i)).then(|| a.value(i).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lake::tables::{AcceptedRow, EmptyCellRow, Table};

    /// (field, population, value, family, cutoff)
    type C<'a> = (&'a str, &'a str, &'a str, &'a str, Option<&'a str>);

    fn run_rules(cands: &[C<'_>]) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
        let rows: Vec<AcceptedRow> = cands
            .iter()
            .enumerate()
            .map(|(i, (field, pop, value, fam, cut))| AcceptedRow {
                run_id: "r".into(),
                asset_id: "a".into(),
                section: "efficacy".into(),
                field: field.to_string(),
                endpoint: "NCT1 Primary: ORR".into(),
                population: pop.to_string(),
                arm: "Drug".into(),
                value: value.to_string(),
                unit: "%".into(),
                label: "fact".into(),
                family: (!fam.is_empty()).then(|| fam.to_string()),
                claim_id: format!("c{i}"),
                source_id: Some(format!("{fam}:k{i}@0")),
                url: Some("https://x".into()),
                quote: Some(value.to_string()),
                locator: Some(String::new()),
                cutoff_date: cut.map(str::to_string),
            })
            .collect();
        let accepted = AcceptedRow::to_batch(&rows).unwrap();
        let empty = EmptyCellRow::to_batch(&[EmptyCellRow {
            run_id: "r".into(),
            asset_id: "a".into(),
            section: "market".into(),
            field: "market.survival".into(),
            status: "source_empty".into(),
            detail: "no epi record".into(),
        }])
        .unwrap();
        let out = tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(apply(accepted, empty, &Ranks::default_ranks()))
            .unwrap();
        let pick = |b: &RecordBatch, cols: &[&str]| -> Vec<Vec<String>> {
            (0..b.num_rows())
                .map(|i| {
                    cols.iter()
                        .map(|c| get(column(b, c).unwrap(), i).unwrap_or_default())
                        .collect()
                })
                .collect()
        };
        (
            pick(
                &out.profile_cells,
                &["field", "population", "value", "status", "source_id"],
            ),
            pick(
                &out.conflicts,
                &["field", "winner_value", "other_value", "resolution"],
            ),
        )
    }

    fn v(rows: &[&[&str]]) -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| r.iter().map(|x| x.to_string()).collect())
            .collect()
    }

    #[test]
    fn golden_branches() {
        let (cells, conflicts) = run_rules(&[
            // two families, same cutoff: the label outranks PubMed
            ("f1", "", "41", "fda_label", Some("2024-01-01")),
            ("f1", "", "43", "pubmed", Some("2024-01-01")),
            // one family, two cutoffs: the later wins
            ("f2", "", "10", "ctgov", Some("2023-12-12")),
            ("f2", "", "11", "ctgov", Some("2024-01-03")),
            // same family, same cutoff, different values: both kept
            ("f3", "", "7.0", "ctgov", Some("2024-01-03")),
            ("f3", "", "7.5", "ctgov", Some("2024-01-03")),
            // different populations never compete
            ("f4", "ITT", "55", "ctgov", Some("2024-01-03")),
            ("f4", "PP", "60", "pubmed", Some("2020-01-01")),
            // unknown cutoff: family rank decides, even against a later date
            ("f5", "", "3.1", "fda_label", None),
            ("f5", "", "3.3", "press", Some("2025-01-01")),
            // unknown cutoffs, same family: unresolved
            ("f6", "", "1", "press", None),
            ("f6", "", "2", "press", None),
            // identical values from two sources: one cell, no conflict, the better source cited
            ("f7", "", "18.4", "pubmed", Some("2022-01-01")),
            ("f7", "", "18.4", "ctgov", Some("2022-01-01")),
            // a name in other case, punctuation or company form is the same value; the
            // later source is cited. Another name is a conflict.
            (
                "identity.sponsor",
                "",
                "HALCYON THERAPEUTICS, INC.",
                "drugsfda",
                Some("2026-01-12"),
            ),
            (
                "identity.sponsor",
                "",
                "Halcyon Therapeutics",
                "ctgov",
                Some("2026-02-13"),
            ),
            (
                "trials.sponsor",
                "",
                "Acme Bio Ltd",
                "ctgov",
                Some("2026-01-01"),
            ),
            (
                "trials.sponsor",
                "",
                "Acme Pharma",
                "ctgov",
                Some("2026-01-01"),
            ),
            // outside names, case is part of the value
            ("f8", "", "CR", "ctgov", Some("2026-01-01")),
            ("f8", "", "cr", "ctgov", Some("2026-01-01")),
        ]);
        assert_eq!(
            cells,
            v(&[
                &["f1", "", "41", "value", "fda_label:k0@0"],
                &["f2", "", "11", "value", "ctgov:k3@0"],
                &["f3", "", "7.0", "conflicting", "ctgov:k4@0"],
                &["f3", "", "7.5", "conflicting", "ctgov:k5@0"],
                &["f4", "ITT", "55", "value", "ctgov:k6@0"],
                &["f4", "PP", "60", "value", "pubmed:k7@0"],
                &["f5", "", "3.1", "value", "fda_label:k8@0"],
                &["f6", "", "1", "conflicting", "press:k10@0"],
                &["f6", "", "2", "conflicting", "press:k11@0"],
                &["f7", "", "18.4", "value", "ctgov:k13@0"],
                &["f8", "", "CR", "conflicting", "ctgov:k18@0"],
                &["f8", "", "cr", "conflicting", "ctgov:k19@0"],
                &[
                    "identity.sponsor",
                    "",
                    "Halcyon Therapeutics",
                    "value",
                    "ctgov:k15@0"
                ],
                &["market.survival", "", "", "source_empty", ""],
                &[
                    "trials.sponsor",
                    "",
                    "Acme Bio Ltd",
                    "conflicting",
                    "ctgov:k16@0"
                ],
                &[
                    "trials.sponsor",
                    "",
                    "Acme Pharma",
                    "conflicting",
                    "ctgov:k17@0"
                ],
            ])
        );
        assert_eq!(
            conflicts,
            v(&[
                &["f1", "41", "43", "family_rank"],
                &["f2", "11", "10", "later_cutoff"],
                &["f3", "7.0", "7.5", "unresolved"],
                &["f5", "3.1", "3.3", "family_rank"],
                &["f6", "1", "2", "unresolved"],
                &["f8", "CR", "cr", "unresolved"],
                &[
                    "trials.sponsor",
                    "Acme Bio Ltd",
                    "Acme Pharma",
                    "unresolved"
                ],
            ])
        );
    }

    #[test]
    fn numbers_agree_at_the_precision_they_are_stated() {
        let (cells, conflicts) = run_rules(&[
            // a paper's 9.2 and a posted 9.23 are one value, cited by the better source
            ("g1", "", "9.2", "pubmed", None),
            ("g1", "", "9.23", "ctgov", Some("2024-01-01")),
            // 9.26 is not 9.2 at one decimal: they compete, the label outranks
            ("g2", "", "9.2", "fda_label", Some("2024-01-01")),
            ("g2", "", "9.26", "ctgov", Some("2024-01-01")),
            // 9.2 agrees with both 9.17 and 9.23, which disagree: it joins neither
            ("g3", "", "9.2", "press", None),
            ("g3", "", "9.17", "ctgov", Some("2024-01-01")),
            ("g3", "", "9.23", "ctgov", Some("2024-01-01")),
            // half a unit of the last digit is still the same value; 10 is 10.0
            ("g4", "", "68", "fda_label", Some("2024-01-01")),
            ("g4", "", "67.5", "ctgov", Some("2024-01-01")),
            ("g5", "", "10", "press", None),
            ("g5", "", "10.0", "pubmed", None),
            // the same decimals never merge: 9.23 and 9.24 stay two values
            ("g6", "", "9.23", "ctgov", Some("2024-01-01")),
            ("g6", "", "9.24", "ctgov", Some("2024-01-01")),
            // a holder named at its full length and by its first word is one holder; the
            // longer spelling's source is cited when it is the better one
            ("identity.sponsor", "", "UCB", "ctgov", Some("2024-01-01")),
            (
                "identity.sponsor",
                "",
                "UCB Biopharma SRL",
                "drugsfda",
                Some("2024-02-01"),
            ),
            (
                "identity.sponsor",
                "",
                "BRISTOL MYERS SQUIBB",
                "drugsfda",
                Some("2024-02-01"),
            ),
            // two longer names that disagree: the short one joins neither
            ("trials.sponsor", "", "Acme", "ctgov", Some("2024-01-01")),
            (
                "trials.sponsor",
                "",
                "Acme Bio Ltd",
                "ctgov",
                Some("2024-01-01"),
            ),
            (
                "trials.sponsor",
                "",
                "Acme Pharma",
                "ctgov",
                Some("2024-01-01"),
            ),
            // a condition in another case is one condition
            (
                "identity.indication",
                "",
                "Chronic Myeloid Leukemia",
                "ctgov",
                Some("2024-01-01"),
            ),
            (
                "identity.indication",
                "",
                "chronic myeloid leukemia",
                "fda_label",
                Some("2024-01-01"),
            ),
        ]);
        assert_eq!(
            cells,
            v(&[
                &["g1", "", "9.23", "value", "ctgov:k1@0"],
                &["g2", "", "9.2", "value", "fda_label:k2@0"],
                &["g3", "", "9.17", "conflicting", "ctgov:k5@0"],
                &["g3", "", "9.23", "conflicting", "ctgov:k6@0"],
                &["g4", "", "68", "value", "fda_label:k7@0"],
                &["g5", "", "10.0", "value", "pubmed:k10@0"],
                &["g6", "", "9.23", "conflicting", "ctgov:k11@0"],
                &["g6", "", "9.24", "conflicting", "ctgov:k12@0"],
                &[
                    "identity.indication",
                    "",
                    "chronic myeloid leukemia",
                    "value",
                    "fda_label:k20@0"
                ],
                &[
                    "identity.sponsor",
                    "",
                    "BRISTOL MYERS SQUIBB",
                    "conflicting",
                    "drugsfda:k15@0"
                ],
                &[
                    "identity.sponsor",
                    "",
                    "UCB Biopharma SRL",
                    "conflicting",
                    "drugsfda:k14@0"
                ],
                &["market.survival", "", "", "source_empty", ""],
                &["trials.sponsor", "", "Acme", "conflicting", "ctgov:k16@0"],
                &[
                    "trials.sponsor",
                    "",
                    "Acme Bio Ltd",
                    "conflicting",
                    "ctgov:k17@0"
                ],
                &[
                    "trials.sponsor",
                    "",
                    "Acme Pharma",
                    "conflicting",
                    "ctgov:k18@0"
                ],
            ])
        );
        assert_eq!(
            conflicts,
            v(&[
                &["g2", "9.2", "9.26", "family_rank"],
                &["g3", "9.17", "9.2", "family_rank"],
                &["g3", "9.17", "9.23", "unresolved"],
                &["g6", "9.23", "9.24", "unresolved"],
                // UCB (both spellings, one value) and BMS are two holders of one cell
                &[
                    "identity.sponsor",
                    "BRISTOL MYERS SQUIBB",
                    "UCB Biopharma SRL",
                    "unresolved"
                ],
                &["trials.sponsor", "Acme", "Acme Bio Ltd", "unresolved"],
                &["trials.sponsor", "Acme", "Acme Pharma", "unresolved"],
            ])
        );
    }

    #[test]
    fn ranks_file_errors_are_clear() {
        assert!(Ranks::parse("family,rank\nctgov,1\n", "x").is_ok());
        for (bad, why) in [
            ("fam,rank\nctgov,1\n", "header"),
            ("family,rank\nclinvar,1\n", "unknown family"),
            ("family,rank\nctgov,x\n", "not an integer"),
            ("family,rank\nctgov,1\nctgov,2\n", "twice"),
        ] {
            let e = Ranks::parse(bad, "ranks.csv").unwrap_err().to_string();
            assert!(e.contains(why) && e.contains("ranks.csv"), "{e}");
        }
    }
}
