//! Plays a match and writes its games as they finish: in game order, a window of games
//! at a time, so memory stays bounded however many games, and Ctrl-C keeps every game
//! finished before it in a whole file.

use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use gamelab_core::arena::{self, AgentFactory, LiveOptions, MatchConfig, MatchResult};
use gamelab_core::record::GameRecord;
use gamelab_core::{Agent, Described, StopFlag};

pub use gamelab_core::record::RecordFormat as Format;

/// Where the games go.
pub struct Output<'a> {
    pub path: &'a Path,
    pub format: Format,
    /// The specs of A and B, for the records.
    pub specs: [&'a str; 2],
}

/// The end of a recorded match.
pub struct Played {
    pub result: MatchResult,
    /// Ctrl-C ended it before its last game.
    pub interrupted: bool,
}

/// The flag Ctrl-C sets (the handler is installed on first use). A match that sees it
/// ends after the games under way, which do not count.
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

/// Plays the match, advancing `progress` by the games of each chunk, and writes every
/// game to `output` in game order as they finish.
pub fn play<G: Described, A: Agent<G>>(
    make_a: &AgentFactory<A>,
    make_b: &AgentFactory<A>,
    cfg: &MatchConfig,
    openings: &[Vec<G::Move>],
    output: Option<&Output>,
    progress: &(dyn Fn(u64) + Sync),
) -> anyhow::Result<Played> {
    let stop = interrupt_flag();
    let live = LiveOptions {
        stop: Some(&stop),
        ..LiveOptions::for_match(cfg, output.is_some())
    };
    let on_chunk = |c: &arena::ChunkResult<G::Move>| progress(c.range.end - c.range.start);
    let Some(out) = output else {
        let (result, cut) = arena::run_match_from::<G, A>(
            make_a,
            make_b,
            cfg,
            openings,
            &live,
            &on_chunk,
            &mut |_| true,
        );
        return Ok(Played {
            result,
            interrupted: cut,
        });
    };
    let mut failed = None;
    let mut finished = None;
    gamelab_core::files::write_atomically(out.path, |w| {
        let end = arena::run_match_from::<G, A>(
            make_a,
            make_b,
            cfg,
            openings,
            &live,
            &on_chunk,
            &mut |games| {
                let wrote = games.iter().try_for_each(|g| {
                    let record = GameRecord::of::<G>(g, out.specs[0], out.specs[1], cfg.seed);
                    let line = out
                        .format
                        .line::<G>(&record, Some((&g.moves, g.outcome)))
                        .map_err(std::io::Error::other)?;
                    writeln!(w, "{line}")
                });
                wrote.map_err(|e| failed = Some(e)).is_ok()
            },
        );
        finished = Some(end);
        failed.take().map_or(Ok(()), Err)
    })
    .with_context(|| format!("cannot write the games to {}", out.path.display()))?;
    let (result, interrupted) = finished.expect("the match ran");
    Ok(Played {
        result,
        interrupted,
    })
}
