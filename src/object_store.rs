//! The lab's content-addressed store: files named by their sha256 under
//! one root, put in atomically, found by a hash prefix, listed and
//! verified. The root is `--store DIR` where a command takes it, else
//! `LEISERCHESS_STORE`, else `$XDG_DATA_HOME/leiserchess/store`
//! (`~/.local/share/…` without it). Layout: `objects/SHA256` the files,
//! `meta/SHA256.json` their lineage records (written by `lab::store`),
//! `tmp/` the files being put.
//!
//! A leaf, below every layer, so that `EvalFile=store:PREFIX` resolves
//! where every net is loaded (`config::EngineConfig::net`). Several
//! machines may share the root (the nodes of a Slurm cluster over a
//! network file system): a file is written under a name of its own in
//! `tmp/`, synced, then renamed to its hash, so a reader sees a whole
//! object or none, and two writers of the same bytes make one object.

use sha2::{Digest, Sha256};
use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that names the store's root.
pub const ENV: &str = "LEISERCHESS_STORE";

/// How `EvalFile` (and `datagen --net`) names a net of the store by its
/// hash prefix: `store:ba3fde78`.
pub const NET_PREFIX: &str = "store:";

/// The fewest hex digits a prefix has.
pub const MIN_PREFIX: usize = 8;

/// What went wrong in the store; each names the path, prefix or root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// An object that a record names is not there.
    Missing { path: PathBuf },
    /// An object whose bytes no longer hash to its name.
    Changed { path: PathBuf, sha256: String },
    /// A prefix that several objects start with.
    Ambiguous {
        prefix: String,
        root: PathBuf,
        candidates: Vec<String>,
    },
    /// A prefix that no object starts with.
    NotFound { prefix: String, root: PathBuf },
    /// A prefix that is not 8 to 64 lower-case hex digits.
    BadPrefix { prefix: String },
    /// The root, or a file in it, that cannot be made or written.
    Unwritable { path: PathBuf, error: String },
    /// A record that cannot be read or parsed.
    BadMetadata { path: PathBuf, error: String },
    /// A file that cannot be read (one to put, an object, a directory).
    Unreadable { path: PathBuf, error: String },
    /// No flag, no `LEISERCHESS_STORE`, and neither XDG_DATA_HOME nor HOME.
    NoRoot,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            StoreError::Missing { path } => write!(f, "missing object {}", path.display()),
            StoreError::Changed { path, sha256 } => write!(
                f,
                "changed object {}: its bytes now hash to {sha256}",
                path.display()
            ),
            StoreError::Ambiguous {
                prefix,
                root,
                candidates,
            } => write!(
                f,
                "sha256 prefix '{prefix}' is ambiguous in the store {}: {}",
                root.display(),
                candidates.join(", ")
            ),
            StoreError::NotFound { prefix, root } => write!(
                f,
                "no object with sha256 prefix '{prefix}' in the store {}",
                root.display()
            ),
            StoreError::BadPrefix { prefix } => write!(
                f,
                "'{prefix}' is not a sha256 prefix ({MIN_PREFIX} to 64 hex digits)"
            ),
            StoreError::Unwritable { path, error } => {
                write!(f, "cannot write the store at {}: {error}", path.display())
            }
            StoreError::BadMetadata { path, error } => {
                write!(f, "bad store record {}: {error}", path.display())
            }
            StoreError::Unreadable { path, error } => {
                write!(f, "cannot read {}: {error}", path.display())
            }
            StoreError::NoRoot => write!(
                f,
                "no store: give --store DIR or set {ENV} (neither XDG_DATA_HOME nor HOME is set)"
            ),
        }
    }
}

impl std::error::Error for StoreError {}

/// The message, where errors are `String`s (the commands' habit).
impl From<StoreError> for String {
    fn from(e: StoreError) -> String {
        e.to_string()
    }
}

/// An object in the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    pub sha256: String,
    pub bytes: u64,
    /// `ROOT/objects/SHA256`.
    pub path: PathBuf,
}

/// The store at one root. Nothing is made until something is put.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    root: PathBuf,
}

