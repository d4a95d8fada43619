use std::fmt;

/// The two players of a two-player game, in the order they move.
///
/// Games name them in their own words (`o`/`x` in tic-tac-toe, black/white in Othello)
/// through [`crate::Notation::side_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first player, 1 for the second: handy as an array index.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Side),
    Draw,
}

impl Outcome {
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(side) => Some(side),
            Outcome::Draw => None,
        }
    }

    /// The result as seen by `side`: +1 win, 0 draw, −1 loss.
    pub fn score_for(self, side: Side) -> i32 {
        match self {
            Outcome::Win(w) if w == side => 1,
            Outcome::Win(_) => -1,
            Outcome::Draw => 0,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(Side::First) => f.write_str("first player wins"),
            Outcome::Win(Side::Second) => f.write_str("second player wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_is_an_involution() {
        for side in Side::BOTH {
            assert_ne!(side.opponent(), side);
            assert_eq!(side.opponent().opponent(), side);
        }
        assert_eq!(Side::First.index(), 0);
        assert_eq!(Side::Second.index(), 1);
    }

    #[test]
    fn outcome_scores() {
        assert_eq!(Outcome::Win(Side::First).score_for(Side::First), 1);
        assert_eq!(Outcome::Win(Side::First).score_for(Side::Second), -1);
        assert_eq!(Outcome::Draw.score_for(Side::Second), 0);
        assert_eq!(Outcome::Win(Side::Second).winner(), Some(Side::Second));
        assert_eq!(Outcome::Draw.winner(), None);
    }
}
