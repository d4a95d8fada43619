//! The opening book: the positions the WTHOR games' openings pass through often, each with
//! its value and best move from the engine's deeper search, minimaxed over the book.
//!
//! Built by `gamelab build-book`: every position after up to `plies` moves that at least
//! `min_games` games reached (the eight symmetric images counted as one) is a book node.
//! Each move out of the book is valued by a depth-`level` search of the position it leads
//! to; a node's value is the best of its moves, a move into another node taking that
//! node's value (negamax from the deepest nodes up), so a line the players liked is
//! followed as far as their games went and judged where they left it. Values and moves
//! depend only on the games, the options and the engine's code: the build runs on any
//! number of threads with the same result.
//!
//! ```
//! use gamelab_othello::book::shipped;
//! use gamelab_othello::{Move, Othello, Square};
//!
//! // The start is in the shipped book, and its four moves are one move by symmetry.
//! let start = shipped().probe(&Othello::new()).unwrap();
//! let first = ["d3", "c4", "f5", "e6"].map(|s| Move::Place(Square::parse(s).unwrap()));
//! assert!(first.contains(&start.best));
//! assert_eq!(start.line[0], start.best);
//! assert!(start.value.abs() < 4.0);
//! ```

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, OnceLock};

use gamelab_core::{EngineHooks as _, Game};
use rayon::prelude::*;
use thiserror::Error;

use crate::engine::search::{Limits, Searcher};
use crate::formats::wthor::WthorGame;
use crate::rules::bits::{images, legal_moves};
use crate::{Move, Othello, Square};

/// The largest book file read.
pub const MAX_BOOK_BYTES: u64 = 256 << 20;

const MAGIC: &[u8; 8] = b"GLBOOK1\n";
/// Magic, then the build's level, plies, least games and the entry count (u32 each).
const HEADER: usize = 8 + 4 * 4;
/// Mover's discs, opponent's (u64 each), value (f32, discs), games (u32), best square (u8).
const ENTRY: usize = 8 + 8 + 4 + 4 + 1;

/// One book position, in its canonical orientation (see [`canonical`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The mover's discs.
    pub p: u64,
    /// The opponent's discs.
    pub o: u64,
    /// The position's value in discs for the side to move.
    pub value: f32,
    /// Games of the database that reached it (any of its images).
    pub games: u32,
    /// The move the value comes from, a square of this orientation.
    pub best: u8,
}

/// What the book says about a position, turned to the position as asked.
#[derive(Clone, Debug, PartialEq)]
pub struct BookMove {
    pub best: Move,
    /// In discs for the side to move.
    pub value: f64,
    pub games: u32,
    /// The best line while it stays in the book, `best` first.
    pub line: Vec<Move>,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum BookError {
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
    #[error("not an opening book: {0}")]
    Format(String),
}

/// Why a book could not be built ([`build`]).
#[derive(Debug, Error)]
pub enum BookBuildError {
    #[error("cannot start the search threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    #[error("the frontier given misses a move out of the book")]
    FrontierMisses,
}

/// How a book is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookOptions {
    /// Positions after at most this many moves.
    pub plies: u32,
    /// Reached by at least this many games.
    pub min_games: u32,
    /// The depth of the searches that value the moves out of the book.
    pub level: u32,
}

/// An opening book: its entries sorted by position for binary search.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    pub options: BookOptions,
    entries: Vec<Entry>,
}

/// The image of (`p`, `o`) that is least as (mover, opponent) among its eight, and the
/// index of that image in [`images`]' order: every symmetric position has the same one.
///
/// ```
/// use gamelab_core::Game;
/// use gamelab_othello::book::canonical;
/// use gamelab_othello::{Move, Othello, Square};
///
/// // The four first moves lead to one position, turned four ways.
/// let after = |s: &str| {
///     let mut pos = Othello::new();
///     pos.play(Move::Place(Square::parse(s).unwrap())).unwrap();
///     let (p, o) = pos.discs();
///     canonical(p, o).0
/// };
/// assert_eq!(after("d3"), after("f5"));
/// assert_eq!(after("c4"), after("e6"));
/// assert_eq!(after("d3"), after("e6"));
/// ```
pub fn canonical(p: u64, o: u64) -> ((u64, u64), usize) {
    let (ps, os) = (images(p), images(o));
    (0..8)
        .map(|k| ((ps[k], os[k]), k))
        .min()
        .expect("eight images")
}

