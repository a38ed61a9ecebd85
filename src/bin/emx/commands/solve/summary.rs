//! What `emx solve` says around its solutions: the header line and the
//! summary in text, and the same facts as JSON fields.

use crate::report::{instance_kind, stop_words};
use emx::input;
use emx::ir::Equivalence;
use emx::solve::{Mode, SolveReport};
use serde_json::{json, Map, Value};
use std::io::Write;

/// What the summary needs besides the report.
pub struct RunFacts<'a> {
    pub counters: &'a [(&'a str, u64)],
    pub mode: emx::solve::Mode,
    pub backend: &'a str,
}

/// The line naming the puzzle and its size.
pub fn print_header(out: &mut dyn Write, instance: &input::Instance) -> std::io::Result<()> {
    let problem = instance.problem();
    writeln!(
        out,
        "{} ({}): {} items, {} options",
        problem.name,
        instance.file,
        problem.items().len(),
        problem.n_options()
    )
}

fn equivalence_text(e: Equivalence) -> &'static str {
    match e {
        Equivalence::None => "",
        Equivalence::Rotations => " up to rotation",
        Equivalence::RotationsAndMirrors => " up to rotation and reflection",
    }
}

/// The counts, the search's figures and why it stopped.
pub fn print_summary(
    out: &mut dyn Write,
    instance: &input::Instance,
    report: &SolveReport,
    counters: &[(&str, u64)],
) -> std::io::Result<()> {
    let problem = instance.problem();
    let partial = if report.stats.complete() { "" } else { "at least " };
    write!(out, "solutions: {partial}{}{}", report.reported, equivalence_text(report.equivalence))?;
    if report.equivalence != Equivalence::None {
        write!(out, " ({} counting every symmetric copy)", report.found)?;
    } else if !problem.symmetries.is_empty() {
        write!(out, " (every symmetric copy counted; --unique counts up to rotation)")?;
    }
    if report.stats.fixed_box.is_some() && report.found != report.stats.solutions {
        write!(
            out,
            "\n  ({} searched under the redundancy filter, each weighted by its orbit to give the fixed-box count {})",
            report.stats.solutions, report.found
        )?;
    }
    writeln!(out)?;
    if let input::InstanceKind::EdgeMatch(e) = &instance.kind {
        let groups = emx::edgematch::identical_tiles(&e.puzzle);
        if !groups.is_empty() {
            let copies: usize = groups.iter().map(Vec::len).sum();
            writeln!(
                out,
                "note: {copies} tiles fall in {} groups of identical tiles; boards that differ only by swapping identical tiles are counted separately",
                groups.len()
            )?;
        }
    }
    let s = &report.stats;
    // Engines that do not count elementary work report 0 updates: say nothing then.
    let updates = if s.updates > 0 { format!(", {} updates", s.updates) } else { String::new() };
    writeln!(
        out,
        "search: {}, {} nodes{updates}, {:.3} s, {:.2} M nodes/s",
        report.engine,
        s.nodes,
        s.elapsed.as_secs_f64(),
        s.nodes_per_sec() / 1e6
    )?;
    if !counters.is_empty() {
        let list: Vec<String> = counters.iter().map(|(k, v)| format!("{} {v}", k.replace('_', " "))).collect();
        writeln!(out, "counters: {}", list.join(", "))?;
    }
    if let Some(reason) = s.stopped {
        writeln!(out, "stopped: {} (the search did not finish)", stop_words(reason))?;
    }
    Ok(())
}

/// The JSON fields known before the search (docs/json.md).
pub fn header_fields(instance: &input::Instance, facts: &RunFacts) -> Map<String, Value> {
    let problem = instance.problem();
    let v = json!({
        "command": "solve",
        "file": instance.file,
        "puzzle": problem.name,
        "kind": instance_kind(instance),
        "backend": facts.backend,
        "mode": mode_name(facts.mode),
        "first": match facts.mode {
            Mode::First(n) => Some(n),
            _ => None,
        },
        "items": problem.items().len(),
        "options": problem.n_options(),
    });
    let Value::Object(map) = v else { unreachable!("an object") };
    map
}

/// The JSON fields of the search's outcome (docs/json.md).
pub fn summary_fields(report: &SolveReport, facts: &RunFacts) -> Map<String, Value> {
    let s = &report.stats;
    let mut v = json!({
        "engine": report.engine,
        "solutions": report.reported,
        "found": report.found,
        "searched": s.solutions,
        "equivalence": report.equivalence,
        "complete": s.complete(),
        "stopped": s.stopped,
        // The search ran: only a stop before it says where it stopped.
        "stopped_while": null,
        "nodes": s.nodes,
        "updates": (s.updates > 0).then_some(s.updates),
        "time_s": s.elapsed.as_secs_f64(),
        "nodes_per_s": s.nodes_per_sec(),
    });
    if !facts.counters.is_empty() {
        v["counters"] =
            facts.counters.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>().into();
    }
    let Value::Object(map) = v else { unreachable!("an object") };
    map
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Count => "count",
        Mode::All => "all",
        Mode::First(_) => "first",
    }
}
