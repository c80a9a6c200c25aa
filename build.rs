//! The demo's fixtures and the rules' SQL are built into the binary; a change to them
//! rebuilds it.
fn main() {
    println!("cargo:rerun-if-changed=fixtures");
    println!("cargo:rerun-if-changed=sql");
    println!("cargo:rerun-if-changed=jobs/family_rank.csv");
    // The binaries are linked at a fixed address. As a position-independent executable,
    // the loader patched about 270,000 addresses in 4.7 MB of tables at every start,
    // copying each page it touched: 6 ms and 1,500 page faults before `main`, a tenth of
    // a whole snapshot of the real corpus. Linked at a fixed address, `dossier
    // --version` takes 1.6 ms and 256 faults.
    println!("cargo:rustc-link-arg-bins=-no-pie");
}
