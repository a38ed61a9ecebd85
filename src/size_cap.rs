//! Size caps: emx estimates what it is about to build (the IR of a puzzle,
//! a CNF in memory, an output file) and refuses, with a clear message,
//! anything over the cap instead of being killed for want of memory or
//! filling the disk. `--max-size` raises (or lowers) the cap.
//!
//! The cap is in bytes and applies separately to each thing built: the IR
//! (an estimate of its memory, taken before building), and each encoding
//! (the exact or estimated size of the file, or of the formula in memory for
//! the SAT back-end). Every written output also goes through a
//! [`crate::write::Guarded`] writer, so no estimate error can write past
//! the cap.

/// The default cap: 2 GiB.
pub const DEFAULT_MAX_SIZE: u64 = 2 << 30;

/// A size cap in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeCap {
    /// Largest size allowed, in bytes.
    pub bytes: u64,
}

impl Default for SizeCap {
    fn default() -> Self {
        SizeCap { bytes: DEFAULT_MAX_SIZE }
    }
}

/// Something would be larger than the cap.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{what} would take {about}{size} ({detail}), over the size cap of {cap}: raise it with --max-size{suggest}",
    about = .measure.prefix(),
    size = human(*.bytes),
    cap = human(*.cap),
    suggest = if *.measure == Measure::AtLeast { String::new() } else { format!(" (for example --max-size {})", suggest(*.bytes)) }
)]
pub struct TooLarge {
    /// What was about to be built or written (`the IR`, `the CNF`...).
    pub what: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// How `bytes` was obtained.
    pub measure: Measure,
    /// The sizes behind the estimate (`1.2 M options x 9 entries`...).
    pub detail: String,
    /// The cap, in bytes.
    pub cap: u64,
}

/// How a size was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Counted exactly.
    Exact,
    /// Estimated.
    About,
    /// A lower bound (counting stopped at the cap).
    AtLeast,
}

impl Measure {
    fn prefix(self) -> &'static str {
        match self {
            Measure::Exact => "",
            Measure::About => "about ",
            Measure::AtLeast => "at least ",
        }
    }
}

impl SizeCap {
    /// A cap of `bytes`.
    pub fn new(bytes: u64) -> Self {
        SizeCap { bytes }
    }

    /// No cap at all (tests and internal callers that sized their input).
    pub fn unlimited() -> Self {
        SizeCap { bytes: u64::MAX }
    }

    /// Checks an estimate: `Err` when `bytes` exceeds the cap.
    pub fn check(
        self,
        what: &str,
        bytes: u64,
        measure: Measure,
        detail: impl FnOnce() -> String,
    ) -> Result<(), TooLarge> {
        if bytes > self.bytes {
            return Err(TooLarge { what: what.to_string(), bytes, measure, detail: detail(), cap: self.bytes });
        }
        Ok(())
    }
}

impl std::str::FromStr for SizeCap {
    type Err = String;
    /// Parses a `--max-size` value (see [`parse_size`]).
    fn from_str(s: &str) -> Result<Self, String> {
        parse_size(s).map(SizeCap::new)
    }
}

/// `1536` -> `1.5 KiB`, in binary units.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// A `--max-size` value that admits `bytes`, rounded up to whole units.
fn suggest(bytes: u64) -> String {
    let gib = 1u64 << 30;
    if bytes >= gib {
        format!("{}G", bytes.div_ceil(gib))
    } else {
        format!("{}M", bytes.div_ceil(1 << 20).max(1))
    }
}

/// Parses a `--max-size` value: a number of bytes with an optional unit
/// `K`, `M`, `G`, `T` (binary: `1K` = 1024; `KiB`, `MB`... are read the
/// same way).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("bad size `{text}`: expected a number of bytes with an optional unit K, M, G or T")),
    };
    let value: f64 =
        number.parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0).ok_or_else(|| {
            format!("bad size `{text}`: expected a number of bytes with an optional unit K, M, G or T")
        })?;
    let bytes = value * (1u64 << shift) as f64;
    if bytes >= u64::MAX as f64 {
        return Ok(u64::MAX);
    }
    Ok(bytes as u64)
}

