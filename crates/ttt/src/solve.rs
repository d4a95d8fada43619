//! The whole game solved (seeds 001 and 004): the full game tree, and for every reachable
//! position its minimax value, the depth-aware "shortest victory" value of `ai_gtsv`, the
//! best and worst result anywhere below it, and the best moves of the perfect players.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::board::has_line;
use crate::{Player, Position, Square};

/// A result as a number: o win 1, draw 0, x win −1.
pub type Value = i8;

/// A position by its marks: o's 9-bit mask and x's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Marks(pub u16, pub u16);

impl Marks {
    /// The marks of `pos`.
    pub fn of<B: crate::board::Board>(pos: &Position<B>) -> Marks {
        let [o, x] = pos.masks();
        Marks(o, x)
    }

    /// The same key as `Position::key`.
    pub fn key(self) -> u64 {
        self.0 as u64 | (self.1 as u64) << 9
    }

    /// The marks on the board: the moves played.
    pub fn move_count(self) -> u32 {
        (self.0 | self.1).count_ones()
    }

    /// The player to move: o after an even number of moves.
    pub fn to_move(self) -> Player {
        if self.move_count().is_multiple_of(2) {
            Player::O
        } else {
            Player::X
        }
    }

    /// The winner's result if the game is over: o win 1, x win −1, draw 0.
    pub fn result(self) -> Option<Value> {
        if has_line(self.0) {
            Some(1)
        } else if has_line(self.1) {
            Some(-1)
        } else if self.move_count() == 9 {
            Some(0)
        } else {
            None
        }
    }

    fn empty(self) -> u16 {
        !(self.0 | self.1) & 0x1ff
    }

    fn child(self, sq: usize) -> Marks {
        match self.to_move() {
            Player::O => Marks(self.0 | 1 << sq, self.1),
            Player::X => Marks(self.0, self.1 | 1 << sq),
        }
    }

    /// Legal moves as square numbers, y-major.
    fn moves(self) -> impl Iterator<Item = usize> {
        let empty = if self.result().is_some() {
            0
        } else {
            self.empty()
        };
        (0..9).filter(move |s| empty & 1 << s != 0)
    }
}

/// One node of the full game tree: the tree lists nodes level by level (the article's
/// `nodelist_by_depth`), so a node's children are consecutive.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub marks: Marks,
    pub first_child: u32,
    pub children: u8,
    pub value: Value,
    /// The `ai_gtsv` value: o wins at depth 5/7/9 → 3/2/1, x wins at 6/8 → −2/−1.
    pub sv: Value,
}

/// The full game tree with values.
///
/// ```
/// use gamelab_ttt::solve::GameTree;
///
/// let tree = GameTree::build();
/// assert_eq!(tree.nodes.len(), 549_946);
/// assert_eq!(
///     tree.nodes_per_depth(),
///     [1, 9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872]
/// );
/// // The 255,168 games: o (first) wins, x wins, draws.
/// assert_eq!(tree.leaves(), (131_184, 77_904, 46_080));
/// assert_eq!(tree.distinct_positions(), 5_478);
/// assert_eq!((tree.nodes[0].value, tree.nodes[0].children), (0, 9));
/// ```
pub struct GameTree {
    pub nodes: Vec<Node>,
    /// Index of the first node of each depth, and one past the last node.
    pub level_starts: Vec<usize>,
}

fn sv_of_result(result: Value, depth: u32) -> Value {
    match result {
        1 => ((11 - depth) / 2) as Value,
        -1 => -(((10 - depth) / 2) as Value),
        _ => 0,
    }
}

