use std::fmt;

use arrayvec::ArrayVec;
use gamelab_core::arena::hash_move;
use gamelab_core::{Game, GameRng, Outcome, Side, mix64};
use thiserror::Error;

use crate::rules::bits;
use crate::rules::kernel::Kernel;

/// A square, `a1` … `h8`: bit 8·rank + file.
///
/// ```
/// use gamelab_othello::Square;
///
/// let d3 = Square::parse("d3").unwrap();
/// assert_eq!(d3.index(), 2 * 8 + 3);
/// assert_eq!(d3.bit(), 1 << 19);
/// assert_eq!(Square::from_index(19), Some(d3));
/// assert_eq!(d3.to_string(), "d3");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square of bit `i`, `None` from 64 up.
    ///
    /// ```
    /// use gamelab_othello::Square;
    ///
    /// assert_eq!(Square::from_index(63).unwrap().to_string(), "h8");
    /// assert_eq!(Square::from_index(64), None);
    /// ```
    pub fn from_index(i: usize) -> Option<Square> {
        (i < 64).then_some(Square(i as u8))
    }

    /// Its bit's index, 0 (`a1`) to 63 (`h8`).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Its bit in a bitboard.
    pub fn bit(self) -> u64 {
        1 << self.0
    }

    /// Reads `d3` (either case, surrounding blanks ignored); `None` for anything else.
    ///
    /// ```
    /// use gamelab_othello::Square;
    ///
    /// assert_eq!(Square::parse(" H8 "), Square::from_index(63));
    /// assert_eq!(Square::parse("i1"), None);
    /// assert_eq!(Square::parse("d"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.trim().as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        (file < 8 && rank < 8).then(|| Square(rank * 8 + file))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.0 % 8) as char, self.0 / 8 + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A move: a disc on a square, or a pass when the side to move has no square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    Place(Square),
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a move or a position cannot be read or played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OthelloError {
    #[error("`{0}` is not a move: type a square like d3 (file a–h, rank 1–8), or `pass`")]
    Syntax(String),
    #[error("{square} is not a legal move here; legal: {legal}")]
    Illegal { square: Square, legal: String },
    #[error("you cannot pass while you have moves: {0}")]
    CannotPass(String),
    #[error("the game is over ({0}): no more moves")]
    GameOver(String),
    #[error(
        "a board string has 64 squares (`X` black, `O` white, `-` empty, a1…h1, a2…h8) then the side to move `X` or `O`; {0}"
    )]
    BoardString(String),
    #[error("a move transcript (squares from the start, like f5d6c3) that does not read: {0}")]
    Transcript(String),
    #[error("a GGF game that does not read: {0}")]
    Ggf(String),
    #[error(
        "the four centre squares d4, e4, d5 and e5 must hold discs (every Othello position has them)"
    )]
    CentreEmpty,
    #[error("{0} would hold both a black and a white disc: a square holds one disc at most")]
    BothColours(String),
}

/// Moves of one position: at most 33 legal squares are known in Othello; 64 is safe.
pub type Moves = ArrayVec<Move, 64>;

/// An Othello position: the side to move's discs and the opponent's as bitboards, with
/// the moves that led to it (to take them back).
///
/// ```
/// use gamelab_core::Game;
/// use gamelab_othello::{Move, Othello, Square};
///
/// let mut pos = Othello::new();
/// assert_eq!(pos.legal_moves().len(), 4);
/// pos.play(Move::Place(Square::parse("f5").unwrap())).unwrap();
/// assert_eq!(pos.counts(), (4, 1));
/// assert!(pos.play(Move::Place(Square::parse("a1").unwrap())).is_err());
/// ```
#[derive(Clone)]
pub struct Othello {
    player: u64,
    opponent: u64,
    black_to_move: bool,
    /// Legal squares of the side to move.
    legal: u64,
    over: bool,
    /// The moves played, and beside them the discs each flipped (for `undo`).
    history: ArrayVec<Move, 128>,
    flipped: ArrayVec<u64, 128>,
}

const START_BLACK: u64 = 1 << 35 | 1 << 28; // d5, e4
const START_WHITE: u64 = 1 << 27 | 1 << 36; // d4, e5

