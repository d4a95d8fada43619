//! Monte Carlo tree search for any game: UCT over playouts, with results proven in the
//! tree backed up as in MCTS-Solver (Winands, Björnsson and Saito, 2008), so a proven
//! position is never sampled again and a forced win is always taken.
//!
//! The tree lives in one arena of fixed-size nodes, the children of a node side by side;
//! an iteration allocates nothing beyond the nodes it adds. A leaf is expanded on its second
//! visit, which halves the tree for the same play. Under an iteration limit the search is a
//! pure function of the position, the parameters and the seed (each playout draws from its
//! own stream of that seed, numbered from the position's key), so the agent has a fixed
//! policy: exact matches and `verify` work, and games are the same on any thread count.
//! Under a time limit the number of iterations, hence the move, depends on the machine.
//!
//! ```
//! use gamelab_core::mcts::{Mcts, MctsOptions, Proven, best_move, stats_table};
//! use gamelab_ttt::{Position, Square};
//!
//! // o to move, two in the top row: the tree proves the win at (2, 0).
//! let pos: Position = "oo.xx....".parse().unwrap();
//! let options = MctsOptions { iterations: 2_000, ..MctsOptions::default() };
//! let mut mcts = Mcts::new(options);
//! let (stats, iterations) = mcts.search(&pos);
//! assert!(iterations <= 2_000);
//! let win = Square::from_xy(2, 0).unwrap();
//! assert_eq!(best_move(&stats), win);
//! assert_eq!(stats.iter().find(|s| s.mv == win).unwrap().proven, Some(Proven::Win));
//! // An iteration limit and a seed: the same statistics every time.
//! assert_eq!(Mcts::new(options).search(&pos).0, stats);
//! assert!(stats_table(&stats).starts_with("move    visits   mean  proven\n"));
//! let (nodes, bytes) = mcts.last_tree().unwrap();
//! assert!(nodes > 1 && bytes > nodes);
//! ```

use std::fmt::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crate::registry::{AgentEntry, FileAccess, ParamSpec, Params, Registry, SpecError};
use crate::{
    Agent, Analyst, Cutoff, DeepScore, Deepening, DeepeningEnd, EngineHooks, Game, GameRng,
    Outcome, Policy, Side, StopFlag, StreamKey,
};

pub use crate::analysis::{MoveStat, Proven};

/// How a search is limited and steered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsOptions {
    /// Iterations per move (0: only the time limit ends the search).
    pub iterations: u64,
    /// Time per move.
    pub time: Option<Duration>,
    /// UCT's exploration constant `c` in `mean + c·√(ln N / n)`.
    pub exploration: f64,
    /// Keep the subtree of the moves played from one move to the next.
    pub reuse: bool,
    /// The seed of the playouts' streams.
    pub seed: u64,
    /// Most nodes the tree may hold; beyond it leaves are no longer expanded.
    pub max_nodes: usize,
    /// Steer the tree by the playout agent's policy (PUCT) instead of UCT.
    pub prior: bool,
}

impl Default for MctsOptions {
    fn default() -> Self {
        MctsOptions {
            iterations: 10_000,
            time: None,
            exploration: DEFAULT_EXPLORATION,
            reuse: false,
            seed: 0,
            max_nodes: 1 << 24,
            prior: false,
        }
    }
}

/// UCT's `c` for results from 0 to 1: about √2/2. Against Othello's `minimax:depth=3`
/// anything from 0.3 to 1.4 scored the same within the noise of 200 games (RESULTS.md,
/// "Monte Carlo tree search").
pub const DEFAULT_EXPLORATION: f64 = 0.7;

/// Searches stop before a visit count could overflow the nodes' counters.
const MAX_VISITS: u32 = (1 << 31) - 1;

/// Iterations between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 64;

/// Node proof states: unknown, or a [`Proven`] for the node's mover.
const UNKNOWN: u8 = 3;

/// Most children a node can have: its count shares 16 bits with its proof state, which
/// keeps a node of a game with small moves (Othello's, tic-tac-toe's) at 16 bytes.
const MAX_CHILDREN: usize = (1 << 14) - 1;

/// One position of the tree, reached by `mv` from its parent.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    /// Index of the first child; 0 while the node is not expanded (the root is never a
    /// child).
    first_child: u32,
    visits: u32,
    /// Sum of the results for the side that played `mv`, in half points (win 2, draw 1).
    half_points: u32,
    /// The number of children (low 14 bits) and the proof state (`Proven::rank` for the
    /// node's mover, or [`UNKNOWN`]; high 2 bits).
    children_and_proof: u16,
    mv: M,
}

