#![no_main]
//! Fuzz target `lp_solution`: see `emx::fuzz` and docs/reliability.md.
libfuzzer_sys::fuzz_target!(|data: &[u8]| emx::fuzz::run("lp_solution", data));
