//! The `dossier` command line: arguments → a validated plan → one function per command
//! → an exit code (0 ok, 1 the data said no, 2 an error).

mod cli;

use std::process::ExitCode;

use clap::Parser;

#[global_allocator]
static GLOBAL: Split = Split;

/// The global allocator: blocks under [`Split::LARGE`] bytes from mimalloc, larger ones
/// from the system's. Arrow arrays, Parquet pages and parsed records are many short-lived
/// small buffers freed on other threads than the ones that made them, which mimalloc's
/// per-thread pages serve with less locking than glibc (a portfolio query spent ~18% of
/// its CPU in glibc's malloc and free); the rules' hash tables and row buffers grow by
/// reallocating blocks of many megabytes, which glibc moves by remapping pages where
/// mimalloc copies them, and returns to the system when freed.
/// A block's owner follows from its size alone, which every call is given.
struct Split;

impl Split {
    const LARGE: usize = 1 << 20;
}

// SAFETY: every block is allocated, reallocated and freed by the allocator its size
// selects, and a reallocation that crosses the line moves the bytes between the two.
unsafe impl std::alloc::GlobalAlloc for Split {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.size() >= Self::LARGE {
            unsafe { std::alloc::System.alloc(layout) }
        } else {
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.size() >= Self::LARGE {
            unsafe { std::alloc::System.alloc_zeroed(layout) }
        } else {
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        if layout.size() >= Self::LARGE {
            unsafe { std::alloc::System.dealloc(ptr, layout) }
        } else {
            unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        match (layout.size() >= Self::LARGE, new_size >= Self::LARGE) {
            (true, true) => unsafe { std::alloc::System.realloc(ptr, layout, new_size) },
            (false, false) => unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) },
            _ => {
                // SAFETY: the caller guarantees `new_size` with `layout`'s alignment is a
                // valid layout
                let new = unsafe {
                    std::alloc::Layout::from_size_align_unchecked(new_size, layout.align())
                };
                let to = unsafe { self.alloc(new) };
                if !to.is_null() {
                    unsafe {
                        std::ptr::copy_nonoverlapping(ptr, to, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                }
                to
            }
        }
    }
}

/// The stack of every thread that plans or runs SQL. A deep statement (a sum of 10,000
/// terms, thousands of UNION ALLs) recurses through the planner and optimizer once per
/// level; the stack is address space, touched only as deep as a statement goes.
const STACK_BYTES: usize = 512 << 20;

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

#[cfg(test)]
mod tests {
    use std::alloc::{GlobalAlloc, Layout};

    use super::Split;

    /// Fills `n` bytes at `p` with a pattern and checks the first `m` of them.
    unsafe fn pattern(p: *mut u8, n: usize, check: usize) {
        for i in 0..check {
            assert_eq!(unsafe { *p.add(i) }, (i % 251) as u8, "byte {i}");
        }
        for i in 0..n {
            unsafe { *p.add(i) = (i % 251) as u8 };
        }
    }

    #[test]
    fn a_block_keeps_its_bytes_across_the_line_between_the_allocators() {
        let a = Split;
        for (from, to) in [
            (1000, Split::LARGE + 1000),
            (Split::LARGE + 1000, 1000),
            (64, 4096),
            (Split::LARGE, 3 * Split::LARGE),
        ] {
            let layout = Layout::from_size_align(from, 16).unwrap();
            unsafe {
                let p = a.alloc(layout);
                assert!(!p.is_null());
                pattern(p, from, 0);
                let q = a.realloc(p, layout, to);
                assert!(!q.is_null());
                assert_eq!(q as usize % 16, 0, "alignment kept");
                pattern(q, to, from.min(to));
                a.dealloc(q, Layout::from_size_align(to, 16).unwrap());
            }
        }
        let big = Layout::from_size_align(Split::LARGE * 2, 64).unwrap();
        unsafe {
            let z = a.alloc_zeroed(big);
            assert!((0..big.size()).step_by(4099).all(|i| *z.add(i) == 0));
            a.dealloc(z, big);
        }
    }
}
