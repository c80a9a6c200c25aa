//! The snapshot stage (Layer 1 orchestrator for imports): import, resolve, encode one
//! bundle per asset, write the bundles, then the snapshot's tables, then the manifest
//! last, then the `latest` pointer. A crash at any point leaves no manifest pointing at
//! a missing object; a rerun writes the same keys again (put-if-absent) and finishes.

pub mod fetch;
pub mod import;
pub mod resolve;
pub mod text;

use std::path::Path;
use std::time::Instant;

use bytes::Bytes;
use rayon::prelude::*;
use tracing::info;

use crate::Error;
use crate::lake::Lake;
use crate::lake::bundle;
use crate::lake::bundle::NO_FIELDS;
use crate::lake::manifest::{
    AssetEntry, CatalogEntry, Diagnostics, FORMAT, Member, SnapshotManifest,
};
use crate::snapshot::import::Imported;
use std::collections::BTreeMap;

use crate::domain::Portfolio;
use crate::domain::{Family, FamilyStatus, Fields, Hash256};
use crate::lake::manifest::FetchFailure;
use crate::lake::tables;

pub const LATEST_KEY: &str = "snapshots/latest";

#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error(
        "lake {lake} has no snapshot yet: run `dossier --lake {lake} snapshot --portfolio FILE --import DIR` (or `dossier demo --lake {lake}`) first"
    )]
    NoSnapshot { lake: String },
    #[error("{what}: {message}")]
    BadId { what: &'static str, message: String },
    #[error("{key}: not a snapshot manifest")]
    NotManifest {
        key: String,
        #[source]
        source: serde_json::Error,
    },
}

/// What a snapshot produced, for the summary line and benchmarks.
#[derive(Debug)]
pub struct SnapshotOutcome {
    pub id: Hash256,
    pub manifest: SnapshotManifest,
    pub files: usize,
    pub raw_bytes: u64,
    pub records: usize,
    pub import_secs: f64,
    pub total_secs: f64,
    /// Unplaced files and unread entries (links, pipes), with why; stored beside the
    /// manifest.
    pub diagnostics: Diagnostics,
}

/// An encoded bundle and its content address, hashed once on the thread that encoded
/// it.
pub struct Blob {
    pub hash: Hash256,
    pub bytes: Vec<u8>,
}

impl Blob {
    fn of(bytes: Vec<u8>) -> Blob {
        Blob {
            hash: Hash256::of(&bytes),
            bytes,
        }
    }
}

/// Where bundles go as they are encoded: each is written to the lake (put-if-absent)
/// from the thread that encoded it, so a snapshot holds only the bundles in flight, not
/// all of them (at 10,000 synthetic assets they were 3.8 GB). Built on the runtime's
/// thread; used from the encoding threads, which are outside it.
pub struct BlobSink {
    lake: Lake,
    runtime: tokio::runtime::Handle,
}

impl BlobSink {
    pub fn new(lake: &Lake) -> BlobSink {
        BlobSink {
            lake: lake.clone(),
            runtime: tokio::runtime::Handle::current(),
        }
    }

    /// Writes one bundle; its address and size for the manifest.
    fn put(&self, blob: Blob) -> Result<(Hash256, u64), Error> {
        let size = blob.bytes.len() as u64;
        let key = Lake::object_key(&blob.hash);
        self.lake
            .put_if_absent_blocking(&key, Bytes::from(blob.bytes), &self.runtime)?;
        Ok((blob.hash, size))
    }
}

