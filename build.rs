//! Build script: links the `emx` binary without PIE on Linux. The dynamic
//! loader then has none of the PIE's relative relocations to apply at each
//! start, nor the page faults of writing them, which is a measurable part
//! of a run of a few milliseconds (`perf stat emx --version`). The library,
//! tests and benches are linked as usual.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
