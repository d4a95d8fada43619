//! The server's memory, returned to the system after runs. glibc gives each thread its
//! own malloc arena (up to eight per core) and keeps what is freed in it: an Othello
//! engine's table is 16 MB, made anew for each chunk of games, so a server that ran a few
//! matches would otherwise stay at its peak for good. The only `unsafe` of the project:
//! two calls into the C library, which have no preconditions.
#![allow(unsafe_code)]

/// Limits malloc to one arena per core, so that freed memory is shared, and trimmed, in
/// a few arenas rather than kept in one per thread that ever ran.
pub fn limit_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let arenas = libc::c_int::try_from(cores).unwrap_or(libc::c_int::MAX);
        // SAFETY: mallopt only changes a setting of the allocator.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, arenas);
        }
    }
}

/// Returns the free pages of every arena to the system.
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}
