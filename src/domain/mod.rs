//! The domain: what every layer speaks of. Source families and records, text fields,
//! family statuses and the ids (`AssetId`, `Hash256`); the portfolio an analyst writes;
//! claims and their labels. No I/O beyond reading the portfolio file.

mod claims;
mod model;
mod portfolio;
pub mod typed;

pub use claims::{Claim, ClaimLine, Label, parse_lines};
pub use model::{
    AssetId, Facets, Family, FamilyStatus, Field, Fields, Hash256, IdError, Record, TextField,
    sha256_hex,
};
pub use portfolio::{
    Asset, Assumed, MetaError, Portfolio, PortfolioError, SourceMeta, is_nct_id, one_line,
    printable,
};
