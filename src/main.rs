//! The `dossier` command line: arguments → a validated plan → one function per command
//! → an exit code (0 ok, 1 the data said no, 2 an error).

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::args::Cli::parse();
    cli::logging(args.quiet);
    let outcome = cli::plan::plan(args).and_then(|plan| {
        let rt = tokio::runtime::Runtime::new()
            .map_err(|e| anyhow::anyhow!("starting the runtime: {e}"))?;
        rt.block_on(cli::commands::execute(plan))
    });
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
