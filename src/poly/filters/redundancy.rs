//! Rotational (and mirror) redundancy filter (Busche, "Rotational
//! Redundancy Constraint Violations"): keep, of one uniquely shaped piece,
//! one image per orbit of the box symmetries, so the search meets each
//! class of symmetric solutions once instead of once per symmetry.
//!
//! The symmetries come from the IR (`Problem::symmetries`, option
//! permutations). The filter group `H` is the box rotations, plus the
//! reflections when the problem has them (the piece set is closed under
//! reflection: Soma, pentominoes) and mirror filtering is asked for.
//!
//! Counting stays exact: a solution found with the constrained piece at
//! image `r` stands for `|H·r|` solutions of the fixed box (the orbit of
//! its class meets the fibre over `r` in `|class| / |H·r|` solutions), so
//! the fixed-box count is the sum of those orbit sizes. To let `--unique`
//! and plain enumeration see every class, [`Redundancy::expand`] maps a
//! found solution to the copies a caller must see.

use crate::ir::{Equivalence, OptionId, Problem};
use crate::poly::model::Images;

/// Which symmetries to break.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RedundancyMode {
    /// No filter.
    Off,
    /// Rotations of the box.
    Rotations {
        /// Constrain this piece (by name) instead of the automatic choice.
        piece: Option<String>,
    },
    /// Rotations and reflections (needs a piece set closed under
    /// reflection and a constrained piece that is its own mirror image).
    Mirror {
        /// Constrain this piece (by name) instead of the automatic choice.
        piece: Option<String>,
    },
    /// Mirror when possible, else rotations, else off.
    Auto,
}

impl RedundancyMode {
    /// Parses `off`, `auto`, `rot`, `mirror`, `rot:PIECE`, `mirror:PIECE`.
    pub fn parse(s: &str) -> Result<RedundancyMode, String> {
        let (kind, piece) = match s.split_once(':') {
            Some((k, p)) if !p.is_empty() => (k, Some(p.to_string())),
            Some(_) => return Err(format!("`{s}`: a piece name must follow `:`")),
            None => (s, None),
        };
        match (kind, piece) {
            ("off", None) => Ok(RedundancyMode::Off),
            ("auto", None) => Ok(RedundancyMode::Auto),
            ("rot", piece) => Ok(RedundancyMode::Rotations { piece }),
            ("mirror", piece) => Ok(RedundancyMode::Mirror { piece }),
            _ => Err(format!("`{s}`: expected off, auto, rot, mirror, rot:PIECE or mirror:PIECE")),
        }
    }
}

/// A constrained piece and what the search needs to count exactly.
///
/// Invariant: `orbit_maps` has one entry per IR option, non-empty exactly
/// for the `after` options kept for the constrained piece, each as long as
/// that option's orbit under `H` (so a solution's weight is read off it);
/// `imperfect` counts the kept options whose orbit is shorter than `H`
/// (`syms.len() + 1` symmetries).
#[derive(Clone, Debug)]
pub struct Redundancy {
    /// Constrained group (index into `Images::groups`).
    pub group: u16,
    /// Its name.
    pub piece: String,
    /// Whether reflections are broken too.
    pub mirror: bool,
    /// Symmetries of `H` (indices into `Problem::symmetries`), identity
    /// excluded.
    pub syms: Vec<usize>,
    /// For each IR option kept for the constrained piece: the symmetries
    /// (`usize::MAX` for the identity) mapping it to each member of its
    /// orbit, one per member. Other options: empty.
    orbit_maps: Vec<Vec<usize>>,
    /// Images of the constrained piece before and after the filter.
    pub before: usize,
    /// Images kept.
    pub after: usize,
    /// Kept images whose stabiliser is not trivial (some classes are then
    /// found more than once).
    pub imperfect: usize,
    /// The pieces constrained under kept images (and pairs) whose
    /// stabiliser is not trivial (see [`Nested`]); only those the search
    /// applies ([`Redundancy::keep_nested`]).
    pub nested: Vec<Nested>,
    /// Under mirror filtering: the reflection [`Redundancy::expand`] applies
    /// permutes the options exactly as some rotation does (a flat box:
    /// turning a layer over is a rotation in space), so every mirror image
    /// is a rotation of its solution and nothing is added under
    /// `Rotations`.
    mirror_is_rotation: bool,
}