impl<M> Node<M> {
    fn new(mv: M) -> Self {
        Node {
            first_child: 0,
            visits: 0,
            half_points: 0,
            children_and_proof: u16::from(UNKNOWN) << 14,
            mv,
        }
    }

    fn children(&self) -> usize {
        usize::from(self.children_and_proof) & MAX_CHILDREN
    }

    fn proof(&self) -> u8 {
        (self.children_and_proof >> 14) as u8
    }

    fn set_children(&mut self, n: usize) {
        debug_assert!(n <= MAX_CHILDREN);
        self.children_and_proof = (self.children_and_proof & !(MAX_CHILDREN as u16)) | n as u16;
    }

    fn set_proof(&mut self, proof: u8) {
        self.children_and_proof =
            (self.children_and_proof & MAX_CHILDREN as u16) | u16::from(proof) << 14;
    }

    fn proven(&self) -> Option<Proven> {
        match self.proof() {
            0 => Some(Proven::Loss),
            1 => Some(Proven::Draw),
            2 => Some(Proven::Win),
            _ => None,
        }
    }

    fn mean(&self) -> Option<f64> {
        (self.visits > 0).then(|| f64::from(self.half_points) / (2.0 * f64::from(self.visits)))
    }

    fn child_range(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.children()
    }
}

const ROOT: usize = 0;

/// What a node of `G`'s tree takes: the node, and its prior when the tree is steered.
fn bytes_per_node<G: Game>(prior: bool) -> usize {
    std::mem::size_of::<Node<G::Move>>() + if prior { std::mem::size_of::<f32>() } else { 0 }
}

/// How playouts are played.
enum Playout<G: Game> {
    /// The game's own uniform playout ([`EngineHooks::uniform_playout`]).
    Uniform,
    /// Both sides played by this agent.
    Agent(Box<dyn Agent<G>>),
}

/// The tree of one search and what it needs to grow without allocating.
struct Tree<G: Game> {
    nodes: Vec<Node<G::Move>>,
    /// Each node's probability under the playout agent's policy at its parent, when the
    /// search is steered by it (else empty).
    priors: Vec<f32>,
    /// The moves from the tree's root to the position the iteration is at, each with the
    /// side that played it.
    path: Vec<(usize, Side)>,
    /// The position at the root, and after each iteration the position it was at.
    root: Option<G>,
    /// The root's result for its side to move, once proven.
    root_proof: Option<Proven>,
    /// The tree a re-rooting copies into, kept for its allocation.
    spare: Vec<Node<G::Move>>,
    queue: Vec<(usize, usize)>,
}

impl<G: EngineHooks> Tree<G> {
    fn new() -> Self {
        Tree {
            nodes: Vec::new(),
            priors: Vec::new(),
            path: Vec::new(),
            root: None,
            root_proof: None,
            spare: Vec::new(),
            queue: Vec::new(),
        }
    }

    fn reset(&mut self, game: &G) {
        self.nodes.clear();
        self.priors.clear();
        // The root's move is never read: any move of the right type serves.
        self.nodes.push(Node::new(
            *game
                .legal_moves()
                .first()
                .expect("a search needs a game that goes on"),
        ));
        self.root = Some(game.clone());
        self.root_proof = None;
    }

    /// Makes `game` the root, keeping what the tree knows of it when `game` follows the
    /// old root by moves the tree holds; else starts a new tree.
    fn reroot(&mut self, game: &G, reuse: bool) {
        let Some(old) = self
            .root
            .as_ref()
            .filter(|_| reuse && !self.nodes.is_empty())
        else {
            return self.reset(game);
        };
        let (old_line, new_line) = (old.history(), game.history());
        if old.key() == game.key() && old_line == new_line {
            return;
        }
        let Some(extra) = new_line
            .strip_prefix(old_line)
            .filter(|_| new_line.len() > old_line.len())
        else {
            return self.reset(game);
        };
        let mut node = ROOT;
        for &mv in extra {
            let found = self.nodes[node]
                .child_range()
                .find(|&c| self.nodes[c].mv == mv);
            match found {
                Some(child) => node = child,
                None => return self.reset(game),
            }
        }
        // A proven node is never expanded further; searching on from it would find the
        // same result, so a fresh root costs nothing and keeps the code simple.
        if self.nodes[node].proven().is_some() {
            return self.reset(game);
        }
        self.copy_subtree(node);
        self.root = Some(game.clone());
        self.root_proof = None;
    }

