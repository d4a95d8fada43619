//! Othello's notation for the generic code: positions read from board strings, GGF games
//! and transcripts; moves as squares (`d3`) or `pass`; whole games written as transcripts
//! and GGF. The formats themselves are their modules' ([`crate::formats::transcript`], [`crate::formats::ggf`]).

use gamelab_core::{Game, Notation, RecordFormatError, SetUpError, Side};

use crate::{Move, Othello, OthelloError, Square};

impl Notation for Othello {
    const CAN_SET_UP: bool = true;

    fn from_cells(cells: &[Option<Side>], to_move: Side) -> Result<Self, SetUpError<OthelloError>> {
        if cells.len() != 64 {
            return Err(SetUpError::Squares {
                given: cells.len(),
                expected: 64,
            });
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in cells.iter().enumerate() {
            match c {
                Some(Side::First) => black |= 1 << i,
                Some(Side::Second) => white |= 1 << i,
                None => {}
            }
        }
        Othello::try_from_discs(black, white, to_move == Side::First).map_err(SetUpError::Position)
    }

    type PositionError = OthelloError;

    /// A board string, a GGF game (its last position) or a move transcript from the start;
    /// either way a position with no moves to undo, as a board string gives.
    fn parse_position(text: &str) -> Result<Self, OthelloError> {
        let fresh =
            |pos: Othello| Othello::from_discs(pos.black(), pos.white(), pos.black_to_move());
        let t = text.trim();
        if t.starts_with("(;") {
            return crate::formats::ggf::parse_one(t)
                .map(|game| fresh(game.end()))
                .map_err(|e| OthelloError::Ggf(e.to_string()));
        }
        let first = t.split_whitespace().next().unwrap_or("");
        let mut chars = first.chars();
        // A board string's squares are X, O and -: a square's name first means moves, a
        // transcript of any length (30 moves and more are longer than a board string).
        let looks_like_moves = chars
            .next()
            .is_some_and(|c| ('a'..='h').contains(&c.to_ascii_lowercase()))
            && chars.next().is_some_and(|c| ('1'..='8').contains(&c));
        if looks_like_moves {
            return crate::formats::transcript::parse(t)
                .map(|(_, pos)| fresh(pos))
                .map_err(|e| OthelloError::Transcript(e.to_string()));
        }
        Othello::from_board_string(text)
    }

    fn parse_move(&self, text: &str) -> Result<Move, OthelloError> {
        let t = text.trim();
        let mv = if t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("ps") {
            Move::Pass
        } else {
            Move::Place(Square::parse(t).ok_or_else(|| OthelloError::Syntax(t.to_string()))?)
        };
        self.check_move(mv)?;
        Ok(mv)
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "black",
            Side::Second => "white",
        }
    }

    /// Squares run together (`f5d6c3`) are read as one move each.
    /// Moves separated by spaces or run together (`f5d6c3`), or a GGF game's moves (from
    /// the standard start; a game from another position is left as one text, which then
    /// fails to read as a move).
    fn move_texts(line: &str) -> Vec<String> {
        if line.trim_start().starts_with("(;")
            && let Ok(game) = crate::formats::ggf::parse_one(line.trim())
            && game.start.discs() == Othello::new().discs()
            && game.start.black_to_move()
        {
            return game.plain_moves().iter().map(ToString::to_string).collect();
        }
        let mut texts = Vec::new();
        for word in line
            .split_whitespace()
            .filter_map(gamelab_core::without_move_number)
        {
            let chars: Vec<char> = word.chars().collect();
            let run_together = chars.len() > 2
                && chars.len().is_multiple_of(2)
                && chars
                    .chunks(2)
                    .all(|c| c[0].is_ascii_alphabetic() && c[1].is_ascii_digit());
            if run_together {
                texts.extend(chars.chunks(2).map(|c| c.iter().collect::<String>()));
            } else {
                texts.push(word.to_string());
            }
        }
        texts
    }

    /// The legal moves (`pass` when it is the only one): seldom more than a dozen.
    fn move_hint(&self) -> String {
        if self.legal_mask() == 0 {
            Move::Pass.to_string()
        } else {
            self.legal_list()
        }
    }

    fn position_syntax() -> &'static str {
        "64 squares (`X` black, `O` white, `-` empty, a1…h1, a2…h8) then the side to move `X` or `O`; or the moves from the start (`f5d6c3`); or a GGF game (`(;GM[Othello]…;)`)"
    }

    /// A transcript (`f5d6c3`), passes left out as transcripts do.
    fn write_moves(moves: &[Move]) -> String {
        crate::formats::transcript::write(moves)
    }

    fn write_game(moves: &[Move], headers: &gamelab_core::GameHeaders) -> Option<String> {
        crate::formats::ggf::write_game(moves, headers).ok()
    }

    fn read_headers(text: &str) -> Option<gamelab_core::GameHeaders> {
        text.trim_start()
            .starts_with("(;")
            .then(|| crate::formats::ggf::read_headers(text))
            .flatten()
    }

    const RECORD_EXTENSION: Option<&'static str> = Some("ggf");

    fn write_record(
        record: &gamelab_core::record::GameRecord,
    ) -> Result<String, RecordFormatError> {
        crate::formats::ggf::write_record(record).map_err(RecordFormatError::format)
    }

    fn read_records(
        text: &str,
        name: &str,
    ) -> Result<Vec<gamelab_core::record::GameRecord>, RecordFormatError> {
        crate::formats::ggf::read_records(text, name).map_err(RecordFormatError::format)
    }

    fn move_syntax() -> &'static str {
        "a square like d3 (file a–h, rank 1–8), or `pass` when you have no move"
    }
}
