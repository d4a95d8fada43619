//! Othello in the catalogue: how the front ends draw it and its AIs.

use gamelab_core::actions::Symmetry;
use gamelab_core::{Described, PieceStyle, Preset, Rating, Registry, Side, Single};

use crate::{Move, Othello};

impl Described for Othello {
    const TITLE: &'static str = "Othello";
    const GRID: (usize, usize) = (8, 8);
    const PIECES: PieceStyle = PieceStyle::Discs;
    const PIECE_COLOURS: [&'static str; 2] = ["#111111", "#f4f4f4"];
    const BOARD_COLOUR: &'static str = "#1f7a4d";
    /// The 64 squares, then the pass.
    const ACTIONS: usize = 65;
    const SYMMETRIES: &'static [Symmetry] = &Symmetry::ALL;
    const DEFAULT_PLAYERS: [&'static str; 2] = ["human", "engine"];
    const DEFAULT_MATCH: [&'static str; 2] = ["greedy", "random"];
    const PRESETS: &'static [Preset] = &[
        Preset {
            name: "Beginner",
            spec: "random",
            note: "plays any legal move",
        },
        Preset {
            name: "Easy",
            spec: "greedy",
            note: "takes the most discs it can, which is how beginners lose",
        },
        Preset {
            name: "Medium",
            spec: "minimax:depth=3",
            note: "looks three moves ahead, valuing corners",
        },
        Preset {
            name: "Strong",
            spec: "engine:level=4",
            note: "the learned evaluation four moves ahead, perfect from 10 empty squares",
        },
        Preset {
            name: "Expert",
            spec: "engine",
            note: "the learned evaluation eight moves ahead, perfect from 14 empty squares",
        },
        // Level 16 scored 82.5 % against level 8 (RESULTS.md) in a few hundredths of a
        // second a move on one core, a second or so at its slowest.
        Preset {
            name: "Strongest",
            spec: "engine:level=16",
            note: "the learned evaluation sixteen moves ahead, perfect from 22 empty squares",
        },
    ];
    const ANALYSIS_AI: &'static str = "engine:level=4";
    // RESULTS.md, "The engine's levels on one Elo scale": one round robin of the first
    // nineteen (40 games a pair, openings of 4 random plies, seed 1), random moved to 0,
    // every entrant depth-limited: the games are the same on any machine. Levels 17 to 25
    // were rated in runs of their own against some of those, then moved onto the scale;
    // levels 26 and 28 in a few games against level 24, so only as well as it is.
    const RATINGS: &'static [Rating] = &[
        rating("random", 0, 89),
        rating("greedy", 143, 77),
        rating("minimax:depth=3", 280, 69),
        rating("engine:level=1", 456, 60),
        rating("engine:level=2", 608, 53),
        rating("engine:level=3", 731, 48),
        rating("engine:level=4", 925, 43),
        rating("engine:level=5", 973, 42),
        rating("engine:level=6", 1080, 40),
        rating("engine:level=7", 1143, 39),
        rating("engine", 1247, 38),
        rating("engine:level=9", 1306, 38),
        rating("engine:level=10", 1367, 39),
        rating("engine:level=11", 1390, 39),
        rating("engine:level=12", 1446, 40),
        rating("engine:level=13", 1485, 41),
        rating("engine:level=14", 1541, 42),
        rated_apart(
            "engine:time=0.1,threads=1",
            1563,
            65,
            "against levels 8, 12 and 16, on one core of a 2-core Intel host of 2026: a time limit's strength depends on the machine",
        ),
        rating("engine:level=15", 1565, 43),
        rating("engine:level=16", 1603, 45),
        rated_apart(
            "engine:level=17",
            1613,
            46,
            "against levels 14, 16 and 19 (40 games a pair did not tell it from level 16)",
        ),
        rated_apart(
            "engine:level=18",
            1623,
            48,
            "against levels 12 and 16 (40 games a pair did not tell it from level 16)",
        ),
        rated_apart(
            "engine:level=21",
            1628,
            51,
            "against levels 20 and 22 (40 games a pair did not tell it from level 20)",
        ),
        rated_apart(
            "engine:level=19",
            1643,
            47,
            "against levels 14, 16 and 17 (40 games a pair did not tell it from level 16)",
        ),
        rated_apart("engine:level=20", 1659, 49, "against levels 12 and 16"),
        rated_apart(
            "engine:time=0.5,threads=1",
            1666,
            71,
            "against levels 8, 12 and 16, on one core of a 2-core Intel host of 2026",
        ),
        rated_apart(
            "engine:time=1,threads=1",
            1668,
            69,
            "against levels 12 and 16 and 0.5 s, on one core of a 2-core Intel host of 2026 (20 games did not tell it from 0.5 s)",
        ),
        rated_apart(
            "engine:level=22",
            1681,
            47,
            "against levels 16, 20 and 24 (40 games a pair did not tell it from level 20)",
        ),
        rated_apart(
            "engine:level=23",
            1682,
            50,
            "against levels 22 and 24 (40 games a pair did not tell it from either)",
        ),
        rated_apart(
            "engine:level=24",
            1691,
            47,
            "against levels 16, 20 and 22 (40 games a pair did not tell it from level 20)",
        ),
        rated_apart(
            "engine:level=25",
            1695,
            50,
            "against levels 22 and 24 (40 games a pair did not tell it from either)",
        ),
        rated_apart(
            "engine:level=28",
            1708,
            149,
            "in 20 games against level 24, too few to tell them apart",
        ),
        rated_apart(
            "engine:level=29",
            1718,
            189,
            "in 12 games against level 24 (six openings each way round), too few to tell them apart",
        ),
        rated_apart(
            "engine:level=26",
            1741,
            150,
            "in 20 games against level 24, too few to tell them apart",
        ),
        rated_apart(
            "engine:level=30",
            1741,
            150,
            "in 20 games against level 24, too few to tell them apart",
        ),
        rated_apart(
            "engine:level=27",
            1775,
            153,
            "in 20 games against level 24, too few to tell them apart",
        ),
    ];

    fn registry() -> Registry<Self> {
        crate::ai::registry()
    }

    fn labels() -> (Vec<String>, Vec<String>) {
        (
            ('a'..='h').map(String::from).collect(),
            (1..=8).map(|r: u32| r.to_string()).collect(),
        )
    }

    fn piece(&self, index: usize) -> Option<Side> {
        let bit = 1u64 << index;
        if self.black() & bit != 0 {
            Some(Side::First)
        } else if self.white() & bit != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    fn square_of(mv: Move) -> Option<usize> {
        match mv {
            Move::Place(sq) => Some(sq.index()),
            Move::Pass => None,
        }
    }

    fn score(&self) -> Option<[u32; 2]> {
        let (black, white) = self.counts();
        Some([black, white])
    }

    /// From [`crate::formats::openings`]: Robert Gatliff's catalogue's names.
    fn opening_name(moves: &[Move]) -> Option<&'static str> {
        crate::formats::openings::opening_of(moves).map(|o| o.name)
    }
}

/// Othello's catalogue entry.
pub type Catalogue = Single<Othello>;

const fn rating(spec: &'static str, elo: i32, interval95: i32) -> Rating {
    Rating {
        spec,
        elo,
        interval95,
        apart: None,
    }
}

const fn rated_apart(spec: &'static str, elo: i32, interval95: i32, how: &'static str) -> Rating {
    Rating {
        apart: Some(how),
        ..rating(spec, elo, interval95)
    }
}
