//! The tic-tac-toe board data structure options shared by several subcommands.

use clap::Args;
use gamelab_ttt::board::BoardKind;

#[derive(Args, Debug, Clone, Copy)]
pub struct BoardArgs {
    /// Tic-tac-toe board data structure: 2d, 1d or bitboard (all give identical games).
    #[arg(long, default_value = "bitboard")]
    pub board: BoardKind,
    /// Keep incremental line counts on the board (the articles' `count_linemark`).
    #[arg(long)]
    pub line_counts: bool,
}