    /// Replaces the tree by the subtree under `top`, its nodes in the same order.
    fn copy_subtree(&mut self, top: usize) {
        let (old, new, queue) = (&self.nodes, &mut self.spare, &mut self.queue);
        new.clear();
        queue.clear();
        new.push(old[top]);
        queue.push((top, 0));
        let mut next = 0;
        while next < queue.len() {
            let (from, to) = queue[next];
            next += 1;
            if old[from].children() == 0 {
                new[to].first_child = 0;
                continue;
            }
            new[to].first_child = new.len() as u32;
            for child in old[from].child_range() {
                queue.push((child, new.len()));
                new.push(old[child]);
            }
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
        if !self.priors.is_empty() {
            // The queue lists the old index of every new node, in the new order.
            let priors: Vec<f32> = self
                .queue
                .iter()
                .map(|&(from, _)| self.priors[from])
                .collect();
            self.priors = priors;
        }
    }

    /// PUCT's choice among the children of `parent` not yet proven (as AlphaZero's, with
    /// the playout policy as the prior): the highest `q + c·P·√N / (1 + n)`, where `q` is
    /// the mean, or for a child never visited the parent's mean for its side to move.
    fn select_by_prior(&self, parent: usize, exploration: f64, parent_mean: f64) -> usize {
        let node = &self.nodes[parent];
        let root_visits = f64::from(node.visits.max(1)).sqrt();
        let mut best = (f64::NEG_INFINITY, usize::MAX);
        for c in node.child_range() {
            let child = &self.nodes[c];
            if child.proof() != UNKNOWN {
                continue;
            }
            let n = f64::from(child.visits);
            let q = child.mean().unwrap_or(parent_mean);
            let score = q + exploration * f64::from(self.priors[c]) * root_visits / (1.0 + n);
            if score > best.0 {
                best = (score, c);
            }
        }
        debug_assert!(
            best.1 != usize::MAX,
            "an unproven node has an unproven child"
        );
        best.1
    }

    /// UCT's choice among the children of `parent` not yet proven: the first one never
    /// visited, else the highest `mean + c·√(ln N / n)`, the first of equals.
    fn select(&self, parent: usize, exploration: f64) -> usize {
        let node = &self.nodes[parent];
        let log_visits = f64::from(node.visits.max(1)).ln();
        let mut best = (f64::NEG_INFINITY, usize::MAX);
        for c in node.child_range() {
            let child = &self.nodes[c];
            if child.proof() != UNKNOWN {
                continue;
            }
            if child.visits == 0 {
                return c;
            }
            let n = f64::from(child.visits);
            let score =
                f64::from(child.half_points) / (2.0 * n) + exploration * (log_visits / n).sqrt();
            if score > best.0 {
                best = (score, c);
            }
        }
        debug_assert!(
            best.1 != usize::MAX,
            "an unproven node has an unproven child"
        );
        best.1
    }

    /// Adds the children of `node` (whose position is `game`), unless the tree is full.
    fn expand(
        &mut self,
        node: usize,
        game: &G,
        max_nodes: usize,
        steer: Option<Option<&mut dyn Agent<G>>>,
    ) -> bool {
        let moves = game.legal_moves();
        if self.nodes.len() + moves.len() > max_nodes.min(u32::MAX as usize)
            || moves.len() > MAX_CHILDREN
        {
            return false;
        }
        self.nodes[node].first_child = self.nodes.len() as u32;
        self.nodes[node].set_children(moves.len());
        self.nodes.extend(moves.iter().map(|&mv| Node::new(mv)));
        if let Some(agent) = steer {
            self.priors.resize(self.nodes.len() - moves.len(), 0.0);
            let policy = agent
                .and_then(|a| a.analyst())
                .and_then(|analyst| analyst.policy(game));
            let p = |mv| {
                policy.as_ref().map_or(1.0 / moves.len() as f64, |policy| {
                    policy
                        .entries()
                        .iter()
                        .find(|(m, _)| *m == mv)
                        .map_or(0.0, |&(_, p)| p)
                })
            };
            self.priors.extend(moves.iter().map(|&mv| p(mv) as f32));
        }
        true
    }

    /// The result of `parent` for the side `mover` that played into it, when its children
    /// decide it: one child a win for `to_move` (who plays all of them), or every child
    /// proven and the best of them.
    fn decided(&self, parent: usize, to_move: Side, mover: Side) -> Option<Proven> {
        let view = |p: Proven| if mover == to_move { p } else { p.flipped() };
        let (mut best, mut open) = (Proven::Loss, false);
        for c in self.nodes[parent].child_range() {
            match self.nodes[c].proven() {
                Some(Proven::Win) => return Some(view(Proven::Win)),
                Some(p) if p.rank() > best.rank() => best = p,
                Some(_) => {}
                None => open = true,
            }
        }
        (!open).then(|| view(best))
    }
}

/// The root statistics of the last search, and the position's key.
struct LastSearch<M> {
    key: u64,
    stats: Vec<MoveStat<M>>,
    iterations: u64,
    /// Nodes in the tree at the end.
    nodes: usize,
}

/// Monte Carlo tree search as an agent of any game.
pub struct Mcts<G: Game> {
    options: MctsOptions,
    playout: Playout<G>,
    tree: Tree<G>,
    last: Option<LastSearch<G::Move>>,
    stop: Option<StopFlag>,
    /// A game clock's share for each move ([`Agent::set_move_time`]).
    move_time: Option<Duration>,
}

impl<G: EngineHooks> Mcts<G> {
    /// MCTS with the game's own uniform playouts.
    pub fn new(options: MctsOptions) -> Self {
        Mcts {
            options,
            playout: Playout::Uniform,
            tree: Tree::new(),
            last: None,
            stop: None,
            move_time: None,
        }
    }