/// Builds every bundle, hands each to `sink` as it is encoded, and returns the manifest
/// (the manifest is written after, by [`write`]: a crash before it leaves objects no
/// manifest points at, and a rerun puts the same keys again). It empties every record's
/// text fields once the competitor rows have kept theirs.
pub fn build(
    portfolio: &Portfolio,
    imported: &mut Imported,
    mode: &str,
    sink: &BlobSink,
) -> Result<SnapshotManifest, Error> {
    let t = Instant::now();
    let selections = resolve::resolve(&portfolio.asset, &imported.records);
    tracing::debug!(resolve = t.elapsed().as_secs_f64(), "import phases (s)");
    // A competitor keeps some of a label's fields, in the snapshot's competitors object:
    // each label that is a competitor of any asset is stored there once, and the
    // bundles' competitor rows name it.
    let is_competitor: Vec<bool> = {
        let mut seen = vec![false; imported.records.len()];
        for sel in &selections {
            for (role, i) in &sel.members {
                seen[*i] |= *role == resolve::Role::Competitor;
            }
        }
        seen
    };
    let competitor_fields: Vec<Fields> = imported
        .records
        .par_iter()
        .zip(&is_competitor)
        .map(|(r, competitor)| {
            if *competitor {
                bundle::competitor_fields(r)
            } else {
                Fields::new()
            }
        })
        .collect();
    // Nothing reads a record's fields after this (a bundle stores its raw bytes, and the
    // competitors object the fields just kept): freed now, their memory serves the
    // encoders instead of fresh pages.
    imported
        .records
        .par_iter_mut()
        .for_each(|r| r.fields = Fields::new());
    let imported = &*imported;
    let encode = |asset: &str, members: Vec<bundle::Member>| {
        let blob = Blob::of(bundle::encode(asset, members)?);
        sink.put(blob)
    };
    // The per-asset bundles, and the sources and competitors objects, encode side by
    // side on the pool.
    let (encoded, sources): (Vec<Result<(Hash256, u64), Error>>, _) = rayon::join(
        || {
            let t = Instant::now();
            let out = portfolio
                .asset
                .par_iter()
                .zip(selections.par_iter())
                .map(|(asset, sel)| {
                    let members = sel
                        .members
                        .iter()
                        .map(|(role, i)| bundle::Member {
                            role: *role,
                            record: &imported.records[*i],
                            competitor_fields: &NO_FIELDS,
                            thin: *role == resolve::Role::Competitor,
                        })
                        .collect();
                    encode(asset.id.as_str(), members)
                })
                .collect();
            tracing::debug!(
                asset_bundles = t.elapsed().as_secs_f64(),
                "import phases (s)"
            );
            out
        },
        || {
            let t = Instant::now();
            let all = imported
                .records
                .iter()
                .map(|record| bundle::Member {
                    role: resolve::Role::Source,
                    record,
                    competitor_fields: &NO_FIELDS,
                    thin: false,
                })
                .collect();
            let out = encode(bundle::SOURCES, all);
            tracing::debug!(
                sources_object = t.elapsed().as_secs_f64(),
                "import phases (s)"
            );
            let t = Instant::now();
            let competitors = imported
                .records
                .iter()
                .zip(&competitor_fields)
                .zip(&is_competitor)
                .filter(|(_, competitor)| **competitor)
                .map(|((record, kept), _)| bundle::Member {
                    role: resolve::Role::Competitor,
                    record,
                    competitor_fields: kept,
                    thin: false,
                })
                .collect();
            let competitors = encode(bundle::SOURCES, competitors);
            tracing::debug!(
                competitors_object = t.elapsed().as_secs_f64(),
                "import phases (s)"
            );
            (out, competitors)
        },
    );
    let (sources, competitors) = sources;
    let (sources, _) = sources?;
    let (competitors, _) = competitors?;
    // each record's id made once, and shared by every member entry naming it
    let source_ids: Vec<std::sync::Arc<str>> = imported
        .records
        .par_iter()
        .map(|r| r.source_id().into())
        .collect();
    let mut assets = std::collections::BTreeMap::new();
    for ((asset, sel), enc) in portfolio.asset.iter().zip(&selections).zip(encoded) {
        let (hash, size) = enc?;
        assets.insert(
            asset.id.to_string(),
            AssetEntry {
                bundle: hash,
                bundle_bytes: size,
                members: sel
                    .members
                    .iter()
                    .map(|(role, i)| Member {
                        source_id: source_ids[*i].clone(),
                        role: *role,
                    })
                    .collect(),
                families: sel.families.clone(),
            },
        );
    }
    let mut manifest = SnapshotManifest {
        format: FORMAT.to_string(),
        mode: mode.to_string(),
        portfolio: portfolio.clone(),
        assets,
        sources_bundle: sources,
        competitors_bundle: Some(competitors),
        sources: imported
            .records
            .iter()
            .zip(&source_ids)
            .map(|(r, id)| CatalogEntry::of(r, id.to_string()))
            .collect(),
        fetch_failures: Vec::new(),
        capped_searches: Vec::new(),
    };
    mark_failures(&mut manifest, &imported.fetch_failures);
    Ok(manifest)
}

