//! WTHOR game databases: reading and replaying every game.
//! The check itself: `crates/fuzz-checks/src/wthor.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gamelab_fuzz_checks::wthor::check(data));
