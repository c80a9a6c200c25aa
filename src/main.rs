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
// A snapshot and distill commit their arenas whole (see [`eager_commit`]), which must be
// decided here too: an arena is committed one way or the other when it is reserved.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[used]
#[unsafe(link_section = ".init_array.00099")]
static ALLOCATOR_OPTIONS: extern "C" fn(
    std::ffi::c_int,
    *const *const std::ffi::c_char,
    *const *const std::ffi::c_char,
) = allocator_options;

#[cfg(target_os = "linux")]
unsafe extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    fn getenv(name: *const std::ffi::c_char) -> *mut std::ffi::c_char;
}

// mimalloc.h (v3): the options' numbers
#[cfg(target_os = "linux")]
const ARENA_EAGER_COMMIT: std::ffi::c_int = 4;
#[cfg(target_os = "linux")]
const PURGE_DELAY: std::ffi::c_int = 15;

/// glibc calls `.init_array` entries with the program's arguments, as it calls `main`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" fn allocator_options(
    argc: std::ffi::c_int,
    argv: *const *const std::ffi::c_char,
    _envp: *const *const std::ffi::c_char,
) {
    let args = (1..usize::try_from(argc).unwrap_or(0)).map_while(|i| {
        // SAFETY: glibc passes `argc` pointers to NUL-terminated strings in `argv`
        let arg = unsafe { *argv.add(i) };
        (!arg.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(arg) }.to_bytes())
    });
    let eager = !argv.is_null() && eager_commit(args);
    // An operator's own MIMALLOC_* setting of either is left to mimalloc (libc's getenv:
    // nothing may allocate before the options are set).
    for (option, value, env) in [
        (
            ARENA_EAGER_COMMIT,
            std::ffi::c_long::from(eager),
            c"MIMALLOC_ARENA_EAGER_COMMIT",
        ),
        (PURGE_DELAY, 0, c"MIMALLOC_PURGE_DELAY"),
    ] {
        unsafe {
            if getenv(env.as_ptr()).is_null() {
                mi_option_set(option, value);
            }
        }
    }
}

/// Whether the command commits its arenas whole: `snapshot` and `distill` do. An arena
/// committed whole is also given to the kernel's transparent huge pages, so the import
/// faults in its memory 2 MiB at a time instead of 4 KiB (`bench/import_throughput.sh
/// 500`, medians of eleven and nine: real 127 -> 80 ms, synthetic 528 -> 479 ms), and
/// so does the first BM25 index of `distill`, the largest of the real corpus (its mean
/// index+query time per asset, medians of nine passes: 229 -> 217 us). Every other command
/// commits as it uses: a run's resident set then follows its heap (with whole arenas, 300
/// synthetic assets peak at 210 MB instead of 149), and a SQL statement's first
/// execution varied from 0.7x to 2.3x its time with them. The command is the first word
/// that is neither an option nor the value of `--lake`; it is read before anything can
/// allocate, so without clap.
#[cfg(target_os = "linux")]
fn eager_commit<'a>(args: impl Iterator<Item = &'a [u8]>) -> bool {
    let mut args = args;
    while let Some(arg) = args.next() {
        match arg {
            b"--lake" => {
                args.next();
            }
            b"--" => return args.next().is_some_and(|c| EAGER.contains(&c)),
            _ if arg.starts_with(b"-") => {}
            command => return EAGER.contains(&command),
        }
    }
    false
}

/// The commands that commit their arenas whole ([`eager_commit`]).
#[cfg(target_os = "linux")]
const EAGER: [&[u8]; 2] = [b"snapshot", b"distill"];

/// A snapshot holds every record it imports until its bundles are written, so its
/// resident set does not follow the portfolio a run's does: freed memory waits a second
/// before it goes back, to be used again by the next bundle's buffers rather than
/// faulted in afresh (`bench/import_throughput.sh`: 0.59 s -> 0.49 s at 500 assets with
/// 100 ms). An import of 500 synthetic assets now takes less than 0.2 s, and with 100
/// ms mimalloc gave back 139 MiB while it ran, to fault most of it in again: with a
/// second, the import's CPU and wall time were 0.97x, over 41 pairs, for a peak of 161
/// MiB instead of 141.
/// A SQL statement reads a part per asset and frees each part's buffers as the next
/// comes: the same wait keeps them for the next part (`bench/analyst_queries.sh`, the
/// portfolio query's first execution: about 145 ms -> 125 ms at 500 assets). `dossier
/// rules` over a whole candidate file grows and frees hash tables of many megabytes:
/// with the wait, 1M candidates take 3.8-3.9 s instead of 4.7-5.8 s, for a peak of 1.38
/// GB instead of 1.19 (`bench/precedence_compare.sh`). `dossier distill` builds and
/// frees a BM25 index per asset: with the wait the next asset's index reused the pages
/// (`bench/bm25_compare.sh`, the real corpus's mean index+query time per asset, medians
/// of twelve passes: 262 -> 237 us). An index now hands its storage to the next one
/// itself, and the wait is worth little there (medians of eleven: 221 us without it,
/// 218 with). A run keeps returning memory at once: its rules go a chunk of assets at a
/// time, and its resident set follows its heap.
#[cfg(target_os = "linux")]
fn allocator_options_for(command: &cli::args::Command) {
    use cli::args::Command;
    let delay_ms = match command {
        Command::Snapshot { .. } => 1000,
        Command::Sql { .. } | Command::Rules { .. } | Command::Distill { .. } => 100,
        _ => return,
    };
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // mimalloc reads the purge delay each time it schedules a purge
        unsafe { mi_option_set(PURGE_DELAY, delay_ms) };
    }
}

fn main() -> ExitCode {
    let args = cli::args::Cli::parse();
    #[cfg(target_os = "linux")]
    allocator_options_for(&args.command);
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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::eager_commit;

    fn eager(line: &str) -> bool {
        eager_commit(line.split_whitespace().map(str::as_bytes))
    }

    #[test]
    fn only_a_snapshot_and_distill_commit_their_arenas_whole() {
        assert!(eager("snapshot --portfolio p.toml --import dir"));
        assert!(eager("--lake l distill --query q"));
        assert!(eager("-- distill"));
        assert!(eager("--quiet --lake snapshot snapshot --import dir"));
        assert!(eager("-q --lake=/tmp/l snapshot --live"));
        assert!(eager("-- snapshot"));
        // a lake or a file named like the command is not the command
        assert!(!eager("--lake snapshot run --all"));
        assert!(!eager("run --all --lake snapshot"));
        assert!(!eager("sql snapshot"));
        assert!(!eager("demo"));
        assert!(!eager("--quiet"));
        assert!(!eager(""));
    }
}
