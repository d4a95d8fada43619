//! The tic-tac-toe AI catalogue (seeds 000 and 001) and its registry.

pub mod abs_dls;
pub mod perfect;
pub mod rules;
pub mod score;

use gamelab_core::registry::check_params;
use gamelab_core::{Agent, AgentEntry, ByScore, ParamSpec, Params, Registry, SpecError, Uniform};

use crate::Position;
use crate::board::Board;
use rules::{Ai1, Ai2, Ai3, Ai4, Ai5, Ai6, Ai7};
use score::{Conditions, DefeatRule, OpenLineRule, RankedScore, ScoreParams, SimpleScore};

/// The names of the seven scores, in the article's order.
pub const SCORE_NAMES: [&str; 7] = [
    "score_victory",
    "score_sure_victory",
    "score_defeat",
    "score_special",
    "score_201",
    "score_102",
    "score_012",
];

fn score_help(name: &str) -> &'static str {
    match name {
        "score_victory" => "the mover has won",
        "score_sure_victory" => "two or more (2,0,1) lines: a sure win next turn",
        "score_defeat" => "the opponent can win next: a (0,2,1) line",
        "score_special" => "move 4: x centre and edge, o on both ends of a diagonal",
        "score_201" => "one (2,0,1) line: the mover can win next turn",
        "score_102" => "per (1,0,2) line",
        "score_012" => "per (0,1,2) line",
        _ => unreachable!("not a score name: {name}"),
    }
}

fn get(p: &ScoreParams, name: &str) -> f64 {
    match name {
        "score_victory" => p.score_victory,
        "score_sure_victory" => p.score_sure_victory,
        "score_defeat" => p.score_defeat,
        "score_special" => p.score_special,
        "score_201" => p.score_201,
        "score_102" => p.score_102,
        "score_012" => p.score_012,
        _ => unreachable!("not a score name: {name}"),
    }
}

fn set(p: &mut ScoreParams, name: &str, value: f64) {
    let field = match name {
        "score_victory" => &mut p.score_victory,
        "score_sure_victory" => &mut p.score_sure_victory,
        "score_defeat" => &mut p.score_defeat,
        "score_special" => &mut p.score_special,
        "score_201" => &mut p.score_201,
        "score_102" => &mut p.score_102,
        "score_012" => &mut p.score_012,
        _ => unreachable!("not a score name: {name}"),
    };
    *field = value;
}

/// A score-based AI of the ai6s … ai14s family: its conditions, the scores it uses, and its
/// "ver" presets (the article's versions, as parameter sets over one function).
struct Ranked {
    name: &'static str,
    summary: &'static str,
    conditions: Conditions,
    /// The scores this AI reads, with their defaults.
    scores: ScoreParams,
    used: &'static [&'static str],
    versions: &'static [Version],
    default_version: &'static str,
}

/// A named preset: different scores, and optionally the centre-first rule.
struct Version {
    name: &'static str,
    centre_first: Option<bool>,
    scores: &'static [(&'static str, f64)],
}

impl Ranked {
    fn evaluation(&self, params: &Params) -> RankedScore {
        let mut conditions = self.conditions;
        let mut scores = self.scores;
        if !self.versions.is_empty() {
            let ver = params.text("ver");
            let version = self
                .versions
                .iter()
                .find(|v| v.name == ver)
                .expect("ver is checked against the declared choices");
            if let Some(c) = version.centre_first {
                conditions.centre_first = c;
            }
            for &(name, value) in version.scores {
                set(&mut scores, name, value);
            }
        }
        // Scores given by name win over the version's preset.
        for &name in self.used {
            if params.is_explicit(name) {
                set(&mut scores, name, params.float(name));
            }
        }
        RankedScore {
            conditions,
            params: scores,
        }
    }

    fn param_specs(&self) -> Vec<ParamSpec> {
        let mut specs: Vec<ParamSpec> = self
            .used
            .iter()
            .map(|&name| {
                // Sums of a few scores stay finite and exact enough to compare.
                ParamSpec::float(name, get(&self.scores, name), -1e12, 1e12, score_help(name))
            })
            .collect();
        if !self.versions.is_empty() {
            debug_assert!(
                self.versions
                    .iter()
                    .map(|v| v.name)
                    .eq(VERSION_NAMES.iter().copied())
            );
            specs.push(ParamSpec::choice(
                "ver",
                VERSION_NAMES,
                self.default_version,
                "the article's version: a preset of the scores above (explicit scores win)",
            ));
        }
        specs
    }
}