impl Othello {
    /// The standard start: d5 and e4 black, d4 and e5 white, black to move.
    ///
    /// ```
    /// use gamelab_othello::Othello;
    ///
    /// let start = Othello::new();
    /// assert!(start.black_to_move());
    /// assert_eq!((start.empties(), start.counts()), (60, (2, 2)));
    /// ```
    pub fn new() -> Othello {
        Othello::from_discs(START_BLACK, START_WHITE, true)
    }

    /// A position from black's and white's discs and the side to move, checked: no
    /// square in both, and the four centre squares filled. Use this for discs read
    /// from outside the program.
    ///
    /// ```
    /// use gamelab_othello::{Othello, OthelloError};
    ///
    /// let start = Othello::new();
    /// let white_first = Othello::try_from_discs(start.black(), start.white(), false)?;
    /// assert_eq!(white_first.discs(), (start.white(), start.black()));
    ///
    /// // d4 (bit 27) in both colours, and an empty centre: each an error.
    /// let err = Othello::try_from_discs(start.black() | 1 << 27, start.white(), true);
    /// assert_eq!(err.unwrap_err().to_string(),
    ///     "d4 would hold both a black and a white disc: a square holds one disc at most");
    /// let err = Othello::try_from_discs(0, 0, true);
    /// assert_eq!(err.unwrap_err(), OthelloError::CentreEmpty);
    /// # Ok::<(), OthelloError>(())
    /// ```
    pub fn try_from_discs(
        black: u64,
        white: u64,
        black_to_move: bool,
    ) -> Result<Othello, OthelloError> {
        let both = black & white;
        if both != 0 {
            let squares: Vec<String> = squares_of(both).map(|sq| sq.to_string()).collect();
            return Err(OthelloError::BothColours(squares.join(", ")));
        }
        if (black | white) & CENTRE != CENTRE {
            return Err(OthelloError::CentreEmpty);
        }
        Ok(Othello::from_discs(black, white, black_to_move))
    }

    /// A position from black's and white's discs and the side to move, unchecked: the
    /// caller's discs have no square in both (debug builds assert it). For discs from
    /// outside the program, [`Othello::try_from_discs`].
    ///
    /// ```
    /// use gamelab_othello::Othello;
    ///
    /// let start = Othello::new();
    /// let white_first = Othello::from_discs(start.black(), start.white(), false);
    /// assert_eq!(white_first.discs(), (start.white(), start.black()));
    /// ```
    pub fn from_discs(black: u64, white: u64, black_to_move: bool) -> Othello {
        debug_assert_eq!(black & white, 0, "a square in both colours");
        let (player, opponent) = if black_to_move {
            (black, white)
        } else {
            (white, black)
        };
        let mut pos = Othello {
            player,
            opponent,
            black_to_move,
            legal: 0,
            over: false,
            history: ArrayVec::new(),
            flipped: ArrayVec::new(),
        };
        pos.refresh();
        pos
    }

    fn refresh(&mut self) {
        self.legal = bits::legal_moves(self.player, self.opponent);
        self.over = self.legal == 0 && bits::legal_moves(self.opponent, self.player) == 0;
    }

    /// Black's discs.
    pub fn black(&self) -> u64 {
        if self.black_to_move {
            self.player
        } else {
            self.opponent
        }
    }

    /// White's discs.
    pub fn white(&self) -> u64 {
        if self.black_to_move {
            self.opponent
        } else {
            self.player
        }
    }

    /// The side to move's discs and the opponent's.
    pub fn discs(&self) -> (u64, u64) {
        (self.player, self.opponent)
    }

    /// Whether black is the side to move.
    pub fn black_to_move(&self) -> bool {
        self.black_to_move
    }

    /// Legal squares of the side to move as a mask (empty: it must pass, or the game is over).
    ///
    /// ```
    /// use gamelab_othello::{Othello, Square};
    ///
    /// let d3_c4_f5_e6 = ["d3", "c4", "f5", "e6"].map(|s| Square::parse(s).unwrap().bit());
    /// assert_eq!(Othello::new().legal_mask(), d3_c4_f5_e6.iter().sum::<u64>());
    /// ```
    pub fn legal_mask(&self) -> u64 {
        self.legal
    }

