//! The snapshot manifest: the portfolio, each asset's bundle hash, members and family
//! statuses, and the catalog of every source record. Its canonical form is compact
//! JSON of these structs (fixed field order, sorted maps, no timestamps); the snapshot
//! id is the sha256 of exactly those bytes, which are also what is stored. Pure.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::domain::Portfolio;
use crate::domain::{Family, Hash256, Record};
use crate::snapshot::import::{Skipped, Unplaced};
use crate::snapshot::resolve::{FamilyOutcome, Role};

pub const FORMAT: &str = "dossier.snapshot.v1";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotManifest {
    pub format: String,
    /// `import` or `live`.
    pub mode: String,
    pub portfolio: Portfolio,
    pub assets: BTreeMap<String, AssetEntry>,
    /// One object holding every record of the snapshot in full (role `source`), so no
    /// record's bytes are lost when it belongs to no asset or only rides as a competitor.
    pub sources_bundle: Hash256,
    /// One object holding every competitor record once, with the fields its competitor
    /// rows keep: an asset bundle's competitor rows name their records and no more
    /// ([`Member::thin`](crate::lake::bundle::Member::thin)). None in a snapshot written
    /// before, whose asset bundles hold their competitors whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub competitors_bundle: Option<Hash256>,
    /// The catalog: every source record of the snapshot, sorted by source id.
    pub sources: Vec<CatalogEntry>,
    /// Live snapshots: every family fetch of an asset that failed after retries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fetch_failures: Vec<FetchFailure>,
    /// Live snapshots: every search that stopped at a configured cap with results left.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capped_searches: Vec<CappedSearch>,
}

/// A search of an asset's family that stopped at its cap (pages or results) while the
/// source had more: what was fetched of how many, and which setting capped it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CappedSearch {
    pub asset: String,
    pub family: Family,
    /// The search's first page.
    pub url: String,
    pub fetched: u64,
    /// The total the source stated, where it states one.
    pub total: Option<u64>,
    /// The setting and its value, e.g. `openfda_max_pages = 10`.
    pub cap: String,
}

/// What a snapshot noticed but did not take in: files that parsed without becoming
/// citable records, and import entries that were not read. Stored beside the manifest
/// (`snapshots/<id>.diagnostics.json`), never in it: the id hashes content, so the same
/// records under other folder names give the same snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Diagnostics {
    pub snapshot_id: String,
    pub unplaced: Vec<Unplaced>,
    pub skipped: Vec<Skipped>,
}

impl Diagnostics {
    pub fn key(id: &Hash256) -> String {
        format!("snapshots/{id}.diagnostics.json")
    }
}

/// A family of an asset whose fetch failed after retries (its status is `fetch_failed`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchFailure {
    pub asset: String,
    pub family: Family,
    /// The request that failed.
    pub url: String,
    pub error: String,
}

/// A manifest as a run reads it: every field but the assets' member lists, which are
/// skipped while parsing (a run reads an asset's members from its bundle, whose rows
/// they are). Members grow with the portfolio times its competitors; the rest does not.
#[derive(Deserialize)]
struct WithoutMembers {
    format: String,
    mode: String,
    portfolio: Portfolio,
    assets: BTreeMap<String, EntryWithoutMembers>,
    sources_bundle: Hash256,
    #[serde(default)]
    competitors_bundle: Option<Hash256>,
    sources: Vec<CatalogEntry>,
    #[serde(default)]
    fetch_failures: Vec<FetchFailure>,
    #[serde(default)]
    capped_searches: Vec<CappedSearch>,
}

#[derive(Deserialize)]
struct EntryWithoutMembers {
    bundle: Hash256,
    bundle_bytes: u64,
    families: BTreeMap<Family, FamilyOutcome>,
}

