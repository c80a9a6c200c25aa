//! The bad-input suite: seeded mutations of the fixtures (import files, sidecars, the
//! portfolio), of claims files and of SQL. Whatever the mutation, every command ends
//! with exit 0 or 2 (1 is `verify`'s "rejected"), an error is one line, nothing hangs
//! past its deadline, a failed snapshot writes no manifest, and a lake that a snapshot
//! wrote reads back hash-verified.
//!
//! `DOSSIER_BAD_INPUT_CASES` (default 400) and `DOSSIER_BAD_INPUT_SEED` change the
//! campaign; a failure names the seed and the case so it can be replayed alone.

use std::path::Path;
use std::time::Duration;

mod common;
use common::*;

/// Bytes that break parsers: structure, quotes, escapes, invalid UTF-8, NUL, markup.
const JUNK: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"\"",
    b"\\",
    b"\\u00",
    b"\xff\xfe",
    b"\0",
    b"<",
    b"</x>",
    b"<![CDATA[",
    b"&#xFFFFFFFF;",
    b"\r\n",
    b"1e999999",
    b"-0.0e-",
    b"NCT0",
    b"=",
    b"[[asset]]",
    b"\xe2\x80\xae",
];

/// One mutation of a byte string, chosen by the generator.
fn mutate(rng: &mut fastrand::Rng, bytes: &mut Vec<u8>) -> &'static str {
    let at = |rng: &mut fastrand::Rng, len: usize| rng.usize(0..=len);
    match rng.u8(0..7) {
        0 => {
            let n = at(rng, bytes.len());
            bytes.truncate(n);
            "truncate"
        }
        1 => {
            for _ in 0..rng.usize(1..8) {
                if !bytes.is_empty() {
                    let i = rng.usize(0..bytes.len());
                    bytes[i] ^= 1 << rng.u8(0..8);
                }
            }
            "flip bits"
        }
        2 => {
            let junk = JUNK[rng.usize(0..JUNK.len())];
            let i = at(rng, bytes.len());
            bytes.splice(i..i, junk.iter().copied());
            "insert junk"
        }
        3 => {
            if !bytes.is_empty() {
                let a = rng.usize(0..bytes.len());
                let b = rng.usize(a..=bytes.len().min(a + 4096));
                let slice = bytes[a..b].to_vec();
                let i = at(rng, bytes.len());
                bytes.splice(i..i, slice);
            }
            "duplicate a slice"
        }
        4 => {
            let (open, close): (&[u8], &[u8]) = match rng.u8(0..3) {
                0 => (b"[", b"]"),
                1 => (b"<div>", b""),
                _ => (b"{\"a\":", b"}"),
            };
            let depth = rng.usize(1000..20_000);
            let mut deep = open.repeat(depth);
            if rng.bool() {
                deep.extend(close.repeat(depth));
            }
            let i = at(rng, bytes.len());
            bytes.splice(i..i, deep);
            "deep nesting"
        }
        5 => {
            bytes.clear();
            "empty"
        }
        _ => {
            let i = at(rng, bytes.len());
            let n = rng.usize(1..64);
            bytes.splice(i..i, std::iter::repeat_with(|| rng.u8(..)).take(n));
            "random bytes"
        }
    }
}

struct Tally {
    cases: usize,
    exit0: usize,
    exit1: usize,
    exit2: usize,
}

/// Runs one command under a deadline and checks the contract; returns its exit code and
/// what it printed.
fn check(
    what: &str,
    cmd: &mut assert_cmd::Command,
    deadline: u64,
    allowed: &[i32],
) -> (i32, std::process::Output) {
    let out = cmd.timeout(Duration::from_secs(deadline)).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code().unwrap_or_else(|| {
        panic!(
            "{what}: killed or hung past {deadline} s ({:?}): {err}",
            out.status
        )
    });
    assert!(allowed.contains(&code), "{what}: exit {code}: {err}");
    if code == 2 {
        let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(lines.len(), 1, "{what}: not one line: {err}");
        assert!(lines[0].starts_with("error: "), "{what}: {err}");
    }
    (code, out)
}

fn count(t: &mut Tally, code: i32) {
    t.cases += 1;
    match code {
        0 => t.exit0 += 1,
        1 => t.exit1 += 1,
        _ => t.exit2 += 1,
    }
}