    /// Empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }

    /// Discs a move on `sq` would flip (0 when it is no move).
    ///
    /// ```
    /// use gamelab_othello::{Othello, Square};
    ///
    /// let start = Othello::new();
    /// assert_eq!(start.flip_count(Square::parse("d3").unwrap()), 1);
    /// assert_eq!(start.flip_count(Square::parse("a1").unwrap()), 0);
    /// ```
    pub fn flip_count(&self, sq: Square) -> u32 {
        bits::flips(self.player, self.opponent, sq.index() as u32).count_ones()
    }

    /// Neither side has a move.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The side to move has no move but the game goes on: its only move is to pass.
    ///
    /// ```
    /// use gamelab_othello::{Move, Othello};
    ///
    /// // Every square black's but g7 (white's), g8 and h8 (empty), white to move: white
    /// // has no move, black has two.
    /// let mut pos = Othello::from_board_string(
    ///     "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXX-- O",
    /// )
    /// .unwrap();
    /// assert!(pos.must_pass() && !pos.is_over());
    /// pos.play_unchecked(Move::Pass);
    /// assert!(pos.black_to_move());
    /// assert_eq!(pos.legal_mask().count_ones(), 2);
    /// ```
    pub fn must_pass(&self) -> bool {
        self.legal == 0 && !self.over
    }

