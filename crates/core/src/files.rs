//! Writing files so that nothing a user saved is lost or half-written.
//!
//! A regular file (or one that does not exist yet) is written into an unnamed temporary
//! file beside it (the `atomic-write-file` crate), synced, and renamed over it, so a
//! failure or a kill leaves the old file whole. Committing names the temporary file
//! (`.NAME.XXXXXX`) for the moment between its last sync and the rename; a kill in that
//! moment leaves it, a complete copy, and the next write to `NAME` removes it. Commits
//! and that clean-up hold a lock on the directory, so one never takes another's file. A
//! symbolic link is followed: its target is written, and the link stays a link. Anything
//! that is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) is written directly and
//! never replaced. A new file gets the mode the umask allows (as `touch` would); a
//! replaced file keeps its mode.

use nix::unistd::AccessFlags;
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
/// directory, and a special file there allows writing. Meant to be called before long
/// work whose result goes to `path`; nothing is created, changed or opened (opening a
/// FIFO to try it would show its reader an end of file, or wait for one).
pub fn check_writable(path: &Path) -> io::Result<()> {
    let target = match destination(path)? {
        Destination::InPlace => return access(path, AccessFlags::W_OK),
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
    probe_directory(dir).map_err(|e| in_directory(dir, e))
}

/// The surest test of a directory's permissions is to make a file there; an unnamed one
/// (`O_TMPFILE`) leaves nothing behind even if the process is killed. Where the file
/// system has no unnamed files, the kernel's `access` check stands in.
fn probe_directory(dir: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        match OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_TMPFILE)
            .open(dir)
        {
            Ok(_) => return Ok(()),
            Err(e) if !matches!(e.raw_os_error(), Some(libc::EISDIR | libc::EOPNOTSUPP)) => {
                return Err(e);
            }
            Err(_) => {}
        }
    }
    access(dir, AccessFlags::W_OK | AccessFlags::X_OK)
}

/// The kernel's permission check for `path` (`access(2)`), which opens nothing.
fn access(path: &Path, mode: AccessFlags) -> io::Result<()> {
    nix::unistd::access(path, mode).map_err(io::Error::from)
}

/// An exclusive `flock` on a directory, released when dropped (or when the process dies,
/// so a kill never leaves it held). `None` where the directory cannot be opened for
/// reading or locked (no read permission, a file system without locks): writing goes on
/// unlocked.
fn lock_directory(dir: &Path) -> Option<nix::fcntl::Flock<fs::File>> {
    let file = fs::File::open(dir).ok()?;
    nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusive).ok()
}

/// Removes what a kill during a commit to `target` left: regular files named as
/// `atomic-write-file` names its temporary files (`.NAME.` and six letters or digits).
/// Called under the directory's lock, which every commit holds, so none is in use.
fn remove_stale_temporaries(dir: &Path, target: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let Some(name) = target.file_name() else {
        return;
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let prefix = [b".", name.as_bytes(), b"."].concat();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let bytes = file_name.as_bytes();
        let stale = bytes.len() == prefix.len() + 6
            && bytes.starts_with(&prefix)
            && bytes[prefix.len()..].iter().all(u8::is_ascii_alphanumeric)
            && entry.file_type().is_ok_and(|t| t.is_file());
        if stale {
            let _ = fs::remove_file(entry.path());
        }
    }
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
    if let Some(_lock) = lock_directory(dir) {
        remove_stale_temporaries(dir, &target);
    }
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
    let _lock = lock_directory(dir);
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

    #[test]
    fn a_fifo_is_checked_without_opening_it() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        // Opening a FIFO for writing waits for a reader, so the old check hung here (and,
        // with a reader, showed it an end of file). The bound only catches a hang.
        let (done, checked) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || done.send(check_writable(&path).is_ok()));
        let ok = checked
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("check_writable waited on the FIFO");
        assert!(ok);
    }

    #[test]
    fn what_a_killed_commit_left_is_removed_by_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("s.bin");
        // What a kill between the commit's link and rename leaves, and names that only
        // look alike, which must stay.
        let stale = [".s.bin.Ab3xYz", ".s.bin.000000"];
        let kept = [
            ".s.bin.toolong7",
            ".other.bin.Ab3xYz",
            ".s.bin.Ab-xYz",
            "s.bin.Ab3xYz",
        ];
        for name in stale.iter().chain(&kept) {
            std::fs::write(dir.path().join(name), "copy").unwrap();
        }
        std::fs::create_dir(dir.path().join(".s.bin.dirdir")).unwrap();
        write_atomically(&target, |w: &mut dyn Write| w.write_all(b"new")).unwrap();
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        let mut expected: Vec<String> = kept.iter().map(|s| s.to_string()).collect();
        expected.extend([".s.bin.dirdir".to_string(), "s.bin".to_string()]);
        expected.sort();
        assert_eq!(left, expected);
    }

    #[test]
    fn the_directory_probe_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        for _ in 0..3 {
            check_writable(&dir.path().join("out.bin")).unwrap();
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let read_only = dir.path().join("ro");
        std::fs::create_dir(&read_only).unwrap();
        std::fs::set_permissions(&read_only, fs::Permissions::from_mode(0o500)).unwrap();
        // Root may write anywhere; the check must agree with what a write would do.
        let writes = write_atomically(&read_only.join("f"), |_| Ok(())).is_ok();
        assert_eq!(check_writable(&read_only.join("f")).is_ok(), writes);
    }
}
