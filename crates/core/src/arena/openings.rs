//! Where a match's games start: distinct random openings from the seed (kept by a judge
//! where asked), or openings read from text, each checked move by move.

use thiserror::Error;

use crate::{Agent, Game, Notation, Side, StreamKey, mix64};

/// Why a match's openings cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "{game} has only {found} distinct positions {plies} random plies from the start{condition} (in {tries} tries) for {wanted} openings; ask for fewer games per side or more plies"
)]
pub struct OpeningError {
    pub game: &'static str,
    /// What else the openings had to be ("" or, say, " that the judge calls balanced").
    pub condition: &'static str,
    pub wanted: u64,
    pub plies: u32,
    pub found: u64,
    pub tries: u64,
}

/// `count` distinct openings of `plies` uniformly random moves from the start, from the
/// seed alone (their own streams, apart from the games'): candidates are drawn in order
/// and kept when they reach a position no earlier one reached and the game goes on.
pub fn openings<G: Game>(
    count: u64,
    plies: u32,
    seed: u64,
) -> Result<Vec<Vec<G::Move>>, OpeningError> {
    openings_where::<G>(count, plies, seed, "", &mut |_| true)
}

/// [`openings`] kept only where `keep` says so (say, where a search calls the position
/// balanced; `condition` says it in the error when too few are): the candidates are the
/// same, drawn in the same order.
pub fn openings_where<G: Game>(
    count: u64,
    plies: u32,
    seed: u64,
    condition: &'static str,
    keep: &mut dyn FnMut(&G) -> bool,
) -> Result<Vec<Vec<G::Move>>, OpeningError> {
    const SALT: u64 = 0x6f70_656e_696e_6773; // "openings"
    let key = StreamKey::new(mix64(seed ^ SALT));
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let budget = count.saturating_mul(20).saturating_add(10_000);
    let mut tries = 0;
    while (out.len() as u64) < count {
        if tries == budget {
            return Err(OpeningError {
                game: G::NAME,
                condition,
                wanted: count,
                plies,
                found: out.len() as u64,
                tries,
            });
        }
        let mut rng = key.game_rng(tries, Side::First);
        tries += 1;
        let mut game = G::start();
        let mut moves = Vec::with_capacity(plies as usize);
        for _ in 0..plies {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            game.play_unchecked(mv);
            moves.push(mv);
        }
        if moves.len() == plies as usize
            && !game.is_over()
            && !seen.contains(&game.key())
            && keep(&game)
        {
            seen.insert(game.key());
            out.push(moves);
        }
    }
    Ok(out)
}

/// Why balanced openings cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BalancedError {
    #[error(transparent)]
    Openings(#[from] OpeningError),
    /// The judge gave no value for a position: it does not score moves.
    #[error(
        "the judge gives no value for a position; judging openings needs an AI that scores moves (e.g. Othello's engine)"
    )]
    NoValue,
}

/// [`openings`] kept where `judge` values the position within ±`window` for the side to
/// move ([`crate::Analyst::value`], in the judge's units).
pub fn balanced_openings<G: Game>(
    count: u64,
    plies: u32,
    seed: u64,
    window: f64,
    judge: &mut dyn Agent<G>,
) -> Result<Vec<Vec<G::Move>>, BalancedError> {
    let mut unjudged = false;
    let openings = openings_where::<G>(
        count,
        plies,
        seed,
        " that the judge calls balanced",
        &mut |game: &G| match judge.analyst().and_then(|analyst| analyst.value(game)) {
            Some(v) => v.abs() <= window,
            None => {
                unjudged = true;
                false
            }
        },
    );
    if unjudged {
        return Err(BalancedError::NoValue);
    }
    Ok(openings?)
}

/// Why a file of openings cannot be used: where, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningFileError {
    #[error("{name}, line {line}: {error}")]
    Line {
        name: String,
        line: usize,
        error: OpeningMovesError,
    },
    #[error("{name}: no openings in it (one a line, moves separated by spaces)")]
    Empty { name: String },
}

/// Why moves are not an opening: which move, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningMovesError {
    #[error("the game is over before move {number} ({text})")]
    OverBefore { number: usize, text: String },
    #[error("move {number} ({text}): {reason}; moves are {syntax}")]
    Move {
        number: usize,
        text: String,
        /// The game's own reason ([`Notation::parse_move`]'s error).
        reason: String,
        syntax: &'static str,
    },
    #[error("the game is over after these moves; an opening must leave it going")]
    OverAfter,
}

/// One opening from its moves in the game's notation: each must be legal where it is
/// played, and the game must go on after the last one. The error says which move.
///
/// ```
/// use gamelab_core::arena::{OpeningMovesError, opening_from_texts};
/// use gamelab_ttt::Position;
///
/// let texts = |moves: &[&str]| moves.iter().map(|m| m.to_string()).collect::<Vec<_>>();
/// assert_eq!(opening_from_texts::<Position>(&texts(&["1,1", "0,0"])).unwrap().len(), 2);
/// assert!(matches!(
///     opening_from_texts::<Position>(&texts(&["1,1", "1,1"])),
///     Err(OpeningMovesError::Move { number: 2, .. })
/// ));
/// ```
pub fn opening_from_texts<G: Notation>(
    texts: &[String],
) -> Result<Vec<G::Move>, OpeningMovesError> {
    let mut game = G::start();
    let mut moves = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        if game.is_over() {
            return Err(OpeningMovesError::OverBefore {
                number: i + 1,
                text: text.clone(),
            });
        }
        // A pass left out of an Othello transcript is put back.
        let played = crate::record::play_record_move(&mut game, text).map_err(|e| {
            OpeningMovesError::Move {
                number: i + 1,
                text: text.clone(),
                reason: e.to_string(),
                syntax: G::move_syntax(),
            }
        })?;
        moves.extend(played);
    }
    if game.is_over() {
        return Err(OpeningMovesError::OverAfter);
    }
    Ok(moves)
}

/// Openings from text: one a line, its moves in the game's notation separated by spaces
/// (blank lines and `#` comments skipped). Every move must be legal where it is played,
/// and the game must go on after the last one. `name` is the source errors name.
pub fn read_openings<G: Notation>(
    text: &str,
    name: &str,
) -> Result<Vec<Vec<G::Move>>, OpeningFileError> {
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let error = |error| OpeningFileError::Line {
            name: name.to_string(),
            line: number + 1,
            error,
        };
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let moves = opening_from_texts::<G>(&G::move_texts(line)).map_err(error)?;
        out.push(moves);
    }
    if out.is_empty() {
        return Err(OpeningFileError::Empty {
            name: name.to_string(),
        });
    }
    Ok(out)
}
