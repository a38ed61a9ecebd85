//! DIMACS graphs (`p edge N M`, `e u v`, nodes 1-based) and cliques.
//!
//! The writer streams: [`write_graph`] takes an edge *generator* that it
//! runs twice, once to count the edges for the header and once to write
//! them, so no edge list or text is ever held in memory.

use crate::text::push_u64;
use crate::ParseError;
use std::io::{self, Write};

/// Buffers `e u v` lines and flushes them to a writer in large blocks.
pub struct EdgeWriter<'w, W: Write> {
    w: &'w mut W,
    buf: Vec<u8>,
    written: u64,
    error: Option<io::Error>,
}

impl<'w, W: Write> EdgeWriter<'w, W> {
    /// An edge writer on `w` (the header must already be written).
    pub fn new(w: &'w mut W) -> Self {
        EdgeWriter { w, buf: Vec::with_capacity(1 << 17), written: 0, error: None }
    }
    /// Writes the edge between 0-based nodes `u` and `v` as `e u+1 v+1`.
    pub fn edge(&mut self, u: u32, v: u32) {
        self.buf.extend_from_slice(b"e ");
        push_u64(&mut self.buf, u as u64 + 1);
        self.buf.push(b' ');
        push_u64(&mut self.buf, v as u64 + 1);
        self.buf.push(b'\n');
        self.written += 1;
        if self.buf.len() >= 1 << 17 {
            self.flush_buf();
        }
    }
    fn flush_buf(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.w.write_all(&self.buf) {
                self.error = Some(e);
            }
        }
        self.buf.clear();
    }
    /// Flushes what is buffered; returns the number of edges written or the
    /// first write error.
    pub fn finish(mut self) -> io::Result<u64> {
        self.flush_buf();
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(self.written),
        }
    }
}

/// Writes a whole graph: `c` comments, `p edge N M` and the edges that
/// `edges` reports (0-based, each pair once). `edges` is called twice and
/// must report the same edges both times; the header's edge count comes
/// from the first call. Returns the number of edges.
pub fn write_graph<W: Write>(
    w: &mut W,
    n_nodes: u32,
    comments: &str,
    mut edges: impl FnMut(&mut dyn FnMut(u32, u32)),
) -> io::Result<u64> {
    let mut m = 0u64;
    edges(&mut |_, _| m += 1);
    crate::dimacs::write_comments(w, comments)?;
    writeln!(w, "p edge {n_nodes} {m}")?;
    let mut ew = EdgeWriter::new(w);
    edges(&mut |u, v| ew.edge(u, v));
    let written = ew.finish()?;
    if written != m {
        return Err(io::Error::other(format!(
            "edge generator reported {m} edges when counting but {written} when writing"
        )));
    }
    Ok(m)
}

/// A graph read from a DIMACS file (for tests and small tools).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    /// Number of nodes.
    pub n_nodes: u32,
    /// Edges, 0-based, as read.
    pub edges: Vec<(u32, u32)>,
}

/// Reads a DIMACS graph (`p edge N M` or `p col N M`, then `e u v`).
pub fn read_graph(text: &str) -> Result<Graph, ParseError> {
    let mut header: Option<(u32, u64)> = None;
    let mut edges = Vec::new();
    let mut last = 1;
    for (k, line) in text.lines().enumerate() {
        let n = k + 1;
        last = n;
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            [] | ["c", ..] => {}
            ["p", "edge" | "col", nodes, m] if header.is_none() => {
                let (Ok(nodes), Ok(m)) = (nodes.parse(), m.parse()) else {
                    return Err(ParseError::new(n, format!("expected `p edge NODES EDGES`, found `{line}`")));
                };
                header = Some((nodes, m));
            }
            ["e", u, v] => {
                let Some((nodes, _)) = header else {
                    return Err(ParseError::new(n, "an edge before the `p edge NODES EDGES` header"));
                };
                let node = |s: &str| s.parse::<u32>().ok().filter(|&x| x >= 1 && x <= nodes);
                let (Some(u), Some(v)) = (node(u), node(v)) else {
                    return Err(ParseError::new(n, format!("expected `e U V` with nodes 1..={nodes}, found `{line}`")));
                };
                edges.push((u - 1, v - 1));
            }
            _ => {
                return Err(ParseError::new(
                    n,
                    format!("expected `c`, `p edge NODES EDGES` or `e U V`, found `{line}`"),
                ))
            }
        }
    }
    let Some((n_nodes, m)) = header else {
        return Err(ParseError::new(last, "no `p edge NODES EDGES` header"));
    };
    if edges.len() as u64 != m {
        return Err(ParseError::new(last, format!("the header declares {m} edges, the file holds {}", edges.len())));
    }
    Ok(Graph { n_nodes, edges })
}

