//! Which engine `emx solve` runs, with which settings, after checking
//! that every engine flag given acts on it.

use super::args::SolveArgs;
use emx::backend::pick::AutoPick;
use emx::backend::BackendConfig;
use emx::input;
use emx::ir::Equivalence;
use emx::solve::Mode;

/// The engine `emx solve ARGS` runs on a puzzle, and its settings.
pub struct EngineSetup {
    /// The [`backend`] name (`sat` when `--sat-solver` implies it).
    pub backend: String,
    /// Its settings.
    pub config: BackendConfig,
    /// cp, scan or `auto` on an edge-matching puzzle: `--threads` and
    /// `--estimate` go to those engines.
    pub edge_threads: bool,
}

/// The [`EngineSetup`] of `args` on `instance`, after checking that every
/// engine flag given acts on it (a flag for an engine that does not run is
/// a usage error). `mode` and `--solution-limit` are the run's (a run that
/// stops early keeps `auto`'s colour rule); `equivalence` is what the
/// caller identifies. `emx bench --variant` sets its engines up with it too.
pub fn engine_setup(
    args: &SolveArgs,
    instance: &input::Instance,
    mode: Mode,
    equivalence: Equivalence,
) -> anyhow::Result<EngineSetup> {
    let backend_name = match (args.backend.as_str(), &args.sat_solver) {
        ("auto", Some(_)) => "sat",
        ("sat", _) | (_, None) => args.backend.as_str(),
        (other, Some(_)) => crate::usage_bail!("--sat-solver needs --backend sat (got --backend {other})"),
    };
    let mut given = args.poly.given();
    for (flag, set) in [
        ("--threads", args.threads.is_some()),
        ("--sample", args.sample.is_some()),
        ("--estimate", args.estimate.is_some()),
    ] {
        if set {
            given.push(flag);
        }
    }
    // The edge-matching engines split their trees too (`auto` picks cp or
    // scan there, and refuses --threads where it would fall back to DLX).
    let edge_threads =
        matches!(instance.kind, input::InstanceKind::EdgeMatch(_)) && matches!(backend_name, "cp" | "scan" | "auto");
    if edge_threads {
        // cp and scan estimate their own trees too (`--estimate`).
        given.retain(|&flag| flag != "--threads" && flag != "--estimate");
    }
    let uses_poly = backend_name == "poly"
        || (backend_name == "auto"
            && matches!(instance.kind, input::InstanceKind::Polycube(_))
            && instance.poly_handles());
    if !uses_poly {
        if let Some(&flag) = given.first() {
            if flag == "--threads" {
                crate::usage_bail!(
                    "--threads splits the search of the polycube engines (--backend poly) and of the edge-matching engines cp and scan; backend `{backend_name}` on {} runs on one thread",
                    instance.file
                );
            }
            if flag == "--estimate" {
                crate::usage_bail!(
                    "--estimate estimates the search of the polycube engines (--backend poly) and of the edge-matching engines cp and scan; backend `{backend_name}` on {} cannot",
                    instance.file
                );
            }
            crate::usage_bail!(
                "{flag} sets the polycube engines, which do not run here (backend `{backend_name}` on {}): use --backend poly on a polycube puzzle",
                instance.file
            );
        }
    }
    crate::usage_ensure!(args.cp.is_none() || backend_name == "cp", "--cp configures the cp backend: add --backend cp");
    crate::usage_ensure!(
        args.scan.is_none() || backend_name == "scan",
        "--scan configures the scan backend: add --backend scan"
    );
    crate::usage_ensure!(
        args.auto_pick.is_none() || (backend_name == "auto" && edge_threads),
        "--auto-pick sets how --backend auto picks between cp and scan on edge-matching puzzles"
    );
    let config = BackendConfig {
        sat_solver: args.sat_solver.clone(),
        cnf: args.cnf.options(instance, vec![])?,
        equivalence,
        poly: args.poly.config(args.threads()),
        cp: args.cp.clone().unwrap_or_default(),
        scan: args.scan.unwrap_or_default(),
        threads: if edge_threads { args.threads() } else { 1 },
        // The estimates are of the whole tree: a run that stops early
        // keeps the rule.
        auto_pick: if matches!(mode, Mode::First(_)) || args.solution_limit.is_some() {
            AutoPick::Rule
        } else {
            args.auto_pick.unwrap_or_default()
        },
        // The caller sets the run's deadline and cancellation.
        stop: Default::default(),
    };
    Ok(EngineSetup { backend: backend_name.to_string(), config, edge_threads })
}
