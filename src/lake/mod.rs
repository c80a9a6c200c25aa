//! The lake on object storage: content-addressed objects written put-if-absent and
//! verified on every read, snapshot manifests (whose name is their own hash), and table
//! files. Keys derive only from hashes and validated ids, never from raw user text.
//! This module alone talks to `ObjectStore`.

pub mod bundle;
pub mod manifest;
pub mod tables;

use std::sync::Arc;

use bytes::Bytes;
use object_store::path::Path as ObjPath;
use object_store::{ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload};
use url::Url;

use crate::domain::Hash256;

#[derive(Debug, thiserror::Error)]
pub enum LakeError {
    #[error("opening lake {url}: {message}")]
    Open { url: String, message: String },
    #[error("writing {key}")]
    Put {
        key: String,
        #[source]
        source: object_store::Error,
    },
    #[error("reading {key}")]
    Get {
        key: String,
        #[source]
        source: object_store::Error,
    },
    #[error("{key} not found in the lake")]
    NotFound { key: String },
    #[error(
        "{key} is corrupt: its sha256 is {actual}, expected {expected} (tampered or truncated)"
    )]
    Corrupt {
        key: String,
        expected: String,
        actual: String,
    },
    #[error("reading {0}: the reading thread failed")]
    Reader(String),
    #[error("listing {prefix}")]
    List {
        prefix: String,
        #[source]
        source: object_store::Error,
    },
}

/// Writes `bytes` at `path` unless a file is there: to a file of its own beside it
/// first, then linked in place, so no reader sees a partial object and, of two writers
/// of one object, one links it and the other finds it there (both success: an object's
/// name is its content's hash). Missing directories are made.
fn put_file_if_absent(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::{ErrorKind, Write};
    use std::sync::atomic::{AtomicU64, Ordering};
    static STAGED: AtomicU64 = AtomicU64::new(0);
    if std::fs::symlink_metadata(path).is_ok() {
        return Ok(());
    }
    let mut staged = path.as_os_str().to_owned();
    staged.push(format!(
        ".{}-{}.staged",
        std::process::id(),
        STAGED.fetch_add(1, Ordering::Relaxed)
    ));
    let staged = std::path::PathBuf::from(staged);
    let create = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&staged)
    };
    let mut file = match create() {
        Err(e) if e.kind() == ErrorKind::NotFound => {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            create()?
        }
        other => other?,
    };
    let linked = file
        .write_all(bytes)
        .and_then(|()| {
            drop(file);
            std::fs::hard_link(&staged, path)
        })
        .or_else(|e| match e.kind() {
            ErrorKind::AlreadyExists => Ok(()),
            _ => Err(e),
        });
    let removed = std::fs::remove_file(&staged);
    linked.and(removed)
}

/// A lake: a store plus the prefix under which the lake layout of the README lives.
#[derive(Clone, Debug)]
pub struct Lake {
    store: Arc<dyn ObjectStore>,
    root: ObjPath,
    /// The URL DataFusion uses to reach the store (scheme and authority only).
    store_url: Url,
    /// The lake's own URL as given, for messages.
    pub url: String,
    /// The lake's directory, when it is a local one.
    local_dir: Option<std::path::PathBuf>,
}

