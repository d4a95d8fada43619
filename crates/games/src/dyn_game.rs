//! The game-erased door: any game of the catalogue behind one object-safe interface
//! ([`AnyGame`] for positions, [`AnyAgent`] for their AIs), with moves as text. A front end
//! that holds positions and agents of games chosen at run time (the Python package) reaches
//! the generic code (generic over `G`) through the catalogue's visitor once, when a position
//! or an agent is made, and through these traits after.
//!
//! ```
//! let mut position = gamelab_games::dyn_game::make_position("othello", None, None).unwrap();
//! assert_eq!(position.legal_moves(), ["d3", "c4", "f5", "e6"]);
//! assert_eq!(position.play("f5").unwrap(), "f5");
//! let mut agent = position.build_agent("greedy").unwrap();
//! let mut rng = gamelab_core::game_rng(0, 1, gamelab_core::Side::Second);
//! assert!(position.legal_moves().contains(&agent.choose(&*position, &mut rng).unwrap()));
//! ```

use std::any::{Any, TypeId};
use std::ops::ControlFlow;

use gamelab_core::valuation::ScoreScale;
use gamelab_core::{
    Agent, DeepScore, Deepening, DeepeningEnd, Described, FileAccess, Forfeit, Game, GameRng,
    GameVisitor, MoveStat, Outcome, SearchStats, Side, SpecError, StopFlag,
};

use crate::views::{BoardView, MoveScoreView, MoveView};

/// A position of some game of the catalogue.
pub trait AnyGame: Send + Sync + 'static {
    fn as_any(&self) -> &dyn Any;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// The game's name in the catalogue (`ttt`).
    fn name(&self) -> &'static str;
    /// The board data structure it runs on.
    fn board(&self) -> &'static str;
    fn title(&self) -> &'static str;
    /// Rows and columns of the board.
    fn grid(&self) -> (usize, usize);
    /// Whether exact matches and values (which walk the whole tree) work for the game.
    fn tree_fits_in_memory(&self) -> bool;
    /// The game's text form of the position.
    fn text(&self) -> String;
    fn to_move(&self) -> Side;
    fn side_name(&self, side: Side) -> &'static str;
    fn ply(&self) -> usize;
    /// The legal moves as the game writes them, in its order.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move given in the game's notation; returns it as the game writes it.
    fn play(&mut self, text: &str) -> Result<String, MoveError>;
    /// Plays `moves` in order, each in the game's notation; the first that cannot be
    /// played is reported with its place in the list (the moves before it stay played).
    fn play_all(&mut self, moves: &[String]) -> Result<(), LineError> {
        for (i, text) in moves.iter().enumerate() {
            self.play(text).map_err(|reason| LineError {
                number: i + 1,
                text: text.clone(),
                reason,
            })?;
        }
        Ok(())
    }
    /// The board, its legal and last moves and its outcome, as a front end draws them.
    fn board_view(&self) -> BoardView;
    /// A legal move as a front end shows it: its text and the square it goes to.
    fn move_view(&self, mv: &str) -> Result<MoveView, MoveError>;
    /// An analysis's values of this position's moves as a front end shows them, on
    /// `scale` ([`crate::views::score_views`]).
    fn score_views(&self, scores: &[DeepScore<String>], scale: ScoreScale) -> Vec<MoveScoreView> {
        crate::views::score_views(scores, scale, |mv| {
            // An agent values legal moves only; a text it made up is shown as it is.
            self.move_view(mv).unwrap_or_else(|_| MoveView {
                text: mv.to_string(),
                square: None,
            })
        })
    }
    fn undo(&mut self) -> Option<String>;
    fn history(&self) -> Vec<String>;
    fn outcome(&self) -> Option<Outcome>;
    fn describe_outcome(&self, outcome: Outcome) -> String;
    fn key(&self) -> u64;
    /// Who holds each square, row by row from the top.
    fn cells(&self) -> Vec<Option<Side>>;
    fn score(&self) -> Option<[u32; 2]>;
    fn highlight(&self) -> Vec<usize>;
    /// The square a legal move puts a piece on (`None` for one that places none, a pass).
    fn square_of(&self, mv: &str) -> Result<Option<usize>, MoveError>;
    /// The legal moves' actions (`gamelab_core::actions`), in the order of `legal_moves`.
    fn legal_actions(&self) -> Vec<usize>;
    /// The action of a legal move.
    fn action_of(&self, mv: &str) -> Result<usize, MoveError>;
    /// The legal move whose action is `action`, as the game writes it.
    fn move_of(&self, action: usize) -> Result<String, ActionError>;
    /// The perfect-play value of the position for the side to move (+1 a win, 0 a draw,
    /// −1 a loss) and each legal move's, in order, found by walking the whole tree below
    /// it: only for games whose tree fits in memory ([`AnyGame::tree_fits_in_memory`]).
    fn solve(&self) -> Result<Solved, SolveError>;
    /// The AI a front end suggests for analysis ([`Described::ANALYSIS_AI`]).
    fn analysis_ai(&self) -> &'static str;
    /// Builds the AI `spec` for positions of this exact type, reading any file it names.
    fn build_agent(&self, spec: &str) -> Result<Box<dyn AnyAgent>, SpecError> {
        self.build_agent_with(spec, &FileAccess::Any)
    }
    /// Builds the AI `spec`, reading only the files `files` allows (a server's own).
    fn build_agent_with(
        &self,
        spec: &str,
        files: &FileAccess,
    ) -> Result<Box<dyn AnyAgent>, SpecError>;
    /// The moves played, as the game writes a line of them.
    fn write_moves(&self) -> String;
    /// A line of moves from here as the game shows moves in traces and tables
    /// (tic-tac-toe's `(1, 1)`, as the articles print it), given as the game writes them;
    /// from a move that cannot be played on, the rest are shown as given.
    fn show_line(&self, line: &[String]) -> Vec<String>;
    /// One move from here as [`AnyGame::show_line`] shows it.
    fn show_move(&self, mv: &str) -> String {
        self.show_line(&[mv.to_string()]).remove(0)
    }
    /// The game so far in the game's own format (Othello's GGF), when the moves reach this
    /// position from the start.
    fn write_game(&self, players: [&str; 2]) -> Result<String, WriteGameError>;
}

