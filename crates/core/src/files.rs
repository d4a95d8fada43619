//! Writing files so that nothing a user saved is lost or half-written.

use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Writes `path` through `write`: into a temporary file beside it, flushed and synced,
/// then renamed over `path`. If `write` or anything else fails, `path` is left as it was.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    {
        let mut w = BufWriter::new(tmp.as_file_mut());
        write(&mut w)?;
        w.flush()?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_whole_files_or_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        write_atomically(&path, |w: &mut dyn Write| w.write_all(b"first")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        let failed = write_atomically(&path, |w: &mut dyn Write| {
            w.write_all(b"half")?;
            Err(io::Error::other("disk on fire"))
        });
        assert!(failed.is_err());
        assert_eq!(
            std::fs::read(&path).unwrap(),
            b"first",
            "the old file is intact"
        );
        let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary file left behind");
    }
}