impl GameTree {
    /// Builds every node from the empty board and computes values bottom-up.
    pub fn build() -> GameTree {
        let mut nodes = Vec::with_capacity(549_946);
        nodes.push(Node {
            marks: Marks(0, 0),
            first_child: 0,
            children: 0,
            value: 0,
            sv: 0,
        });
        let mut level_starts = vec![0, 1];
        loop {
            let (start, end) = (level_starts[level_starts.len() - 2], nodes.len());
            for i in start..end {
                let marks = nodes[i].marks;
                let first = nodes.len() as u32;
                for sq in marks.moves() {
                    nodes.push(Node {
                        marks: marks.child(sq),
                        first_child: 0,
                        children: 0,
                        value: 0,
                        sv: 0,
                    });
                }
                nodes[i].first_child = first;
                nodes[i].children = (nodes.len() as u32 - first) as u8;
            }
            if nodes.len() == end {
                break;
            }
            level_starts.push(nodes.len());
        }
        // Values from the deepest level up: a node's children always lie in later levels.
        for i in (0..nodes.len()).rev() {
            let n = nodes[i];
            if let Some(result) = n.marks.result() {
                nodes[i].value = result;
                nodes[i].sv = sv_of_result(result, n.marks.move_count());
                continue;
            }
            let children = &nodes[n.first_child as usize..][..n.children as usize];
            let (value, sv) = match n.marks.to_move() {
                Player::O => (
                    children.iter().map(|c| c.value).max(),
                    children.iter().map(|c| c.sv).max(),
                ),
                Player::X => (
                    children.iter().map(|c| c.value).min(),
                    children.iter().map(|c| c.sv).min(),
                ),
            };
            nodes[i].value = value.expect("a node in play has children");
            nodes[i].sv = sv.expect("a node in play has children");
        }
        GameTree {
            nodes,
            level_starts,
        }
    }

    /// Nodes at each depth 0..=9.
    pub fn nodes_per_depth(&self) -> Vec<usize> {
        self.level_starts.windows(2).map(|w| w[1] - w[0]).collect()
    }

    /// Finished games by result: (o wins, x wins, draws).
    pub fn leaves(&self) -> (usize, usize, usize) {
        let mut counts = (0, 0, 0);
        for n in self.nodes.iter().filter(|n| n.children == 0) {
            match n.value {
                1 => counts.0 += 1,
                -1 => counts.1 += 1,
                _ => counts.2 += 1,
            }
        }
        counts
    }

    /// Distinct positions among the nodes.
    pub fn distinct_positions(&self) -> usize {
        let mut seen = vec![false; 1 << 18];
        let mut n = 0;
        for node in &self.nodes {
            let k = node.marks.key() as usize;
            if !seen[k] {
                seen[k] = true;
                n += 1;
            }
        }
        n
    }
}

/// The value of the start position, by memoised minimax over positions (5,478 of them):
/// "solve from the start". Positions are memoised by their base-3 number (Σ cellᵢ·3ⁱ,
/// o 1, x 2), a 19,683-byte table that stays in cache.
///
/// ```
/// // Tic-tac-toe is a draw with perfect play.
/// assert_eq!(gamelab_ttt::solve::solve_start(), 0);
/// ```
pub fn solve_start() -> Value {
    const POW3: [usize; 9] = [1, 3, 9, 27, 81, 243, 729, 2_187, 6_561];
    fn value(m: Marks, index: usize, memo: &mut [i8]) -> Value {
        if memo[index] != i8::MIN {
            return memo[index];
        }
        let v = match m.result() {
            Some(r) => r,
            None => {
                let digit = if m.to_move() == Player::O { 1 } else { 2 };
                let children = m
                    .moves()
                    .map(|sq| value(m.child(sq), index + digit * POW3[sq], memo));
                match m.to_move() {
                    Player::O => children.max(),
                    Player::X => children.min(),
                }
                .expect("a position in play has moves")
            }
        };
        memo[index] = v;
        v
    }
    value(Marks(0, 0), 0, &mut [i8::MIN; 19_683])
}

/// What the solved table knows of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    pub value: Value,
    pub sv: Value,
    /// The best and the worst result of any line of play from here (o's view).
    pub leaf_max: Value,
    pub leaf_min: Value,
    /// Best moves as square masks: by value (`ai_gt`), by sv (`ai_gtsv`), by the
    /// draw-refined value (`ai_gtsvrd`). Empty when the game is over.
    pub best_gt: u16,
    pub best_sv: u16,
    pub best_svrd: u16,
}