/// The residual symmetry under one kept image `rep` of the constrained
/// piece: the symmetries of `H` that map `rep` onto itself (its
/// stabiliser `K`, not trivial) also map the subproblem "constrained piece
/// at `rep`" onto itself, so a second uniquely shaped piece is constrained
/// there the same way, to one image per `K`-orbit. Where a kept image `b`
/// of that second piece is itself fixed by part of `K` (its stabiliser
/// `K'` in `K`, not trivial), a third piece is constrained under the pair
/// `(rep, b)` to one image per `K'`-orbit. The search places
/// each such piece right after the images it is constrained under (the
/// DLX stage at that depth branches on its column with the other images
/// hidden), so each constraint holds in its subtree only.
///
/// Counting stays exact: a solution found with `rep` at depth 0, the
/// second piece at `b` and the third at `c` stands for `|H·rep| · |K·b| ·
/// |K'·c|` solutions of the fixed box ([`Redundancy::weight`]);
/// [`Redundancy::expand`] composes the orbit maps.
///
/// Invariant: `prefix` holds the options placed before this piece, in
/// order (the constrained piece's kept option, then the kept options of
/// the pieces constrained under it), and its stabiliser in `H` is not
/// trivial; `maps` holds exactly this piece's options kept under
/// `prefix`, each with the symmetries (`usize::MAX` for the identity) of
/// that stabiliser mapping it to each member of its orbit, one per member;
/// `dropped` holds the other members of those orbits, sorted.
#[derive(Clone, Debug)]
pub struct Nested {
    /// The options placed before this piece, in placement order.
    pub prefix: Vec<OptionId>,
    /// This piece's group (index into `Images::groups`).
    pub group: u16,
    /// Its name.
    pub piece: String,
    maps: std::collections::HashMap<OptionId, Vec<usize>>,
    /// This piece's options dropped under `prefix`, sorted.
    pub dropped: Vec<OptionId>,
}

/// The most options a [`Nested`] prefix holds: pieces are constrained at
/// depths 1 and 2 at most (a fourth level would need DLX deeper still,
/// and barely shrank the tree: docs/tried/poly.md, "Symmetry and the
/// constrained piece", a fourth level).
const NEST_DEPTH: usize = 2;

/// A second piece is constrained under a kept image only when its kept
/// images that fit there are at most this many times the fewest options
/// of any column. Without a bound a poorly constrained second piece takes
/// DLX's place at depth 1 from a better column: at 2 the solid
/// pentominoes in 3x4x5 search a smaller tree than both without the second
/// piece and with no bound, and Conway's 5x5x5 about the tree it searches
/// without the second piece, where no bound doubles it.
const NEST_RATIO: usize = 2;

