//! Clique graphs from the IR (the max-clique formulation of Salassa et al.,
//! generalised to exact cover with colours and multiplicities; see
//! [`emx_encoders::CliqueGraph`]) with a node-to-placement map, and the way
//! back from a clique to a solution.
//!
//! Map file: `c` comment lines, then one line per node:
//! `NODE OPTION COPY PLACEMENT...` (node 1-based as in the graph, option
//! 0-based as in the IR, copy = which copy of a piece with multiplicity).

use super::placement_text;
use crate::input::Instance;
use crate::ir::{Problem, Solution};
use emx_encoders::graph::try_write_graph;
use emx_encoders::{CliqueGraph, CliqueNode, EncodeError, ParseError};
use std::io::{self, Write};

/// Sizes of a written graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GraphStats {
    /// Nodes.
    pub nodes: u32,
    /// Edges.
    pub edges: u64,
}

/// The graph over the options not `excluded`.
pub fn graph(problem: &Problem, excluded: &[bool]) -> Result<CliqueGraph, EncodeError> {
    CliqueGraph::new(problem, excluded)
}

/// Size of the clique a solution forms, when every solution has the same
/// number of options: one option per piece copy (polycube) or tile (edge
/// matching). `None` for a bare exact-cover problem.
pub fn solution_size(problem: &Problem) -> Option<usize> {
    let geo = problem.geometry.as_ref()?;
    Some(geo.pieces.iter().filter(|p| !p.stationary).map(|p| p.names.len()).sum())
}

/// Writes the graph in DIMACS format (`c` comments, `p edge N M`, `e u v`).
pub fn write(w: &mut impl Write, instance: &Instance, g: &CliqueGraph, note: &str) -> io::Result<GraphStats> {
    let problem = instance.problem();
    let mut comments = format!("emx clique graph of {} ({})\n", instance.file, problem.name);
    comments
        .push_str("a node per option (per copy of a piece with multiplicity); an edge between compatible options\n");
    if let Some(k) = solution_size(problem) {
        comments.push_str(&format!("a solution is a clique of size {k}\n"));
    }
    if !note.is_empty() {
        comments.push_str(note);
        comments.push('\n');
    }
    let edges = try_write_graph(w, g.n_nodes(), &comments, |f| g.try_for_each_edge(f))?;
    Ok(GraphStats { nodes: g.n_nodes(), edges })
}

/// Writes the node-to-placement map.
pub fn write_map(w: &mut impl Write, instance: &Instance, g: &CliqueGraph) -> io::Result<()> {
    writeln!(w, "c emx clique map of {} ({})", instance.file, instance.problem().name)?;
    writeln!(w, "c node option copy placement")?;
    for (k, n) in g.nodes().iter().enumerate() {
        writeln!(w, "{} {} {} {}", k + 1, n.option, n.copy, placement_text(instance, n.option))?;
    }
    Ok(())
}

/// Reads a map written by [`write_map`]; checks that nodes are numbered
/// 1, 2, ... in order and that every option exists in `problem`.
pub fn read_map(text: &str, problem: &Problem) -> Result<Vec<CliqueNode>, ParseError> {
    let mut nodes = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line == "c" || line.starts_with("c ") {
            continue;
        }
        let mut f = line.split_whitespace();
        let mut num = || f.next().and_then(|t| t.parse::<u32>().ok());
        let (Some(node), Some(option), Some(copy)) = (num(), num(), num()) else {
            return Err(ParseError::new(k + 1, format!("expected `NODE OPTION COPY ...`, found `{line}`")));
        };
        if node as usize != nodes.len() + 1 {
            return Err(ParseError::new(k + 1, format!("expected node {}, found node {node}", nodes.len() + 1)));
        }
        if option as usize >= problem.n_options() {
            return Err(ParseError::new(
                k + 1,
                format!("option {option} does not exist (the puzzle has {} options)", problem.n_options()),
            ));
        }
        nodes.push(CliqueNode { option, copy });
    }
    Ok(nodes)
}

/// The options of a clique's nodes (0-based node numbers), as a solution
/// to be verified.
pub fn solution_of(nodes: &[CliqueNode], clique: &[u32]) -> Solution {
    let mut options: Vec<u32> = clique.iter().map(|&v| nodes[v as usize].option).collect();
    options.sort_unstable();
    Solution { options }
}