    /// Plays a legal move; an illegal one leaves a position no game reaches (debug builds
    /// panic). [`Game::play`] checks it first.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        let flipped = match mv {
            Move::Place(sq) => {
                debug_assert!(self.legal & sq.bit() != 0, "illegal {mv}\n{self}");
                let f = bits::flips(self.player, self.opponent, sq.index() as u32);
                self.player |= f | sq.bit();
                self.opponent &= !f;
                f
            }
            Move::Pass => {
                debug_assert!(self.legal == 0 && !self.over, "pass with moves\n{self}");
                0
            }
        };
        std::mem::swap(&mut self.player, &mut self.opponent);
        self.black_to_move = !self.black_to_move;
        self.history.push(mv);
        self.flipped.push(flipped);
        self.refresh();
    }

    /// Plays the pass the side to move is forced to before `mv`, when `mv` is a square
    /// and that side has no move (game records and transcripts leave such passes out);
    /// whether it did.
    pub fn pass_if_forced(&mut self, mv: Move) -> bool {
        let forced = matches!(mv, Move::Place(_)) && self.legal == 0 && !self.over;
        if forced {
            self.play_unchecked(Move::Pass);
        }
        forced
    }

    /// Takes back the last move, which it returns; `None` when no move was played.
    ///
    /// ```
    /// use gamelab_othello::{Move, Othello, Square};
    ///
    /// let mut pos = Othello::new();
    /// let f5 = Move::Place(Square::parse("f5").unwrap());
    /// pos.play_unchecked(f5);
    /// assert_eq!(pos.undo(), Some(f5));
    /// assert_eq!(pos.board_string(), Othello::new().board_string());
    /// assert_eq!(pos.undo(), None);
    /// ```
    #[inline]
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.history.pop()?;
        let flipped = self.flipped.pop().expect("one flip mask per move");
        std::mem::swap(&mut self.player, &mut self.opponent);
        self.black_to_move = !self.black_to_move;
        if let Move::Place(sq) = mv {
            self.player &= !(flipped | sq.bit());
            self.opponent |= flipped;
        }
        self.refresh();
        Some(mv)
    }

    /// Disc counts (black, white).
    pub fn counts(&self) -> (u32, u32) {
        (self.black().count_ones(), self.white().count_ones())
    }

    /// 64 characters a1…h1, a2…h8 (`X` black, `O` white, `-` empty), a space, and the side
    /// to move — the format of the FFO files.
    ///
    /// ```
    /// use gamelab_othello::Othello;
    ///
    /// let start = Othello::new().board_string();
    /// // Ranks 4 and 5: d4 white, e4 black; d5 black, e5 white.
    /// assert_eq!(&start[24..40], "---OX------XO---");
    /// assert!(start.ends_with(" X"));
    /// ```
    pub fn board_string(&self) -> String {
        let (b, w) = (self.black(), self.white());
        let squares: String = (0..64)
            .map(|i| {
                if b >> i & 1 != 0 {
                    'X'
                } else if w >> i & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        format!("{squares} {}", if self.black_to_move { 'X' } else { 'O' })
    }

    /// Reads a board string (see [`Othello::board_string`]); an OBF line (`…; moves`) is
    /// read up to its `;`. The error says what is wrong and what a board string is.
    ///
    /// ```
    /// use gamelab_othello::Othello;
    ///
    /// let start = Othello::new().board_string();
    /// let read = Othello::from_board_string(&format!("{start}; f5d6")).unwrap();
    /// assert_eq!(read.board_string(), start);
    /// let err = Othello::from_board_string("---X").unwrap_err();
    /// assert!(err.to_string().ends_with("got 4 squares"));
    /// ```
    pub fn from_board_string(text: &str) -> Result<Othello, OthelloError> {
        let text = text.split(';').next().unwrap_or("").trim();
        let err = |m: String| OthelloError::BoardString(m);
        let mut parts = text.split_whitespace();
        let mut squares = parts.next().ok_or_else(|| err("got nothing".into()))?;
        // The side to move may follow the squares without a space (`…---X`), as some
        // programs write it.
        let attached = match squares.char_indices().nth(64) {
            Some((at, _)) if squares.chars().count() == 65 => {
                let side = &squares[at..];
                squares = &squares[..at];
                Some(side)
            }
            _ => None,
        };
        if squares.chars().count() != 64 {
            return Err(err(format!("got {} squares", squares.chars().count())));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in squares.chars().enumerate() {
            match c {
                'X' | 'x' | '*' => black |= 1 << i,
                'O' | 'o' => white |= 1 << i,
                '-' | '.' => {}
                other => return Err(err(format!("`{other}` at square {i} is not X, O or -"))),
            }
        }
        let black_to_move = match attached.or_else(|| parts.next()) {
            Some("X" | "x" | "*" | "B" | "b") => true,
            Some("O" | "o" | "W" | "w") => false,
            Some(other) => return Err(err(format!("`{other}` is not a side"))),
            None => return Err(err("the side to move is missing".into())),
        };
        // A board string cannot put a square in both colours: only the centre can fail.
        Othello::try_from_discs(black, white, black_to_move).map_err(|e| err(e.to_string()))
    }

    pub(crate) fn legal_list(&self) -> String {
        let moves: Vec<String> = squares_of(self.legal).map(|s| s.to_string()).collect();
        moves.join(" ")
    }

    fn result_text(&self) -> String {
        let (b, w) = self.counts();
        format!("black {b}, white {w}")
    }
}

/// Every Othello position grows from the four centre discs, which never go away.
pub(crate) const CENTRE: u64 = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);

impl Default for Othello {
    fn default() -> Self {
        Othello::new()
    }
}

/// The squares of a mask, a1 first.
pub fn squares_of(mut mask: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros();
            mask &= mask - 1;
            Square(i as u8)
        })
    })
}

/// The final score for the side to move: disc difference, the empty squares going to the
/// winner (the FFO convention).
#[inline]
pub(crate) fn final_score(p: u64, o: u64) -> i32 {
    let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
    let empties = 64 - np - no;
    match np.cmp(&no) {
        std::cmp::Ordering::Greater => np - no + empties,
        std::cmp::Ordering::Less => np - no - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

impl fmt::Debug for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Othello({})", self.board_string())
    }
}

