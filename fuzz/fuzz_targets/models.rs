//! Model files: tic-tac-toe's linear models (JSON), Othello's pattern models (zstd) and
//! opening books.
//! The check itself: `crates/fuzz-checks/src/models.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gamelab_fuzz_checks::models::check(data));
