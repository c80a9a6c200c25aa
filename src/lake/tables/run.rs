//! The run's tables (`claims`, `rejections`, `profile_cells`, `conflicts`) and the
//! precedence rules' inputs and outputs. Every column of a run table is nullable, so the
//! partitions of one table share one schema.

use super::table;

table! {
    /// One claim of a run, accepted or not, with what the gates resolved (`source_id`,
    /// `url`, `cutoff_date`).
    pub struct ClaimRow in "claims", nullable = true {
        pub run_id: String,
        pub claim_id: String,
        pub asset_id: String,
        pub field: String,
        pub endpoint: Option<String>,
        pub population: Option<String>,
        pub arm: Option<String>,
        pub value: String,
        pub unit: Option<String>,
        pub label: String,
        pub source: Option<String>,
        pub source_id: Option<String>,
        pub url: Option<String>,
        pub quote: Option<String>,
        pub locator: Option<String>,
        pub cutoff_date: Option<String>,
        /// The claim ids of a derived or modeled value's inputs, comma-separated.
        pub inputs: Option<String>,
        pub formula: Option<String>,
        /// Which reasoner step made it (the claim id's first part).
        pub origin: String,
        pub accepted: bool,
        /// The entailment gate's finding: `holds`, `undecided` (accepted, no rule could
        /// decide and no judge did) or `fails`; null when the gate did not run.
        pub entailment: Option<String>,
        /// Why it is undecided, or which judge decided.
        pub entailment_note: Option<String>,
    }
}

table! {
    /// One failed gate of one claim.
    pub struct RejectionRow in "rejections", nullable = true {
        pub run_id: String,
        pub claim_id: String,
        pub asset_id: String,
        pub field: String,
        pub gate: String,
        pub reason: String,
        /// For the entailment gate: the rule that failed (`arm`, `unit`, `judge`, …).
        pub rule: Option<String>,
        pub value: String,
        pub source: Option<String>,
        pub quote: Option<String>,
    }
}

table! {
    /// One cell of an asset's profile: a value with its source, or a status saying what
    /// kind of empty it is.
    pub struct CellRow in "profile_cells", nullable = true {
        pub run_id: String,
        pub snapshot_id: String,
        pub asset_id: String,
        pub section: String,
        pub field: String,
        pub endpoint: Option<String>,
        pub population: Option<String>,
        pub arm: Option<String>,
        pub value: Option<String>,
        /// The value as a number, when the whole value is one (`47.2`, `1,234`).
        pub value_num: Option<super::Number>,
        /// The value as a date, when it is one (`20220513`, `May 13, 2022`, `2020-05-07`).
        pub value_date: Option<super::Day>,
        /// The amount in US dollars, when the unit is USD.
        pub value_usd: Option<super::Number>,
        pub unit: Option<String>,
        pub label: Option<String>,
        pub status: String,
        pub detail: Option<String>,
        pub family: Option<String>,
        pub claim_id: Option<String>,
        pub source_id: Option<String>,
        pub url: Option<String>,
        pub quote: Option<String>,
        pub locator: Option<String>,
        pub cutoff_date: Option<String>,
        /// A hash of the cell's identity and content within the run.
        pub dedup_key: String,
    }
}

table! {
    /// Two values of one cell that met in precedence, and how the winner won
    /// (`later_cutoff`, `family_rank` or `unresolved`).
    pub struct ConflictRow in "conflicts", nullable = true {
        pub run_id: String,
        pub asset_id: String,
        pub field: String,
        pub endpoint: Option<String>,
        pub population: Option<String>,
        pub arm: Option<String>,
        pub winner_value: Option<String>,
        pub winner_unit: Option<String>,
        pub winner_source_id: Option<String>,
        pub winner_family: Option<String>,
        pub winner_cutoff: Option<String>,
        pub other_value: Option<String>,
        pub other_unit: Option<String>,
        pub other_source_id: Option<String>,
        pub other_family: Option<String>,
        pub other_cutoff: Option<String>,
        pub resolution: String,
    }
}

table! {
    /// The rules' input `accepted`: one accepted claim; key columns (endpoint,
    /// population, arm, unit) hold '' rather than NULL so they compare equal in SQL.
    pub struct AcceptedRow in "accepted", nullable = true {
        pub run_id: String,
        pub asset_id: String,
        pub section: String,
        pub field: String,
        pub endpoint: String,
        pub population: String,
        pub arm: String,
        pub value: String,
        pub unit: String,
        pub label: String,
        pub family: Option<String>,
        pub claim_id: String,
        pub source_id: Option<String>,
        pub url: Option<String>,
        pub quote: Option<String>,
        pub locator: Option<String>,
        pub cutoff_date: Option<String>,
    }
}

table! {
    /// The rules' input `empty_cells`: a field with no accepted claim, and why.
    pub struct EmptyCellRow in "empty_cells", nullable = true {
        pub run_id: String,
        pub asset_id: String,
        pub section: String,
        pub field: String,
        pub status: String,
        pub detail: String,
    }
}

table! {
    /// The rules' output `profile_cells` (sql/40_profile_cells.sql), before the run adds
    /// the snapshot id and the dedup key; '' where the table will hold NULL.
    pub struct RulesCellRow in "profile_cells (rules)", nullable = true {
        pub run_id: String,
        pub asset_id: String,
        pub section: String,
        pub field: String,
        pub endpoint: Option<String>,
        pub population: Option<String>,
        pub arm: Option<String>,
        pub value: Option<String>,
        pub unit: Option<String>,
        pub label: Option<String>,
        pub status: String,
        pub detail: Option<String>,
        pub family: Option<String>,
        pub claim_id: Option<String>,
        pub source_id: Option<String>,
        pub url: Option<String>,
        pub quote: Option<String>,
        pub locator: Option<String>,
        pub cutoff_date: Option<String>,
    }
}

table! {
    /// One cell that changed between a baseline run and a run: how (`added`, `removed`,
    /// `value_changed`, `status_changed`, `fetch_failed`, `recited`, `conflict_opened`,
    /// `conflict_resolved`), with both sides' value, status, quote and source.
    pub struct CellChangeRow in "cell_changes", nullable = true {
        pub run_id: String,
        pub baseline_run_id: String,
        pub asset_id: String,
        pub section: Option<String>,
        pub field: String,
        pub endpoint: Option<String>,
        pub population: Option<String>,
        pub arm: Option<String>,
        pub change: String,
        pub old_status: Option<String>,
        pub new_status: Option<String>,
        pub old_value: Option<String>,
        pub new_value: Option<String>,
        pub old_unit: Option<String>,
        pub new_unit: Option<String>,
        pub old_quote: Option<String>,
        pub new_quote: Option<String>,
        pub old_source_id: Option<String>,
        pub new_source_id: Option<String>,
        pub old_cutoff: Option<String>,
        pub new_cutoff: Option<String>,
        pub family: Option<String>,
        pub detail: Option<String>,
    }
}
