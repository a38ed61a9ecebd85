//! An image set as exact cover: the [`Problem`] (for the IR-level tools)
//! and the DLX arena built straight from the images (for the DLX stages
//! of a schedule).

use crate::dlx::Matrix;
use crate::ir::{Problem, ProblemBuilder};
use crate::poly::model::Images;

/// The exact-cover problem of an image set: cell bits are items
/// `0..n_cells`, group `g` is item `n_cells + g` with its multiplicity;
/// option `k` is image `k`.
pub fn image_problem(images: &Images) -> Problem {
    let mut b = ProblemBuilder::new("images");
    for c in 0..images.n_cells {
        b.primary(format!("c{c}"));
    }
    let groups: Vec<u32> = images.groups.iter().map(|g| b.primary_with_multiplicity(g.name.clone(), g.count)).collect();
    b.reserve(images.len(), images.cells.iter().map(|cs| cs.len() + 1).sum());
    for k in 0..images.len() {
        let g = groups[images.group[k] as usize];
        b.option_items(std::iter::once(g).chain(images.cells[k].iter().copied()));
    }
    b.build(None).expect("image problems are well formed")
}

/// The DLX arena of [`image_problem`], built without that problem (no item
/// names, no validation pass: the image set's invariant already makes each
/// row distinct, sorted cells followed by the group item).
pub fn image_matrix(images: &Images) -> Matrix {
    let n = images.n_cells as u32;
    let bounds: Vec<u32> = (0..images.n_cells).map(|_| 1).chain(images.groups.iter().map(|g| g.count)).collect();
    let mut flat = Vec::with_capacity(images.cells.iter().map(|cs| cs.len() + 1).sum());
    let mut ends = Vec::with_capacity(images.len());
    for (cs, &g) in images.cells.iter().zip(&images.group) {
        flat.extend_from_slice(cs);
        flat.push(n + g as u32);
        ends.push(flat.len());
    }
    let rows = ends.iter().enumerate().map(|(k, &end)| &flat[if k == 0 { 0 } else { ends[k - 1] }..end]);
    Matrix::from_items(bounds.len() as u32, &bounds, flat.len(), rows)
}
