//! The polycube engines (Busche, "Solving Polyomino and Polycube Puzzles"):
//! bit-field occupancy, de Bruijn, MCH and EMCH, switched with DLX (and its
//! ordering heuristics) by remaining-piece thresholds; parity and volume
//! backtrack triggers; image filters (bounds, rotational and mirror
//! redundancy, parity, volume, fit); Monte-Carlo sampling and Knuth's
//! estimator; parallel search and split/merge of a search into files.
//!
//! [`PolyEngine`] implements [`Engine`]: it reads the IR problem the
//! polycube front-end builds (images are options, groups of identical
//! pieces are items with multiplicities) and reports solutions as IR option
//! ids, so the shared solve loop verifies each one.
//!
//! Module map:
//!
//! * [`model`]: the puzzle as the engines see it, read from the IR: the
//!   images, occupancy sets (`model::bits`), per-cell image tables
//!   (`model::tables`), empty-neighbour counts, piece multisets, the image
//!   matrix of the DLX stages;
//! * [`filters`]: the one-shot image filters, the parity and volume
//!   constraint tables the backtrack triggers read too, and the redundancy
//!   filter (`filters::redundancy`);
//! * [`plan`]: what a search runs: the `--schedule` grammar, `auto`'s
//!   choices, the configuration, and the compiled schedule holding each
//!   stage's index (`plan::stages`);
//! * [`walk`]: the walker every stage places pieces on, the walk modes, the
//!   choice of the stage at each node;
//! * [`stages`]: the stages, one folder each: `dlx` (dancing links with an
//!   ordering heuristic), `bdlx` (min-fit on bit fields), `debruijn` (with
//!   its root index, lean loop and dead-state cache), `hole` (MCH and
//!   EMCH: the cover index, the hole kernel, the set search at the bottom);
//! * [`run`]: runs besides one full walk: threads, sampling and probes,
//!   the estimate, split and merge;
//! * `choice`: the constrained piece of the redundancy filter, chosen by
//!   Knuth estimates.

mod choice;
pub mod filters;
pub mod model;
pub mod plan;
pub mod run;
pub mod stages;
pub mod walk;

use crate::ir::{Equivalence, OptionId, Problem};
use crate::search::EstimateSpec;
use crate::search::{Engine, Flow, Limits, Reporter, SearchStats};
use filters::redundancy::{self, Redundancy, RedundancyMode};
use model::bits::{Bits, Wide};
use model::{CellOrder, Images};
use plan::auto;
pub use plan::config::{FitFilter, Plan, PolyConfig, Threshold};
use plan::schedule::{Schedule, ScheduleSpec};
use run::estimate::{self, EstimateRun};
use run::parallel::{self, Outcome};
use run::sample::{self, Probes, SampleReport, SampleSpec};
use std::time::{Duration, Instant};
use walk::{Knobs, Shared, Task};

trait Runner: Send + Sync {
    fn images(&self) -> &Images;
    fn search(&self, limits: &Limits, threads: usize, visit: &mut dyn FnMut(&[u32]) -> Flow) -> Outcome;
    fn sample(
        &self,
        spec: SampleSpec,
        limits: &Limits,
        threads: usize,
        visit: &mut dyn FnMut(&[u32]) -> Flow,
    ) -> SampleReport;
    fn estimate(&self, spec: EstimateSpec, limits: &Limits, threads: usize, window: Duration) -> EstimateRun;
    fn probe(&self, probes: &mut Probes, total: u64);
    /// A walker for [`Probes::extend_rooted`] (its memo of the shallow
    /// states' candidates serves every candidate piece it probes).
    fn rooted_prober(&self) -> Box<dyn RootedProber + '_>;
    fn tasks(&self, depth: usize, limits: &Limits, visit: &mut dyn FnMut(&[u32]) -> Flow) -> (Vec<Task>, Outcome);
}

/// Probes below given root images, on one walker ([`Runner::rooted_prober`]).
trait RootedProber: Send {
    /// [`Probes::extend_rooted`] on this prober's walker.
    fn probe(&mut self, probes: &mut Probes, roots: &[u32], total: u64);
}

impl<B: Bits> RootedProber for walk::Walker<'_, B> {
    fn probe(&mut self, probes: &mut Probes, roots: &[u32], total: u64) {
        probes.extend_rooted(self, roots, total)
    }
}

