//! `gamelab.Position`: a position of any game of the catalogue, with its moves, history
//! and result. The game classes of the package (`TicTacToe`, `Othello`, …) make these.

use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::dyn_game::{AnyGame, make_position};
use crate::errors::{IllegalMoveError, PositionError};
use gamelab_core::Side;

/// A position of one of gamelab's games: its board, the side to move, the moves that led
/// here. Make one with the game's class (`gamelab.Othello()`,
/// `gamelab.TicTacToe("xo.xo....")`) or `gamelab.position(game, text)`.
///
/// Moves are texts in the game's notation (`"d3"`, `"(1, 1)"`, `"pass"`); anything else
/// given as a move is read by its `str()` (so `(1, 1)` and `4` work where the game writes
/// moves that way).
#[pyclass(module = "gamelab", name = "Position")]
pub struct Position {
    pub inner: Box<dyn AnyGame>,
}

impl Position {
    pub fn new(inner: Box<dyn AnyGame>) -> Position {
        Position { inner }
    }
}

/// A move given from Python, as text: a `str` as it is, anything else by its `str()`.
pub fn move_text(mv: &Bound<'_, PyAny>) -> PyResult<String> {
    match mv.extract::<String>() {
        Ok(text) => Ok(text),
        Err(_) => Ok(mv.str()?.extract::<String>()?),
    }
}

#[pymethods]
impl Position {
    /// `Position(game, position=None, *, board=None)`: the start of `game` (a name from
    /// `gamelab.games()`), or the position `position` in the game's notation.
    #[new]
    #[pyo3(signature = (game, position = None, *, board = None))]
    fn py_new(game: &str, position: Option<&str>, board: Option<&str>) -> PyResult<Position> {
        make_position(game, board, position)
            .map(Position::new)
            .map_err(|e| PositionError::new_err(e.to_string()))
    }