impl Solved {
    /// The `ai_gtsvrd` score, in halves: the sv value doubled, except that a drawn position
    /// scores +1 (0.5) with x to move when o wins on some line below it, and −1 (−0.5) with
    /// o to move when x wins on some line below it.
    pub fn svrd_halves(&self, to_move: Player) -> i8 {
        if self.sv != 0 {
            2 * self.sv
        } else if to_move == Player::X && self.leaf_max == 1 {
            1
        } else if to_move == Player::O && self.leaf_min == -1 {
            -1
        } else {
            0
        }
    }
}

/// Every reachable position, solved.
///
/// ```
/// use gamelab_ttt::solve::{Marks, SolvedTable, squares_of};
/// use gamelab_ttt::{Player, Position, Square};
///
/// let table = SolvedTable::shared();
/// assert_eq!(table.positions.len(), 5_478);
/// // o to move with two in the top row: a win, soonest at (2, 0).
/// let pos: Position = "oo.xx....".parse().unwrap();
/// assert_eq!(Marks::of(&pos).to_move(), Player::O);
/// let solved = table.get(&pos).unwrap();
/// assert_eq!((solved.value, solved.sv), (1, 3));
/// assert_eq!(squares_of(solved.best_sv).collect::<Vec<_>>(), [Square::from_xy(2, 0).unwrap()]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolvedTable {
    pub positions: HashMap<Marks, Solved>,
}

fn mask_of(squares: impl Iterator<Item = usize>) -> u16 {
    squares.fold(0, |m, s| m | 1 << s)
}

impl SolvedTable {
    /// Solves every position reachable from the start.
    pub fn build() -> SolvedTable {
        fn visit(m: Marks, out: &mut HashMap<Marks, Solved>) -> Solved {
            if let Some(s) = out.get(&m) {
                return *s;
            }
            let solved = match m.result() {
                Some(r) => Solved {
                    value: r,
                    sv: sv_of_result(r, m.move_count()),
                    leaf_max: r,
                    leaf_min: r,
                    best_gt: 0,
                    best_sv: 0,
                    best_svrd: 0,
                },
                None => {
                    let children: Vec<(usize, Marks, Solved)> = m
                        .moves()
                        .map(|sq| (sq, m.child(sq), visit(m.child(sq), out)))
                        .collect();
                    let o = m.to_move() == Player::O;
                    let pick = |key: &dyn Fn(&(usize, Marks, Solved)) -> i8| -> (i8, u16) {
                        let best = if o {
                            children.iter().map(key).max()
                        } else {
                            children.iter().map(key).min()
                        }
                        .expect("moves");
                        let mask = mask_of(children.iter().filter(|c| key(c) == best).map(|c| c.0));
                        (best, mask)
                    };
                    let (value, best_gt) = pick(&|c| c.2.value);
                    let (sv, best_sv) = pick(&|c| c.2.sv);
                    let (_, best_svrd) = pick(&|c| c.2.svrd_halves(c.1.to_move()));
                    Solved {
                        value,
                        sv,
                        leaf_max: children.iter().map(|c| c.2.leaf_max).max().expect("moves"),
                        leaf_min: children.iter().map(|c| c.2.leaf_min).min().expect("moves"),
                        best_gt,
                        best_sv,
                        best_svrd,
                    }
                }
            };
            out.insert(m, solved);
            solved
        }
        let mut positions = HashMap::with_capacity(5_478);
        visit(Marks(0, 0), &mut positions);
        SolvedTable { positions }
    }

    /// The table of this process, solved once on first use.
    pub fn shared() -> &'static SolvedTable {
        static TABLE: OnceLock<SolvedTable> = OnceLock::new();
        TABLE.get_or_init(SolvedTable::build)
    }

    /// What the table knows of `pos`; `None` for a position no game reaches.
    pub fn get<B: crate::board::Board>(&self, pos: &Position<B>) -> Option<&Solved> {
        self.positions.get(&Marks::of(pos))
    }
}

/// The squares of a mask, y-major.
pub fn squares_of(mask: u16) -> impl Iterator<Item = Square> {
    Square::ALL.into_iter().filter(move |s| mask & s.bit() != 0)
}
