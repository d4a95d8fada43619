//! Reading squares, board strings and move lists typed by users or stored in files.

use std::str::FromStr;

use thiserror::Error;

use crate::board::Board;
use crate::board::has_line;
use crate::{MoveError, Player, Position, Square};

/// Reads a square written `x,y`, `(x, y)` or `x y`.
pub fn parse_square(text: &str) -> Result<Square, MoveError> {
    let syntax = || MoveError::Syntax {
        input: text.trim().to_string(),
    };
    let inner = text.trim();
    let inner = inner
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or(inner);
    let mut parts = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty());
    let (Some(xs), Some(ys), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(syntax());
    };
    let (Ok(x), Ok(y)) = (xs.parse::<usize>(), ys.parse::<usize>()) else {
        return Err(syntax());
    };
    Square::from_xy(x, y).ok_or(MoveError::OffBoard { x, y })
}

/// Why a board string or a move list does not describe a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParsePositionError {
    #[error("a board string has 9 squares (`.`, `o`, `x`, row by row, e.g. `o.x.o..x.`); got {0}")]
    Length(usize),
    #[error(
        "`{ch}` at square {index} is not a mark: use `.` for empty, `o` and `x` for marks (upper case for the last move)"
    )]
    BadChar { ch: char, index: usize },
    #[error(
        "o has {o} marks and x has {x}: o moves first, so o must have as many marks as x or one more"
    )]
    MarkCounts { o: usize, x: usize },
    #[error("with {o} o and {x} x on the board, {to_move} is to move (o moves first)")]
    Turn { o: usize, x: usize, to_move: Player },
    #[error("both o and x have a full line; a game ends at the first one")]
    BothWin,
    #[error(
        "{winner} has a full line but {last} moved last; the winner must have made the last move"
    )]
    WinnerDidNotMoveLast { winner: Player, last: Player },
    #[error(
        "{0} has full lines that no single last move completes; the game would have ended earlier"
    )]
    NoLastMove(Player),
    #[error("more than one upper-case mark; only the last move is written in upper case")]
    SeveralLastMoves,
    #[error("the upper-case mark at {square} is {mark}'s, but {last} moved last")]
    LastMoveWrongPlayer {
        square: Square,
        mark: Player,
        last: Player,
    },
    #[error("{0} cannot be the last move: the game was already won without it")]
    LastMoveTooLate(Square),
    #[error("the first line `{0}` is neither `Turn o|x` nor `winner o|x|draw`")]
    BadHeader(String),
    #[error("the header says `{header}` but the board says `{actual}`")]
    HeaderMismatch { header: String, actual: String },
    #[error("move {number} `{token}`: {error}")]
    Move {
        number: usize,
        token: String,
        error: MoveError,
    },
}

impl<B: Board> Position<B> {
    /// Reads a 9-character board string (`.ox`, row by row; whitespace, `/` and `|` are
    /// ignored). An upper-case mark names the last move.
    ///
    /// The board must be reachable in play. The move order it is given is one valid order
    /// (o and x in y-major order, the last move last), which is what `undo` walks back.
    pub fn from_board_str(text: &str) -> Result<Self, ParsePositionError> {
        let chars: Vec<char> = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '/' && *c != '|')
            .collect();
        if chars.len() != 9 {
            return Err(ParsePositionError::Length(chars.len()));
        }
        let mut masks = [0u16; 2];
        let mut upper = None;
        for (index, &ch) in chars.iter().enumerate() {
            let sq = Square::ALL[index];
            let player = match ch {
                '.' => continue,
                'o' | 'O' => Player::O,
                'x' | 'X' => Player::X,
                _ => return Err(ParsePositionError::BadChar { ch, index }),
            };
            masks[player.index()] |= sq.bit();
            if ch.is_ascii_uppercase() {
                if upper.is_some() {
                    return Err(ParsePositionError::SeveralLastMoves);
                }
                upper = Some((sq, player));
            }
        }
        let order = move_order(masks, upper)?;
        let mut pos = Position::new();
        for sq in order {
            pos.play_unchecked(sq);
        }
        Ok(pos)
    }

    /// Plays a list of moves from the start: `x,y` squares (`1,1 0,0 2,2`), `(x, y)`
    /// squares, or square numbers 0–8 row by row (`408` or `4 0 8`), separated by spaces,
    /// commas between pairs or `;`.
    pub fn from_moves(text: &str) -> Result<Self, ParsePositionError> {
        let mut pos = Position::new();
        for (i, token) in move_tokens(text).into_iter().enumerate() {
            let err = |error| ParsePositionError::Move {
                number: i + 1,
                token: token.clone(),
                error,
            };
            let squares: Vec<Square> = if token.contains(',') {
                vec![parse_square(&token).map_err(err)?]
            } else {
                token
                    .chars()
                    .map(|c| {
                        c.to_digit(10)
                            .and_then(|d| Square::from_index(d as usize))
                            .ok_or_else(|| {
                                err(MoveError::Syntax {
                                    input: token.clone(),
                                })
                            })
                    })
                    .collect::<Result<_, _>>()?
            };
            for sq in squares {
                pos.check(sq).map_err(err)?;
                pos.play_unchecked(sq);
            }
        }
        Ok(pos)
    }
}

