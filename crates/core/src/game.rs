use std::error::Error;
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::ops::{Deref, DerefMut};

use arrayvec::ArrayVec;

use crate::{GameRng, Outcome, Side};

/// A fixed-capacity list of moves, so that move generation allocates nothing.
///
/// Implemented for every [`ArrayVec`]; a game picks the capacity it needs.
pub trait MoveList<M>:
    Default + Clone + Debug + Deref<Target = [M]> + DerefMut + Send + Sync
{
    fn push(&mut self, mv: M);
    fn clear(&mut self);
}

impl<M: Clone + Debug + Send + Sync, const N: usize> MoveList<M> for ArrayVec<M, N> {
    #[inline]
    fn push(&mut self, mv: M) {
        ArrayVec::push(self, mv)
    }

    #[inline]
    fn clear(&mut self) {
        ArrayVec::clear(self)
    }
}

/// The rules of a two-player, turn-based game with perfect information: positions, legal
/// moves, playing and taking back, the result. A game knows nothing about AIs.
///
/// Reading and writing the game's notation is [`Notation`]; the optional hooks engines use
/// to go faster (symmetries, whole-game playouts, exhaustive modes) are [`EngineHooks`].
/// `Display` is the game's text form of the position.
///
/// [`Game::play`] checks the move and refuses an illegal one; [`Game::play_unchecked`],
/// for moves taken from `legal_moves` in search loops, does not (debug builds check).
pub trait Game: Clone + Debug + Display + Send + Sync + 'static {
    type Move: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static;
    type Moves: MoveList<Self::Move>;
    /// Why a move (typed by a user or read from a file) cannot be played here.
    type MoveError: Error + Send + Sync + 'static;

    /// Short lower-case name used on the command line and in files, e.g. `ttt`.
    const NAME: &'static str;

    /// The start position.
    fn start() -> Self;

    /// The side to move. After the game has ended this is the side that would move next.
    fn to_move(&self) -> Side;

    /// Number of moves played from the start position.
    fn ply(&self) -> usize;

    /// About how many moves the side to move still has to think about, to share a game
    /// clock's time among ([`crate::clock::Clock::move_time`]): a game's own estimate
    /// (the default, 20, suits no game in particular). Too few spends the time early and
    /// leaves the last moves short of it; too many leaves it on the clock.
    fn moves_to_plan(&self) -> u32 {
        20
    }

    /// Legal moves in the game's canonical order (results of tie-breaking AIs depend on it).
    /// Empty once the game is over.
    fn legal_moves(&self) -> Self::Moves;

    /// Plays a legal move without checking it: it must be one of `legal_moves()` (debug
    /// builds check). For search and playout loops; anything from outside goes through
    /// [`Game::play`].
    fn play_unchecked(&mut self, mv: Self::Move);

    /// Why `mv` cannot be played in this position, if it cannot.
    fn check_move(&self, mv: Self::Move) -> Result<(), Self::MoveError>;

    /// Plays a move after checking it; the position is unchanged on error.
    fn play(&mut self, mv: Self::Move) -> Result<(), Self::MoveError> {
        self.check_move(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Takes back the last move and returns it; `None` at the start position.
    fn undo(&mut self) -> Option<Self::Move>;

    /// The moves played so far, oldest first.
    fn history(&self) -> &[Self::Move];

    /// The result once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    #[inline]
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// A 64-bit key that identifies the position (equal keys ⇔ equal positions).
    fn key(&self) -> u64;

    /// A small number that identifies a move, stable across versions: used in digests and
    /// compact files.
    fn move_code(mv: Self::Move) -> u32;
}

/// What a game record says of a game beyond its moves: the players' names, first side
/// first, the event (or place) and the date, as a game database or a pasted record gives
/// them. Each part is optional; none is longer than [`GameHeaders::MAX_CHARS`].
///
/// ```
/// use gamelab_core::GameHeaders;
/// let headers = GameHeaders {
///     players: [Some("Tastet Marc".into()), None],
///     event: Some("Paris".into()),
///     date: Some("1990".into()),
/// };
/// assert!(headers.check().is_ok());
/// assert_eq!(headers.player_or(1, "human"), "human");
/// let pasted = GameHeaders { event: Some("Paris\nLyon".into()), ..headers };
/// assert_eq!(
///     pasted.check().unwrap_err().to_string(),
///     "the event holds a control character: expected one line of text"
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameHeaders {
    #[serde(default)]
    pub players: [Option<String>; 2],
    #[serde(default)]
    pub event: Option<String>,
    #[serde(default)]
    pub date: Option<String>,
}

impl GameHeaders {
    /// The longest name, event or date kept.
    pub const MAX_CHARS: usize = 200;

    /// Whether nothing is known beyond the moves.
    pub fn is_empty(&self) -> bool {
        self.players.iter().all(Option::is_none) && self.event.is_none() && self.date.is_none()
    }

    /// Side `index`'s name, or `otherwise` (say the seat's AI spec) when there is none.
    pub fn player_or<'a>(&'a self, index: usize, otherwise: &'a str) -> &'a str {
        self.players[index].as_deref().unwrap_or(otherwise)
    }

    /// Every part within [`GameHeaders::MAX_CHARS`] and free of control characters (a
    /// record's fields are one line each).
    pub fn check(&self) -> Result<(), HeadersError> {
        let parts = [
            ("the first player's name", &self.players[0]),
            ("the second player's name", &self.players[1]),
            ("the event", &self.event),
            ("the date", &self.date),
        ];
        for (part, text) in parts {
            let Some(text) = text else { continue };
            let chars = text.chars().count();
            if chars > Self::MAX_CHARS {
                return Err(HeadersError::TooLong { part, chars });
            }
            if text.chars().any(char::is_control) {
                return Err(HeadersError::ControlCharacter { part });
            }
        }
        Ok(())
    }
}

/// A part of [`GameHeaders`] that a record cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeadersError {
    #[error("{part} is {chars} characters long: expected at most {max}", max = GameHeaders::MAX_CHARS)]
    TooLong { part: &'static str, chars: usize },
    #[error("{part} holds a control character: expected one line of text")]
    ControlCharacter { part: &'static str },
}

/// Why squares set up one by one ([`Notation::from_cells`]) are not a position of the
/// game; `E` is the game's own [`Notation::PositionError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetUpError<E> {
    #[error("{game} cannot be set up square by square")]
    Unsupported { game: &'static str },
    #[error("{given} squares: expected {expected}, one for each square of the board")]
    Squares { given: usize, expected: usize },
    /// The squares make no position the game could reach.
    #[error(transparent)]
    Position(E),
}

/// Why records could not be written in, or read from, a game's own format
/// ([`Notation::write_record`], [`Notation::read_records`]).
#[derive(Clone, Debug, thiserror::Error)]
pub enum RecordFormatError {
    #[error("{game} has no record format of its own")]
    NoFormat { game: &'static str },
    /// The format's own error (Othello's is `gamelab_othello::ggf::GgfRecordError`), to
    /// downcast where its kind matters.
    #[error(transparent)]
    Format(std::sync::Arc<dyn Error + Send + Sync>),
}

impl RecordFormatError {
    /// The format's own error, kept whole.
    pub fn format(error: impl Error + Send + Sync + 'static) -> RecordFormatError {
        RecordFormatError::Format(std::sync::Arc::new(error))
    }
}

/// Two format errors are equal when they are of one kind and say the same: a format's
/// own error need not compare.
impl PartialEq for RecordFormatError {
    fn eq(&self, other: &RecordFormatError) -> bool {
        match (self, other) {
            (Self::NoFormat { game: a }, Self::NoFormat { game: b }) => a == b,
            (Self::Format(a), Self::Format(b)) => a.to_string() == b.to_string(),
            _ => false,
        }
    }
}

impl Eq for RecordFormatError {}

/// A game's notation: reading positions and moves as people and files write them, and the
/// words for its sides and results.
pub trait Notation: Game {
    /// Why a text does not describe a position of this game.
    type PositionError: Error + Send + Sync + 'static;

    /// Reads a position in the game's own notation (for tic-tac-toe a board string, the
    /// text form or a move list).
    fn parse_position(text: &str) -> Result<Self, Self::PositionError>;

    /// Reads a move in the game's notation and checks that it can be played here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;

    /// The game's word for a side, e.g. `o`/`x` or `black`/`white`.
    fn side_name(side: Side) -> &'static str;

    /// A short human description of an outcome, e.g. `o wins` or `draw`.
    fn describe_outcome(outcome: Outcome) -> String {
        match outcome {
            Outcome::Win(side) => format!("{} wins", Self::side_name(side)),
            Outcome::Draw => "draw".to_string(),
        }
    }

    /// One-line description of the notation `parse_move` reads, for prompts and errors.
    fn move_syntax() -> &'static str;

    /// The texts of the single moves in a line of moves: split at spaces, unless the
    /// game also writes its moves run together (Othello's transcripts, `f5d6c3`). Move
    /// numbers as books and other programs write them (`1.`, `12...`, `1.f5`) are left out.
    fn move_texts(line: &str) -> Vec<String> {
        line.split_whitespace()
            .filter_map(without_move_number)
            .map(String::from)
            .collect()
    }

    /// What a prompt offers as this position's moves: a reminder of how to type one,
    /// e.g. `x,y`, or, where they are few and short, the legal moves themselves.
    fn move_hint(&self) -> String;

    /// One-line description of the texts `parse_position` reads, for help and errors.
    fn position_syntax() -> &'static str;

    /// Whether [`Notation::from_cells`] sets positions up (a position editor offers it).
    const CAN_SET_UP: bool = false;

    /// A position set up square by square, as a position editor makes it: `cells` row by
    /// row, the side on each square or none, and the side to move. Refused, with the
    /// reason, where the game could not be in that position.
    ///
    /// ```
    /// use gamelab_core::{Notation, SetUpError, Side};
    /// use gamelab_ttt::{ParsePositionError, Position};
    ///
    /// let mut cells = [None; 9];
    /// cells[4] = Some(Side::First);
    /// let pos = Position::<gamelab_ttt::board::Bitboard>::from_cells(&cells, Side::Second);
    /// assert_eq!(pos.unwrap().to_string().lines().nth(2), Some(".O."));
    /// // With one o on the board, x is to move.
    /// assert!(matches!(
    ///     Position::<gamelab_ttt::board::Bitboard>::from_cells(&cells, Side::First),
    ///     Err(SetUpError::Position(ParsePositionError::Turn { o: 1, x: 0, .. }))
    /// ));
    /// ```
    fn from_cells(
        cells: &[Option<Side>],
        to_move: Side,
    ) -> Result<Self, SetUpError<Self::PositionError>> {
        let _ = (cells, to_move);
        Err(SetUpError::Unsupported { game: Self::NAME })
    }

    /// One move as people type it, which [`Notation::parse_move`] reads back (a front end
    /// shows moves so, and copies them so): by default as it displays.
    fn write_move(mv: Self::Move) -> String {
        mv.to_string()
    }

    /// The moves as people type them, one [`Notation::write_move`] each, spaces between
    /// (passes kept): a table's column, where a transcript's run-together form would hide
    /// them.
    fn write_moves_spaced(moves: &[Self::Move]) -> String {
        moves
            .iter()
            .map(|&m| Self::write_move(m))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A line of moves as people write them, which [`Notation::move_texts`] reads back: by
    /// default the moves separated by spaces.
    fn write_moves(moves: &[Self::Move]) -> String {
        moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A game from the start, in play or over, in the game's own format on one line (only
    /// for games with [`Notation::RECORD_EXTENSION`]), with what `headers` say of it.
    fn write_game(moves: &[Self::Move], headers: &GameHeaders) -> Option<String> {
        let _ = (moves, headers);
        None
    }

    /// What a whole game pasted in the game's own format says beyond its moves (players,
    /// event, date), for games with [`Notation::RECORD_EXTENSION`]; `None` for plain moves.
    fn read_headers(text: &str) -> Option<GameHeaders> {
        let _ = text;
        None
    }

    /// The file extension of the game's own format for whole games, when it has one that
    /// other programs read (Othello's GGF): records written to such a file are in it.
    const RECORD_EXTENSION: Option<&'static str> = None;

    /// A game record in that format, on one line (only for games with
    /// [`Notation::RECORD_EXTENSION`]).
    fn write_record(record: &crate::game_record::GameRecord) -> Result<String, RecordFormatError> {
        let _ = record;
        Err(RecordFormatError::NoFormat { game: Self::NAME })
    }

    /// Every game of a file in that format, as records numbered from 0 in file order
    /// (unless the file says otherwise); `name` is the source errors name.
    fn read_records(
        text: &str,
        name: &str,
    ) -> Result<Vec<crate::game_record::GameRecord>, RecordFormatError> {
        let _ = (text, name);
        Err(RecordFormatError::NoFormat { game: Self::NAME })
    }
}

/// What engines may ask of a game beyond its rules, each with a default that is always
/// right: symmetries for transposition tables, whole-game playouts for fast random
/// matches, and whether the whole tree can be walked.
pub trait EngineHooks: Game {
    /// Whether every position reachable from the start can be visited in memory, as the
    /// exact match mode does: tic-tac-toe's 5,478 can, Othello's cannot.
    const TREE_FITS_IN_MEMORY: bool = false;

    /// A key shared by all symmetric images of the position: the key of
    /// [`EngineHooks::canonical`].
    fn canonical_key(&self) -> u64 {
        self.canonical().0
    }

    /// The key of this position's symmetry class and the symmetry (an index the game
    /// defines, 0 the identity) that maps this position onto the class's canonical image.
    /// Games without symmetries keep the default: the plain key, the identity.
    fn canonical(&self) -> (u64, u8) {
        (self.key(), 0)
    }

    /// The image of `mv` under symmetry `sym` of [`EngineHooks::canonical`], or under its
    /// inverse.
    fn map_move(mv: Self::Move, sym: u8, inverse: bool) -> Self::Move {
        let _ = (sym, inverse);
        mv
    }

    /// Plays on from here to the end with each side choosing uniformly among the legal
    /// moves, as [`Agent::is_uniform_random`](crate::Agent::is_uniform_random) agents do,
    /// drawing from `rngs[side]`. Returns the outcome and the arena's hash of the moves
    /// ([`hash_move`](crate::arena::hash_move)).
    ///
    /// The default is the arena's plain loop. A game may override it with a loop that skips
    /// what a playout does not need (history, undo information, move lists), as long as it
    /// draws and plays exactly the same moves:
    /// [`check_uniform_playout`](crate::arena::check_uniform_playout) tests that.
    fn uniform_playout(&self, rngs: &mut [GameRng; 2]) -> (Outcome, u64) {
        crate::arena::plain_uniform_playout(self, rngs)
    }

    /// [`EngineHooks::uniform_playout`] for several games from here at once (at most
    /// [`PLAYOUT_BATCH`](crate::arena::PLAYOUT_BATCH)): game `i` draws from `rngs[i]` and
    /// its result goes to `results[i]`. A game whose moves form one long chain of
    /// dependent steps (Othello) can interleave the games, so that the processor works on
    /// several chains at once; the default plays them one after another.
    fn uniform_playouts(&self, rngs: &mut [[GameRng; 2]], results: &mut [(Outcome, u64)]) {
        for (streams, result) in rngs.iter_mut().zip(results) {
            *result = self.uniform_playout(streams);
        }
    }
}

/// A word of a line of moves without the move number before it (`1.`, `12...`): `None`
/// when the word is a move number alone.
///
/// ```
/// use gamelab_core::without_move_number;
/// assert_eq!(without_move_number("1."), None);
/// assert_eq!(without_move_number("12..."), None);
/// assert_eq!(without_move_number("1.f5"), Some("f5"));
/// assert_eq!(without_move_number("f5"), Some("f5"));
/// assert_eq!(without_move_number("1,1"), Some("1,1"));
/// ```
pub fn without_move_number(word: &str) -> Option<&str> {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &word[digits..];
    let dots = rest.len() - rest.trim_start_matches('.').len();
    match (digits, dots) {
        (0, _) | (_, 0) => Some(word),
        _ if dots == rest.len() => None,
        _ => Some(&rest[dots..]),
    }
}