/// The rooted `jobs` probed up to `total` probes on `threads` threads, a
/// walker per thread: the same probes as on one thread (each job's draws
/// depend only on its own generator).
fn probe_rooted(runner: &dyn Runner, jobs: &mut [(Probes, Vec<u32>)], total: u64, threads: usize) {
    crate::search::pool::fold_tasks(
        threads,
        jobs.iter_mut().collect(),
        || None,
        |prober: &mut Option<Box<dyn RootedProber + '_>>, (probes, roots): &mut (Probes, Vec<u32>)| {
            prober.get_or_insert_with(|| runner.rooted_prober()).probe(probes, roots, total)
        },
        drop,
    );
}

impl<B: Bits> Runner for Shared<B> {
    fn images(&self) -> &Images {
        &self.images
    }
    fn search(&self, limits: &Limits, threads: usize, visit: &mut dyn FnMut(&[u32]) -> Flow) -> Outcome {
        if threads > 1 {
            parallel::parallel(self, threads, limits, visit)
        } else {
            parallel::sequential(self, limits, visit)
        }
    }
    fn sample(
        &self,
        spec: SampleSpec,
        limits: &Limits,
        threads: usize,
        visit: &mut dyn FnMut(&[u32]) -> Flow,
    ) -> SampleReport {
        sample::sample(self, spec, limits, threads, visit)
    }
    fn estimate(&self, spec: EstimateSpec, limits: &Limits, threads: usize, window: Duration) -> EstimateRun {
        estimate::estimate(self, spec, limits, threads, window)
    }
    fn probe(&self, probes: &mut Probes, total: u64) {
        probes.extend_to(self, total)
    }
    fn rooted_prober(&self) -> Box<dyn RootedProber + '_> {
        static NO_LIMITS: Limits = Limits {
            max_solutions: None,
            max_nodes: None,
            deadline: None,
            cpu_budget: None,
            cancel: None,
            progress: None,
        };
        Box::new(self.walker(&NO_LIMITS, walk::Walk::All))
    }
    fn tasks(&self, depth: usize, limits: &Limits, visit: &mut dyn FnMut(&[u32]) -> Flow) -> (Vec<Task>, Outcome) {
        parallel::collect(self, depth, true, limits, visit)
    }
}

/// Image counts through the one-shot filters, for reports.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FilterCounts {
    /// Images of the puzzle (bounds filter applied by the front-end).
    pub images: usize,
    /// After the redundancy filter.
    pub after_redundancy: usize,
    /// After the parity filter.
    pub after_parity: usize,
    /// After the volume filter.
    pub after_volume: usize,
    /// After the fit filter.
    pub after_fit: usize,
}

/// An engine before its search tables: the images searched (after the
/// filters), the constrained piece, the plan and the filters' counts.
struct Prepared {
    images: Images,
    redundancy: Option<Redundancy>,
    plan: Plan,
    counts: FilterCounts,
}

/// The polycube back-end: one puzzle searched by a schedule of stages.
pub struct PolyEngine<'a> {
    problem: &'a Problem,
    runner: Box<dyn Runner + 'a>,
    redundancy: Option<Redundancy>,
    /// The resolved configuration.
    pub plan: Plan,
    /// Image counts through the filters.
    pub counts: FilterCounts,
    threads: usize,
    equivalence: Equivalence,
}

/// The pieces constrained under images of the first in `redundancy`
/// ([`redundancy::Nested`]) in image indices, only those whose depth (the
/// length of their prefix) has a DLX stage, and every depth above it:
/// only DLX can hide the dropped images and branch on the piece there.
/// The others are dropped from `redundancy` too, so that its weights stay
/// those of the search.
fn nested_images(images: &Images, plan: &Plan, redundancy: Option<&mut Redundancy>) -> Vec<walk::NestedImages> {
    let Some(red) = redundancy else { return Vec::new() };
    let deep = dlx_depths(&plan.schedule, images.n_pieces());
    red.keep_nested(|n| n.prefix.len() <= deep);
    let image_of: std::collections::HashMap<OptionId, u32> =
        images.option.iter().enumerate().map(|(k, &o)| (o, k as u32)).collect();
    red.nested
        .iter()
        .filter_map(|nest| {
            let prefix = nest.prefix.iter().map(|o| image_of.get(o).copied()).collect::<Option<Vec<u32>>>()?;
            let mut dropped: Vec<u32> = nest.dropped.iter().filter_map(|o| image_of.get(o).copied()).collect();
            dropped.sort_unstable();
            Some(walk::NestedImages { prefix, group: nest.group, dropped })
        })
        .collect()
}