/// Splits a move list into tokens, keeping `x, y` and `(x, y)` pairs together.
fn move_tokens(text: &str) -> Vec<String> {
    let mut normalised = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' | ')' => normalised.push(' '),
            ';' => normalised.push(' '),
            ',' => {
                // "1, 1" is one square: drop the blanks after a comma.
                normalised.push(',');
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
            }
            c => normalised.push(c),
        }
    }
    normalised.split_whitespace().map(str::to_string).collect()
}

/// A move order that reaches `masks` in play, ending with `upper` when given.
fn move_order(
    masks: [u16; 2],
    upper: Option<(Square, Player)>,
) -> Result<Vec<Square>, ParsePositionError> {
    let (o, x) = (
        masks[0].count_ones() as usize,
        masks[1].count_ones() as usize,
    );
    if o != x && o != x + 1 {
        return Err(ParsePositionError::MarkCounts { o, x });
    }
    let last_player = if o == x { Player::X } else { Player::O };
    let winners: Vec<Player> = [Player::O, Player::X]
        .into_iter()
        .filter(|p| has_line(masks[p.index()]))
        .collect();
    match winners[..] {
        [] => {}
        [w] if w == last_player => {}
        [w] => {
            return Err(ParsePositionError::WinnerDidNotMoveLast {
                winner: w,
                last: last_player,
            });
        }
        _ => return Err(ParsePositionError::BothWin),
    }
    let own = masks[last_player.index()];
    // The last move must be one whose removal leaves a position where play went on.
    let can_be_last = |sq: Square| !has_line(own & !sq.bit());
    let last = match upper {
        Some((sq, mark)) if mark != last_player => {
            return Err(ParsePositionError::LastMoveWrongPlayer {
                square: sq,
                mark,
                last: last_player,
            });
        }
        Some((sq, _)) if !can_be_last(sq) => return Err(ParsePositionError::LastMoveTooLate(sq)),
        Some((sq, _)) => Some(sq),
        None if o + x == 0 => None,
        // Some mark can always be last: full lines of one player (at most 5 marks) all share
        // a square, since two disjoint lines would need 6.
        None => Square::ALL
            .into_iter()
            .filter(|sq| own & sq.bit() != 0)
            .rev()
            .find(|&sq| can_be_last(sq)),
    };
    let squares_of = |mask: u16| -> Vec<Square> {
        Square::ALL
            .into_iter()
            .filter(|sq| mask & sq.bit() != 0 && Some(*sq) != last)
            .collect()
    };
    let (os, xs) = (squares_of(masks[0]), squares_of(masks[1]));
    let mut order = Vec::with_capacity(o + x);
    for i in 0..os.len().max(xs.len()) {
        order.extend(os.get(i));
        order.extend(xs.get(i));
    }
    order.extend(last);
    Ok(order)
}

/// Reads a board string (`xo.x.o...`), the article's text form (a `Turn …` / `winner …` line,
/// then three rows; the header is checked against the board) or a move list (`1,1 0,0` or
/// `40`: anything with a comma or made of digits).
impl<B: Board> FromStr for Position<B> {
    type Err = ParsePositionError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if text.contains(',')
            || text
                .chars()
                .all(|c| c.is_ascii_digit() || c.is_whitespace() || c == ';')
        {
            return Position::from_moves(text);
        }
        let first = text.lines().next().unwrap_or("").trim();
        if !(first.starts_with("Turn") || first.starts_with("winner")) {
            return Position::from_board_str(text);
        }
        let header = first.to_string();
        if !matches!(
            first,
            "Turn o" | "Turn x" | "winner o" | "winner x" | "winner draw"
        ) {
            return Err(ParsePositionError::BadHeader(header));
        }
        let rest: String = text.lines().skip(1).collect::<Vec<_>>().join("");
        let pos = Position::from_board_str(&rest)?;
        let actual = pos.to_string().lines().next().unwrap_or("").to_string();
        if actual != header {
            return Err(ParsePositionError::HeaderMismatch { header, actual });
        }
        Ok(pos)
    }
}