/// For each kept option of `c` whose stabiliser in `syms` is not trivial,
/// the best second piece to constrain under it (fewest residual copies,
/// then fewest images that fit beside the kept option), if one drops an
/// image and passes [`NEST_RATIO`]; then the same under each kept pair
/// whose stabiliser is still not trivial, up to [`NEST_DEPTH`].
fn nest(problem: &Problem, images: &Images, group: u16, reps: &[OptionId], syms: &[usize]) -> Vec<Nested> {
    let Some(geo) = problem.geometry.as_ref() else { return Vec::new() };
    let cells = |o: OptionId| &geo.placements[o as usize].cells;
    let fixing = |among: &[usize], o: OptionId| -> Vec<usize> {
        among.iter().copied().filter(|&s| problem.symmetries[s].option_map[o as usize] == o).collect()
    };
    // (prefix, the groups it places, its stabiliser), first in, first out.
    let mut work: std::collections::VecDeque<(Vec<OptionId>, Vec<u16>, Vec<usize>)> =
        reps.iter().map(|&r| (vec![r], vec![group], fixing(syms, r))).filter(|(_, _, stab)| !stab.is_empty()).collect();
    let mut out = Vec::new();
    let by_group = options_by_group(images);
    let mut seen = vec![false; problem.n_options()];
    let mut taken = vec![false; geo.volume()];
    while let Some((prefix, used, stab)) = work.pop_front() {
        // The prefix's cells.
        taken.fill(false);
        for &p in &prefix {
            for &x in cells(p) {
                taken[x as usize] = true;
            }
        }
        let fits = |o: OptionId| !cells(o).iter().any(|&x| taken[x as usize]);
        let best = (0..images.groups.len() as u16)
            .filter(|&g| !used.contains(&g) && images.groups[g as usize].count == 1)
            .filter_map(|g| analyse(problem, &by_group[g as usize], &stab, g, &mut seen))
            .filter(|b| b.reps.len() < b.before)
            .min_by_key(|b| (b.extra, b.reps.iter().filter(|&&o| fits(o)).count(), b.group));
        let Some(b) = best else { continue };
        // Branching on this piece right after the prefix pays only when its
        // kept images are not many more than the fewest options of any
        // column there (what DLX's min-fit would branch on).
        let kept_fits = b.reps.iter().filter(|&&o| fits(o)).count();
        if kept_fits > NEST_RATIO * fewest_beside(problem, images, &used, &taken) {
            continue;
        }
        let mut maps = std::collections::HashMap::new();
        let mut dropped = Vec::new();
        for (&r, orbit) in b.reps.iter().zip(&b.orbits) {
            maps.insert(r, orbit.iter().map(|&(_, s)| s).collect());
            dropped.extend(orbit.iter().skip(1).map(|&(o, _)| o));
            let under = fixing(&stab, r);
            if prefix.len() < NEST_DEPTH && fits(r) && !under.is_empty() {
                let mut used = used.clone();
                used.push(b.group);
                work.push_back(([prefix.as_slice(), &[r]].concat(), used, under));
            }
        }
        dropped.sort_unstable();
        out.push(Nested { prefix, group: b.group, piece: images.groups[b.group as usize].name.clone(), maps, dropped });
    }
    out
}

/// The fewest options of any column (a free cell, or a piece of a group
/// not in `used`) once the cells `taken` (one flag per cell) are covered:
/// the branching DLX's min-fit would find beside them (before the per-step
/// filters).
fn fewest_beside(problem: &Problem, images: &Images, used: &[u16], taken: &[bool]) -> usize {
    let Some(geo) = problem.geometry.as_ref() else { return 0 };
    let mut per_cell = vec![0usize; geo.volume()];
    let mut per_group = vec![0usize; images.groups.len()];
    for k in 0..images.len() {
        let g = images.group[k];
        let cells = &geo.placements[images.option[k] as usize].cells;
        if used.contains(&g) || cells.iter().any(|&x| taken[x as usize]) {
            continue;
        }
        per_group[g as usize] += 1;
        for &x in cells {
            per_cell[x as usize] += 1;
        }
    }
    let cells = per_cell.iter().copied().filter(|&n| n > 0).min().unwrap_or(0);
    let groups =
        per_group.iter().enumerate().filter(|&(g, _)| !used.contains(&(g as u16))).map(|(_, &n)| n).min().unwrap_or(0);
    cells.min(groups)
}

struct Candidate {
    group: u16,
    reps: Vec<OptionId>,
    orbits: Vec<Vec<(OptionId, usize)>>,
    extra: usize,
    before: usize,
}

/// The options of each group's images, in image order.
fn options_by_group(images: &Images) -> Vec<Vec<OptionId>> {
    let mut by_group = vec![Vec::new(); images.groups.len()];
    for k in 0..images.len() {
        by_group[images.group[k] as usize].push(images.option[k]);
    }
    by_group
}

/// Group `g`'s orbits under `syms`, given `own`, its options in image
/// order; `None` when a symmetry maps one of them to another piece.
/// `seen` is scratch of one flag per option, all false, and is left so.
fn analyse(problem: &Problem, own: &[OptionId], syms: &[usize], g: u16, seen: &mut [bool]) -> Option<Candidate> {
    let geo = problem.geometry.as_ref()?;
    for &o in own {
        for &s in syms {
            let t = problem.symmetries[s].option_map[o as usize];
            if geo.placements[t as usize].piece != geo.placements[o as usize].piece {
                return None;
            }
        }
    }
    // Options already in an orbit: a flag per option, no hashing.
    let mut reps = Vec::new();
    let mut orbits = Vec::new();
    let mut extra = 0;
    for &o in own {
        if seen[o as usize] {
            continue;
        }
        let mut orbit: Vec<(OptionId, usize)> = Vec::with_capacity(syms.len() + 1);
        orbit.push((o, usize::MAX));
        for &s in syms {
            let t = problem.symmetries[s].option_map[o as usize];
            if !orbit.iter().any(|&(x, _)| x == t) {
                orbit.push((t, s));
            }
        }
        for &(x, _) in &orbit {
            seen[x as usize] = true;
        }
        extra += (syms.len() + 1) / orbit.len() - 1;
        reps.push(o);
        orbits.push(orbit);
    }
    // Exactly the flags set: the orbits' members.
    for orbit in &orbits {
        for &(x, _) in orbit {
            seen[x as usize] = false;
        }
    }
    Some(Candidate { group: g, reps, orbits, extra, before: own.len() })
}