/// Keeps the failed requests in the manifest and marks each (asset, family) they hit
/// `fetch_failed`: the first error and how many more, and the records still kept.
pub fn mark_failures(manifest: &mut SnapshotManifest, failures: &[FetchFailure]) {
    let mut failed: BTreeMap<(&str, Family), Vec<&FetchFailure>> = BTreeMap::new();
    for f in failures {
        failed.entry((&f.asset, f.family)).or_default().push(f);
    }
    for ((asset, family), fs) in failed {
        if let Some(entry) = manifest.assets.get_mut(asset)
            && let Some(o) = entry.families.get_mut(&family)
        {
            o.status = FamilyStatus::FetchFailed;
            let more = match fs.len() {
                1 => String::new(),
                2 => "; 1 more failed request (see fetch_failures)".to_string(),
                n => format!("; {} more failed requests (see fetch_failures)", n - 1),
            };
            o.detail = format!(
                "fetch failed: {} ({} records kept){more}",
                fs[0].error, o.records
            );
        }
    }
    manifest.fetch_failures = failures.to_vec();
}

/// `dossier snapshot --import DIR`.
pub async fn snapshot_import(
    lake: &Lake,
    portfolio: &Portfolio,
    dir: &Path,
) -> Result<SnapshotOutcome, Error> {
    let started = Instant::now();
    let (portfolio_c, dir_c) = (portfolio.clone(), dir.to_owned());
    let sink = BlobSink::new(lake);
    let (imported, manifest, encoded, n_records) = crate::blocking(move || -> Result<_, Error> {
        let t = Instant::now();
        let mut imported = import::import_dir(&dir_c, &portfolio_c)?;
        let read_parse = t.elapsed().as_secs_f64();
        let n_records = imported.records.len();
        let manifest = build(&portfolio_c, &mut imported, "import", &sink)?;
        let encode = t.elapsed().as_secs_f64();
        // Every record is freed on the pool while the manifest and the tables are
        // encoded: at 500 synthetic assets that is 2,167 records and their raw bytes,
        // at 10,000 a gigabyte.
        let records = std::mem::take(&mut imported.records);
        rayon::spawn(move || drop(records));
        let encoded = Encoded::of(&manifest)?;
        tracing::debug!(
            read_parse,
            encode_and_write_bundles = encode - read_parse,
            manifest_and_tables = t.elapsed().as_secs_f64() - encode,
            "import phases (s)"
        );
        Ok((imported, manifest, encoded, n_records))
    })
    .await?;
    let import_secs = started.elapsed().as_secs_f64();
    let mut diagnostics = Diagnostics {
        unplaced: imported.unplaced.clone(),
        skipped: imported.skipped.clone(),
        ..Diagnostics::default()
    };
    let id = write_encoded(lake, encoded, &mut diagnostics).await?;
    tracing::debug!(
        write_objects = started.elapsed().as_secs_f64() - import_secs,
        "import phases (s)"
    );
    info!(snapshot = %id, assets = manifest.assets.len(), records = n_records, "snapshot written");
    Ok(SnapshotOutcome {
        id,
        files: imported.files,
        raw_bytes: imported.bytes_read,
        records: n_records,
        manifest,
        import_secs,
        total_secs: started.elapsed().as_secs_f64(),
        diagnostics,
    })
}

/// After the bundles ([`build`] wrote them): the tables, then the diagnostics
/// (replacing those of an earlier import of the same content), then the manifest, then
/// the latest pointer.
pub async fn write(
    lake: &Lake,
    manifest: &SnapshotManifest,
    diagnostics: &mut Diagnostics,
) -> Result<Hash256, Error> {
    let encoded = Encoded::of(manifest)?;
    write_encoded(lake, encoded, diagnostics).await
}

/// What [`write`] puts in the lake besides the diagnostics: the manifest's canonical
/// bytes and their hash, the snapshot id, and the `catalog` and `asset_families` tables
/// of that id. The manifest is serialized once, and the same bytes are written last (at
/// 10,000 synthetic assets it is 2 GB of JSON).
struct Encoded {
    id: Hash256,
    manifest: Vec<u8>,
    catalog: Vec<u8>,
    asset_families: Vec<u8>,
}