#[test]
fn mutated_inputs_end_in_exit_0_or_2_with_one_line_and_a_lake_that_verifies() {
    let cases: usize = std::env::var("DOSSIER_BAD_INPUT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let seed: u64 = std::env::var("DOSSIER_BAD_INPUT_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20261201);
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut snap = Tally {
        cases: 0,
        exit0: 0,
        exit1: 0,
        exit2: 0,
    };
    let mut verify = Tally {
        cases: 0,
        exit0: 0,
        exit1: 0,
        exit2: 0,
    };
    let mut sql = Tally {
        cases: 0,
        exit0: 0,
        exit1: 0,
        exit2: 0,
    };

    // one good lake, for the claims and SQL mutations
    let good = tempfile::tempdir().unwrap();
    let (good_id, _) = snapshot(
        good.path(),
        &fixtures.join("portfolio.toml"),
        &fixtures.join("import"),
    );
    // accepted facts of a run over it, as a claims file anyone could have written
    let ran = dossier()
        .args([
            "--lake",
            good.path().to_str().unwrap(),
            "run",
            "--run-id",
            "good",
        ])
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let rows = sql_json(
        good.path(),
        "SELECT claim_id AS id, asset_id AS asset, field, value, label, source, quote, locator, \
         unit, endpoint, population, arm FROM claims WHERE accepted AND label = 'fact' \
         ORDER BY claim_id LIMIT 40",
    );
    assert!(rows.len() >= 10, "{rows:?}");
    let mut claims = Vec::new();
    for r in &rows {
        claims.extend(serde_json::to_vec(r).unwrap());
        claims.push(b'\n');
    }

    // `dossier verify` of a claims file against the good lake
    let verify_cmd = |file: &Path| {
        let mut c = dossier();
        c.args([
            "--lake",
            good.path().to_str().unwrap(),
            "verify",
            "--snapshot",
            &good_id,
            "--claims",
        ])
        .arg(file);
        c
    };
    let unmutated = good.path().join("claims.jsonl");
    std::fs::write(&unmutated, &claims).unwrap();
    let (code, _) = check("unmutated claims", &mut verify_cmd(&unmutated), 60, &[0]);
    assert_eq!(code, 0);

    for case in 0..cases {
        let mut rng =
            fastrand::Rng::with_seed(seed ^ (case as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let tag = format!("seed {seed} case {case}");
        match case % 4 {
            // an import file, a sidecar or the portfolio
            0 | 1 => {
                let work = tempfile::tempdir().unwrap();
                copy_dir(&fixtures, work.path());
                let mut targets = files_under(&work.path().join("import"));
                targets.push(work.path().join("portfolio.toml"));
                let target = targets[rng.usize(0..targets.len())].clone();
                let mut bytes = std::fs::read(&target).unwrap();
                let how = mutate(&mut rng, &mut bytes);
                std::fs::write(&target, &bytes).unwrap();
                let what = format!(
                    "{tag}: snapshot after {how} of {}",
                    target.strip_prefix(work.path()).unwrap().display()
                );
                let lake = work.path().join("lake");
                let (code, _) = check(
                    &what,
                    dossier()
                        .args(["--lake", lake.to_str().unwrap(), "snapshot", "--portfolio"])
                        .arg(work.path().join("portfolio.toml"))
                        .arg("--import")
                        .arg(work.path().join("import")),
                    120,
                    &[0, 2],
                );
                count(&mut snap, code);
                if code == 2 {
                    assert!(
                        !lake.join("snapshots").exists()
                            || std::fs::read_dir(lake.join("snapshots"))
                                .unwrap()
                                .next()
                                .is_none(),
                        "{what}: a failed snapshot left a manifest"
                    );
                } else {
                    // every object the manifest names is there and hashes right
                    let out = sql_json(&lake, "SELECT COUNT(*) AS n FROM sources");
                    assert!(out[0]["n"].as_u64().is_some(), "{what}: {out:?}");
                }
            }
            // a claims file
            2 => {
                let mut bytes = claims.clone();
                let how = mutate(&mut rng, &mut bytes);
                let work = tempfile::tempdir().unwrap();
                let file = work.path().join("claims.jsonl");
                std::fs::write(&file, &bytes).unwrap();
                let what = format!("{tag}: verify after {how} of claims.jsonl");
                let (code, out) = check(&what, &mut verify_cmd(&file), 60, &[0, 1, 2]);
                count(&mut verify, code);
                if code != 2 {
                    // one verdict per line that is not blank
                    let lines = bytes
                        .split(|&b| b == b'\n')
                        .filter(|l| !String::from_utf8_lossy(l).trim().is_empty())
                        .count();
                    assert_eq!(
                        String::from_utf8_lossy(&out.stdout).lines().count(),
                        lines,
                        "{what}"
                    );
                }
            }
            // a statement
            _ => {
                let base = [
                    "SELECT asset_id, family, status FROM asset_families ORDER BY 1, 2",
                    "SELECT COUNT(*) FROM catalog WHERE family = 'ctgov'",
                    "SELECT * FROM text_fields WHERE text LIKE '%mg%' LIMIT 3",
                ];
                let mut bytes = base[rng.usize(0..base.len())].as_bytes().to_vec();
                let how = mutate(&mut rng, &mut bytes);
                let what = format!("{tag}: sql after {how}");
                // on stdin, so NUL and invalid UTF-8 reach dossier (no argument can hold them)
                let (code, _) = check(
                    &what,
                    dossier()
                        .args([
                            "--lake",
                            good.path().to_str().unwrap(),
                            "sql",
                            "--format",
                            "csv",
                        ])
                        .write_stdin(bytes),
                    60,
                    &[0, 2],
                );
                count(&mut sql, code);
            }
        }
    }
    // the good lake still verifies after every statement
    let out = sql_json(good.path(), "SELECT COUNT(*) AS n FROM sources");
    assert!(out[0]["n"].as_u64().unwrap() > 0);
    assert!(snap.cases > 0 && sql.cases > 0);
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "bad input, seed {seed}: {} cases; snapshot {} (exit 0: {}, exit 2: {}); verify {} (0: {}, 1: {}, 2: {}); sql {} (0: {}, 2: {})",
        snap.cases + verify.cases + sql.cases,
        snap.cases,
        snap.exit0,
        snap.exit2,
        verify.cases,
        verify.exit0,
        verify.exit1,
        verify.exit2,
        sql.cases,
        sql.exit0,
        sql.exit2,
    );
}