/// Chooses the filter and says which images it keeps, one flag per image
/// (the set-up then moves the kept images out of the full set instead of
/// copying them), and the constraint; `(None, None)` when `mode` is `Off`
/// or (for `Auto`) no piece qualifies.
pub fn apply_flags(
    problem: &Problem,
    images: &Images,
    mode: &RedundancyMode,
) -> Result<(Option<Vec<bool>>, Option<Redundancy>), String> {
    let Some((c, mirror, syms)) = select(problem, images, mode)? else { return Ok((None, None)) };
    let mut orbit_maps = vec![Vec::new(); problem.n_options()];
    let mut imperfect = 0;
    for (rep, orbit) in c.reps.iter().zip(&c.orbits) {
        orbit_maps[*rep as usize] = orbit.iter().map(|&(_, s)| s).collect();
        if orbit.len() < syms.len() + 1 {
            imperfect += 1;
        }
    }
    let mut rep = vec![false; problem.n_options()];
    for &o in &c.reps {
        rep[o as usize] = true;
    }
    let keep = (0..images.len()).map(|k| images.group[k] != c.group || rep[images.option[k] as usize]).collect();
    let mirror_is_rotation = mirror
        && syms.iter().copied().find(|&s| problem.symmetries[s].reflection).is_some_and(|m| {
            let map = &problem.symmetries[m].option_map;
            problem.symmetries.iter().any(|s| !s.reflection && s.option_map == *map)
        });
    let red = Redundancy {
        nested: Vec::new(),
        group: c.group,
        piece: images.groups[c.group as usize].name.clone(),
        mirror,
        syms,
        orbit_maps,
        before: c.before,
        after: c.reps.len(),
        imperfect,
        mirror_is_rotation,
    };
    Ok((Some(keep), Some(red)))
}

/// What [`apply_flags`] would keep, without filtering: the constrained group and
/// the indices (into `images`) of its kept images, ascending (`None` when
/// `apply_flags` constrains no piece). The piece choice compares candidates by
/// their kept images alone.
pub fn kept(problem: &Problem, images: &Images, mode: &RedundancyMode) -> Result<Option<(u16, Vec<usize>)>, String> {
    let Some((c, _, _)) = select(problem, images, mode)? else { return Ok(None) };
    let keep: std::collections::HashSet<OptionId> = c.reps.iter().copied().collect();
    let ks = (0..images.len()).filter(|&k| images.group[k] == c.group && keep.contains(&images.option[k])).collect();
    Ok(Some((c.group, ks)))
}

