//! Connect Four in the catalogue: how the front ends draw it and its AIs.

use gamelab_core::actions::Symmetry;
use gamelab_core::{Described, Game, PieceStyle, Preset, Registry, Side, Single};

use crate::position::{HEIGHT, WIDTH};
use crate::{ConnectFour, Move};

impl Described for ConnectFour {
    const TITLE: &'static str = "Connect Four";
    const GRID: (usize, usize) = (HEIGHT, WIDTH);
    const PIECES: PieceStyle = PieceStyle::Discs;
    const PIECE_COLOURS: [&'static str; 2] = ["#dc2626", "#facc15"];
    const BOARD_COLOUR: &'static str = "#1d4ed8";
    const DEFAULT_PLAYERS: [&'static str; 2] = ["human", "alphabeta"];
    const DEFAULT_MATCH: [&'static str; 2] = ["greedy", "random"];
    const MOVES_BY_COLUMN: bool = true;
    const ACTIONS: usize = WIDTH;
    /// Gravity pulls down, so only left and right may swap.
    const SYMMETRIES: &'static [Symmetry] = &[Symmetry::Identity, Symmetry::MirrorColumns];
    const PRESETS: &'static [Preset] = &[
        Preset {
            name: "Beginner",
            spec: "random",
            note: "plays any column",
        },
        Preset {
            name: "Easy",
            spec: "greedy",
            note: "wins and blocks one move ahead",
        },
        Preset {
            name: "Strong",
            spec: "alphabeta",
            note: "searches seven moves ahead, perfect near the end",
        },
    ];

    fn registry() -> Registry<Self> {
        crate::ai::registry()
    }

    fn labels() -> (Vec<String>, Vec<String>) {
        (
            ('a'..='g').map(String::from).collect(),
            (1..=HEIGHT).rev().map(|r| r.to_string()).collect(),
        )
    }

    /// Squares row by row from the top.
    fn piece(&self, index: usize) -> Option<Side> {
        let (row, col) = (HEIGHT - 1 - index / WIDTH, index % WIDTH);
        self.at(col, row)
    }

    fn square_of(mv: Move) -> Option<usize> {
        Some((HEIGHT - 1 - mv.row()) * WIDTH + mv.col())
    }

    fn highlight(&self) -> Vec<usize> {
        let Some(winner) = self.outcome().and_then(|o| o.winner()) else {
            return Vec::new();
        };
        let stones = self.stones(winner);
        (0..WIDTH * HEIGHT)
            .filter(|&i| {
                let (row, col) = (HEIGHT - 1 - i / WIDTH, i % WIDTH);
                crate::position::in_a_four(stones, col, row)
            })
            .collect()
    }
}

/// Connect Four's catalogue entry.
pub type Catalogue = Single<ConnectFour>;