/// The move on square `sq` of image `k` of a position, turned back to the position.
fn turned_back(sq: u8, k: usize) -> Move {
    let sq = Square::from_index(sq.into()).expect("a checked square");
    Othello::map_move(Move::Place(sq), k as u8, true)
}

impl Book {
    /// Its positions, sorted by (mover, opponent) in their canonical images.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of (`p`, `o`) in any orientation.
    ///
    /// ```
    /// use gamelab_othello::Othello;
    /// use gamelab_othello::book::{canonical, shipped};
    ///
    /// let book = shipped();
    /// let (p, o) = Othello::new().discs();
    /// let entry = book.get(p, o).unwrap();
    /// assert_eq!((entry.p, entry.o), canonical(p, o).0);
    /// // Every game of the database started there.
    /// assert!(entry.games >= book.entries().iter().map(|e| e.games).max().unwrap());
    /// ```
    pub fn get(&self, p: u64, o: u64) -> Option<&Entry> {
        self.turned(p, o).map(|(entry, _)| entry)
    }

    /// The book's move in `pos`, when `pos` is in the book, turned to `pos` (the
    /// module's example); `None` out of it.
    ///
    /// ```
    /// use gamelab_othello::Othello;
    /// use gamelab_othello::book::shipped;
    ///
    /// // The start with a black disc on a1 besides: no game's position.
    /// let start = Othello::new();
    /// let odd = Othello::from_discs(start.black() | 1, start.white(), true);
    /// assert_eq!(shipped().probe(&odd), None);
    /// ```
    pub fn probe(&self, pos: &Othello) -> Option<BookMove> {
        let (p, o) = pos.discs();
        let first = self.turned(p, o)?;
        let (entry, _) = first;
        let mut line = Vec::new();
        let mut next = pos.clone();
        let mut at = Some(first);
        // Each step plays a move: the line ends, at the latest, when the discs run out.
        while let Some((e, k)) = at {
            let mv = turned_back(e.best, k);
            line.push(mv);
            next.play_unchecked(mv);
            let (p, o) = next.discs();
            at = self.turned(p, o);
        }
        Some(BookMove {
            best: line[0],
            value: f64::from(entry.value),
            games: entry.games,
            line,
        })
    }

    /// The entry of (`p`, `o`) and the image that turns (`p`, `o`) into it.
    fn turned(&self, p: u64, o: u64) -> Option<(&Entry, usize)> {
        let (key, k) = canonical(p, o);
        let i = self
            .entries
            .binary_search_by(|e| (e.p, e.o).cmp(&key))
            .ok()?;
        Some((&self.entries[i], k))
    }

