//! The run's journal: one entry per finished step (an asset's reasoning, the rules, a
//! model's answer), at `runs/<run>/journal/<step>/<sha256 of the step's inputs>.json`.
//! A rerun of the same run id finds the entries and skips those steps. An entry is
//! written put-if-absent after everything its step wrote, and never rewritten.

use bytes::Bytes;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::Error;
use crate::domain::sha256_hex;
use crate::lake::{Lake, LakeError};
use crate::run::RunError;

#[derive(Clone)]
pub struct Journal {
    lake: Lake,
    run_id: String,
}

impl Journal {
    pub fn new(lake: Lake, run_id: &str) -> Journal {
        Journal {
            lake,
            run_id: run_id.to_string(),
        }
    }

    /// The key of a step whose inputs serialize to `inputs`.
    pub fn key(&self, step: &str, inputs: &str) -> String {
        let hash = sha256_hex(inputs.as_bytes());
        format!("runs/{}/journal/{step}/{hash}.json", self.run_id)
    }

    /// A finished step's entry, if the journal has one. Entries are written whole (an
    /// object put), so one that does not parse was altered: an error naming it, not a
    /// silent redo.
    pub async fn read<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, Error> {
        match self.lake.get(key).await {
            Ok(bytes) => serde_json::from_slice(&bytes).map(Some).map_err(|source| {
                RunError::Journal {
                    key: key.to_string(),
                    source,
                }
                .into()
            }),
            Err(LakeError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Marks a step finished. Put-if-absent: a concurrent run that finished the same
    /// step first wrote the same content.
    pub async fn write<T: Serialize>(&self, key: &str, entry: &T) -> Result<(), Error> {
        let bytes = serde_json::to_vec(entry).map_err(|source| RunError::Encode {
            what: key.to_string(),
            source,
        })?;
        self.lake.put_if_absent(key, Bytes::from(bytes)).await?;
        Ok(())
    }
}