impl Lake {
    /// Opens a lake: a local directory (default `./lake`, created if missing), `file://`,
    /// `memory://`, `s3://bucket/prefix`, `gs://...` or `az://...`. Cloud credentials
    /// come from the usual environment variables of each provider.
    pub fn open(url: &str) -> Result<Lake, LakeError> {
        let open_err = |message: String| LakeError::Open {
            url: url.to_string(),
            message,
        };
        let parsed = Url::parse(url).ok().filter(|u| u.scheme().len() > 1);
        let Some(u) = parsed else {
            return Lake::open_local(std::path::Path::new(url), url);
        };
        if u.scheme() == "file" {
            let path = u
                .to_file_path()
                .map_err(|_| open_err("not a local path".into()))?;
            return Lake::open_local(&path, url);
        }
        if !matches!(
            u.scheme(),
            "memory" | "s3" | "s3a" | "gs" | "az" | "abfs" | "abfss" | "azure"
        ) {
            return Err(open_err(format!(
                "unsupported scheme {:?} (use a path, file://, memory://, s3://, gs:// or az://)",
                u.scheme()
            )));
        }
        let (store, root) = object_store::parse_url_opts(&u, crate::config::object_store_options())
            .map_err(|e| open_err(e.to_string()))?;
        let store: Arc<dyn ObjectStore> = Arc::from(store);
        let store_url = Url::parse(&format!(
            "{}://{}",
            u.scheme(),
            u.host_str().unwrap_or_default()
        ))
        .map_err(|e| open_err(e.to_string()))?;
        Ok(Lake {
            store,
            root,
            store_url,
            url: url.to_string(),
            local_dir: None,
        })
    }

    /// Opens a lake for reading: like [`Lake::open`], but a local directory must exist
    /// (a typo in `--lake` is an error, not a new empty lake).
    pub fn open_existing(url: &str) -> Result<Lake, LakeError> {
        let local = Url::parse(url)
            .ok()
            .filter(|u| u.scheme().len() > 1)
            .is_none();
        if local && !std::path::Path::new(url).is_dir() {
            return Err(LakeError::Open {
                url: url.to_string(),
                message: "no such directory (check --lake or DOSSIER_LAKE; `dossier snapshot` or `dossier demo` creates a lake)".into(),
            });
        }
        Lake::open(url)
    }

    fn open_local(path: &std::path::Path, url: &str) -> Result<Lake, LakeError> {
        let open_err = |message: String| LakeError::Open {
            url: url.to_string(),
            message,
        };
        std::fs::create_dir_all(path)
            .map_err(|e| open_err(format!("cannot create directory: {e}")))?;
        let abs = std::fs::canonicalize(path).map_err(|e| open_err(e.to_string()))?;
        if !abs.is_dir() {
            return Err(open_err("not a directory".into()));
        }
        let root = ObjPath::from_absolute_path(&abs).map_err(|e| open_err(e.to_string()))?;
        Ok(Lake {
            store: Arc::new(object_store::local::LocalFileSystem::new()),
            root,
            store_url: Url::parse("file:///").expect("static url"),
            url: url.to_string(),
            local_dir: Some(abs),
        })
    }

    /// The lake's directory (canonical), when it is a local one.
    pub fn local_dir(&self) -> Option<&std::path::Path> {
        self.local_dir.as_deref()
    }

    pub fn store(&self) -> Arc<dyn ObjectStore> {
        self.store.clone()
    }

    pub fn store_url(&self) -> &Url {
        &self.store_url
    }

    /// The full object path of a key relative to the lake root.
    pub fn path(&self, key: &str) -> ObjPath {
        let mut p = self.root.clone();
        for part in key.split('/').filter(|s| !s.is_empty()) {
            p = p.clone().join(part);
        }
        p
    }

    /// A URL DataFusion can list, for a key prefix (ends with `/`).
    pub fn table_url(&self, key: &str) -> String {
        format!(
            "{}{}/",
            self.store_url.as_str().trim_end_matches('/').to_string() + "/",
            self.path(key)
        )
    }

    pub fn object_key(hash: &Hash256) -> String {
        let h = hash.as_str();
        format!("objects/sha256/{}/{h}.parquet", &h[..2])
    }

    /// Writes an immutable object under its own hash. An existing object is success.
    pub async fn put_object(&self, bytes: Bytes) -> Result<Hash256, LakeError> {
        let hash = Hash256::of(&bytes);
        self.put_if_absent(&Lake::object_key(&hash), bytes).await?;
        Ok(hash)
    }

    /// Reads an object and checks it against its hash.
    pub async fn get_object(&self, hash: &Hash256) -> Result<Bytes, LakeError> {
        self.get_verified(&Lake::object_key(hash), hash).await
    }

