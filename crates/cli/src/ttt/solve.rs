//! `gamelab solve`: every tic-tac-toe position solved, written to or read from a file.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use gamelab_ttt::solve::{SolvedTable, solve_start};
use gamelab_ttt::solve_file;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Write the solved table (5,478 positions: values and best moves) to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Read a solved table from this file and check it against a fresh solve.
    #[arg(long = "in", value_name = "FILE")]
    input: Option<PathBuf>,
}

pub fn run(args: SolveArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let value = solve_start();
    let solve_time = started.elapsed();
    let started = Instant::now();
    let table = SolvedTable::build();
    let table_time = started.elapsed();
    println!(
        "value of the start: {} (solved in {:.0} µs); {} positions solved in {:.2} ms",
        match value {
            1 => "o wins",
            -1 => "x wins",
            _ => "draw",
        },
        solve_time.as_secs_f64() * 1e6,
        table.positions.len(),
        table_time.as_secs_f64() * 1e3
    );
    if let Some(path) = &args.out {
        // The error names the file already.
        solve_file::save(&table, path).context("cannot write the solved table")?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &args.input {
        let loaded = solve_file::load(path)?;
        if loaded != table {
            bail!(
                "{} holds a table that differs from the solved game",
                path.display()
            );
        }
        println!(
            "{}: {} positions, identical to the solved game",
            path.display(),
            loaded.positions.len()
        );
    }
    Ok(())
}
