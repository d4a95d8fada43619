//! Evaluations for `ai_by_score` (seeds 000, 001, 004): the score-based AIs ai1s … ai14s
//! are these functions plugged into [`gamelab_core::ByScore`].

use gamelab_core::Evaluate;

use crate::board::Board;
use crate::{Mark, Player, Position, Square, Status};

use super::rules::CORNERS;

/// Score of a move to the centre under the "centre first" rule (ai7s–ai11s, ai12s ver 1):
/// above every other score, as the rule comes first.
pub const SCORE_CENTRE: f64 = 400.0;

/// The score-based versions of rules 1–5: the same choices as ai1…ai5 expressed as scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimpleScore {
    /// ai1s: earlier squares score higher, so the best is the first empty square.
    FirstSquare,
    /// ai2s: every move scores 0.
    Random,
    /// ai3s: the centre 1, anything else 0.
    Centre,
    /// ai4s: the centre 5, then the corners 4, 3, 2, 1 in rule 4's order, anything else 0.
    CentreThenCorners,
    /// ai5s: a winning move 1, anything else 0.
    Win,
}

impl<B: Board> Evaluate<Position<B>> for SimpleScore {
    #[inline]
    fn score(&self, child: &Position<B>) -> f64 {
        let last = child.last_move().expect("a child has a last move");
        match self {
            SimpleScore::FirstSquare => -(last.index() as f64),
            SimpleScore::Random => 0.0,
            SimpleScore::Centre => f64::from(u8::from(last == Square::CENTRE)),
            SimpleScore::CentreThenCorners => {
                if last == Square::CENTRE {
                    5.0
                } else {
                    CORNERS
                        .iter()
                        .position(|&c| c == last)
                        .map_or(0.0, |i| 4.0 - i as f64)
                }
            }
            SimpleScore::Win => {
                f64::from(u8::from(child.status() == Status::Won(child.last_turn())))
            }
        }
    }
}

/// How the "the opponent can win next" condition — (0,2,1) lines — scores (rank 2 of the
/// article's condition table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefeatRule {
    /// ai6s–ai12s: return `score_defeat` whenever there is such a line.
    Return,
    /// ai13s: return `score_defeat` × the number of such lines.
    ReturnPerLine,
    /// ai14s: start from `score_defeat` × the number of lines and go on with the other
    /// conditions.
    AddPerLine,
}

/// How "I can win next" — (2,0,1) lines — counts in the closing sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenLineRule {
    /// ai8s: `score_201` when there is at least one such line.
    AtLeastOne,
    /// ai9s onwards: `score_201` when there is exactly one (two or more are a sure win).
    ExactlyOne,
}

/// Which of the article's ranked conditions an AI uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conditions {
    pub centre_first: bool,
    pub defeat: DefeatRule,
    /// Two or more (2,0,1) lines return `score_sure_victory` (rule 9 onwards).
    pub sure_victory: bool,
    /// The move-4 diagonal case returns `score_special` (rule 12 onwards).
    pub special: bool,
    pub open_line: OpenLineRule,
}

/// The articles' named scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreParams {
    pub score_victory: f64,
    pub score_sure_victory: f64,
    pub score_defeat: f64,
    pub score_special: f64,
    pub score_201: f64,
    pub score_102: f64,
    pub score_012: f64,
}

impl Default for ScoreParams {
    /// The defaults of ai12s–ai14s.
    fn default() -> Self {
        ScoreParams {
            score_victory: 300.0,
            score_sure_victory: 200.0,
            score_defeat: -100.0,
            score_special: 100.0,
            score_201: 2.0,
            score_102: 0.5,
            score_012: -1.0,
        }
    }
}

/// The evaluation of ai6s … ai14s: the article's ranked conditions, in order, on the position
/// after the mover's move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankedScore {
    pub conditions: Conditions,
    pub params: ScoreParams,
}

/// The move-4 case of rule 12: x in the centre, o on both ends of a diagonal, and x on one
/// edge square; playing an edge here is the only way for x to hold the draw.
#[inline]
pub fn is_special_diagonal<B: Board>(child: &Position<B>) -> bool {
    const DIAGONAL_ENDS: [u16; 2] = [1 << 0 | 1 << 8, 1 << 2 | 1 << 6];
    const EDGES: u16 = 1 << 1 | 1 << 3 | 1 << 5 | 1 << 7;
    if child.move_count() != 4 || child.mark(Square::CENTRE) != Mark::X {
        return false;
    }
    let [o, x] = child.masks();
    DIAGONAL_ENDS.into_iter().any(|ends| (o & ends) == ends) && x & EDGES != 0
}

impl<B: Board> Evaluate<Position<B>> for RankedScore {
    #[inline]
    fn score(&self, child: &Position<B>) -> f64 {
        let c = &self.conditions;
        let p = &self.params;
        let mover: Player = child.last_turn();
        if c.centre_first && child.last_move() == Some(Square::CENTRE) {
            return SCORE_CENTRE;
        }
        if child.status() == Status::Won(mover) {
            return p.score_victory;
        }
        let pats = child.count_markpats();
        let threats = pats.lines(0, 2);
        let open = pats.lines(2, 0);
        let mut score = 0.0;
        if threats > 0 {
            match c.defeat {
                DefeatRule::Return => return p.score_defeat,
                DefeatRule::ReturnPerLine => return p.score_defeat * f64::from(threats),
                DefeatRule::AddPerLine => score = p.score_defeat * f64::from(threats),
            }
        } else if c.sure_victory && open >= 2 {
            return p.score_sure_victory;
        }
        if c.special && is_special_diagonal(child) {
            return p.score_special;
        }
        let open_line = match c.open_line {
            OpenLineRule::AtLeastOne => open >= 1,
            OpenLineRule::ExactlyOne => open == 1,
        };
        if open_line {
            score += p.score_201;
        }
        score += f64::from(pats.lines(1, 0)) * p.score_102;
        score += f64::from(pats.lines(0, 1)) * p.score_012;
        score
    }

    fn detail(&self, child: &Position<B>) -> Option<String> {
        Some(format!("{:?}", child.count_markpats()))
    }
}
