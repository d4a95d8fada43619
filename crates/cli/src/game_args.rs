//! The `--game` and `--board` options every generic subcommand takes, and running a
//! subcommand's generic code on the game they name.

use clap::Args;
use clap::builder::PossibleValuesParser;
use gamelab_core::GameVisitor;

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

impl GameArgs {
    /// Runs `visitor` on the chosen game and board.
    pub fn visit<V: GameVisitor>(&self, visitor: V) -> anyhow::Result<V::Output> {
        Ok(gamelab_games::visit(
            &self.game,
            self.board.as_deref(),
            visitor,
        )?)
    }
}
