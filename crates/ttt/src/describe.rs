//! Tic-tac-toe in the catalogue: how the front ends draw it, its AIs, and its board data
//! structures (`--board 2d`, `1d+counts`, …: all play identical games).

use gamelab_core::actions::Symmetry;
use gamelab_core::{
    BoardError, CatalogueEntry, Described, GameVisitor, PieceStyle, Preset, Registry, Side,
};

use crate::board::{Board, BoardKind};
use crate::{LINE_MASKS, Mark, Position, Square};

impl<B: Board> Described for Position<B> {
    const TITLE: &'static str = "Tic-tac-toe";
    const GRID: (usize, usize) = (3, 3);
    const PIECES: PieceStyle = PieceStyle::Marks;
    const PIECE_COLOURS: [&'static str; 2] = ["#2563eb", "#dc2626"];
    const BOARD_COLOUR: &'static str = "#ffffff";
    const ACTIONS: usize = 9;
    const SYMMETRIES: &'static [Symmetry] = &Symmetry::ALL;
    const DEFAULT_PLAYERS: [&'static str; 2] = ["human", "ai14s"];
    const DEFAULT_MATCH: [&'static str; 2] = ["ai14s", "ai2"];
    const PRESETS: &'static [Preset] = &[
        Preset {
            name: "Beginner",
            spec: "ai2",
            note: "plays any free square",
        },
        Preset {
            name: "Easy",
            spec: "ai6",
            note: "wins when it can and blocks your wins, else plays anywhere",
        },
        Preset {
            name: "Good",
            spec: "ai14s",
            note: "the articles' best score AI: it never loses",
        },
        Preset {
            name: "Perfect",
            spec: "ai_gtsvrd",
            note: "perfect play that wins fastest and sets traps in drawn positions",
        },
    ];
    // The game is solved: its analysis is exact, never an estimate (ai_gt scores moves
    // from o's side, as the articles do; `solved` from the side to move's).
    const ANALYSIS_AI: &'static str = "solved";

    fn registry() -> Registry<Self> {
        crate::ai::registry::<B>()
    }

    fn labels() -> (Vec<String>, Vec<String>) {
        let l = || (0..3).map(|i| i.to_string()).collect();
        (l(), l())
    }

    fn square_name(index: usize) -> String {
        format!("{},{}", index % 3, index / 3)
    }

    fn piece(&self, index: usize) -> Option<Side> {
        match self.mark(Square::from_index(index)?) {
            Mark::Empty => None,
            Mark::O => Some(Side::First),
            Mark::X => Some(Side::Second),
        }
    }

    fn square_of(mv: Square) -> Option<usize> {
        Some(mv.index())
    }

    fn highlight(&self) -> Vec<usize> {
        let lines = self.masks().map(|marks| {
            LINE_MASKS
                .iter()
                .filter(|&&line| marks & line == line)
                .fold(0u16, |acc, line| acc | line)
        });
        let won = lines[0] | lines[1];
        (0..9).filter(|i| won & (1 << i) != 0).collect()
    }
}

/// Tic-tac-toe's catalogue entry.
pub struct Catalogue;

/// Suffix of a board name that keeps incremental line counts (the articles'
/// `count_linemark`).
pub const COUNTS_SUFFIX: &str = "+counts";

impl Catalogue {
    /// The structure and whether it keeps line counts, from a board name such as
    /// `1d+counts`.
    pub fn board(name: &str) -> Result<(BoardKind, bool), BoardError> {
        let (base, counts) = match name.strip_suffix(COUNTS_SUFFIX) {
            Some(base) => (base, true),
            None => (name, false),
        };
        let kind = base
            .parse::<BoardKind>()
            .map_err(|_| BoardError::of::<Catalogue>(name))?;
        Ok((kind, counts))
    }
}

impl CatalogueEntry for Catalogue {
    const NAME: &'static str = "ttt";
    const TITLE: &'static str = "Tic-tac-toe";
    const BOARDS: &'static [&'static str] = &[
        "bitboard",
        "2d",
        "1d",
        "bitboard+counts",
        "2d+counts",
        "1d+counts",
    ];

    fn visit<V: GameVisitor>(board: Option<&str>, visitor: V) -> Result<V::Output, BoardError> {
        let (kind, counts) = Catalogue::board(board.unwrap_or(Self::BOARDS[0]))?;
        Ok(crate::with_board!(kind, counts, B => visitor.visit::<Position<B>>()))
    }
}
