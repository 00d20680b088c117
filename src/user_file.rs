//! Reading a file a user names (`EvalFile`, `BookFile`): only a regular
//! file, and only up to a stated size. A FIFO would block the reader until
//! something writes to it, and a device such as `/dev/zero` never ends, so
//! both are refused before they are opened; the size is checked before the
//! bytes are read. Messages say what is wrong, not which file: the caller
//! names it, quoted (`quote`).

use std::io::Read;

/// What a file must be to be read, and the most bytes of it.
pub fn read(path: impl AsRef<std::path::Path>, limit: u64) -> Result<Vec<u8>, String> {
    let not_regular = |meta: &std::fs::Metadata| {
        if meta.is_dir() {
            "a directory, not a file".to_string()
        } else {
            "not a regular file (a FIFO, socket or device)".to_string()
        }
    };
    let too_large = |len: u64| format!("{len} bytes, over the limit of {limit} bytes");
    let cannot = |e: std::io::Error| format!("cannot read: {e}");
    let path = path.as_ref();
    // The kind is checked on the path first: opening a FIFO would block.
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    // And again on what was opened, in case the path changed in between.
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    if meta.len() > limit {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_under_the_limit_is_read() {
        let dir = crate::scratch::dir("user-file");
        let path = dir.join("f");
        std::fs::write(&path, b"12345").unwrap();
        let p = path.to_str().unwrap();
        assert_eq!(read(p, 5).unwrap(), b"12345");
        assert_eq!(
            read(p, 4).unwrap_err(),
            "5 bytes, over the limit of 4 bytes"
        );
        assert_eq!(
            read(dir.to_str().unwrap(), 9).unwrap_err(),
            "a directory, not a file"
        );
        assert!(read(dir.join("none").to_str().unwrap(), 9)
            .unwrap_err()
            .starts_with("cannot read: "));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn devices_are_refused_before_reading() {
        let e = read("/dev/zero", 1 << 30).unwrap_err();
        assert_eq!(e, "not a regular file (a FIFO, socket or device)");
    }
}
