#![no_main]
//! Fuzz target `board`: see `emx::fuzz` and docs/reliability.md.
libfuzzer_sys::fuzz_target!(|data: &[u8]| emx::fuzz::run("board", data));
