//! Request bodies of the web API: any bytes to each endpoint that takes a body get an
//! answer (never a panic or a 500). Runs are left out: a valid one would start playing.
//! The check itself: `crates/fuzz-checks/src/http_bodies.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gamelab_fuzz_checks::http_bodies::check(data));
