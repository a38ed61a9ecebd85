#![no_main]
//! Fuzz target `clique`: see `emx::fuzz` and docs/reliability.md.
libfuzzer_sys::fuzz_target!(|data: &[u8]| emx::fuzz::run("clique", data));
