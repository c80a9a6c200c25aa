//! `dossier demo`: the whole pipeline (snapshot, an extractive run, the HTML report), on the bundled fictional
//! fixtures, offline, into a fresh lake. Only removes a lake it created itself
//! (marked by a `.dossier-demo` file).

use std::path::{Path, PathBuf};

use crate::Error;
use crate::domain::Portfolio;
use crate::lake::Lake;
use crate::snapshot::{self, SnapshotOutcome};

pub const MARKER: &str = ".dossier-demo";

#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error("{} exists and was not made by the demo; pass another --lake", .0.display())]
    NotOurs(PathBuf),
    #[error("{action} {}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> DemoError {
    let path = path.to_owned();
    move |source| DemoError::Io {
        action,
        path,
        source,
    }
}

/// The repository's `fixtures/`, built into the binary so an installed `dossier demo`
/// needs no checkout.
static FIXTURES: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/fixtures");

/// Writes the built-in fixtures under `dir` (`portfolio.toml`, `import/<family>/…`).
pub fn extract_fixtures(dir: &Path) -> Result<(), DemoError> {
    std::fs::create_dir_all(dir)
        .and_then(|()| FIXTURES.extract(dir))
        .map_err(io("writing the demo's fixtures to", dir))
}

/// Prepares a fresh local lake directory, refusing to touch one the demo did not make.
pub fn fresh_lake(dir: &Path) -> Result<(), DemoError> {
    if dir.exists() {
        let empty = std::fs::read_dir(dir)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if !empty && !dir.join(MARKER).exists() {
            return Err(DemoError::NotOurs(dir.to_owned()));
        }
        std::fs::remove_dir_all(dir).map_err(io("clearing", dir))?;
    }
    std::fs::create_dir_all(dir).map_err(io("creating", dir))?;
    std::fs::write(dir.join(MARKER), b"made by dossier demo\n").map_err(io("writing", dir))?;
    Ok(())
}

/// Snapshot of the fixtures, then an extractive run over it.
/// `fixtures`: a folder laid out as the repository's `fixtures/`; by default the built-in
/// copy, written to `<lake>/fixtures` first.
pub async fn run(
    fixtures: Option<&Path>,
    lake_dir: &Path,
) -> Result<(SnapshotOutcome, crate::run::RunOutcome), Error> {
    fresh_lake(lake_dir)?;
    let built_in = lake_dir.join("fixtures");
    let fixtures = match fixtures {
        Some(f) => f,
        None => {
            extract_fixtures(&built_in)?;
            built_in.as_path()
        }
    };
    let portfolio = Portfolio::load(&fixtures.join("portfolio.toml"))?;
    let lake = Lake::open(&lake_dir.to_string_lossy())?;
    let snap = snapshot::snapshot_import(&lake, &portfolio, &fixtures.join("import")).await?;
    let run = crate::run::run(
        &lake,
        crate::run::Options {
            snapshot: snap.id.to_string(),
            assets: vec![],
            reasoner: crate::run::Reasoner::Extractive,
            run_id: None,
            llm: None,
            ranks: crate::run::precedence::Ranks::default_ranks(),
            shard: None,
            progress: false,
            jobs: crate::config::cores(),
            baseline: None,
            assumptions: crate::run::reason::valuation::Book::shipped_arc(),
            judge: None,
        },
    )
    .await?;
    // the analyst's pages of the run, beside the lake's tables
    let ctx = crate::access::sql::context(&lake, "latest", false, Some(&run.run_id)).await?;
    let row =
        crate::access::sql::pick_run(&crate::access::sql::runs(&lake).await?, Some(&run.run_id))?
            .cloned()
            .ok_or_else(|| Error::Internal("the demo's run has no manifest".into()))?;
    let data = crate::access::report::load(&ctx, row, None).await?;
    crate::access::report::write_dir(
        &lake_dir.join("report"),
        crate::access::report::Format::Html,
        &data,
    )?;
    Ok((snap, run))
}
