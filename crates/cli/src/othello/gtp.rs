//! `gamelab gtp --ai SPEC`: a gamelab Othello AI as an engine speaking the Go Text
//! Protocol on standard input and output, as Quarry and GRhino's tools drive Othello
//! engines; the protocol's commands are [`gamelab_othello::gtp_session`]'s.

use std::io::Write;

use clap::Args;
use gamelab_othello::gtp_session::Session;

#[derive(Args, Debug)]
pub struct GtpArgs {
    /// The AI that plays (see `gamelab ais --game othello`). Under a clock
    /// (`time_settings`) each move gets a share of the time left, and an AI whose spec
    /// leaves its `level` out plays at its deepest level.
    #[arg(long, default_value = "engine")]
    ai: String,
}

pub fn gtp_cmd(args: GtpArgs) -> anyhow::Result<()> {
    let mut session = Session::new(&args.ai)?;
    let mut out = std::io::stdout().lock();
    let mut input = std::io::stdin().lock();
    while let Some(line) = super::protocol_input::next_line(&mut input) {
        if let Some(answer) = session.handle(&line) {
            write!(out, "{answer}")?;
            out.flush()?;
        }
        if session.quit {
            break;
        }
    }
    Ok(())
}