/// The sha256 of `bytes`, in lower-case hex.
pub fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `text` is a prefix the store looks up: 8 to 64 lower-case hex
/// digits.
pub fn is_prefix(text: &str) -> bool {
    (MIN_PREFIX..=64).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl Store {
    /// The store rooted at `root`.
    pub fn at(root: impl Into<PathBuf>) -> Store {
        Store { root: root.into() }
    }

    /// The store `flag` (`--store DIR`) names, else `LEISERCHESS_STORE`'s,
    /// else the per-user default.
    pub fn choose(flag: Option<&Path>) -> Result<Store, StoreError> {
        if let Some(dir) = flag {
            return Ok(Store::at(dir));
        }
        if let Some(dir) = std::env::var_os(ENV).filter(|v| !v.is_empty()) {
            return Ok(Store::at(dir));
        }
        let data = lab_home().ok_or(StoreError::NoRoot)?;
        Ok(Store::at(data.join("store")))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the object of `sha256` is (whether there or not).
    pub fn object_path(&self, sha256: &str) -> PathBuf {
        self.root.join("objects").join(sha256)
    }

    /// Where the record of `sha256` is (whether there or not).
    pub fn record_path(&self, sha256: &str) -> PathBuf {
        self.root.join("meta").join(format!("{sha256}.json"))
    }

    /// `name` in the store's `tmp/`, made if missing: unique to this
    /// process and call, so that writers on other machines never share it.
    pub fn temporary(&self) -> Result<PathBuf, StoreError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = self.root.join("tmp");
        std::fs::create_dir_all(&dir).map_err(|e| unwritable(&dir, e))?;
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        Ok(dir.join(format!(
            "{}-{}-{nanos}-{}.part",
            host.trim(),
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        )))
    }

    /// Copies `file` into the store, hashing it on the way; the same bytes
    /// twice are one object.
    pub fn put(&self, file: &Path) -> Result<Object, StoreError> {
        let source = std::fs::File::open(file).map_err(|e| unreadable(file, e))?;
        self.put_from(source, file)
    }

    /// `bytes` into the store (the embedded net).
    pub fn put_bytes(&self, bytes: &[u8]) -> Result<Object, StoreError> {
        self.put_from(bytes, Path::new("(bytes)"))
    }

    /// What `reader` (read from `name`) holds, into the store.
    fn put_from(&self, mut reader: impl Read, name: &Path) -> Result<Object, StoreError> {
        let objects = self.root.join("objects");
        std::fs::create_dir_all(&objects).map_err(|e| unwritable(&objects, e))?;
        let temp = self.temporary()?;
        let copied = (|| {
            let mut out = std::fs::File::create(&temp).map_err(|e| unwritable(&temp, e))?;
            let mut hasher = Sha256::new();
            let mut buffer = vec![0u8; 1 << 16];
            let mut bytes = 0u64;
            loop {
                let n = match reader.read(&mut buffer) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(unreadable(name, e)),
                };
                hasher.update(&buffer[..n]);
                out.write_all(&buffer[..n])
                    .map_err(|e| unwritable(&temp, e))?;
                bytes += n as u64;
            }
            out.sync_all().map_err(|e| unwritable(&temp, e))?;
            Ok((hex(&hasher.finalize()), bytes))
        })();
        let (sha256, bytes) = match copied {
            Ok(done) => done,
            Err(e) => {
                let _ = std::fs::remove_file(&temp);
                return Err(e);
            }
        };
        let path = self.object_path(&sha256);
        if path.is_file() {
            let _ = std::fs::remove_file(&temp);
        } else {
            self.rename(&temp, &path)?;
        }
        Ok(Object {
            sha256,
            bytes,
            path,
        })
    }

    /// Writes the record of `sha256` as `text`, atomically (the same way
    /// as an object).
    pub fn write_record(&self, sha256: &str, text: &[u8]) -> Result<PathBuf, StoreError> {
        let meta = self.root.join("meta");
        std::fs::create_dir_all(&meta).map_err(|e| unwritable(&meta, e))?;
        let temp = self.temporary()?;
        let written = std::fs::File::create(&temp)
            .and_then(|mut f| f.write_all(text).and_then(|()| f.sync_all()))
            .map_err(|e| unwritable(&temp, e));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temp);
            return Err(e);
        }
        let path = self.record_path(sha256);
        self.rename(&temp, &path)?;
        Ok(path)
    }

    /// `from` renamed to `to`, and `to`'s directory synced so that the new
    /// name survives a crash.
    fn rename(&self, from: &Path, to: &Path) -> Result<(), StoreError> {
        if let Err(e) = std::fs::rename(from, to) {
            let _ = std::fs::remove_file(from);
            return Err(unwritable(to, e));
        }
        if let Some(dir) = to.parent() {
            // Best effort: some file systems refuse to sync a directory.
            let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(())
    }

    /// The object whose sha256 starts with `prefix`.
    pub fn find(&self, prefix: &str) -> Result<Object, StoreError> {
        if !is_prefix(prefix) {
            return Err(StoreError::BadPrefix {
                prefix: prefix.to_string(),
            });
        }
        let candidates: Vec<String> = self
            .objects()?
            .into_iter()
            .filter(|s| s.starts_with(prefix))
            .collect();
        match candidates.as_slice() {
            [one] => {
                let path = self.object_path(one);
                let bytes = std::fs::metadata(&path)
                    .map_err(|e| unreadable(&path, e))?
                    .len();
                Ok(Object {
                    sha256: one.clone(),
                    bytes,
                    path,
                })
            }
            [] => Err(StoreError::NotFound {
                prefix: prefix.to_string(),
                root: self.root.clone(),
            }),
            _ => Err(StoreError::Ambiguous {
                prefix: prefix.to_string(),
                root: self.root.clone(),
                candidates,
            }),
        }
    }

    /// The sha256 of every object, sorted (none in a store not yet made).
    pub fn objects(&self) -> Result<Vec<String>, StoreError> {
        self.names("objects", "")
    }

    /// The sha256 of every record, sorted.
    pub fn records(&self) -> Result<Vec<String>, StoreError> {
        self.names("meta", ".json")
    }

    /// The names in `dir` that are a full sha256 followed by `suffix`,
    /// without it, sorted.
    fn names(&self, dir: &str, suffix: &str) -> Result<Vec<String>, StoreError> {
        let dir = self.root.join(dir);
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(unreadable(&dir, e)),
        };
        let mut out = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| unreadable(&dir, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(sha) = name.strip_suffix(suffix) {
                if sha.len() == 64 && is_prefix(sha) {
                    out.push(sha.to_string());
                }
            }
        }
        out.sort();
        Ok(out)
    }

    /// The object of `sha256` re-hashed: `Missing` if it is not there,
    /// `Changed` if its bytes hash to something else.
    pub fn verify_object(&self, sha256: &str) -> Result<(), StoreError> {
        let path = self.object_path(sha256);
        let mut file = match std::fs::File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::Missing { path })
            }
            Err(e) => return Err(unreadable(&path, e)),
        };
        let mut hasher = Sha256::new();
        std::io::copy(&mut file, &mut hasher).map_err(|e| unreadable(&path, e))?;
        let actual = hex(&hasher.finalize());
        if actual == sha256 {
            Ok(())
        } else {
            Err(StoreError::Changed {
                path,
                sha256: actual,
            })
        }
    }

    /// Every object and every record's object re-hashed: each one missing
    /// or changed, in order of hash.
    pub fn verify(&self) -> Result<Vec<StoreError>, StoreError> {
        let mut all = self.objects()?;
        all.extend(self.records()?);
        all.sort();
        all.dedup();
        Ok(all
            .iter()
            .filter_map(|sha| self.verify_object(sha).err())
            .collect())
    }

    /// Deletes the object of `sha256` and its record.
    pub fn remove(&self, sha256: &str) -> Result<(), StoreError> {
        for path in [self.object_path(sha256), self.record_path(sha256)] {
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(unwritable(&path, e))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The file `EvalFile` names: an object's when it is `store:PREFIX`
    /// (in the store `LEISERCHESS_STORE` or the default names), else the
    /// text as a path.
    pub fn net_file(eval_file: &str) -> Result<PathBuf, StoreError> {
        match eval_file.strip_prefix(NET_PREFIX) {
            Some(prefix) => Ok(Store::choose(None)?.find(prefix)?.path),
            None => Ok(PathBuf::from(eval_file)),
        }
    }
}

fn unwritable(path: &Path, e: std::io::Error) -> StoreError {
    StoreError::Unwritable {
        path: path.to_path_buf(),
        error: e.to_string(),
    }
}

fn unreadable(path: &Path, e: std::io::Error) -> StoreError {
    StoreError::Unreadable {
        path: path.to_path_buf(),
        error: e.to_string(),
    }
}

/// The per-user directory of the lab's files (the store, the results
/// database): `$XDG_DATA_HOME/leiserchess`, else
/// `~/.local/share/leiserchess`; `None` without either variable.
pub fn lab_home() -> Option<PathBuf> {
    std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| Path::new(&h).join(".local/share"))
        })
        .map(|d| d.join("leiserchess"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sha256 of FIPS 180-2's "abc".
    const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    fn store(name: &str) -> (PathBuf, Store) {
        let dir = crate::scratch::dir(name);
        let store = Store::at(dir.join("store"));
        (dir, store)
    }

    /// A file goes in under its sha256, whole, and is found by a prefix;
    /// the same bytes twice are one object; nothing is left in `tmp/`.
    #[test]
    fn put_then_find_by_prefix() {
        let (dir, store) = store("object-store-put");
        let file = dir.join("abc.bin");
        std::fs::write(&file, "abc").unwrap();
        let object = store.put(&file).unwrap();
        assert_eq!(object.sha256, ABC);
        assert_eq!(object.bytes, 3);
        assert_eq!(std::fs::read(&object.path).unwrap(), b"abc");
        assert_eq!(store.put_bytes(b"abc").unwrap(), object);
        assert_eq!(store.objects().unwrap(), vec![ABC.to_string()]);
        assert_eq!(store.find(&ABC[..8]).unwrap(), object);
        assert_eq!(store.find(ABC).unwrap(), object);
        let tmp: Vec<_> = std::fs::read_dir(store.root().join("tmp"))
            .unwrap()
            .collect();
        assert!(tmp.is_empty(), "{tmp:?}");
        assert_eq!(store.verify().unwrap(), vec![]);
    }

    /// A prefix matching two objects names both and the root; one matching
    /// none names the root; a short or non-hex one is refused as such.
    #[test]
    fn ambiguous_missing_and_bad_prefixes() {
        let (_dir, store) = store("object-store-prefix");
        // Two names sharing 9 digits (found by name: `find` reads no bytes).
        let [a, b] = ["1", "2"].map(|last| format!("abcdef012{}", last.repeat(55)));
        std::fs::create_dir_all(store.root().join("objects")).unwrap();
        for name in [&a, &b] {
            std::fs::write(store.object_path(name), "x").unwrap();
        }
        let root = store.root().display().to_string();
        let e = store.find("abcdef01").unwrap_err();
        assert_eq!(
            e,
            StoreError::Ambiguous {
                prefix: "abcdef01".to_string(),
                root: store.root().to_path_buf(),
                candidates: vec![a.clone(), b.clone()],
            }
        );
        assert!(e.to_string().contains(&root) && e.to_string().contains(&b));
        assert_eq!(store.find("abcdef0122").unwrap().sha256, b);
        let e = store.find("00000000").unwrap_err();
        assert!(matches!(e, StoreError::NotFound { .. }), "{e}");
        assert!(e.to_string().contains("'00000000'") && e.to_string().contains(&root));
        for bad in ["abc", "ABCDEF12", "zzzzzzzz"] {
            let e = store.find(bad).unwrap_err();
            assert_eq!(
                e,
                StoreError::BadPrefix {
                    prefix: bad.to_string()
                }
            );
        }
    }

    /// `verify` names a changed object and a record whose object is gone.
    #[test]
    fn verify_names_changed_and_missing_objects() {
        let (_dir, store) = store("object-store-verify");
        let changed = store.put_bytes(b"abc").unwrap();
        let gone = store.put_bytes(b"gone").unwrap();
        store.write_record(&gone.sha256, b"{}").unwrap();
        std::fs::write(&changed.path, "abd").unwrap();
        std::fs::remove_file(&gone.path).unwrap();
        let problems = store.verify().unwrap();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems.contains(&StoreError::Missing {
            path: gone.path.clone()
        }));
        let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert!(
            text.iter()
                .any(|t| t.starts_with("changed object") && t.contains(ABC)),
            "{text:?}"
        );
    }

    /// A root that cannot be made (a file is in its way) is an error
    /// naming the path.
    #[test]
    fn an_unwritable_root_is_named() {
        let (dir, _) = store("object-store-unwritable");
        let file = dir.join("a-file");
        std::fs::write(&file, "x").unwrap();
        let store = Store::at(file.join("store"));
        let e = store.put_bytes(b"abc").unwrap_err();
        assert!(matches!(e, StoreError::Unwritable { .. }), "{e:?}");
        assert!(e.to_string().contains(&file.display().to_string()), "{e}");
    }

    /// `--store` first, then the environment, then the per-user default;
    /// `store:PREFIX` is an object's path, any other text a path.
    #[test]
    fn the_root_and_net_files() {
        let flag = Path::new("somewhere");
        assert_eq!(Store::choose(Some(flag)).unwrap().root(), flag);
        assert_eq!(
            Store::net_file("nets/a.nnue").unwrap(),
            PathBuf::from("nets/a.nnue")
        );
        assert!(matches!(
            Store::net_file("store:xyz"),
            Err(StoreError::BadPrefix { .. }) | Err(StoreError::NoRoot)
        ));
    }
}
