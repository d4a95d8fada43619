//! Move transcripts, as Othello players and programs write games: `f5d6c3d3c4…`, a square a
//! move, passes left out (a side with no move passes by itself). Reading also takes
//! either case, spaces between moves and explicit passes (`pass` or `PA`).

use thiserror::Error;

use gamelab_core::Game;

use crate::{Move, Othello, Square};

/// Why a transcript cannot be read: where (a column, from 1) and what was wrong.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("transcript, column {column}: {reason}")]
pub struct TranscriptError {
    pub column: usize,
    pub reason: String,
}

/// The moves of a transcript played from `start`, passes included, and the position
/// they reach.
pub fn parse_from(start: &Othello, text: &str) -> Result<(Vec<Move>, Othello), TranscriptError> {
    let chars: Vec<char> = text.chars().collect();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let column = i + 1;
        let error = |reason: String| TranscriptError { column, reason };
        let word: String = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect::<String>()
            .to_ascii_lowercase();
        let (mv, len) = if word.starts_with("pass") {
            (Move::Pass, 4)
        } else if word.starts_with("pa") {
            (Move::Pass, 2)
        } else {
            let text: String = chars[i..].iter().take(2).collect();
            let square = Square::parse(&text)
                .filter(|_| text.len() == 2)
                .ok_or_else(|| {
                    error(format!(
                        "`{text}` is not a square (a1 to h8) or a pass (`pass`, `PA`)"
                    ))
                })?;
            (Move::Place(square), 2)
        };
        if pos.is_over() {
            return Err(error(format!(
                "the game is over after {} moves ({}), yet `{mv}` follows",
                moves.len(),
                describe_end(&pos)
            )));
        }
        // Passes may be left out: a side with no move passes before the other moves.
        if pos.pass_if_forced(mv) {
            moves.push(Move::Pass);
        }
        pos.check_move(mv)
            .map_err(|e| error(format!("move {} `{mv}`: {e}", moves.len() + 1)))?;
        pos.play_unchecked(mv);
        moves.push(mv);
        i += len;
    }
    Ok((moves, pos))
}

/// [`parse_from`] from the start position.
pub fn parse(text: &str) -> Result<(Vec<Move>, Othello), TranscriptError> {
    parse_from(&Othello::new(), text)
}

/// The transcript of `moves`: their squares run together, passes left out.
pub fn write(moves: &[Move]) -> String {
    moves
        .iter()
        .filter_map(|mv| match mv {
            Move::Place(sq) => Some(sq.to_string()),
            Move::Pass => None,
        })
        .collect()
}

fn describe_end(pos: &Othello) -> String {
    let (b, w) = pos.counts();
    format!("black {b}, white {w}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_in_any_case_with_or_without_spaces() {
        let (moves, pos) = parse("f5d6C3 D3\tc4").unwrap();
        assert_eq!(write(&moves), "f5d6c3d3c4");
        assert_eq!(moves.len(), 5);
        assert!(!pos.black_to_move());
        assert_eq!(parse("").unwrap().0, Vec::new());
    }

    /// A whole game of first moves from the start: it has passes.
    fn first_moves_game() -> (Vec<Move>, Othello) {
        let mut game = Othello::new();
        let mut played = Vec::new();
        while !game.is_over() {
            let mv = game.legal_moves()[0];
            game.play_unchecked(mv);
            played.push(mv);
        }
        assert!(played.contains(&Move::Pass));
        (played, game)
    }

    #[test]
    fn left_out_passes_are_put_back_and_written_out_again() {
        let (played, game) = first_moves_game();
        let text = write(&played);
        assert_eq!(
            text.len(),
            2 * (played.len() - played.iter().filter(|m| **m == Move::Pass).count())
        );
        let (back, end) = parse(&text).unwrap();
        assert_eq!(back, played, "passes come back where they were");
        assert_eq!(end.discs(), game.discs());
        assert!(end.is_over());
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = parse("f5 d6 zz").unwrap_err();
        assert_eq!(e.column, 7);
        assert!(e.reason.contains("`zz` is not a square"), "{e}");
        let e = parse("f5a1").unwrap_err();
        assert_eq!(e.column, 3);
        assert!(e.reason.contains("move 2 `a1`"), "{e}");
        let e = parse("f5pass").unwrap_err();
        assert_eq!(e.column, 3);
        let (played, _) = first_moves_game();
        let e = parse(&format!("{}a1", write(&played))).unwrap_err();
        assert!(
            e.reason
                .contains(&format!("the game is over after {} moves", played.len())),
            "{e}"
        );
        let e = parse("f").unwrap_err();
        assert_eq!(e.column, 1);
        assert!(parse("f5é").is_err());
    }
}
