//! `emx task`: run one task file of `emx split --tasks N` and write its
//! result (emx::tasks): every part solved to the end by `auto`, every
//! solution verified and listed, with counts and digests.

use crate::args::Format;
use crate::interrupt::interrupt_flag;
use crate::usage::{EXIT_LIMIT, EXIT_OK};
use clap::Args;
use emx::backend::{self, BackendConfig};
use emx::edgematch::split::{part_puzzle, EdgePart};
use emx::frontend::edgematch::write_emx;
use emx::input::{self, Instance, InstanceKind, LoadOptions};
use emx::poly::run::split::{part_text, write_atomically, Part};
use emx::search::{Flow, Limits};
use emx::solve::{solve_streaming, Mode, SolveOptions};
use emx::tasks::{solutions_digest, task_digest, PartFound, TaskFile, TaskResult, FORMAT};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct TaskArgs {
    /// A task file written by `emx split --tasks N` (`DIR/task-K.json`).
    pub task: PathBuf,
    /// Result file, written atomically when every part is done (default: TASK as `task-K.result.json`).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Output format of the summary (the result file is always JSON).
    #[arg(long, default_value = "text", value_parser = crate::args::format("The summary as one JSON object (docs/json.md)", None))]
    pub format: Format,
}

/// Where the result of `task` goes by default: `task-K.json` gives
/// `task-K.result.json` beside it.
pub fn default_result(task: &Path) -> PathBuf {
    task.with_extension("result.json")
}

pub fn run(args: TaskArgs) -> anyhow::Result<u8> {
    let name = args.task.display().to_string();
    let text = emx::frontend::read_text(&args.task)?;
    let task: TaskFile =
        serde_json::from_str(&text).map_err(|e| crate::usage_error!("{name}: not an emx task file: {e}"))?;
    crate::usage_ensure!(task.format == FORMAT, "{name}: format `{}`, expected `{FORMAT}`", task.format);
    let stem = Path::new(&task.file).file_stem().map_or("puzzle".into(), |s| s.to_string_lossy().into_owned());
    let original = input::load_text(&task.text, &task.file, &stem, None, task.puzzle, &LoadOptions::default())?;
    let cancel = interrupt_flag();
    let mut parts = Vec::with_capacity(task.parts.len());
    for part in &task.parts {
        let label = format!("{name} (part {})", part.id);
        let bad_spec = |e: serde_json::Error| crate::usage_error!("{label}: not a part of a {} split: {e}", task.kind);
        let instance = match &original.kind {
            InstanceKind::Polycube(pc) if task.kind == "polycube" => {
                let spec: Part = serde_json::from_value(part.spec.clone()).map_err(bad_spec)?;
                let text = part_text(&pc.puzzle, &spec.placed, &format!("part {} of task {}", part.id, task.task));
                let format = Some(input::InputFormat::Polycube);
                input::load_text(&text, &label, &format!("part-{}", part.id), format, 1, &LoadOptions::default())?
            }
            InstanceKind::EdgeMatch(em) if task.kind == emx::edgematch::split::KIND => {
                let spec: EdgePart = serde_json::from_value(part.spec.clone()).map_err(bad_spec)?;
                let name = format!("{}-part-{}", em.puzzle.name, part.id);
                let text = write_emx(&part_puzzle(&em.puzzle, &spec.fixed, &name), &[]);
                let format = Some(input::InputFormat::Emx);
                input::load_text(&text, &label, &name, format, 1, &LoadOptions::default())?
            }
            _ => crate::usage_bail!("{name}: a {} task, but its puzzle {} is not of that kind", task.kind, task.file),
        };
        let (solutions, complete) = solve_all(&instance, &cancel)?;
        if !complete {
            eprintln!("{name}: interrupted at part {}; no result written", part.id);
            return Ok(EXIT_LIMIT);
        }
        let digest = solutions_digest(&solutions);
        parts.push(PartFound { id: part.id, found: solutions.len() as u64, complete, digest, solutions });
    }
    let found = parts.iter().map(|p| p.found).sum();
    let result = TaskResult {
        format: FORMAT.into(),
        split: task.split.clone(),
        task: task.task,
        complete: true,
        found,
        digest: task_digest(&parts),
        parts,
    };
    let out = args.output.clone().unwrap_or_else(|| default_result(&args.task));
    write_atomically(&out, &(serde_json::to_string(&result)? + "\n"))?;
    if args.format == Format::Json {
        let v = json!({
            "command": "task",
            "task": task.task,
            "tasks": task.tasks,
            "split": task.split,
            "parts": result.parts.len(),
            "found": found,
            "digest": result.digest,
            "result": out.display().to_string(),
        });
        println!("{v}");
    } else {
        println!(
            "{name}: task {} of {}, {} parts, {found} solutions; result in {}",
            task.task,
            task.tasks,
            result.parts.len(),
            out.display()
        );
    }
    Ok(EXIT_OK)
}

/// Every solution of `instance` by `auto`, each verified, as
/// `emx solve --format json` lists them; and whether the search finished.
fn solve_all(
    instance: &Instance,
    cancel: &std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> anyhow::Result<(Vec<serde_json::Value>, bool)> {
    let mut engine = backend::make("auto", instance, &BackendConfig::default())?;
    let limits = Limits { cancel: Some(cancel.clone()), ..Limits::default() };
    let opts = SolveOptions { mode: Some(Mode::All), limits, ..SolveOptions::default() };
    let mut solutions = Vec::new();
    let report = solve_streaming(engine.as_mut(), instance.problem(), &opts, &|s| instance.verify(s), &mut |s| {
        solutions.push(instance.solution_json(s));
        Flow::Continue
    })?;
    if let Some(err) = engine.error() {
        anyhow::bail!("{}: {err}", engine.describe());
    }
    Ok((solutions, report.stats.complete()))
}
