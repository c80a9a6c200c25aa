//! Test and benchmark support for dossier, kept out of the library: a loopback stand-in
//! for the public APIs that replays recorded records and injects faults (`replay`), and a
//! deterministic synthetic corpus of N fictional assets (`synthetic`). Never shipped.

pub mod replay;
pub mod synthetic;
