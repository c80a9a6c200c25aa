//! Helpers shared by the integration tests: the binary, snapshots of the real corpus
//! and the fixtures, SQL over a lake.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// The real recorded corpus: `$DOSSIER_REAL_SOURCES`, else `../shared/real-sources` beside
/// the checkout. When it is absent the calling test says on one line that it skipped and
/// why, and returns; with `DOSSIER_REQUIRE_REAL=1` (as `.ci/run` sets) absence fails.
pub fn real_sources() -> Option<PathBuf> {
    let path = match std::env::var_os("DOSSIER_REAL_SOURCES") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real-sources"),
    };
    if path.join("portfolio.toml").is_file() {
        return Some(path);
    }
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let why = format!(
        "the real corpus is not at {} (set DOSSIER_REAL_SOURCES to its folder)",
        path.display()
    );
    assert!(
        std::env::var_os("DOSSIER_REQUIRE_REAL").is_none_or(|v| v != "1"),
        "{test}: {why}"
    );
    // written to the stream itself, which the test harness does not capture, so a
    // fresh clone's `cargo test` shows what it skipped
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "skipped {test}: {why}");
    None
}

pub fn dossier() -> Command {
    let mut c = Command::cargo_bin("dossier").unwrap();
    c.env_remove("DOSSIER_LAKE").env_remove("DOSSIER_LOG");
    c
}

/// `dossier --lake LAKE ARGS...`, which must succeed; its stdout.
/// A text column of a JSON row, "" when absent or not text.
pub fn s<'a>(row: &'a Value, k: &str) -> &'a str {
    row[k].as_str().unwrap_or("")
}

pub fn succeeds(lake: &Path, args: &[&str]) -> String {
    let out = dossier()
        .args(["--lake", lake.to_str().unwrap()])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "dossier {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

pub fn real_import(real: &Path) -> PathBuf {
    real.join("import")
}

/// Runs a snapshot; returns (snapshot id, stderr).
pub fn snapshot(lake: &Path, portfolio: &Path, import: &Path) -> (String, String) {
    let out = dossier()
        .args(["--lake", lake.to_str().unwrap(), "snapshot", "--portfolio"])
        .arg(portfolio)
        .arg("--import")
        .arg(import)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "snapshot failed: {stderr}");
    let id = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert_eq!(id.len(), 64, "stdout is the snapshot id: {id:?}");
    (id, stderr)
}

/// A fresh lake holding a snapshot of the real corpus.
pub fn real_snapshot(real: &Path) -> tempfile::TempDir {
    let lake = tempfile::tempdir().unwrap();
    snapshot(
        lake.path(),
        &real.join("portfolio.toml"),
        &real_import(real),
    );
    lake
}

/// A fresh lake holding a snapshot of the demo fixtures.
pub fn fixture_snapshot() -> tempfile::TempDir {
    let lake = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    snapshot(
        lake.path(),
        &fixtures.join("portfolio.toml"),
        &fixtures.join("import"),
    );
    lake
}

/// `dossier --lake LAKE sql ARGS...`.
pub fn sql(lake: &Path, args: &[&str]) -> std::process::Output {
    dossier()
        .args(["--lake", lake.to_str().unwrap(), "sql"])
        .args(args)
        .output()
        .unwrap()
}

pub fn manifest(lake: &Path, id: &str) -> Value {
    let bytes = std::fs::read(lake.join("snapshots").join(format!("{id}.json"))).unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

/// What the snapshot noticed beside its manifest: unplaced files and unread entries.
pub fn diagnostics(lake: &Path, id: &str) -> Value {
    let path = lake
        .join("snapshots")
        .join(format!("{id}.diagnostics.json"));
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

pub fn sql_json(lake: &Path, query: &str) -> Vec<Value> {
    let out = sql(lake, &[query, "--format", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json_lines(&out.stdout)
}

/// Parses JSON Lines output, skipping blank lines.
pub fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

pub fn bundle_files(lake: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let objects = lake.join("objects/sha256");
    for d in std::fs::read_dir(&objects).unwrap() {
        for f in std::fs::read_dir(d.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            out.push((
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            ));
        }
    }
    out.sort();
    out
}

/// The command `dossier --lake LAKE verify --snapshot latest --claims FILE`, for more
/// flags or environment.
pub fn verify_cmd(lake: &Path, claims: &Path) -> Command {
    let mut cmd = dossier();
    cmd.args([
        "--lake",
        lake.to_str().unwrap(),
        "verify",
        "--snapshot",
        "latest",
        "--claims",
    ])
    .arg(claims);
    cmd
}

/// `dossier --lake LAKE verify --snapshot latest --claims FILE`.
pub fn verify(lake: &Path, claims: &Path) -> std::process::Output {
    verify_cmd(lake, claims).output().unwrap()
}

/// Every file below a folder (links are not followed), sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

/// A loopback OpenAI-compatible endpoint: answers each POST with the next scripted
/// (status, body) and keeps the request bodies.
pub struct FakeLlm {
    pub addr: String,
    pub requests: Arc<Mutex<Vec<String>>>,
}

pub fn fake_llm(script: Vec<(u16, String)>) -> FakeLlm {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = format!("http://{}/v1", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = requests.clone();
    std::thread::spawn(move || {
        let mut n = 0;
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut buf = Vec::new();
            let mut chunk = [0u8; 65536];
            let body = loop {
                let k = stream.read(&mut chunk).unwrap_or(0);
                if k == 0 {
                    break None;
                }
                buf.extend_from_slice(&chunk[..k]);
                if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&buf[..end]).to_lowercase();
                    let len: usize = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse().ok())
                        .unwrap_or(0);
                    while buf.len() < end + 4 + len {
                        let k = stream.read(&mut chunk).unwrap_or(0);
                        if k == 0 {
                            break;
                        }
                        buf.extend_from_slice(&chunk[..k]);
                    }
                    break Some(String::from_utf8_lossy(&buf[end + 4..]).into_owned());
                }
            };
            let Some(body) = body else { continue };
            seen.lock().unwrap().push(body);
            let (status, text) = &script[n.min(script.len() - 1)];
            n += 1;
            let resp = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
                text.len()
            );
            let _ = stream.write_all(resp.as_bytes());
        }
    });
    FakeLlm { addr, requests }
}

/// A chat-completions response whose message content is `content` as JSON text.
pub fn chat(content: &Value) -> String {
    json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content.to_string()}}]})
        .to_string()
}
