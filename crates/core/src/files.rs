//! Writing files so that nothing a user saved is lost or half-written.
//!
//! A regular file (or one that does not exist yet) is written into an unnamed temporary
//! file beside it (the `atomic-write-file` crate), synced, and renamed over it, so a
//! failure or a kill leaves the old file whole and no temporary file behind. A
//! symbolic link is followed: its target is written, and the link stays a link. Anything
//! that is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) is written directly and
//! never replaced. A new file gets the mode the umask allows (as `touch` would); a
//! replaced file keeps its mode.

use std::fs::{self, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// What writing `path` means: a special file (or a link to one, like `/dev/stdout` to
/// `/proc/self/fd/1` to a pipe) is opened and written in place; a regular file, or none
/// yet, is replaced at the path its links lead to.
enum Destination {
    InPlace,
    Replace(PathBuf),
}

fn destination(path: &Path) -> io::Result<Destination> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            Err(io::Error::other("it is a directory; expected a file name"))
        }
        Ok(meta) if !meta.is_file() => Ok(Destination::InPlace),
        Ok(_) => Ok(Destination::Replace(fs::canonicalize(path)?)),
        // Absent, or a link to something absent: created where the links lead.
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Destination::Replace(target(path)?)),
        Err(e) => Err(e),
    }
}

/// Reads a file a user named as input (a model, a table), which must be a regular file
/// of at most `max_bytes`: a device such as `/dev/zero` or a FIFO would exhaust the
/// reader or hang it.
pub fn read_regular(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    let meta = fs::metadata(path)?;
    if !meta.is_file() || meta.len() > max_bytes {
        return Err(io::Error::other(format!(
            "not a regular file of at most {} MB",
            max_bytes >> 20
        )));
    }
    // Bounded still: the file may grow after its size was read.
    read_bounded(path, max_bytes)
}

/// Opens `path` for reading, whatever it is (a regular file, a pipe, a device), as a
/// reader that fails once it has given `max_bytes`: a user's input is read to its end,
/// and `/dev/zero` or an endless pipe must not fill the memory meanwhile.
pub fn open_bounded(path: &Path, max_bytes: u64) -> io::Result<Bounded<fs::File>> {
    Ok(Bounded {
        inner: fs::File::open(path)?,
        left: max_bytes,
        max_bytes,
    })
}

/// The whole of `path`, read through [`open_bounded`].
///
/// ```
/// use gamelab_core::files::read_bounded;
/// let err = read_bounded(std::path::Path::new("/dev/zero"), 1 << 10).unwrap_err();
/// assert_eq!(err.to_string(), "it holds more than 1 KiB; expected at most 1 KiB");
/// ```
pub fn read_bounded(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut open_bounded(path, max_bytes)?, &mut bytes)?;
    Ok(bytes)
}

/// The largest file of game records read (JSON Lines, CSV, GGF; a dataset CSV too): about
/// three million games.
pub const MAX_RECORDS_BYTES: u64 = 1 << 30;

/// The whole of `path` as text, read through [`open_bounded`].
pub fn read_text_bounded(path: &Path, max_bytes: u64) -> io::Result<String> {
    String::from_utf8(read_bounded(path, max_bytes)?)
        .map_err(|_| io::Error::other("it is not UTF-8 text"))
}

/// A reader that gives at most `max_bytes`, then fails (see [`open_bounded`]).
pub struct Bounded<R> {
    inner: R,
    left: u64,
    max_bytes: u64,
}

impl<R: io::Read> io::Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            // One byte more tells a file of exactly the limit from a longer one.
            let mut probe = [0u8];
            return match self.inner.read(&mut probe)? {
                0 => Ok(0),
                _ => {
                    let size = human_size(self.max_bytes);
                    Err(io::Error::other(format!(
                        "it holds more than {size}; expected at most {size}"
                    )))
                }
            };
        }
        let n = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let read = self.inner.read(&mut buf[..n])?;
        self.left -= read as u64;
        Ok(read)
    }
}

/// 16 MiB, 1 GiB, 1 KiB: a limit in words.
fn human_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Where writing `path` really goes: the final target of any symbolic links.
fn target(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    // A bounded walk, like the kernel's own limit on link chains.
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(format!(
        "{} is a chain of more than 40 symbolic links",
        path.display()
    )))
}

fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// tempfile's errors name the temporary file, which means nothing to a user: say which
/// directory could not take a new file instead.
fn in_directory(dir: &Path, e: io::Error) -> io::Error {
    let message = e.to_string();
    let reason = message.split(" at path ").next().unwrap_or(&message);
    io::Error::new(e.kind(), format!("{}: {reason}", dir.display()))
}

/// Whether writing `output` would replace `input`: both name the same existing file,
/// through links or not (a command refuses that rather than overwrite what it reads).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let file = dir.path().join("games.wtb");
/// std::fs::write(&file, b"data").unwrap();
/// let also = dir.path().join(".").join("games.wtb");
/// assert!(gamelab_core::files::same_file(&file, &also));
/// assert!(!gamelab_core::files::same_file(&file, &dir.path().join("other.ggf")));
/// ```
pub fn same_file(input: &Path, output: &Path) -> bool {
    match (fs::canonicalize(input), fs::canonicalize(output)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Whether `path` can be written: its directory exists and takes new files, it is not a
/// directory, and a special file there opens for writing. Meant to be called before long
/// work whose result goes to `path`; nothing is created or changed.
pub fn check_writable(path: &Path) -> io::Result<()> {
    let target = match destination(path)? {
        Destination::InPlace => return OpenOptions::new().write(true).open(path).map(drop),
        Destination::Replace(target) => target,
    };
    let dir = directory_of(&target);
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(io::Error::other(format!(
                "{} is not a directory",
                dir.display()
            )));
        }
        Err(e) => return Err(io::Error::new(e.kind(), format!("{}: {e}", dir.display()))),
    }
    // The only sure test of a directory's permissions is to make a file there.
    tempfile::Builder::new()
        .prefix(".gamelab-check")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| in_directory(dir, e))
}

/// Writes `path` through `write`, as the module says: atomically for a regular file, in
/// place for a special file, through symbolic links. If `write` or anything else fails, a
/// regular file is left as it was and no temporary file is left behind.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let target = match destination(path)? {
        Destination::InPlace => {
            let mut file = OpenOptions::new().write(true).open(path)?;
            let mut w = BufWriter::new(&mut file);
            write(&mut w)?;
            return w.flush();
        }
        Destination::Replace(target) => target,
    };
    // An unnamed temporary file (O_TMPFILE) in the target's folder, named only when it is
    // committed: a crash or a kill while writing leaves nothing behind. A new file's mode
    // is 0666 less the umask (the kernel applies it as for any open); a replaced file keeps
    // its mode and owner.
    let dir = directory_of(&target);
    let mut file = atomic_write_file::AtomicWriteFile::options()
        .open(&target)
        .map_err(|e| in_directory(dir, e))?;
    {
        let mut w = BufWriter::new(&mut file);
        write(&mut w)?;
        w.flush()?;
    }
    // Commit syncs the data before the rename; dropping the file on an error above
    // discards it.
    file.commit().map_err(|e| in_directory(dir, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

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

    #[test]
    fn links_are_followed_and_modes_kept() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        let link = dir.path().join("link.txt");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink("real.txt", &link).unwrap();
        write_atomically(&link, |w: &mut dyn Write| w.write_all(b"new")).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "a replaced file keeps its mode");

        let fresh = dir.path().join("fresh.txt");
        write_atomically(&fresh, |w: &mut dyn Write| w.write_all(b"x")).unwrap();
        let mode = fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        assert_ne!(mode, 0o600, "a new file gets the umask's mode, not 0600");
        assert_eq!(mode & 0o400, 0o400);
    }

    #[test]
    fn special_files_are_written_not_replaced() {
        write_atomically(Path::new("/dev/null"), |w: &mut dyn Write| {
            w.write_all(b"x")
        })
        .unwrap();
        assert!(!fs::metadata("/dev/null").unwrap().is_file());
    }

    #[test]
    fn unwritable_places_are_found_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_writable(&dir.path().join("ok.txt")).is_ok());
        assert!(check_writable(dir.path()).is_err(), "a directory");
        let err = check_writable(&dir.path().join("no/such/dir/f.txt")).unwrap_err();
        assert!(
            !err.to_string().contains(".gamelab"),
            "no temporary name: {err}"
        );
        let err = write_atomically(&dir.path().join("no/f.txt"), |_| Ok(())).unwrap_err();
        assert!(
            !err.to_string().contains(".gamelab"),
            "no temporary name: {err}"
        );
        assert!(check_writable(Path::new("/dev/null")).is_ok());
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "nothing created"
        );
    }
}