impl Encoded {
    /// Serializes the manifest, then encodes the two tables side by side, on the pool.
    fn of(manifest: &SnapshotManifest) -> Result<Encoded, Error> {
        let bytes = manifest.canonical();
        let id = Hash256::of(&bytes);
        let (catalog, asset_families) = rayon::join(
            || -> Result<Vec<u8>, Error> {
                Ok(tables::to_parquet(&tables::catalog(&id, manifest)?)?)
            },
            || -> Result<Vec<u8>, Error> {
                Ok(tables::to_parquet(&tables::asset_families(&id, manifest)?)?)
            },
        );
        Ok(Encoded {
            id,
            manifest: bytes,
            catalog: catalog?,
            asset_families: asset_families?,
        })
    }
}

/// [`write`], its bytes already encoded ([`Encoded::of`]).
async fn write_encoded(
    lake: &Lake,
    encoded: Encoded,
    diagnostics: &mut Diagnostics,
) -> Result<Hash256, Error> {
    let Encoded {
        id,
        manifest,
        catalog,
        asset_families,
    } = encoded;
    let partition = format!("snapshot_id={id}");
    lake.put_if_absent(
        &format!("tables/catalog/{partition}/part-0.parquet"),
        catalog.into(),
    )
    .await?;
    lake.put_if_absent(
        &format!("tables/asset_families/{partition}/part-0.parquet"),
        asset_families.into(),
    )
    .await?;
    diagnostics.snapshot_id = id.to_string();
    let diag = serde_json::to_vec(&*diagnostics).expect("diagnostics serialize");
    lake.put_overwrite(&Diagnostics::key(&id), diag.into())
        .await?;
    lake.put_if_absent(&SnapshotManifest::key(&id), manifest.into())
        .await?;
    lake.put_overwrite(LATEST_KEY, Bytes::from(id.to_string()))
        .await?;
    Ok(id)
}

/// Reads a bundle (or the sources object) through the verifying lake and decodes it
/// on the blocking pool; `label` names it in errors (e.g. `asset dupilumab`).
pub async fn read_bundle(
    lake: &Lake,
    hash: &Hash256,
    label: &str,
) -> Result<Vec<datafusion::arrow::array::RecordBatch>, Error> {
    let bytes = lake.get_object(hash).await?;
    let what = format!("{} ({label})", Lake::object_key(hash));
    crate::blocking(move || Ok(bundle::decode(bytes, &what)?)).await
}

/// The snapshot's competitor records ([`bundle::Competitors`]), read once for every
/// bundle a command reads: empty for a snapshot written before competitors objects.
pub async fn competitors(
    lake: &Lake,
    manifest: &SnapshotManifest,
) -> Result<std::sync::Arc<bundle::Competitors>, Error> {
    let Some(hash) = &manifest.competitors_bundle else {
        return Ok(Default::default());
    };
    let batches = read_bundle(lake, hash, "competitors").await?;
    crate::blocking(move || Ok(std::sync::Arc::new(bundle::Competitors::of(&batches)?))).await
}

/// Reads and verifies a manifest by id, or `latest`.
pub async fn load(lake: &Lake, id_or_latest: &str) -> Result<(Hash256, SnapshotManifest), Error> {
    load_as(lake, id_or_latest, |r| serde_json::from_reader(r)).await
}

/// [`load`] with every asset's `members` left empty (see
/// [`SnapshotManifest::parse_without_members`]): what a run or a baseline search needs.
pub async fn load_without_members(
    lake: &Lake,
    id_or_latest: &str,
) -> Result<(Hash256, SnapshotManifest), Error> {
    load_as(lake, id_or_latest, SnapshotManifest::parse_without_members).await
}