    pub async fn get_verified(&self, key: &str, hash: &Hash256) -> Result<Bytes, LakeError> {
        let bytes = self.get(key).await?;
        let actual = Hash256::of(&bytes);
        if &actual != hash {
            return Err(LakeError::Corrupt {
                key: key.to_string(),
                expected: hash.to_string(),
                actual: actual.to_string(),
            });
        }
        Ok(bytes)
    }

    /// Put-if-absent: `AlreadyExists` means someone wrote the same key first, which for
    /// content-addressed keys is the same content.
    pub async fn put_if_absent(&self, key: &str, bytes: Bytes) -> Result<(), LakeError> {
        let opts = PutOptions {
            mode: PutMode::Create,
            ..PutOptions::default()
        };
        match self
            .store
            .put_opts(&self.path(key), PutPayload::from(bytes), opts)
            .await
        {
            Ok(_) | Err(object_store::Error::AlreadyExists { .. }) => Ok(()),
            Err(source) => Err(LakeError::Put {
                key: key.to_string(),
                source,
            }),
        }
    }

    /// [`put_if_absent`](Lake::put_if_absent) from a thread outside the runtime (a
    /// snapshot's encoders). A local lake's object is written here, on the calling
    /// thread: through the store, each of a snapshot's bundles went to the runtime and
    /// from there to a blocking thread, and was looked up again once written. Any other
    /// store goes through `runtime`.
    pub fn put_if_absent_blocking(
        &self,
        key: &str,
        bytes: Bytes,
        runtime: &tokio::runtime::Handle,
    ) -> Result<(), LakeError> {
        let Some(dir) = &self.local_dir else {
            return runtime.block_on(self.put_if_absent(key, bytes));
        };
        let path = key
            .split('/')
            .filter(|s| !s.is_empty())
            .fold(dir.clone(), |p, part| p.join(part));
        put_file_if_absent(&path, &bytes).map_err(|e| LakeError::Put {
            key: key.to_string(),
            source: object_store::Error::Generic {
                store: "LocalFileSystem",
                source: Box::new(e),
            },
        })
    }

    /// Overwrites a small mutable pointer (e.g. `snapshots/latest`); atomic per object.
    pub async fn put_overwrite(&self, key: &str, bytes: Bytes) -> Result<(), LakeError> {
        self.store
            .put(&self.path(key), PutPayload::from(bytes))
            .await
            .map(|_| ())
            .map_err(|source| LakeError::Put {
                key: key.to_string(),
                source,
            })
    }

    /// An object's get, before its bytes are read: NotFound when absent.
    async fn get_result(&self, key: &str) -> Result<object_store::GetResult, LakeError> {
        self.store.get(&self.path(key)).await.map_err(|e| match e {
            object_store::Error::NotFound { .. } => LakeError::NotFound {
                key: key.to_string(),
            },
            source => LakeError::Get {
                key: key.to_string(),
                source,
            },
        })
    }