/// An action that names no legal move here ([`AnyGame::move_of`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("the game is over; no action is legal")]
    Over,
    #[error("action {action} is not one of {game}'s: expected 0 to {last}")]
    OutOfRange {
        action: usize,
        game: &'static str,
        last: usize,
    },
    #[error(
        "action {action} is not legal here: the legal actions are {}",
        list(legal)
    )]
    Illegal { action: usize, legal: Vec<usize> },
}

fn list(actions: &[usize]) -> String {
    let texts: Vec<String> = actions.iter().map(ToString::to_string).collect();
    texts.join(", ")
}

/// Why a position cannot be solved ([`AnyGame::solve`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error(
        "solving walks every position below this one, and {game} has too many for that (it is for games as small as tic-tac-toe)"
    )]
    TreeTooBig { game: &'static str },
}

/// Why the game so far cannot be written in its own format ([`AnyGame::write_game`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteGameError {
    #[error(
        "this position was read from a board, not reached by moves from the start: there is no game to write"
    )]
    NotFromStart,
    #[error("{game} has no record format of its own")]
    NoFormat { game: &'static str },
}

/// A position's perfect-play values for the side to move ([`AnyGame::solve`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// +1 a win, 0 a draw, −1 a loss.
    pub value: i64,
    /// Each legal move with its value, in the order of [`AnyGame::legal_moves`].
    pub moves: Vec<(String, i64)>,
}

/// A move the door cannot play here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game is over (`outcome` in words).
    #[error("the game is over ({outcome}); no move can be played")]
    Over { outcome: String },
    /// The text is not a legal move here: the game's reason, and how its moves are written.
    #[error("{reason}; moves are {syntax}")]
    Illegal {
        reason: String,
        syntax: &'static str,
    },
}

/// A position the door cannot make.
#[derive(Debug, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Game(#[from] crate::CatalogueError),
    /// The text is not a position of the game: why, and how its positions are written.
    #[error("cannot read the {title} position `{text}`: {reason}; positions are {syntax}")]
    Unreadable {
        title: &'static str,
        text: String,
        reason: String,
        syntax: &'static str,
    },
}

/// A move of a list that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} (`{text}`): {reason}")]
pub struct LineError {
    /// Its place in the list, from 1.
    pub number: usize,
    pub text: String,
    /// Why it cannot be played.
    pub reason: MoveError,
}

/// A position of game `G` on the board structure called `board`.
#[derive(Clone)]
pub struct DynGame<G> {
    pub game: G,
    pub board: &'static str,
}