async fn load_as(
    lake: &Lake,
    id_or_latest: &str,
    parse: impl FnOnce(&mut dyn std::io::Read) -> Result<SnapshotManifest, serde_json::Error>
    + Send
    + 'static,
) -> Result<(Hash256, SnapshotManifest), Error> {
    let id = if id_or_latest == "latest" {
        let raw = match lake.get(LATEST_KEY).await {
            Err(crate::lake::LakeError::NotFound { .. }) => {
                return Err(SnapshotError::NoSnapshot {
                    lake: lake.url.clone(),
                }
                .into());
            }
            other => other?,
        };
        Hash256::try_from(String::from_utf8_lossy(&raw).trim().to_string()).map_err(|e| {
            SnapshotError::BadId {
                what: LATEST_KEY,
                message: e.to_string(),
            }
        })?
    } else {
        Hash256::try_from(id_or_latest.to_string()).map_err(|e| SnapshotError::BadId {
            what: "--snapshot",
            message: e.to_string(),
        })?
    };
    // read as it streams in, hashed on the way: a manifest grows with the portfolio
    let manifest = lake
        .read_verified(&SnapshotManifest::key(&id), &id, move |r| {
            parse(&mut std::io::BufReader::with_capacity(1 << 16, r))
        })
        .await?
        .map_err(|source| SnapshotError::NotManifest {
            key: SnapshotManifest::key(&id),
            source,
        })?;
    Ok((id, manifest))
}

/// The stderr summary of a snapshot: records per family, statuses, throughput.
impl std::fmt::Display for SnapshotOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = &self.manifest;
        let mb = self.raw_bytes as f64 / 1e6;
        writeln!(
            f,
            "snapshot {}: {} files, {:.1} MB raw, {} records, {} assets; import+bundle {:.2}s ({:.1} MB/s), total {:.2}s",
            &self.id.as_str()[..12],
            self.files,
            mb,
            self.records,
            m.assets.len(),
            self.import_secs,
            mb / self.import_secs.max(1e-9),
            self.total_secs
        )?;
        let mut per_family: BTreeMap<Family, usize> = BTreeMap::new();
        for src in &m.sources {
            *per_family.entry(src.family).or_default() += 1;
        }
        let fams: Vec<String> = per_family
            .iter()
            .map(|(fam, n)| format!("{fam} {n}"))
            .collect();
        writeln!(f, "  records by family: {}", fams.join(", "))?;
        let mut statuses: BTreeMap<&str, usize> = BTreeMap::new();
        for a in m.assets.values() {
            for o in a.families.values() {
                *statuses.entry(o.status.as_str()).or_default() += 1;
            }
        }
        let st: Vec<String> = statuses.iter().map(|(k, n)| format!("{k} {n}")).collect();
        writeln!(f, "  asset x family statuses: {}", st.join(", "))?;
        for u in &self.diagnostics.unplaced {
            writeln!(f, "  unplaced {}: {}", u.file, u.reason)?;
        }
        for s in &self.diagnostics.skipped {
            writeln!(f, "  skipped {}: {}", s.path.display(), s.reason)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixtures() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
    }

    #[tokio::test]
    async fn write_then_load_on_a_memory_lake_and_refuse_a_tampered_manifest() {
        let lake = Lake::open("memory://").unwrap();
        let portfolio = Portfolio::load(&fixtures().join("portfolio.toml")).unwrap();
        let out = snapshot_import(&lake, &portfolio, &fixtures().join("import"))
            .await
            .unwrap();
        let (id, m) = load(&lake, "latest").await.unwrap();
        assert_eq!(id, out.id);
        assert_eq!(m, out.manifest);
        // Every bundle the manifest names is there and verifies.
        for entry in m.assets.values() {
            lake.get_object(&entry.bundle).await.unwrap();
        }
        lake.get_object(&m.sources_bundle).await.unwrap();
        // Writing again is idempotent and gives the same id.
        let again = snapshot_import(&lake, &portfolio, &fixtures().join("import"))
            .await
            .unwrap();
        assert_eq!(again.id, id);
        // A manifest edited in place no longer matches its name.
        let key = SnapshotManifest::key(&id);
        let mut bytes = lake.get(&key).await.unwrap().to_vec();
        let pos = bytes.iter().position(|b| *b == b'z').unwrap();
        bytes[pos] = b'y';
        lake.put_overwrite(&key, Bytes::from(bytes)).await.unwrap();
        let err = load(&lake, id.as_str()).await.unwrap_err();
        assert!(err.is_corrupt(), "{err}");
        assert!(load(&lake, "not-a-hash").await.is_err());
    }
}
