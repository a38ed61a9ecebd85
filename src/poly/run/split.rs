//! Splitting a search into independent subproblem files (`emx split`) and
//! adding up their results (`emx merge`), so that any batch system (GNU
//! parallel, a Slurm job array) can run a search too large for one machine.
//!
//! A split enumerates the nodes at depth `D` of the configured search (the
//! piece constrained by the redundancy filter is placed first, so every
//! part carries it) and writes each as a definition file in Busche's
//! format: the pieces placed on the way become stationary pieces (`type=S`,
//! keeping their names), the others stay mobile. A `manifest.json` lists
//! the parts with their weights (fixed-box solutions per solution of the
//! part) and the solutions met above depth `D`. Merging reads each part's
//! `emx solve --format json` result and adds the weighted counts; with
//! `--all` results it also rebuilds every solution of the original puzzle,
//! verifies it and counts the classes under rotation (and reflection).

use crate::frontend::polycube::Puzzle;
use crate::ir::{Equivalence, OptionId, Problem, Solution, UniqueFilter};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// One placed piece, as in `emx solve --format json` solution lists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedPiece {
    /// Piece name.
    pub piece: String,
    /// Cells `[x, y, z]`.
    pub cells: Vec<[u32; 3]>,
}

/// One part of a split.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// Definition file, relative to the manifest (none when the parts are
    /// grouped into task files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Fixed-box solutions each solution of the part stands for.
    pub weight: u64,
    /// Pieces fixed by the split.
    pub placed: Vec<PlacedPiece>,
}

/// A solution met above the split depth.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    /// Fixed-box solutions it stands for.
    pub weight: u64,
    /// Its pieces.
    pub solution: Vec<PlacedPiece>,
}

/// `manifest.json` of a split.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The original definition file.
    pub file: String,
    /// Puzzle index in that file (1-based).
    pub puzzle: usize,
    /// Split depth.
    pub depth: usize,
    /// The engine configuration that made the split.
    pub engine: String,
    /// Whether the redundancy filter broke reflections too (then only the
    /// classes under rotation and reflection can be counted).
    pub mirror: bool,
    /// The parts.
    pub parts: Vec<Part>,
    /// Solutions found above the split depth.
    pub found: Vec<Found>,
    /// The split's identity ([`crate::tasks::split_id`] of the puzzle text
    /// and this manifest without this field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<String>,
    /// The task files the parts are grouped into (none: one file a part).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<crate::tasks::TaskEntry>,
}

/// The pieces of a list of options, named after the copies of their group
/// (copies in order of first use).
pub fn placed_pieces(problem: &Problem, options: &[OptionId]) -> Vec<PlacedPiece> {
    let geo = problem.geometry.as_ref().expect("polycube problems carry geometry");
    let mut used: HashMap<u32, usize> = HashMap::new();
    options
        .iter()
        .map(|&o| {
            let p = &geo.placements[o as usize];
            let k = used.entry(p.piece).or_insert(0);
            let names = &geo.pieces[p.piece as usize].names;
            let name = names[(*k).min(names.len() - 1)].clone();
            *k += 1;
            PlacedPiece { piece: name, cells: p.cells.iter().map(|&c| geo.coords(c)).collect() }
        })
        .collect()
}

fn layout(cells: impl IntoIterator<Item = [i64; 3]>) -> String {
    cells.into_iter().map(|c| format!("{} {} {}", c[0], c[1], c[2])).collect::<Vec<_>>().join(", ")
}