/// Whether `schedule` runs DLX at depth 1 of a search of `n` pieces (the
/// stage that can place a second constrained piece).
fn dlx_at_depth_one(schedule: &Schedule, n: u32) -> bool {
    dlx_depths(schedule, n) >= 1
}

/// How many depths after the first have a DLX stage, all of them: DLX
/// places the pieces at depths `1..=k` (with at least two pieces left
/// below; `k = 0` when depth 1 is not DLX).
fn dlx_depths(schedule: &Schedule, n: u32) -> usize {
    (1..n.saturating_sub(1)).take_while(|&d| matches!(schedule.stage_for(n - d), plan::schedule::Stage::Dlx(_))).count()
}

fn build_runner<B: Bits>(images: Images, plan: &Plan, knobs: Knobs) -> Result<Box<dyn Runner>, String> {
    Ok(Box::new(Shared::<B>::new(images, &plan.schedule, knobs)?))
}

impl<'a> PolyEngine<'a> {
    /// [`PolyEngine::new`] with the redundancy filter's static choice.
    fn build(problem: &'a Problem, config: &PolyConfig) -> Result<PolyEngine<'a>, String> {
        Self::finish(problem, config, Self::prepare(problem, config)?)
    }

    /// What [`PolyEngine::build`] does before the search's tables: the
    /// images, the plan and the filters.
    fn prepare(problem: &'a Problem, config: &PolyConfig) -> Result<Prepared, String> {
        let order = config.cell_order.unwrap_or_default();
        let images = Images::from_problem(problem, order).map_err(|e| e.to_string())?;
        if images.n_cells > 1024 {
            return Err(format!("{} free cells: the bit-field engines handle at most 1024", images.n_cells));
        }
        let plan = auto::resolve(problem, &images, config)?;
        let images = if plan.cell_order == order {
            images
        } else {
            Images::from_problem(problem, plan.cell_order).map_err(|e| e.to_string())?
        };
        let n_pieces = images.n_pieces();
        let mut counts = FilterCounts { images: images.len(), ..FilterCounts::default() };
        let all_images = images;
        let (mut keep, mut redundancy) = redundancy::apply_flags(problem, &all_images, &plan.redundancy)?;
        let mut plan = plan;
        if plan.redundancy == RedundancyMode::Auto && auto::is_flat(&all_images) {
            (keep, redundancy) = auto::flat_redundancy(problem, &all_images, keep, redundancy);
        }
        // A second piece needs DLX at depth 1: the plan's, or the one the
        // flat schedule below gives a wide board that has one.
        let auto_schedule = matches!(config.schedule, None | Some(ScheduleSpec::Auto));
        let may_nest = if auto_schedule && auto::is_flat(&all_images) {
            auto::is_wide_flat(&all_images)
        } else {
            dlx_at_depth_one(&plan.schedule, n_pieces)
        };
        if let (true, Some(r)) = (may_nest, redundancy.as_mut()) {
            r.constrain_second_pieces(problem, &all_images);
        }
        // The kept images move out of the full set (no copies).
        let mut images = match keep {
            Some(keep) => all_images.into_kept(&keep),
            None => all_images,
        };
        if matches!(config.schedule, None | Some(ScheduleSpec::Auto)) && auto::is_flat(&images) {
            let nested = redundancy.as_ref().is_some_and(|r| !r.nested.is_empty());
            plan.schedule = auto::flat_schedule(&images, redundancy.as_ref().map(|r| r.group), nested);
        }
        let third = redundancy.as_ref().is_some_and(|r| r.nested.iter().any(|n| n.prefix.len() == 2));
        if auto_schedule && third {
            if let Some(schedule) = auto::third_piece_schedule(&images) {
                plan.schedule = schedule;
            }
        }
        counts.after_redundancy = images.len();
        if plan.force_first && redundancy.is_none() {
            return Err("--force-first places the piece constrained by the redundancy filter first, but no piece is constrained (--redundancy off, or no piece qualifies)".into());
        }
        let one_shot = |t: Option<u32>| t.is_some_and(|t| t <= n_pieces.max(1));
        if one_shot(plan.parity_filter) {
            let table =
                filters::parity::ParityTable::new(&images).map_err(|e| format!("parity filter unavailable: {e}"))?;
            let keep = filters::parity(&images, &table);
            images = images.into_kept(&keep);
        }
        counts.after_parity = images.len();
        if one_shot(plan.volume_filter) {
            let table =
                filters::volume::VolumeTable::new(&images).map_err(|e| format!("volume filter unavailable: {e}"))?;
            let keep = match images.n_cells {
                0..=64 => filters::volume::<u64>(&images, &table),
                65..=128 => filters::volume::<u128>(&images, &table),
                129..=256 => filters::volume::<Wide<4>>(&images, &table),
                257..=512 => filters::volume::<Wide<8>>(&images, &table),
                _ => filters::volume::<Wide<16>>(&images, &table),
            };
            images = images.into_kept(&keep);
        }
        counts.after_volume = images.len();
        if plan.fit_filter != FitFilter::Off {
            let fixpoint = plan.fit_filter == FitFilter::Fixpoint;
            images = match images.n_cells {
                0..=64 => filters::fit_fixpoint::<u64>(images, fixpoint).0,
                65..=128 => filters::fit_fixpoint::<u128>(images, fixpoint).0,
                129..=256 => filters::fit_fixpoint::<Wide<4>>(images, fixpoint).0,
                257..=512 => filters::fit_fixpoint::<Wide<8>>(images, fixpoint).0,
                _ => filters::fit_fixpoint::<Wide<16>>(images, fixpoint).0,
            };
        }
        counts.after_fit = images.len();
        Ok(Prepared { images, redundancy, plan, counts })
    }

    /// The engine of what [`PolyEngine::prepare`] made.
    fn finish(problem: &'a Problem, config: &PolyConfig, prepared: Prepared) -> Result<PolyEngine<'a>, String> {
        let Prepared { images, mut redundancy, plan, counts } = prepared;
        let nested = nested_images(&images, &plan, redundancy.as_mut());
        let knobs = Knobs {
            nested,
            parity_trigger: plan.parity_trigger,
            volume_trigger: plan.volume_trigger,
            parity_filter: plan.parity_filter,
            volume_filter: plan.volume_filter,
            force_first: if plan.force_first { redundancy.as_ref().map(|r| r.group) } else { None },
        };
        let runner = match images.n_cells {
            0..=64 => build_runner::<u64>(images, &plan, knobs)?,
            65..=128 => build_runner::<u128>(images, &plan, knobs)?,
            129..=256 => build_runner::<Wide<4>>(images, &plan, knobs)?,
            257..=512 => build_runner::<Wide<8>>(images, &plan, knobs)?,
            _ => build_runner::<Wide<16>>(images, &plan, knobs)?,
        };
        Ok(PolyEngine {
            problem,
            runner,
            redundancy,
            plan,
            counts,
            threads: config.threads.max(1),
            equivalence: config.equivalence,
        })
    }

    /// The constrained piece, if any.
    pub fn redundancy(&self) -> Option<&Redundancy> {
        self.redundancy.as_ref()
    }

    /// The images searched.
    pub fn images(&self) -> &Images {
        self.runner.images()
    }

    /// Monte-Carlo trials on the engine's threads; `visit` sees the
    /// solutions found, as option ids (on the calling thread).
    pub fn sample(
        &self,
        spec: SampleSpec,
        limits: &Limits,
        visit: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> Result<SampleReport, String> {
        let n = self.images().n_pieces();
        if spec.remaining > n {
            return Err(format!("REMAINING is {} but the puzzle has only {n} pieces", spec.remaining));
        }
        let images = self.runner.images();
        let mut buf = Vec::new();
        Ok(self.runner.sample(spec, limits, self.threads, &mut |path| {
            buf.clear();
            buf.extend(path.iter().map(|&k| images.option[k as usize]));
            visit(&buf)
        }))
    }

    /// Knuth's estimate of this search on the engine's threads, with a
    /// timed run of `window` on as many threads to convert nodes to seconds
    /// (none when `window` is zero). `limits`' deadline and cancel flag end
    /// the probes early ([`estimate::estimate`]).
    pub fn estimate(&self, spec: EstimateSpec, limits: &Limits, window: Duration) -> EstimateRun {
        self.runner.estimate(spec, limits, self.threads, window)
    }

    /// The nodes at `depth` of this search (solutions met above it go to
    /// `visit`), as IR options placed, with the weight of each subtree (the
    /// number of fixed-box solutions each solution below stands for).
    pub fn split(&self, depth: usize, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> Vec<(Vec<OptionId>, u64)> {
        let images = self.runner.images();
        let mut buf = Vec::new();
        let (tasks, _) = self.runner.tasks(depth, &Limits::none(), &mut |path| {
            buf.clear();
            buf.extend(path.iter().map(|&k| images.option[k as usize]));
            visit(&buf)
        });
        tasks
            .into_iter()
            .map(|t| {
                let options: Vec<OptionId> = t.images.iter().map(|&k| images.option[k as usize]).collect();
                let w = match &self.redundancy {
                    Some(r) => r.weight(&options),
                    None => 1,
                };
                (options, w)
            })
            .collect()
    }
}

impl Engine for PolyEngine<'_> {
    fn describe(&self) -> String {
        let p = &self.plan;
        let mut s = format!("poly {}", p.schedule);
        if p.cell_order != CellOrder::ShortAxisFirst && p.schedule.uses_bitfield() {
            s.push_str(&format!(", cell order {}", p.cell_order));
        }
        match &self.redundancy {
            Some(r) => s.push_str(&format!(
                ", {} redundancy on {} ({} of {} images{})",
                if r.mirror { "mirror" } else { "rotational" },
                r.piece,
                r.after,
                r.before,
                if r.imperfect > 0 { format!(", {} with symmetric stabiliser", r.imperfect) } else { String::new() }
            )),
            None => s.push_str(", no redundancy filter"),
        }
        if let Some(nested) = self.redundancy.as_ref().map(|r| &r.nested) {
            for (level, what, under) in [(1, "a second piece", "of them"), (2, "a third", "pairs")] {
                let mut pieces: Vec<&str> =
                    nested.iter().filter(|n| n.prefix.len() == level).map(|n| n.piece.as_str()).collect();
                if pieces.is_empty() {
                    continue;
                }
                let n = pieces.len();
                pieces.sort_unstable();
                pieces.dedup();
                s.push_str(&format!(", {what} constrained under {n} {under} ({})", pieces.join(", ")));
            }
        }
        if p.force_first {
            s.push_str(", constrained piece first");
        }
        for (name, t) in [
            ("parity trigger", p.parity_trigger),
            ("volume trigger", p.volume_trigger),
            ("parity filter", p.parity_filter),
            ("volume filter", p.volume_filter),
        ] {
            if let Some(t) = t {
                s.push_str(&format!(", {name} @{t}"));
            }
        }
        match p.fit_filter {
            FitFilter::Off => {}
            FitFilter::Once => s.push_str(", fit filter"),
            FitFilter::Fixpoint => s.push_str(", fit filter to fixpoint"),
        }
        if self.counts.after_fit != self.counts.images {
            s.push_str(&format!(", {} of {} images searched", self.counts.after_fit, self.counts.images));
        }
        if self.threads > 1 {
            s.push_str(&format!(", {} threads", self.threads));
        }
        s
    }

    fn estimate_nodes(&mut self, probes: u32, seed: u64) -> Option<f64> {
        // Knuth's estimate alone: no timed run for a rate.
        let spec = EstimateSpec { probes: probes.into(), seed };
        Some(self.runner.estimate(spec, &Limits::none(), 1, Duration::ZERO).estimate.nodes)
    }

    fn run(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> SearchStats {
        let start = Instant::now();
        let images = self.runner.images();
        let (problem, red, eq) = (self.problem, self.redundancy.as_ref(), self.equivalence);
        let mut fixed = 0u64;
        let mut buf: Vec<OptionId> = Vec::new();
        let mut copies: Vec<Vec<OptionId>> = Vec::new();
        let mut reporter = Reporter::new(limits, visit);
        let outcome = self.runner.search(limits, self.threads, &mut |path| {
            buf.clear();
            buf.extend(path.iter().map(|&k| images.option[k as usize]));
            let Some(r) = red else {
                return reporter.report(&buf);
            };
            fixed += r.weight(&buf);
            let n = r.expand(problem, &buf, eq, &mut copies);
            for c in &copies[..n] {
                if reporter.report(c) == Flow::Stop {
                    return Flow::Stop;
                }
            }
            Flow::Continue
        });
        SearchStats {
            solutions: reporter.reported,
            nodes: outcome.nodes,
            updates: 0,
            elapsed: start.elapsed(),
            stopped: reporter.stopped(outcome.stopped),
            fixed_box: red.map(|_| fixed),
        }
    }
}

/// Whether the polycube engines can search `problem` (a polycube problem
/// with at most 1024 free cells and 128 piece groups).
pub fn handles(problem: &Problem) -> bool {
    Images::check(problem).is_ok_and(|n_cells| n_cells <= 1024)
}
