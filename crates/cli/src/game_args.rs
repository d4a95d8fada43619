//! The `--game` and `--board` options every generic subcommand takes, and the hint an
//! error gets when a spec names an AI of another game.

use clap::Args;
use clap::builder::PossibleValuesParser;

#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The game.
    #[arg(long, default_value = gamelab_games::DEFAULT, value_parser = PossibleValuesParser::new(gamelab_games::NAMES))]
    pub game: String,
    /// The game's board data structure, for games that have several; all give identical
    /// games (each game's list: `gamelab games`).
    #[arg(long)]
    pub board: Option<String>,
}

/// For an error that is a spec naming an AI the game lacks: which games have it, as a
/// hint to add `--game` (`; engine is an AI of othello: add --game othello`); else
/// nothing.
pub fn other_game_hint(err: &anyhow::Error) -> String {
    let Some(gamelab_core::SpecError::UnknownAgent { name, .. }) = err
        .chain()
        .find_map(|e| e.downcast_ref::<gamelab_core::SpecError>())
    else {
        return String::new();
    };
    match gamelab_games::games_with_ai(name).as_slice() {
        [] => String::new(),
        [game] => format!("\n`{name}` is an AI of {game}: add `--game {game}`"),
        games => format!(
            "\n`{name}` is an AI of {}: add `--game` and one of them",
            games.join(", ")
        ),
    }
}

/// An experiment's error as the command line reports it: a spec's error as itself, so
/// that [`other_game_hint`] finds it and `{:#}` does not print it twice (the experiment's
/// error shows its source's message).
pub fn experiment_error(e: gamelab_games::experiments::ExperimentError) -> anyhow::Error {
    use gamelab_games::experiments::ExperimentError;
    match e {
        ExperimentError::Spec { source, .. } => source.into(),
        e => e.into(),
    }
}
