#![no_main]
//! Fuzz target `input`: see `emx::fuzz` and docs/reliability.md.
libfuzzer_sys::fuzz_target!(|data: &[u8]| emx::fuzz::run("input", data));
