//! cliquer (`--backends cliquer`, Debian package `cliquer`) on emx's clique
//! graph ([`crate::encode::clique`]): a node per option, an edge between
//! compatible options; a solution is a clique of the size of the piece
//! (or tile) count. The first solution is one such clique (`-s`); a count
//! lists them all (`-a`), distinct solutions counted once.

use super::{find_program, Answer, ExternalBackend, Job, ProcessRun};
use crate::bench::BenchMode;
use crate::encode::clique;
use crate::ir::Solution;
use std::collections::HashSet;
use std::process::Command;

/// The cliquer adapter.
pub struct Cliquer;

impl ExternalBackend for Cliquer {
    fn name(&self) -> String {
        "cliquer".into()
    }

    fn availability(&self) -> Result<String, String> {
        find_program("cliquer")
            .map(|p| format!("cliquer at {}", p.display()))
            .ok_or_else(|| "`cliquer` not found on PATH: apt-get install cliquer".into())
    }

    fn prepare(&self, job: &Job<'_>) -> Result<Command, String> {
        let problem = job.instance.problem();
        let size = clique::solution_size(problem)
            .ok_or("a bare exact-cover problem has no fixed solution size, so no clique size to look for")?;
        let excluded = vec![false; problem.n_options()];
        let g = clique::graph(problem, &excluded).map_err(|e| e.to_string())?;
        let graph_path = job.dir.join("graph.clq");
        let map_path = job.dir.join("graph.map");
        let write = || -> std::io::Result<()> {
            let mut w = std::io::BufWriter::new(std::fs::File::create(&graph_path)?);
            clique::write(&mut w, job.instance, &g, "")?;
            std::io::Write::flush(&mut w)?;
            let mut m = std::io::BufWriter::new(std::fs::File::create(&map_path)?);
            clique::write_map(&mut m, job.instance, &g)?;
            std::io::Write::flush(&mut m)
        };
        write().map_err(|e| format!("cannot write the clique graph in {}: {e}", job.dir.display()))?;
        let k = size.to_string();
        let mut c = Command::new("cliquer");
        c.args(["-q", "-q", "-u", "-m", &k, "-M", &k]);
        c.arg(if job.mode == BenchMode::Count { "-a" } else { "-s" });
        c.arg(&graph_path);
        Ok(c)
    }

    fn parse(&self, job: &Job<'_>, run: &ProcessRun) -> Result<Answer, String> {
        if run.code() != Some(0) {
            return Err(format!("cliquer exited with code {:?}", run.code()));
        }
        let map = std::fs::read_to_string(job.dir.join("graph.map")).map_err(|e| e.to_string())?;
        let nodes = clique::read_map(&map, job.instance.problem()).map_err(|e| format!("graph.map: {e}"))?;
        let cliques = emx_encoders::graph::read_cliques(&run.stdout, nodes.len() as u32)
            .map_err(|e| format!("cliquer output: {e}"))?;
        // Copies of a piece with multiplicity give several cliques per
        // solution: count distinct solutions.
        let mut seen = HashSet::new();
        let mut solutions: Vec<Solution> = Vec::new();
        for c in &cliques {
            let s = clique::solution_of(&nodes, c);
            if seen.insert(s.options.clone()) {
                solutions.push(s);
            }
        }
        Ok(Answer {
            count: solutions.len() as u64,
            solutions,
            complete: true,
            nodes: None,
            engine: Some(format!("cliquer ({} nodes)", nodes.len())),
        })
    }
}
