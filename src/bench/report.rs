//! A [`BenchReport`] as a text table, CSV, JSON, and a chart.

use super::{BenchMode, BenchReport, Row, Status};
use crate::render::svg::{bar_chart_log, Bar, BarChart};
use crate::search::progress::si;
use std::fmt::Write;

fn time_text(row: &Row) -> String {
    if row.status == Status::Skipped {
        return "-".into();
    }
    let t = row.time_s;
    let s = if t >= 100.0 {
        format!("{t:.0} s")
    } else if t >= 1.0 {
        format!("{t:.2} s")
    } else if t >= 0.01 {
        format!("{:.1} ms", t * 1e3)
    } else {
        format!("{:.3} ms", t * 1e3)
    };
    if row.status == Status::Timeout {
        format!(">{s}")
    } else {
        s
    }
}

fn solutions_text(row: &Row) -> String {
    match row.status {
        Status::Skipped | Status::Error => "-".into(),
        Status::Count | Status::Solved | Status::Unsat => row.solutions.to_string(),
        _ if row.solutions > 0 => format!(">={}", row.solutions),
        _ => "0".into(),
    }
}

/// The speed-up of `row` against the instance's first row (the first
/// backend given: the baseline), when both answered.
fn against_first(report: &BenchReport, row: &Row) -> String {
    let first = report.rows.iter().find(|r| r.instance == row.instance).filter(|r| r.status.answered());
    match first {
        Some(f) if row.status.answered() && row.time_s > 0.0 && f.time_s > 0.0 => {
            // Two significant digits at least (a run 300 times slower is
            // 0.0033x, not 0.00x).
            let r = f.time_s / row.time_s;
            let digits = (1 - r.log10().floor() as i64).clamp(2, 9) as usize;
            format!("{r:.digits$}x")
        }
        _ => "-".into(),
    }
}

/// The report as an aligned text table, with notes (skips, errors,
/// disagreements) below it. The last column is each row's speed-up
/// against the instance's first row (the first backend given).
pub fn table(report: &BenchReport) -> String {
    let header = ["instance", "backend", "status", "solutions", "nodes", "time", "nodes/s", "vs first"];
    let mut cells: Vec<[String; 8]> = Vec::new();
    for r in &report.rows {
        cells.push([
            r.puzzle.clone(),
            r.backend.clone(),
            r.status.name().to_string(),
            solutions_text(r),
            r.nodes.map_or_else(|| "-".into(), |n| n.to_string()),
            time_text(r),
            // A SAT engine's "nodes" are its solver calls: no rate of those.
            r.nodes_per_s.filter(|_| !r.engine.contains("solver calls")).map_or_else(|| "-".into(), si),
            against_first(report, r),
        ]);
    }
    let mut width = header.map(str::len);
    for row in &cells {
        for (k, c) in row.iter().enumerate() {
            width[k] = width[k].max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, row: [&str; 8]| {
        let mut s = String::new();
        for (k, c) in row.iter().enumerate() {
            let pad = width[k].saturating_sub(c.chars().count());
            if k < 3 {
                s.push_str(c);
                s.push_str(&" ".repeat(pad));
            } else {
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            }
            if k + 1 < row.len() {
                s.push_str("  ");
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(&mut out, header);
    for row in &cells {
        line(&mut out, row.each_ref().map(String::as_str));
    }
    let mode = match report.mode {
        BenchMode::First => "first solution",
        BenchMode::Count => "count all solutions",
    };
    let limit = report.time_limit_s.map_or_else(|| "no time limit".into(), |t| format!("time limit {t} s"));
    let _ =
        writeln!(out, "\n{mode}; {limit}; median of {} run{}", report.runs, if report.runs == 1 { "" } else { "s" });
    let notes: Vec<&Row> = report.rows.iter().filter(|r| r.reason.is_some()).collect();
    for r in notes {
        let _ =
            writeln!(out, "{} on {}: {}: {}", r.backend, r.puzzle, r.status.name(), r.reason.as_deref().unwrap_or(""));
    }
    for d in &report.disagreements {
        let answers: Vec<String> = d.answers.iter().map(|(b, a)| format!("{b} says {a}")).collect();
        let _ = writeln!(out, "DISAGREEMENT on {}: {}", d.instance, answers.join(", "));
    }
    if report.interrupted {
        out.push_str("interrupted: the table covers the runs done before Ctrl-C\n");
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The rows as CSV (RFC 4180), one header line.
pub fn csv(report: &BenchReport) -> String {
    let mut out =
        String::from("instance,puzzle,backend,engine,status,solutions,nodes,time_s,nodes_per_s,runs_s,reason\n");
    for r in &report.rows {
        let runs: Vec<String> = r.runs_s.iter().map(|t| format!("{t:.6}")).collect();
        let fields = [
            csv_field(&r.instance),
            csv_field(&r.puzzle),
            csv_field(&r.backend),
            csv_field(&r.engine),
            r.status.name().to_string(),
            r.solutions.to_string(),
            r.nodes.map_or_else(String::new, |n| n.to_string()),
            format!("{:.6}", r.time_s),
            r.nodes_per_s.map_or_else(String::new, |n| format!("{n:.0}")),
            csv_field(&runs.join(" ")),
            csv_field(r.reason.as_deref().unwrap_or("")),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// The report as one JSON object (schema in `docs/json.md`).
pub fn json(report: &BenchReport) -> serde_json::Value {
    let mut v = serde_json::to_value(report).expect("a bench report serialises");
    v["command"] = "bench".into();
    v
}

/// The times as a log-scale bar chart: instances along the x axis, one bar
/// per backend; timeouts hatched up to the limit; skips and errors marked.
pub fn chart(report: &BenchReport) -> String {
    let mut groups: Vec<(String, String)> = Vec::new();
    let mut series: Vec<String> = Vec::new();
    for r in &report.rows {
        if !groups.iter().any(|(f, _)| *f == r.instance) {
            groups.push((r.instance.clone(), r.puzzle.clone()));
        }
        if !series.contains(&r.backend) {
            series.push(r.backend.clone());
        }
    }
    let bars = groups
        .iter()
        .map(|(file, _)| {
            series
                .iter()
                .map(|b| match report.rows.iter().find(|r| &r.instance == file && &r.backend == b) {
                    None => Bar::Missing("not run".into()),
                    Some(r) => match r.status {
                        Status::Solved | Status::Count | Status::Unsat => Bar::Time(r.time_s),
                        Status::Timeout | Status::NodeLimit | Status::Interrupted => Bar::Timeout(r.time_s),
                        Status::Error | Status::Skipped => {
                            Bar::Missing(format!("{}: {}", r.status.name(), r.reason.as_deref().unwrap_or("")))
                        }
                    },
                })
                .collect()
        })
        .collect();
    let task = match report.mode {
        BenchMode::First => "find the first solution",
        BenchMode::Count => "count all solutions",
    };
    bar_chart_log(&BarChart {
        title: format!("emx bench: time to {task} (median of {})", report.runs),
        groups: groups.into_iter().map(|(_, p)| p).collect(),
        series,
        bars,
    })
}
