//! gamelab: build, play and compare board-game AIs.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod play;

#[derive(Parser)]
#[command(
    name = "gamelab",
    version,
    about = "Build, play and compare board-game AIs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal.
    Play(play::PlayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => play::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