    /// MCTS whose playouts let `agent` play both sides.
    pub fn with_playout_agent(options: MctsOptions, agent: Box<dyn Agent<G>>) -> Self {
        let mut mcts = Mcts::new(options);
        if !agent.is_uniform_random() {
            mcts.playout = Playout::Agent(agent);
        }
        mcts
    }

    /// Whether the move depends on the position alone: no time limit, no tree kept.
    fn is_fixed(&self) -> bool {
        self.options.time.is_none() && self.move_time.is_none() && !self.options.reuse
    }

    /// Searches `game` and returns each root move's statistics (in the game's move order)
    /// and the iterations run.
    pub fn search(&mut self, game: &G) -> (Vec<MoveStat<G::Move>>, u64) {
        assert!(!game.is_over(), "search called on a finished game");
        if let Some(last) = &self.last
            && last.key == game.key()
            && self.is_fixed()
        {
            return (last.stats.clone(), last.iterations);
        }
        let run = self.run(game, self.options.iterations, 0, false, &mut |_, _| {
            ControlFlow::Continue(())
        });
        (run.stats, run.iterations)
    }

    /// Searches `game` for `iterations` (0: until the time, the stop or a proof), calling
    /// `checkpoint` with the iterations done and the tree after each; it may end the
    /// search. With `lines`, the line the tree expects after each root move. The time
    /// ends no search before `at_least` iterations (the stop does).
    fn run(
        &mut self,
        game: &G,
        iterations: u64,
        at_least: u64,
        lines: bool,
        checkpoint: &mut dyn FnMut(u64, &Tree<G>) -> ControlFlow<()>,
    ) -> Run<G::Move> {
        let limit = crate::clock::shorter(self.options.time, self.move_time);
        let deadline = limit.map(|t| Instant::now() + t);
        let cutoff = Cutoff::new(deadline, self.stop.clone());
        let untimed = Cutoff::new(None, self.stop.clone());
        self.tree.reroot(game, self.options.reuse);
        // Each search reads the streams of its own games of the seed: numbered from the
        // root's key, so the same position draws the same playouts whatever came before.
        let key = StreamKey::new(self.options.seed);
        let first = crate::mix64(game.key()) >> 2;
        let mut streams = [
            key.side_stream(Side::First, first),
            key.side_stream(Side::Second, first),
        ];
        let mut rngs = [streams[0].next_game(), streams[1].next_game()];
        let mut position = self.tree.root.take().expect("a root");
        let mut done = 0u64;
        let mut cut = false;
        loop {
            if self.tree.root_proof.is_some() || self.tree.nodes[ROOT].visits >= MAX_VISITS {
                break;
            }
            if iterations > 0 && done >= iterations {
                break;
            }
            let now_cutoff = if done < at_least { &untimed } else { &cutoff };
            if done.is_multiple_of(CHECK_EVERY) && done > 0 && now_cutoff.reached() {
                cut = true;
                break;
            }
            if done > 0 {
                if checkpoint(done, &self.tree).is_break() {
                    break;
                }
                for (stream, rng) in streams.iter_mut().zip(rngs.iter_mut()) {
                    stream.refill(rng);
                }
            }
            iterate(
                &mut self.tree,
                &mut position,
                &mut self.playout,
                &mut rngs,
                &self.options,
            );
            done += 1;
        }
        self.tree.root = Some(position);
        let stats = root_stats(&self.tree);
        let lines = if lines {
            root_lines(&self.tree)
        } else {
            Vec::new()
        };
        self.last = Some(LastSearch {
            key: game.key(),
            stats: stats.clone(),
            iterations: done,
            nodes: self.tree.nodes.len(),
        });
        if !self.options.reuse {
            // A web session may keep many agents between moves: keep no tree for them.
            self.tree = Tree::new();
        }
        Run {
            stats,
            lines,
            iterations: done,
            cut,
        }
    }

