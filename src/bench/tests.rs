//! Unit tests of `emx bench`: backend lists, counts, skips, errors and
//! disagreements, limits, and per-instance settings, with a fake external
//! backend standing in for a real program.

use super::external::{Answer, ExternalBackend, Job, ProcessRun};
use super::*;
use crate::input;
use std::process::Command;

fn load(rel: &str) -> BenchInstance {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel);
    BenchInstance { instance: input::load(&path, None, 1).unwrap(), path, puzzle: 1 }
}

/// A program that "answers" whatever it is told to, for testing the runner.
struct Fake {
    name: &'static str,
    available: bool,
    answer: Answer,
}

impl ExternalBackend for Fake {
    fn name(&self) -> String {
        self.name.into()
    }
    fn availability(&self) -> Result<String, String> {
        if self.available {
            Ok("fake 1.0".into())
        } else {
            Err("fake is not installed: apt-get install fake".into())
        }
    }
    fn prepare(&self, _job: &Job<'_>) -> Result<Command, String> {
        Ok(Command::new("true"))
    }
    fn parse(&self, _job: &Job<'_>, _run: &ProcessRun) -> Result<Answer, String> {
        Ok(self.answer.clone())
    }
}

#[test]
fn backend_lists() {
    let all = parse_backends("all").unwrap();
    let names: Vec<String> = all.iter().map(Backend::name).collect();
    for b in ["dlx", "sat", "cadical", "kissat", "minisat", "cpsat", "cliquer"] {
        assert!(names.contains(&b.to_string()), "{b} missing from {names:?}");
    }
    assert!(!names.contains(&"auto".to_string()));
    assert_eq!(parse_backends("dlx, dlx").unwrap().len(), 1);
    let e = parse_backends("dlx,nope").err().unwrap();
    assert!(e.contains("unknown backend `nope`") && e.contains("dlx"), "{e}");
    assert!(parse_backends(" , ").is_err());
    assert_eq!(parse_backends("emx=/x/emx").unwrap()[0].name(), "emx=/x/emx");
    let sat = parse_backends("sat=/no/such/solver").unwrap();
    assert!(sat[0].availability().unwrap_err().contains("/no/such/solver"));
}

#[test]
fn counts_skips_errors_and_disagreements() {
    let soma = load("instances/polycube/somacube_def.txt");
    let edge = load("instances/edgematch/brendan_set2/pieces_03x03.txt");
    let wrong = Answer {
        solutions: vec![crate::ir::Solution { options: vec![0] }],
        count: 1,
        complete: true,
        ..Answer::default()
    };
    let liar = Answer { count: 7, complete: true, ..Answer::default() };
    let backends = vec![
        Backend::InCrate("dlx".into()),
        Backend::External(Box::new(Fake { name: "absent", available: false, answer: Answer::default() })),
        Backend::External(Box::new(Fake { name: "invalid", available: true, answer: wrong })),
        Backend::External(Box::new(Fake { name: "liar", available: true, answer: liar })),
    ];
    let config = BenchConfig { mode: BenchMode::Count, runs: 2, ..BenchConfig::default() };
    let mut seen = Vec::new();
    let report = run(&[soma, edge], &backends, &config, &mut |event| {
        if let BenchEvent::Finished { instance, backend, run, measurement } = event {
            seen.push((instance, backend, run, measurement.status));
        }
    });
    // Interleaved: run 0 of every pair before run 1; skips are not repeated.
    assert_eq!(seen.first(), Some(&(0, 0, 0, Status::Count)));
    assert!(seen.iter().position(|s| s.2 == 1).unwrap() > seen.iter().rposition(|s| s.2 == 0).unwrap());
    assert_eq!(seen.iter().filter(|s| s.1 == 1).count(), 2);
    assert_eq!(report.rows.len(), 8);
    let row = |inst: usize, b: &str| &report.rows[inst * 4 + backends.iter().position(|x| x.name() == b).unwrap()];
    assert_eq!((row(0, "dlx").status, row(0, "dlx").solutions), (Status::Count, 11520));
    assert_eq!((row(1, "dlx").status, row(1, "dlx").solutions), (Status::Count, 8));
    assert_eq!(row(0, "dlx").runs_s.len(), 2);
    assert!(row(0, "dlx").nodes.unwrap() > 0);
    assert_eq!(row(0, "absent").status, Status::Skipped);
    assert!(row(0, "absent").reason.as_deref().unwrap().contains("apt-get install fake"));
    assert_eq!(row(1, "invalid").status, Status::Error);
    assert!(row(1, "invalid").reason.as_deref().unwrap().contains("does not verify"), "{:?}", row(1, "invalid"));
    assert_eq!(report.disagreements.len(), 2);
    assert!(report.disagreements[0].answers.contains(&("liar".into(), "7".into())));
    assert!(!report.backends[1].available);

    let text = report::table(&report);
    assert!(text.lines().next().unwrap().starts_with("instance"));
    assert!(text.contains("DISAGREEMENT"));
    let csv = report::csv(&report);
    assert_eq!(csv.lines().count(), 9);
    let json = report::json(&report);
    assert_eq!(json["rows"][0]["status"], "count");
    assert_eq!(json["mode"], "count");
    let svg = report::chart(&report);
    assert!(svg.starts_with("<?xml") && svg.contains("somacube"));
}

