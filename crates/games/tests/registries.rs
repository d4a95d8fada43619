//! Every AI of every game builds from its declared parameters: with their defaults, and
//! with each number at both ends of its declared range. An AI that reads a parameter it did
//! not declare (a typo) panics here, in a test, not in a user's hands; values outside a
//! range are refused by the registry with the range in the message.

use gamelab_core::registry::ParamKind;
use gamelab_core::{Described, GameVisitor};

struct CheckRegistry;

impl GameVisitor for CheckRegistry {
    type Output = usize;
    fn visit<G: Described>(self) -> usize {
        let registry = G::registry();
        let mut built = 0;
        for entry in registry.entries() {
            if entry.params.iter().any(|p| p.default.is_none()) {
                // A required parameter (a model file) has no value to try here.
                let err = registry
                    .build(entry.name)
                    .err()
                    .expect("a missing parameter is refused");
                assert!(err.to_string().contains("needs the parameter"), "{err}");
                continue;
            }
            registry
                .build(entry.name)
                .unwrap_or_else(|e| panic!("{} {}: {e}", G::NAME, entry.name));
            built += 1;
            for p in &entry.params {
                let (low, high, outside) = match &p.kind {
                    ParamKind::Int { min, max } => {
                        (min.to_string(), max.to_string(), (max + 1).to_string())
                    }
                    ParamKind::Float { min, max } => (
                        min.to_string(),
                        max.to_string(),
                        (max * 2.0 + 1.0).to_string(),
                    ),
                    _ => continue,
                };
                for value in [low, high] {
                    let spec = format!("{}:{}={value}", entry.name, p.name);
                    // A value in range never panics; an AI may still refuse a combination
                    // with a clear error.
                    let _ = registry.build(&spec);
                }
                let spec = format!("{}:{}={outside}", entry.name, p.name);
                let err = registry
                    .build(&spec)
                    .err()
                    .unwrap_or_else(|| panic!("{spec} is out of range"));
                assert!(err.to_string().contains("expected a"), "{spec}: {err}");
                for bad in ["NaN", "inf", "1e400"] {
                    let spec = format!("{}:{}={bad}", entry.name, p.name);
                    assert!(registry.build(&spec).is_err(), "{spec}");
                }
            }
            let typo = format!("{}:no_such_parameter=1", entry.name);
            assert!(registry.build(&typo).is_err());
        }
        built
    }
}

#[test]
fn every_ai_builds_from_its_declared_parameters() {
    for entry in gamelab_games::GAMES {
        let built = gamelab_games::visit(entry.name, None, CheckRegistry).unwrap();
        assert!(built > 0, "{}", entry.name);
    }
}

struct CheckPresets;

impl GameVisitor for CheckPresets {
    type Output = usize;
    fn visit<G: Described>(self) -> usize {
        let registry = G::registry();
        for preset in G::PRESETS {
            registry
                .build(preset.spec)
                .unwrap_or_else(|e| panic!("{} preset {}: {e}", G::NAME, preset.name));
            assert!(!preset.note.is_empty());
        }
        // Every rated AI can be played as listed, weakest first; each preset's rating is
        // of the round robin, not one rated apart.
        for rating in G::RATINGS {
            registry
                .build(rating.spec)
                .unwrap_or_else(|e| panic!("{} rating of {}: {e}", G::NAME, rating.spec));
            assert!(rating.apart.is_none_or(|how| !how.is_empty()));
        }
        assert!(G::RATINGS.is_sorted_by_key(|r| r.elo), "{}", G::NAME);
        for preset in G::PRESETS {
            if let Some(r) = G::RATINGS.iter().find(|r| r.spec == preset.spec) {
                assert_eq!(r.apart, None, "{} preset {}", G::NAME, preset.name);
            }
        }
        // The analysis AI scores moves, as the play view needs.
        let mut analyst = registry.build(G::ANALYSIS_AI).unwrap();
        assert!(
            analyst
                .analyst()
                .unwrap()
                .move_scores(&G::start())
                .is_some(),
            "{}",
            G::NAME
        );
        G::PRESETS.len()
    }
}

#[test]
fn every_preset_rated_ai_and_analysis_ai_builds() {
    for entry in gamelab_games::GAMES {
        let presets = gamelab_games::visit(entry.name, None, CheckPresets).unwrap();
        assert!(presets >= 3, "{} has {presets} presets", entry.name);
    }
}
