//! The domain: what every layer speaks of. Source families and records, text fields,
//! family statuses and the ids (`AssetId`, `Hash256`); the portfolio an analyst writes;
//! claims and their labels. No I/O beyond reading the portfolio file.

pub mod claims;
pub mod model;
pub mod portfolio;
