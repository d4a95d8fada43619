//! Lines for the engine sides of the NBoard and GTP protocols (`gamelab nboard`, `gamelab
//! gtp`), playing `greedy` (which answers at once, whatever depth a command asks for):
//! every line gets well-formed answers — NBoard replies of one line each, a GTP answer that
//! starts with `=` or `?`, echoes the command's number and ends with one empty line.
//! The check itself: `crates/fuzz-checks/src/engine_protocols.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gamelab_fuzz_checks::engine_protocols::check(data));