/// Reads cliques: 1-based node numbers separated by blanks, returned
/// 0-based. Accepts cliquer's output (`size=9, weight=9:   1 5 9 ...`, one
/// clique per such line), plain lists of numbers (one clique, possibly over
/// several lines) and `c` / `#` comment lines. Every node must be
/// `<= n_nodes` and appear once per clique.
pub fn read_cliques(text: &str, n_nodes: u32) -> Result<Vec<Vec<u32>>, ParseError> {
    let mut cliques: Vec<Vec<u32>> = Vec::new();
    let mut plain: Option<Vec<u32>> = None;
    let mut last = 1;
    for (k, raw) in text.lines().enumerate() {
        let n = k + 1;
        last = n;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line == "c" || line.starts_with("c ") {
            continue;
        }
        let (numbers, labelled) = match line.rsplit_once(':') {
            Some((label, rest)) if label.to_ascii_lowercase().starts_with("size=") => (rest, true),
            Some(_) => {
                return Err(ParseError::new(
                    n,
                    format!("expected node numbers or cliquer's `size=K, weight=W: NODES`, found `{line}`"),
                ))
            }
            None => (line, false),
        };
        let mut nodes = Vec::new();
        for tok in numbers.split_whitespace() {
            match tok.parse::<u32>() {
                Ok(x) if x >= 1 && x <= n_nodes => nodes.push(x - 1),
                _ => return Err(ParseError::new(n, format!("expected a node number in 1..={n_nodes}, found `{tok}`"))),
            }
        }
        let target = if labelled {
            cliques.push(Vec::new());
            cliques.last_mut().expect("just pushed")
        } else {
            plain.get_or_insert_with(Vec::new)
        };
        for x in nodes {
            if target.contains(&x) {
                return Err(ParseError::new(n, format!("node {} is listed twice in one clique", x + 1)));
            }
            target.push(x);
        }
    }
    if let Some(p) = plain {
        if !cliques.is_empty() {
            return Err(ParseError::new(last, "mixes cliquer `size=` lines with plain node lists"));
        }
        cliques.push(p);
    }
    if cliques.is_empty() {
        return Err(ParseError::new(last, "no clique: expected node numbers or cliquer's `size=K, weight=W: NODES`"));
    }
    Ok(cliques)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_header_after_counting() {
        let mut out = Vec::new();
        let m = write_graph(&mut out, 4, "triangle", |e| {
            for (u, v) in [(0, 1), (0, 2), (1, 2)] {
                e(u, v);
            }
        })
        .unwrap();
        assert_eq!(m, 3);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "c triangle\np edge 4 3\ne 1 2\ne 1 3\ne 2 3\n");
        let g = read_graph(&text).unwrap();
        assert_eq!(g, Graph { n_nodes: 4, edges: vec![(0, 1), (0, 2), (1, 2)] });
    }

    #[test]
    fn reads_cliquer_and_plain_cliques() {
        assert_eq!(read_cliques("size=3, weight=3:   1 2 3\n", 3).unwrap(), vec![vec![0, 1, 2]]);
        assert_eq!(read_cliques("c found\n3 1\n2\n", 3).unwrap(), vec![vec![2, 0, 1]]);
        assert_eq!(read_cliques("size=1, weight=1: 1\nsize=1, weight=1: 2\n", 3).unwrap(), vec![vec![0], vec![1]]);
    }

    #[test]
    fn malformed_cliques_and_graphs_name_the_line() {
        let e = |t: &str| read_cliques(t, 3).unwrap_err().to_string();
        assert_eq!(e("1 2\n4\n"), "line 2: expected a node number in 1..=3, found `4`");
        assert_eq!(e("1 x\n"), "line 1: expected a node number in 1..=3, found `x`");
        assert_eq!(e("1 1\n"), "line 1: node 1 is listed twice in one clique");
        assert_eq!(
            e("weight: 1\n"),
            "line 1: expected node numbers or cliquer's `size=K, weight=W: NODES`, found `weight: 1`"
        );
        assert!(e("c nothing\n").contains("no clique"));
        let g = |t: &str| read_graph(t).unwrap_err().to_string();
        assert_eq!(g("p edge 2 1\ne 1 3\n"), "line 2: expected `e U V` with nodes 1..=2, found `e 1 3`");
        assert_eq!(g("p edge 2 2\ne 1 2\n"), "line 2: the header declares 2 edges, the file holds 1");
    }
}