/// The size of an IR before it is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct IrEstimate {
    /// Options (an upper bound).
    pub options: u64,
    /// Entries (items named by options), an upper bound.
    pub entries: u64,
    /// Symmetries (identity included) stored as option permutations.
    pub symmetries: u64,
    /// Estimated memory of the build at its peak: the problem with its
    /// geometry and symmetries, and the tables the build uses and frees.
    pub bytes: u64,
    /// Of `bytes`, what the built IR keeps once the build is done (an
    /// engine's tables come on top of this).
    #[serde(skip)]
    pub kept: u64,
}

/// Memory per option beyond its entries: the option's start index, its
/// geometry placement (struct and allocation) and the table the box
/// symmetries are computed with.
const BYTES_PER_OPTION: u64 = 80;
/// Memory per entry: the entry (item, colour) and the placement's cell.
const BYTES_PER_ENTRY: u64 = 12;

/// The memory glibc's allocator takes for a block of `bytes` (a header of
/// 8 bytes, rounded up to 16, at least 32): what each placement's cell list
/// costs.
pub fn heap_block(bytes: u64) -> u64 {
    (bytes + 8).div_ceil(16).saturating_mul(16).max(32)
}

/// The buckets of a `hashbrown` table holding `n` keys (7/8 full at most,
/// a power of two) times `bucket` bytes, plus a control byte each.
pub fn hash_table(n: u64, bucket: u64) -> u64 {
    let buckets = (n.saturating_mul(8) / 7).max(1).next_power_of_two();
    buckets.saturating_mul(bucket + 1)
}

impl IrEstimate {
    /// The estimate for `options` options with `entries` entries in all and
    /// `symmetries` symmetries (identity included), by a per-option and
    /// per-entry rule (the edge-matching IR).
    pub fn new(options: u64, entries: u64, symmetries: u64) -> Self {
        let bytes = options
            .saturating_mul(BYTES_PER_OPTION + 4 * symmetries.saturating_sub(1))
            .saturating_add(entries.saturating_mul(BYTES_PER_ENTRY));
        IrEstimate { options, entries, symmetries, bytes, kept: bytes }
    }

    /// The estimate of the polycube build ([`crate::frontend::polycube::build`])
    /// from what it allocates: the entries (8 bytes) and option starts (4),
    /// a placement per option (32 bytes, and its cell list, `cell_lists`
    /// bytes in all as the allocator takes them), an option map of 4 bytes
    /// per option for each symmetry but the identity, and one more while
    /// the next is being built; during the symmetry search also the hash
    /// table from cell sets to options (keys of 16 bytes when the box has
    /// at most 128 cells, else 24); the items (a name and a map entry per
    /// cell of the `cells` of the box).
    pub fn polycube(options: u64, entries: u64, symmetries: u64, cells: u64, cell_lists: u64) -> Self {
        let maps = symmetries.saturating_sub(1);
        let kept = entries
            .saturating_mul(8)
            .saturating_add(options.saturating_mul(4 + 32 + 4 * maps))
            .saturating_add(cell_lists)
            .saturating_add(cells.saturating_mul(128));
        let lookup = if maps == 0 {
            0
        } else {
            hash_table(options, if cells <= 128 { 32 } else { 24 }).saturating_add(options.saturating_mul(4))
        };
        IrEstimate { options, entries, symmetries, bytes: kept.saturating_add(lookup), kept }
    }

    /// Checks the estimate against `cap`.
    pub fn check(&self, cap: SizeCap) -> Result<(), TooLarge> {
        cap.check("the exact-cover model (IR)", self.bytes, Measure::About, || {
            format!("up to {} options, {} entries, {} symmetries", self.options, self.entries, self.symmetries)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sizes_with_units() {
        assert_eq!(parse_size("123"), Ok(123));
        assert_eq!(parse_size("2K"), Ok(2048));
        assert_eq!(parse_size("1.5M"), Ok(3 << 19));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("4gib"), Ok(4 << 30));
        assert_eq!(parse_size("1T"), Ok(1 << 40));
        assert_eq!(parse_size("99999999999T"), Ok(u64::MAX));
        assert!(parse_size("x").is_err());
        assert!(parse_size("1Q").is_err());
        assert!(parse_size("").is_err());
    }

    #[test]
    fn messages_say_how_to_raise_the_cap() {
        let e = SizeCap::new(1 << 20).check("the CNF", 3 << 30, Measure::About, || "7 clauses".into()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the CNF would take about 3.0 GiB (7 clauses), over the size cap of 1.0 MiB: raise it with --max-size (for example --max-size 3G)"
        );
        assert!(SizeCap::new(10).check("x", 10, Measure::Exact, String::new).is_ok());
    }
}
