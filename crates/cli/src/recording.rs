//! Plays a match and writes its games as they finish, in game order, a window of games
//! at a time, so memory stays bounded however many games. A regular file is written as
//! [`gamelab_core::files`] writes one: into an unnamed temporary file renamed over it when
//! the match ends, so Ctrl-C keeps every game finished before it in a whole file and a
//! kill leaves the file as it was (a special file such as `/dev/stdout` gets each game as
//! it is written).

use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use gamelab_core::StopFlag;
use gamelab_core::match_request::MatchRun;
use gamelab_games::experiments::AnyMatch;

pub use gamelab_core::record::RecordFormat as Format;

/// Where the games go.
pub struct Output<'a> {
    pub path: &'a Path,
    pub format: Format,
}

/// The flag Ctrl-C sets (the handler is installed on first use). A match that sees it
/// stops the games under way at once (their searches see it too) and drops them.
pub fn interrupt_flag() -> StopFlag {
    INSTALLED
        .get_or_init(|| {
            let flag = StopFlag::new(AtomicBool::new(false));
            let handler = flag.clone();
            // Without a handler (one installed elsewhere), Ctrl-C ends the process as usual;
            // a file being written is then left as it was, since nothing is renamed over it.
            let _ = ctrlc::set_handler(move || handler.store(true, Ordering::SeqCst));
            flag
        })
        .clone()
}

/// Whether Ctrl-C was pressed during a match (the handler is installed by the first).
pub fn interrupted() -> bool {
    INSTALLED.get().is_some_and(|f| f.load(Ordering::SeqCst))
}

static INSTALLED: OnceLock<StopFlag> = OnceLock::new();

/// Plays the match on this process's threads, advancing `progress` by the games of each
/// chunk, and writes every game to `output` in game order as they finish (a regular
/// file appears whole at the end, as the module says). Ctrl-C stops the games under way
/// (their searches see it; those games are dropped); the file then holds every game
/// finished before.
pub fn play(
    prepared: &dyn AnyMatch,
    output: Option<&Output>,
    progress: &(dyn Fn(u64) + Sync),
) -> anyhow::Result<MatchRun> {
    let stop = interrupt_flag();
    let Some(out) = output else {
        return Ok(prepared.play_recorded(Some(&stop), progress, None, &mut |_| true)?);
    };
    let mut failed = None;
    let mut run = None;
    gamelab_core::files::write_atomically(out.path, |w| {
        run = Some(
            prepared.play_recorded(Some(&stop), progress, Some(out.format), &mut |line| {
                let wrote = line
                    .map_err(std::io::Error::other)
                    .and_then(|line| writeln!(w, "{line}"));
                wrote.map_err(|e| failed = Some(e)).is_ok()
            }),
        );
        failed.take().map_or(Ok(()), Err)
    })
    .with_context(|| format!("cannot write the games to {}", out.path.display()))?;
    Ok(run.expect("the match ran")?)
}