    /// The file form: a header (magic, the build's level, plies, least games, the entry
    /// count), then each entry (mover's and opponent's discs, value, games, best square),
    /// little-endian.
    ///
    /// ```
    /// use gamelab_othello::book::{Book, shipped};
    ///
    /// let bytes = shipped().to_bytes();
    /// assert_eq!(Book::from_bytes(&bytes).unwrap(), *shipped());
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + ENTRY * self.entries.len());
        out.extend_from_slice(MAGIC);
        for n in [
            self.options.level,
            self.options.plies,
            self.options.min_games,
            self.entries.len() as u32,
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for e in &self.entries {
            out.extend_from_slice(&e.p.to_le_bytes());
            out.extend_from_slice(&e.o.to_le_bytes());
            out.extend_from_slice(&e.value.to_le_bytes());
            out.extend_from_slice(&e.games.to_le_bytes());
            out.push(e.best);
        }
        out
    }

    /// Reads a book, checking every entry: canonical, sorted, once each, a legal best
    /// move, a value within ±64 discs.
    ///
    /// ```
    /// use gamelab_othello::book::{Book, shipped};
    ///
    /// let bytes = shipped().to_bytes();
    /// assert!(Book::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    /// let err = Book::from_bytes(b"GLPAT").unwrap_err();
    /// assert!(err.to_string().starts_with("not an opening book"));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let format = |reason: String| BookError::Format(reason);
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(format(format!(
                "it does not start with {:?} and a {HEADER}-byte header (a file written by `gamelab build-book`)",
                String::from_utf8_lossy(MAGIC)
            )));
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let options = BookOptions {
            level: u32_at(8),
            plies: u32_at(12),
            min_games: u32_at(16),
        };
        let count = u32_at(20) as usize;
        let expected = count.checked_mul(ENTRY).and_then(|n| n.checked_add(HEADER));
        if expected != Some(bytes.len()) {
            return Err(format(format!(
                "it is {} bytes long; a book of {count} entries is {} bytes",
                bytes.len(),
                HEADER as u128 + ENTRY as u128 * count as u128
            )));
        }
        let mut entries = Vec::with_capacity(count);
        for (i, chunk) in bytes[HEADER..].chunks_exact(ENTRY).enumerate() {
            let u64_at = |at: usize| u64::from_le_bytes(chunk[at..at + 8].try_into().expect("8"));
            let e = Entry {
                p: u64_at(0),
                o: u64_at(8),
                value: f32::from_le_bytes(chunk[16..20].try_into().expect("4")),
                games: u32::from_le_bytes(chunk[20..24].try_into().expect("4")),
                best: chunk[24],
            };
            let bad = |what: &str| format(format!("entry {}: {what}", i + 1));
            if e.p & e.o != 0 {
                return Err(bad("a square holds both colours"));
            }
            if canonical(e.p, e.o).0 != (e.p, e.o) {
                return Err(bad(
                    "the position is not in its canonical orientation (the least of its eight images)",
                ));
            }
            if let Some(prev) = entries.last().map(|x: &Entry| (x.p, x.o))
                && prev >= (e.p, e.o)
            {
                return Err(bad("the entries are not in ascending order, each once"));
            }
            if !(e.value.is_finite() && e.value.abs() <= 64.0) {
                return Err(bad(&format!(
                    "the value {} is not a disc difference within ±64",
                    e.value
                )));
            }
            if e.best >= 64 || legal_moves(e.p, e.o) & (1 << e.best) == 0 {
                return Err(bad(&format!(
                    "the best move (square index {}) is not a legal move of the position",
                    e.best
                )));
            }
            entries.push(e);
        }
        Ok(Book { options, entries })
    }

    /// Writes the file form to `path` by [`gamelab_core::files::write_atomically`]: a
    /// failure or a kill leaves the old file whole or the new one (at worst with a
    /// complete copy `.NAME.XXXXXX` beside it, which the next write removes).
    ///
    /// ```
    /// use gamelab_othello::book::{Book, shipped};
    ///
    /// let dir = std::env::temp_dir().join(format!("gamelab-book-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("book.glbook");
    /// shipped().save(&path).unwrap();
    /// assert_eq!(Book::load(&path).unwrap(), *shipped());
    /// let err = Book::load(&dir.join("none.glbook")).unwrap_err();
    /// assert!(err.to_string().contains("none.glbook: "));
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        gamelab_core::files::write_atomically(path, |w| w.write_all(&self.to_bytes())).map_err(
            |e| BookError::Io {
                path: path.display().to_string(),
                reason: e.to_string(),
            },
        )
    }

    /// Reads a book file of at most [`MAX_BOOK_BYTES`].
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let io = |reason: String| BookError::Io {
            path: path.display().to_string(),
            reason,
        };
        let bytes = gamelab_core::files::read_regular(path, MAX_BOOK_BYTES)
            .map_err(|e| io(e.to_string()))?;
        Book::from_bytes(&bytes).map_err(|e| io(e.to_string()))
    }
}

/// The book that ships with gamelab (`crates/othello/BOOK.md`), unpacked once.
pub fn shipped() -> Arc<Book> {
    static BOOK: OnceLock<Arc<Book>> = OnceLock::new();
    BOOK.get_or_init(|| {
        Arc::new(
            Book::from_bytes(include_bytes!("../../model/book.glbook"))
                .expect("the shipped book is well-formed"),
        )
    })
    .clone()
}

