//! The constrained piece of the automatic redundancy filter, chosen by
//! measurement: [`PolyEngine::new`] compares Knuth estimates of the trees
//! the uniquely shaped pieces give.

use crate::ir::Problem;
use crate::poly::filters::redundancy::{self, RedundancyMode};
use crate::poly::plan::{auto, schedule};
use crate::poly::run::sample::Probes;
use crate::poly::{PolyConfig, PolyEngine, RootedProber};
use crate::search::pool::fold_tasks;
use std::cmp::Ordering;

/// A piece of the piece choice's work for one worker: probes of a rooted
/// candidate on the engine without the filter, the screening of a
/// candidate with its own engine (its position, number and probes), or a
/// finalist's last probes.
enum Job<'j, 'e> {
    Rooted(&'j mut (Probes, Vec<u32>)),
    Built(usize, usize, Probes),
    Finish(&'j mut Candidate<'e>),
}

/// A constrained piece the piece choice compares.
struct Candidate<'e> {
    /// 0: the static choice; `i > 0`: the `i`-th other piece.
    i: usize,
    probes: Probes,
    /// The kept images the probes start from on the engine without the
    /// filter, or `None`: the probes run on `engine`.
    roots: Option<Vec<u32>>,
    /// The candidate's own engine while it may be a finalist.
    engine: Option<PolyEngine<'e>>,
}

/// Probes of the Knuth estimate that compares constrained pieces: every
/// candidate gets [`PIECE_SCREEN_PROBES`], the [`PIECE_FINALISTS`] with the
/// smallest estimates then more, up to [`PIECE_PROBES`] (their screening
/// probes extended: a finalist's estimate is the one a single round of
/// [`PIECE_PROBES`] gives).
const PIECE_PROBES: u64 = 3000;
const PIECE_SCREEN_PROBES: u64 = 1000;
const PIECE_FINALISTS: usize = 4;

/// Below this estimated tree size the automatic piece is kept as is (the
/// comparison would cost more than it saves).
const PIECE_MIN_NODES: f64 = 1e6;

