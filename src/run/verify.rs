//! `dossier verify`: the gates for claims written by anyone, against one snapshot.
//! Loads the snapshot's sources object through the verifying lake, builds the evidence
//! index once, and returns one verdict per claim line in input order. The entailment gate
//! needs each claimed asset's names, records and structured places: the places come from
//! running the extractive reasoner over the asset's bundle, as `dossier run` does.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::Error;
use crate::domain::{ClaimLine, Hash256, Label, parse_lines};
use crate::lake::Lake;
use crate::lake::bundle;
use crate::lake::manifest::SnapshotManifest;
use crate::run::evidence::Evidence;
use crate::run::gates::{self, Context, Gate, Scope, Verdict};
use crate::run::reason::{self, Input};
use crate::run::{Journal, judge};
use crate::snapshot;

/// The evidence index of a snapshot (every record whole, from its sources object).
pub async fn evidence(
    lake: &Lake,
    snapshot_ref: &str,
) -> Result<(Hash256, SnapshotManifest, Evidence), Error> {
    let (id, manifest) = snapshot::load(lake, snapshot_ref).await?;
    // the sources object is decoded a batch at a time into the index: memory holds the
    // index and one batch, not the decoded object beside it
    let bytes = lake.get_object(&manifest.sources_bundle).await?;
    let what = format!("{} (sources)", Lake::object_key(&manifest.sources_bundle));
    let ev = crate::blocking(move || {
        let mut ev = Evidence::default();
        crate::lake::bundle::decode_each(bytes, &what, |b| ev.add_batch(&b))?;
        Ok(ev)
    })
    .await?;
    Ok((id, manifest, ev))
}

/// A snapshot as a run reads it: the manifest without its member lists, and the catalog
/// (every record's identity, URL and cutoff, from the manifest; no text). A run reads
/// each asset's members and text from its bundle ([`Evidence::of_bundle`]).
pub async fn catalog(
    lake: &Lake,
    snapshot_ref: &str,
) -> Result<(Hash256, SnapshotManifest, Evidence), Error> {
    let (id, manifest) = snapshot::load_without_members(lake, snapshot_ref).await?;
    let mut ev = Evidence::default();
    for e in manifest.sources.iter().filter(|e| e.fetch_status == "ok") {
        ev.add(crate::run::evidence::EvidenceRecord::outside(
            e.source_id.clone(),
            e.family,
            e.record_key.clone(),
            e.url.clone(),
            e.cutoff_date.clone(),
        ));
    }
    Ok((id, manifest, ev))
}

/// The entailment scopes of these assets: names, member records, and the places the
/// extractive reasoner binds in their bundles.
pub async fn scopes(
    lake: &Lake,
    manifest: &SnapshotManifest,
    assets: &BTreeSet<String>,
) -> Result<HashMap<String, Scope>, Error> {
    use futures::StreamExt;
    use rayon::prelude::*;
    let by_id: HashMap<&str, &crate::domain::Asset> = manifest
        .portfolio
        .asset
        .iter()
        .map(|a| (a.id.as_str(), a))
        .collect();
    let competitors = snapshot::competitors(lake, manifest).await?;
    let competitors = &*competitors;
    let wanted = assets
        .iter()
        .filter_map(|id| Some((id, manifest.assets.get(id)?, *by_id.get(id.as_str())?)));
    // bundles read 8 at a time and reasoned over on every core, a chunk at a time, so
    // memory holds one chunk of bundles, not the portfolio's
    let mut chunks = futures::stream::iter(wanted)
        .map(|(id, entry, asset)| async move {
            let batches =
                snapshot::read_bundle(lake, &entry.bundle, &format!("asset {id}")).await?;
            Ok::<_, Error>((id, entry, asset, batches))
        })
        .buffer_unordered(8)
        .chunks(32);
    let mut out = HashMap::new();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.into_iter().collect::<Result<Vec<_>, Error>>()?;
        let scopes = chunk.into_par_iter().map(|(id, entry, asset, batches)| {
            let rows = bundle::rows_with(&batches, competitors)?;
            let families: BTreeMap<_, _> =
                entry.families.iter().map(|(f, o)| (*f, o.status)).collect();
            let claims = reason::extractive(&Input::new(asset, &families, &rows)).claims;
            let mut scope = Scope::of(asset, entry);
            scope.bind(
                claims
                    .iter()
                    .filter(|c| c.label == Label::Fact)
                    .filter_map(|c| c.source.as_deref().map(|s| (c, s)))
                    // as in a run: a number read from text is no structured place
                    .filter(|(c, s)| !crate::run::gates::text_arm_level(c, s)),
            );
            Ok::<_, Error>((id.clone(), scope))
        });
        out.extend(scopes.collect::<Result<Vec<_>, Error>>()?);
    }
    Ok(out)
}

/// Verdicts for a claims file's bytes (one per line that is not blank). A claim for an
/// asset the snapshot does not hold is rejected as malformed.
/// With a judge, its answers are journaled under the run id `verify`, so a repeated
/// verify replays them.
pub async fn verdicts(
    lake: &Lake,
    text: &[u8],
    manifest: &SnapshotManifest,
    ev: Evidence,
    judge: Option<judge::Config>,
) -> Result<Vec<Verdict>, Error> {
    let lines = parse_lines(text);
    let assets: BTreeSet<String> = lines
        .iter()
        .filter_map(|l| match l {
            ClaimLine::Claim(c) if c.label == Label::Fact => Some(c.asset.clone()),
            _ => None,
        })
        .collect();
    let scopes = scopes(lake, manifest, &assets).await?;
    let judge = judge
        .map(|cfg| {
            judge::Client::new(
                &cfg,
                Journal::new(lake.clone(), "verify"),
                tokio::runtime::Handle::current(),
            )
        })
        .transpose()?;
    // the judge blocks on its requests: off the async threads
    let (lines, mut out) = crate::blocking(move || {
        let cx = Context::new(&scopes)
            .with_judge(judge.as_ref().map(|j| j as &dyn gates::entailment::Judge));
        let out = gates::verify(&lines, &ev, Some(&cx));
        Ok((lines, out))
    })
    .await?;
    for (line, v) in lines.iter().zip(out.iter_mut()) {
        if let ClaimLine::Claim(c) = line
            && !manifest.assets.contains_key(&c.asset)
        {
            v.reject(
                Gate::Malformed,
                format!("asset {:?} is not in the snapshot", c.asset),
                true,
            );
        }
    }
    Ok(out)
}