    /// Reads an object whose sha256 must be `hash` through `read`, as it streams in: the
    /// bytes are hashed as `read` takes them (and any it leaves are read and hashed too),
    /// and `read`'s value is returned only when the hash matches. Memory holds a few chunks
    /// of the object, not the object (a large portfolio's manifest runs to gigabytes).
    pub async fn read_verified<T: Send + 'static>(
        &self,
        key: &str,
        hash: &Hash256,
        read: impl FnOnce(&mut dyn std::io::Read) -> T + Send + 'static,
    ) -> Result<T, LakeError> {
        use futures::StreamExt;
        use sha2::Digest;
        let res = self.get_result(key).await?;
        let (tx, rx) = std::sync::mpsc::sync_channel::<Bytes>(4);
        let reader = tokio::task::spawn_blocking(move || {
            let mut r = Hashing {
                rx,
                chunk: Bytes::new(),
                hasher: sha2::Sha256::new(),
            };
            let value = read(&mut r);
            std::io::copy(&mut r, &mut std::io::sink()).ok();
            (value, hex::encode(r.hasher.finalize()))
        });
        let mut stream = res.into_stream();
        let mut failed = None;
        while let Some(chunk) = stream.next().await {
            match chunk {
                // the reader may have stopped early only on a closed channel: then the
                // rest is not needed, and the hash below fails
                Ok(b) => {
                    if tx.send(b).is_err() {
                        break;
                    }
                }
                Err(source) => {
                    failed = Some(source);
                    break;
                }
            }
        }
        drop(tx);
        let (value, actual) = reader
            .await
            .map_err(|e| LakeError::Reader(format!("{key}: {e}")))?;
        if let Some(source) = failed {
            return Err(LakeError::Get {
                key: key.to_string(),
                source,
            });
        }
        if actual != hash.as_str() {
            return Err(LakeError::Corrupt {
                key: key.to_string(),
                expected: hash.to_string(),
                actual,
            });
        }
        Ok(value)
    }

    pub async fn get(&self, key: &str) -> Result<Bytes, LakeError> {
        self.get_result(key)
            .await?
            .bytes()
            .await
            .map_err(|source| LakeError::Get {
                key: key.to_string(),
                source,
            })
    }

    /// One listing level under a prefix: the names of the "directories" and of the objects
    /// directly there, each sorted (so a run's journal is not walked to find its manifests).
    pub async fn list_level(&self, prefix: &str) -> Result<(Vec<String>, Vec<String>), LakeError> {
        if let Some(root) = &self.local_dir {
            return list_dir(root.join(prefix.trim_matches('/')))
                .await
                .map_err(|source| LakeError::List {
                    prefix: prefix.to_string(),
                    source,
                });
        }
        self.store_level(prefix).await
    }

    /// [`Lake::list_level`] as the object store lists it.
    async fn store_level(&self, prefix: &str) -> Result<(Vec<String>, Vec<String>), LakeError> {
        let listed = self
            .store
            .list_with_delimiter(Some(&self.path(prefix)))
            .await
            .map_err(|source| LakeError::List {
                prefix: prefix.to_string(),
                source,
            })?;
        let names = |paths: Vec<&ObjPath>| {
            let mut v: Vec<String> = paths
                .into_iter()
                .filter_map(|p| p.filename().map(str::to_string))
                .collect();
            v.sort();
            v
        };
        Ok((
            names(listed.common_prefixes.iter().collect()),
            names(listed.objects.iter().map(|m| &m.location).collect()),
        ))
    }

    /// Keys (relative to the root) of every object under a prefix, sorted.
    pub async fn list(&self, prefix: &str) -> Result<Vec<String>, LakeError> {
        use futures::TryStreamExt;
        let base = self.path(prefix);
        let metas: Vec<_> = self
            .store
            .list(Some(&base))
            .try_collect()
            .await
            .map_err(|source| LakeError::List {
                prefix: prefix.to_string(),
                source,
            })?;
        let root = self.root.as_ref();
        let mut keys: Vec<String> = metas
            .into_iter()
            .map(|m| {
                let full = m.location.as_ref().to_string();
                full.strip_prefix(root)
                    .unwrap_or(&full)
                    .trim_start_matches('/')
                    .to_string()
            })
            .collect();
        keys.sort();
        Ok(keys)
    }

    /// The first key under `prefix` (in sorted order, one level at a time) whose name
    /// ends with `suffix`, reading only the directories on the way to it: a run table
    /// holds a directory per asset, and listing all of them to find one part read
    /// thousands of directories.
    pub async fn first_key(&self, prefix: &str, suffix: &str) -> Result<Option<String>, LakeError> {
        let mut stack = vec![prefix.trim_end_matches('/').to_string()];
        while let Some(dir) = stack.pop() {
            let (subdirs, names) = self.list_level(&format!("{dir}/")).await?;
            if let Some(name) = names.iter().find(|n| n.ends_with(suffix)) {
                return Ok(Some(format!("{dir}/{name}")));
            }
            // the first subdirectory is searched first
            stack.extend(subdirs.iter().rev().map(|s| format!("{dir}/{s}")));
        }
        Ok(None)
    }
}