#[test]
fn limits_give_timeouts_and_cancel_stops() {
    let pent = load("instances/polycube/pentominoes_10x6_def.txt");
    let config = BenchConfig { mode: BenchMode::Count, node_limit: Some(5000), ..BenchConfig::default() };
    let report = run(std::slice::from_ref(&pent), &[Backend::InCrate("dlx".into())], &config, &mut |_| {});
    assert_eq!(report.rows[0].status, Status::NodeLimit);
    let config =
        BenchConfig { mode: BenchMode::Count, time_limit: Some(Duration::from_millis(20)), ..BenchConfig::default() };
    let report = run(std::slice::from_ref(&pent), &[Backend::InCrate("dlx".into())], &config, &mut |_| {});
    assert_eq!(report.rows[0].status, Status::Timeout);
    let cancel = Arc::new(AtomicBool::new(true));
    let config = BenchConfig { cancel: Some(cancel), ..BenchConfig::default() };
    let report = run(&[pent], &[Backend::InCrate("dlx".into())], &config, &mut |_| {});
    assert!(report.interrupted && report.rows.is_empty());
}

#[test]
fn per_instance_settings_and_the_speed_up_column() {
    let soma = load("instances/polycube/somacube_def.txt");
    let edge = load("instances/edgematch/brendan_set2/pieces_03x03.txt");
    let two =
        BackendConfig { poly: crate::poly::PolyConfig { threads: 2, ..Default::default() }, ..Default::default() };
    let variant = Backend::PerInstance {
        label: "poly x2".into(),
        detail: "emx solve --backend poly --threads 2".into(),
        setups: vec![Ok(("poly".into(), two)), Err("the flags do not act here".into())],
        child: None,
    };
    assert_eq!(variant.availability().unwrap(), "emx solve --backend poly --threads 2");
    let config = BenchConfig { mode: BenchMode::Count, ..BenchConfig::default() };
    let report = run(&[soma, edge], &[Backend::InCrate("dlx".into()), variant], &config, &mut |_| {});
    let row = |i: &str, b: &str| report.rows.iter().find(|r| r.instance.contains(i) && r.backend == b).unwrap();
    let x2 = row("somacube", "poly x2");
    assert_eq!((x2.status, x2.solutions), (Status::Count, row("somacube", "dlx").solutions));
    assert!(x2.engine.contains("2 threads"), "{}", x2.engine);
    let skipped = row("pieces_03x03", "poly x2");
    assert_eq!((skipped.status, skipped.reason.as_deref()), (Status::Skipped, Some("the flags do not act here")));
    assert!(report.disagreements.is_empty());

    // The last column: each row against its instance's first row.
    let text = report::table(&report);
    let header = text.lines().next().unwrap();
    assert!(header.ends_with("vs first"), "{header}");
    let line = |i: &str, b: &str| text.lines().find(|l| l.starts_with(i) && l.contains(b)).unwrap().to_string();
    assert!(line("somacube", "dlx").ends_with(" 1.00x"), "{text}");
    let expected = row("somacube", "dlx").time_s / x2.time_s;
    let shown: f64 = line("somacube", "poly x2").rsplit(' ').next().unwrap().trim_end_matches('x').parse().unwrap();
    assert!((shown - expected).abs() <= 0.01 * expected.max(1.0), "{shown} against {expected}: {text}");
    assert!(line("pieces_03x03", "poly x2").ends_with(" -"), "{text}");
}
