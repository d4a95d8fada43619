//! The learned evaluation and its search: features under symmetry, the model file, and
//! the search against plain negamax.

use gamelab_core::{Game, GameRng, Side, game_rng};
use gamelab_othello::bits::{flips, images, legal_moves};
use gamelab_othello::learned::{PatternModel, SCALE, shipped};
use gamelab_othello::patterns::{FEATURES, Features, features};
use gamelab_othello::search::{Limits, Searcher};
use gamelab_othello::{Move, Othello};

mod common;

/// A position after `plies` random moves (fewer if the game ends).
fn random_position(rng: &mut GameRng, plies: usize) -> Othello {
    let mut pos = Othello::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    pos
}

/// A model with pseudo-random weights everywhere: symmetry must hold whatever the weights.
fn noise_model() -> PatternModel {
    common::noise_model(7, 10, 0.5, true)
}

#[test]
fn a_position_and_its_images_evaluate_the_same() {
    let models = [noise_model(), (*shipped()).clone()];
    let mut f = Vec::new();
    for seed in 0..300 {
        let mut rng = game_rng(seed, 0, Side::First);
        let pos = random_position(&mut rng, (seed % 60) as usize);
        let (p, o) = pos.discs();
        let (ip, io) = (images(p), images(o));
        features(p, o, &mut f);
        let mut base = f.clone();
        base.sort_unstable();
        for k in 1..8 {
            features(ip[k], io[k], &mut f);
            f.sort_unstable();
            assert_eq!(
                f, base,
                "seed {seed}, image {k}: the same multiset of features"
            );
            for m in &models {
                assert_eq!(m.evaluate(ip[k], io[k]), m.evaluate(p, o));
            }
        }
    }
}

#[test]
fn features_kept_move_by_move_are_the_ones_read_from_the_board() {
    for seed in 0..200 {
        let mut rng = game_rng(seed, 5, Side::First);
        let mut pos = Othello::new();
        let (p, o) = pos.discs();
        let mut features = Features::new(p, o);
        loop {
            let (p, o) = pos.discs();
            assert_eq!(features, Features::new(p, o), "seed {seed}\n{pos}");
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            features = match mv {
                Move::Place(sq) => features.play(sq.index() as u32, flips(p, o, sq.index() as u32)),
                Move::Pass => features.pass(),
            };
            pos.play_unchecked(mv);
        }
    }
}

#[test]
fn the_evaluation_is_the_fitted_sum_over_every_feature() {
    // The evaluation reads each set of squares once, in tables that merge its orders; the
    // fit sees every order of every image. Both must give the same value.
    let model = noise_model();
    let mut f = Vec::new();
    for seed in 0..300 {
        let mut rng = game_rng(seed, 6, Side::First);
        let pos = random_position(&mut rng, (seed % 61) as usize);
        let (p, o) = pos.discs();
        features(p, o, &mut f);
        assert_eq!(f.len(), FEATURES);
        let stage = gamelab_othello::learned::stage(64 - (p | o).count_ones());
        assert_eq!(
            model.evaluate(p, o),
            model.value_of_features(stage, &f),
            "seed {seed}"
        );
    }
}

#[test]
fn a_model_without_term_weights_is_the_sum_over_its_patterns() {
    // Such a model skips counting moves; its value must still be the fitted sum.
    let model = common::noise_model(3, 10, 0.5, false);
    let mut f = Vec::new();
    for seed in 0..100 {
        let mut rng = game_rng(seed, 9, Side::First);
        let pos = random_position(&mut rng, (seed % 61) as usize);
        let (p, o) = pos.discs();
        features(p, o, &mut f);
        let stage = gamelab_othello::learned::stage(64 - (p | o).count_ones());
        assert_eq!(model.evaluate(p, o), model.value_of_features(stage, &f));
    }
}

#[test]
fn models_round_trip_and_bad_files_are_refused() {
    let model = noise_model();
    let bytes = model.to_bytes();
    assert_eq!(PatternModel::from_bytes(&bytes).unwrap(), model);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.glopat");
    model.save(&path).unwrap();
    assert_eq!(PatternModel::load(&path).unwrap(), model);
    assert!(PatternModel::from_bytes(b"not a model").is_err());
    let truncated = zstd::encode_all(&zstd::decode_all(&bytes[..]).unwrap()[..1000], 3).unwrap();
    let err = PatternModel::from_bytes(&truncated)
        .unwrap_err()
        .to_string();
    assert!(err.contains("expected"), "{err}");
    let err = PatternModel::load(dir.path()).unwrap_err().to_string();
    assert!(err.contains("not a regular file"), "{err}");
    // A weight beyond ±64 discs (the first of the first stage, after the 20-byte header
    // and the stage's intercept).
    let mut raw = zstd::decode_all(&bytes[..]).unwrap();
    raw[24..26].copy_from_slice(&20_000i16.to_le_bytes());
    let err = PatternModel::from_bytes(&zstd::encode_all(&raw[..], 3).unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("stage 0 has a weight beyond"), "{err}");
}

