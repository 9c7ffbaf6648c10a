//! Writing a report file (`specval check -o PATH`).
//!
//! - Atomically: into a temporary file beside the target, renamed over it when complete, so a
//!   reader never sees half a report and a failed run leaves the old one.
//! - With the mode any other program gives a new file: `0666` less the umask (a temporary file
//!   alone would be `0600`); a file that exists keeps its permission bits.
//! - Through a symbolic link, as the shell's `>` does: the file the link points to (created
//!   if the link dangles) is replaced, and the link stays. Renaming over the link would have
//!   replaced the link itself and left its target stale.
//! - A path that is not a regular file (a device such as `/dev/null`, a pipe) is written
//!   directly: renaming over it would replace it.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How many links a path may go through, as the kernel's own limit (ELOOP).
const MAX_LINKS: usize = 40;

/// Writes a file as described in the [module documentation](self).
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let path = resolve_links(path)?;
    let existing = match std::fs::metadata(&path) {
        Ok(meta) if !meta.is_file() => {
            let file = std::fs::OpenOptions::new().write(true).open(&path)?;
            let mut out = io::BufWriter::new(file);
            write(&mut out)?;
            return out.flush();
        }
        Ok(meta) => Some(meta.permissions()),
        Err(err) if err.kind() == io::ErrorKind::NotFound => None,
        Err(err) => return Err(err),
    };
    let dir = directory_of(&path);
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // Passed to open(2): the umask applies, as to any new file.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder
        .tempfile_in(&dir)
        .map_err(|err| in_directory(&dir, err))?;
    {
        let mut buffered = io::BufWriter::new(temp.as_file_mut());
        write(&mut buffered)?;
        buffered.flush()?;
    }
    if let Some(permissions) = existing {
        temp.as_file().set_permissions(permissions)?;
    }
    temp.persist(&path).map_err(|err| err.error)?;
    Ok(())
}

/// Whether a report could be written at `path` (`specval proxy` asks before it serves, so
/// that a session's report is not lost at its end to a directory that does not exist): a file
/// is created beside it and removed, or a path that is no regular file opened for writing.
pub fn check_writable(path: &Path) -> io::Result<()> {
    let path = resolve_links(path)?;
    if std::fs::metadata(&path).is_ok_and(|meta| !meta.is_file()) {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .map(drop);
    }
    let dir = directory_of(&path);
    tempfile::Builder::new()
        .tempfile_in(&dir)
        .map(drop)
        .map_err(|err| in_directory(&dir, err))
}

/// The directory a file at `path` goes into (`.` for a bare file name).
fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// An error creating the temporary file in `dir`, said of `dir`: tempfile's own names the
/// temporary file (`at path "/out/.tmp3N2apG"`), which the user never asked for.
fn in_directory(dir: &Path, err: io::Error) -> io::Error {
    // The system's words for what is wrong with the directory (`No such file or directory
    // (os error 2)`), which tempfile's error keeps to itself.
    let cause = match std::fs::metadata(dir) {
        Err(os) => os,
        Ok(meta) if !meta.is_dir() => io::Error::from(io::ErrorKind::NotADirectory),
        Ok(_) => io::Error::from(err.kind()),
    };
    io::Error::new(
        err.kind(),
        format!("cannot create a file in {}: {cause}", dir.display()),
    )
}

/// The path a chain of symbolic links ends at (which need not exist); `path` itself when it
/// is no link.
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}
