#![no_main]
//! Fuzz target `cnf`: see `emx::fuzz` and docs/reliability.md.
libfuzzer_sys::fuzz_target!(|data: &[u8]| emx::fuzz::run("cnf", data));
