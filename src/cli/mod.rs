//! The binary's side of dossier: clap's arguments (`args`), the validated plan they
//! become (`plan`), and one function per command (`commands`). The library never sees
//! clap; these modules never reach past the library's public API.

pub mod args;
pub mod commands;
pub mod plan;

/// Logs to stderr: warnings (errors only with `--quiet`), or `DOSSIER_LOG`'s filter.
pub fn logging(quiet: bool) {
    let filter = if quiet { "error" } else { "warn" };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("DOSSIER_LOG")
                .unwrap_or_else(|_| filter.into()),
        )
        .with_writer(std::io::stderr)
        .init();
}