/// The canonical positions after at most `plies` moves of `games` that at least
/// `min_games` of them reached, with how many did. A game stops counting at its first
/// pass (the book holds positions whose mover has a move) or at a move that is not legal.
///
/// A small book from three games, built and probed:
///
/// ```
/// use std::sync::Arc;
/// use gamelab_othello::book::{BookOptions, build, frequent_positions, frontier};
/// use gamelab_othello::learned::shipped;
/// use gamelab_othello::wthor::WthorGame;
/// use gamelab_othello::{Othello, Square};
///
/// let game = |moves: &str| WthorGame {
///     tournament: 0,
///     black_player: 0,
///     white_player: 0,
///     black_discs: 32,
///     black_theoretical: 32,
///     moves: moves
///         .as_bytes()
///         .chunks(2)
///         .map(|m| Square::parse(std::str::from_utf8(m).unwrap()).unwrap())
///         .collect(),
/// };
/// // Two games open f5 d6, one f5 f6.
/// let games = [game("f5d6c3"), game("f5d6c5"), game("f5f6e6")];
/// let nodes = frequent_positions(&games, 2, 2);
/// // Reached by two games or more within two plies: the start, f5 and f5 d6.
/// assert_eq!(nodes.len(), 3);
/// let options = BookOptions { plies: 2, min_games: 2, level: 2 };
/// let book = build(&nodes, frontier(&nodes), options, shipped(), 1, &|_| {}).unwrap();
/// assert_eq!(book.len(), 3);
/// let at_start = book.probe(&Othello::new()).unwrap();
/// assert_eq!(at_start.games, 3);
/// ```
pub fn frequent_positions(
    games: &[WthorGame],
    plies: u32,
    min_games: u32,
) -> HashMap<(u64, u64), u32> {
    let mut counts: HashMap<(u64, u64), u32> = HashMap::new();
    for game in games {
        let mut pos = Othello::new();
        for ply in 0..=plies as usize {
            let (p, o) = pos.discs();
            if legal_moves(p, o) == 0 {
                break;
            }
            *counts.entry(canonical(p, o).0).or_default() += 1;
            let Some(&sq) = game.moves.get(ply) else {
                break;
            };
            if pos.check_move(Move::Place(sq)).is_err() {
                break;
            }
            pos.play_unchecked(Move::Place(sq));
        }
    }
    counts.retain(|_, n| *n >= min_games);
    counts
}

/// The position of mover's discs `p` and opponent's `o`.
fn position(p: u64, o: u64) -> Othello {
    Othello::from_discs(p, o, true)
}

/// Every position one move out of `nodes` (canonical, sorted, once each): what
/// [`build`] searches.
pub fn frontier(nodes: &HashMap<(u64, u64), u32>) -> Vec<(u64, u64)> {
    let mut frontier: HashSet<(u64, u64)> = HashSet::new();
    for &(p, o) in nodes.keys() {
        for (_, key) in moves_and_children(p, o) {
            if !nodes.contains_key(&key) {
                frontier.insert(key);
            }
        }
    }
    let mut frontier: Vec<(u64, u64)> = frontier.into_iter().collect();
    frontier.sort_unstable();
    frontier
}

