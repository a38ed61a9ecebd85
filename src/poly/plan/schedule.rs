//! Engine schedules: which engine (and, for DLX, which ordering heuristic)
//! places the next piece, as a function of the number of pieces still to
//! place.
//!
//! Grammar (whitespace around tokens is ignored):
//!
//! ```text
//! schedule  := "auto" | stage ("," stage)*
//! stage     := body ["@" N]                 N = remaining pieces, N >= 1
//! body      := "dlx" [":" heuristic] | heuristic | "bdlx" | "mch" | emch | "debruijn"
//! emch      := "emch" ["+" T ["/" L]]        T >= 0, L = 1..6 (default 1)
//! heuristic := "min-fit" | "f" | "x" | "y" | "z" | "X" | "Y" | "Z" | "R" | "a@" DEG
//! ```
//!
//! A stage takes over when the number of pieces still to place drops to
//! its `N` (Busche's switch-over thresholds: `dlx:min-fit@12,mch@11,emch@6,
//! debruijn@4` runs DLX while 12 or more pieces remain, MCH for 11..7,
//! EMCH for 6..5 and de Bruijn for the last 4). The first stage starts at
//! the top and needs no `@N`; every later stage needs one, and the
//! thresholds must decrease. A bare heuristic is a DLX stage (`x,min-fit@20`
//! packs by x, then switches to min-fit at 20 pieces). `a@DEG` is the
//! angular heuristic starting at `DEG` degrees; its threshold follows it:
//! `a@160@35`. DLX stages must all come before the bit-field engines (DLX
//! hands its state over to them, never back).
//!
//! `emch+T/L` is *wider* EMCH: when the fewest fits among the cells with
//! the fewest empty neighbours exceed `T`, the cells of up to `L` further
//! (non-empty) neighbour levels are counted too, while the best count stays
//! above `T` (see [`Widen`]); `emch+T` is `emch+T/1`, `emch+T/6` every level.

use crate::dlx::Heuristic;
use std::fmt;

/// One engine kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    /// Dancing links with an ordering heuristic.
    Dlx(Heuristic),
    /// Most constrained hole: exact fit counts (early exit) at every hole.
    Mch,
    /// Estimated MCH: exact counts only at the holes with fewest free
    /// neighbours (and, widened, at further neighbour levels).
    Emch(Widen),
    /// de Bruijn: fill the first empty cell in the engines' cell order.
    DeBruijn,
    /// DLX's min-fit choice (the hole or piece with the fewest fitting
    /// images) on bit fields: per depth an array of the images that still
    /// fit, with bit-sliced per-cell counts, instead of dancing links.
    Bdlx,
}

/// The stage of a compiled schedule at one number of pieces left: a
/// [`Stage`] with its DLX heuristic as an index into the plan's list of
/// heuristics (each DLX stage's sort keys are computed once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// DLX with the plan's heuristic number `.0`.
    Dlx(usize),
    /// Most constrained hole.
    Mch,
    /// Estimated most constrained hole.
    Emch(Widen),
    /// de Bruijn.
    DeBruijn,
    /// DLX's min-fit choice on bit fields.
    Bdlx,
}

/// How far EMCH looks past the cells with the fewest empty neighbours.
///
/// With `levels == 0` (plain EMCH) only those cells are counted. Otherwise,
/// while the best count is above `threshold`, the cells of the next
/// non-empty neighbour level are counted too (in cell order; only strictly
/// fewer fits win), up to `levels` further levels. Ties thus go to the
/// level with fewer empty neighbours, then to the lower cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Widen {
    /// Count further levels only while the best count is above this.
    pub threshold: u32,
    /// How many further neighbour levels may be counted (0: plain EMCH; 6: all).
    pub levels: u8,
}

impl Stage {
    /// Whether this is a bit-field engine.
    pub fn is_bitfield(&self) -> bool {
        !matches!(self, Stage::Dlx(_))
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stage::Dlx(h) => write!(f, "dlx:{h}"),
            Stage::Mch => f.write_str("mch"),
            Stage::Emch(w) if w.levels == 0 => f.write_str("emch"),
            Stage::Emch(w) if w.levels == 1 => write!(f, "emch+{}", w.threshold),
            Stage::Emch(w) => write!(f, "emch+{}/{}", w.threshold, w.levels),
            Stage::DeBruijn => f.write_str("debruijn"),
            Stage::Bdlx => f.write_str("bdlx"),
        }
    }
}

/// A parsed schedule: stages with the remaining-piece count at which each
/// takes over (`None` for the first: from the start).
///
/// Invariant: non-empty; `stages[0].0` may be `None`, every later threshold
/// is `Some` and strictly smaller than the previous one; no DLX stage
/// follows a bit-field stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// `(threshold, stage)` in order.
    pub stages: Vec<(Option<u32>, Stage)>,
}

