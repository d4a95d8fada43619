//! What a write to a closed pipe or socket does. Rust ignores SIGPIPE, so such writes
//! fail instead of ending the process: right for sockets, which a peer may close at any
//! time, but a reader that stops early (`gamelab ffo … | head`) then makes the next
//! `println!` panic.

/// From now on a write to a closed pipe ends the process at once and quietly, as it does
/// other command-line tools. Not for `serve`, whose sockets any client may close.
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn end_quietly_when_the_reader_leaves() {
    // SAFETY: sets one signal's disposition; no handler runs Rust code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// From now on a write to a closed socket is an error again: a cluster's processes talk
/// over sockets, and a peer that ends first must be reported, not end this process
/// silently.
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn report_closed_sockets() {
    // SAFETY: as above.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

#[cfg(not(unix))]
pub fn end_quietly_when_the_reader_leaves() {}

#[cfg(not(unix))]
pub fn report_closed_sockets() {}