/// The definition file of a part: `placed` pieces stationary, the others
/// mobile as defined.
pub fn part_text(puzzle: &Puzzle, placed: &[PlacedPiece], header: &str) -> String {
    let [dx, dy, dz] = puzzle.dims;
    let mut s = String::new();
    for line in header.lines() {
        s.push_str(&format!("# {line}\n"));
    }
    s.push_str(&format!("D:xDim={dx}:yDim={dy}:zDim={dz}{}\n", if puzzle.one_side { ":oneSide" } else { "" }));
    for d in &puzzle.pieces {
        let fixed = placed.iter().find(|p| p.piece == d.name);
        match (d.stationary, fixed) {
            (true, _) => s.push_str(&format!(
                "C:name={}:type=S:layout={}\n",
                d.name,
                layout(d.cells.iter().map(|c| c.map(|v| v as i64)))
            )),
            (false, Some(p)) => s.push_str(&format!(
                "C:name={}:type=S:layout={}\n",
                d.name,
                layout(p.cells.iter().map(|c| c.map(|v| v as i64)))
            )),
            (false, None) => s.push_str(&format!(
                "C:name={}:type=M:layout={}\n",
                d.name,
                layout(d.cells.iter().map(|c| c.map(|v| v as i64)))
            )),
        }
    }
    s.push_str("~D\n");
    s
}

/// Writes `text` to `path` through a temporary file and a rename.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    crate::write::text_atomically(path, &crate::write::OutputGuard::default(), text)
}

/// Writes a part file through a temporary file and a rename, unsynced
/// (the manifest, written last by [`write_atomically`], commits the split).
pub fn write_part(path: &Path, text: &str) -> std::io::Result<()> {
    crate::write::small_text_unsynced(path, text)
}

/// The result of one part (`emx solve --format json`, or a part of an
/// `emx task` result), as merge reads it.
#[derive(Clone, Debug, Deserialize)]
pub struct PartResult {
    /// Fixed-box solutions of the part.
    pub found: u64,
    /// Solutions reported (`emx solve`'s `solutions`), when given.
    #[serde(default)]
    pub solutions: Option<u64>,
    /// `emx solve`'s `mode`: `"all"` means `solution_list` claims to hold
    /// every solution.
    #[serde(default)]
    pub mode: Option<String>,
    /// Whether the part's search finished.
    pub complete: bool,
    /// Solutions: all of them when solved with `--all` (a count lists its
    /// first solution only).
    #[serde(default)]
    pub solution_list: Option<Vec<Vec<PlacedPiece>>>,
    /// Where the result was read (named in errors).
    #[serde(skip)]
    pub source: String,
}

impl PartResult {
    /// Whether the result claims to list every solution it counts.
    pub fn lists_all(&self) -> bool {
        self.mode.as_deref() == Some("all")
    }

    /// Checks that a result listing every solution counts exactly its list.
    pub fn check_counts(&self) -> Result<(), MergeError> {
        let Some(list) = self.solution_list.as_ref().filter(|_| self.lists_all()) else { return Ok(()) };
        let n = list.len() as u64;
        for (what, claimed) in [("found", Some(self.found)), ("solutions", self.solutions)] {
            if let Some(c) = claimed.filter(|&c| c != n) {
                return Err(MergeError::Mismatch(format!(
                    "{}: `{what}` claims {c} solutions but the solution list holds {n}",
                    self.source
                )));
            }
        }
        Ok(())
    }
}

/// What a merge computed.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Merged {
    /// Part results read.
    pub parts: usize,
    /// Whether every part has a result and every part's search finished.
    pub complete: bool,
    /// Solutions of the fixed box (over the parts with a result).
    pub fixed_box: u64,
    /// Classes under rotation (when every part listed its solutions).
    pub unique: Option<u64>,
    /// Classes under rotation and reflection (same condition).
    pub unique_mirror: Option<u64>,
    /// Solutions rebuilt and verified against the original puzzle.
    pub verified: u64,
}

/// Why a merge failed: bad input, named by the result it came from.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A count disagrees with its list, a listed solution is not a
    /// solution of the puzzle, or a solution is listed twice.
    #[error("{0}")]
    Mismatch(String),
}