/// A schedule that does not parse; names the offending token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad schedule `{schedule}`: token `{token}`: {reason}")]
pub struct ScheduleError {
    /// The whole schedule text.
    pub schedule: String,
    /// The bad token.
    pub token: String,
    /// What was expected.
    pub reason: String,
}

/// What the user asked for: a fixed schedule or `auto`.
#[derive(Clone, Debug, PartialEq)]
pub enum ScheduleSpec {
    /// Let [`crate::poly::plan::auto`] choose.
    Auto,
    /// This schedule.
    Fixed(Schedule),
}

impl ScheduleSpec {
    /// Parses the `--schedule` grammar.
    pub fn parse(text: &str) -> Result<ScheduleSpec, ScheduleError> {
        if text.trim() == "auto" {
            return Ok(ScheduleSpec::Auto);
        }
        Schedule::parse(text).map(ScheduleSpec::Fixed)
    }
}

impl Schedule {
    /// One stage from the start.
    pub fn single(stage: Stage) -> Schedule {
        Schedule { stages: vec![(None, stage)] }
    }

    /// DLX with `heuristic` from the start, handing over to the bit-field
    /// engine `then` when `at` pieces are left (`dlx:H,then@at`).
    ///
    /// # Panics
    /// When `then` is a DLX stage or `at` is 0: the schedule's invariant.
    pub fn dlx_then(heuristic: Heuristic, then: Stage, at: u32) -> Schedule {
        assert!(then.is_bitfield() && at >= 1, "DLX hands over to a bit-field engine at 1 or more pieces left");
        Schedule { stages: vec![(None, Stage::Dlx(heuristic)), (Some(at), then)] }
    }

    /// Parses a fixed schedule (see the module documentation).
    pub fn parse(text: &str) -> Result<Schedule, ScheduleError> {
        let err = |token: &str, reason: String| ScheduleError {
            schedule: text.to_string(),
            token: token.to_string(),
            reason,
        };
        if text.trim().is_empty() {
            return Err(err("", "empty schedule: expected e.g. `dlx:min-fit@12,mch@11,emch@6,debruijn@4`".into()));
        }
        let mut stages: Vec<(Option<u32>, Stage)> = Vec::new();
        for raw in text.split(',') {
            let token = raw.trim();
            let (body, threshold) = split_threshold(token).map_err(|r| err(token, r))?;
            let stage = parse_body(body).map_err(|r| err(token, r))?;
            if let Some(prev) = stages.last() {
                let Some(n) = threshold else {
                    return Err(err(
                        token,
                        "every stage after the first needs `@N` (the remaining-piece count at which it takes over)"
                            .into(),
                    ));
                };
                if let Some(p) = prev.0 {
                    if n >= p {
                        return Err(err(token, format!("thresholds must decrease: {n} does not come after {p}")));
                    }
                }
                if prev.1.is_bitfield() && !stage.is_bitfield() {
                    return Err(err(
                        token,
                        "a DLX stage cannot follow a bit-field engine (DLX hands over to mch/emch/debruijn, never back)".into(),
                    ));
                }
            }
            stages.push((threshold, stage));
        }
        Ok(Schedule { stages })
    }

    /// The stage that places the next piece when `remaining` pieces are left.
    pub fn stage_for(&self, remaining: u32) -> &Stage {
        let mut current = &self.stages[0].1;
        for (t, s) in &self.stages[1..] {
            if remaining <= t.expect("later stages have thresholds") {
                current = s;
            }
        }
        current
    }

    /// Whether any stage uses DLX.
    pub fn uses_dlx(&self) -> bool {
        self.stages.iter().any(|(_, s)| !s.is_bitfield())
    }

    /// Whether any stage is a bit-field engine.
    pub fn uses_bitfield(&self) -> bool {
        self.stages.iter().any(|(_, s)| s.is_bitfield())
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, (t, s)) in self.stages.iter().enumerate() {
            if k > 0 {
                f.write_str(",")?;
            }
            write!(f, "{s}")?;
            if let Some(t) = t {
                write!(f, "@{t}")?;
            }
        }
        Ok(())
    }
}

/// Splits `body@N`, keeping the angle of `a@DEG` in the body.
fn split_threshold(token: &str) -> Result<(&str, Option<u32>), String> {
    let heuristic_start = token.strip_prefix("dlx:").unwrap_or(token);
    let skip = if heuristic_start.starts_with("a@") { token.len() - heuristic_start.len() + 2 } else { 0 };
    match token[skip..].find('@') {
        None => Ok((token, None)),
        Some(at) => {
            let at = skip + at;
            let n = &token[at + 1..];
            let n: u32 = n.parse().map_err(|_| format!("`{n}` is not a remaining-piece count"))?;
            if n == 0 {
                return Err("a threshold must be at least 1 remaining piece".into());
            }
            Ok((&token[..at], Some(n)))
        }
    }
}