/// Builds the book of `nodes` (canonical positions with their games, as from
/// [`frequent_positions`]): each position of their [`frontier`] is valued by a
/// depth-`level` search with `model`, on `threads` threads (0: every core), the same
/// values on any number. `progress` hears of each batch of searches done;
/// [`frequent_positions`]' example builds one.
pub fn build(
    nodes: &HashMap<(u64, u64), u32>,
    frontier: Vec<(u64, u64)>,
    options: BookOptions,
    model: Arc<crate::engine::learned::PatternModel>,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Book, BookBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let limits = Limits::to_depth(options.level);
    // A searcher per chunk: its tables are worth making for a few hundred searches.
    let values: Vec<f64> = pool.install(|| {
        frontier
            .par_chunks(256)
            .flat_map_iter(|chunk| {
                let mut searcher = Searcher::new(model.clone());
                searcher.set_probcut(crate::engine::probcut::PROBCUT_DEFAULT);
                let values: Vec<f64> = chunk
                    .iter()
                    .map(|&(p, o)| {
                        // Each search as a new searcher's: what the chunk searched before
                        // must not change a value, or the book would depend on the chunks.
                        searcher.forget(false);
                        value_for_mover(&mut searcher, p, o, limits)
                    })
                    .collect();
                progress(chunk.len() as u64);
                values
            })
            .collect()
    });
    let leaf: HashMap<(u64, u64), f64> = frontier.into_iter().zip(values).collect();

    // Negamax from the deepest nodes up: a move adds a disc, so a node's children have
    // one more disc than it has.
    let mut order: Vec<(u64, u64)> = nodes.keys().copied().collect();
    order.sort_unstable_by_key(|&(p, o)| (std::cmp::Reverse((p | o).count_ones()), p, o));
    let mut valued: HashMap<(u64, u64), (f64, u8)> = HashMap::with_capacity(order.len());
    for &(p, o) in &order {
        let mut best: Option<(f64, u8)> = None;
        for (sq, key) in moves_and_children(p, o) {
            let theirs = match (valued.get(&key), leaf.get(&key)) {
                (Some(&(v, _)), _) | (None, Some(&v)) => v,
                (None, None) => {
                    return Err(BookBuildError::FrontierMisses);
                }
            };
            let value = -theirs;
            // Ties go to the lower square, whatever the order of the hash maps.
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, sq as u8));
            }
        }
        let best = best.expect("book positions have a move");
        valued.insert((p, o), best);
    }
    let mut entries: Vec<Entry> = valued
        .into_iter()
        .map(|((p, o), (value, best))| Entry {
            p,
            o,
            value: value as f32,
            games: nodes[&(p, o)],
            best,
        })
        .collect();
    entries.sort_unstable_by_key(|e| (e.p, e.o));
    Ok(Book { options, entries })
}

/// Each move of (`p`, `o`), in square order, with the canonical key of the position it
/// leads to.
fn moves_and_children(p: u64, o: u64) -> impl Iterator<Item = (u32, (u64, u64))> {
    crate::squares_of(legal_moves(p, o)).map(move |sq| {
        let sq = sq.index() as u32;
        let (cp, co) = child(p, o, sq);
        (sq, canonical(cp, co).0)
    })
}

/// The position after the mover of (`p`, `o`) plays `sq`, as (mover, opponent).
fn child(p: u64, o: u64, sq: u32) -> (u64, u64) {
    let flips = crate::rules::bits::flips(p, o, sq);
    (o & !flips, p | flips | (1 << sq))
}