const fn conditions(
    centre_first: bool,
    defeat: DefeatRule,
    sure_victory: bool,
    special: bool,
    open_line: OpenLineRule,
) -> Conditions {
    Conditions {
        centre_first,
        defeat,
        sure_victory,
        special,
        open_line,
    }
}

const fn scores(
    victory: f64,
    sure: f64,
    defeat: f64,
    special: f64,
    s201: f64,
    s102: f64,
    s012: f64,
) -> ScoreParams {
    ScoreParams {
        score_victory: victory,
        score_sure_victory: sure,
        score_defeat: defeat,
        score_special: special,
        score_201: s201,
        score_102: s102,
        score_012: s012,
    }
}

const NO_VERSIONS: &[Version] = &[];
/// The seed numbers the versions of ai11s and ai12s 1, 2, 3.
const VERSION_NAMES: &[&str] = &["1", "2", "3"];
const ALL_SCORES: &[&str] = &SCORE_NAMES;

fn ranked_family() -> Vec<Ranked> {
    use DefeatRule::*;
    use OpenLineRule::*;
    let seed_scores = ScoreParams::default();
    vec![
        Ranked {
            name: "ai6s",
            summary: "rule 6 improved: win, else avoid moves that let the opponent win, else random",
            conditions: conditions(false, Return, false, false, AtLeastOne),
            scores: scores(1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0),
            used: &["score_victory", "score_defeat"],
            versions: NO_VERSIONS,
            default_version: "",
        },
        Ranked {
            name: "ai7s",
            summary: "rule 7 improved: the centre first, then ai6s",
            conditions: conditions(true, Return, false, false, AtLeastOne),
            scores: scores(1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0),
            used: &["score_victory", "score_defeat"],
            versions: NO_VERSIONS,
            default_version: "",
        },
        Ranked {
            name: "ai8s",
            summary: "rule 8: centre, win, avoid defeat, then make a (2,0,1) line, else random",
            conditions: conditions(true, Return, false, false, AtLeastOne),
            scores: scores(300.0, 0.0, -100.0, 0.0, 1.0, 0.0, 0.0),
            used: &["score_victory", "score_defeat", "score_201"],
            versions: NO_VERSIONS,
            default_version: "",
        },
        Ranked {
            name: "ai9s",
            summary: "rule 9: centre, win, avoid defeat, two (2,0,1) lines, then one, else random",
            conditions: conditions(true, Return, true, false, ExactlyOne),
            scores: scores(300.0, 200.0, -100.0, 0.0, 1.0, 0.0, 0.0),
            used: &[
                "score_victory",
                "score_sure_victory",
                "score_defeat",
                "score_201",
            ],
            versions: NO_VERSIONS,
            default_version: "",
        },
        Ranked {
            name: "ai10s",
            summary: "rule 10: as ai9s, then weigh one (2,0,1) line against (1,0,2) lines",
            conditions: conditions(true, Return, true, false, ExactlyOne),
            scores: scores(300.0, 200.0, -100.0, 0.0, 1.0, 1.0, 0.0),
            used: &[
                "score_victory",
                "score_sure_victory",
                "score_defeat",
                "score_201",
                "score_102",
            ],
            versions: NO_VERSIONS,
            default_version: "",
        },
        Ranked {
            name: "ai11s",
            summary: "rule 11: as ai10s, also counting the opponent's (0,1,2) lines",
            conditions: conditions(true, Return, true, false, ExactlyOne),
            scores: scores(300.0, 200.0, -100.0, 0.0, 2.0, 0.5, -1.0),
            used: &[
                "score_victory",
                "score_sure_victory",
                "score_defeat",
                "score_201",
                "score_102",
                "score_012",
            ],
            versions: &[
                Version {
                    name: "1",
                    centre_first: None,
                    scores: &[("score_201", 1.0), ("score_102", 1.0), ("score_012", -1.0)],
                },
                Version {
                    name: "2",
                    centre_first: None,
                    scores: &[("score_201", 2.0), ("score_102", 1.0), ("score_012", -1.0)],
                },
                Version {
                    name: "3",
                    centre_first: None,
                    scores: &[("score_201", 2.0), ("score_102", 0.5), ("score_012", -1.0)],
                },
            ],
            default_version: "3",
        },
        Ranked {
            name: "ai12s",
            summary: "rule 12: win, avoid defeat, sure win, the move-4 diagonal case, then the sum",
            conditions: conditions(false, Return, true, true, ExactlyOne),
            scores: seed_scores,
            used: ALL_SCORES,
            versions: &[
                Version {
                    name: "1",
                    centre_first: Some(true),
                    scores: &[],
                },
                Version {
                    name: "2",
                    centre_first: Some(false),
                    scores: &[],
                },
                Version {
                    name: "3",
                    centre_first: Some(false),
                    scores: &[("score_victory", 200.0)],
                },
            ],
            default_version: "2",
        },
        Ranked {
            name: "ai13s",
            summary: "rule 13: as ai12s, with score_defeat per (0,2,1) line",
            conditions: conditions(false, ReturnPerLine, true, true, ExactlyOne),
            scores: seed_scores,
            used: ALL_SCORES,
            versions: NO_VERSIONS,
            default_version: "",
        },
        Ranked {
            name: "ai14s",
            summary: "rule 14: as ai13s, adding the other conditions to the defeat score",
            conditions: conditions(false, AddPerLine, true, true, ExactlyOne),
            scores: seed_scores,
            used: ALL_SCORES,
            versions: NO_VERSIONS,
            default_version: "",
        },
    ]
}