    /// The size of the last search's tree: its nodes and the bytes they fill.
    pub fn last_tree(&self) -> Option<(usize, usize)> {
        let per_node = bytes_per_node::<G>(self.options.prior);
        self.last.as_ref().map(|l| (l.nodes, l.nodes * per_node))
    }

    fn search_move(&mut self, game: &G) -> G::Move {
        let moves = game.legal_moves();
        if moves.len() == 1 {
            return moves[0];
        }
        best_move(&self.search(game).0)
    }
}

/// What [`Mcts::run`] did.
struct Run<M> {
    stats: Vec<MoveStat<M>>,
    /// The line after each root move, when asked for.
    lines: Vec<Vec<M>>,
    iterations: u64,
    /// The time or the stop ended it.
    cut: bool,
}

/// What the search learned about each move at the root of `tree`.
fn root_stats<G: Game>(tree: &Tree<G>) -> Vec<MoveStat<G::Move>> {
    child_stats(tree, ROOT)
}

/// What the search learned about each move out of `node`.
fn child_stats<G: Game>(tree: &Tree<G>, node: usize) -> Vec<MoveStat<G::Move>> {
    let nodes = &tree.nodes;
    nodes[node]
        .child_range()
        .map(|c| MoveStat {
            mv: nodes[c].mv,
            visits: u64::from(nodes[c].visits),
            mean: nodes[c].mean(),
            proven: nodes[c].proven(),
        })
        .collect()
}

/// The line the tree expects after each root move.
fn root_lines<G: Game>(tree: &Tree<G>) -> Vec<Vec<G::Move>> {
    tree.nodes[ROOT]
        .child_range()
        .map(|c| line_from(tree, c))
        .collect()
}

/// The line the tree expects after `node`'s move, that move first: at each node below,
/// the child [`best_move`] would play, until a node not expanded.
fn line_from<G: Game>(tree: &Tree<G>, mut node: usize) -> Vec<G::Move> {
    let nodes = &tree.nodes;
    let mut line = vec![nodes[node].mv];
    loop {
        let children = nodes[node].child_range();
        if children.is_empty() || nodes[node].visits < 2 {
            return line;
        }
        let mv = best_move(&child_stats(tree, node));
        node = children
            .into_iter()
            .find(|&c| nodes[c].mv == mv)
            .expect("a child plays it");
        line.push(mv);
    }
}

/// A move's score from its statistics: its proven result, else its mean, from −1
/// (lost) to 1 (won), 0 even, as every AI's scores run.
fn score_of<M>(stat: &MoveStat<M>) -> f64 {
    let value = stat.proven.map_or(stat.mean.unwrap_or(0.0), Proven::value);
    2.0 * value - 1.0
}

/// The move to play from the root's statistics: a proven win; else the most visited move
/// not proven lost (the first of equals), unless a proven draw is worth more than its
/// mean; else, all moves lost, the most visited.
///
/// ```
/// use gamelab_core::mcts::{MoveStat, Proven, best_move};
///
/// let stat = |mv, visits, mean, proven| MoveStat { mv, visits, mean: Some(mean), proven };
/// let draw = stat('d', 10, 0.5, Some(Proven::Draw));
/// assert_eq!(best_move(&[stat('a', 90, 0.4, None), draw]), 'd', "a sure draw beats 0.4");
/// assert_eq!(best_move(&[stat('a', 90, 0.6, None), draw]), 'a');
/// let lost = stat('l', 500, 0.0, Some(Proven::Loss));
/// assert_eq!(best_move(&[lost, stat('a', 90, 0.1, None)]), 'a', "never a proven loss");
/// ```
pub fn best_move<M: Copy>(stats: &[MoveStat<M>]) -> M {
    if let Some(win) = stats.iter().find(|s| s.proven == Some(Proven::Win)) {
        return win.mv;
    }
    let most_visited = |filter: &dyn Fn(&MoveStat<M>) -> bool| {
        stats
            .iter()
            .filter(|s| filter(s))
            .reduce(|best, s| if s.visits > best.visits { s } else { best })
    };
    let open = most_visited(&|s| s.proven.is_none());
    let draw = stats.iter().find(|s| s.proven == Some(Proven::Draw));
    match (open, draw) {
        (Some(open), Some(draw)) => {
            if open.mean.unwrap_or(0.0) < 0.5 {
                draw.mv
            } else {
                open.mv
            }
        }
        (Some(open), None) => open.mv,
        (None, Some(draw)) => draw.mv,
        (None, None) => most_visited(&|_| true).expect("a move").mv,
    }
}

/// The root's moves as a table: visits, mean result and proven result of each.
pub fn stats_table<M: std::fmt::Display>(stats: &[MoveStat<M>]) -> String {
    let mut out = String::from("move    visits   mean  proven\n");
    for s in stats {
        let mean = s.mean.map_or("-".to_string(), |m| format!("{m:.3}"));
        let proven = s.proven.map_or("-", Proven::name);
        let _ = writeln!(
            out,
            "{:<6}{:>8}  {mean:>5}  {proven}",
            s.mv.to_string(),
            s.visits
        );
    }
    out
}

/// One iteration: down the tree by UCT, a leaf expanded on its second visit, a playout
/// (or the proven result), and the result backed up with any proof it completes.
fn iterate<G: EngineHooks>(
    tree: &mut Tree<G>,
    position: &mut G,
    playout: &mut Playout<G>,
    rngs: &mut [GameRng; 2],
    options: &MctsOptions,
) {
    tree.path.clear();
    let mut node = ROOT;
    let steered = options.prior;
    while tree.nodes[node].children() > 0 {
        let child = if steered {
            // The parent's mean is for the side that moved into it; its children's movers
            // are the side to move there.
            let mean = if node == ROOT {
                0.5
            } else {
                tree.nodes[node].mean().unwrap_or(0.5)
            };
            let mover_now = position.to_move();
            let parent_mover = tree.path.last().map(|&(_, side)| side);
            let fpu = if parent_mover == Some(mover_now) {
                mean
            } else {
                1.0 - mean
            };
            tree.select_by_prior(node, options.exploration, fpu)
        } else {
            tree.select(node, options.exploration)
        };
        tree.path.push((child, position.to_move()));
        position.play_unchecked(tree.nodes[child].mv);
        node = child;
    }
    let mut outcome = position.outcome();
    if outcome.is_none()
        && (node == ROOT || tree.nodes[node].visits > 0)
        && tree.expand(
            node,
            position,
            options.max_nodes,
            if steered {
                Some(match playout {
                    Playout::Agent(agent) => Some(agent.as_mut() as &mut dyn Agent<G>),
                    Playout::Uniform => None,
                })
            } else {
                None
            },
        )
    {
        let child = if steered {
            tree.select_by_prior(node, options.exploration, 0.5)
        } else {
            tree.nodes[node].first_child as usize
        };
        tree.path.push((child, position.to_move()));
        position.play_unchecked(tree.nodes[child].mv);
        node = child;
        outcome = position.outcome();
    }
    let outcome = match outcome {
        Some(outcome) => {
            let &(leaf, mover) = tree.path.last().expect("the root goes on");
            debug_assert_eq!(leaf, node);
            tree.nodes[leaf].set_proof(Proven::of(outcome, mover).rank());
            outcome
        }
        None => match playout {
            Playout::Uniform => position.uniform_playout(rngs).0,
            Playout::Agent(agent) => agent_playout(position, agent.as_mut(), rngs),
        },
    };
    for &(n, mover) in &tree.path {
        let node = &mut tree.nodes[n];
        node.visits += 1;
        node.half_points += (outcome.score_for(mover) + 1) as u32;
    }
    tree.nodes[ROOT].visits += 1;
    // Proofs move up while each completes its parent's.
    for k in (0..tree.path.len()).rev() {
        let (child, to_move) = tree.path[k];
        if tree.nodes[child].proof() == UNKNOWN {
            break;
        }
        if k == 0 {
            tree.root_proof = tree.decided(ROOT, to_move, to_move);
            break;
        }
        let (parent, mover) = tree.path[k - 1];
        match tree.decided(parent, to_move, mover) {
            Some(p) => tree.nodes[parent].set_proof(p.rank()),
            None => break,
        }
    }
    for _ in 0..tree.path.len() {
        position.undo();
    }
}

/// A playout by `agent` for both sides, on `position` and back: nothing is allocated.
fn agent_playout<G: Game>(
    position: &mut G,
    agent: &mut dyn Agent<G>,
    rngs: &mut [GameRng; 2],
) -> Outcome {
    let mut plies = 0;
    let outcome = loop {
        if let Some(outcome) = position.outcome() {
            break outcome;
        }
        let side = position.to_move().index();
        let mv = agent.choose(position, &mut rngs[side]);
        position.play_unchecked(mv);
        plies += 1;
    };
    for _ in 0..plies {
        position.undo();
    }
    outcome
}

impl<G: EngineHooks> Agent<G> for Mcts<G> {
    fn choose(&mut self, game: &G, _rng: &mut GameRng) -> G::Move {
        self.search_move(game)
    }

