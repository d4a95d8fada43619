//! timely prints its connection progress ("awaiting connections", "error connecting …;
//! retrying") on standard output, where process 0 prints the run's results — which must
//! be exactly what one process prints. While the cluster connects, standard output is
//! pointed at standard error, then put back. Two calls into the C library on Unix; the
//! only `unsafe` of this crate.
#![allow(unsafe_code)]

use std::io::Write;

/// Standard output sent to standard error until dropped.
pub struct OnStderr {
    #[cfg(unix)]
    saved: Option<libc::c_int>,
}

impl OnStderr {
    pub fn start() -> OnStderr {
        let _ = std::io::stdout().flush();
        #[cfg(unix)]
        {
            // SAFETY: dup and dup2 take and give file descriptors only; a failure leaves
            // standard output as it was (and `saved` empty).
            let saved = unsafe {
                let saved = libc::dup(1);
                (saved >= 0 && libc::dup2(2, 1) >= 0).then_some(saved)
            };
            OnStderr { saved }
        }
        #[cfg(not(unix))]
        OnStderr {}
    }
}

impl Drop for OnStderr {
    fn drop(&mut self) {
        let _ = std::io::stdout().flush();
        #[cfg(unix)]
        if let Some(saved) = self.saved.take() {
            // SAFETY: as above; `saved` is the descriptor dup gave.
            unsafe {
                libc::dup2(saved, 1);
                libc::close(saved);
            }
        }
    }
}
