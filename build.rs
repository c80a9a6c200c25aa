//! The demo's fixtures and the rules' SQL are built into the binary; a change to them
//! rebuilds it.
fn main() {
    println!("cargo:rerun-if-changed=fixtures");
    println!("cargo:rerun-if-changed=sql");
    println!("cargo:rerun-if-changed=jobs/family_rank.csv");
}
