//! The processor, as far as the kernels care: which SIMD level they may
//! run at, detected once per process, with the environment's overrides.
//!
//! Every kernel with a wide copy picks it through [`level`] (or the
//! narrower questions below), never by detecting features itself, so the
//! level a run uses is the same in every engine and one variable switches
//! it for all of them:
//!
//! | variable | effect |
//! |---|---|
//! | `EMX_SIMD=scalar\|avx2\|avx512` | at most this level |
//! | `EMX_NO_AVX512` (any value) | at most [`Level::Avx2`] |
//! | `EMX_NO_AVX2` (any value) | [`Level::Scalar`] |
//!
//! The scalar level is what every other target runs (ARM, or x86 without
//! AVX2): the same algorithms on 64-bit words, node for node the same
//! search. A level's kernels are compiled with exactly the features of
//! [`Level::features`]; the `#[target_feature(enable = ...)]` attribute
//! needs a literal, so each kernel repeats its level's list, and a test
//! holds every such attribute in the crate to one of these lists.

use std::sync::OnceLock;

/// A SIMD level, ordered: a higher level has every feature of a lower one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// No x86 vector extensions beyond the baseline (every target).
    Scalar,
    /// AVX2 with BMI1, BMI2, POPCNT and LZCNT (x86-64-v3: Haswell, Zen 1).
    Avx2,
    /// AVX-512 F, BW, VL, VBMI, VPOPCNTDQ, BITALG and GFNI on top of
    /// [`Level::Avx2`] (Ice Lake, Zen 4 and later).
    Avx512,
}

impl Level {
    /// The `target_feature` list of this level's kernels (empty for
    /// [`Level::Scalar`]).
    pub const fn features(self) -> &'static str {
        match self {
            Level::Scalar => "",
            Level::Avx2 => AVX2,
            Level::Avx512 => AVX512,
        }
    }

    /// The level's name, as `EMX_SIMD` spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The features of [`Level::Avx2`] kernels.
pub const AVX2: &str = "avx2,bmi1,bmi2,popcnt,lzcnt";
/// The features of [`Level::Avx512`] kernels.
pub const AVX512: &str =
    "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vpopcntdq,avx512bitalg,gfni";
/// The feature of the bit-count kernels of the edge-matching engines, which
/// every level may use (x86-64-v2 and later have it; elsewhere the count is
/// the target's own instruction).
pub const POPCNT: &str = "popcnt";

/// What this process may use.
///
/// Invariant: `level` is at most what the processor has and at most what
/// the environment allows; `fast_pext` implies `level >= Avx2`.
#[derive(Clone, Copy, Debug)]
struct Cpu {
    level: Level,
    detected: Level,
    fast_pext: bool,
    popcnt: bool,
}

fn cpu() -> &'static Cpu {
    static CPU: OnceLock<Cpu> = OnceLock::new();
    CPU.get_or_init(|| {
        let detected = detect();
        let allowed = allowed_by(|name| std::env::var(name).ok());
        let level = detected.min(allowed);
        Cpu { level, detected, fast_pext: level >= Level::Avx2 && detect_fast_pext(), popcnt: detect_popcnt() }
    })
}

/// The level the kernels run at.
pub fn level() -> Level {
    cpu().level
}

/// The level the processor has, before the environment's overrides.
pub fn detected() -> Level {
    cpu().detected
}

/// Whether the kernels may use the [`Level::Avx2`] copies.
#[inline]
pub fn avx2() -> bool {
    level() >= Level::Avx2
}

/// Whether the kernels may use the [`Level::Avx512`] copies.
#[inline]
pub fn avx512() -> bool {
    level() >= Level::Avx512
}

/// Whether BMI2's `pext` may be used and runs fast: AMD before Zen 3
/// (family 0x17 and older) microcodes it, tens of cycles an instruction.
pub fn fast_pext() -> bool {
    cpu().fast_pext
}

