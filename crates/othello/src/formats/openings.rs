//! The names players give well-known openings, for the position a game reaches.
//!
//! The names and their lines are the ones of Robert Gatliff's catalogue of Othello
//! openings, as the Othello community publishes it (the Othello Wiki Book Project's
//! "Openings" page lists the best known); this table holds a selection of them, written
//! here from those public facts. Names are matched by position, in any of the eight
//! symmetric images, so transpositions and turned boards are found too; a game's opening
//! is the last named position on its way.
//!
//! ```
//! use gamelab_othello::openings::opening_of;
//! let (moves, _) = gamelab_othello::transcript::parse("f5d6c3d3c4f4f6").unwrap();
//! assert_eq!(opening_of(&moves).map(|o| o.name), Some("Stephenson"));
//! assert_eq!(opening_of(&moves[..5]).map(|o| o.name), Some("Tiger"));
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use gamelab_core::Game;

use crate::{Move, Othello};

/// A named opening a game went through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    pub name: &'static str,
    /// The ply at which the game reached it.
    pub ply: usize,
}

/// Each opening's line from the start in transcript order, black's first move f5.
const NAMED: &[(&str, &str)] = &[
    ("f5d6", "Perpendicular"),
    ("f5f6", "Diagonal"),
    ("f5f4", "Parallel"),
    ("f5d6c3d3c4", "Tiger"),
    ("f5d6c3d3c4b3", "Aubrey"),
    ("f5d6c3d3c4f4c5b3c2", "Rose-Bill"),
    ("f5d6c3d3c4f4c5b3c2e3", "Nicolet"),
    ("f5d6c3d3c4f4e3", "Brightwell"),
    ("f5d6c3d3c4f4e6", "Leader's Tiger"),
    ("f5d6c3d3c4f4f6", "Stephenson"),
    ("f5d6c3d3c4f4f6f3", "Comp'Oth"),
    ("f5d6c3d3c4f4f6g5", "No-Kung"),
    ("f5d6c3d3c4f4f6b4", "Kung"),
    ("f5d6c3g5", "Ganglion"),
    ("f5d6c4d3c5", "Cat"),
    ("f5d6c4d3e6", "Italian"),
    ("f5d6c4g5", "No-Cat"),
    ("f5d6c4g5c6", "Swallow"),
    ("f5d6c5f4d3", "Horse"),
    ("f5d6c5f4e3c6d3f6e6d7", "Rose"),
    ("f5d6c5f4e3c6d3f6e6d7g4", "Flat"),
    ("f5d6c5f4e3c6d3f3", "Ralle"),
    ("f5d6c5f4e3c6d7", "Bhagat"),
    ("f5d6c5f4e3c6e6", "Inoue"),
    ("f5d6c5f4e3c6f3", "Shaman"),
    ("f5d6c5f4e3d3", "Mimura"),
    ("f5f6e6d6c3", "Buffalo"),
    ("f5f6e6d6c3f4c6d3e3d2", "Tanida Buffalo"),
    ("f5f6e6d6c5", "Cow"),
    ("f5f6e6d6c5e3d3", "Rose-v-Toth"),
    ("f5f6e6d6c5e3d3g5", "Tanida"),
    ("f5f6e6d6c5e3e7", "Bat"),
    ("f5f6e6d6c5f4", "Chimney"),
    ("f5f6e6d6c7f4", "Lollipop"),
    ("f5f6e6d6d7", "Raccoon Dog"),
    ("f5f6e6d6e7", "Heath"),
    ("f5f6e6d6f7", "Snake"),
    ("f5f6e6d6g7", "X-square Opening"),
];

/// A position as the table keys it: the least of its eight images, and who is to move.
type Key = ((u64, u64), bool);

fn key(position: &Othello) -> Key {
    let (p, o) = position.discs();
    let (ps, os) = (crate::rules::bits::images(p), crate::rules::bits::images(o));
    let least = (0..8).map(|k| (ps[k], os[k])).min().expect("eight images");
    (least, position.black_to_move())
}

fn table() -> &'static HashMap<Key, &'static str> {
    static TABLE: OnceLock<HashMap<Key, &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| {
        NAMED
            .iter()
            .map(|&(line, name)| {
                let (_, position) =
                    crate::formats::transcript::parse(line).expect("a checked line");
                (key(&position), name)
            })
            .collect()
    })
}

/// The last named opening the game `moves` (from the start) passes through, `None` when
/// it leaves the book of names at once or a move is not legal.
pub fn opening_of(moves: &[Move]) -> Option<Opening> {
    let table = table();
    let mut position = Othello::new();
    let mut found = None;
    for (ply, &mv) in moves.iter().enumerate() {
        position.check_move(mv).ok()?;
        position.play_unchecked(mv);
        if let Some(&name) = table.get(&key(&position)) {
            found = Some(Opening { name, ply: ply + 1 });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(line: &str) -> Vec<Move> {
        crate::formats::transcript::parse(line).unwrap().0
    }

    #[test]
    fn every_named_line_is_legal_and_named_by_itself() {
        for &(line, name) in NAMED {
            let found = opening_of(&moves(line)).unwrap_or_else(|| panic!("{line}"));
            assert_eq!((found.name, found.ply), (name, line.len() / 2), "{line}");
        }
        // Every name stands for one position.
        assert_eq!(table().len(), NAMED.len());
    }

    #[test]
    fn a_turned_board_and_a_transposition_have_the_same_name() {
        // The Tiger begun with d3 (the image of f5 across the long diagonal).
        let tiger = moves("f5d6c3d3c4");
        let mut images = 0;
        for k in 0..8u8 {
            let turned: Vec<Move> = tiger
                .iter()
                .map(|&m| <Othello as gamelab_core::EngineHooks>::map_move(m, k, false))
                .collect();
            if let Some(found) = opening_of(&turned) {
                assert_eq!(found.name, "Tiger");
                images += 1;
            }
        }
        // The start has four symmetries of its own: four images are games from it.
        assert_eq!(images, 4);
        // A game past the book keeps the last name it had.
        let on = moves("f5d6c3d3c4f4f6f3e6e7d7");
        assert_eq!(
            opening_of(&on).map(|o| (o.name, o.ply)),
            Some(("Comp'Oth", 8))
        );
        // Out of the names at once: none.
        assert_eq!(opening_of(&[]), None);
    }
}
