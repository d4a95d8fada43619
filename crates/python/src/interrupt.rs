//! Long calls: the work runs on a thread of its own, detached from the interpreter, while
//! the calling thread wakes up a few times a second to move the progress bar and to see
//! Ctrl-C (Python runs signal handlers only on its main thread, between bytecodes). An
//! interrupt raises the work's stop flag, waits for it to end, and raises
//! KeyboardInterrupt: nothing half-made is returned.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use gamelab_core::StopFlag;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// What a long call's work shares with the thread watching it.
pub struct Job {
    /// Raised on Ctrl-C (or when a Python agent fails): the work ends soon after.
    pub stop: StopFlag,
    /// Units done so far (games, seeds), for the progress bar.
    pub done: AtomicU64,
}

impl Job {
    pub fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
}

/// How often the calling thread looks at the progress and for Ctrl-C.
const WATCH_EVERY: Duration = Duration::from_millis(100);

/// Runs `work` as described in the module documentation; `progress`, when given, is
/// called with the units done after each look and once at the end. `stop` is the flag
/// the work watches (a fresh one when `None`).
pub fn run<R: Send>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    stop: Option<StopFlag>,
    work: impl FnOnce(&Job) -> R + Send,
) -> PyResult<R> {
    let mut watch = |job: &Job| match progress {
        Some(p) => p.call1((job.done.load(Ordering::Relaxed),)).map(drop),
        None => Ok(()),
    };
    run_watched(py, stop, &mut watch, work)
}

/// As [`run`], with `watch` called on the calling thread (with the interpreter) after each
/// look and once at the end, instead of a progress bar: an error it returns stops the work
/// and is raised.
pub fn run_watched<R: Send>(
    py: Python<'_>,
    stop: Option<StopFlag>,
    watch: &mut dyn FnMut(&Job) -> PyResult<()>,
    work: impl FnOnce(&Job) -> R + Send,
) -> PyResult<R> {
    let job = Job {
        stop: stop.unwrap_or_else(|| StopFlag::new(AtomicBool::new(false))),
        done: AtomicU64::new(0),
    };
    let (done_tx, done_rx) = mpsc::channel::<()>();
    // Locked only by this thread: the lock makes the receiver shareable with `detach`.
    let done_rx = std::sync::Mutex::new(done_rx);
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            // Attached once for the whole work (then detached), so that Python agents'
            // calls find this thread's state ready instead of making it at each move.
            let result = Python::attach(|py| py.detach(|| work(&job)));
            let _ = done_tx.send(());
            result
        });
        let mut raised: Option<PyErr> = None;
        loop {
            let finished = py.detach(|| {
                match done_rx
                    .lock()
                    .expect("never poisoned")
                    .recv_timeout(WATCH_EVERY)
                {
                    Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => true,
                    Err(mpsc::RecvTimeoutError::Timeout) => false,
                }
            });
            if raised.is_none() {
                let looked = py.check_signals().and_then(|()| watch(&job));
                if let Err(e) = looked {
                    job.stop.store(true, Ordering::SeqCst);
                    raised = Some(e);
                }
            }
            if finished {
                break;
            }
        }
        let result = py.detach(|| worker.join());
        match (raised, result) {
            (Some(e), _) => Err(e),
            (None, Ok(r)) => Ok(r),
            (None, Err(panic)) => {
                let what = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Err(PyRuntimeError::new_err(format!(
                    "gamelab failed inside (a bug; please report it): {what}"
                )))
            }
        }
    })
}