/// One level of a local lake directory: its subdirectories and its files, each sorted,
/// as the object store lists them (links followed; a file the store is still writing,
/// `name#digits`, left out; names encoded as path parts). The store's own listing opens
/// every subdirectory it names, and a run table has one per asset.
async fn list_dir(
    dir: std::path::PathBuf,
) -> Result<(Vec<String>, Vec<String>), object_store::Error> {
    tokio::task::spawn_blocking(move || {
        let mut dirs = Vec::new();
        let mut files = Vec::new();
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((dirs, files)),
            Err(e) => return Err(local_error(&dir, e)),
        };
        for entry in entries {
            let entry = entry.map_err(|e| local_error(&dir, e))?;
            let path = entry.path();
            let Ok(meta) = std::fs::metadata(&path) else {
                continue; // a dangling link, or gone since the directory was read
            };
            // the name as the store spells it (its own path encoding)
            let Some(part) = ObjPath::from_absolute_path(&path)
                .ok()
                .and_then(|p| p.filename().map(str::to_string))
            else {
                continue;
            };
            if meta.is_dir() {
                dirs.push(part);
            } else if part
                .split_once('#')
                .is_none_or(|(_, n)| n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()))
            {
                files.push(part);
            }
        }
        dirs.sort();
        files.sort();
        Ok((dirs, files))
    })
    .await
    .map_err(|e| object_store::Error::Generic {
        store: "LocalFileSystem",
        source: Box::new(e),
    })?
}

fn local_error(dir: &std::path::Path, e: std::io::Error) -> object_store::Error {
    object_store::Error::Generic {
        store: "LocalFileSystem",
        source: format!("{}: {e}", dir.display()).into(),
    }
}

/// A reader over chunks sent from an async stream, hashing what it hands out.
struct Hashing {
    rx: std::sync::mpsc::Receiver<Bytes>,
    chunk: Bytes,
    hasher: sha2::Sha256,
}

