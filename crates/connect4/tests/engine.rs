//! Connect Four's rules, counted and solved: perft, distinct positions, the solver against
//! plain negamax, and the AIs.

use gamelab_core::Notation;
use std::collections::HashSet;

use gamelab_connect4::solve::{Solver, plain_negamax, proven_value};
use gamelab_connect4::{ConnectFour, WIDTH};
use gamelab_core::arena::{self, MatchConfig, check_uniform_playout, run_match};
use gamelab_core::{Described, Game, GameRng, Side, game_rng};

/// Move sequences of `depth` plies; a won game ends its line.
fn perft(game: &mut ConnectFour, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for mv in game.legal_moves() {
        game.play_unchecked(mv);
        n += perft(game, depth - 1);
        game.undo();
    }
    n
}

#[test]
fn perft_from_the_empty_board() {
    let expected = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234];
    let mut game = ConnectFour::start();
    for (depth, &n) in (1..).zip(&expected) {
        assert_eq!(perft(&mut game, depth), n, "perft({depth})");
    }
}

#[test]
fn distinct_positions_after_each_ply() {
    let expected = [7, 49, 238, 1120, 4263, 16422, 54859, 184275];
    let mut level: Vec<ConnectFour> = vec![ConnectFour::start()];
    for &n in &expected {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for game in &level {
            for mv in game.legal_moves() {
                let mut child = game.clone();
                child.play_unchecked(mv);
                if seen.insert(child.key()) {
                    next.push(child);
                }
            }
        }
        assert_eq!(next.len(), n);
        level = next;
    }
}

/// A position `empties` squares from a full board, from a random game in which nobody
/// completed a four on the way.
fn late_position(rng: &mut GameRng, empties: usize) -> Option<ConnectFour> {
    let mut game = ConnectFour::start();
    while game.empties() > empties {
        let quiet: Vec<_> = game
            .legal_moves()
            .into_iter()
            .filter(|&mv| {
                let mut after = game.clone();
                after.play_unchecked(mv);
                !after.is_over()
            })
            .collect();
        if quiet.is_empty() {
            return None;
        }
        game.play_unchecked(quiet[rng.below(quiet.len())]);
    }
    Some(game)
}

#[test]
fn the_solver_agrees_with_plain_negamax() {
    let mut solver = Solver::default();
    let mut checked = 0;
    let mut values = HashSet::new();
    for seed in 0..400 {
        let mut rng = game_rng(seed, 0, Side::First);
        let empties = 4 + (seed as usize % 9);
        let Some(mut game) = late_position(&mut rng, empties) else {
            continue;
        };
        let exact = plain_negamax(&mut game.clone());
        let (value, best) = solver.solve(&game);
        assert_eq!(value, exact, "seed {seed}\n{game}");
        values.insert(value.signum());
        let best = best.expect("the game goes on");
        game.play_unchecked(best);
        assert_eq!(
            -plain_negamax(&mut game),
            exact,
            "the solver's move keeps the value"
        );
        checked += 1;
    }
    assert!(checked > 200, "{checked} positions");
    assert_eq!(values.len(), 3, "wins, draws and losses all checked");
}

#[test]
fn random_playouts_are_the_plain_loop() {
    check_uniform_playout(&ConnectFour::start(), 7, 5_000).unwrap();
}

#[test]
fn greedy_takes_wins_and_blocks() {
    let registry = ConnectFour::registry();
    let mut greedy = registry.build("greedy").unwrap();
    // red has three in column d: red to move wins there...
    let red_wins = ConnectFour::parse_position("dcdcdg").unwrap();
    assert_eq!(
        greedy
            .analyst()
            .unwrap()
            .policy(&red_wins)
            .unwrap()
            .moves()
            .map(|m| m.col())
            .collect::<Vec<_>>(),
        [3]
    );
    // ...and yellow to move must block it.
    let yellow_blocks = ConnectFour::parse_position("dcdcd").unwrap();
    assert_eq!(
        greedy
            .analyst()
            .unwrap()
            .policy(&yellow_blocks)
            .unwrap()
            .moves()
            .map(|m| m.col())
            .collect::<Vec<_>>(),
        [3]
    );
}

#[test]
fn alphabeta_beats_random_and_greedy() {
    let registry = ConnectFour::registry();
    for opponent in ["random", "greedy"] {
        let cfg = MatchConfig {
            games_per_side: 10,
            seed: 1,
            threads: 0,
            opening_plies: 0,
            ..Default::default()
        };
        let make_a = || registry.build("alphabeta:depth=4,exact=10").unwrap();
        let make_b = || registry.build(opponent).unwrap();
        let (result, _) = run_match::<ConnectFour, _>(&make_a, &make_b, &cfg, &|_| {}, false);
        let total = result.total();
        assert!(total.win >= 17, "alphabeta against {opponent}: {total:?}");
        assert_eq!(arena::digest_hex(result.digest).len(), 16);
    }
}