fn uniform<B: Board, T>(rule: T) -> Box<dyn Agent<Position<B>>>
where
    T: gamelab_core::BestMoves<Position<B>> + 'static,
{
    Box::new(Uniform(rule))
}

/// Builds the evaluation a score-based AI spec names (for search leaves and `minimax` use),
/// e.g. `ai14s:score_victory=200`.
pub fn ranked_evaluation(spec: &str) -> Result<RankedScore, SpecError> {
    let parsed = gamelab_core::AgentSpec::parse(spec)?;
    let family = ranked_family();
    let Some(ranked) = family.iter().find(|r| r.name == parsed.name) else {
        return Err(SpecError::UnknownAgent {
            name: parsed.name,
            game: <crate::Ttt as gamelab_core::Game>::NAME,
            known: family.iter().map(|r| r.name.to_string()).collect(),
        });
    };
    let params = check_params(ranked.name, &ranked.param_specs(), &parsed)?;
    Ok(ranked.evaluation(&params))
}

/// A rule AI (ai1 … ai5) and its score-based twin: names, summaries, the rule's
/// constructor, the twin's evaluation.
type RuleAndTwin<B> = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    fn() -> Box<dyn Agent<Position<B>>>,
    SimpleScore,
);

/// Every tic-tac-toe AI, for positions over the board structure `B`.
pub fn registry<B: Board>() -> Registry<Position<B>> {
    let mut r = Registry::new();
    let simple: [RuleAndTwin<B>; 5] = [
        (
            "ai1",
            "ai1s",
            "rule 1: the first empty square, left to right, top to bottom",
            "ai1 by score: earlier squares score higher",
            || uniform(Ai1),
            SimpleScore::FirstSquare,
        ),
        (
            "ai2",
            "ai2s",
            "rule 2: a uniformly random legal move",
            "ai2 by score: every move scores 0",
            || uniform(Ai2),
            SimpleScore::Random,
        ),
        (
            "ai3",
            "ai3s",
            "rule 3: the centre if empty, else random",
            "ai3 by score: the centre 1, anything else 0",
            || uniform(Ai3),
            SimpleScore::Centre,
        ),
        (
            "ai4",
            "ai4s",
            "rule 4: the centre, then the corners in order, else random",
            "ai4 by score: the centre 5, the corners 4 to 1, else 0",
            || uniform(Ai4),
            SimpleScore::CentreThenCorners,
        ),
        (
            "ai5",
            "ai5s",
            "rule 5: win if possible, else random",
            "ai5 by score: any winning square 1, else 0",
            || uniform(Ai5),
            SimpleScore::Win,
        ),
    ];
    for (name, s_name, summary, s_summary, build, score) in simple {
        r.register(AgentEntry::new(name, summary, vec![], move |_| Ok(build())));
        r.register(AgentEntry::new(s_name, s_summary, vec![], move |_| {
            Ok(uniform(ByScore::new(score)))
        }));
    }
    let register_ranked = |r: &mut Registry<Position<B>>, ranked: Ranked| {
        let specs = ranked.param_specs();
        let (name, summary) = (ranked.name, ranked.summary);
        r.register(AgentEntry::new(name, summary, specs, move |params| {
            Ok(uniform(ByScore::new(ranked.evaluation(params))))
        }));
    };
    let mut family = ranked_family().into_iter();
    r.register(AgentEntry::new(
        "ai6",
        "rule 6: win, else block the opponent's first winning square, else random",
        vec![],
        |_| Ok(uniform(Ai6)),
    ));
    register_ranked(&mut r, family.next().expect("ai6s"));
    r.register(AgentEntry::new(
        "ai7",
        "rule 7: the centre first, then ai6",
        vec![],
        |_| Ok(uniform(Ai7)),
    ));
    register_ranked(&mut r, family.next().expect("ai7s"));
    for ranked in family {
        register_ranked(&mut r, ranked);
    }
    register_solved_and_search(&mut r);
    r.register(crate::learned::regression::entry());
    r.register(gamelab_core::mcts::entry(registry::<B>));
    r
}

