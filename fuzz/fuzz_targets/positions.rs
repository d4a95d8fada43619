//! Positions and move lists of every game: the first line is a position (or empty for the
//! start), each further line a move. Reading never panics; every move read is legal and
//! played; undoing them all gives the position back.
//! The check itself: `crates/fuzz-checks/src/positions.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gamelab_fuzz_checks::positions::check(data));