impl std::io::Read for Hashing {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use sha2::Digest;
        while self.chunk.is_empty() {
            match self.rx.recv() {
                Ok(b) => self.chunk = b,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len());
        let head = self.chunk.split_to(n);
        self.hasher.update(&head);
        buf[..n].copy_from_slice(&head);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An object put from outside the runtime is written once, into directories made
    /// for it, read back verified through the store, and leaves no staged file: a
    /// second put of the key (the same content, by its name) keeps the first, and eight
    /// threads putting one object at once all succeed with one object written.
    #[tokio::test(flavor = "multi_thread")]
    async fn an_object_put_from_outside_the_runtime_is_written_once() {
        let dir = tempfile::tempdir().unwrap();
        let lake = Lake::open(dir.path().to_str().unwrap()).unwrap();
        let body = Bytes::from_static(b"bundle bytes");
        let hash = Hash256::of(&body);
        let key = Lake::object_key(&hash);
        let runtime = tokio::runtime::Handle::current();
        let (l, k, b, rt) = (lake.clone(), key.clone(), body.clone(), runtime.clone());
        let each = body.clone();
        tokio::task::spawn_blocking(move || {
            l.put_if_absent_blocking(&k, b, &rt).unwrap();
            l.put_if_absent_blocking(&k, Bytes::from_static(b"other"), &rt)
                .unwrap();
            std::thread::scope(|s| {
                for _ in 0..8 {
                    s.spawn(|| l.put_if_absent_blocking(&k, each.clone(), &rt).unwrap());
                }
            });
        })
        .await
        .unwrap();
        assert_eq!(lake.get_object(&hash).await.unwrap(), body);
        let files: Vec<_> = std::fs::read_dir(dir.path().join(&key).parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        // a key whose directory cannot be made is an error naming the key
        std::fs::write(dir.path().join("objects/blocked"), b"a file").unwrap();
        let (l, rt) = (lake.clone(), runtime.clone());
        let err = tokio::task::spawn_blocking(move || {
            l.put_if_absent_blocking("objects/blocked/x.parquet", Bytes::from_static(b"x"), &rt)
        })
        .await
        .unwrap()
        .unwrap_err();
        assert!(
            err.to_string().contains("objects/blocked/x.parquet"),
            "{err}"
        );
    }

    /// Writes a one-byte object under each key.
    async fn put_keys(lake: &Lake, keys: &[&str]) {
        for key in keys {
            lake.put_overwrite(key, Bytes::from_static(b"x"))
                .await
                .unwrap();
        }
    }

    /// A local lake lists a level from the directory itself, with what the object
    /// store's own listing gives: the same subdirectories (an empty one too) and files,
    /// a file still being written (`name#digits`) left out, a link followed.
    #[tokio::test]
    async fn a_local_level_lists_as_the_store_does() {
        let dir = tempfile::tempdir().unwrap();
        let lake = Lake::open(dir.path().to_str().unwrap()).unwrap();
        put_keys(
            &lake,
            &[
                "t/run_id=r/asset_id=b/part-0.parquet",
                "t/run_id=r/asset_id=a/part-0.parquet",
                "t/run_id=r/notes.txt",
                "t/run_id=r/odd#name.txt",
            ],
        )
        .await;
        let level = dir.path().join("t/run_id=r");
        std::fs::create_dir(level.join("asset_id=empty")).unwrap();
        std::fs::write(level.join("part-1.parquet#12"), b"half").unwrap();
        std::os::unix::fs::symlink(level.join("asset_id=a"), level.join("asset_id=link")).unwrap();
        for prefix in ["t/", "t/run_id=r/", "t/run_id=r/asset_id=a/", "missing/"] {
            assert_eq!(
                lake.list_level(prefix).await.unwrap(),
                lake.store_level(prefix).await.unwrap(),
                "{prefix}"
            );
        }
        let (dirs, files) = lake.list_level("t/run_id=r/").await.unwrap();
        assert_eq!(
            dirs,
            [
                "asset_id=a",
                "asset_id=b",
                "asset_id=empty",
                "asset_id=link"
            ]
        );
        assert_eq!(files, ["notes.txt", "odd%23name.txt"]);
    }

    /// The first key is found depth first in sorted order, past directories that hold
    /// no match and files that do not end with the suffix.
    #[tokio::test]
    async fn first_key_descends_in_sorted_order() {
        let lake = Lake::open("memory://").unwrap();
        put_keys(
            &lake,
            &[
                "t/run_id=b/asset_id=a/part-0.parquet",
                "t/run_id=a/notes.txt",
                "t/run_id=a/asset_id=z/part-0.parquet",
                "t/run_id=a/asset_id=y/readme.md",
                "t/run_id=a/asset_id=y/deeper/part-9.parquet",
            ],
        )
        .await;
        let first = lake.first_key("t/", ".parquet").await.unwrap();
        assert_eq!(
            first.as_deref(),
            Some("t/run_id=a/asset_id=y/deeper/part-9.parquet")
        );
        assert_eq!(
            lake.first_key("t/run_id=b", ".parquet")
                .await
                .unwrap()
                .as_deref(),
            Some("t/run_id=b/asset_id=a/part-0.parquet")
        );
        assert_eq!(lake.first_key("t/", ".json").await.unwrap(), None);
        assert_eq!(lake.first_key("nothing/", ".parquet").await.unwrap(), None);
    }

    /// A streamed read returns its reader's value only for the right bytes: hashed whole
    /// even when the reader stops early, refused when the object was altered, NotFound
    /// when absent.
    #[tokio::test]
    async fn a_streamed_read_is_verified_whole() {
        let lake = Lake::open("memory://").unwrap();
        let body: Vec<u8> = (0..300_000u32).flat_map(|i| i.to_le_bytes()).collect();
        let h = lake.put_object(Bytes::from(body.clone())).await.unwrap();
        let key = Lake::object_key(&h);
        let all = lake
            .read_verified(&key, &h, |r| {
                let mut v = Vec::new();
                r.read_to_end(&mut v).map(|_| v)
            })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(all, body);
        let first = lake
            .read_verified(&key, &h, |r| {
                let mut b = [0u8; 4];
                r.read_exact(&mut b).map(|_| b)
            })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(first, [0, 0, 0, 0]);
        let mut altered = body.clone();
        altered[1_000_000] ^= 1;
        lake.put_overwrite(&key, Bytes::from(altered))
            .await
            .unwrap();
        let err = lake
            .read_verified(&key, &h, |r| r.read(&mut [0u8; 4]).is_ok())
            .await
            .unwrap_err();
        assert!(matches!(err, LakeError::Corrupt { .. }), "{err}");
        let missing = Hash256::of(b"nothing");
        let err = lake
            .read_verified(&Lake::object_key(&missing), &missing, |_| ())
            .await
            .unwrap_err();
        assert!(matches!(err, LakeError::NotFound { .. }), "{err}");
    }

    async fn conformance(lake: Lake) {
        let h = lake.put_object(Bytes::from_static(b"hello")).await.unwrap();
        // Idempotent: the same object again is success.
        assert_eq!(
            lake.put_object(Bytes::from_static(b"hello")).await.unwrap(),
            h
        );
        assert_eq!(lake.get_object(&h).await.unwrap().as_ref(), b"hello");
        // Tamper: overwrite the object with other bytes; the read must refuse them.
        lake.put_overwrite(&Lake::object_key(&h), Bytes::from_static(b"hellO"))
            .await
            .unwrap();
        let err = lake.get_object(&h).await.unwrap_err();
        assert!(matches!(err, LakeError::Corrupt { .. }), "{err}");
        assert!(err.to_string().contains(h.as_str()));
        let missing = Hash256::of(b"nothing");
        assert!(matches!(
            lake.get_object(&missing).await,
            Err(LakeError::NotFound { .. })
        ));
        assert_eq!(
            lake.list("objects/").await.unwrap(),
            vec![Lake::object_key(&h)]
        );
        // Put-if-absent keeps the first writer's bytes.
        lake.put_if_absent("runs/r/journal/x.json", Bytes::from_static(b"first"))
            .await
            .unwrap();
        lake.put_if_absent("runs/r/journal/x.json", Bytes::from_static(b"second"))
            .await
            .unwrap();
        assert_eq!(
            lake.get("runs/r/journal/x.json").await.unwrap().as_ref(),
            b"first"
        );
    }

    /// The S3 store, for real, when CI names an S3-compatible endpoint (`.ci/run` starts
    /// moto's server on loopback and sets DOSSIER_TEST_S3_URL with the AWS_* variables).
    #[tokio::test]
    async fn s3_store_conforms() {
        let Ok(base) = std::env::var("DOSSIER_TEST_S3_URL") else {
            eprintln!("DOSSIER_TEST_S3_URL not set: the S3 conformance run is left to .ci/run");
            return;
        };
        let prefix = format!("{base}/conformance-{}", std::process::id());
        conformance(Lake::open(&prefix).unwrap()).await;
    }

    #[tokio::test]
    async fn memory_store_conforms() {
        conformance(Lake::open("memory://").unwrap()).await;
    }

    #[tokio::test]
    async fn local_store_conforms() {
        let dir = tempfile::tempdir().unwrap();
        conformance(Lake::open(dir.path().join("lake").to_str().unwrap()).unwrap()).await;
    }

    #[test]
    fn reading_a_missing_local_lake_does_not_create_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("typo");
        assert!(Lake::open_existing(missing.to_str().unwrap()).is_err());
        assert!(!missing.exists());
    }

    #[test]
    fn unopenable_lakes_are_errors() {
        assert!(Lake::open("ftp://example.org/x").is_err());
        let f = tempfile::NamedTempFile::new().unwrap();
        assert!(Lake::open(f.path().to_str().unwrap()).is_err());
    }
}