/// The value of (`p`, `o`) for its mover: exact at the end, through a pass where the
/// mover has none, else the search's.
fn value_for_mover(searcher: &mut Searcher, p: u64, o: u64, limits: Limits) -> f64 {
    if legal_moves(p, o) == 0 {
        if legal_moves(o, p) == 0 {
            return f64::from(crate::engine::endgame::final_score(p, o));
        }
        return -searcher.search(&position(o, p), limits).score;
    }
    searcher.search(&position(p, o), limits).score
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` games that share their first moves in a few ways: each picks among the first
    /// `branching` legal moves for its first plies, then the first legal move.
    fn games(n: u64, branching: u64) -> Vec<WthorGame> {
        (0..n)
            .map(|g| {
                let mut pos = Othello::new();
                let mut moves = Vec::new();
                let mut state = g;
                while !pos.is_over() && moves.len() < 30 {
                    if pos.must_pass() {
                        pos.play_unchecked(Move::Pass);
                        continue;
                    }
                    let legal: Vec<Square> = crate::squares_of(pos.legal_mask()).collect();
                    let pick = if moves.len() < 6 {
                        let k = state % branching;
                        state /= branching;
                        k as usize % legal.len()
                    } else {
                        0
                    };
                    moves.push(legal[pick]);
                    pos.play_unchecked(Move::Place(legal[pick]));
                }
                WthorGame {
                    tournament: 0,
                    black_player: 0,
                    white_player: 0,
                    black_discs: 32,
                    black_theoretical: 32,
                    moves,
                }
            })
            .collect()
    }

    const OPTIONS: BookOptions = BookOptions {
        plies: 6,
        min_games: 3,
        level: 2,
    };

    fn small_book(threads: usize) -> Book {
        let nodes = frequent_positions(&games(200, 3), OPTIONS.plies, OPTIONS.min_games);
        let frontier = frontier(&nodes);
        build(
            &nodes,
            frontier,
            OPTIONS,
            crate::engine::learned::shipped(),
            threads,
            &|_| {},
        )
        .unwrap()
    }

    #[test]
    fn symmetric_positions_share_one_canonical_image_and_moves_turn_with_them() {
        let mut pos = Othello::new();
        for sq in ["f5", "f6", "e6", "f4"] {
            pos.play_unchecked(Move::Place(Square::parse(sq).unwrap()));
        }
        let (p, o) = pos.discs();
        let (key, _) = canonical(p, o);
        let (ps, os) = (images(p), images(o));
        for k in 0..8 {
            assert_eq!(canonical(ps[k], os[k]).0, key);
            for sq in 0..64u8 {
                // The move on `sq` of image k, turned back, is the move on its square.
                let there = images(1 << sq)[k].trailing_zeros() as u8;
                assert_eq!(
                    turned_back(there, k),
                    Move::Place(Square::from_index(sq.into()).unwrap())
                );
                assert_eq!(
                    legal_moves(p, o) >> sq & 1,
                    legal_moves(ps[k], os[k]) >> there & 1
                );
            }
        }
    }

    #[test]
    fn symmetric_openings_count_as_one_position() {
        // f5 and d3 are mirror images: the position after either is reached twice.
        let game = |first: &str| WthorGame {
            tournament: 0,
            black_player: 0,
            white_player: 0,
            black_discs: 32,
            black_theoretical: 32,
            moves: vec![Square::parse(first).unwrap()],
        };
        let counts = frequent_positions(&[game("f5"), game("d3")], 1, 1);
        let mut after = Othello::new();
        after.play_unchecked(Move::Place(Square::parse("c4").unwrap()));
        let (p, o) = after.discs();
        assert_eq!(counts[&canonical(p, o).0], 2);
        let start = Othello::new().discs();
        assert_eq!(counts[&canonical(start.0, start.1).0], 2);
        assert_eq!(counts.len(), 2);
        assert!(frequent_positions(&[game("f5"), game("d3")], 1, 3).is_empty());
    }

    #[test]
    fn each_value_is_the_best_of_its_moves_in_the_book_or_searched_out_of_it() {
        let book = small_book(1);
        assert!(book.len() > 10, "{} positions", book.len());
        let mut searched_some = false;
        for e in book.entries() {
            let mut best = f64::NEG_INFINITY;
            let mut best_square = 64;
            for sq in crate::squares_of(legal_moves(e.p, e.o)) {
                let (cp, co) = child(e.p, e.o, sq.index() as u32);
                let value = match book.get(cp, co) {
                    Some(child) => -f64::from(child.value),
                    None => {
                        searched_some = true;
                        let mut searcher = Searcher::new(crate::engine::learned::shipped());
                        searcher.set_probcut(crate::engine::probcut::PROBCUT_DEFAULT);
                        -value_for_mover(&mut searcher, cp, co, Limits::to_depth(OPTIONS.level))
                    }
                };
                if value > best {
                    (best, best_square) = (value, sq.index() as u8);
                }
            }
            assert_eq!(e.value, best as f32);
            assert_eq!(e.best, best_square);
            assert!(e.games >= OPTIONS.min_games);
        }
        assert!(searched_some);
    }

    #[test]
    fn the_book_does_not_depend_on_the_threads() {
        assert_eq!(small_book(1).to_bytes(), small_book(2).to_bytes());
    }

    #[test]
    fn every_image_of_a_book_position_gets_the_image_of_its_move() {
        let book = small_book(2);
        for e in book.entries() {
            let (ps, os) = (images(e.p), images(e.o));
            for k in 0..8 {
                // Either colour to move: the book is the mover's.
                let pos = if k % 2 == 0 {
                    Othello::from_discs(ps[k], os[k], true)
                } else {
                    Othello::from_discs(os[k], ps[k], false)
                };
                let hit = book.probe(&pos).expect("in the book");
                // The image of the entry's move, or (in a symmetric position) a move
                // to the same position.
                let Move::Place(sq) = hit.best else {
                    panic!("a pass from the book")
                };
                let (cp, co) = child(ps[k], os[k], sq.index() as u32);
                let (bp, bo) = child(e.p, e.o, e.best.into());
                assert_eq!(canonical(cp, co).0, canonical(bp, bo).0);
                assert_eq!(hit.value, f64::from(e.value));
                assert_eq!(hit.games, e.games);
                // The line is legal from the position and stays in the book but for its
                // last move.
                let mut line = pos.clone();
                for (i, &mv) in hit.line.iter().enumerate() {
                    line.check_move(mv).unwrap();
                    if i + 1 < hit.line.len() {
                        let (p, o) = line.discs();
                        assert!(book.get(p, o).is_some());
                    }
                    line.play_unchecked(mv);
                }
            }
        }
    }

    #[test]
    fn a_book_reads_back_and_a_damaged_one_says_what_is_wrong() {
        let book = small_book(2);
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.glbook");
        book.save(&path).unwrap();
        assert_eq!(Book::load(&path).unwrap(), book);
        assert!(
            Book::load(&dir.path().join("none"))
                .unwrap_err()
                .to_string()
                .contains("none")
        );

        let refused = |bytes: &[u8], message: &str| {
            let e = Book::from_bytes(bytes).unwrap_err().to_string();
            assert!(e.contains(message), "{e}");
        };
        refused(b"GLOPAT1\n", "does not start with");
        refused(&bytes[..bytes.len() - 1], "a book of");
        let entry = |i: usize, at: usize| HEADER + i * ENTRY + at;
        let mut nan = bytes.clone();
        nan[entry(0, 16)..entry(0, 20)].copy_from_slice(&f32::NAN.to_le_bytes());
        refused(&nan, "entry 1: the value NaN");
        let mut huge = bytes.clone();
        huge[entry(1, 16)..entry(1, 20)].copy_from_slice(&65f32.to_le_bytes());
        refused(&huge, "entry 2: the value 65");
        let mut illegal = bytes.clone();
        illegal[entry(0, 24)] = 0;
        refused(&illegal, "entry 1: the best move");
        let mut swapped = bytes.clone();
        let (a, b) = (entry(0, 0), entry(1, 0));
        let first: Vec<u8> = swapped[a..a + ENTRY].to_vec();
        swapped.copy_within(b..b + ENTRY, a);
        swapped[b..b + ENTRY].copy_from_slice(&first);
        refused(&swapped, "ascending order");
        let mut turned = bytes.clone();
        let e = book.entries()[0];
        let (ps, os) = (images(e.p), images(e.o));
        let k = (1..8).find(|&k| (ps[k], os[k]) != (e.p, e.o)).unwrap();
        turned[entry(0, 0)..entry(0, 8)].copy_from_slice(&ps[k].to_le_bytes());
        turned[entry(0, 8)..entry(0, 16)].copy_from_slice(&os[k].to_le_bytes());
        refused(&turned, "canonical orientation");
        let mut both = bytes.clone();
        both[entry(0, 8)..entry(0, 16)].copy_from_slice(&e.p.to_le_bytes());
        refused(&both, "both colours");
    }

    #[test]
    fn the_shipped_book_opens_from_the_start() {
        let book = shipped();
        assert!(book.len() > 1_000, "{} positions", book.len());
        let start = Othello::new();
        let hit = book.probe(&start).expect("the start is in the book");
        assert!(hit.line.len() >= 10, "{:?}", hit.line);
        assert!(hit.value.abs() < 8.0, "{}", hit.value);
        assert!(hit.games > 100_000, "{}", hit.games);
    }
}
