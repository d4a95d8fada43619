//! `gamelab nboard --ai SPEC`: a gamelab Othello AI as an engine speaking the NBoard
//! protocol on standard input and output, so that it plays inside the NBoard GUI (or
//! anything else that drives engines that way); the protocol's commands are
//! [`gamelab_othello::nboard_session`]'s.

use std::io::{BufRead, Write};

use clap::Args;
use gamelab_othello::nboard_session::Session;

#[derive(Args, Debug)]
pub struct NboardArgs {
    /// The AI that plays (see `gamelab ais --game othello`); `set depth` sets its `level`
    /// (or `depth`) parameter.
    #[arg(long, default_value = "engine")]
    ai: String,
}

pub fn nboard_cmd(args: NboardArgs) -> anyhow::Result<()> {
    let mut session = Session::new(&args.ai)?;
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let mut failed = None;
        // Each reply out at once: a hint's deeper levels reach the GUI as they come.
        session.handle_streaming(&line, &mut |reply| {
            if failed.is_none()
                && let Err(e) = writeln!(out, "{reply}").and_then(|()| out.flush())
            {
                failed = Some(e);
            }
        });
        if let Some(e) = failed {
            return Err(e.into());
        }
        if session.quit {
            break;
        }
    }
    Ok(())
}