impl<G: Described> DynGame<G> {
    fn parse(&self, text: &str) -> Result<G::Move, MoveError> {
        if let Some(outcome) = self.game.outcome() {
            return Err(MoveError::Over {
                outcome: G::describe_outcome(outcome),
            });
        }
        (self.game.parse_move(text.trim())).map_err(|e| MoveError::Illegal {
            reason: e.to_string(),
            syntax: G::move_syntax(),
        })
    }
}

impl<G: Described> AnyGame for DynGame<G> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn name(&self) -> &'static str {
        G::NAME
    }

    fn board(&self) -> &'static str {
        self.board
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn grid(&self) -> (usize, usize) {
        G::GRID
    }

    fn tree_fits_in_memory(&self) -> bool {
        G::TREE_FITS_IN_MEMORY
    }

    fn text(&self) -> String {
        self.game.to_string()
    }

    fn to_move(&self) -> Side {
        self.game.to_move()
    }

    fn side_name(&self, side: Side) -> &'static str {
        G::side_name(side)
    }

    fn ply(&self) -> usize {
        self.game.ply()
    }

    fn legal_moves(&self) -> Vec<String> {
        self.game
            .legal_moves()
            .iter()
            .map(|&m| G::write_move(m))
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.parse(text)?;
        self.game.play_unchecked(mv);
        Ok(G::write_move(mv))
    }

    fn undo(&mut self) -> Option<String> {
        self.game.undo().map(G::write_move)
    }

    fn history(&self) -> Vec<String> {
        self.game
            .history()
            .iter()
            .map(|&m| G::write_move(m))
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn describe_outcome(&self, outcome: Outcome) -> String {
        G::describe_outcome(outcome)
    }

    fn key(&self) -> u64 {
        self.game.key()
    }

    fn cells(&self) -> Vec<Option<Side>> {
        let (rows, columns) = G::GRID;
        (0..rows * columns).map(|i| self.game.piece(i)).collect()
    }

    fn score(&self) -> Option<[u32; 2]> {
        self.game.score()
    }

    fn highlight(&self) -> Vec<usize> {
        self.game.highlight()
    }

    fn square_of(&self, mv: &str) -> Result<Option<usize>, MoveError> {
        self.parse(mv).map(G::square_of)
    }

    fn board_view(&self) -> BoardView {
        crate::views::board_view(&self.game)
    }

    fn move_view(&self, mv: &str) -> Result<MoveView, MoveError> {
        self.parse(mv).map(crate::views::move_view::<G>)
    }

    fn legal_actions(&self) -> Vec<usize> {
        self.game
            .legal_moves()
            .iter()
            .map(|&m| G::move_code(m) as usize)
            .collect()
    }

    fn action_of(&self, mv: &str) -> Result<usize, MoveError> {
        self.parse(mv).map(|m| G::move_code(m) as usize)
    }

    fn move_of(&self, action: usize) -> Result<String, ActionError> {
        let legal = self.game.legal_moves();
        if let Some(mv) = legal.iter().find(|&&m| G::move_code(m) as usize == action) {
            return Ok(G::write_move(*mv));
        }
        Err(if self.game.is_over() {
            ActionError::Over
        } else if action >= G::ACTIONS {
            ActionError::OutOfRange {
                action,
                game: G::NAME,
                last: G::ACTIONS - 1,
            }
        } else {
            ActionError::Illegal {
                action,
                legal: self.legal_actions(),
            }
        })
    }

    fn write_moves(&self) -> String {
        G::write_moves(self.game.history())
    }

    fn show_line(&self, line: &[String]) -> Vec<String> {
        let mut game = self.game.clone();
        let mut playable = true;
        (line.iter())
            .map(|text| {
                let shown = (playable && game.outcome().is_none())
                    .then(|| game.parse_move(text.trim()).ok())
                    .flatten()
                    .filter(|&mv| game.play(mv).is_ok())
                    .map(|mv| mv.to_string());
                playable = shown.is_some();
                shown.unwrap_or_else(|| text.clone())
            })
            .collect()
    }

    fn write_game(&self, players: [&str; 2]) -> Result<String, WriteGameError> {
        let mut from_start = G::start();
        for &mv in self.game.history() {
            if from_start.check_move(mv).is_err() {
                break;
            }
            from_start.play_unchecked(mv);
        }
        if from_start.key() != self.game.key() {
            return Err(WriteGameError::NotFromStart);
        }
        let headers = gamelab_core::GameHeaders {
            players: players.map(|p| Some(p.to_string())),
            ..Default::default()
        };
        G::write_game(self.game.history(), &headers)
            .ok_or(WriteGameError::NoFormat { game: G::NAME })
    }

    fn analysis_ai(&self) -> &'static str {
        G::ANALYSIS_AI
    }

    fn solve(&self) -> Result<Solved, SolveError> {
        if !G::TREE_FITS_IN_MEMORY {
            return Err(SolveError::TreeTooBig { game: G::NAME });
        }
        let mut values = gamelab_core::proof::GameValues::new();
        let mover = self.game.to_move();
        let for_mover = |v: i8| match mover {
            Side::First => i64::from(v),
            Side::Second => -i64::from(v),
        };
        let value = for_mover(values.value(&self.game));
        let moves = self
            .game
            .legal_moves()
            .iter()
            .map(|&mv| {
                let mut child = self.game.clone();
                child.play_unchecked(mv);
                (G::write_move(mv), for_mover(values.value(&child)))
            })
            .collect();
        Ok(Solved { value, moves })
    }

    fn build_agent_with(
        &self,
        spec: &str,
        files: &FileAccess,
    ) -> Result<Box<dyn AnyAgent>, SpecError> {
        let agent = G::registry().build_with(spec, files)?;
        Ok(Box::new(DynAgent::<G> { agent }))
    }
}