impl SnapshotManifest {
    /// Parses a manifest with every asset's `members` left empty.
    pub fn parse_without_members(
        r: &mut dyn std::io::Read,
    ) -> Result<SnapshotManifest, serde_json::Error> {
        let m: WithoutMembers = serde_json::from_reader(r)?;
        Ok(SnapshotManifest {
            format: m.format,
            mode: m.mode,
            portfolio: m.portfolio,
            assets: m
                .assets
                .into_iter()
                .map(|(id, e)| {
                    (
                        id,
                        AssetEntry {
                            bundle: e.bundle,
                            bundle_bytes: e.bundle_bytes,
                            members: Vec::new(),
                            families: e.families,
                        },
                    )
                })
                .collect(),
            sources_bundle: m.sources_bundle,
            competitors_bundle: m.competitors_bundle,
            sources: m.sources,
            fetch_failures: m.fetch_failures,
            capped_searches: m.capped_searches,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssetEntry {
    pub bundle: Hash256,
    pub bundle_bytes: u64,
    pub members: Vec<Member>,
    pub families: BTreeMap<Family, FamilyOutcome>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Shared by every member entry of the same record: a label is a competitor in
    /// every bundle of its class, and at 10,000 synthetic assets the manifest held 20
    /// million members, each with a copy of its id.
    #[serde(serialize_with = "shared_str::serialize")]
    #[serde(deserialize_with = "shared_str::deserialize")]
    pub source_id: Arc<str>,
    pub role: Role,
}

/// A shared string, read and written as a JSON string.
mod shared_str {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(s: &Arc<str>, out: S) -> Result<S::Ok, S::Error> {
        out.serialize_str(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<str>, D::Error> {
        Ok(Arc::from(String::deserialize(d)?))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogEntry {
    pub source_id: String,
    pub family: Family,
    pub record_key: String,
    pub url: String,
    pub retrieved_at: Option<String>,
    pub content_sha256: String,
    pub cutoff_date: Option<String>,
    pub title: Option<String>,
    /// `ok`, or `fetch_failed` with `error` (live snapshots).
    pub fetch_status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl CatalogEntry {
    /// The catalog entry of `r`, whose id ([`Record::source_id`]) the caller has made.
    pub fn of(r: &Record, source_id: String) -> CatalogEntry {
        CatalogEntry {
            source_id,
            family: r.family,
            record_key: r.record_key.clone(),
            url: r.url.clone(),
            retrieved_at: r.retrieved_at.clone(),
            content_sha256: r.content_sha256.clone(),
            cutoff_date: r.cutoff_date.clone(),
            title: r.title.clone(),
            fetch_status: "ok".into(),
            error: None,
        }
    }
}

/// Assets per piece when a manifest's assets are serialized side by side.
const ASSETS_PER_PIECE: usize = 64;

/// Appends `"name":value` to `out`, as `serde_json` writes a struct's field.
fn field<T: Serialize + ?Sized>(out: &mut Vec<u8>, name: &str, value: &T) {
    serde_json::to_writer(&mut *out, name).expect("a field name serializes");
    out.push(b':');
    serde_json::to_writer(&mut *out, value).expect("manifest structs always serialize");
}

/// Appends `assets` as one JSON object, serialized a window of pieces at a time on the
/// pool: each piece is a run of entries written as an object of its own, and its
/// entries are appended in order. An entry is written the same alone or among others,
/// so the bytes are those of the whole map written at once. Only a window is held
/// beside `out`: at 10,000 synthetic assets the manifest is 2 GB.
fn append_assets(out: &mut Vec<u8>, assets: &BTreeMap<String, AssetEntry>) {
    use rayon::prelude::*;
    let entries: Vec<(&String, &AssetEntry)> = assets.iter().collect();
    let window = ASSETS_PER_PIECE * 2 * rayon::current_num_threads().max(1);
    out.push(b'{');
    let mut first = true;
    for run in entries.chunks(window) {
        let pieces: Vec<Vec<u8>> = run
            .par_chunks(ASSETS_PER_PIECE)
            .map(|piece| {
                let piece: BTreeMap<&String, &AssetEntry> = piece.iter().copied().collect();
                serde_json::to_vec(&piece).expect("manifest structs always serialize")
            })
            .collect();
        for piece in pieces {
            if !first {
                out.push(b',');
            }
            first = false;
            // `{...}` with at least one entry: its entries without the braces
            out.extend_from_slice(&piece[1..piece.len() - 1]);
        }
    }
    out.push(b'}');
}

impl SnapshotManifest {
    /// The canonical bytes (what is stored and hashed): `serde_json`'s compact form of
    /// the manifest, the struct's fields in order, written here one by one so that its
    /// assets can be serialized in pieces on the pool while its catalog is serialized
    /// beside them (at 500 synthetic assets, written whole, it was 9 ms of an import's
    /// serial tail). A test compares the bytes with `serde_json::to_vec` of the manifest.
    pub fn canonical(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.canonical_size_hint());
        out.push(b'{');
        field(&mut out, "format", &self.format);
        out.push(b',');
        field(&mut out, "mode", &self.mode);
        out.push(b',');
        field(&mut out, "portfolio", &self.portfolio);
        out.extend_from_slice(b",\"assets\":");
        let ((), sources) = rayon::join(
            || append_assets(&mut out, &self.assets),
            || serde_json::to_vec(&self.sources).expect("catalog entries serialize"),
        );
        out.push(b',');
        field(&mut out, "sources_bundle", &self.sources_bundle);
        if let Some(competitors) = &self.competitors_bundle {
            out.push(b',');
            field(&mut out, "competitors_bundle", competitors);
        }
        out.extend_from_slice(b",\"sources\":");
        out.extend_from_slice(&sources);
        drop(sources);
        if !self.fetch_failures.is_empty() {
            out.push(b',');
            field(&mut out, "fetch_failures", &self.fetch_failures);
        }
        if !self.capped_searches.is_empty() {
            out.push(b',');
            field(&mut out, "capped_searches", &self.capped_searches);
        }
        out.push(b'}');
        out
    }

    /// About the length of [`SnapshotManifest::canonical`], a little over as a rule:
    /// the buffer then grows once or never, where doubling copied all that was written
    /// and held both copies (at 10,000 synthetic assets, 1 GB and then 2 GB). Untouched
    /// capacity costs address space only.
    fn canonical_size_hint(&self) -> usize {
        // `{"source_id":"…","role":"competitor"},`
        const MEMBER: usize = 40;
        // an entry's hash, size, family outcomes and punctuation
        const ASSET: usize = 4 << 10;
        // a catalog entry's fields besides its id (key, URL, dates, title, hash)
        const SOURCE: usize = 1 << 10;
        let members: usize = self
            .assets
            .values()
            .flat_map(|a| &a.members)
            .map(|m| m.source_id.len() + MEMBER)
            .sum();
        members
            + self.assets.len() * ASSET
            + self.sources.len() * SOURCE
            + (self.portfolio.asset.len() << 10)
            + (64 << 10)
    }

    pub fn id(&self) -> Hash256 {
        Hash256::of(&self.canonical())
    }

    pub fn key(id: &Hash256) -> String {
        format!("snapshots/{id}.json")
    }
}
