//! The AI catalogue: each rule on positions where it decides, the article's own positions,
//! evaluations worked out by hand, parameters and their errors.

mod common;

use common::open_positions;
use gamelab_core::{Agent, Evaluate, Game, Side, SpecError, game_rng};
use gamelab_ttt::ai::ranked_evaluation;
use gamelab_ttt::ai::score::ScoreParams;
use gamelab_ttt::{Position, Square, Ttt};

fn sq(x: usize, y: usize) -> Square {
    Square::from_xy(x, y).unwrap()
}

fn pos(text: &str) -> Ttt {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn agent(spec: &str) -> Box<dyn Agent<Ttt>> {
    gamelab_ttt::ai::registry()
        .build(spec)
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The AI's set of best moves in the position.
fn best(spec: &str, position: &str) -> Vec<Square> {
    agent(spec)
        .analyst()
        .unwrap()
        .policy(&pos(position))
        .expect("every catalogue AI has a distribution")
        .moves()
        .collect()
}

const ALL_AIS: [&str; 21] = [
    "ai1", "ai1s", "ai2", "ai2s", "ai3", "ai3s", "ai4", "ai4s", "ai5", "ai5s", "ai6", "ai6s",
    "ai7", "ai7s", "ai8s", "ai9s", "ai10s", "ai11s", "ai12s", "ai13s", "ai14s",
];

fn corners_and_edges() -> (Vec<Square>, Vec<Square>) {
    (
        vec![sq(0, 0), sq(2, 0), sq(0, 2), sq(2, 2)],
        vec![sq(1, 0), sq(0, 1), sq(2, 1), sq(1, 2)],
    )
}

#[test]
fn rule_1_first_empty_square() {
    assert_eq!(best("ai1", "o........"), [sq(1, 0)]);
    assert_eq!(best("ai1s", "o........"), [sq(1, 0)]);
    assert_eq!(best("ai1", "oxo.x...."), [sq(0, 1)]);
}

#[test]
fn rule_2_any_legal_move() {
    let p = "o...x....";
    let legal = pos(p).legal_moves().to_vec();
    assert_eq!(best("ai2", p), legal);
    assert_eq!(best("ai2s", p), legal);
}

#[test]
fn rule_3_centre_then_random() {
    assert_eq!(best("ai3", "........."), [sq(1, 1)]);
    assert_eq!(best("ai3s", "o........"), [sq(1, 1)]);
    let taken = "....o....";
    assert_eq!(best("ai3", taken), pos(taken).legal_moves().to_vec());
    assert_eq!(best("ai3s", taken), pos(taken).legal_moves().to_vec());
}

#[test]
fn rule_4_centre_then_corners_in_order() {
    assert_eq!(best("ai4", "........."), [sq(1, 1)]);
    assert_eq!(best("ai4", "....o...."), [sq(0, 0)]);
    assert_eq!(best("ai4s", "x...o...."), [sq(2, 0)]);
    assert_eq!(
        best("ai4", "x.o.o...x"),
        [sq(0, 2)],
        "(0,0) and (2,0) are taken"
    );
    // centre and corners all taken: random among the edges
    let full = "o.o.o.x.x";
    assert_eq!(best("ai4", full), corners_and_edges().1);
}

#[test]
fn rule_5_wins_when_it_can() {
    // o to move can win at (2,0) (top row) and at (0,2) (left column).
    let two_wins = "oo.o.x.xx";
    assert_eq!(
        best("ai5", two_wins),
        [sq(2, 0)],
        "the first winning square"
    );
    assert_eq!(
        best("ai5s", two_wins),
        [sq(2, 0), sq(0, 2)],
        "any winning square"
    );
    let no_win = "o...x....";
    assert_eq!(best("ai5", no_win), pos(no_win).legal_moves().to_vec());
}

#[test]
fn rule_6_wins_then_blocks() {
    // x to move; o threatens (2,0).
    assert_eq!(best("ai6", "oo..x...."), [sq(2, 0)]);
    assert_eq!(best("ai6s", "oo..x...."), [sq(2, 0)]);
    // x to move can win at (2,1) and must otherwise block (2,0): winning comes first.
    assert_eq!(best("ai6", "oo.xx.o.."), [sq(2, 1)]);
    assert_eq!(best("ai6s", "oo.xx.o.."), [sq(2, 1)]);
    // x to move; o threatens twice, at (2,0) and (0,2): ai6 blocks the first; ai6s sees
    // every move lose and keeps them all.
    let double = "oo.ox...x";
    assert_eq!(best("ai6", double), [sq(2, 0)]);
    assert_eq!(best("ai6s", double), pos(double).legal_moves().to_vec());
}

#[test]
fn rule_7_centre_first_then_rule_6() {
    assert_eq!(best("ai7", "o........"), [sq(1, 1)]);
    assert_eq!(best("ai7s", "o........"), [sq(1, 1)]);
    // centre taken: block
    assert_eq!(best("ai7", "o.o.x...."), [sq(1, 0)]);
    assert_eq!(best("ai7s", "o.o.x...."), [sq(1, 0)]);
}

/// o to move: (0,1) and (0,2) each make two (2,0,1) lines at once, a fork.
const FORK: &str = "ox..o...x";

#[test]
fn rule_8_makes_an_open_line() {
    assert_eq!(best("ai8s", FORK), [sq(2, 0), sq(0, 1), sq(2, 1), sq(0, 2)]);
}

#[test]
fn rules_9_and_later_make_a_fork() {
    for ai in ["ai9s", "ai10s", "ai11s", "ai12s", "ai13s", "ai14s"] {
        assert_eq!(best(ai, FORK), [sq(0, 1), sq(0, 2)], "{ai}");
    }
}

#[test]
fn every_score_ai_takes_a_win_and_blocks_a_loss() {
    for ai in [
        "ai6s", "ai7s", "ai8s", "ai9s", "ai10s", "ai11s", "ai12s", "ai13s", "ai14s",
    ] {
        assert_eq!(best(ai, "oo.xx.o.."), [sq(2, 1)], "{ai} must win");
        assert_eq!(best(ai, "oo..x...."), [sq(2, 0)], "{ai} must block");
    }
}

#[test]
fn seed_000_ai12s_ver2_takes_the_centre() {
    // At the start, after a corner opening and after an edge opening.
    for p in [".........", "o........", ".o......."] {
        assert_eq!(best("ai12s", p), [sq(1, 1)], "{p}");
        assert_eq!(best("ai12s:ver=2", p), [sq(1, 1)], "{p}");
    }
}

#[test]
fn seed_000_special_diagonal_case_at_move_4() {
    // o (0,0), x centre, o (2,2): x must take an edge; a corner loses to a fork.
    let (_, edges) = corners_and_edges();
    for ai in ["ai12s", "ai13s", "ai14s", "ai12s:ver=1"] {
        assert_eq!(best(ai, "o...x...o"), edges, "{ai}");
    }
    // ai11s has no such rule and takes a corner, which loses.
    let ai11 = best("ai11s", "o...x...o");
    assert!(ai11.iter().all(|s| !edges.contains(s)), "{ai11:?}");
}

#[test]
fn ai12s_versions() {
    // ver 1 has the centre-first rule: it takes the centre even when it could win.
    let p = "oo.x....x"; // o to move: (2,0) wins, and the centre is free
    assert_eq!(best("ai12s:ver=1", p), [sq(1, 1)]);
    assert_eq!(best("ai12s", p), [sq(2, 0)]);
    // ver 3 is score_victory=200, the same as setting it by name.
    let by_ver = ranked_evaluation("ai12s:ver=3").unwrap();
    let by_name = ranked_evaluation("ai12s:score_victory=200").unwrap();
    assert_eq!(by_ver, by_name);
    assert_eq!(by_ver.params.score_victory, 200.0);
}

#[test]
fn ai11s_versions_and_explicit_overrides() {
    let scores = |spec: &str| {
        let p = ranked_evaluation(spec).unwrap().params;
        (p.score_201, p.score_102, p.score_012)
    };
    assert_eq!(scores("ai11s:ver=1"), (1.0, 1.0, -1.0));
    assert_eq!(scores("ai11s:ver=2"), (2.0, 1.0, -1.0));
    assert_eq!(scores("ai11s:ver=3"), (2.0, 0.5, -1.0));
    assert_eq!(scores("ai11s"), (2.0, 0.5, -1.0));
    assert_eq!(scores("ai11s:ver=1,score_201=5"), (5.0, 1.0, -1.0));
    assert_eq!(
        scores("ai11s:score_201=5,ver=1"),
        (5.0, 1.0, -1.0),
        "order does not matter"
    );
    assert_eq!(scores("ai10s"), (1.0, 1.0, 0.0));
}

#[test]
fn ai14s_evaluations_by_hand() {
    let eval = ranked_evaluation("ai14s").unwrap();
    let score = |board: &str| eval.score(&pos(board));

    // o opened in a corner: three lines hold one o and two blanks, (1,0,2) × 3 × 0.5.
    assert_eq!(score("O........"), 1.5);
    // o in the centre: four such lines: 4 × 0.5 (the article's 2.0).
    assert_eq!(score("....O...."), 2.0);
    // o (0,0), x (1,0), from x's view: (0,1,2) on the left column and the diagonal,
    // 2 × −1; (1,0,2) on the middle column, 0.5: −1.5 (the article's trace says −1.5).
    assert_eq!(score("oX......."), -1.5);
    // x just played (2,1); o has two lines open, (0,2,1) twice: −100 × 2 = −200, and
    // ai14s goes on: x's right column is (2,0,1) once, +2; the anti-diagonal and the bottom
    // row are (1,0,2), 2 × 0.5. −200 + 2 + 1 = −197.
    assert_eq!(score("oo.oxX..x"), -197.0);
    // ai13s returns −100 × 2, ai12s −100.
    assert_eq!(
        ranked_evaluation("ai13s").unwrap().score(&pos("oo.oxX..x")),
        -200.0
    );
    assert_eq!(
        ranked_evaluation("ai12s").unwrap().score(&pos("oo.oxX..x")),
        -100.0
    );
    // the mover won: score_victory.
    assert_eq!(score("ooOxx...."), 300.0);
    // the move-4 special case: score_special.
    assert_eq!(score("oX..x...o"), 100.0);
    // two (2,0,1) lines for o after (0,2): score_sure_victory.
    assert_eq!(score("ox..o.O.x"), 200.0);
}

#[test]
fn minimax_switch_scores_from_o() {
    let eval = ranked_evaluation("ai14s").unwrap();
    // o just moved: the same as the mover's score.
    assert_eq!(eval.score_for_first(&pos("O........")), 1.5);
    // x just moved: the negation.
    assert_eq!(eval.score_for_first(&pos("oX.......")), 1.5);
    assert_eq!(eval.score_for_first(&pos("oo.oxX..x")), 197.0);
}

#[test]
fn debug_trace_is_the_seeds() {
    let trace = agent("ai12s")
        .analyst()
        .unwrap()
        .explain(&Ttt::start())
        .unwrap();
    assert!(trace.starts_with("Start ai_by_score\nTurn o\n...\n...\n...\n\nlegal_moves [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)]\n====================\nmove (0, 0)\nTurn x\nO..\n...\n...\n\n{Markpat(last_turn=0, turn=0, empty=3): 5, Markpat(last_turn=1, turn=0, empty=2): 3}\nscore 1.5 best score -inf\nUPDATE\n  best score 1.5\n  best moves [(0, 0)]\n"), "{trace}");
    assert!(trace.contains("move (2, 0)\nTurn x\n..O\n...\n...\n\n{Markpat(last_turn=0, turn=0, empty=3): 5, Markpat(last_turn=1, turn=0, empty=2): 3}\nscore 1.5 best score 1.5\nAPPEND\n  best moves [(0, 0), (2, 0)]\n"), "{trace}");
    assert!(
        trace.contains(
            "score 2.0 best score 1.5\nUPDATE\n  best score 2.0\n  best moves [(1, 1)]\n"
        ),
        "{trace}"
    );
    assert!(
        trace.ends_with("====================\nFinished\nbest score 2.0\nbest moves [(1, 1)]"),
        "{trace}"
    );
    // Rule AIs explain their decision in a line.
    assert_eq!(
        agent("ai6")
            .analyst()
            .unwrap()
            .explain(&pos("oo..x...."))
            .unwrap(),
        "(2, 0) blocks the opponent's win"
    );
}

#[test]
fn every_ai_always_has_legal_best_moves() {
    let positions = open_positions();
    assert_eq!(positions.len(), 4_520);
    for name in ALL_AIS {
        let mut ai = agent(name);
        for p in &positions {
            let policy = ai.analyst().unwrap().policy(p).unwrap();
            let legal = p.legal_moves();
            assert!(policy.moves().count() > 0);
            assert!(policy.moves().all(|m| legal.contains(&m)), "{name} in\n{p}");
            let total: f64 = policy.entries().iter().map(|(_, pr)| pr).sum();
            assert!((total - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn score_twins_agree_with_their_rules() {
    for p in open_positions() {
        for (rule, twin) in [
            ("ai1", "ai1s"),
            ("ai2", "ai2s"),
            ("ai3", "ai3s"),
            ("ai4", "ai4s"),
        ] {
            let a: Vec<_> = agent(rule)
                .analyst()
                .unwrap()
                .policy(&p)
                .unwrap()
                .moves()
                .collect();
            let b: Vec<_> = agent(twin)
                .analyst()
                .unwrap()
                .policy(&p)
                .unwrap()
                .moves()
                .collect();
            assert_eq!(a, b, "{rule} vs {twin} in\n{p}");
        }
        // ai5 takes the first winning square, ai5s any: same set when there is no win.
        let a: Vec<_> = agent("ai5")
            .analyst()
            .unwrap()
            .policy(&p)
            .unwrap()
            .moves()
            .collect();
        let b: Vec<_> = agent("ai5s")
            .analyst()
            .unwrap()
            .policy(&p)
            .unwrap()
            .moves()
            .collect();
        assert!(
            b.starts_with(&a[..1]) && (a == b || a.len() == 1),
            "ai5 vs ai5s in\n{p}"
        );
    }
}

#[test]
fn choices_come_only_from_the_stream_and_are_uniform() {
    let p = Ttt::start();
    let mut ai = agent("ai2");
    let mut counts = [0u32; 9];
    for game in 0..9_000 {
        let mut rng = game_rng(1, game, Side::First);
        let mv = ai.choose(&p, &mut rng);
        // the same stream gives the same choice
        assert_eq!(ai.choose(&p, &mut game_rng(1, game, Side::First)), mv);
        counts[mv.index()] += 1;
    }
    // 1,000 expected per square; 5 standard deviations ≈ 150.
    assert!(
        counts.iter().all(|&c| (850..=1150).contains(&c)),
        "{counts:?}"
    );
    // a forced choice is the move itself
    let mut ai3 = agent("ai3");
    assert_eq!(ai3.choose(&p, &mut game_rng(0, 0, Side::First)), sq(1, 1));
}

#[test]
fn spec_errors_say_what_is_valid() {
    let registry = gamelab_ttt::ai::registry::<gamelab_ttt::board::Bitboard>();
    let err = |spec: &str| {
        registry
            .build(spec)
            .err()
            .unwrap_or_else(|| panic!("{spec} built"))
    };

    let e = err("ai99");
    assert!(matches!(e, SpecError::UnknownAgent { .. }));
    assert!(e.to_string().contains("its AIs: ai1, ai1s, ai2"), "{e}");
    assert!(e.to_string().contains("ai14s"), "{e}");

    let e = err("ai12s:score_victroy=200");
    assert!(matches!(e, SpecError::UnknownParam { .. }));
    assert!(e.to_string().contains("ai12s has no parameter `score_victroy`; its parameters: score_victory, score_sure_victory"), "{e}");

    let e = err("ai2:score_victory=1");
    assert_eq!(
        e.to_string(),
        "ai2 has no parameter `score_victory`; it takes no parameters"
    );

    let e = err("ai12s:score_victory=lots");
    assert_eq!(
        e.to_string(),
        "`lots` is not a valid score_victory for ai12s: expected a number from -1000000000000 to 1000000000000"
    );

    let e = err("ai11s:ver=4");
    assert_eq!(
        e.to_string(),
        "`4` is not a valid ver for ai11s: expected one of 1, 2, 3"
    );

    let e = err("ai12s:score_victory");
    assert!(matches!(e, SpecError::Syntax { .. }), "{e}");
}

#[test]
fn parameters_change_the_choice() {
    // score_102 = 0 and score_012 = 0 leave nothing to tell the opening moves apart.
    let flat = best("ai12s:score_102=0,score_012=0", ".........");
    assert_eq!(flat.len(), 9);
    // A negative score_102 makes the centre (four such lines) the worst opening.
    let inverted = best("ai14s:score_102=-1", ".........");
    let (_, edges) = corners_and_edges();
    assert_eq!(inverted, edges);
}

#[test]
fn every_board_structure_has_the_same_catalogue() {
    use gamelab_ttt::board::{Array1d, Array2d, LineCounts};
    let p2: Position<LineCounts<Array2d>> = FORK.parse().unwrap();
    let p1: Position<Array1d> = FORK.parse().unwrap();
    for name in ALL_AIS {
        let a: Vec<_> = gamelab_ttt::ai::registry::<LineCounts<Array2d>>()
            .build(name)
            .unwrap()
            .analyst()
            .unwrap()
            .policy(&p2)
            .unwrap()
            .moves()
            .collect();
        let b: Vec<_> = gamelab_ttt::ai::registry::<Array1d>()
            .build(name)
            .unwrap()
            .analyst()
            .unwrap()
            .policy(&p1)
            .unwrap()
            .moves()
            .collect();
        assert_eq!(a, b, "{name}");
        assert_eq!(a, best(name, FORK), "{name}");
    }
}

#[test]
fn default_scores_are_the_seeds() {
    assert_eq!(
        ranked_evaluation("ai14s").unwrap().params,
        ScoreParams {
            score_victory: 300.0,
            score_sure_victory: 200.0,
            score_defeat: -100.0,
            score_special: 100.0,
            score_201: 2.0,
            score_102: 0.5,
            score_012: -1.0,
        }
    );
}