/// Whether the [`POPCNT`] kernels may run.
pub fn popcnt() -> bool {
    cpu().popcnt
}

/// The most the environment allows, read through `var` (so tests can
/// pass their own).
fn allowed_by(var: impl Fn(&str) -> Option<String>) -> Level {
    let mut allowed = match var("EMX_SIMD").as_deref().map(str::trim) {
        Some("scalar") => Level::Scalar,
        Some("avx2") => Level::Avx2,
        _ => Level::Avx512,
    };
    if var("EMX_NO_AVX512").is_some() {
        allowed = allowed.min(Level::Avx2);
    }
    if var("EMX_NO_AVX2").is_some() {
        allowed = Level::Scalar;
    }
    allowed
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Level {
    use std::arch::is_x86_feature_detected as has;
    let avx2 = has!("avx2") && has!("bmi1") && has!("bmi2") && has!("popcnt") && has!("lzcnt");
    let avx512 = avx2
        && has!("avx512f")
        && has!("avx512bw")
        && has!("avx512vl")
        && has!("avx512vbmi")
        && has!("avx512vpopcntdq")
        && has!("avx512bitalg")
        && has!("gfni");
    match (avx2, avx512) {
        (_, true) => Level::Avx512,
        (true, false) => Level::Avx2,
        _ => Level::Scalar,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Level {
    Level::Scalar
}

#[cfg(target_arch = "x86_64")]
fn detect_fast_pext() -> bool {
    if !std::arch::is_x86_feature_detected!("bmi2") {
        return false;
    }
    let (vendor, sig) = (std::arch::x86_64::__cpuid(0), std::arch::x86_64::__cpuid(1));
    let amd = vendor.ebx == u32::from_le_bytes(*b"Auth");
    let family = (sig.eax >> 8 & 0xf) + (sig.eax >> 20 & 0xff);
    !(amd && family < 0x19)
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_fast_pext() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
fn detect_popcnt() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_popcnt() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_only_lowers_the_level() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
        };
        assert_eq!(allowed_by(env(&[])), Level::Avx512);
        assert_eq!(allowed_by(env(&[("EMX_NO_AVX512", "1")])), Level::Avx2);
        assert_eq!(allowed_by(env(&[("EMX_NO_AVX2", "")])), Level::Scalar);
        assert_eq!(allowed_by(env(&[("EMX_SIMD", "scalar")])), Level::Scalar);
        assert_eq!(allowed_by(env(&[("EMX_SIMD", "avx2")])), Level::Avx2);
        assert_eq!(allowed_by(env(&[("EMX_SIMD", "avx2"), ("EMX_NO_AVX2", "1")])), Level::Scalar);
        assert!(level() <= detected());
        assert!(!fast_pext() || avx2());
    }

    /// Every `#[target_feature(enable = ...)]` in the crate names one of
    /// the lists above, and nothing outside this module detects features
    /// or reads the overrides: the level of a run is decided here alone.
    #[test]
    fn kernels_use_the_levels_lists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![root];
        let mut seen = 0;
        while let Some(p) = files.pop() {
            if p.is_dir() {
                files.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            if p.extension().is_none_or(|e| e != "rs") || p.ends_with("cpu.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            for (n, line) in text.lines().enumerate() {
                let at = format!("{}:{}", p.display(), n + 1);
                let code = line.split("//").next().unwrap_or("");
                if let Some(rest) = code.split("target_feature(enable = \"").nth(1) {
                    let list = rest.split('"').next().unwrap();
                    assert!([AVX2, AVX512, POPCNT].contains(&list), "{at}: `{list}` is not a level's list");
                    seen += 1;
                }
                for word in ["is_x86_feature_detected", "__cpuid", "\"EMX_NO_AVX", "\"EMX_SIMD"] {
                    assert!(!code.contains(word), "{at}: `{word}` outside cpu.rs");
                }
            }
        }
        assert!(seen > 0, "no kernel found: the scan looked in the wrong place");
    }
}