    fn set_stop(&mut self, stop: &StopFlag) {
        self.stop = Some(stop.clone());
        if let Playout::Agent(agent) = &mut self.playout {
            agent.set_stop(stop);
        }
    }

    fn set_move_time(&mut self, limit: Option<Duration>) -> bool {
        self.move_time = limit;
        true
    }

    fn analyst(&mut self) -> Option<&mut dyn Analyst<G>> {
        Some(self)
    }
}

impl<G: EngineHooks> Analyst<G> for Mcts<G> {
    fn policy(&mut self, game: &G) -> Option<Policy<G::Move>> {
        (self.is_fixed() && !game.is_over()).then(|| Policy::uniform(&[self.search_move(game)]))
    }

    fn move_scores(&mut self, game: &G) -> Option<Vec<(G::Move, f64)>> {
        let stats = self.move_stats(game)?;
        Some(stats.iter().map(|s| (s.mv, score_of(s))).collect())
    }

    /// A proven move's value exact, the others estimates (their mean result).
    fn move_values(&mut self, game: &G) -> Option<Vec<DeepScore<G::Move>>> {
        let stats = self.move_stats(game)?;
        Some(
            stats
                .iter()
                .map(|s| DeepScore::valued(s.mv, score_of(s), s.proven.is_some()))
                .collect(),
        )
    }

