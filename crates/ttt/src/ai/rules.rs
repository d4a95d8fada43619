//! The rule-based AIs ai1 … ai7 (article 001, rules 1–7): each returns its set of equally good
//! moves, and [`gamelab_core::Uniform`] picks among them.

use gamelab_core::BestMoves;

use crate::board::{Board, Moves};
use crate::square::{LINES_THROUGH, NO_LINE};
use crate::{LINE_MASKS, Player, Position, Square};

/// The four corners in the order rule 4 tries them.
pub const CORNERS: [Square; 4] = [
    Square::ALL[0], // (0, 0)
    Square::ALL[2], // (2, 0)
    Square::ALL[6], // (0, 2)
    Square::ALL[8], // (2, 2)
];

/// Whether `player` marking the empty square `sq` completes a line.
#[inline]
pub fn completes_line(masks: [u16; 2], player: Player, sq: Square) -> bool {
    let own = masks[player.index()] | sq.bit();
    LINES_THROUGH[sq.index()]
        .iter()
        .take_while(|&&l| l != NO_LINE)
        .any(|&l| own & LINE_MASKS[l as usize] == LINE_MASKS[l as usize])
}

/// The first legal square (y-major) on which `player` would complete a line.
#[inline]
pub fn first_winning_square<B: Board>(pos: &Position<B>, player: Player) -> Option<Square> {
    let masks = pos.masks();
    pos.legal_moves()
        .into_iter()
        .find(|&sq| completes_line(masks, player, sq))
}

fn only(sq: Square) -> Moves {
    let mut moves = Moves::new();
    moves.push(sq);
    moves
}

/// Rule 1: the first empty square, left to right, top to bottom.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai1;

impl<B: Board> BestMoves<Position<B>> for Ai1 {
    #[inline]
    fn best_moves(&mut self, pos: &Position<B>) -> Moves {
        pos.legal_moves().into_iter().take(1).collect()
    }
}

/// Rule 2: any legal move, uniformly.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai2;

impl<B: Board> BestMoves<Position<B>> for Ai2 {
    #[inline]
    fn best_moves(&mut self, pos: &Position<B>) -> Moves {
        pos.legal_moves()
    }

    fn is_all_legal_moves(&self) -> bool {
        true
    }
}

/// Rule 3: the centre if empty, else random.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai3;

impl<B: Board> BestMoves<Position<B>> for Ai3 {
    #[inline]
    fn best_moves(&mut self, pos: &Position<B>) -> Moves {
        let legal = pos.legal_moves();
        if legal.contains(&Square::CENTRE) {
            only(Square::CENTRE)
        } else {
            legal
        }
    }
}

/// Rule 4: the centre, then the corners (0,0), (2,0), (0,2), (2,2), else random.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai4;

impl<B: Board> BestMoves<Position<B>> for Ai4 {
    #[inline]
    fn best_moves(&mut self, pos: &Position<B>) -> Moves {
        let legal = pos.legal_moves();
        std::iter::once(Square::CENTRE)
            .chain(CORNERS)
            .find(|sq| legal.contains(sq))
            .map_or(legal, only)
    }
}

/// Rule 5: win if possible (the first winning square), else random.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai5;

impl<B: Board> BestMoves<Position<B>> for Ai5 {
    #[inline]
    fn best_moves(&mut self, pos: &Position<B>) -> Moves {
        first_winning_square(pos, pos.turn()).map_or_else(|| pos.legal_moves(), only)
    }

    fn explain(&mut self, pos: &Position<B>) -> Option<String> {
        Some(match first_winning_square(pos, pos.turn()) {
            Some(sq) => format!("{sq} wins"),
            None => "no winning square: random".into(),
        })
    }
}

/// Rule 6: win (first winning square); else block the first square where the opponent
/// would win; else random.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai6;

impl Ai6 {
    fn decide<B: Board>(pos: &Position<B>) -> (Option<Square>, &'static str) {
        if let Some(sq) = first_winning_square(pos, pos.turn()) {
            (Some(sq), "wins")
        } else if let Some(sq) = first_winning_square(pos, pos.last_turn()) {
            (Some(sq), "blocks the opponent's win")
        } else {
            (None, "")
        }
    }
}

impl<B: Board> BestMoves<Position<B>> for Ai6 {
    #[inline]
    fn best_moves(&mut self, pos: &Position<B>) -> Moves {
        Ai6::decide(pos).0.map_or_else(|| pos.legal_moves(), only)
    }

    fn explain(&mut self, pos: &Position<B>) -> Option<String> {
        Some(match Ai6::decide(pos) {
            (Some(sq), why) => format!("{sq} {why}"),
            (None, _) => "no win and nothing to block: random".into(),
        })
    }
}

/// Rule 7: the centre if empty, else rule 6.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ai7;

impl<B: Board> BestMoves<Position<B>> for Ai7 {
    #[inline]
    fn best_moves(&mut self, pos: &Position<B>) -> Moves {
        if pos.legal_moves().contains(&Square::CENTRE) {
            only(Square::CENTRE)
        } else {
            Ai6.best_moves(pos)
        }
    }

    fn explain(&mut self, pos: &Position<B>) -> Option<String> {
        if pos.legal_moves().contains(&Square::CENTRE) {
            Some("the centre is free".into())
        } else {
            Ai6.explain(pos)
        }
    }
}