/// The filter's choice: the candidate, whether reflections are broken, and
/// the symmetries of `H` (identity excluded).
fn select(
    problem: &Problem,
    images: &Images,
    mode: &RedundancyMode,
) -> Result<Option<(Candidate, bool, Vec<usize>)>, String> {
    // Symmetries as distinct, non-trivial option permutations (a flat box
    // turned over through its own plane maps every placement to itself).
    let mut distinct: Vec<usize> = Vec::new();
    for (k, s) in problem.symmetries.iter().enumerate() {
        let trivial = s.option_map.iter().enumerate().all(|(o, &t)| o as OptionId == t);
        if !trivial && !distinct.iter().any(|&d| problem.symmetries[d].option_map == s.option_map) {
            distinct.push(k);
        }
    }
    let rotations: Vec<usize> = distinct.iter().copied().filter(|&s| !problem.symmetries[s].reflection).collect();
    let all: Vec<usize> = distinct;
    let has_mirrors = all.len() > rotations.len();
    let attempts: Vec<(bool, Option<&String>)> = match mode {
        RedundancyMode::Off => return Ok(None),
        RedundancyMode::Auto => vec![(true, None), (false, None)],
        RedundancyMode::Rotations { piece } => vec![(false, piece.as_ref())],
        RedundancyMode::Mirror { piece } => {
            if !has_mirrors {
                return Err("mirror redundancy needs a piece set closed under reflection and a box with mirror symmetry; this puzzle has neither (use rot)".into());
            }
            vec![(true, piece.as_ref())]
        }
    };
    if all.is_empty() {
        return match mode {
            RedundancyMode::Auto => Ok(None),
            _ => Err("the box has no symmetry to break (no rotation maps the puzzle onto itself)".into()),
        };
    }
    let by_group = options_by_group(images);
    for (mirror, named) in attempts {
        if mirror && !has_mirrors {
            continue;
        }
        let syms = if mirror { &all } else { &rotations };
        if syms.is_empty() {
            continue;
        }
        let groups: Vec<u16> = match named {
            Some(name) => {
                let g = images
                    .groups
                    .iter()
                    .position(|gr| gr.names.iter().any(|n| n == name))
                    .ok_or_else(|| format!("no mobile piece is named `{name}`"))?;
                if images.groups[g].count > 1 {
                    return Err(format!(
                        "piece `{name}` has identical copies; the filter needs a uniquely shaped piece"
                    ));
                }
                vec![g as u16]
            }
            None => (0..images.groups.len() as u16).filter(|&g| images.groups[g as usize].count == 1).collect(),
        };
        let mut seen = vec![false; problem.n_options()];
        let best = groups
            .iter()
            .filter_map(|&g| analyse(problem, &by_group[g as usize], syms, g, &mut seen))
            .min_by_key(|c| (c.extra, c.reps.len(), c.group));
        let Some(c) = best else {
            let what = if mirror { "rotation and reflection" } else { "rotation" };
            match (named, mode) {
                (Some(name), _) => {
                    return Err(format!("piece `{name}` is not mapped onto itself by every {what} of the box"))
                }
                (None, RedundancyMode::Auto) => continue,
                (None, _) => {
                    return Err(format!(
                        "no uniquely shaped piece is mapped onto itself by every {what} of the box, so none can be constrained"
                    ))
                }
            }
        };
        return Ok(Some((c, mirror, syms.clone())));
    }
    Ok(None)
}

impl Redundancy {
    /// The number of fixed-box solutions a found solution stands for;
    /// `options` in the order they were placed (a second piece was
    /// constrained only under a kept image placed first: [`Nested`]).
    pub fn weight(&self, options: &[OptionId]) -> u64 {
        let first = options.iter().map(|&o| self.orbit_maps[o as usize].len() as u64).sum::<u64>().max(1);
        let (chain, n) = self.chain(options);
        first * chain[..n].iter().map(|m| m.len() as u64).product::<u64>()
    }

    /// The orbit maps of the pieces constrained under a solution's first
    /// options ([`Nested`]), in placement order, and how many. `options`
    /// must be in placement order: the search applies a constraint only
    /// when its prefix was placed first, and then places its piece right
    /// after (a solution whose constrained option came later was searched
    /// without it).
    fn chain(&self, options: &[OptionId]) -> ([&[usize]; NEST_DEPTH], usize) {
        let mut chain: [&[usize]; NEST_DEPTH] = [&[]; NEST_DEPTH];
        let mut n = 0;
        while n < NEST_DEPTH && n + 1 < options.len() {
            let Some(nest) = self.nested.iter().find(|x| x.prefix[..] == options[..n + 1]) else { break };
            let Some(maps) = nest.maps.get(&options[n + 1]) else { break };
            chain[n] = maps;
            n += 1;
        }
        (chain, n)
    }

    /// Constrains second pieces under the kept images whose stabiliser is
    /// not trivial, and third pieces under the kept pairs whose stabiliser
    /// still is not ([`Nested`]); `images`: those the filter ran on. Only
    /// for a search whose DLX stages place them (`PolyEngine` keeps those
    /// its schedule can place).
    pub fn constrain_second_pieces(&mut self, problem: &Problem, images: &Images) {
        let order = self.syms.len() + 1;
        let reps: Vec<OptionId> = (0..self.orbit_maps.len())
            .filter(|&o| (1..order).contains(&self.orbit_maps[o].len()))
            .map(|o| o as OptionId)
            .collect();
        self.nested = nest(problem, images, self.group, &reps, &self.syms);
    }