/// The catalogue's visitor that makes a position: the start, or one read from `text`.
pub struct MakePosition<'a> {
    pub text: Option<&'a str>,
    pub board: &'static str,
}

impl GameVisitor for MakePosition<'_> {
    type Output = Result<Box<dyn AnyGame>, PositionError>;
    fn visit<G: Described>(self) -> Self::Output {
        let game = match self.text {
            None => G::start(),
            Some(text) => G::parse_position(text).map_err(|e| PositionError::Unreadable {
                title: G::TITLE,
                text: text.trim().to_string(),
                reason: e.to_string(),
                syntax: G::position_syntax(),
            })?,
        };
        Ok(Box::new(DynGame {
            game,
            board: self.board,
        }))
    }
}

/// A position of `game` on `board` (its default when `None`): the start, or `text`.
pub fn make_position(
    game: &str,
    board: Option<&str>,
    text: Option<&str>,
) -> Result<Box<dyn AnyGame>, PositionError> {
    let board = crate::board(game, board)?;
    let visitor = MakePosition { text, board };
    crate::visit(game, Some(board), visitor)?
}

/// An agent of some game, used on positions of that game.
pub trait AnyAgent: Send {
    /// The type of position it plays (`DynGame<G>`).
    fn position_type(&self) -> TypeId;
    /// The positions must be of [`AnyAgent::position_type`]. An agent that gave up (an
    /// outside program that failed) says why.
    fn choose(&mut self, pos: &dyn AnyGame, rng: &mut GameRng) -> Result<String, Box<Forfeit>>;
    fn policy(&mut self, pos: &dyn AnyGame) -> Option<Vec<(String, f64)>>;
    fn explain(&mut self, pos: &dyn AnyGame) -> Option<String>;
    fn move_scores(&mut self, pos: &dyn AnyGame) -> Option<Vec<(String, f64)>>;
    fn value(&mut self, pos: &dyn AnyGame) -> Option<f64>;
    /// Every legal move's value, with its exactness and line
    /// ([`gamelab_core::Analyst::move_values`]); `None` for an agent that scores no moves.
    fn move_values(&mut self, pos: &dyn AnyGame) -> Option<Vec<DeepScore<String>>>;
    /// The units of its values; `None` for an agent that gives none.
    fn score_scale(&mut self) -> Option<ScoreScale>;
    /// Each move's visits, mean result and proof, for a tree search that keeps them
    /// ([`gamelab_core::Analyst::move_stats`]).
    fn move_stats(&mut self, pos: &dyn AnyGame) -> Option<Vec<MoveStat<String>>>;
    /// What its search for its last move found: depth, nodes, exactness, the line it
    /// expects ([`gamelab_core::Analyst::last_search`]); `None` for an agent that does
    /// not search.
    fn last_search(&mut self) -> Option<SearchStats<String>>;
    fn set_stop(&mut self, stop: &StopFlag);
    /// Every level of [`gamelab_core::deepen_within`] `time`, each given to `level` as it
    /// is done, until it ends, `level` breaks or `stop` is raised: every move's value, or
    /// with `lines` the best that many lines, best first
    /// ([`gamelab_core::Analyst::deepen_lines`]).
    /// Why it ended, `None` for an agent that scores no moves. The agent's stop is its
    /// own again afterwards (a fresh one).
    fn deepen(
        &mut self,
        pos: &dyn AnyGame,
        time: Option<std::time::Duration>,
        stop: &StopFlag,
        lines: Option<usize>,
        level: &mut dyn FnMut(DeepLevel) -> ControlFlow<()>,
    ) -> Option<DeepeningEnd>;
}

