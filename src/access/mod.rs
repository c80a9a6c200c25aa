//! Analyst access to the lake: a DataFusion session over the tables and views (`sql`),
//! the interactive prompt (`shell`), the read-only Arrow Flight SQL server (`flight`)
//! and the HTML/Markdown pages of a run (`report`). Nothing here writes to the lake.

pub mod flight;
pub mod report;
pub mod shell;
pub mod sql;