#[test]
fn the_shipped_model_predicts_endgame_results() {
    // Near the end of random games, the model's sign is the exact result's far more often
    // than chance: it is a real fit, not noise.
    let model = shipped();
    let (mut agree, mut total) = (0, 0);
    for seed in 0..120 {
        let mut rng = game_rng(seed, 3, Side::First);
        let pos = random_position(&mut rng, 48);
        if pos.is_over() || pos.legal_mask() == 0 {
            continue;
        }
        let (exact, _) = gamelab_othello::endgame::Solver::default().solve(&pos);
        if exact.abs() < 6 {
            continue;
        }
        let (p, o) = pos.discs();
        total += 1;
        agree += usize::from((model.evaluate(p, o) > 0) == (exact > 0));
    }
    assert!(total > 40 && agree * 10 > total * 8, "{agree} of {total}");
}

/// A finished game's value as the search scores it.
fn final_value(p: u64, o: u64) -> i32 {
    let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
    let e = 64 - np - no;
    let diff = match np.cmp(&no) {
        std::cmp::Ordering::Greater => np - no + e,
        std::cmp::Ordering::Less => np - no - e,
        std::cmp::Ordering::Equal => 0,
    };
    diff * SCALE + diff.signum() * 64 * SCALE
}

/// Plain negamax to `depth` with the same evaluation and pass rule as the search: a leaf
/// is evaluated as it stands unless the board is full, and kept below a finished game's
/// value (64 discs) whatever the weights add up to.
fn negamax(model: &PatternModel, p: u64, o: u64, depth: u32) -> i32 {
    if depth == 0 {
        let win = 64 * SCALE;
        return if p | o == u64::MAX {
            final_value(p, o)
        } else {
            model.evaluate(p, o).clamp(-(win - 1), win - 1)
        };
    }
    let legal = legal_moves(p, o);
    if legal == 0 {
        if legal_moves(o, p) == 0 {
            return final_value(p, o);
        }
        return -negamax(model, o, p, depth);
    }
    let mut best = i32::MIN;
    let mut bits = legal;
    while bits != 0 {
        let sq = bits.trailing_zeros();
        bits &= bits - 1;
        let f = flips(p, o, sq);
        best = best.max(-negamax(model, o ^ f, p | f | (1 << sq), depth - 1));
    }
    best
}

#[test]
fn the_search_finds_the_negamax_value() {
    let model = shipped();
    for seed in 0..40 {
        let mut rng = game_rng(seed, 1, Side::First);
        let pos = random_position(&mut rng, 10 + (seed % 30) as usize);
        if pos.is_over() || pos.legal_mask() == 0 {
            continue;
        }
        let depth = 1 + (seed % 4) as u32;
        let (p, o) = pos.discs();
        let expected = negamax(&model, p, o, depth);
        let mut searcher = Searcher::new(model.clone());
        let r = searcher.search(&pos, Limits::to_depth(depth));
        assert_eq!(
            r.score,
            gamelab_othello::search::to_discs(expected),
            "seed {seed} depth {depth}\n{pos}"
        );
        // The move it plays has that value.
        let Move::Place(sq) = r.best else {
            panic!("a move exists")
        };
        let f = flips(p, o, sq.index() as u32);
        assert_eq!(
            -negamax(&model, o ^ f, p | f | sq.bit(), depth - 1),
            expected
        );
        // Deterministic: again, with a fresh table, the same.
        let again = Searcher::new(model.clone()).search(&pos, Limits::to_depth(depth));
        assert_eq!(
            (again.best, again.score, again.nodes),
            (r.best, r.score, r.nodes)
        );
    }
}

