//! Rows of the analyst views (sql/views/analyst.sql) that the report reads.

use super::table;

table! {
    /// The `profile` view: a run's cell with its source's catalog title and retrieval time.
    pub struct ProfileRow in "profile", nullable = true {
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
        pub source_id: Option<String>,
        pub url: Option<String>,
        pub quote: Option<String>,
        pub cutoff_date: Option<String>,
        pub source_title: Option<String>,
        pub retrieved_at: Option<String>,
        pub value_num: Option<super::Number>,
        pub value_date: Option<super::Day>,
        pub value_usd: Option<super::Number>,
        pub claim_id: Option<String>,
    }
}

table! {
    /// The `profile_conflicts` view: a conflict with both sources' catalog URLs.
    pub struct ProfileConflictRow in "profile_conflicts", nullable = true {
        pub asset_id: String,
        pub field: String,
        pub endpoint: Option<String>,
        pub population: Option<String>,
        pub arm: Option<String>,
        pub resolution: String,
        pub winner_value: Option<String>,
        pub winner_unit: Option<String>,
        pub winner_family: Option<String>,
        pub winner_cutoff: Option<String>,
        pub winner_url: Option<String>,
        pub winner_source_id: Option<String>,
        pub other_value: Option<String>,
        pub other_unit: Option<String>,
        pub other_family: Option<String>,
        pub other_cutoff: Option<String>,
        pub other_url: Option<String>,
        pub other_source_id: Option<String>,
        pub winner_title: Option<String>,
        pub winner_retrieved_at: Option<String>,
        pub other_title: Option<String>,
        pub other_retrieved_at: Option<String>,
    }
}
