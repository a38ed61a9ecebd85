//! Build script: says whether this compiler has the AVX-512 intrinsics
//! (stable since Rust 1.89; the crate's MSRV is 1.80). With them the lean
//! de Bruijn loop gets its AVX-512 copy (`cfg(emx_avx512)`,
//! `src/poly/debruijn/lean/pass512.rs`); without them the AVX2 copy is the
//! widest, and the search is the same. It also links the binary without
//! PIE on Linux (see below).

use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(emx_avx512)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=RUSTC");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let minor =
        Command::new(rustc).arg("--version").output().ok().and_then(|o| String::from_utf8(o.stdout).ok()).and_then(
            |v| v.split_whitespace().nth(1).and_then(|n| n.split('.').nth(1)).and_then(|m| m.parse::<u32>().ok()),
        );
    // The `emx` binary is linked as a plain (non-PIE) executable on Linux:
    // the dynamic loader then has none of the PIE's relative relocations to
    // apply at each start, nor the page faults of writing them (round 25,
    // docs/poly.md: `emx --version` 864.7 k -> 786.8 k instructions, 137 ->
    // 114 page faults). The library, tests and benches are unchanged.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
    if minor.is_some_and(|m| m >= 89) {
        println!("cargo::rustc-cfg=emx_avx512");
    }
}