/// The board with coordinates; `*` marks the side to move's legal squares.
impl fmt::Display for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (b, w) = (self.black(), self.white());
        // The last move's disc in lower case, as tic-tac-toe and Connect Four mark theirs
        // (in upper case among lower-case marks).
        let last_move = self.history.last();
        let last = match last_move {
            Some(Move::Place(square)) => Some(square.bit()),
            _ => None,
        };
        writeln!(f, "  a b c d e f g h")?;
        for rank in 0..8 {
            write!(f, "{}", rank + 1)?;
            for file in 0..8 {
                let bit = 1u64 << (rank * 8 + file);
                let c = if b & bit != 0 {
                    'X'
                } else if w & bit != 0 {
                    'O'
                } else if self.legal & bit != 0 && !self.over {
                    '*'
                } else {
                    '-'
                };
                let c = if last == Some(bit) {
                    c.to_ascii_lowercase()
                } else {
                    c
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        let (nb, nw) = self.counts();
        if self.over {
            let verdict = match nb.cmp(&nw) {
                std::cmp::Ordering::Greater => "black wins",
                std::cmp::Ordering::Less => "white wins",
                std::cmp::Ordering::Equal => "draw",
            };
            write!(f, "game over: black (X) {nb}, white (O) {nw}: {verdict}")
        } else {
            let side = if self.black_to_move {
                "black (X)"
            } else {
                "white (O)"
            };
            let must_pass = if self.legal == 0 {
                ", who must pass"
            } else {
                ""
            };
            write!(f, "{side} to move{must_pass}; black {nb}, white {nw}")?;
            match last_move {
                Some(Move::Place(square)) => write!(f, "; last move {square} (lower case)"),
                Some(Move::Pass) => write!(f, "; the last move was a pass"),
                None => Ok(()),
            }
        }
    }
}

/// The 64-bit key of (black, white, side): a strong hash of the 129 bits of state.
#[inline]
fn key_of(black: u64, white: u64, black_to_move: bool) -> u64 {
    mix64(black ^ mix64(white ^ u64::from(black_to_move)))
}

/// Games played at once by [`playouts`].
pub(crate) const LANES: usize = 4;

/// One random game in progress.
#[derive(Clone, Copy)]
struct Lane {
    p: u64,
    o: u64,
    black_to_move: bool,
    legal: u64,
    hash: u64,
    over: bool,
}

/// Game `game` of `seed` played at random until `empties` are left (or it ends): the
/// positions the probcut digest and the endgame's tests are made of.
pub(crate) fn played_at_random(seed: u64, game: u64, empties: u32) -> Othello {
    let mut rng = gamelab_core::game_rng(seed, game, gamelab_core::Side::First);
    let mut pos = Othello::new();
    while pos.empties() > empties && !pos.is_over() {
        let moves = gamelab_core::Game::legal_moves(&pos);
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    pos
}

/// Up to [`LANES`] random games from `start`, a move of each in turn; compiled into each
/// build of the kernels (`crate::engine::builds`).
#[inline(always)]
pub(crate) fn playouts(
    k: impl Kernel,
    start: &Othello,
    rngs: &mut [[GameRng; 2]],
    results: &mut [(Outcome, u64)],
) {
    let games = rngs.len().min(LANES);
    let mut lanes = [Lane {
        p: start.player,
        o: start.opponent,
        black_to_move: start.black_to_move,
        legal: start.legal,
        hash: 0,
        over: true,
    }; LANES];
    for lane in &mut lanes[..games] {
        lane.over = false;
    }
    let mut playing = games;
    while playing > 0 {
        for (lane, streams) in lanes.iter_mut().zip(rngs.iter_mut()) {
            if lane.over {
                continue;
            }
            let (p, o) = (lane.p, lane.o);
            if lane.legal == 0 {
                let theirs = k.legal_moves(o, p);
                if theirs == 0 {
                    lane.over = true;
                    playing -= 1;
                    continue;
                }
                lane.hash = hash_move(lane.hash, Othello::move_code(Move::Pass));
                lane.legal = theirs;
                (lane.p, lane.o) = (o, p);
            } else {
                let n = lane.legal.count_ones();
                let sq = if n == 1 {
                    lane.legal.trailing_zeros()
                } else {
                    let side = usize::from(!lane.black_to_move);
                    k.nth_set_bit(lane.legal, streams[side].below(n as usize) as u32)
                };
                lane.hash = hash_move(lane.hash, sq);
                let flipped = k.flips(p, o, sq);
                let (mover, other) = (p | flipped | 1 << sq, o & !flipped);
                lane.legal = k.legal_moves(other, mover);
                (lane.p, lane.o) = (other, mover);
            }
            lane.black_to_move = !lane.black_to_move;
        }
    }
    for (lane, result) in lanes.iter().zip(results.iter_mut()) {
        let (black, white) = if lane.black_to_move {
            (lane.p, lane.o)
        } else {
            (lane.o, lane.p)
        };
        *result = (outcome_of(black, white), lane.hash);
    }
}

/// The result of a finished game with these discs: more discs wins.
fn outcome_of(black: u64, white: u64) -> Outcome {
    match black.count_ones().cmp(&white.count_ones()) {
        std::cmp::Ordering::Greater => Outcome::Win(Side::First),
        std::cmp::Ordering::Less => Outcome::Win(Side::Second),
        std::cmp::Ordering::Equal => Outcome::Draw,
    }
}

impl Game for Othello {
    type Move = Move;
    type Moves = Moves;
    type MoveError = OthelloError;

    const NAME: &'static str = "othello";

    fn start() -> Self {
        Othello::new()
    }

    fn to_move(&self) -> Side {
        if self.black_to_move {
            Side::First
        } else {
            Side::Second
        }
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    /// Half the empty squares down to 14, below which an exact search plays at once
    /// (the engine solves from 16 to 26 empties as its time allows), and two held back,
    /// so that the last share is never more than half of what is left. With solves that
    /// stop at their deadline, tried also where a midgame search reached the end early,
    /// a GTP game on 60 s a side used 39.6–42.1 s (36.7–37.6 counting down to 10 empties
    /// without those solves), and no game of 100 was lost on time at 0.5 s a side;
    /// holding back one lost one there, a move taking 132.6 ms with 131.5 ms on the clock
    /// (RESULTS.md, "On a game clock").
    fn moves_to_plan(&self) -> u32 {
        self.empties().saturating_sub(14).div_ceil(2) + 2
    }

    #[inline]
    fn legal_moves(&self) -> Moves {
        let mut moves = Moves::new();
        if self.over {
            return moves;
        }
        if self.legal == 0 {
            moves.push(Move::Pass);
        } else {
            moves.extend(squares_of(self.legal).map(Move::Place));
        }
        moves
    }

    fn play_unchecked(&mut self, mv: Move) {
        Othello::play_unchecked(self, mv)
    }

    fn undo(&mut self) -> Option<Move> {
        Othello::undo(self)
    }

    fn history(&self) -> &[Move] {
        &self.history
    }

    fn outcome(&self) -> Option<Outcome> {
        self.over.then(|| outcome_of(self.black(), self.white()))
    }

    fn key(&self) -> u64 {
        key_of(self.black(), self.white(), self.black_to_move)
    }

    fn check_move(&self, mv: Move) -> Result<(), OthelloError> {
        if self.over {
            return Err(OthelloError::GameOver(self.result_text()));
        }
        match mv {
            Move::Place(sq) if self.legal & sq.bit() != 0 => Ok(()),
            Move::Place(sq) if self.legal == 0 => Err(OthelloError::Illegal {
                square: sq,
                legal: "none: you must pass".into(),
            }),
            Move::Place(sq) => Err(OthelloError::Illegal {
                square: sq,
                legal: self.legal_list(),
            }),
            Move::Pass if self.legal == 0 => Ok(()),
            Move::Pass => Err(OthelloError::CannotPass(self.legal_list())),
        }
    }

    fn move_code(mv: Move) -> u32 {
        match mv {
            Move::Place(sq) => sq.index() as u32,
            Move::Pass => 64,
        }
    }
}

impl Othello {
    /// The key of the position's symmetry class and the symmetry that maps it there
    /// (`EngineHooks::canonical`).
    pub(crate) fn canonical_image(&self) -> (u64, u8) {
        let (b, w) = (bits::images(self.black()), bits::images(self.white()));
        (0..8)
            .map(|i| (key_of(b[i], w[i], self.black_to_move), i as u8))
            .min()
            .expect("8 images")
    }

    /// The image of `mv` under symmetry `sym`, or its inverse (`EngineHooks::map_move`).
    pub(crate) fn map_move_image(mv: Move, sym: u8, inverse: bool) -> Move {
        match mv {
            Move::Pass => Move::Pass,
            Move::Place(sq) => {
                let s = if inverse {
                    bits::INVERSE_IMAGE[sym as usize]
                } else {
                    sym
                };
                let image = bits::images(sq.bit())[s as usize];
                Move::Place(Square(image.trailing_zeros() as u8))
            }
        }
    }
}