#[test]
fn the_board_view_marks_the_winning_four() {
    let game = ConnectFour::parse_position("dcdcdcd").unwrap();
    let (rows, cols) = ConnectFour::GRID;
    assert_eq!((rows, cols), (6, WIDTH));
    // Column d (3) rows 0-3 from the bottom: indices row-by-row from the top.
    assert_eq!(
        game.highlight(),
        [2 * 7 + 3, 3 * 7 + 3, 4 * 7 + 3, 5 * 7 + 3]
    );
    assert_eq!(game.piece(5 * 7 + 3), Some(Side::First));
    assert_eq!(game.piece(5 * 7 + 2), Some(Side::Second));
    assert_eq!(game.piece(0), None);
    let last = *game.history().last().unwrap();
    assert_eq!(ConnectFour::square_of(last), Some(2 * 7 + 3));
}

#[test]
fn alphabeta_values_every_move_and_deepens_to_the_solvers_values() {
    use gamelab_core::{Agent, DeepeningEnd};
    use std::ops::ControlFlow;
    let registry = ConnectFour::registry();
    let mut checked = 0;
    for seed in 0..40 {
        let mut rng = game_rng(seed, 0, Side::First);
        // 18 empties: each move's value is exact once its search reaches the end of the
        // game (a move that ends it at once, or level 18 at the latest).
        let Some(game) = late_position(&mut rng, 18) else {
            continue;
        };
        let mut ab = registry.build("alphabeta:exact=14").unwrap();
        let mut steps = Vec::new();
        let end = ab
            .analyst()
            .unwrap()
            .deepen_move_scores(&game, &mut |step| {
                steps.push(step.clone());
                ControlFlow::Continue(())
            });
        assert_eq!(end, Some(DeepeningEnd::Exact), "seed {seed}");
        // Each level is what `depth=N` values the moves at.
        for step in &steps[..steps.len().min(3)] {
            let level = step.level.unwrap();
            let once = registry
                .build(&format!("alphabeta:depth={level},exact=14"))
                .unwrap()
                .analyst()
                .unwrap()
                .move_scores(&game)
                .unwrap();
            let deep: Vec<_> = step.scores.iter().map(|s| (s.mv, s.score)).collect();
            assert_eq!(deep, once, "seed {seed}, level {level}");
        }
        // Exact values: a proven win 1000, or a win a search saw (1000 and more), as
        // the solver has them.
        let last = steps.last().unwrap();
        for s in &last.scores {
            let mut child = game.clone();
            child.play_unchecked(s.mv);
            let solved = -Solver::default().solve(&child).0;
            // One scale, whether the solver proved it or a search saw the end: a win
            // 1000 and the empty squares left when it ends.
            assert_eq!(s.score, proven_value(solved), "seed {seed}: {:?}", s);
            assert_eq!(s.line[0], s.mv);
        }
        checked += 1;
    }
    assert!(checked > 20, "{checked}");
}

/// Each level's values, best first, of alpha-beta's deepening of `game` to depth
/// `deepest`: every move's, or with `lines` the best lines'; and the positions searched.
fn deepening(
    game: &ConnectFour,
    lines: Option<usize>,
    deepest: u32,
) -> Vec<(Vec<(gamelab_connect4::Move, f64)>, u64)> {
    use gamelab_core::Agent;
    use std::ops::ControlFlow;
    let mut ab = ConnectFour::registry().build("alphabeta").unwrap();
    let analyst = ab.analyst().unwrap();
    let mut levels = Vec::new();
    let mut report = |step: &gamelab_core::Deepening<gamelab_connect4::Move>| {
        let best = step.best(step.scores.len());
        for s in &best.scores {
            // Each line is legal from the position.
            let mut after = game.clone();
            for &mv in &s.line {
                assert!(after.legal_moves().contains(&mv), "{:?}", s.line);
                after.play_unchecked(mv);
            }
        }
        levels.push((
            best.scores.iter().map(|s| (s.mv, s.score)).collect(),
            step.nodes.unwrap(),
        ));
        if step.level.unwrap() >= deepest {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    match lines {
        Some(count) => analyst.deepen_lines(game, count, &mut report),
        None => analyst.deepen_move_scores(game, &mut report),
    };
    levels
}

#[test]
fn alphabetas_best_lines_are_the_best_of_every_moves_values_for_fewer_positions() {
    let mut game = ConnectFour::start();
    for mv in "dcde".chars() {
        game.play(game.parse_move(&mv.to_string()).unwrap())
            .unwrap();
    }
    let every = deepening(&game, None, 9);
    for count in [1, 2, 4] {
        let lines = deepening(&game, Some(count), 9);
        assert_eq!(lines.len(), every.len());
        for (got, want) in lines.iter().zip(&every) {
            // A search's value does not depend on a window that holds it: the lines are
            // the best values of every move, exactly.
            let got: Vec<f64> = got.0.iter().map(|&(_, v)| v).collect();
            let want: Vec<f64> = want.0.iter().take(count).map(|&(_, v)| v).collect();
            assert_eq!(got, want, "{count} lines");
        }
        assert_eq!(lines[0].0[0], every[0].0[0]);
        let (searched_lines, searched_every) = (lines.last().unwrap().1, every.last().unwrap().1);
        assert!(
            searched_lines < searched_every,
            "{count} lines: {searched_lines} positions against {searched_every}"
        );
    }
}