/// One level of a deepening analysis (core's [`Deepening`]), its moves as text.
pub type DeepLevel = Deepening<String>;

struct DynAgent<G: Game> {
    agent: Box<dyn Agent<G>>,
}

impl<G: Described> DynAgent<G> {
    fn game(pos: &dyn AnyGame) -> &G {
        &pos.as_any()
            .downcast_ref::<DynGame<G>>()
            .expect("an agent is used on positions of its own type")
            .game
    }
}

fn texts<G: Described>(entries: Vec<(G::Move, f64)>) -> Vec<(String, f64)> {
    entries
        .into_iter()
        .map(|(m, v)| (G::write_move(m), v))
        .collect()
}

/// A move's value with its moves as the game writes them.
fn score_text<G: Described>(s: &DeepScore<G::Move>) -> DeepScore<String> {
    DeepScore {
        mv: G::write_move(s.mv),
        score: s.score,
        exact: s.exact,
        line: s.line.iter().map(|&m| G::write_move(m)).collect(),
        level: s.level,
    }
}

impl<G: Described> AnyAgent for DynAgent<G> {
    fn position_type(&self) -> TypeId {
        TypeId::of::<DynGame<G>>()
    }

    fn choose(&mut self, pos: &dyn AnyGame, rng: &mut GameRng) -> Result<String, Box<Forfeit>> {
        self.agent
            .try_choose(Self::game(pos), rng)
            .map(G::write_move)
    }

    fn policy(&mut self, pos: &dyn AnyGame) -> Option<Vec<(String, f64)>> {
        let policy = self.agent.analyst()?.policy(Self::game(pos))?;
        Some(texts::<G>(policy.entries().to_vec()))
    }

    fn explain(&mut self, pos: &dyn AnyGame) -> Option<String> {
        self.agent.analyst()?.explain(Self::game(pos))
    }

    fn move_scores(&mut self, pos: &dyn AnyGame) -> Option<Vec<(String, f64)>> {
        self.agent
            .analyst()?
            .move_scores(Self::game(pos))
            .map(texts::<G>)
    }

    fn value(&mut self, pos: &dyn AnyGame) -> Option<f64> {
        self.agent.analyst()?.value(Self::game(pos))
    }

    fn move_values(&mut self, pos: &dyn AnyGame) -> Option<Vec<DeepScore<String>>> {
        let values = self.agent.analyst()?.move_values(Self::game(pos))?;
        Some(values.iter().map(score_text::<G>).collect())
    }

    fn score_scale(&mut self) -> Option<ScoreScale> {
        Some(self.agent.analyst()?.score_scale())
    }

    fn move_stats(&mut self, pos: &dyn AnyGame) -> Option<Vec<MoveStat<String>>> {
        let stats = self.agent.analyst()?.move_stats(Self::game(pos))?;
        let text = |s: MoveStat<G::Move>| MoveStat {
            mv: G::write_move(s.mv),
            visits: s.visits,
            mean: s.mean,
            proven: s.proven,
        };
        Some(stats.into_iter().map(text).collect())
    }

    fn last_search(&mut self) -> Option<SearchStats<String>> {
        let stats = self.agent.analyst()?.last_search()?;
        Some(SearchStats {
            nodes: stats.nodes,
            depth: stats.depth,
            exact: stats.exact,
            pv: stats.pv.into_iter().map(G::write_move).collect(),
            book_games: stats.book_games,
        })
    }

    fn set_stop(&mut self, stop: &StopFlag) {
        self.agent.set_stop(stop);
    }