    /// Keeps the constrained pieces ([`Nested`]) that `keep` accepts.
    pub fn keep_nested(&mut self, keep: impl Fn(&Nested) -> bool) {
        self.nested.retain(|n| keep(n));
    }

    /// The solutions a caller counting under `equivalence` must see for
    /// one found solution: every symmetric copy for `None` (one per member
    /// of the constrained image's orbit, so no copy is produced twice),
    /// the solution and one mirror image when only rotations are
    /// identified but reflections were broken, else the solution alone.
    /// They are written to `out[..n]`, reusing its vectors (no allocation
    /// per solution once they have grown); returns `n`.
    pub fn expand(
        &self,
        problem: &Problem,
        options: &[OptionId],
        equivalence: Equivalence,
        out: &mut Vec<Vec<OptionId>>,
    ) -> usize {
        // Writes the image of the solution under the symmetries `seq`, the
        // last applied first (`usize::MAX`: the identity), to `out[at]`.
        let put_seq = |out: &mut Vec<Vec<OptionId>>, at: usize, seq: &[usize]| {
            if out.len() <= at {
                out.resize_with(at + 1, Vec::new);
            }
            let v = &mut out[at];
            v.clear();
            let map =
                |s: usize, o: OptionId| if s == usize::MAX { o } else { problem.symmetries[s].option_map[o as usize] };
            v.extend(options.iter().map(|&o| seq.iter().rev().fold(o, |o, &s| map(s, o))));
        };
        let put = |out: &mut Vec<Vec<OptionId>>, at: usize, s: usize| put_seq(out, at, &[s]);
        match equivalence {
            Equivalence::None => {
                let maps = options.iter().map(|&o| &self.orbit_maps[o as usize]).find(|m| !m.is_empty());
                match maps {
                    Some(maps) => {
                        // Every combination of one map per level.
                        let (chain, n) = self.chain(options);
                        let mut levels = [&maps[..]; NEST_DEPTH + 1];
                        levels[1..=n].copy_from_slice(&chain[..n]);
                        let levels = &levels[..=n];
                        let mut pick = [0usize; NEST_DEPTH + 1];
                        let mut seq = [usize::MAX; NEST_DEPTH + 1];
                        let mut at = 0;
                        loop {
                            for (k, (l, &i)) in levels.iter().zip(&pick).enumerate() {
                                seq[k] = l[i];
                            }
                            put_seq(out, at, &seq[..levels.len()]);
                            at += 1;
                            // The next combination, the last level fastest.
                            let mut k = levels.len();
                            loop {
                                if k == 0 {
                                    return at;
                                }
                                k -= 1;
                                pick[k] += 1;
                                if pick[k] < levels[k].len() {
                                    break;
                                }
                                pick[k] = 0;
                            }
                        }
                    }
                    None => {
                        put(out, 0, usize::MAX);
                        1
                    }
                }
            }
            Equivalence::Rotations if self.mirror && !self.mirror_is_rotation => {
                put(out, 0, usize::MAX);
                let reflection = self.syms.iter().copied().find(|&s| problem.symmetries[s].reflection);
                let Some(m) = reflection else { return 1 };
                put(out, 1, m);
                let image = &out[1];
                // The mirror image is a new solution up to rotation
                // unless the identity or a rotation maps the solution
                // onto it (same set: the image has as many distinct
                // options, so inclusion is equality).
                let same = |map: &dyn Fn(OptionId) -> OptionId| options.iter().all(|&o| image.contains(&map(o)));
                let rotated = same(&|o| o)
                    || problem.symmetries.iter().filter(|s| !s.reflection).any(|s| same(&|o| s.option_map[o as usize]));
                if rotated {
                    1
                } else {
                    2
                }
            }
            _ => {
                put(out, 0, usize::MAX);
                1
            }
        }
    }

    /// Size of the filter group `H` (identity included).
    pub fn group_order(&self) -> usize {
        self.syms.len() + 1
    }
}