impl<'a> PolyEngine<'a> {
    /// Prepares the engine for a polycube problem.
    ///
    /// With the automatic redundancy filter on a 3-D puzzle, the
    /// constrained piece is chosen by measurement: the static choice
    /// (fewest images) can be far from the best (on the Tetris Cube under
    /// rotations, L gives less than half the tree of G, the static choice;
    /// on the solid pentominoes in 2x5x6 under rotations and reflections,
    /// X one several times smaller than V; docs/tried/poly.md, "Symmetry
    /// and the constrained piece"), so every uniquely shaped piece that
    /// qualifies (under the same symmetries) is tried with a Knuth estimate
    /// (fixed seed, so the choice is reproducible: [`PIECE_SCREEN_PROBES`]
    /// probes for every candidate, [`PIECE_PROBES`] for the best few) and
    /// the one with the smallest estimated tree is kept. Counts do not
    /// depend on the piece.
    pub fn new(problem: &'a Problem, config: &PolyConfig) -> Result<PolyEngine<'a>, String> {
        let prepared = Self::prepare(problem, config)?;
        let choose = matches!(config.redundancy, None | Some(RedundancyMode::Auto)) && !auto::is_flat(&prepared.images);
        let Some(chosen) = prepared.redundancy.as_ref().filter(|_| choose) else {
            return Self::finish(problem, config, prepared);
        };
        let (chosen_piece, mirror) = (chosen.piece.clone(), chosen.mirror);
        let build_named = |name: &String, config: &PolyConfig| {
            let piece = Some(name.clone());
            let redundancy =
                if mirror { RedundancyMode::Mirror { piece } } else { RedundancyMode::Rotations { piece } };
            Self::build(problem, &PolyConfig { redundancy: Some(redundancy), ..config.clone() })
        };
        let plain = auto::estimate_config(config, &prepared.plan.schedule, prepared.images.n_pieces());
        if let Some(choice) = Self::choose_by_roots(problem, config, plain.as_ref().unwrap_or(config), mirror) {
            return match choice {
                None => Self::finish(problem, config, prepared),
                Some(name) => build_named(&name, config).map_err(|e| format!("the chosen piece no longer builds: {e}")),
            };
        }
        let engine = Self::finish(problem, config, prepared)?;
        // The estimates run plain EMCH; a widened winner is built again.
        let (wide, engine, plain) =
            match auto::estimate_config(config, &engine.plan.schedule, engine.images().n_pieces()) {
                Some(plain) => (Some(engine), Self::build(problem, &plain)?, plain),
                None => (None, engine, config.clone()),
            };
        let screen = |e: &PolyEngine<'_>| {
            let mut probes = Probes::new(1);
            e.runner.probe(&mut probes, PIECE_SCREEN_PROBES);
            probes
        };
        let probes = screen(&engine);
        let size = probes.nodes();
        if size < PIECE_MIN_NODES {
            // The static choice stays, with `auto`'s own schedule.
            return Ok(wide.unwrap_or(engine));
        }
        // Candidate 0 is the static choice, candidate `i > 0` constrains
        // piece `names[i - 1]`.
        let names: Vec<String> = engine
            .images()
            .groups
            .iter()
            .filter(|g| g.count == 1 && g.name != chosen_piece)
            .map(|g| g.names[0].clone())
            .collect();
        let build_with = |name: &String, config: &PolyConfig| {
            let piece = Some(name.clone());
            let redundancy =
                if mirror { RedundancyMode::Mirror { piece } } else { RedundancyMode::Rotations { piece } };
            let cfg = PolyConfig { redundancy: Some(redundancy), ..config.clone() };
            Self::build(problem, &cfg).ok()
        };
        let build = |name: &String| build_with(name, &plain);
        // Every other candidate is screened (on `threads` threads when
        // asked), keeping the engines of the best few; `(estimate,
        // candidate)` orders them, so ties go to the earlier candidate and
        // the choice does not depend on the threads. A candidate keeps its
        // probes, and the final round extends them.
        type Ranked<'e> = Vec<(f64, usize, PolyEngine<'e>, Probes)>;
        fn keep_best(mut v: Ranked<'_>) -> Ranked<'_> {
            v.sort_by(|a, b| (a.0, a.1).partial_cmp(&(b.0, b.1)).unwrap_or(std::cmp::Ordering::Equal));
            v.truncate(PIECE_FINALISTS);
            v
        }
        let screen_one = |i: usize| -> Option<(f64, usize, PolyEngine<'a>, Probes)> {
            let e = build(&names[i - 1])?;
            let probes = screen(&e);
            Some((probes.nodes(), i, e, probes))
        };
        let threads = config.threads.max(1);
        let mut finalists: Ranked<'a> = vec![(size, 0, engine, probes)];
        let found = fold_tasks(
            threads,
            (1..=names.len()).collect(),
            Vec::new,
            |v: &mut Ranked<'a>, i| {
                if let Some(x) = screen_one(i) {
                    v.push(x);
                    *v = keep_best(std::mem::take(v));
                }
            },
            |v| v,
        );
        finalists.extend(found.into_iter().flatten());
        let finalists = keep_best(finalists);
        // The finalists with every probe (their screening probes are the
        // first ones).
        let estimate_full = |(_, i, e, mut probes): (f64, usize, PolyEngine<'a>, Probes)| {
            e.runner.probe(&mut probes, PIECE_PROBES);
            (probes.nodes(), i, e, probes)
        };
        let ranked: Ranked<'a> = fold_tasks(threads, finalists, Vec::new, |v, f| v.push(estimate_full(f)), |v| v)
            .into_iter()
            .flatten()
            .collect();
        let best = keep_best(ranked).into_iter().next().expect("the static choice is a candidate");
        match (wide, best.1) {
            (None, _) => Ok(best.2),
            (Some(engine), 0) => Ok(engine),
            (Some(_), i) => build_with(&names[i - 1], config).ok_or_else(|| "the chosen piece no longer builds".into()),
        }
    }

    /// The piece choice of [`PolyEngine::new`] on one engine: every
    /// candidate's tree is probed as the tree below its kept images on an
    /// engine without the redundancy filter ([`Probes::extend_rooted`]),
    /// so the estimates, and the choice, are those of an engine per
    /// candidate, without building one (the Tetris Cube: 12 candidate
    /// engines, each with its cover index, DLX matrix and tables). `plain`
    /// is the configuration the estimates run under. Returns `None` when
    /// the shortcut does not apply (another heuristic at the root,
    /// one-shot or per-step filters, or some candidate whose
    /// root DLX would not branch on its piece: the caller then builds the
    /// candidates), `Some(None)` to keep the static choice, `Some(Some(name))`
    /// to constrain piece `name` instead.
    fn choose_by_roots(
        problem: &'a Problem,
        config: &PolyConfig,
        plain: &PolyConfig,
        mirror: bool,
    ) -> Option<Option<String>> {
        let full_cfg = PolyConfig { redundancy: Some(RedundancyMode::Off), force_first: Some(false), ..plain.clone() };
        let full = Self::build(problem, &full_cfg).ok()?;
        let (images, plan) = (full.images(), &full.plan);
        let n = images.n_pieces();
        let first_placed = config.force_first == Some(true);
        let root_ok = match plan.schedule.stage_for(n) {
            schedule::Stage::Dlx(h) => first_placed || *h == crate::dlx::Heuristic::MinFit,
            _ => false,
        };
        let filters = plan.parity_filter.is_some() || plan.volume_filter.is_some();
        if !root_ok || filters || full.counts.after_fit != full.counts.images {
            return None;
        }
        // DLX's min-fit at the root of a candidate's engine (items: the
        // cells, then the groups; the first with the fewest branches,
        // `len + 1 - bound`).
        let mut cell_len = vec![0i64; images.n_cells];
        for cs in &images.cells {
            for &c in cs {
                cell_len[c as usize] += 1;
            }
        }
        let group_len = images.images_per_group();
        let branches_on = |g: u16, kept: &[usize]| -> bool {
            if first_placed {
                return true;
            }
            let mut len = cell_len.clone();
            let mut next = kept.iter().peekable();
            for k in (0..images.len()).filter(|&k| images.group[k] == g) {
                if next.peek() == Some(&&k) {
                    next.next();
                } else {
                    for &c in &images.cells[k] {
                        len[c as usize] -= 1;
                    }
                }
            }
            let thetas = len.into_iter().map(|l| (l, None)).chain(images.groups.iter().enumerate().map(|(h, gr)| {
                let l = if h == g as usize { kept.len() } else { group_len[h] };
                (l as i64 + 1 - gr.count as i64, Some(h))
            }));
            let mut best = (i64::MAX, None);
            for (theta, item) in thetas {
                if theta < best.0 {
                    best = (theta, item);
                    if theta <= 0 {
                        break;
                    }
                }
            }
            best.1 == Some(g as usize)
        };
        // Candidate 0 is the static choice, candidate `i > 0` constrains
        // piece `names[i - 1]` (a piece the filter cannot constrain is no
        // candidate).
        let chosen = redundancy::kept(problem, images, &RedundancyMode::Auto).ok()??;
        let names: Vec<String> = images
            .groups
            .iter()
            .enumerate()
            .filter(|&(g, gr)| gr.count == 1 && g != chosen.0 as usize)
            .map(|(_, gr)| gr.names[0].clone())
            .collect();
        // A candidate whose root DLX would branch elsewhere (a cell with
        // fewer images than the piece keeps) is probed on an engine built
        // for it.
        let candidate = |i: usize, (g, kept): (u16, Vec<usize>)| {
            let roots = branches_on(g, &kept).then(|| kept.iter().map(|&k| k as u32).collect());
            Candidate { i, probes: Probes::new(1), roots, engine: None }
        };
        let mut cands: Vec<Candidate<'a>> = vec![candidate(0, chosen)];
        let build = |i: usize| {
            let redundancy = match i {
                0 => plain.redundancy.clone(),
                _ => {
                    let piece = Some(names[i - 1].clone());
                    Some(if mirror { RedundancyMode::Mirror { piece } } else { RedundancyMode::Rotations { piece } })
                }
            };
            Self::build(problem, &PolyConfig { redundancy, ..plain.clone() }).ok()
        };
        let threads = config.threads.max(1);
        // The rooted candidates' probes and roots, taken out of `cands`
        // (their positions first), and put back.
        type RootedJobs = (Vec<usize>, Vec<(Probes, Vec<u32>)>);
        fn take_rooted(cands: &mut [Candidate<'_>]) -> RootedJobs {
            let rooted: Vec<usize> = (0..cands.len()).filter(|&k| cands[k].roots.is_some()).collect();
            let jobs = rooted
                .iter()
                .map(|&k| {
                    let c = &mut cands[k];
                    (std::mem::replace(&mut c.probes, Probes::new(1)), c.roots.take().expect("rooted"))
                })
                .collect();
            (rooted, jobs)
        }
        fn put_rooted(cands: &mut [Candidate<'_>], (rooted, jobs): RootedJobs) {
            for (k, (probes, roots)) in rooted.into_iter().zip(jobs) {
                (cands[k].probes, cands[k].roots) = (probes, Some(roots));
            }
        }
        // The rooted candidates of `cands`, probed together on `full` up
        // to `total` probes, on the calling thread.
        let probe_rooted = |cands: &mut [Candidate<'a>], total: u64| {
            let mut jobs = take_rooted(cands);
            super::probe_rooted(&*full.runner, &mut jobs.1, total, 1);
            put_rooted(cands, jobs);
        };
        // Candidates in the order of their keys `(estimate, candidate)`.
        let by_estimate = |a: &Candidate<'_>, b: &Candidate<'_>| {
            (a.probes.nodes(), a.i).partial_cmp(&(b.probes.nodes(), b.i)).unwrap_or(std::cmp::Ordering::Equal)
        };
        // Drops the engines among `cands[..upto]` of the candidates with
        // PIECE_FINALISTS screened ones before them.
        let drop_losers = |cands: &mut [Candidate<'a>], upto: usize| {
            let better =
                |c: &Candidate<'_>| cands.iter().filter(|d| !d.probes.is_empty() && by_estimate(d, c).is_lt()).count();
            let out: Vec<usize> = (0..upto).filter(|&j| better(&cands[j]) >= PIECE_FINALISTS).collect();
            for j in out {
                cands[j].engine = None;
            }
        };
        // A candidate's own engine and its screening probes.
        let screen_built = |i: usize, mut probes: Probes| {
            let e = build(i)?;
            e.runner.probe(&mut probes, PIECE_SCREEN_PROBES);
            Some((probes, e))
        };
        let screen = |cands: &mut [Candidate<'a>]| {
            let built: Vec<usize> = (0..cands.len()).filter(|&k| cands[k].roots.is_none()).collect();
            if threads > 1 {
                // All at once, each on one thread (the builds cost about as
                // much as the probes where the cover indexes are large, as
                // on the 3x4x5): the same
                // probes, so the same finalists, as one at a time.
                // An engine is dropped as soon as the candidates screened
                // on all threads hold PIECE_FINALISTS better ones, so that
                // the heap reuses its memory (each 2 MB the heap grows by
                // is a huge-page fault).
                type Screened<'e> = Vec<(usize, usize, Probes, Option<PolyEngine<'e>>)>;
                // The keys `(estimate, candidate)` of the best screened so
                // far, ascending, at most PIECE_FINALISTS.
                let best: std::sync::Mutex<Vec<(f64, usize)>> = std::sync::Mutex::new(Vec::new());
                let keep_engines = |mut v: Screened<'a>| -> Screened<'a> {
                    let cut = {
                        let mut best = best.lock().expect("no poisoning");
                        for x in &v {
                            let key = (x.2.nodes(), x.1);
                            if x.3.is_some() && !best.contains(&key) {
                                best.push(key);
                            }
                        }
                        best.sort_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal));
                        best.truncate(PIECE_FINALISTS);
                        (best.len() == PIECE_FINALISTS).then(|| best[PIECE_FINALISTS - 1])
                    };
                    if let Some(cut) = cut {
                        for x in &mut v {
                            if (x.2.nodes(), x.1).partial_cmp(&cut) == Some(Ordering::Greater) {
                                x.3 = None;
                            }
                        }
                    }
                    v
                };
                // The rooted ones probe on `full` alongside, on the same
                // workers.
                let mut rooted = take_rooted(cands);
                let jobs: Vec<Job<'_, 'a>> =
                    rooted
                        .1
                        .iter_mut()
                        .map(Job::Rooted)
                        .chain(built.iter().map(|&k| {
                            Job::Built(k, cands[k].i, std::mem::replace(&mut cands[k].probes, Probes::new(1)))
                        }))
                        .collect();
                let done = fold_tasks(
                    threads,
                    jobs,
                    || (None, Vec::new()),
                    |(prober, v): &mut (Option<Box<dyn RootedProber + '_>>, Screened<'a>), job| match job {
                        Job::Rooted((probes, roots)) => prober
                            .get_or_insert_with(|| full.runner.rooted_prober())
                            .probe(probes, roots, PIECE_SCREEN_PROBES),
                        Job::Built(k, i, probes) => {
                            if let Some((probes, e)) = screen_built(i, probes) {
                                v.push((k, i, probes, Some(e)));
                            }
                            *v = keep_engines(std::mem::take(v));
                        }
                        Job::Finish(_) => unreachable!("only screening jobs here"),
                    },
                    |(_, v)| v,
                );
                put_rooted(cands, rooted);
                for (k, _, probes, e) in done.into_iter().flatten() {
                    (cands[k].probes, cands[k].engine) = (probes, e);
                }
                drop_losers(cands, cands.len());
                return;
            }
            // One at a time, keeping only the engines of the best few.
            probe_rooted(cands, PIECE_SCREEN_PROBES);
            for k in built {
                let probes = std::mem::replace(&mut cands[k].probes, Probes::new(1));
                let Some((probes, e)) = screen_built(cands[k].i, probes) else { continue };
                (cands[k].probes, cands[k].engine) = (probes, Some(e));
                drop_losers(cands, k + 1);
            }
        };
        screen(&mut cands[..1]);
        if cands[0].probes.is_empty() || cands[0].probes.nodes() < PIECE_MIN_NODES {
            return Some(None);
        }
        // The other candidates' filters only now: on a small puzzle (the
        // Soma cube) they cost more than its search.
        for (i, name) in names.iter().enumerate() {
            let piece = Some(name.clone());
            let mode = if mirror { RedundancyMode::Mirror { piece } } else { RedundancyMode::Rotations { piece } };
            if let Some(found) = redundancy::kept(problem, images, &mode).ok().flatten() {
                cands.push(candidate(i + 1, found));
            }
        }
        screen(&mut cands[1..]);
        // The best few by `(estimate, candidate)` get every probe (ties go
        // to the earlier candidate); a candidate not screened (its engine
        // did not build) is none.
        cands.retain(|c| !c.probes.is_empty());
        cands.sort_by(by_estimate);
        cands.truncate(PIECE_FINALISTS);
        let finish = |c: &mut Candidate<'a>| {
            if let Some(e) = &c.engine {
                e.runner.probe(&mut c.probes, PIECE_PROBES);
            }
        };
        if threads > 1 {
            // The rooted finalists on `full` alongside the others' engines.
            let mut rooted = take_rooted(&mut cands);
            let jobs: Vec<Job<'_, 'a>> =
                rooted.1.iter_mut().map(Job::Rooted).chain(cands.iter_mut().map(Job::Finish)).collect();
            fold_tasks(
                threads,
                jobs,
                || None,
                |prober: &mut Option<Box<dyn RootedProber + '_>>, job| match job {
                    Job::Rooted((probes, roots)) => {
                        prober.get_or_insert_with(|| full.runner.rooted_prober()).probe(probes, roots, PIECE_PROBES)
                    }
                    Job::Finish(c) => finish(c),
                    Job::Built(..) => unreachable!("only finishing jobs here"),
                },
                drop,
            );
            put_rooted(&mut cands, rooted);
        } else {
            probe_rooted(&mut cands, PIECE_PROBES);
            cands.iter_mut().for_each(finish);
        }
        cands.sort_by(by_estimate);
        match cands[0].i {
            0 => Some(None),
            i => Some(Some(names[i - 1].clone())),
        }
    }
}
