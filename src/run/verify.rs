//! `dossier verify`: the gates for claims written by anyone, against one snapshot.
//! Loads the snapshot's sources object through the verifying lake, builds the evidence
//! index once, and returns one verdict per claim line in input order.

use crate::Error;
use crate::domain::Hash256;
use crate::domain::{ClaimLine, parse_lines};
use crate::lake::Lake;
use crate::lake::manifest::SnapshotManifest;
use crate::run::evidence::Evidence;
use crate::run::gates::{self, Gate, Verdict};
use crate::snapshot;

/// The evidence index of a snapshot (every record whole, from its sources object).
pub async fn evidence(
    lake: &Lake,
    snapshot_ref: &str,
) -> Result<(Hash256, SnapshotManifest, Evidence), Error> {
    let (id, manifest) = snapshot::load(lake, snapshot_ref).await?;
    let batches = snapshot::read_bundle(lake, &manifest.sources_bundle, "sources").await?;
    let ev = crate::blocking(move || Ok(Evidence::from_batches(&batches))).await?;
    Ok((id, manifest, ev))
}

/// Verdicts for a claims file's bytes (one per line that is not blank). A claim for an asset the snapshot does not hold
/// is rejected as malformed.
pub fn verdicts(text: &[u8], manifest: &SnapshotManifest, ev: &Evidence) -> Vec<Verdict> {
    let lines = parse_lines(text);
    let mut out = gates::verify(&lines, ev);
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
    out
}