    fn score_scale(&self) -> crate::valuation::ScoreScale {
        crate::valuation::ScoreScale::WinRate
    }

    /// The statistics at 1, 2, 4, 8 … times the spec's iterations (1,000 for a search by
    /// time alone) of one search, each level what a search of that many iterations
    /// gives, a proven move's value exact, each move's line the tree's (at each node the
    /// move [`best_move`] would play); until every move is proven, the tree proves
    /// the position (then the level is where it stopped), the spec's `time` runs out or
    /// the stop. The first level is searched whole unless the stop ends it: a time
    /// limit, however short, gives every move a value.
    fn deepen_move_scores(
        &mut self,
        game: &G,
        report: &mut dyn FnMut(&Deepening<G::Move>) -> ControlFlow<()>,
    ) -> Option<DeepeningEnd> {
        if game.is_over() {
            return None;
        }
        let first = if self.options.iterations > 0 {
            self.options.iterations
        } else {
            1000
        };
        let step =
            |level: u32, stats: &[MoveStat<G::Move>], lines: Vec<Vec<G::Move>>, done| Deepening {
                level: Some(level),
                scores: stats
                    .iter()
                    .zip(lines)
                    .map(|(s, line)| DeepScore {
                        mv: s.mv,
                        score: score_of(s),
                        exact: s.proven.is_some(),
                        line,
                        level: Some(level),
                    })
                    .collect(),
                nodes: Some(done),
            };
        let (mut level, mut next) = (1u32, first);
        let mut declined = false;
        // The iterations of the last level reported.
        let mut reported = None;
        let run = self.run(game, 0, first, true, &mut |done, tree| {
            if done < next {
                return ControlFlow::Continue(());
            }
            let stats = root_stats(tree);
            let all_proven = stats.iter().all(|s| s.proven.is_some());
            if report(&step(level, &stats, root_lines(tree), done)).is_break() {
                declined = true;
                return ControlFlow::Break(());
            }
            reported = Some(done);
            level += 1;
            next = next.saturating_mul(2);
            if all_proven {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if declined {
            return Some(DeepeningEnd::Declined);
        }
        if run.cut {
            return Some(DeepeningEnd::Stopped);
        }
        let all_proven = run.stats.iter().all(|s| s.proven.is_some());
        // Ended between two levels (a proof, or no more visits): the tree as it is.
        if reported != Some(run.iterations)
            && report(&step(level, &run.stats, run.lines, run.iterations)).is_break()
        {
            return Some(DeepeningEnd::Declined);
        }
        Some(if all_proven {
            DeepeningEnd::Exact
        } else {
            DeepeningEnd::Deepest
        })
    }

    fn move_stats(&mut self, game: &G) -> Option<Vec<MoveStat<G::Move>>> {
        if game.is_over() {
            return None;
        }
        if let Some(last) = &self.last
            && last.key == game.key()
        {
            return Some(last.stats.clone());
        }
        Some(self.search(game).0)
    }

    fn explain(&mut self, game: &G) -> Option<String> {
        if game.is_over() {
            return None;
        }
        let (stats, iterations) = self.search(game);
        let (nodes, bytes) = self.last_tree().expect("a search");
        let mut out = format!(
            "{iterations} iterations, a tree of {nodes} nodes ({:.1} MiB)\n",
            bytes as f64 / f64::from(1 << 20)
        );
        out.push_str(&stats_table(&stats));
        let _ = write!(out, "plays {}", best_move(&stats));
        Some(out)
    }
}

/// The `mcts` entry of a game's registry. `registry` builds the game's other AIs, for
/// playouts by one of them.
pub fn entry<G: EngineHooks>(registry: fn() -> Registry<G>) -> AgentEntry<G> {
    entry_with(registry, MctsDefaults::PLAIN)
}

/// The defaults of a game's `mcts`: how its playouts are played and its tree is steered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsDefaults {
    /// `uniform` or the spec of one of the game's AIs.
    pub playout: &'static str,
    pub prior: bool,
    pub exploration: f64,
}

impl MctsDefaults {
    /// Plain UCT over the game's uniform playouts: needs nothing of the game.
    pub const PLAIN: MctsDefaults = MctsDefaults {
        playout: "uniform",
        prior: false,
        exploration: DEFAULT_EXPLORATION,
    };
}

/// [`entry`] with the game's own defaults, for a game whose uniform playouts mislead the
/// search (Othello's: RESULTS.md, "Monte Carlo tree search").
pub fn entry_with<G: EngineHooks>(
    registry: fn() -> Registry<G>,
    defaults: MctsDefaults,
) -> AgentEntry<G> {
    AgentEntry::new(
        "mcts",
        "Monte Carlo tree search (UCT, or PUCT steered by the playout AI) over random playouts, proving wins and losses in its tree (MCTS-Solver)",
        vec![
            ParamSpec::int(
                "iterations",
                10_000,
                0,
                1_000_000_000,
                "playouts per move (none by default under a time limit), 0 for none (then `time` must be set)",
            ),
            ParamSpec::float(
                "time",
                0.0,
                0.0,
                3600.0,
                "seconds per move, 0 for none (results then depend on the machine)",
            ),
            ParamSpec::float(
                "c",
                defaults.exploration,
                0.0,
                100.0,
                "the exploration constant: UCT's mean + c·√(ln N / n), or with prior=true mean + c·P·√N / (1 + n)",
            ),
            ParamSpec::text(
                "playout",
                Some(defaults.playout),
                "`uniform` (the game's own fast random playout) or an AI of this game that plays both sides, e.g. (greedy); it reads no files",
            ),
            ParamSpec::choice(
                "reuse",
                &["auto", "yes", "no"],
                "auto",
                "keep the subtree of the moves played from one move to the next; auto keeps it under a time limit only (with an iteration limit the move then depends on the position alone, as `verify` and exact matches need)",
            ),
            // 2^53 − 1: the largest whole number a JSON client keeps exactly.
            ParamSpec::int(
                "seed",
                0,
                0,
                (1 << 53) - 1,
                "seed of the playouts' random streams",
            ),
            ParamSpec::bool(
                "prior",
                defaults.prior,
                "steer the tree by the playout AI's move probabilities (PUCT, as in AlphaZero: mean + c·P·√N / (1 + n)) instead of UCT; with uniform playouts, or a playout AI without a fixed policy, every move gets the same probability; c then wants to be larger (10 in Othello)",
            ),
            ParamSpec::int(
                "memory",
                256,
                1,
                65_536,
                "MiB the tree may fill; then its leaves are no longer expanded",
            ),
        ],
        move |p| build(p, registry),
    )
}

fn build<G: EngineHooks>(
    p: &Params,
    registry: fn() -> Registry<G>,
) -> Result<Box<dyn Agent<G>>, SpecError> {
    let invalid = |reason: String| SpecError::Invalid {
        agent: "mcts".into(),
        reason,
    };
    let seconds = p.float("time");
    // A time limit alone ends the search unless iterations are asked for too.
    let iterations = if seconds > 0.0 && !p.is_explicit("iterations") {
        0
    } else {
        p.int("iterations") as u64
    };
    if iterations == 0 && seconds == 0.0 {
        return Err(invalid(
            "iterations=0 needs a time limit (e.g. time=1)".into(),
        ));
    }
    let time = (seconds > 0.0).then(|| Duration::from_secs_f64(seconds));
    let options = MctsOptions {
        iterations,
        time,
        exploration: p.float("c"),
        reuse: match p.text("reuse") {
            "yes" => true,
            "no" => false,
            _ => time.is_some(),
        },
        seed: p.int("seed") as u64,
        max_nodes: p.int("memory") as usize * (1 << 20) / bytes_per_node::<G>(p.bool("prior")),
        prior: p.bool("prior"),
    };
    match p.text("playout") {
        "uniform" => Ok(Box::new(Mcts::<G>::new(options))),
        spec => {
            let agent = registry()
                .build_with(spec, &FileAccess::Refused("a playout AI reads no files"))
                .map_err(|e| invalid(format!("playout `{spec}`: {e}")))?;
            Ok(Box::new(Mcts::with_playout_agent(options, agent)))
        }
    }
}