/// Plain fail-hard alpha-beta, no table: the negamax value, sooner.
fn alpha_beta(model: &PatternModel, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return negamax(model, p, o, 0).clamp(alpha, beta);
    }
    let legal = legal_moves(p, o);
    if legal == 0 {
        if legal_moves(o, p) == 0 {
            return final_value(p, o).clamp(alpha, beta);
        }
        return -alpha_beta(model, o, p, depth, -beta, -alpha);
    }
    let mut bits = legal;
    while bits != 0 {
        let sq = bits.trailing_zeros();
        bits &= bits - 1;
        let f = flips(p, o, sq);
        let v = -alpha_beta(model, o ^ f, p | f | (1 << sq), depth - 1, -beta, -alpha);
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

/// What a search of `pos` to each of `depths` in turn (one searcher, its table kept),
/// cutting by Multi-ProbCut at `probcut`, finds on 1, 2 and 4 threads: one list per thread
/// count, after checking that every list is the one-thread list, move, score and
/// principal variation alike (not nodes: tests cut off by an earlier one count the
/// nodes they searched before they stopped).
fn same_on_any_threads(
    model: &std::sync::Arc<PatternModel>,
    pos: &Othello,
    probcut: f64,
    depths: &[u32],
) -> Vec<gamelab_othello::search::SearchResult> {
    let on = |threads| {
        let mut searcher = Searcher::new(model.clone());
        searcher.set_probcut(probcut);
        searcher.set_threads(threads);
        depths
            .iter()
            .map(|&depth| searcher.search(pos, Limits::to_depth(depth)))
            .collect::<Vec<_>>()
    };
    let one = on(1);
    for threads in [2, 4] {
        for (a, b) in on(threads).iter().zip(&one) {
            assert_eq!(
                (&a.best, a.score, &a.pv),
                (&b.best, b.score, &b.pv),
                "{threads} threads, depth {}\n{pos}",
                b.depth
            );
        }
    }
    one
}

#[test]
fn the_split_search_finds_the_negamax_value_on_any_number_of_threads() {
    use gamelab_othello::search::SPLIT_DEPTH;
    let model = shipped();
    // Deep enough to split at the root and the node below it.
    let depth = SPLIT_DEPTH + 1;
    for seed in 0..6 {
        let mut rng = game_rng(seed, 3, Side::First);
        let pos = random_position(&mut rng, 16 + 5 * seed as usize);
        if pos.is_over() || pos.legal_mask() == 0 {
            continue;
        }
        let r = &same_on_any_threads(&model, &pos, 0.0, &[depth])[0];
        let (p, o) = pos.discs();
        let expected = alpha_beta(&model, p, o, depth, -(1 << 24), 1 << 24);
        assert_eq!(
            r.score,
            gamelab_othello::search::to_discs(expected),
            "seed {seed}\n{pos}"
        );
    }
}

#[test]
fn the_split_search_with_probcut_is_the_same_on_any_number_of_threads() {
    let model = shipped();
    for seed in 0..4 {
        let mut rng = game_rng(seed, 4, Side::First);
        let pos = random_position(&mut rng, 20 + 6 * seed as usize);
        if pos.is_over() || pos.legal_mask() == 0 {
            continue;
        }
        // Twice: the second search starts from the first one's table.
        same_on_any_threads(
            &model,
            &pos,
            gamelab_othello::ai::PROBCUT_DEFAULT,
            &[12, 13],
        );
    }
}

#[test]
fn near_the_end_the_search_is_exact() {
    let model = shipped();
    for seed in 0..10 {
        let mut rng = game_rng(seed, 2, Side::First);
        let pos = random_position(&mut rng, 50);
        if pos.is_over() || pos.legal_mask() == 0 {
            continue;
        }
        let r = Searcher::new(model.clone()).search(
            &pos,
            Limits {
                depth: 4,
                exact: 14,
                time: None,
                unsettled: None,
            },
        );
        let (score, _) = gamelab_othello::endgame::Solver::default().solve(&pos);
        assert!(r.exact);
        assert_eq!(r.score, f64::from(score));
    }
}

#[test]
fn a_stopped_search_is_not_kept_as_the_levels_answer() {
    use gamelab_core::Agent;
    let mut rng = game_rng(4, 0, Side::First);
    let pos = random_position(&mut rng, 12);
    let mut engine = gamelab_othello::ai::Engine::new(shipped(), 6, None);
    let stop = gamelab_core::StopFlag::default();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    engine.set_stop(&stop);
    let hurried = engine.analyse(&pos);
    assert!(hurried.depth < 6, "the stop cut the search short");
    // The next request for the same position searches again, to the level's depth.
    engine.set_stop(&gamelab_core::StopFlag::default());
    let whole = engine.analyse(&pos);
    assert_eq!(whole.depth, 6);
    let mut fresh = gamelab_othello::ai::Engine::new(shipped(), 6, None);
    assert_eq!(whole.best, fresh.analyse(&pos).best);
}

/// A searcher that has searched a position keeps the result in hand: asked again with
/// no time at all, it answers with that search's move and depth rather than with what
/// its first iterations reach (time zero: every reading of the clock says the time is up,
/// on any machine).
#[test]
fn a_search_starts_from_what_its_table_knows_of_the_position() {
    let mut rng = game_rng(5, 0, Side::First);
    let pos = random_position(&mut rng, 24);
    let no_time = Limits {
        time: Some(std::time::Duration::ZERO),
        ..Limits::to_depth(20)
    };
    let mut searcher = Searcher::new(shipped());
    searcher.set_threads(1);
    let fresh = searcher.search(&pos, no_time);
    assert!(fresh.depth < 8, "a fresh table starts from depth 1");
    let deep = searcher.search(&pos, Limits::to_depth(8));
    let hurried = searcher.search(&pos, no_time);
    assert_eq!(
        (hurried.best, hurried.depth, &hurried.pv[..1]),
        (deep.best, 8, &deep.pv[..1])
    );
    // Deepening goes on from there, in fewer nodes than a search to that depth on a
    // table of its own.
    let deeper = searcher.search(&pos, Limits::to_depth(9));
    let mut alone = Searcher::new(shipped());
    alone.set_threads(1);
    let alone = alone.search(&pos, Limits::to_depth(9));
    assert_eq!(deeper.depth, 9);
    assert!(
        deeper.nodes < alone.nodes,
        "{} {}",
        deeper.nodes,
        alone.nodes
    );
}

#[test]
fn probcut_cuts_nodes_deterministically_and_never_touches_exact_scores() {
    let model = shipped();
    let (mut cut_nodes, mut full_nodes) = (0, 0);
    for seed in 0..12 {
        let mut rng = game_rng(seed, 7, Side::First);
        let pos = random_position(&mut rng, 16 + (seed % 16) as usize);
        if pos.is_over() || pos.legal_mask() == 0 {
            continue;
        }
        let limits = Limits::to_depth(8);
        let full = Searcher::new(model.clone()).search(&pos, limits);
        let run = || {
            let mut s = Searcher::new(model.clone());
            s.set_probcut(1.5);
            s.search(&pos, limits)
        };
        let (cut, again) = (run(), run());
        assert_eq!(
            (cut.best, cut.score, cut.nodes),
            (again.best, again.score, again.nodes)
        );
        assert!(pos.legal_moves().contains(&cut.best));
        cut_nodes += cut.nodes;
        full_nodes += full.nodes;
    }
    assert!(
        cut_nodes * 2 < full_nodes,
        "{cut_nodes} nodes with cuts, {full_nodes} without"
    );
    // Within the exact range the solver answers, and cuts never reach it.
    for seed in 0..6 {
        let mut rng = game_rng(seed, 8, Side::First);
        let pos = random_position(&mut rng, 46);
        if pos.is_over() || pos.legal_mask() == 0 {
            continue;
        }
        let mut s = Searcher::new(model.clone());
        s.set_probcut(0.5);
        let r = s.search(
            &pos,
            Limits {
                depth: 8,
                exact: 18,
                time: None,
                unsettled: None,
            },
        );
        let (exact, _) = gamelab_othello::endgame::Solver::default().solve(&pos);
        assert!(r.exact);
        assert_eq!(r.score, f64::from(exact), "seed {seed}\n{pos}");
    }
}

#[test]
fn training_labels_come_from_the_solver_near_the_end_a_search_far_from_it_and_the_result_between() {
    use gamelab_othello::endgame::Solver;
    use gamelab_othello::probcut::PROBCUT_DEFAULT;
    use gamelab_othello::selfplay::{SelfPlay, self_play};
    use gamelab_othello::training::{Labels, SearchLabels, TrainingSet};
    let how = SelfPlay {
        level: 1,
        games: 3,
        opening_plies: 8,
        seed: 9,
        exact_from: None,
    };
    let games = self_play(&shipped(), how, &|_| {}).unwrap();
    let labels = Labels {
        theoretical_depth: 64,
        exact_empties: 10,
        search: Some(SearchLabels {
            model: shipped(),
            depth: 3,
            from_empties: 40,
        }),
    };
    let (set, skipped) = TrainingSet::from_games(&games, &labels, &|_| {});
    assert_eq!(skipped, 0);
    let mut row = 0;
    let (mut solved, mut searched, mut results) = (0, 0, 0);
    for game in &games {
        let black = 2 * i32::from(game.black_discs) - 64;
        let mut pos = Othello::new();
        for &sq in &game.moves {
            pos.pass_if_forced(Move::Place(sq));
            let label = f64::from(set.rows.target(row));
            let expected = if pos.empties() <= 10 {
                solved += 1;
                f64::from(Solver::default().solve(&pos).0)
            } else if pos.empties() >= 40 {
                searched += 1;
                let mut searcher = Searcher::new(shipped());
                searcher.set_probcut(PROBCUT_DEFAULT);
                searcher.search(&pos, Limits::to_depth(3)).score
            } else {
                results += 1;
                f64::from(if pos.black_to_move() { black } else { -black })
            };
            assert!(
                (label - expected).abs() < 1e-3,
                "{pos:?}: {label} against {expected}"
            );
            pos.play_unchecked(Move::Place(sq));
            row += 1;
        }
    }
    assert_eq!(row, set.rows.len());
    assert!(solved > 0 && searched > 0 && results > 0);
    // Without the search the same positions far from the end carry the game's result.
    let by_result = Labels {
        search: None,
        ..labels
    };
    let (plain, _) = TrainingSet::from_games(&games, &by_result, &|_| {});
    let differ = (0..row)
        .filter(|&i| plain.rows.target(i) != set.rows.target(i))
        .count();
    assert!(differ > 0 && differ <= searched);
}

#[test]
fn self_play_perfect_from_some_empties_records_every_later_position_s_exact_score() {
    use gamelab_othello::endgame::Solver;
    use gamelab_othello::selfplay::{SelfPlay, self_play};
    let how = SelfPlay {
        level: 1,
        games: 6,
        opening_plies: 8,
        seed: 5,
        exact_from: Some(14),
    };
    let games = self_play(&shipped(), how, &|_| {}).unwrap();
    let mut solver = Solver::default();
    let mut checked = 0;
    for game in &games {
        let result = 2 * i32::from(game.black_discs) - 64;
        let mut pos = Othello::new();
        for &sq in &game.moves {
            pos.pass_if_forced(Move::Place(sq));
            if pos.empties() <= 14 {
                let (score, _) = solver.solve(&pos);
                let black = if pos.black_to_move() { score } else { -score };
                assert_eq!(black, result, "{pos:?} before {sq:?}");
                checked += 1;
            }
            pos.play_unchecked(Move::Place(sq));
        }
    }
    assert!(checked >= 6 * 10, "{checked} positions checked");
    // Without it, level 1 solves from 7 empties only and its games' results are others.
    let loose = self_play(
        &shipped(),
        SelfPlay {
            exact_from: None,
            ..how
        },
        &|_| {},
    )
    .unwrap();
    assert_ne!(games, loose);
}

#[test]
fn self_play_games_are_whole_reproducible_and_independent_of_threads() {
    use gamelab_othello::selfplay::{SelfPlay, self_play};
    let model = shipped();
    let how = SelfPlay {
        level: 1,
        games: 8,
        opening_plies: 6,
        seed: 3,
        exact_from: None,
    };
    let play = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| self_play(&model, how, &|_| {}).unwrap())
    };
    let (one, two) = (play(1), play(2));
    assert_eq!(one, two);
    assert_eq!(one.len(), 8);
    for game in &one {
        let replayed = game.replay().unwrap();
        assert!(replayed.finished, "every game is played to the end");
        assert_eq!(game.black_theoretical, game.black_discs);
    }
    // Distinct openings make distinct games.
    for (i, a) in one.iter().enumerate() {
        for b in &one[i + 1..] {
            assert_ne!(a.moves, b.moves);
        }
    }
}

#[test]
fn the_shipped_exact_sets_hold_what_their_names_say_and_their_easiest_scores_check() {
    use gamelab_othello::endgame::Solver;
    use gamelab_othello::ffo;
    let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("model");
    for (file, count, empties) in [
        ("exact-20-22.txt", 956, 20..=22),
        ("exact-23-26.txt", 240, 23..=26),
    ] {
        let set = ffo::read(&model.join(file)).unwrap();
        assert_eq!(set.len(), count, "{file}");
        for p in &set {
            assert!(empties.contains(&p.position.empties()), "{file}: {}", p.id);
            assert!(p.position.legal_mask() != 0, "{file}: {}", p.id);
        }
        // Solving them all takes minutes: two of the fewest empties each stand for the set.
        let mut solver = Solver::default();
        for p in set
            .iter()
            .filter(|p| p.position.empties() == *empties.start())
            .take(2)
        {
            let (score, _) = solver.solve(&p.position);
            assert_eq!(score, p.expected, "{file}: {}", p.id);
        }
    }
}
