//! Solved tic-tac-toe tables (`gamelab solve --out`).
//! The check itself: `crates/fuzz-checks/src/solved_tables.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gamelab_fuzz_checks::solved_tables::check(data));
