//! Monte Carlo tree search (gamelab-core's `mcts`) on tic-tac-toe, whose every position can
//! be checked: wins in one are taken, losses in one blocked, and with enough iterations it
//! never loses.

mod common;

use common::open_positions;
use gamelab_core::mcts::{Mcts, MctsOptions, Proven, best_move};
use gamelab_core::proof::never_loses;
use gamelab_core::{Agent, Game, Side, SpecError, game_rng};
use gamelab_ttt::Ttt;

/// The fewest iterations with which `mcts` (seed 0, the default `c`) never loses,
/// reported in RESULTS.md: one fewer loses as x.
const NEVER_LOSES: u64 = 444;

fn agent(spec: &str) -> Box<dyn Agent<Ttt>> {
    gamelab_ttt::ai::registry::<gamelab_ttt::board::Bitboard>()
        .build(spec)
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// Whether the side to move wins at once by playing `mv`.
fn wins_at_once(game: &Ttt, mv: <Ttt as Game>::Move) -> bool {
    let mut after = game.clone();
    after.play_unchecked(mv);
    after.outcome().and_then(|o| o.winner()) == Some(game.to_move())
}

/// Whether, after `mv`, the opponent can win at once.
fn lets_opponent_win(game: &Ttt, mv: <Ttt as Game>::Move) -> bool {
    let mut after = game.clone();
    after.play_unchecked(mv);
    !after.is_over() && after.legal_moves().iter().any(|&m| wins_at_once(&after, m))
}

#[test]
fn takes_every_win_in_one_and_blocks_every_loss_in_one() {
    takes_wins_and_blocks(&format!("mcts:iterations={NEVER_LOSES}"));
    // Steered by a playout AI's policy (PUCT) instead of UCT.
    takes_wins_and_blocks(&format!(
        "mcts:iterations={NEVER_LOSES},playout=(ai5),prior=yes,c=10"
    ));
}

fn takes_wins_and_blocks(spec: &str) {
    let mut mcts = agent(spec);
    let (mut wins, mut blocks) = (0, 0);
    for game in open_positions().into_iter() {
        let moves = game.legal_moves();
        let mv = mcts.choose(&game, &mut game_rng(0, 0, Side::First));
        if moves.iter().any(|&m| wins_at_once(&game, m)) {
            assert!(
                wins_at_once(&game, mv),
                "{game}\nplays {mv} instead of winning"
            );
            wins += 1;
        } else if moves.iter().any(|&m| lets_opponent_win(&game, m))
            && moves.iter().any(|&m| !lets_opponent_win(&game, m))
        {
            assert!(
                !lets_opponent_win(&game, mv),
                "{game}\nplays {mv}, which loses at once"
            );
            blocks += 1;
        }
    }
    // Every position of the game was met: the test checks what it claims to.
    assert!(wins > 1000 && blocks > 500, "{wins} wins, {blocks} blocks");
}

#[test]
fn never_loses_with_enough_iterations_and_can_lose_with_fewer() {
    let spec = format!("mcts:iterations={NEVER_LOSES}");
    for side in Side::BOTH {
        let proof = never_loses::<Ttt>(&mut *agent(&spec), &spec, side).unwrap();
        assert_eq!(proof.losing_line, None, "{spec} as {side:?}");
    }
    let fewer = format!("mcts:iterations={}", NEVER_LOSES - 1);
    let proof = never_loses::<Ttt>(&mut *agent(&fewer), &fewer, Side::Second).unwrap();
    assert!(
        proof.losing_line.is_some(),
        "{fewer} never loses: lower NEVER_LOSES"
    );
}

#[test]
fn a_proven_root_ends_the_search_and_its_moves_say_so() {
    // o to move wins at (2, 0); the tree proves it long before 100,000 iterations.
    let game: Ttt = "oo.\nxx.\n...".parse().unwrap();
    let mut mcts = Mcts::<Ttt>::new(MctsOptions {
        iterations: 100_000,
        ..MctsOptions::default()
    });
    let (stats, iterations) = mcts.search(&game);
    assert!(iterations < 1_000, "{iterations} iterations");
    let win = stats
        .iter()
        .find(|s| s.proven == Some(Proven::Win))
        .unwrap();
    assert_eq!(best_move(&stats), win.mv);
    assert!(wins_at_once(&game, win.mv));
    // The whole game is a draw: with enough iterations every root move is proven.
    let mut mcts = Mcts::<Ttt>::new(MctsOptions {
        iterations: 1_000_000,
        ..MctsOptions::default()
    });
    let (stats, iterations) = mcts.search(&Ttt::start());
    assert!(iterations < 1_000_000, "the start was not proven");
    assert!(
        stats.iter().all(|s| s.proven == Some(Proven::Draw)),
        "{stats:?}"
    );
}

#[test]
fn the_same_position_gives_the_same_search() {
    let mut a = agent("mcts:iterations=300,seed=5");
    let mut b = agent("mcts:iterations=300,seed=5");
    let mut other_seed = agent("mcts:iterations=300,seed=6");
    let mut differs = false;
    for game in open_positions().into_iter().take(300) {
        let stats = a.analyst().unwrap().move_stats(&game).unwrap();
        assert_eq!(stats, b.analyst().unwrap().move_stats(&game).unwrap());
        // The arena's stream plays no part: the move is the position's.
        let mv = a.choose(&game, &mut game_rng(1, 2, Side::First));
        assert_eq!(mv, b.choose(&game, &mut game_rng(3, 4, Side::Second)));
        assert_eq!(
            a.analyst()
                .unwrap()
                .policy(&game)
                .unwrap()
                .moves()
                .collect::<Vec<_>>(),
            [mv]
        );
        differs |= other_seed.analyst().unwrap().move_stats(&game).unwrap() != stats;
    }
    assert!(differs, "the seed changes nothing");
}

#[test]
fn a_kept_tree_is_used_for_the_next_move() {
    for prior in [false, true] {
        kept_tree(Mcts::<Ttt>::new(MctsOptions {
            iterations: 2_000,
            reuse: true,
            prior,
            ..MctsOptions::default()
        }));
    }
}

fn kept_tree(mut mcts: Mcts<Ttt>) {
    let mut game = Ttt::start();
    let (first, _) = mcts.search(&game);
    let mv = best_move(&first);
    let visits_before = first.iter().find(|s| s.mv == mv).unwrap().visits;
    game.play(mv).unwrap();
    // The subtree under the move is kept: its visits are counted again.
    let (second, iterations) = mcts.search(&game);
    let total: u64 = second.iter().map(|s| s.visits).sum();
    assert!(total > iterations, "nothing was kept ({total} visits)");
    assert!(visits_before > 0);
    // A position that does not follow the old root starts a new tree.
    let (fresh, iterations) = mcts.search(&"o........".parse().unwrap());
    assert_eq!(fresh.iter().map(|s| s.visits).sum::<u64>(), iterations);
}

#[test]
fn a_tree_that_fills_its_memory_still_plays() {
    let mut mcts = Mcts::<Ttt>::new(MctsOptions {
        iterations: 5_000,
        max_nodes: 40,
        ..MctsOptions::default()
    });
    let (stats, iterations) = mcts.search(&Ttt::start());
    assert_eq!(iterations, 5_000);
    assert_eq!(stats.iter().map(|s| s.visits).sum::<u64>(), 5_000);
}

#[test]
fn playouts_by_another_ai_and_time_limits() {
    let game = Ttt::start();
    let mut greedy = agent("mcts:iterations=500,playout=(ai12s:ver=1)");
    assert!(greedy.analyst().unwrap().policy(&game).is_some());
    let mut timed = agent("mcts:time=0.05");
    assert!(
        timed.analyst().unwrap().policy(&game).is_none(),
        "a time limit has no fixed policy"
    );
    let mv = timed.choose(&game, &mut game_rng(0, 0, Side::First));
    assert!(game.legal_moves().contains(&mv));
    assert!(
        timed
            .analyst()
            .unwrap()
            .move_stats(&game)
            .unwrap()
            .iter()
            .map(|s| s.visits)
            .sum::<u64>()
            > 0
    );
}

#[test]
fn bad_specs_are_errors() {
    let registry = gamelab_ttt::ai::registry::<gamelab_ttt::board::Bitboard>();
    for (spec, expected) in [
        ("mcts:iterations=0", "iterations=0 needs a time limit"),
        (
            "mcts:iterations=-1",
            "expected a whole number from 0 to 1000000000",
        ),
        ("mcts:c=NaN", "expected a number from 0 to 100"),
        ("mcts:time=1e9", "expected a number from 0 to 3600"),
        ("mcts:memory=0", "expected a whole number from 1 to 65536"),
        ("mcts:reuse=maybe", "expected one of auto, yes, no"),
        (
            "mcts:playout=nobody",
            "playout `nobody`: unknown AI `nobody`",
        ),
        (
            "mcts:playout=(regression:model=/etc/passwd)",
            "playout `regression:model=/etc/passwd`: regression: model `/etc/passwd`: a playout AI reads no files",
        ),
        (
            "mcts:playout=(ai_abs_dls:maxdepth=9)",
            "playout `ai_abs_dls:maxdepth=9`: `9` is not a valid maxdepth",
        ),
    ] {
        let err = match registry.build(spec) {
            Ok(_) => panic!("{spec} was accepted"),
            Err(e) => e,
        };
        assert!(err.to_string().contains(expected), "{spec}: {err}");
        assert!(
            matches!(err, SpecError::Invalid { .. } | SpecError::BadValue { .. }),
            "{spec}: {err:?}"
        );
    }
}

#[test]
fn a_deepening_analysis_doubles_the_iterations_of_one_search_until_every_move_is_proven() {
    use gamelab_core::DeepeningEnd;
    use std::ops::ControlFlow;
    let game = <Ttt as gamelab_core::Notation>::parse_position("x...o....").unwrap();
    let mut mcts = agent("mcts:iterations=100");
    let mut steps = Vec::new();
    let end = mcts
        .analyst()
        .unwrap()
        .deepen_move_scores(&game, &mut |step| {
            steps.push(step.clone());
            ControlFlow::Continue(())
        });
    assert_eq!(end, Some(DeepeningEnd::Exact));
    let last = steps.last().unwrap();
    assert!(last.scores.iter().all(|s| s.exact), "{last:?}");
    // Each level is what a search of that many iterations gives: 100, 200, 400, …
    for (i, step) in steps[..steps.len() - 1].iter().enumerate() {
        assert_eq!(step.level, Some(i as u32 + 1));
        let iterations = 100u64 << i;
        assert_eq!(step.nodes, Some(iterations));
        let fresh = agent(&format!("mcts:iterations={iterations}"))
            .analyst()
            .unwrap()
            .move_scores(&game)
            .unwrap();
        let scores: Vec<_> = step.scores.iter().map(|s| (s.mv, s.score)).collect();
        assert_eq!(scores, fresh, "level {}", i + 1);
    }
    assert!(steps.len() >= 3, "{steps:?}");
    // Every value is proven: the game's, by minimax.
    fn negamax(game: &Ttt) -> f64 {
        match game.outcome() {
            Some(outcome) => match outcome.winner() {
                None => 0.0,
                // The side that just moved won.
                Some(_) => -1.0,
            },
            None => game
                .legal_moves()
                .iter()
                .map(|&mv| {
                    let mut after = game.clone();
                    after.play_unchecked(mv);
                    -negamax(&after)
                })
                .fold(f64::MIN, f64::max),
        }
    }
    for s in &last.scores {
        let mut after = game.clone();
        after.play_unchecked(s.mv);
        assert_eq!(s.score, -negamax(&after), "{}", s.mv);
    }
    // Each move's line is the tree's: that move first, then legal moves on.
    for step in &steps {
        for s in &step.scores {
            assert_eq!(s.line[0], s.mv);
            let mut line = game.clone();
            for &mv in &s.line {
                assert!(line.legal_moves().contains(&mv), "{:?}", s.line);
                line.play_unchecked(mv);
            }
        }
    }
    assert!(
        steps[0].scores.iter().any(|s| s.line.len() > 2),
        "{:?}",
        steps[0]
    );
    // Time alone: levels of 1,000, 2,000 … iterations, until the spec's time ends them.
    let mut timed = agent("mcts:iterations=0,time=0.2");
    let start = Ttt::start();
    let mut levels = Vec::new();
    let end = timed
        .analyst()
        .unwrap()
        .deepen_move_scores(&start, &mut |step| {
            levels.push(step.nodes.unwrap());
            ControlFlow::Continue(())
        });
    assert!(
        matches!(end, Some(DeepeningEnd::Stopped | DeepeningEnd::Exact)),
        "{end:?}"
    );
    assert_eq!(levels[0], 1000);
    // However short the time, the first level is searched whole (the stop alone ends it
    // sooner).
    let mut hurried = agent("mcts:iterations=0,time=0.000001");
    let mut first = None;
    hurried
        .analyst()
        .unwrap()
        .deepen_move_scores(&start, &mut |step| {
            first = first.or(step.nodes);
            ControlFlow::Continue(())
        });
    assert_eq!(first, Some(1000));
}
