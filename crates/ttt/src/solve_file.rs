//! The solved table on disk: a small header, then the positions, with a checksum so that a
//! damaged or cut file is refused instead of answering wrongly.
//!
//! Layout: `GLTTTSOL`, format version (u32 LE), payload length (u32 LE), CRC-32 of the
//! payload (u32 LE), payload (postcard: the positions in key order).

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::solve::{Marks, Solved, SolvedTable};

const MAGIC: &[u8; 8] = b"GLTTTSOL";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 4 + 4;

#[derive(Serialize, Deserialize)]
struct Record {
    o: u16,
    x: u16,
    value: i8,
    sv: i8,
    leaf_max: i8,
    leaf_min: i8,
    best_gt: u16,
    best_sv: u16,
    best_svrd: u16,
}

#[derive(Debug, Error)]
pub enum SolvedFileError {
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{path} is not a gamelab solved table (it does not start with GLTTTSOL)")]
    NotATable { path: String },
    #[error("{path} has format version {found}; this gamelab reads version {VERSION}")]
    Version { path: String, found: u32 },
    #[error(
        "{path} is truncated: the header promises {expected} bytes of positions, the file has {found}"
    )]
    Truncated {
        path: String,
        expected: usize,
        found: usize,
    },
    #[error("{path} is corrupt: its checksum does not match its contents")]
    Checksum { path: String },
    #[error("{path} is corrupt: {reason}")]
    Invalid { path: String, reason: String },
}

/// Writes the table atomically (a temporary file beside `path`, renamed at the end).
pub fn save(table: &SolvedTable, path: &Path) -> Result<(), SolvedFileError> {
    let p = path.display().to_string();
    let io = |error| SolvedFileError::Io {
        path: p.clone(),
        error,
    };
    let mut records: Vec<Record> = table
        .positions
        .iter()
        .map(|(m, s)| Record {
            o: m.0,
            x: m.1,
            value: s.value,
            sv: s.sv,
            leaf_max: s.leaf_max,
            leaf_min: s.leaf_min,
            best_gt: s.best_gt,
            best_sv: s.best_sv,
            best_svrd: s.best_svrd,
        })
        .collect();
    records.sort_by_key(|r| (r.o, r.x));
    let payload = postcard::to_allocvec(&records).map_err(|e| io(std::io::Error::other(e)))?;
    let mut bytes = Vec::with_capacity(HEADER + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    bytes.extend_from_slice(&payload);
    gamelab_core::files::write_atomically(path, |w| w.write_all(&bytes)).map_err(io)
}

/// Reads a table written by [`save`], checking everything it can.
pub fn load(path: &Path) -> Result<SolvedTable, SolvedFileError> {
    // The table is about 60 KB.
    let bytes =
        gamelab_core::files::read_bounded(path, 16 << 20).map_err(|error| SolvedFileError::Io {
            path: path.display().to_string(),
            error,
        })?;
    from_bytes(&bytes, &path.display().to_string())
}

/// [`load`] from a table file's bytes; `name` is the source errors name.
pub fn from_bytes(bytes: &[u8], name: &str) -> Result<SolvedTable, SolvedFileError> {
    let p = name.to_string();
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(SolvedFileError::NotATable { path: p });
    }
    if bytes.len() < HEADER {
        return Err(SolvedFileError::Truncated {
            path: p,
            expected: HEADER,
            found: bytes.len(),
        });
    }
    let word = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let version = word(8);
    if version != VERSION {
        return Err(SolvedFileError::Version {
            path: p,
            found: version,
        });
    }
    let (len, crc) = (word(12) as usize, word(16));
    let payload = &bytes[HEADER..];
    if payload.len() != len {
        return Err(SolvedFileError::Truncated {
            path: p,
            expected: len,
            found: payload.len(),
        });
    }
    if crc32fast::hash(payload) != crc {
        return Err(SolvedFileError::Checksum { path: p });
    }
    let invalid = |reason: String| SolvedFileError::Invalid {
        path: p.clone(),
        reason,
    };
    let records: Vec<Record> = postcard::from_bytes(payload)
        .map_err(|e| invalid(format!("cannot decode the positions ({e})")))?;
    let mut positions = HashMap::with_capacity(records.len());
    for r in records {
        if r.o & r.x != 0 || (r.o | r.x) >> 9 != 0 {
            return Err(invalid(format!(
                "position {:#x}/{:#x} is not a board",
                r.o, r.x
            )));
        }
        let solved = Solved {
            value: r.value,
            sv: r.sv,
            leaf_max: r.leaf_max,
            leaf_min: r.leaf_min,
            best_gt: r.best_gt,
            best_sv: r.best_sv,
            best_svrd: r.best_svrd,
        };
        if positions.insert(Marks(r.o, r.x), solved).is_some() {
            return Err(invalid(format!(
                "position {:#x}/{:#x} appears twice",
                r.o, r.x
            )));
        }
    }
    if positions.len() != 5_478 {
        return Err(invalid(format!(
            "it holds {} positions; tic-tac-toe has 5,478",
            positions.len()
        )));
    }
    Ok(SolvedTable { positions })
}
