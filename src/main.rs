//! The `dossier` command line: arguments → a validated plan → one function per command
//! → an exit code (0 ok, 1 the data said no, 2 an error).

mod cli;

use std::process::ExitCode;

use clap::Parser;

/// The stack of every thread that plans or runs SQL. A deep statement (a sum of 10,000
/// terms, thousands of UNION ALLs) recurses through the planner and optimizer once per
/// level; the stack is address space, touched only as deep as a statement goes.
const STACK_BYTES: usize = 512 << 20;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc's options, set before anything allocates (an `.init_array` entry of a higher
// priority than the allocator's own constructor): freed memory goes back to the system
// at once, and arena memory is committed as it is used. The resident set then follows
// the live heap, whatever the portfolio's size (`bench/run_throughput.sh 300 1200`).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00099")]
static ALLOCATOR_OPTIONS: extern "C" fn() = allocator_options;

#[cfg(target_os = "linux")]
extern "C" fn allocator_options() {
    unsafe extern "C" {
        fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    }
    // mimalloc.h (v3): mi_option_arena_eager_commit = 4, mi_option_purge_delay = 15
    unsafe {
        mi_option_set(4, 0);
        mi_option_set(15, 0);
    }
}

fn main() -> ExitCode {
    let args = cli::args::Cli::parse();
    cli::logging(args.quiet);
    let outcome = cli::plan::plan(args).and_then(|plan| {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_stack_size(STACK_BYTES)
            .build()
            .map_err(|e| anyhow::anyhow!("starting the runtime: {e}"))?;
        std::thread::Builder::new()
            .name("dossier-main".into())
            .stack_size(STACK_BYTES)
            .spawn(move || rt.block_on(cli::commands::execute(plan)))
            .map_err(|e| anyhow::anyhow!("starting the main thread: {e}"))?
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("internal error: the main thread panicked")))
    });
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", dossier::domain::printable(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}
