//! The game and board options shared by several subcommands.

use clap::Args;
use gamelab_ttt::board::BoardKind;

/// The games gamelab plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameKind {
    Ttt,
    Othello,
}

#[derive(Args, Debug, Clone, Copy)]
pub struct BoardArgs {
    /// The game: ttt (tic-tac-toe) or othello.
    #[arg(long, value_enum, default_value = "ttt")]
    pub game: GameKind,
    /// Tic-tac-toe board data structure: 2d, 1d or bitboard (all give identical games).
    #[arg(long, default_value = "bitboard")]
    pub board: BoardKind,
    /// Keep incremental line counts on the board (the articles' `count_linemark`).
    #[arg(long)]
    pub line_counts: bool,
}

/// Runs `$body` with `$G` the chosen game type and `$registry` its AI catalogue (for
/// tic-tac-toe over the chosen board structure).
#[macro_export]
macro_rules! with_game {
    ($args:expr, $G:ident, $registry:ident => $body:expr) => {{
        let args: &$crate::board_args::BoardArgs = &$args;
        match args.game {
            $crate::board_args::GameKind::Ttt => {
                gamelab_ttt::with_board!(args.board, args.line_counts, B => {
                    type $G = gamelab_ttt::Position<B>;
                    let $registry = gamelab_learn::catalogue::<B>();
                    $body
                })
            }
            $crate::board_args::GameKind::Othello => {
                type $G = gamelab_othello::Othello;
                let $registry = gamelab_othello::ai::registry();
                $body
            }
        }
    }};
}
