//! The rows of a benchmark: each pair's median run, and the instances on
//! which backends contradict each other.

use super::{BenchInstance, BenchMode, Disagreement, Measurement, Row, Status};

/// The median run of a pair (lower median for an even number of runs;
/// runs ordered by time, unanswered runs last); any error wins.
pub(super) fn summarise(inst: &BenchInstance, backend: &str, runs: &[Measurement]) -> Option<Row> {
    let first = runs.first()?;
    let mut order: Vec<&Measurement> = runs.iter().collect();
    order.sort_by_key(|a| (!a.status.answered(), a.time));
    let median = order[(order.len() - 1) / 2];
    let chosen = runs.iter().find(|m| m.status == Status::Error).unwrap_or(median);
    let time_s = median.time.as_secs_f64();
    Some(Row {
        instance: inst.instance.file.clone(),
        puzzle: inst.label(),
        backend: backend.to_string(),
        engine: if chosen.engine.is_empty() { first.engine.clone() } else { chosen.engine.clone() },
        status: chosen.status,
        solutions: chosen.solutions,
        nodes: chosen.nodes,
        time_s,
        nodes_per_s: chosen.nodes.filter(|_| time_s > 0.0).map(|n| n as f64 / time_s),
        runs_s: runs.iter().filter(|m| m.status != Status::Skipped).map(|m| m.time.as_secs_f64()).collect(),
        reason: chosen.reason.clone(),
    })
}

pub(super) fn disagreements(rows: &[Row], mode: BenchMode) -> Vec<Disagreement> {
    let mut out = Vec::new();
    let mut files: Vec<&str> = rows.iter().map(|r| r.instance.as_str()).collect();
    files.dedup();
    for file in files {
        let answers: Vec<(String, String)> = rows
            .iter()
            .filter(|r| r.instance == file && r.status.answered())
            .map(|r| {
                let answer = match (mode, r.status) {
                    (BenchMode::Count, Status::Count) => r.solutions.to_string(),
                    (_, Status::Unsat) => "unsat".to_string(),
                    _ => "sat".to_string(),
                };
                (r.backend.clone(), answer)
            })
            .collect();
        let mut distinct: Vec<&String> = answers.iter().map(|(_, a)| a).collect();
        distinct.sort();
        distinct.dedup();
        if distinct.len() > 1 {
            out.push(Disagreement { instance: file.to_string(), answers });
        }
    }
    out
}
