//! `gamelab nboard --ai SPEC`: a gamelab Othello AI as an engine speaking the NBoard
//! protocol on standard input and output, so that it plays inside the NBoard GUI (or
//! anything else that drives engines that way); the protocol's commands are
//! [`gamelab_othello::nboard_session`]'s.

use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::Ordering;

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
    // Commands are read on a thread of their own: one that comes while a hint deepens
    // raises `pending`, which ends the hint after the levels already sent. A `ping` does
    // not: a GUI that syncs after asking for a hint waits for the whole hint.
    let pending = gamelab_core::StopFlag::default();
    session.stop_hints_with(pending.clone());
    let (lines, received) = std::sync::mpsc::channel();
    let raise = pending.clone();
    // The end of input stays raised: a hint still to come has nobody left to read it.
    let input_ended = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let ended = input_ended.clone();
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        while let Some(line) = super::protocol_input::next_line(&mut input) {
            // Raised before the line is sent, so never after the main loop has taken it
            // and lowered the flag to handle it: raised later, a hint would be cut short
            // by its own line (CI once saw that).
            if stops_a_hint(&line) {
                raise.store(true, Ordering::SeqCst);
            }
            if lines.send(line).is_err() {
                break;
            }
        }
        ended.store(true, Ordering::SeqCst);
        raise.store(true, Ordering::SeqCst);
    });
    let mut out = std::io::stdout().lock();
    let mut queue = VecDeque::new();
    loop {
        if queue.is_empty() {
            match received.recv() {
                Ok(line) => queue.push_back(line),
                // The end of input.
                Err(_) => break,
            }
        }
        pending.store(input_ended.load(Ordering::SeqCst), Ordering::SeqCst);
        queue.extend(received.try_iter());
        let line = queue.pop_front().expect("a line");
        if queue.iter().any(|l| stops_a_hint(l)) {
            pending.store(true, Ordering::SeqCst);
        }
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

/// Whether `line` asks for something a running hint must give way to: anything but a
/// `ping` (or an empty line).
fn stops_a_hint(line: &str) -> bool {
    let command = line.split_whitespace().next().unwrap_or("");
    !command.is_empty() && command != "ping"
}