/// Adds up part results (`results[k]` for `manifest.parts[k]`, `None`
/// when missing). Each result that lists all its solutions must count
/// exactly its list. When every result present lists all its solutions,
/// rebuilds each solution of the original puzzle (split pieces plus the
/// part's pieces), checks it with `verify`, refuses one listed twice
/// (within a part or across parts) and counts the classes.
pub fn merge(
    problem: &Problem,
    manifest: &Manifest,
    results: &[Option<PartResult>],
    verify: &dyn Fn(&Solution) -> Result<(), String>,
) -> Result<Merged, MergeError> {
    let geo = problem.geometry.as_ref().expect("polycube problems carry geometry");
    let present = || manifest.parts.iter().zip(results).filter_map(|(p, r)| r.as_ref().map(|r| (p, r)));
    let mut merged = Merged {
        parts: present().count(),
        complete: results.iter().all(|r| r.as_ref().is_some_and(|r| r.complete)),
        ..Merged::default()
    };
    for (_, r) in present() {
        r.check_counts()?;
    }
    merged.fixed_box =
        manifest.found.iter().map(|f| f.weight).sum::<u64>() + present().map(|(p, r)| p.weight * r.found).sum::<u64>();
    // A count-mode result lists only its first solution: only complete
    // lists are rebuilt.
    if !present().all(|(_, r)| r.lists_all() && r.solution_list.is_some()) {
        return Ok(merged);
    }
    let group_of: HashMap<&str, u32> =
        geo.pieces.iter().enumerate().flat_map(|(g, p)| p.names.iter().map(move |n| (n.as_str(), g as u32))).collect();
    let option_of: HashMap<(u32, Vec<u32>), OptionId> =
        geo.placements.iter().enumerate().map(|(o, p)| ((p.piece, p.cells.clone()), o as OptionId)).collect();
    let to_options = |pieces: &[&PlacedPiece], source: &str| -> Result<Solution, MergeError> {
        let mut options = Vec::new();
        for p in pieces {
            let g = *group_of
                .get(p.piece.as_str())
                .ok_or_else(|| MergeError::Mismatch(format!("{source}: unknown piece `{}`", p.piece)))?;
            if geo.pieces[g as usize].stationary {
                continue;
            }
            let cells: Option<Vec<u32>> = p.cells.iter().map(|&c| geo.try_cell(c)).collect();
            let mut cells = cells.ok_or_else(|| {
                MergeError::Mismatch(format!("{source}: piece `{}` at {:?} leaves the box", p.piece, p.cells))
            })?;
            cells.sort_unstable();
            let o = option_of.get(&(g, cells)).ok_or_else(|| {
                MergeError::Mismatch(format!(
                    "{source}: piece `{}` at {:?} is no image of the puzzle",
                    p.piece, p.cells
                ))
            })?;
            options.push(*o);
        }
        Ok(Solution { options })
    };
    let mut rot = UniqueFilter::new(&problem.symmetries, Equivalence::Rotations);
    let mut mir = UniqueFilter::new(&problem.symmetries, Equivalence::RotationsAndMirrors);
    let (mut n_rot, mut n_mir) = (0u64, 0u64);
    let mut seen: HashMap<Vec<OptionId>, String> = HashMap::new();
    let mut add = |s: Solution, source: &str| -> Result<(), MergeError> {
        verify(&s).map_err(|e| MergeError::Mismatch(format!("{source}: a listed solution is invalid: {e}")))?;
        let mut key = s.options.clone();
        key.sort_unstable();
        if let Some(first) = seen.get(&key) {
            return Err(MergeError::Mismatch(format!(
                "{source}: lists a solution already listed by {first} (each solution belongs to one part)"
            )));
        }
        seen.insert(key, source.to_string());
        n_rot += rot.insert(&s.options) as u64;
        n_mir += mir.insert(&s.options) as u64;
        merged.verified += 1;
        Ok(())
    };
    for f in &manifest.found {
        add(to_options(&f.solution.iter().collect::<Vec<_>>(), "the manifest")?, "the manifest")?;
    }
    for (part, r) in present() {
        for sol in r.solution_list.as_ref().expect("checked above") {
            let all: Vec<&PlacedPiece> = part.placed.iter().chain(sol.iter()).collect();
            add(to_options(&all, &r.source)?, &r.source)?;
        }
    }
    merged.unique = (!manifest.mirror).then_some(n_rot);
    merged.unique_mirror = Some(n_mir);
    Ok(merged)
}
