//! `gamelab records A B`: play games and save them for learning (the seed's CSV: winner,
//! then the moves as square numbers; or JSON Lines).

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use gamelab_core::arena::{MatchConfig, PlayedGame, run_match};
use gamelab_core::record::{GameRecord, write_records};
use gamelab_core::{Game, Side};
use gamelab_learn::dataset::{Game as LearnGame, csv_line};
use gamelab_ttt::{Square, Ttt};

#[derive(Args, Debug)]
pub struct RecordsArgs {
    /// The first player of the first half of the games.
    a: String,
    /// Its opponent.
    b: String,
    /// Games in all (half with A first, half with B first).
    #[arg(short = 'n', long, default_value_t = 1000)]
    games: u64,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Output file: `.csv` for the seed's format, anything else for JSON Lines.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// Plays `games` games of `a` against `b` (half each way round) and returns them.
pub fn play(a: &str, b: &str, games: u64, seed: u64) -> anyhow::Result<Vec<PlayedGame<Square>>> {
    let registry = gamelab_learn::catalogue();
    registry.build(a)?;
    registry.build(b)?;
    let cfg = MatchConfig {
        games_per_side: games.div_ceil(2),
        seed,
        threads: 0,
    };
    let make_a = || registry.build(a).expect("checked");
    let make_b = || registry.build(b).expect("checked");
    let (_, mut played) = run_match::<Ttt, _>(&make_a, &make_b, &cfg, &|_| {}, true);
    played.truncate(games as usize);
    Ok(played)
}

pub fn to_learn(g: &PlayedGame<Square>) -> LearnGame {
    LearnGame {
        moves: g.moves.clone(),
        winner: match g.outcome.winner() {
            Some(Side::First) => 1,
            Some(Side::Second) => 2,
            None => 0,
        },
    }
}

pub fn run(args: RecordsArgs) -> anyhow::Result<()> {
    let played = play(&args.a, &args.b, args.games, args.seed)?;
    let csv = args.out.extension().is_some_and(|e| e == "csv");
    let context = || format!("cannot write the records to {}", args.out.display());
    if csv {
        gamelab_core::files::write_atomically(&args.out, |w| {
            for g in &played {
                writeln!(w, "{}", csv_line(&to_learn(g)))?;
            }
            Ok(())
        })
        .with_context(context)?;
    } else {
        let records: Vec<GameRecord> = played
            .iter()
            .map(|g| {
                let (first, second) = match g.a_side {
                    Side::First => (&args.a, &args.b),
                    Side::Second => (&args.b, &args.a),
                };
                GameRecord {
                    game: Ttt::NAME.into(),
                    index: g.index,
                    seed: args.seed,
                    first: first.clone(),
                    second: second.clone(),
                    moves: g.moves.iter().map(|m| m.to_string()).collect(),
                    result: g.outcome.winner().map_or("draw", Ttt::side_name).into(),
                }
            })
            .collect();
        write_records(&args.out, &records).with_context(context)?;
    }
    println!("{} games written to {}", played.len(), args.out.display());
    Ok(())
}