fn register_solved_and_search<B: Board>(r: &mut Registry<Position<B>>) {
    use perfect::{Perfect, Perfection};
    r.register(
        AgentEntry::new(
            "ai_gt",
            "perfect play from the solved game tree: uniform among all best moves",
            vec![],
            |_| Ok(uniform(Perfect(Perfection::Value))),
        )
        .with_aliases(&[
            "ai_gt1", "ai_gt2", "ai_gt3", "ai_gt4", "ai_gt5", "ai_gt6", "ai_gt7",
        ]),
    );
    r.register(AgentEntry::new(
        "ai_gtsv",
        "perfect play preferring the fastest win and the slowest loss",
        vec![],
        |_| Ok(uniform(Perfect(Perfection::ShortestVictory))),
    ));
    r.register(AgentEntry::new(
        "ai_gtsvrd",
        "ai_gtsv, and among drawing moves those that leave the opponent a way to go wrong",
        vec![],
        |_| Ok(uniform(Perfect(Perfection::RefinedDraws))),
    ));
    r.register(AgentEntry::new(
        "solved",
        "perfect play valuing every move exactly for the side to move: win, draw or loss and in how many moves (the analysis's AI)",
        vec![],
        |_| Ok(Box::new(perfect::SolvedValues)),
    ));
    r.register(AgentEntry::new(
        "ai_abs_dls",
        "alpha-beta to a depth limit with a score AI's evaluation at the leaves",
        vec![
            ParamSpec::int("maxdepth", 8, 0, 8, "plies searched below each candidate move"),
            ParamSpec::text(
                "eval_func",
                Some("ai14s"),
                "the leaf evaluation: a score AI (ai6s … ai14s) with its parameters, e.g. (ai14s:score_102=1)",
            ),
            ParamSpec::bool("use_tt", true, "keep a transposition table (with symmetric entries)"),
            ParamSpec::float(
                "timelimit",
                0.0,
                0.0,
                3600.0,
                "seconds per move, 0 for none (iterative deepening; results then depend on the machine)",
            ),
        ],
        |params| {
            let invalid = |reason: String| SpecError::Invalid {
                agent: "ai_abs_dls".into(),
                reason,
            };
            let eval = ranked_evaluation(params.text("eval_func"))
                .map_err(|e| invalid(format!("eval_func: {e}")))?;
            let seconds = params.float("timelimit");
            Ok(Box::new(abs_dls::AbsDls {
                eval,
                max_depth: params.int("maxdepth") as u32,
                use_tt: params.bool("use_tt"),
                time_limit: (seconds > 0.0).then(|| std::time::Duration::from_secs_f64(seconds)),
            }))
        },
    ));
}