    fn deepen(
        &mut self,
        pos: &dyn AnyGame,
        time: Option<std::time::Duration>,
        stop: &StopFlag,
        lines: Option<usize>,
        level: &mut dyn FnMut(DeepLevel) -> ControlFlow<()>,
    ) -> Option<DeepeningEnd> {
        let game = Self::game(pos);
        let agent = &mut *self.agent;
        gamelab_core::deepen_within(agent, game, time, stop, lines, &mut |step| {
            level(Deepening {
                level: step.level,
                nodes: step.nodes,
                scores: step.scores.iter().map(score_text::<G>).collect(),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_shown_as_the_game_shows_moves_up_to_a_move_that_cannot_be_played() {
        let start = make_position("ttt", None, None).unwrap();
        let line = ["1,1", "0,0", "1,1", "2,2"].map(String::from);
        assert_eq!(start.show_line(&line), ["(1, 1)", "(0, 0)", "1,1", "2,2"]);
        assert_eq!(start.show_move("z9"), "z9");
    }

    #[test]
    fn what_cannot_be_played_or_read_says_which_and_why() {
        let mut game = make_position("ttt", None, None).unwrap();
        game.play("1,1").unwrap();
        let taken = game.play("1,1").unwrap_err();
        assert!(matches!(&taken, MoveError::Illegal { syntax, .. } if syntax.contains("x,y")));
        let line = ["0,0", "2,2", "0,1", "9,9"].map(String::from);
        let err = game.play_all(&line).unwrap_err();
        assert_eq!((err.number, err.text.as_str()), (4, "9,9"));
        let mut over = make_position("ttt", None, Some("oooxx....")).unwrap();
        assert!(matches!(over.play("2,2"), Err(MoveError::Over { .. })));

        let unreadable = make_position("othello", None, Some("z9")).err().unwrap();
        assert!(
            matches!(&unreadable, PositionError::Unreadable { title: "Othello", text, .. } if text == "z9"),
            "{unreadable}"
        );
        let unknown = make_position("chess", None, None).err().unwrap();
        assert!(matches!(unknown, PositionError::Game(_)), "{unknown}");
    }

    #[test]
    fn actions_solves_and_games_that_cannot_be_had_say_which_kind() {
        let game = make_position("ttt", None, Some("1,1")).unwrap();
        assert_eq!(game.move_of(0).unwrap(), "0,0");
        assert_eq!(
            game.move_of(4),
            Err(ActionError::Illegal {
                action: 4,
                legal: vec![0, 1, 2, 3, 5, 6, 7, 8]
            })
        );
        assert!(matches!(
            game.move_of(9),
            Err(ActionError::OutOfRange { last: 8, .. })
        ));
        let over = make_position("ttt", None, Some("oooxx....")).unwrap();
        assert_eq!(over.move_of(5), Err(ActionError::Over));

        assert_eq!(game.solve().unwrap().value, 0);
        let mut othello = make_position("othello", None, None).unwrap();
        othello.play("f5").unwrap();
        assert_eq!(
            othello.solve(),
            Err(SolveError::TreeTooBig { game: "othello" })
        );

        assert!(
            othello
                .write_game(["a", "b"])
                .unwrap()
                .starts_with("(;GM[Othello]")
        );
        assert_eq!(
            game.write_game(["a", "b"]),
            Err(WriteGameError::NoFormat { game: "ttt" })
        );
        let board = (gamelab_othello::transcript::parse("f5").unwrap().1).board_string();
        let set_up = make_position("othello", None, Some(&board)).unwrap();
        assert_eq!(
            set_up.write_game(["a", "b"]).map(drop).unwrap_err(),
            WriteGameError::NotFromStart
        );
    }

    #[test]
    fn an_agent_tells_its_last_search_and_its_tree_in_the_games_moves() {
        let pos = make_position("othello", None, Some("f5d6c3")).unwrap();
        let mut engine = pos.build_agent("engine:level=4").unwrap();
        let mut rng = gamelab_core::game_rng(0, 3, Side::Second);
        let mv = engine.choose(&*pos, &mut rng).unwrap();
        let search = engine.last_search().expect("the engine searches");
        assert_eq!((search.depth, search.pv[0].as_str()), (4, mv.as_str()));
        let mut line = pos.clone_box();
        line.play_all(&search.pv).expect("its line is legal");
        assert!(engine.move_stats(&*pos).is_none());

        let mut mcts = pos.build_agent("mcts:iterations=200").unwrap();
        let stats = mcts
            .move_stats(&*pos)
            .expect("a tree search keeps its statistics");
        let mut moves: Vec<String> = stats.iter().map(|s| s.mv.clone()).collect();
        moves.sort();
        let mut legal = pos.legal_moves();
        legal.sort();
        assert_eq!(moves, legal);
        assert_eq!(stats.iter().map(|s| s.visits).sum::<u64>(), 200);
    }
}