fn parse_body(body: &str) -> Result<Stage, String> {
    match body {
        "mch" => return Ok(Stage::Mch),
        "emch" => return Ok(Stage::Emch(Widen::default())),
        "debruijn" => return Ok(Stage::DeBruijn),
        "bdlx" => return Ok(Stage::Bdlx),
        "dlx" => return Ok(Stage::Dlx(Heuristic::MinFit)),
        _ => {}
    }
    if let Some(wide) = body.strip_prefix("emch+") {
        let (t, l) = wide.split_once('/').unwrap_or((wide, "1"));
        let threshold = t.parse().map_err(|_| format!("`{t}` is not a fit-count threshold (emch+T/L)"))?;
        let levels = match l.parse::<u8>() {
            Ok(l @ 1..=6) => l,
            _ => return Err(format!("`{l}` is not a number of further neighbour levels, 1 to 6 (emch+T/L)")),
        };
        return Ok(Stage::Emch(Widen { threshold, levels }));
    }
    let h = body.strip_prefix("dlx:").unwrap_or(body);
    Heuristic::parse(h).map(Stage::Dlx).map_err(|e| {
        if body.starts_with("dlx:") {
            e
        } else {
            format!("expected an engine (dlx, bdlx, mch, emch, debruijn) or a DLX heuristic: {e}")
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::poly::plan::schedule::*;

    #[test]
    fn busche_style_schedule() {
        let s = Schedule::parse("dlx:min-fit@12,mch@11,emch@6,debruijn@4").unwrap();
        assert_eq!(s.stages.len(), 4);
        assert_eq!(s.stage_for(12), &Stage::Dlx(Heuristic::MinFit));
        assert_eq!(s.stage_for(100), &Stage::Dlx(Heuristic::MinFit));
        assert_eq!(s.stage_for(11), &Stage::Mch);
        assert_eq!(s.stage_for(7), &Stage::Mch);
        assert_eq!(s.stage_for(6), &Stage::Emch(Widen::default()));
        assert_eq!(s.stage_for(4), &Stage::DeBruijn);
        assert_eq!(s.stage_for(1), &Stage::DeBruijn);
        assert_eq!(s.to_string(), "dlx:min-fit@12,mch@11,emch@6,debruijn@4");
    }

    #[test]
    fn heuristics_and_angles() {
        let s = Schedule::parse("x,min-fit@20").unwrap();
        assert_eq!(s.stage_for(30), &Stage::Dlx(Heuristic::Axis { axis: 0, descending: false }));
        assert_eq!(s.stage_for(20), &Stage::Dlx(Heuristic::MinFit));
        let s = Schedule::parse("a@160,dlx:f@15,debruijn@4").unwrap();
        assert_eq!(s.stage_for(35), &Stage::Dlx(Heuristic::Angular { degrees: 160.0 }));
        let s = Schedule::parse("dlx:a@160@35,min-fit@15").unwrap();
        assert_eq!(s.stages[0].0, Some(35));
        assert!(matches!(ScheduleSpec::parse(" auto "), Ok(ScheduleSpec::Auto)));
    }

    #[test]
    fn wider_emch() {
        let s = Schedule::parse("dlx,mch@11,emch+2@8,emch+0/6@4,emch@2").unwrap();
        assert_eq!(s.stage_for(8), &Stage::Emch(Widen { threshold: 2, levels: 1 }));
        assert_eq!(s.stage_for(4), &Stage::Emch(Widen { threshold: 0, levels: 6 }));
        assert_eq!(s.stage_for(2), &Stage::Emch(Widen::default()));
        assert_eq!(s.to_string(), "dlx:min-fit,mch@11,emch+2@8,emch+0/6@4,emch@2");
        for bad in ["emch+", "emch+x", "emch+1/0", "emch+1/7", "emch+1/"] {
            assert_eq!(Schedule::parse(bad).unwrap_err().token, bad);
        }
    }

    #[test]
    fn errors_name_the_token() {
        let e = Schedule::parse("dlx@12,mcx@11").unwrap_err();
        assert_eq!(e.token, "mcx@11");
        let e = Schedule::parse("dlx,mch").unwrap_err();
        assert_eq!(e.token, "mch");
        assert!(e.reason.contains("@N"));
        let e = Schedule::parse("dlx,mch@6,emch@8").unwrap_err();
        assert_eq!(e.token, "emch@8");
        let e = Schedule::parse("mch,dlx@4").unwrap_err();
        assert_eq!(e.token, "dlx@4");
        let e = Schedule::parse("debruijn@x").unwrap_err();
        assert_eq!(e.token, "debruijn@x");
        let e = Schedule::parse("dlx:q").unwrap_err();
        assert_eq!(e.token, "dlx:q");
        let e = Schedule::parse("a@north").unwrap_err();
        assert_eq!(e.token, "a@north");
        assert!(e.to_string().contains("`a@north`"));
        assert!(Schedule::parse("").is_err());
        assert!(Schedule::parse("mch@0").is_err());
    }
}