    /// The game's name in the catalogue (`ttt`, `othello`, `connect4`).
    #[getter]
    fn game(&self) -> &'static str {
        self.inner.name()
    }

    /// The board data structure this position runs on (tic-tac-toe has several; all
    /// play identical games).
    #[getter]
    fn board(&self) -> &'static str {
        self.inner.board()
    }

    /// The legal moves in the game's order, as the game writes them; empty once the
    /// game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_moves()
    }

    /// Plays `move` (a text in the game's notation). Raises `IllegalMoveError` (a
    /// `ValueError`) and leaves the position as it was when the rules refuse it.
    #[pyo3(signature = (move_))]
    fn play(&mut self, move_: &Bound<'_, PyAny>) -> PyResult<String> {
        let text = move_text(move_)?;
        self.inner
            .play(&text)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// The position after `move`, leaving this one as it is.
    #[pyo3(signature = (move_))]
    fn after(&self, move_: &Bound<'_, PyAny>) -> PyResult<Position> {
        let mut next = self.inner.clone_box();
        next.play(&move_text(move_)?)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        Ok(Position::new(next))
    }

    /// Takes back the last move and returns it; `None` at the start of the record (a
    /// position read from a board has nothing to take back).
    fn undo(&mut self) -> Option<String> {
        self.inner.undo()
    }

    /// The moves played to reach this position (from where it was read), oldest first.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.inner.history()
    }

    /// Moves played from the start.
    #[getter]
    fn ply(&self) -> usize {
        self.inner.ply()
    }

    /// The side to move, by the game's name for it (`o`, `black`, …).
    #[getter]
    fn to_move(&self) -> &'static str {
        self.inner.side_name(self.inner.to_move())
    }

    /// The game's names for its sides, the first to move first.
    #[getter]
    fn sides(&self) -> (&'static str, &'static str) {
        (
            self.inner.side_name(Side::First),
            self.inner.side_name(Side::Second),
        )
    }

    /// `None` while the game goes on; else how it ended (`"o wins"`, `"draw"`).
    #[getter]
    fn outcome(&self) -> Option<String> {
        self.inner.outcome().map(|o| self.inner.describe_outcome(o))
    }

    /// The side that won, by its name; `None` for a draw or a game still going.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.inner
            .outcome()?
            .winner()
            .map(|s| self.inner.side_name(s))
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// Pieces of each side, first side first, for games scored by counting them
    /// (Othello); else `None`.
    #[getter]
    fn score(&self) -> Option<(u32, u32)> {
        self.inner.score().map(|[a, b]| (a, b))
    }

    /// A 64-bit number that identifies the position within its game.
    #[getter]
    fn key(&self) -> u64 {
        self.inner.key()
    }

    /// The board row by row from the top: each square the name of the side holding it,
    /// or `None`.
    #[getter]
    fn cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let (rows, columns) = self.inner.grid();
        let cells = self.inner.cells();
        let names = |c: &Option<Side>| c.map(|s| self.inner.side_name(s));
        let rows: Vec<Bound<'py, PyList>> = (0..rows)
            .map(|r| PyList::new(py, cells[r * columns..(r + 1) * columns].iter().map(names)))
            .collect::<PyResult<_>>()?;
        PyList::new(py, rows)
    }

    /// Squares to mark (a winning line), by index row by row from the top.
    fn highlight(&self) -> Vec<usize> {
        self.inner.highlight()
    }

    /// The square (index row by row from the top) a legal move puts a piece on; `None`
    /// for a pass.
    #[pyo3(signature = (move_))]
    fn square_of(&self, move_: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        self.inner
            .square_of(&move_text(move_)?)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// The legal moves as numbered actions, in the order of `legal_moves()`: a square's
    /// index row by row from the top (Connect Four's column; Othello's pass is 64), as
    /// PettingZoo, Gymnasium and OpenSpiel number them.
    fn legal_actions(&self) -> Vec<usize> {
        self.inner.legal_actions()
    }

    /// The numbered action of a legal move (see `legal_actions`).
    #[pyo3(signature = (move_))]
    fn action_of(&self, move_: &Bound<'_, PyAny>) -> PyResult<usize> {
        self.inner
            .action_of(&move_text(move_)?)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// The legal move numbered `action` (see `legal_actions`), as the game writes it;
    /// `IllegalMoveError` for an action that is not legal here.
    fn move_of(&self, action: usize) -> PyResult<String> {
        self.inner
            .move_of(action)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// The moves played, as the game writes a line of them (Othello's transcript
    /// `f5d6c3`, tic-tac-toe's `1,1 0,0`): what `Position(game, text)` reads back.
    fn moves_text(&self) -> String {
        self.inner.write_moves()
    }

    /// The game so far in the game's own format (Othello's GGF, which NBoard and GGS
    /// read), with the players' names; `ValueError` for a game without one, or a position
    /// read from a board rather than reached by moves from the start.
    #[pyo3(signature = (players = None))]
    fn game_record(&self, players: Option<(String, String)>) -> PyResult<String> {
        let (first, second) = players.unwrap_or_else(|| {
            let [a, b] = [Side::First, Side::Second].map(|s| self.inner.side_name(s).to_string());
            (a, b)
        });
        self.inner
            .write_game([&first, &second])
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
    }

    /// An independent copy.
    fn copy(&self) -> Position {
        Position::new(self.inner.clone_box())
    }

    fn __copy__(&self) -> Position {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.copy()
    }

    /// Positions are equal when they are of the same game and the same position (the same
    /// board and side to move), however they were reached.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Position>() {
            Ok(other) => {
                let other = other.borrow();
                other.inner.name() == self.inner.name() && other.inner.key() == self.inner.key()
            }
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (self.inner.name(), self.inner.key()).hash(&mut hasher);
        hasher.finish()
    }

    /// The position drawn as SVG (Jupyter shows it), in the web app's look.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        draw(slf, "svg")
    }

    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        draw(slf, "html_figure")
    }

    /// The game's text form of the position.
    fn __str__(&self) -> String {
        self.inner.text()
    }

    fn __repr__(&self) -> String {
        let class = crate::catalogue::class_name(self.inner.title());
        let status = match self.inner.outcome() {
            Some(o) => self.inner.describe_outcome(o),
            None => format!("{} to move", self.inner.side_name(self.inner.to_move())),
        };
        format!(
            "<{class} position, ply {}, {status}>\n{}",
            self.inner.ply(),
            self.inner.text().trim_end()
        )
    }
}

/// A drawing by the package's Python side (`gamelab._draw`).
fn draw(pos: &Bound<'_, Position>, how: &str) -> PyResult<String> {
    pos.py()
        .import("gamelab._draw")?
        .call_method1(how, (pos,))?
        .extract()
}
